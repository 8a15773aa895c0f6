// switchyardctl: the command-line client (docs/cli.md). Every instance command goes through the
// admin API (the same endpoints the console's remote backend uses); `token` edits the tokens of a
// data directory; `cron next` works offline on a schedule.
//
// Exit codes: 0 ok, 1 the operation failed, 2 usage, 3 unreachable, 4 unauthorised or forbidden.

#include "admin/auditlog.h"
#include "admin/tokens.h"

#include "engine/core/version.h"
#include "engine/cron/schedule.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslError>
#include <QStandardPaths>
#include <QHostAddress>
#include <QTextStream>
#include <QTimer>
#include <QUrlQuery>
#include <QWebSocket>

#include <csignal>
#include <functional>

using namespace Switchyard;

namespace {

enum Exit { ExitOk = 0, ExitFailed = 1, ExitUsage = 2, ExitUnreachable = 3, ExitDenied = 4 };

const char *const kUsage =
    "Commands (instance commands use the admin API at --url):\n"
    "  instance                          the instance's identity and settings (alias: health)\n"
    "  self-check                        database, cache, redis, queues and disk checks\n"
    "  queues [list]                     queues with lengths, workers and totals\n"
    "  queues flush QID [--timeout MS]   drain one queue (negative timeout: discard)\n"
    "  queues flush-all [--timeout MS] [--non-blocking]\n"
    "  queues remove-all QID [--dry-run] delete every waiting item (--dry-run: count them)\n"
    "  queues set-workers QID N          change a queue's worker limit\n"
    "  queues pause QID | resume QID\n"
    "  cron [list]                       tasks with schedule, next run and last status\n"
    "  cron run NAME | pause NAME | resume NAME\n"
    "  cron runs NAME                    run history, newest first, with skipped firings\n"
    "  cron next SCHEDULE [--count N] [--tz ZONE] [--from TIME]   offline (alias: next)\n"
    "  locks [list] | locks force-release KEY\n"
    "  cache [info] | cache test | cache stats\n"
    "  qos                               admission control figures\n"
    "  processes [list] | processes cancel PID\n"
    "  notices [list] | notices delete ID\n"
    "  audit [--action A] [--since TIME] every mutating admin call, newest first\n"
    "  metrics                           the Prometheus text\n"
    "  stream tail [--type T] [--count N]  print live frames\n"
    "  token create NAME [--role admin|read-only] | token list | token revoke NAME   (--data-dir)\n"
    "\n"
    "The token comes from --token-file, else $SWITCHYARD_TOKEN, else the admin-token file of the\n"
    "data directory (--data-dir or the default) — never from the command line.\n"
    "Exit codes: 0 ok, 1 operation failed, 2 usage, 3 unreachable, 4 unauthorised/forbidden.";

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

int usage(const QString &message)
{
    err() << "switchyardctl: " << message << "; see --help\n";
    return ExitUsage;
}

// ---- Formatting ---------------------------------------------------------------------------------

QString cell(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined: return QStringLiteral("-");
    case QJsonValue::Bool: return value.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    case QJsonValue::Double: {
        const double d = value.toDouble();
        return d == double(qint64(d)) ? QString::number(qint64(d)) : QString::number(d, 'f', 2);
    }
    case QJsonValue::String: {
        const QString s = value.toString();
        const QDateTime t = s.size() >= 20 && s.at(4) == u'-' && s.at(10) == u'T' ? QDateTime::fromString(s, Qt::ISODateWithMs)
                                                                                  : QDateTime();
        if (t.isValid())
            return t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        return s.isEmpty() ? QStringLiteral("-") : s.simplified();
    }
    default: return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
}

// What the server sent, safe for a terminal: control characters escaped, never interpreted.
QString printable(const QString &text)
{
    return Admin::AuditLog::escapeControl(text, std::numeric_limits<qsizetype>::max());
}

// A JSON body as the server sent it, re-encoded (JSON escapes control characters) or, when it is
// not JSON, escaped.
QString printableJson(const QByteArray &body)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error == QJsonParseError::NoError)
        return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
    return printable(QString::fromUtf8(body));
}

struct Column
{
    QString header;
    QString key;
};

