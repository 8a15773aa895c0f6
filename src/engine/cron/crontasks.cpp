// User-defined tasks ([cron.<name>] COMMAND / URL), the coordinators, and the engine's built-in
// tasks.
#include "cron.h"

#include "engine/cache/cache.h"
#include "engine/core/notices.h"
#include "engine/engine.h"
#include "engine/globallock/globallock.h"
#include "engine/redis/redisconnection.h"
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

#include <csignal>

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
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    // The daemon blocks SIGINT/SIGTERM in every thread (it reads them from a signalfd); a command
    // must start with the default mask, or it could not be stopped the usual way.
    process.setChildProcessModifier([] {
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, nullptr);
    });
    process.start(argv.first(), argv.mid(1));
    if (!process.waitForStarted(10000))
        return Status::unavailable(QStringLiteral("cannot start %1: %2").arg(argv.first(), process.errorString()));
    const auto deadline = SteadyClock::now() + timeout;
    QByteArray output;
    while (!process.waitForFinished(50)) {
        output += process.readAll();
        if (output.size() > 1024 * 1024)
            output = output.right(64 * 1024); // keep the end: that is where errors are
        if (context.cancel.isCancelled() || SteadyClock::now() >= deadline) {
            process.kill();
            process.waitForFinished(5000);
            if (context.cancel.isCancelled())
                return context.cancel.cause();
            return Status::deadlineExceeded(QStringLiteral("timed out after %1: %2")
                                                .arg(formatDuration(timeout), tail(output + process.readAll())));
        }
    }
    output += process.readAll();
    if (process.exitStatus() != QProcess::NormalExit)
        return Status::internal(QStringLiteral("%1 crashed: %2").arg(argv.first(), tail(output)));
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

class LocalCoordinator final : public CronCoordinator
{
public:
    explicit LocalCoordinator(QString stateFile) : m_stateFile(std::move(stateFile))
    {
        QFile file(m_stateFile);
        if (!m_stateFile.isEmpty() && file.exists() && file.open(QIODevice::ReadOnly)) {
            for (const QJsonValue &name : QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("paused")).toArray())
                m_paused.insert(name.toString());
        }
    }
    QString kind() const override { return QStringLiteral("local"); }
    Result<bool> claimTick(const QString &, const QDateTime &, std::chrono::seconds) override { return true; }
    Result<bool> isPaused(const QString &task) override
    {
        std::lock_guard lock(m_mutex);
        return m_paused.contains(task);
    }
    Status setPaused(const QString &task, bool paused) override
    {
        std::lock_guard lock(m_mutex);
        if (paused)
            m_paused.insert(task);
        else
            m_paused.remove(task);
        if (m_stateFile.isEmpty())
            return Status::ok();
        QJsonArray names;
        QStringList sorted = m_paused.values();
        sorted.sort();
        for (const QString &name : sorted)
            names.append(name);
        QSaveFile file(m_stateFile);
        if (!file.open(QIODevice::WriteOnly))
            return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(m_stateFile, file.errorString()));
        file.write(QJsonDocument(QJsonObject{{QStringLiteral("paused"), names}}).toJson());
        if (!file.commit())
            return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(m_stateFile, file.errorString()));
        return Status::ok();
    }

private:
    const QString m_stateFile;
    std::mutex m_mutex;
    QSet<QString> m_paused; // guarded by m_mutex
};

class RedisCoordinator final : public CronCoordinator
{
public:
    RedisCoordinator(RedisAddress address, QString prefix) : m_pool(std::move(address)), m_prefix(std::move(prefix)) {}
    QString kind() const override { return QStringLiteral("redis"); }

    Result<bool> claimTick(const QString &task, const QDateTime &tick, std::chrono::seconds ttl) override
    {
        const QByteArray key = "cron_tick:" + task.toUtf8() + ':' + QByteArray::number(tick.toSecsSinceEpoch());
        const Result<RedisValue> reply = call({"SET", key, "1", "NX", "PX", QByteArray::number(qint64(ttl.count()) * 1000)});
        if (!reply)
            return reply.status();
        return !reply->isNil();
    }
    Result<bool> isPaused(const QString &task) override
    {
        const Result<RedisValue> reply = call({"SISMEMBER", pausedKey(), task.toUtf8()});
        if (!reply)
            return reply.status();
        return reply->integer == 1;
    }
    Status setPaused(const QString &task, bool paused) override
    {
        return call({paused ? QByteArray("SADD") : QByteArray("SREM"), pausedKey(), task.toUtf8()}).status();
    }

private:
    QByteArray pausedKey() const { return (m_prefix + QStringLiteral("cron:paused")).toUtf8(); }
    Result<RedisValue> call(const QList<QByteArray> &args) { return m_pool.commandWithin(std::chrono::seconds(2), args); }

    RedisPool m_pool;
    const QString m_prefix;
};

} // namespace

