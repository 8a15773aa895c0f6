// switchyardctl: the command-line client (docs/cli.md). Every instance command goes through the
// admin API (the same endpoints the console's remote backend uses); `token` edits the tokens of a
// data directory; `cron next` works offline on a schedule.
//
// Exit codes: 0 ok, 1 the operation failed, 2 usage, 3 unreachable, 4 unauthorised or forbidden.

#include "admin/auditlog.h"
#include "admin/catalogue.h"
#include "admin/tokens.h"

#include "engine/core/version.h"
#include "engine/core/wholenumber.h"
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
        if (const std::optional<qint64> whole = wholeNumber<qint64>(value)) // no cast of an out-of-range double (#48)
            return QString::number(*whole);
        return QString::number(value.toDouble(), 'f', 2);
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

    Answer call(const QByteArray &method, const QString &path, const QUrlQuery &query = {}, const QByteArray &body = {},
                const std::vector<std::pair<QByteArray, QByteArray>> &headers = {})
    {
        QUrl url = m_base;
        url.setPath(m_base.path(QUrl::FullyEncoded) + path, QUrl::TolerantMode); // segments come percent-encoded
        url.setQuery(query);
        QNetworkRequest request(url);
        if (!m_token.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + m_token);
        if (!body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        for (const auto &[name, value] : headers)
            request.setRawHeader(name, value);
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

    // A GET whose body is copied to `sink` as it arrives (an export): the answer's body holds
    // only an error's text. A cut transfer is a network error.
    Answer download(const QString &path, const QUrlQuery &query, QFile &sink)
    {
        QUrl url = m_base;
        url.setPath(m_base.path(QUrl::FullyEncoded) + path, QUrl::TolerantMode);
        url.setQuery(query);
        QNetworkRequest request(url);
        if (!m_token.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + m_token);
        QNetworkReply *reply = m_network.get(request);
        Answer answer;
        QEventLoop loop;
        const auto drain = [&] {
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QByteArray got = reply->readAll();
            if (status >= 200 && status < 300)
                sink.write(got);
            else
                answer.body += got;
        };
        QObject::connect(reply, &QIODevice::readyRead, &loop, drain);
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        if (!reply->isFinished())
            loop.exec();
        drain();
        sink.flush();
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        answer.totalCount = reply->rawHeader("X-Total-Count");
        if (reply->error() != QNetworkReply::NoError && answer.status >= 200 && answer.status < 300) {
            answer.networkError = QStringLiteral("the export was cut: %1").arg(reply->errorString());
            answer.status = 0;
        } else if (answer.status == 0) {
            answer.networkError = reply->errorString();
        }
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
    return usage(QStringLiteral("usage: switchyardctl token create NAME [--role admin|read-only|ingest] | token list | token revoke NAME"));
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

// ---- Catalogue commands -------------------------------------------------------------------------

// The entry whose command words (or an alias) begin `positional`, longest first; `used` words.
const Admin::OpBase *commandFor(const QStringList &positional, qsizetype *used)
{
    const Admin::OpBase *best = nullptr;
    qsizetype bestWords = 0;
    for (const Admin::OpBase *op : Admin::Catalogue::all()) {
        std::vector<const char *> spellings{op->info().cli};
        spellings.insert(spellings.end(), op->info().cliAliases.begin(), op->info().cliAliases.end());
        for (const char *spelling : spellings) {
            const QStringList words = QString::fromUtf8(spelling).split(u' ');
            if (words.size() > bestWords && positional.mid(0, words.size()) == words) {
                best = op;
                bestWords = words.size();
            }
        }
    }
    *used = bestWords;
    return best;
}

// "queues pause QID", "queues flush QID [--timeout N]".
QString synopsis(const Admin::OpBase &op)
{
    QString line = QString::fromUtf8(op.info().cli);
    for (const Admin::OpBase::ArgInfo &arg : op.args()) {
        const QString name = QString::fromUtf8(arg.spec.name).toUpper();
        if (!*arg.spec.option)
            line += u' ' + name;
        else if (arg.isSwitch)
            line += QStringLiteral(" [%1]").arg(QString::fromUtf8(arg.spec.option));
        else
            line += QStringLiteral(" [%1 %2]").arg(QString::fromUtf8(arg.spec.option), name == QLatin1String("TIMEOUT_MS") ? QStringLiteral("MS") : name);
    }
    return line;
}

// The commands part of --help, generated from the catalogue plus the few local commands.
QString commandHelp()
{
    QStringList lines{QStringLiteral("Commands (instance commands use the admin API at --url):")};
    const auto add = [&lines](const QString &left, const QString &right) {
        lines << (left.size() < 40 ? QStringLiteral("  %1%2").arg(left.leftJustified(40), right)
                                   : QStringLiteral("  %1\n  %2%3").arg(left, QString(40, u' '), right));
    };
    for (const Admin::OpBase *op : Admin::Catalogue::all())
        add(synopsis(*op), QString::fromUtf8(op->info().summary));
    add(QStringLiteral("cron next SCHEDULE [--count N] [--tz ZONE] [--from TIME]"),
        QStringLiteral("the next firings, offline (alias: next)"));
    add(QStringLiteral("stream tail [--type T] [--count N]"), QStringLiteral("print live frames"));
    add(QStringLiteral("token create NAME [--role admin|read-only|ingest]"), QStringLiteral("a named token in --data-dir, shown once"));
    add(QStringLiteral("token list | token revoke NAME"), QStringLiteral("the data directory's named tokens"));
    lines << QString()
          << QStringLiteral("Lists print every entry (pages of 500); --page/--limit pick one page.")
          << QStringLiteral("The token comes from --token-file, else $SWITCHYARD_TOKEN, else the admin-token file of the")
          << QStringLiteral("data directory (--data-dir or the default) — never from the command line.")
          << QStringLiteral("Exit codes: 0 ok, 1 operation failed, 2 usage, 3 unreachable, 4 unauthorised/forbidden.");
    return lines.join(u'\n');
}

// "{qid}" and "{removed}" in a done line: the request's arguments and the answer's fields.
QString doneLine(const Admin::OpBase &op, const Admin::Request &request, const QJsonObject &answer)
{
    QString line = QString::fromUtf8(answer.value(QStringLiteral("dry_run")).toBool() ? op.info().doneDryRun : op.info().done);
    for (const auto &[name, value] : request.params)
        line.replace(u'{' + name + u'}', value);
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    for (auto it = body.begin(); it != body.end(); ++it)
        line.replace(u'{' + it.key() + u'}', cell(it.value()));
    for (auto it = answer.begin(); it != answer.end(); ++it)
        line.replace(u'{' + it.key() + u'}', cell(it.value()));
    return printable(line);
}

int runOperation(const Admin::OpBase &op, const QStringList &words, const Options &o, Client &client)
{
    Result<Admin::Request> request = op.requestFromCommandLine(words, [&o](const QString &name) -> std::optional<QString> {
        if (!o.isSet(name))
            return std::nullopt;
        return o.value(name).isEmpty() ? QStringLiteral("1") : o.value(name); // a switch has no value
    });
    if (!request)
        return usage(QStringLiteral("%1 (usage: switchyardctl %2)").arg(request.status().message(), synopsis(op)));
    const QString path = op.pathFor(request->params);
    QUrlQuery query = request->query;
    const bool choosePage = o.isSet(QStringLiteral("page")) || o.isSet(QStringLiteral("limit"));
    if (op.hasFlag(Admin::Paged) && choosePage) {
        if (o.isSet(QStringLiteral("page")))
            query.addQueryItem(QStringLiteral("page"), o.value(QStringLiteral("page")));
        if (o.isSet(QStringLiteral("limit")))
            query.addQueryItem(QStringLiteral("limit"), o.value(QStringLiteral("limit")));
    }
    const QByteArray method = Admin::methodName(op.info().method);

    // An export (--format csv|json): the body goes to stdout as it arrives, never held whole.
    if (op.info().method == Admin::HttpMethod::Get && request->query.hasQueryItem(QStringLiteral("format"))) {
        QFile stdoutFile;
        if (!stdoutFile.open(stdout, QIODevice::WriteOnly)) {
            err() << "switchyardctl: cannot write to standard output\n";
            return ExitFailed;
        }
        const Answer exported = client.download(path, query, stdoutFile);
        if (exported.status == 0 && exported.networkError.startsWith(QLatin1String("the export was cut"))) {
            err() << "switchyardctl: " << exported.networkError << '\n';
            return ExitFailed;
        }
        if (exported.status < 200 || exported.status >= 300)
            return failure(exported, client.base());
        return ExitOk;
    }

    // A paged list without --page/--limit: every page, as the console reads it.
    Answer answer;
    QJsonArray rows;
    qint64 total = -1;
    for (int page = 1;; ++page) {
        QUrlQuery pageQuery = query;
        if (op.hasFlag(Admin::Paged) && !choosePage) {
            pageQuery.addQueryItem(QStringLiteral("limit"), QStringLiteral("500"));
            pageQuery.addQueryItem(QStringLiteral("page"), QString::number(page));
        }
        answer = client.call(method, path, pageQuery, request->body, request->headers);
        if (answer.status < 200 || answer.status >= 300)
            return failure(answer, client.base());
        if (!op.hasFlag(Admin::Paged))
            break;
        const QJsonArray got = answer.json().array();
        for (const QJsonValue &row : got)
            rows.append(row);
        total = answer.totalCount.isEmpty() ? -1 : answer.totalCount.toLongLong();
        if (choosePage || got.isEmpty() || total < 0 || rows.size() >= total)
            break;
    }

    if (op.info().method == Admin::HttpMethod::Get && op.info().path == QByteArrayLiteral("/metrics")) {
        for (const QString &line : QString::fromUtf8(answer.body).split(u'\n'))
            out() << printable(line) << '\n';
        return ExitOk;
    }
    const QJsonDocument doc = op.hasFlag(Admin::Paged) ? QJsonDocument(rows) : answer.json();
    const QJsonValue json = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    if (o.json) {
        out() << (op.hasFlag(Admin::Paged) ? QString::fromUtf8(doc.toJson(QJsonDocument::Compact)) : printableJson(answer.body)) << '\n';
    } else if (doc.isArray()) {
        std::vector<Column> columns;
        for (const Admin::OpBase::Column &c : op.info().columns)
            columns.push_back({QString::fromUtf8(c.header), QString::fromUtf8(c.key)});
        printTable(doc.array(), QList<Column>(columns.begin(), columns.end()));
        if (!answer.totalCount.isEmpty() && answer.totalCount.toLongLong() > doc.array().size())
            out() << "(" << doc.array().size() << " of " << answer.totalCount << "; use --page/--limit)\n";
    } else if (*op.info().done && (!op.info().succeeded || op.info().succeeded(json))) {
        out() << doneLine(op, *request, doc.object()) << '\n';
        // What the answer says a person should know beside the success (a hook update that
        // dropped the Authorization header).
        if (const QString notice = doc.object().value(QStringLiteral("notice")).toString(); !notice.isEmpty())
            out() << "note: " << printable(notice) << '\n';
    } else { // no done line, or it would claim a success the answer denies (a refused test mail)
        printObject(doc.object());
    }
    if (op.info().succeeded && !op.info().succeeded(json))
        return ExitFailed;
    return ExitOk;
}

int run(const QStringList &positional, const Options &o, Client &client)
{
    if (positional.value(0) == QLatin1String("stream")) {
        if (positional.value(1) != QLatin1String("tail") || positional.size() != 2)
            return usage(QStringLiteral("usage: switchyardctl stream tail [--type T] [--count N]"));
        return streamTail(client, o);
    }
    qsizetype used = 0;
    const Admin::OpBase *op = commandFor(positional, &used);
    if (!op) {
        QStringList known;
        for (const Admin::OpBase *entry : Admin::Catalogue::all()) {
            const QString first = QString::fromUtf8(entry->info().cli).section(u' ', 0, 0);
            if (!known.contains(first))
                known << first;
        }
        QStringList forms;
        for (const Admin::OpBase *entry : Admin::Catalogue::all()) {
            if (QString::fromUtf8(entry->info().cli).section(u' ', 0, 0) == positional.value(0))
                forms << synopsis(*entry);
        }
        if (!forms.isEmpty())
            return usage(QStringLiteral("unknown %1 command \"%2\" (%3)").arg(positional.value(0), positional.mid(1).join(u' '),
                                                                              forms.join(QStringLiteral("; "))));
        return usage(QStringLiteral("unknown command \"%1\" (%2, cron next, stream, token)")
                         .arg(positional.value(0), known.join(QStringLiteral(", "))));
    }
    return runOperation(*op, positional.mid(used), o, client);
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
    parser.setApplicationDescription(QStringLiteral("Switchyard command-line client.\n\n") + commandHelp());
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const auto option = [&](const QString &name, const QString &help, const QString &value = QString(), const QString &fallback = QString()) {
        return parser.addOption(value.isEmpty() ? QCommandLineOption(name, help) : QCommandLineOption(name, help, value, fallback));
    };
    option(QStringLiteral("url"), QStringLiteral("Admin API base (default $SWITCHYARD_URL, else http://127.0.0.1:3300/api/v1)."),
           QStringLiteral("url"));
    option(QStringLiteral("token-file"), QStringLiteral("Read the API token from <file>."), QStringLiteral("file"));
    option(QStringLiteral("data-dir"), QStringLiteral("Data directory (token commands; default admin-token)."), QStringLiteral("dir"));
    option(QStringLiteral("json"), QStringLiteral("Print JSON instead of tables."));
    option(QStringLiteral("insecure"), QStringLiteral("Send the token over plain http to a non-loopback host."));
    option(QStringLiteral("count"), QStringLiteral("cron next: firings (default 5); stream tail: frames."), QStringLiteral("N"));
    option(QStringLiteral("tz"), QStringLiteral("cron next: time zone (default: this computer's)."), QStringLiteral("zone"));
    option(QStringLiteral("from"), QStringLiteral("cron next: start from TIME (RFC 3339; default now)."), QStringLiteral("time"));
    option(QStringLiteral("type"), QStringLiteral("stream tail: only frames of this event type; hooks create: the hook's type; "
                                                  "events list: the event type."),
           QStringLiteral("type"));
    option(QStringLiteral("page"), QStringLiteral("Lists: page (1-based)."), QStringLiteral("n"));
    option(QStringLiteral("limit"), QStringLiteral("Lists: entries per page (max 500)."), QStringLiteral("n"));
    option(QStringLiteral("role"), QStringLiteral("token create: admin or read-only (default)."), QStringLiteral("role"));
    // The catalogue's options: each once, with the commands that take it.
    std::map<QString, std::pair<QStringList, Admin::OpBase::ArgInfo>> catalogueOptions;
    for (const Admin::OpBase *op : Admin::Catalogue::all()) {
        for (const Admin::OpBase::ArgInfo &arg : op->args()) {
            const QString name = QString::fromUtf8(arg.spec.option).mid(2);
            if (name.isEmpty() || name == QLatin1String("page") || name == QLatin1String("limit"))
                continue;
            auto &[commands, info] = catalogueOptions[name];
            commands << QString::fromUtf8(op->info().cli);
            info = arg;
        }
    }
    for (const auto &[name, entry] : catalogueOptions) {
        const QString help = QStringLiteral("%1: %2.").arg(entry.first.join(QStringLiteral(", ")), QString::fromUtf8(entry.second.spec.help));
        // A name the client itself takes would read one value for two things (a hook's --url
        // once sent the token to the hook's address): only --type is shared, each command
        // reading its own meaning.
        if (name == QLatin1String("type"))
            continue; // registered above; adding it again would make QCommandLineParser warn on stderr
        if (!option(name, help, entry.second.isSwitch ? QString() : QString::fromUtf8(entry.second.spec.name))) {
            err() << "switchyardctl: the catalogue's --" << name << " (" << entry.first.join(QStringLiteral(", "))
                  << ") collides with a client option; this build is defective\n";
            return 70;
        }
    }
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