void printTable(const QJsonArray &rows, const QList<Column> &columns)
{
    if (rows.isEmpty()) {
        out() << "(none)\n";
        return;
    }
    QList<QStringList> cells;
    QList<int> widths;
    for (const Column &c : columns)
        widths << c.header.size();
    for (const QJsonValue &row : rows) {
        QStringList line;
        for (int i = 0; i < columns.size(); ++i) {
            QString text = printable(cell(row.toObject().value(columns[i].key)));
            if (text.size() > 60)
                text = text.left(59) + QStringLiteral("…");
            widths[i] = std::max(widths[i], int(text.size()));
            line << text;
        }
        cells << line;
    }
    auto printLine = [&](const QStringList &line) {
        for (int i = 0; i < line.size(); ++i)
            out() << (i + 1 < line.size() ? line[i].leftJustified(widths[i] + 2) : line[i]);
        out() << '\n';
    };
    QStringList headers;
    for (const Column &c : columns)
        headers << c.header.toUpper();
    printLine(headers);
    for (const QStringList &line : std::as_const(cells))
        printLine(line);
}

void printObject(const QJsonObject &object)
{
    int width = 0;
    for (auto it = object.begin(); it != object.end(); ++it)
        width = std::max(width, int(it.key().size()));
    for (auto it = object.begin(); it != object.end(); ++it)
        out() << printable(it.key() + u':').leftJustified(width + 2) << printable(cell(it.value())) << '\n';
}

// ---- The API ------------------------------------------------------------------------------------

struct Answer
{
    int status = 0;
    QByteArray body;
    QString networkError;
    QByteArray totalCount;
    QString location; // a redirect's target (never followed)
    QJsonDocument json() const { return QJsonDocument::fromJson(body); }
};

class Client
{
public:
    Client(QUrl base, QByteArray token) : m_base(std::move(base)), m_token(std::move(token))
    {
        // Never follow a redirect: the Authorization header would go to wherever it points.
        m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    }

    Answer call(const QByteArray &method, const QString &path, const QUrlQuery &query = {}, const QByteArray &body = {})
    {
        QUrl url = m_base;
        url.setPath(m_base.path(QUrl::FullyEncoded) + path, QUrl::TolerantMode); // segments come percent-encoded
        url.setQuery(query);
        QNetworkRequest request(url);
        if (!m_token.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + m_token);
        if (!body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = m_network.sendCustomRequest(request, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        if (!reply->isFinished())
            loop.exec();
        Answer answer;
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        answer.body = reply->readAll();
        answer.totalCount = reply->rawHeader("X-Total-Count");
        answer.location = QString::fromUtf8(reply->rawHeader("Location"));
        if (answer.status == 0)
            answer.networkError = reply->errorString();
        reply->deleteLater();
        return answer;
    }

    QUrl base() const { return m_base; }
    QByteArray token() const { return m_token; }

private:
    QUrl m_base;
    QByteArray m_token;
    QNetworkAccessManager m_network;
};

// Prints what went wrong and returns the exit code for it.
int failure(const Answer &answer, const QUrl &base)
{
    if (answer.status == 0) {
        err() << "switchyardctl: cannot reach " << base.toString() << ": " << answer.networkError << '\n';
        return ExitUnreachable;
    }
    const QString message = answer.json().object().value(QStringLiteral("message")).toString();
    if (answer.status >= 300 && answer.status < 400) {
        err() << "switchyardctl: " << answer.status << " redirect to " << printable(answer.location)
              << " — not followed: the token would go along; use --url with the address you trust\n";
        return ExitFailed;
    }
    err() << "switchyardctl: " << answer.status << ' '
          << printable(message.isEmpty() ? QString::fromUtf8(answer.body.left(300)) : message) << '\n';
    if (answer.status == 401)
        err() << "  (check the token: --token-file, $SWITCHYARD_TOKEN or the data directory's admin-token)\n";
    return answer.status == 401 || answer.status == 403 ? ExitDenied : ExitFailed;
}

struct Options
{
    bool json = false;
    QCommandLineParser *parser = nullptr;
    QString value(const QString &name) const { return parser->value(name); }
    bool isSet(const QString &name) const { return parser->isSet(name); }
};

// Calls and prints: a table for arrays, key/value lines for objects, or the JSON itself.
int show(Client &client, const Options &o, const QString &path, const QList<Column> &columns, const QUrlQuery &query = {})
{
    const Answer answer = client.call("GET", path, query);
    if (answer.status != 200)
        return failure(answer, client.base());
    if (o.json) {
        out() << printableJson(answer.body) << '\n';
        return ExitOk;
    }
    const QJsonDocument doc = answer.json();
    if (doc.isArray()) {
        printTable(doc.array(), columns);
        if (!answer.totalCount.isEmpty() && answer.totalCount.toLongLong() > doc.array().size())
            out() << "(" << doc.array().size() << " of " << answer.totalCount << "; use --page/--limit)\n";
    } else {
        printObject(doc.object());
    }
    return ExitOk;
}

int act(Client &client, const Options &o, const QByteArray &method, const QString &path, const QString &done,
        const QUrlQuery &query = {}, const QByteArray &body = {})
{
    const Answer answer = client.call(method, path, query, body);
    if (answer.status < 200 || answer.status >= 300)
        return failure(answer, client.base());
    if (o.json)
        out() << printableJson(answer.body) << '\n';
    else
        out() << done << '\n';
    return ExitOk;
}

QUrlQuery paging(const Options &o)
{
    QUrlQuery query;
    if (o.isSet(QStringLiteral("page")))
        query.addQueryItem(QStringLiteral("page"), o.value(QStringLiteral("page")));
    query.addQueryItem(QStringLiteral("limit"), o.isSet(QStringLiteral("limit")) ? o.value(QStringLiteral("limit")) : QStringLiteral("500"));
    return query;
}

QString encoded(const QString &segment)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(segment));
}

