// User-defined tasks: [cron.<name>] sections with COMMAND or URL.
#include "cron.h"

#include "engine/core/childprocess.h"
#include "engine/settings/config.h"
#include "engine/settings/duration.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSaveFile>
#include <QSet>
#include <QTimer>


namespace Switchyard {

namespace {

QString tail(const QByteArray &output, int limit = 2000)
{
    QString text = QString::fromUtf8(output).trimmed();
    if (text.size() > limit)
        text = QStringLiteral("…") + text.right(limit);
    return text;
}

// COMMAND: argv (no shell), output captured, non-zero exit = error, TIMEOUT kills it.
Result<QString> runCommand(const CronRunContext &context)
{
    const QStringList argv = QProcess::splitCommand(context.config->value(QStringLiteral("COMMAND")));
    if (argv.isEmpty())
        return Status::invalidArgument(QStringLiteral("COMMAND is empty"));
    const auto timeout = context.config->duration(QStringLiteral("TIMEOUT"), std::chrono::minutes(10));
    // posix_spawnp with an empty signal mask and default handlers (the daemon blocks SIGINT/SIGTERM
    // in every thread): a command can be stopped the usual way.
    ChildProcess process;
    if (Status started = process.start(argv.first(), argv.mid(1)); !started)
        return started;
    const auto deadline = SteadyClock::now() + timeout;
    QByteArray output;
    // Output as it comes; every 50 ms at most, cancellation and the deadline are checked.
    while (!process.finished()) {
        output += process.read(50);
        if (output.size() > 1024 * 1024)
            output = output.right(64 * 1024); // keep the end: that is where errors are
        if (context.cancel.isCancelled() || SteadyClock::now() >= deadline) {
            process.kill();
            if (context.cancel.isCancelled())
                return context.cancel.cause();
            return Status::deadlineExceeded(QStringLiteral("timed out after %1: %2")
                                                .arg(formatDuration(timeout), tail(output + process.read(0))));
        }
    }
    output += process.read(0);
    if (process.crashed())
        return Status::internal(QStringLiteral("%1 crashed (signal %2): %3").arg(argv.first()).arg(process.exitSignal()).arg(tail(output)));
    if (process.exitCode() != 0)
        return Status::internal(QStringLiteral("exit code %1: %2").arg(process.exitCode()).arg(tail(output)));
    return tail(output);
}

// URL: an HTTP request (METHOD, default GET) with TIMEOUT; non-2xx = error.
Result<QString> callUrl(const CronRunContext &context)
{
    const QUrl url(context.config->value(QStringLiteral("URL")));
    const QByteArray method = context.config->value(QStringLiteral("METHOD")).toUpper().toLatin1();
    const auto timeout = context.config->duration(QStringLiteral("TIMEOUT"), std::chrono::seconds(30));
    QNetworkAccessManager network; // this run's own: never shared between threads
    QNetworkRequest request(url);
    request.setTransferTimeout(int(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("Switchyard-Cron"));
    request.setRawHeader("X-Switchyard-Trace", context.traceId.toUtf8());
    QNetworkReply *reply = network.sendCustomRequest(request, method.isEmpty() ? QByteArrayLiteral("GET") : method, QByteArray());
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    const CancelCallback stop = context.cancel.onCancel([&loop] { QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection); });
    if (!reply->isFinished())
        loop.exec();
    if (!reply->isFinished()) {
        reply->abort();
        reply->deleteLater();
        return context.cancel.cause();
    }
    const int code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->read(64 * 1024);
    const QString error = reply->errorString();
    const bool networkError = reply->error() != QNetworkReply::NoError && code == 0;
    reply->deleteLater();
    if (networkError)
        return Status::unavailable(QStringLiteral("%1 %2: %3").arg(QString::fromLatin1(method.isEmpty() ? "GET" : method), url.toString(QUrl::RemoveUserInfo), error));
    if (code < 200 || code > 299)
        return Status::internal(QStringLiteral("HTTP %1: %2").arg(code).arg(tail(body, 500)));
    return QStringLiteral("HTTP %1: %2").arg(code).arg(tail(body, 500));
}

} // namespace

Status CronService::registerUserTasks()
{
    const Settings &s = m_config.settings();
    QStringList errors;
    for (const QString &name : s.subsectionNames(QStringLiteral("cron."))) {
        if (!builtInTitle(name).isEmpty())
            continue; // settings of a built-in task
        const QStringList section{QStringLiteral("cron.") + name};
        const QString command = s.string(section, QStringLiteral("COMMAND"), QString()).valueOr(QString());
        const QString url = s.string(section, QStringLiteral("URL"), QString()).valueOr(QString());
        if (command.isEmpty() == url.isEmpty()) {
            errors.append(QStringLiteral("[cron.%1]: a user-defined task needs exactly one of COMMAND or URL "
                                         "(built-in tasks: cache_self_check, queue_health_check, delete_old_system_notices, …)")
                              .arg(name));
            continue;
        }
        if (!s.has(section, QStringLiteral("SCHEDULE"))) {
            errors.append(QStringLiteral("[cron.%1]: SCHEDULE is required for a user-defined task").arg(name));
            continue;
        }
        if (!url.isEmpty()) {
            const QUrl parsed(url, QUrl::StrictMode);
            if (!parsed.isValid() || (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https"))) {
                errors.append(QStringLiteral("%1 = \"%2\" is not valid; expected an http:// or https:// URL")
                                  .arg(s.location(section, QStringLiteral("URL")), url));
                continue;
            }
        }
        CronTaskDefinition definition;
        definition.name = name;
        definition.title = s.string(section, QStringLiteral("TITLE"), QString()).valueOr(QString());
        if (definition.title.isEmpty())
            definition.title = command.isEmpty() ? QStringLiteral("Call %1").arg(url) : QStringLiteral("Run %1").arg(command);
        definition.defaults.enabled = true;
        definition.defaults.schedule = QStringLiteral("@daily");
        if (command.isEmpty()) {
            definition.defaults.extra = {{QStringLiteral("URL"), url}, {QStringLiteral("METHOD"), QStringLiteral("GET")},
                                         {QStringLiteral("TIMEOUT"), QStringLiteral("30s")}};
            definition.run = callUrl;
        } else {
            definition.defaults.extra = {{QStringLiteral("COMMAND"), command}, {QStringLiteral("TIMEOUT"), QStringLiteral("10m")}};
            definition.run = runCommand;
        }
        if (Status registered = registerTask(std::move(definition)); !registered)
            errors.append(registered.message());
    }
    if (!errors.isEmpty())
        return Status::invalidArgument(errors.join(QLatin1Char('\n')));
    return Status::ok();
}

} // namespace Switchyard