std::unique_ptr<CronCoordinator> createLocalCronCoordinator(const QString &stateFile)
{
    return std::make_unique<LocalCoordinator>(stateFile);
}

Result<std::unique_ptr<CronCoordinator>> createRedisCronCoordinator(const QString &connStr, const QString &prefix)
{
    Result<RedisAddress> address = RedisAddress::parse(connStr);
    if (!address)
        return address.status();
    return std::unique_ptr<CronCoordinator>(std::make_unique<RedisCoordinator>(*address, prefix));
}

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

static std::vector<CronTaskDefinition> builtInDefinitions(Engine *engine, NoticeBoard *notices)
{
    CronTaskDefinition cache;
    cache.name = QStringLiteral("cache_self_check");
    cache.defaults.enabled = true;
    cache.defaults.schedule = QStringLiteral("@every 10m");
    cache.run = [engine](const CronRunContext &) -> Result<QString> {
        const CacheCheckResult check = selfCheck(engine->cache());
        const QString took = QStringLiteral("%1 ms").arg(double(check.elapsed.count()) / 1e6, 0, 'f', 2);
        if (!check.ok)
            return Status::unavailable(QStringLiteral("%1 cache failed its self-check after %2: %3").arg(engine->cache().adapter(), took, check.error));
        if (check.slow)
            return QStringLiteral("%1 cache is slow: %2 (threshold %3 ms)").arg(engine->cache().adapter(), took).arg(kSlowCacheThreshold.count());
        return QStringLiteral("%1 cache ok in %2").arg(engine->cache().adapter(), took);
    };

    CronTaskDefinition queues;
    queues.name = QStringLiteral("queue_health_check");
    queues.defaults.enabled = true;
    queues.defaults.schedule = QStringLiteral("@every 5m");
    queues.run = [engine](const CronRunContext &) -> Result<QString> {
        QStringList problems;
        const std::vector<QueueStats> list = engine->queues().list();
        for (const QueueStats &q : list) {
            if (q.length < 0)
                problems.append(QStringLiteral("%1: backend unreachable").arg(q.name));
            else if (q.capacity > 0 && q.length * 10 >= qint64(q.capacity) * 9)
                problems.append(QStringLiteral("%1: %2 of %3 slots used").arg(q.name).arg(q.length).arg(q.capacity));
            if (q.paused && q.length > 0)
                problems.append(QStringLiteral("%1: paused with %2 item(s) waiting").arg(q.name).arg(q.length));
            if (q.corruptTotal > 0)
                problems.append(QStringLiteral("%1: %2 corrupt item(s) skipped").arg(q.name).arg(q.corruptTotal));
        }
        if (!problems.isEmpty())
            return Status::unavailable(problems.join(QStringLiteral("; ")));
        return QStringLiteral("%1 queue(s) healthy").arg(list.size());
    };

    CronTaskDefinition notices_;
    notices_.name = QStringLiteral("delete_old_system_notices");
    notices_.defaults.enabled = false; // as in Gitea: deleting history is opt-in
    notices_.defaults.schedule = QStringLiteral("@every 168h");
    notices_.defaults.extra = {{QStringLiteral("OLDER_THAN"), QStringLiteral("168h")}};
    notices_.run = [notices](const CronRunContext &context) -> Result<QString> {
        const auto age = std::chrono::duration_cast<std::chrono::seconds>(
            context.config->duration(QStringLiteral("OLDER_THAN"), std::chrono::hours(168)));
        return QStringLiteral("removed %1 notice(s) older than %2").arg(notices->removeOlderThan(age)).arg(formatDuration(age));
    };

    return {std::move(cache), std::move(queues), std::move(notices_)};
}

Status registerBuiltInCronTasks(CronService &cron, Engine &engine, NoticeBoard &notices)
{
    for (CronTaskDefinition &definition : builtInDefinitions(&engine, &notices)) {
        if (Status registered = cron.registerTask(std::move(definition)); !registered)
            return registered;
    }
    return Status::ok();
}

Status validateCronSettings(const EngineConfig &config)
{
    // A throwaway service: nothing is started, no task function is called.
    LockerOptions lockOptions;
    const std::unique_ptr<Locker> locker = createMemoryLocker(lockOptions);
    const std::unique_ptr<CronCoordinator> coordinator = createLocalCronCoordinator(QString());
    NoticeBoard notices;
    ProcessRegistry processes;
    CronService cron(config, *locker, *coordinator, notices, processes, CronOptions());
    QStringList errors;
    for (CronTaskDefinition &definition : builtInDefinitions(nullptr, nullptr)) {
        if (Status registered = cron.registerTask(std::move(definition)); !registered)
            errors.append(registered.message());
    }
    if (Status registered = cron.registerUserTasks(); !registered)
        errors.append(registered.message());
    if (!errors.isEmpty())
        return Status::invalidArgument(errors.join(QLatin1Char('\n')));
    return Status::ok();
}

} // namespace Switchyard