// ---- Commands -----------------------------------------------------------------------------------

int cronNext(const QStringList &args, const Options &o)
{
    if (args.size() != 1)
        return usage(QStringLiteral("usage: switchyardctl cron next \"<schedule>\" [--count N] [--tz ZONE] [--from TIME]"));
    bool ok = true;
    const int count = o.isSet(QStringLiteral("count")) ? o.value(QStringLiteral("count")).toInt(&ok) : 5;
    if (!ok || count < 1 || count > 10000)
        return usage(QStringLiteral("--count must be a number from 1 to 10000"));
    QTimeZone zone = QTimeZone::systemTimeZone();
    if (o.isSet(QStringLiteral("tz"))) {
        zone = QTimeZone(o.value(QStringLiteral("tz")).toUtf8());
        if (!zone.isValid())
            return usage(QStringLiteral("unknown time zone \"%1\" (e.g. UTC, Europe/Berlin)").arg(o.value(QStringLiteral("tz"))));
    }
    QDateTime from = QDateTime::currentDateTimeUtc();
    if (o.isSet(QStringLiteral("from"))) {
        from = QDateTime::fromString(o.value(QStringLiteral("from")), Qt::ISODateWithMs);
        if (!from.isValid())
            return usage(QStringLiteral("--from \"%1\" is not a time (e.g. 2026-12-01T08:00:00Z)").arg(o.value(QStringLiteral("from"))));
    }
    const Result<Schedule> schedule = Schedule::parse(args.at(0));
    if (!schedule) {
        err() << "switchyardctl: " << schedule.status().message() << '\n';
        return ExitUsage;
    }
    const QList<QDateTime> firings = schedule->nextFirings(from, zone, count);
    if (firings.isEmpty()) {
        err() << "switchyardctl: \"" << args.at(0) << "\" never fires\n";
        return ExitFailed;
    }
    if (o.json) {
        QJsonArray array;
        for (const QDateTime &firing : firings)
            array.append(firing.toOffsetFromUtc(firing.offsetFromUtc()).toString(Qt::ISODate));
        out() << QJsonDocument(array).toJson(QJsonDocument::Compact) << '\n';
        return ExitOk;
    }
    for (const QDateTime &firing : firings)
        out() << firing.toString(Qt::ISODate) << '\n';
    return ExitOk;
}

QString dataDir(const Options &o)
{
    if (o.isSet(QStringLiteral("data-dir")))
        return o.value(QStringLiteral("data-dir"));
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)).filePath(QStringLiteral("switchyard"));
}

int token(const QStringList &args, const Options &o)
{
    Admin::TokenStore store(dataDir(o));
    const QString sub = args.value(0);
    if (sub == QLatin1String("create") && args.size() == 2) {
        const Result<Admin::Role> role = Admin::roleFromName(o.isSet(QStringLiteral("role")) ? o.value(QStringLiteral("role"))
                                                                                             : QStringLiteral("read-only"));
        if (!role)
            return usage(role.status().message());
        const Result<QString> created = store.create(args.at(1), *role);
        if (!created) {
            err() << "switchyardctl: " << created.status().message() << '\n';
            return created.status().code() == Status::Code::InvalidArgument ? ExitUsage : ExitFailed;
        }
        if (o.json)
            out() << QJsonDocument(QJsonObject{{QStringLiteral("name"), args.at(1)}, {QStringLiteral("role"), Admin::roleName(*role)},
                                               {QStringLiteral("token"), *created}})
                         .toJson(QJsonDocument::Compact)
                  << '\n';
        else
            out() << "token \"" << args.at(1) << "\" (" << Admin::roleName(*role) << ") — shown this once:\n" << *created << '\n';
        return ExitOk;
    }
    if (sub == QLatin1String("revoke") && args.size() == 2) {
        const Status revoked = store.revoke(args.at(1));
        if (!revoked) {
            err() << "switchyardctl: " << revoked.message() << '\n';
            return ExitFailed;
        }
        out() << "revoked \"" << args.at(1) << "\"\n";
        return ExitOk;
    }
    if (sub == QLatin1String("list") && args.size() == 1) {
        const Result<std::vector<Admin::TokenInfo>> tokens = store.list();
        if (!tokens) {
            err() << "switchyardctl: " << tokens.status().message() << '\n';
            return ExitFailed;
        }
        QJsonArray rows;
        for (const Admin::TokenInfo &t : *tokens)
            rows.append(QJsonObject{{QStringLiteral("name"), t.name}, {QStringLiteral("role"), Admin::roleName(t.role)},
                                    {QStringLiteral("created_at"), t.createdAt.toString(Qt::ISODate)}});
        if (o.json)
            out() << QJsonDocument(rows).toJson(QJsonDocument::Compact) << '\n';
        else
            printTable(rows, {{QStringLiteral("name"), QStringLiteral("name")}, {QStringLiteral("role"), QStringLiteral("role")},
                              {QStringLiteral("created"), QStringLiteral("created_at")}});
        return ExitOk;
    }
    return usage(QStringLiteral("usage: switchyardctl token create NAME [--role admin|read-only] | token list | token revoke NAME"));
}

int streamTail(Client &client, const Options &o)
{
    bool ok = true;
    const int count = o.isSet(QStringLiteral("count")) ? o.value(QStringLiteral("count")).toInt(&ok) : 0;
    if (!ok || count < 0)
        return usage(QStringLiteral("--count must be a number (0: until interrupted)"));
    const QString type = o.value(QStringLiteral("type"));
    QUrl url = client.base();
    url.setScheme(url.scheme() == QLatin1String("https") ? QStringLiteral("wss") : QStringLiteral("ws"));
    url.setPath(url.path() + QStringLiteral("/stream"));
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + client.token());
    QWebSocket socket;
    int received = 0;
    int exitCode = ExitOk;
    QEventLoop loop;
    QObject::connect(&socket, &QWebSocket::textMessageReceived, &loop, [&](const QString &frame) {
        const QString frameType = frame.section(u'\n', 0, 0);
        if (!type.isEmpty() && frameType != type)
            return;
        out() << printable(o.json ? frame.section(u'\n', 1) : frameType + u' ' + frame.section(u'\n', 1)) << Qt::endl;
        if (count > 0 && ++received >= count)
            loop.quit();
    });
    QObject::connect(&socket, &QWebSocket::disconnected, &loop, [&] {
        const int code = socket.closeCode();
        if (code == 4401 || code == 4403 || code == 4429) {
            err() << "switchyardctl: the stream refused us: " << socket.closeReason() << '\n';
            exitCode = ExitDenied;
        } else if (received == 0 || count > 0) {
            err() << "switchyardctl: the stream ended: " << (socket.closeReason().isEmpty() ? socket.errorString() : socket.closeReason()) << '\n';
            exitCode = ExitUnreachable;
        }
        loop.quit();
    });
    socket.open(request);
    loop.exec();
    return exitCode;
}

int run(const QStringList &positional, const Options &o, Client &client)
{
    const QString command = positional.value(0);
    const QString sub = positional.value(1);
    const QStringList rest = positional.mid(2);
    const auto needs = [&](int n, const QString &form) -> bool {
        if (rest.size() != n) {
            usage(QStringLiteral("usage: switchyardctl %1").arg(form));
            return false;
        }
        return true;
    };

    if (command == QLatin1String("instance") || command == QLatin1String("health")) {
        if (command == QLatin1String("health"))
            return show(client, o, QStringLiteral("/health"), {});
        return show(client, o, QStringLiteral("/instance"), {});
    }
    if (command == QLatin1String("self-check")) {
        const Answer answer = client.call("GET", QStringLiteral("/self-check"));
        if (answer.status != 200)
            return failure(answer, client.base());
        if (o.json)
            out() << printableJson(answer.body) << '\n';
        else
            printTable(answer.json().array(), {{QStringLiteral("check"), QStringLiteral("name")}, {QStringLiteral("ok"), QStringLiteral("ok")},
                                               {QStringLiteral("ms"), QStringLiteral("elapsed_ms")}, {QStringLiteral("message"), QStringLiteral("message")}});
        for (const QJsonValue &item : answer.json().array())
            if (!item[QStringLiteral("ok")].toBool())
                return ExitFailed;
        return ExitOk;
    }
    if (command == QLatin1String("queues")) {
        const QString base = QStringLiteral("/queues/%1").arg(encoded(rest.value(0)));
        if (sub.isEmpty() || sub == QLatin1String("list"))
            return show(client, o, QStringLiteral("/queues"),
                        {{QStringLiteral("qid"), QStringLiteral("qid")}, {QStringLiteral("name"), QStringLiteral("name")},
                         {QStringLiteral("type"), QStringLiteral("type")}, {QStringLiteral("length"), QStringLiteral("length")},
                         {QStringLiteral("workers"), QStringLiteral("workers")}, {QStringLiteral("max"), QStringLiteral("max_workers")},
                         {QStringLiteral("paused"), QStringLiteral("paused")}, {QStringLiteral("pushed"), QStringLiteral("pushed_total")},
                         {QStringLiteral("handled"), QStringLiteral("handled_total")}, {QStringLiteral("failed"), QStringLiteral("failed_total")}},
                        paging(o));
        QUrlQuery timeout;
        if (o.isSet(QStringLiteral("timeout")))
            timeout.addQueryItem(QStringLiteral("timeout_ms"), o.value(QStringLiteral("timeout")));
        if (sub == QLatin1String("flush") && needs(1, QStringLiteral("queues flush QID [--timeout MS]")))
            return act(client, o, "POST", base + QStringLiteral("/flush"), QStringLiteral("flushed queue %1").arg(rest[0]), timeout);
        if (sub == QLatin1String("flush-all") && needs(0, QStringLiteral("queues flush-all [--timeout MS] [--non-blocking]"))) {
            if (o.isSet(QStringLiteral("non-blocking")))
                timeout.addQueryItem(QStringLiteral("non_blocking"), QStringLiteral("1"));
            return act(client, o, "POST", QStringLiteral("/queues/flush-all"),
                       o.isSet(QStringLiteral("non-blocking")) ? QStringLiteral("flushing every queue in the background")
                                                                : QStringLiteral("flushed every queue"),
                       timeout);
        }
        if (sub == QLatin1String("remove-all") && needs(1, QStringLiteral("queues remove-all QID [--dry-run]"))) {
            QUrlQuery query;
            if (o.isSet(QStringLiteral("dry-run")))
                query.addQueryItem(QStringLiteral("dry_run"), QStringLiteral("1"));
            const Answer answer = client.call("POST", base + QStringLiteral("/remove-all"), query);
            if (answer.status != 200)
                return failure(answer, client.base());
            const QJsonObject result = answer.json().object();
            if (o.json)
                out() << printableJson(answer.body) << '\n';
            else if (o.isSet(QStringLiteral("dry-run")))
                out() << "would remove " << result[QStringLiteral("count")].toInteger() << " items from queue " << rest[0] << '\n';
            else
                out() << "removed " << result[QStringLiteral("removed")].toInteger() << " items from queue " << rest[0] << '\n';
            return ExitOk;
        }
        if (sub == QLatin1String("set-workers") && needs(2, QStringLiteral("queues set-workers QID N"))) {
            bool ok = false;
            const int workers = rest[1].toInt(&ok);
            if (!ok)
                return usage(QStringLiteral("N must be a number"));
            return act(client, o, "PUT", base + QStringLiteral("/max-workers"),
                       QStringLiteral("queue %1 now runs at most %2 workers").arg(rest[0]).arg(workers), {},
                       QJsonDocument(QJsonObject{{QStringLiteral("max_workers"), workers}}).toJson(QJsonDocument::Compact));
        }
        if ((sub == QLatin1String("pause") || sub == QLatin1String("resume")) && needs(1, QStringLiteral("queues %1 QID").arg(sub)))
            return act(client, o, "POST", base + u'/' + sub, QStringLiteral("queue %1 %2d").arg(rest[0], sub));
        if (rest.isEmpty() && !QStringList{QStringLiteral("flush"), QStringLiteral("remove-all"), QStringLiteral("set-workers"),
                                           QStringLiteral("pause"), QStringLiteral("resume"), QStringLiteral("flush-all")}.contains(sub))
            return usage(QStringLiteral("unknown queues command \"%1\" (list, flush, flush-all, remove-all, set-workers, pause, resume)").arg(sub));
        return ExitUsage;
    }
    if (command == QLatin1String("cron")) {
        if (sub == QLatin1String("next"))
            return cronNext(rest, o);
        if (sub.isEmpty() || sub == QLatin1String("list"))
            return show(client, o, QStringLiteral("/cron"),
                        {{QStringLiteral("name"), QStringLiteral("name")}, {QStringLiteral("schedule"), QStringLiteral("schedule")},
                         {QStringLiteral("enabled"), QStringLiteral("enabled")}, {QStringLiteral("paused"), QStringLiteral("paused")},
                         {QStringLiteral("running"), QStringLiteral("running")}, {QStringLiteral("next"), QStringLiteral("next")},
                         {QStringLiteral("prev"), QStringLiteral("prev")}, {QStringLiteral("status"), QStringLiteral("status")},
                         {QStringLiteral("runs"), QStringLiteral("exec_times")}},
                        paging(o));
        const QString base = QStringLiteral("/cron/%1").arg(encoded(rest.value(0)));
        if (sub == QLatin1String("run") && needs(1, QStringLiteral("cron run NAME")))
            return act(client, o, "POST", base + QStringLiteral("/run"), QStringLiteral("started %1").arg(rest[0]));
        if ((sub == QLatin1String("pause") || sub == QLatin1String("resume")) && needs(1, QStringLiteral("cron %1 NAME").arg(sub)))
            return act(client, o, "POST", base + u'/' + sub, QStringLiteral("%1 %2d").arg(rest[0], sub));
        if (sub == QLatin1String("runs") && needs(1, QStringLiteral("cron runs NAME")))
            return show(client, o, base + QStringLiteral("/runs"),
                        {{QStringLiteral("started"), QStringLiteral("started_at")}, {QStringLiteral("trigger"), QStringLiteral("trigger")},
                         {QStringLiteral("status"), QStringLiteral("status")}, {QStringLiteral("ms"), QStringLiteral("duration_ms")},
                         {QStringLiteral("doer"), QStringLiteral("doer")}, {QStringLiteral("instance"), QStringLiteral("instance_id")},
                         {QStringLiteral("message"), QStringLiteral("message")}},
                        paging(o));
        if (!QStringList{QStringLiteral("run"), QStringLiteral("pause"), QStringLiteral("resume"), QStringLiteral("runs")}.contains(sub))
            return usage(QStringLiteral("unknown cron command \"%1\" (list, run, pause, resume, runs, next)").arg(sub));
        return ExitUsage;
    }
    if (command == QLatin1String("locks")) {
        if (sub.isEmpty() || sub == QLatin1String("list"))
            return show(client, o, QStringLiteral("/locks"),
                        {{QStringLiteral("key"), QStringLiteral("key")}, {QStringLiteral("backend"), QStringLiteral("backend")},
                         {QStringLiteral("owner"), QStringLiteral("owner")}, {QStringLiteral("acquired"), QStringLiteral("acquired_at")},
                         {QStringLiteral("ttl ms"), QStringLiteral("ttl_ms")}, {QStringLiteral("fencing"), QStringLiteral("fencing_token")},
                         {QStringLiteral("waiters"), QStringLiteral("waiters")}},
                        paging(o));
        if (sub == QLatin1String("force-release") && needs(1, QStringLiteral("locks force-release KEY")))
            return act(client, o, "POST", QStringLiteral("/locks/%1/force-release").arg(encoded(rest[0])),
                       QStringLiteral("released %1 (recorded as a system notice)").arg(rest[0]));
        return sub == QLatin1String("force-release") ? ExitUsage : usage(QStringLiteral("unknown locks command \"%1\" (list, force-release)").arg(sub));
    }
    if (command == QLatin1String("cache")) {
        if (sub.isEmpty() || sub == QLatin1String("info"))
            return show(client, o, QStringLiteral("/cache"), {});
        if (sub == QLatin1String("stats"))
            return show(client, o, QStringLiteral("/cache/stats"), {});
        if (sub == QLatin1String("test")) {
            const Answer answer = client.call("POST", QStringLiteral("/cache/test"));
            if (answer.status != 200)
                return failure(answer, client.base());
            const QJsonObject result = answer.json().object();
            if (o.json)
                out() << printableJson(answer.body) << '\n';
            else
                printObject(result);
            return result[QStringLiteral("ok")].toBool() && !result[QStringLiteral("slow")].toBool() ? ExitOk : ExitFailed;
        }
        return usage(QStringLiteral("unknown cache command \"%1\" (info, stats, test)").arg(sub));
    }
    if (command == QLatin1String("qos"))
        return show(client, o, QStringLiteral("/qos"), {});
    if (command == QLatin1String("metrics")) {
        const Answer answer = client.call("GET", QStringLiteral("/metrics"));
        if (answer.status != 200)
            return failure(answer, client.base());
        for (const QString &line : QString::fromUtf8(answer.body).split(u'\n'))
            out() << printable(line) << '\n';
        return ExitOk;
    }
    if (command == QLatin1String("processes")) {
        if (sub.isEmpty() || sub == QLatin1String("list"))
            return show(client, o, QStringLiteral("/processes"),
                        {{QStringLiteral("pid"), QStringLiteral("pid")}, {QStringLiteral("parent"), QStringLiteral("parent_pid")},
                         {QStringLiteral("type"), QStringLiteral("type")}, {QStringLiteral("started"), QStringLiteral("started_at")},
                         {QStringLiteral("cancellable"), QStringLiteral("cancellable")}, {QStringLiteral("description"), QStringLiteral("description")}},
                        paging(o));
        if (sub == QLatin1String("cancel") && needs(1, QStringLiteral("processes cancel PID")))
            return act(client, o, "POST", QStringLiteral("/processes/%1/cancel").arg(encoded(rest[0])), QStringLiteral("cancelled %1").arg(rest[0]));
        return sub == QLatin1String("cancel") ? ExitUsage : usage(QStringLiteral("unknown processes command \"%1\" (list, cancel)").arg(sub));
    }
    if (command == QLatin1String("notices")) {
        if (sub.isEmpty() || sub == QLatin1String("list"))
            return show(client, o, QStringLiteral("/notices"),
                        {{QStringLiteral("id"), QStringLiteral("id")}, {QStringLiteral("type"), QStringLiteral("type")},
                         {QStringLiteral("created"), QStringLiteral("created_at")}, {QStringLiteral("description"), QStringLiteral("description")}},
                        paging(o));
        if (sub == QLatin1String("delete") && needs(1, QStringLiteral("notices delete ID")))
            return act(client, o, "DELETE", QStringLiteral("/notices/%1").arg(encoded(rest[0])), QStringLiteral("deleted notice %1").arg(rest[0]));
        return sub == QLatin1String("delete") ? ExitUsage : usage(QStringLiteral("unknown notices command \"%1\" (list, delete)").arg(sub));
    }
    if (command == QLatin1String("audit")) {
        QUrlQuery query = paging(o);
        if (o.isSet(QStringLiteral("action")))
            query.addQueryItem(QStringLiteral("action"), o.value(QStringLiteral("action")));
        if (o.isSet(QStringLiteral("since")))
            query.addQueryItem(QStringLiteral("since"), o.value(QStringLiteral("since")));
        return show(client, o, QStringLiteral("/audit"),
                    {{QStringLiteral("at"), QStringLiteral("at")}, {QStringLiteral("actor"), QStringLiteral("actor")},
                     {QStringLiteral("from"), QStringLiteral("remote_addr")}, {QStringLiteral("action"), QStringLiteral("action")},
                     {QStringLiteral("target"), QStringLiteral("target")}, {QStringLiteral("result"), QStringLiteral("result")}},
                    query);
    }
    if (command == QLatin1String("stream")) {
        if (sub != QLatin1String("tail"))
            return usage(QStringLiteral("usage: switchyardctl stream tail [--type T] [--count N]"));
        return streamTail(client, o);
    }
    return usage(QStringLiteral("unknown command \"%1\"").arg(command));
}

bool isLoopback(const QUrl &url)
{
    const QHostAddress host(url.host());
    return url.host() == QLatin1String("localhost") || (!host.isNull() && host.isLoopback());
}

// --token-file, else $SWITCHYARD_TOKEN, else the data directory's admin-token — that one only for
// a loopback URL unless --data-dir names it (the local daemon's token is not for other hosts).
Result<QByteArray> readToken(const Options &o, const QUrl &url)
{
    if (o.isSet(QStringLiteral("token-file"))) {
        QFile file(o.value(QStringLiteral("token-file")));
        if (!file.open(QIODevice::ReadOnly))
            return Status::invalidArgument(QStringLiteral("--token-file %1: %2").arg(file.fileName(), file.errorString()));
        return file.readAll().trimmed();
    }
    if (const QByteArray env = qgetenv("SWITCHYARD_TOKEN"); !env.isEmpty())
        return env.trimmed();
    if (!isLoopback(url) && !o.isSet(QStringLiteral("data-dir")))
        return QByteArray();
    QFile file(QDir(dataDir(o)).filePath(QLatin1String(Admin::TokenStore::kAdminTokenFile)));
    if (file.open(QIODevice::ReadOnly))
        return file.readAll().trimmed();
    return QByteArray();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyardctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Switchyard command-line client.\n\n") + QLatin1String(kUsage));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const auto option = [&](const QString &name, const QString &help, const QString &value = QString(), const QString &fallback = QString()) {
        parser.addOption(value.isEmpty() ? QCommandLineOption(name, help) : QCommandLineOption(name, help, value, fallback));
    };
    option(QStringLiteral("url"), QStringLiteral("Admin API base (default $SWITCHYARD_URL, else http://127.0.0.1:3300/api/v1)."),
           QStringLiteral("url"));
    option(QStringLiteral("token-file"), QStringLiteral("Read the API token from <file>."), QStringLiteral("file"));
    option(QStringLiteral("data-dir"), QStringLiteral("Data directory (token commands; default admin-token)."), QStringLiteral("dir"));
    option(QStringLiteral("json"), QStringLiteral("Print JSON instead of tables."));
    option(QStringLiteral("insecure"), QStringLiteral("Send the token over plain http to a non-loopback host."));
    option(QStringLiteral("timeout"), QStringLiteral("Flush timeout in milliseconds."), QStringLiteral("ms"));
    option(QStringLiteral("non-blocking"), QStringLiteral("flush-all: return at once."));
    option(QStringLiteral("dry-run"), QStringLiteral("remove-all: only count."));
    option(QStringLiteral("count"), QStringLiteral("cron next: firings (default 5); stream tail: frames."), QStringLiteral("N"));
    option(QStringLiteral("tz"), QStringLiteral("cron next: time zone (default: this computer's)."), QStringLiteral("zone"));
    option(QStringLiteral("from"), QStringLiteral("cron next: start from TIME (RFC 3339; default now)."), QStringLiteral("time"));
    option(QStringLiteral("type"), QStringLiteral("stream tail: only frames of this event type."), QStringLiteral("type"));
    option(QStringLiteral("action"), QStringLiteral("audit: only this action."), QStringLiteral("action"));
    option(QStringLiteral("since"), QStringLiteral("audit: entries from TIME on."), QStringLiteral("time"));
    option(QStringLiteral("page"), QStringLiteral("Lists: page (1-based)."), QStringLiteral("n"));
    option(QStringLiteral("limit"), QStringLiteral("Lists: entries per page (max 500)."), QStringLiteral("n"));
    option(QStringLiteral("role"), QStringLiteral("token create: admin or read-only (default)."), QStringLiteral("role"));
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("See the list above."));
    // parse(), not process(): an unknown option is a usage error (exit 2), not exit 1.
    if (!parser.parse(QCoreApplication::arguments()))
        return usage(parser.errorText());
    if (parser.isSet(helpOption))
        parser.showHelp(ExitOk);
    if (parser.isSet(versionOption))
        parser.showVersion();

    Options o;
    o.parser = &parser;
    o.json = parser.isSet(QStringLiteral("json"));
    QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usage(QStringLiteral("missing command"));
    if (positional.first() == QLatin1String("next")) // the old spelling
        positional = QStringList{QStringLiteral("cron")} + positional;
    if (positional.first() == QLatin1String("token"))
        return token(positional.mid(1), o);
    if (positional.first() == QLatin1String("cron") && positional.value(1) == QLatin1String("next"))
        return cronNext(positional.mid(2), o);

    QString base = parser.isSet(QStringLiteral("url")) ? parser.value(QStringLiteral("url")) : QString::fromLocal8Bit(qgetenv("SWITCHYARD_URL"));
    if (base.isEmpty())
        base = QStringLiteral("http://127.0.0.1:3300/api/v1");
    QUrl url(base);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) || url.host().isEmpty())
        return usage(QStringLiteral("--url \"%1\" is not an http(s) URL (e.g. http://127.0.0.1:3300/api/v1)").arg(base));
    if (!url.path().endsWith(QLatin1String("/api/v1")))
        url.setPath(url.path().chopped(url.path().endsWith(u'/') ? 1 : 0) + QStringLiteral("/api/v1"));
    const Result<QByteArray> tokenValue = readToken(o, url);
    if (!tokenValue)
        return usage(tokenValue.status().message());
    if (tokenValue->isEmpty() && !isLoopback(url))
        return usage(QStringLiteral("no token for %1: the data directory's admin-token goes only to a loopback address. "
                                    "Give --token-file FILE or $SWITCHYARD_TOKEN (or --data-dir to send that one)")
                         .arg(url.host()));
    if (!tokenValue->isEmpty() && url.scheme() == QLatin1String("http") && !isLoopback(url) && !parser.isSet(QStringLiteral("insecure")))
        return usage(QStringLiteral("refusing to send a token over plain http to %1: anyone on the way could read it. "
                                    "Use https, or --insecure to accept the risk")
                         .arg(url.host()));
    Client client(url, *tokenValue);
    return run(positional, o, client);
}
