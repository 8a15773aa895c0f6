// The admin API over real HTTP against a real daemon process (tests/server/testdaemon.cpp = the
// daemon plus two queues and a held lock): every endpoint's success and error answers, tokens and
// roles, the audit log, limits, the WebSocket stream, TLS and binding rules.
#include "support/daemonprocess.h"
#include "support/httpreceiver.h"
#include "support/testutil.h"
#include "support/wait.h"

#include "admin/auditlog.h"
#include "admin/catalogue.h"
#include "admin/tokens.h"
#include "engine/events/events.h"
#include "engine/store/store.h"

#include <QEventLoop>
#include <QStandardPaths>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSet>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QElapsedTimer>
#include <QTimer>
#include <QUrlQuery>
#include <QWebSocket>

#include <map>

using namespace Switchyard;
using namespace Switchyard::Test;

namespace {

const QString kTestDaemon = QStringLiteral(TEST_DAEMON_PATH);

const QByteArray kConfig = "[server]\n"
                           "MAX_BODY_SIZE = 4096\n"
                           "AUTH_FAILURE_LIMIT = 1000\n" // the 401 tests fail often; tst_apisecurity tests the limit
                           "[queue.slow]\nTYPE = channel\n"
                           "[queue.fast]\nTYPE = channel\n"
                           "[event_source.github]\nSECRET = hub-secret\n"
                           "[webhook]\nALLOWED_HOST_LIST = loopback\n"
                           "[cron.slow_task]\nCOMMAND = sleep 30\nSCHEDULE = @every 1h\nTITLE = Sleeps\n";

QJsonArray array(const HttpResult &r)
{
    return r.json().array();
}

QJsonObject object(const HttpResult &r)
{
    return r.json().object();
}

QString describe(const HttpResult &r)
{
    return QStringLiteral("%1 %2 %3").arg(r.status).arg(QString::fromUtf8(r.body.left(400)), r.networkError);
}

// Waits for frames of a WebSocket until `accept` says so or the bound passes.
struct StreamClient
{
    QWebSocket socket;
    QList<QString> frames;
    int closeCode = -1;

    bool open(const QUrl &url, const QByteArray &token, const QByteArray &origin = QByteArray())
    {
        QNetworkRequest request(url);
        if (!token.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + token);
        if (!origin.isEmpty())
            request.setRawHeader("Origin", origin);
        QObject::connect(&socket, &QWebSocket::textMessageReceived, &socket, [this](const QString &frame) { frames.append(frame); });
        QObject::connect(&socket, &QWebSocket::disconnected, &socket, [this] { closeCode = socket.closeCode(); });
        QEventLoop loop;
        QObject::connect(&socket, &QWebSocket::connected, &loop, &QEventLoop::quit);
        QObject::connect(&socket, &QWebSocket::disconnected, &loop, &QEventLoop::quit);
        socket.open(request);
        QTimer::singleShot(10000, &loop, &QEventLoop::quit);
        loop.exec();
        return socket.state() == QAbstractSocket::ConnectedState;
    }

    // The first frame of `type` whose body satisfies `accept`, waiting up to `boundMs`.
    QJsonDocument waitFor(const QString &type, const std::function<bool(const QJsonDocument &)> &accept, int boundMs = 15000)
    {
        QJsonDocument found;
        auto scan = [&] {
            for (const QString &frame : std::as_const(frames)) {
                if (!frame.startsWith(type + u'\n'))
                    continue;
                const QJsonDocument doc = QJsonDocument::fromJson(frame.mid(type.size() + 1).toUtf8());
                if (accept(doc)) {
                    found = doc;
                    return true;
                }
            }
            return false;
        };
        QEventLoop loop;
        QObject::connect(&socket, &QWebSocket::textMessageReceived, &loop, [&] {
            if (scan())
                loop.quit();
        });
        QObject::connect(&socket, &QWebSocket::disconnected, &loop, &QEventLoop::quit);
        QTimer::singleShot(boundMs, &loop, &QEventLoop::quit);
        if (!scan())
            loop.exec();
        return found;
    }

    int waitForClose(int boundMs = 10000)
    {
        if (socket.state() != QAbstractSocket::UnconnectedState) {
            QEventLoop loop;
            QObject::connect(&socket, &QWebSocket::disconnected, &loop, &QEventLoop::quit);
            QTimer::singleShot(boundMs, &loop, &QEventLoop::quit);
            loop.exec();
        }
        return socket.state() == QAbstractSocket::UnconnectedState ? int(socket.closeCode()) : -1;
    }
};

// A strict reader of the Prometheus text exposition format (0.0.4): every line is a HELP, a TYPE
// or a sample; a family's TYPE comes once, before its samples, which are contiguous; names and
// labels match the grammar; values parse; no series appears twice.
QString checkExposition(const QByteArray &text, QMap<QString, double> *series)
{
    static const QRegularExpression name(QStringLiteral("^[a-zA-Z_:][a-zA-Z0-9_:]*$"));
    static const QRegularExpression sample(QStringLiteral(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$)"));
    static const QRegularExpression label(QStringLiteral(R"(^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)\"(,|$))"));
    static const QSet<QString> types{QStringLiteral("counter"), QStringLiteral("gauge"), QStringLiteral("histogram"),
                                     QStringLiteral("summary"), QStringLiteral("untyped")};
    if (!text.endsWith('\n'))
        return QStringLiteral("the text does not end with a newline");
    QMap<QString, QString> typeOf;
    QSet<QString> finished;
    QString current;
    int lineNumber = 0;
    for (const QByteArray &raw : text.split('\n')) {
        ++lineNumber;
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty())
            continue;
        const QString where = QStringLiteral("line %1: %2").arg(lineNumber).arg(line);
        if (line.startsWith(QLatin1String("# "))) {
            const QStringList parts = line.split(u' ');
            if (parts.size() < 3 || (parts[1] != QLatin1String("HELP") && parts[1] != QLatin1String("TYPE")))
                return where + QStringLiteral(" (a comment other than HELP/TYPE)");
            if (!name.match(parts[2]).hasMatch())
                return where + QStringLiteral(" (bad metric name)");
            if (parts[1] == QLatin1String("TYPE")) {
                if (parts.size() != 4 || !types.contains(parts[3]))
                    return where + QStringLiteral(" (bad type)");
                if (typeOf.contains(parts[2]))
                    return where + QStringLiteral(" (TYPE given twice)");
                typeOf[parts[2]] = parts[3];
            }
            if (parts[2] != current) {
                if (!current.isEmpty())
                    finished.insert(current);
                if (finished.contains(parts[2]))
                    return where + QStringLiteral(" (family not contiguous)");
                current = parts[2];
            }
            continue;
        }
        const QRegularExpressionMatch m = sample.match(line);
        if (!m.hasMatch())
            return where + QStringLiteral(" (not a sample)");
        const QString metric = m.captured(1);
        if (metric != current || !typeOf.contains(metric))
            return where + QStringLiteral(" (sample outside its family, or without TYPE)");
        QString labels = m.captured(3);
        QStringList seenLabels;
        while (!labels.isEmpty()) {
            const QRegularExpressionMatch l = label.match(labels);
            if (!l.hasMatch())
                return where + QStringLiteral(" (bad label syntax)");
            if (seenLabels.contains(l.captured(1)))
                return where + QStringLiteral(" (label twice)");
            seenLabels << l.captured(1);
            labels = labels.mid(l.capturedLength());
        }
        bool ok = false;
        const QString value = m.captured(4);
        const double v = value.toDouble(&ok);
        if (!ok && value != QLatin1String("NaN") && value != QLatin1String("+Inf") && value != QLatin1String("-Inf"))
            return where + QStringLiteral(" (bad value)");
        if (typeOf[metric] == QLatin1String("counter") && v < 0)
            return where + QStringLiteral(" (negative counter)");
        const QString key = metric + u'{' + m.captured(3) + u'}';
        if (series->contains(key))
            return where + QStringLiteral(" (series twice)");
        series->insert(key, v);
    }
    return {};
}

} // namespace

class TestAdminApi : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    DaemonProcess m_daemon;
    QByteArray m_token;
    QByteArray m_readOnly;

    QUrl url(const QString &path, const QString &query = QString()) const
    {
        QUrl u = m_daemon.baseUrl();
        u.setPath(u.path() + path);
        if (!query.isEmpty())
            u.setQuery(query);
        return u;
    }
    HttpResult get(const QString &path, const QByteArray &token, const QString &query = QString())
    {
        return http("GET", url(path, query), token);
    }
    HttpResult post(const QString &path, const QByteArray &token, const QByteArray &body = QByteArray())
    {
        return http("POST", url(path), token, body);
    }
    qint64 qid(const QString &name)
    {
        for (const QJsonValue &q : array(get(QStringLiteral("/queues"), m_token)))
            if (q[QStringLiteral("name")].toString() == name)
                return q[QStringLiteral("qid")].toInteger();
        return -1;
    }
    QJsonObject cronRow(const QString &name)
    {
        for (const QJsonValue &t : array(get(QStringLiteral("/cron"), m_token)))
            if (t[QStringLiteral("name")].toString() == name)
                return t.toObject();
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const DaemonProcess::Options options = DaemonProcess::standardFixture(kTestDaemon, m_dir.path(), kConfig);
        QVERIFY2(m_daemon.start(options), m_daemon.output().constData());
        m_token = m_daemon.adminToken();
        QVERIFY(m_token.startsWith("sy_"));
        // A read-only token, made the way `switchyardctl token create` does, while the daemon runs.
        Result<QString> readOnly = Admin::TokenStore(m_dir.path()).create(QStringLiteral("viewer"), Admin::Role::ReadOnly);
        QVERIFY2(readOnly.isOk(), qPrintable(readOnly.status().message()));
        m_readOnly = readOnly->toLatin1();
        // "slow" holds its 200 items until a test asks for them: how fast this machine (or a
        // sanitizer) runs must not decide whether a flush finds work.
        QCOMPARE(post(QStringLiteral("/queues/%1/pause").arg(qid(QStringLiteral("slow"))), m_token).status, 200);
    }

    void cleanupTestCase()
    {
        QCOMPARE(m_daemon.stop(), 0);
    }

    // POST /events: 202 once stored, the first id for a repeated delivery, 400 naming the field,
    // 401 without a token or signature, 413 over 10 MiB (the 4 KiB MAX_BODY_SIZE is for the rest);
    // an ingest token posts events and nothing else; notifications are marked over PATCH.
    void eventsOverHttp()
    {
        const QByteArray push = "{\"ref\":\"refs/heads/main\",\"before\":\"1\",\"after\":\"2\",\"commits\":[],"
                                "\"repository\":{\"id\":10,\"name\":\"engine\",\"full_name\":\"alice/engine\","
                                "\"owner\":{\"id\":1,\"login\":\"alice\"}},\"sender\":{\"id\":2,\"login\":\"bob\"}}";
        const QUrl events = url(QStringLiteral("/events"));
        HttpResult r = http("POST", events, m_token, push, {{"X-Gitea-Event-Type", "push"}, {"X-Gitea-Delivery", "api-1"}});
        QCOMPARE(r.status, 202);
        const qint64 id = object(r)[QStringLiteral("id")].toInteger();
        QVERIFY(id > 0);
        r = http("POST", events, m_token, push, {{"X-Gitea-Event-Type", "push"}, {"X-Gitea-Delivery", "api-1"}});
        QCOMPARE(r.status, 202);
        QCOMPARE(object(r)[QStringLiteral("id")].toInteger(), id);
        QCOMPARE(object(r)[QStringLiteral("duplicate")].toBool(), true);

        r = http("POST", events, m_token, "{\"ref\":", {{"X-GitHub-Event", "push"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("body"));
        r = http("POST", events, m_token, push, {{"X-GitHub-Event", "no_such_event"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("event"));
        // An event GitHub documents without a Gitea counterpart: 202, ignored, counted (#50 item 5).
        r = http("POST", events, m_token, push, {{"X-GitHub-Event", "check_suite"}});
        QCOMPARE(r.status, 202);
        QCOMPARE(object(r)[QStringLiteral("ignored")].toString(), QStringLiteral("check_suite"));
        QVERIFY(get(QStringLiteral("/metrics"), m_token).body.contains("switchyard_events_ignored_total{event=\"check_suite\"} 1"));
        r = http("POST", url(QStringLiteral("/events"), QStringLiteral("source=nowhere&event=push")), m_token, push);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("source"));
        QCOMPARE(http("POST", events, {}, push, {{"X-GitHub-Event", "push"}}).status, 401);
        QCOMPARE(http("POST", events, m_readOnly, push, {{"X-GitHub-Event", "push"}}).status, 403);

        // GitHub signs and sends no token.
        const QUrl github = url(QStringLiteral("/events"), QStringLiteral("source=github"));
        const QByteArray signature = "sha256=" + eventSignature("hub-secret", push);
        r = http("POST", github, {}, push, {{"X-GitHub-Event", "push"}, {"X-GitHub-Delivery", "gh-1"}, {"X-Hub-Signature-256", signature}});
        QCOMPARE(r.status, 202);
        r = http("POST", github, {}, push, {{"X-GitHub-Event", "push"}, {"X-GitHub-Delivery", "gh-2"}, {"X-Hub-Signature-256", "sha256=00"}});
        QCOMPARE(r.status, 401);
        // Over 10 MiB: refused on the declared length, before the upload (the body is never sent).
        const QByteArray over = rawHttp(m_daemon.port(), "POST /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_token +
                                                             "\r\nX-GitHub-Event: push\r\nContent-Length: " + QByteArray::number((10 << 20) + 1) +
                                                             "\r\n\r\n");
        QVERIFY2(over.startsWith("HTTP/1.1 413"), over.left(200).constData());
        // Under it (but over MAX_BODY_SIZE = 4 KiB): read and answered (a malformed payload here).
        QCOMPARE(http("POST", events, m_token, QByteArray(8192, ' '), {{"X-GitHub-Event", "push"}}).status, 400);

        // An ingest token: events yes, anything else no.
        const Result<QString> ingest = Admin::TokenStore(m_dir.path()).create(QStringLiteral("forge"), Admin::Role::Ingest);
        QVERIFY(ingest);
        r = http("POST", events, ingest->toLatin1(), push, {{"X-Gitea-Event", "push"}, {"X-Gitea-Delivery", "api-2"}});
        QCOMPARE(r.status, 202);
        QCOMPARE(get(QStringLiteral("/events"), ingest->toLatin1()).status, 403);

        const HttpResult list = get(QStringLiteral("/events"), m_token, QStringLiteral("type=push&limit=2"));
        QCOMPARE(list.status, 200);
        QCOMPARE(list.headers.value("x-total-count"), QByteArray("3"));
        QCOMPARE(array(list).size(), 2);
        const QJsonObject one = object(get(QStringLiteral("/events/%1").arg(id), m_token));
        QCOMPARE(one[QStringLiteral("delivery_id")].toString(), QStringLiteral("api-1"));
        QCOMPARE(one[QStringLiteral("payload")].toObject()[QStringLiteral("ref")].toString(), QStringLiteral("refs/heads/main"));
        QCOMPARE(get(QStringLiteral("/events/999999"), m_token).status, 404);

        // Notifications: none for a push; the endpoints answer and check their input.
        QCOMPARE(http("POST", url(QStringLiteral("/queues/%1/flush").arg(qid(QStringLiteral("event_ingest"))), QStringLiteral("timeout_ms=30000")), m_token)
                     .status,
                 200); // the events processed: their users are known
        const HttpResult users = get(QStringLiteral("/users"), m_token);
        QCOMPARE(users.status, 200);
        QVERIFY(array(users).size() >= 2);
        const qint64 bob = array(users).at(1)[QStringLiteral("id")].toInteger();
        QCOMPARE(object(get(QStringLiteral("/notifications/new"), m_token, QStringLiteral("user=%1").arg(bob)))[QStringLiteral("new")].toInt(), 0);
        QCOMPARE(get(QStringLiteral("/notifications/new"), m_token).errorField(), QStringLiteral("user"));
        QCOMPARE(get(QStringLiteral("/notifications"), m_token, QStringLiteral("status=bogus")).errorField(), QStringLiteral("status"));
        QCOMPARE(http("PATCH", url(QStringLiteral("/notifications/424242")), m_token, "{\"status\":\"read\"}").status, 404);
        QCOMPARE(http("PATCH", url(QStringLiteral("/notifications/424242")), m_readOnly, "{\"status\":\"read\"}").status, 403);
        r = http("POST", url(QStringLiteral("/notifications/read-all"), QStringLiteral("user=%1").arg(bob)), m_token);
        QCOMPARE(r.status, 205);
        QVERIFY(r.body.isEmpty());
    }

    void adminTokenIsGeneratedPrivateAndPrintedOnce()
    {
        const QFileInfo file(m_dir.filePath(QStringLiteral("admin-token")));
        QCOMPARE(file.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
                 QFile::Permissions());
        // Standard output is a pipe here (a journal, a log file): the token stays in its file.
        QVERIFY(!m_daemon.output().contains(m_token));
        QVERIFY2(m_daemon.output().contains(file.absoluteFilePath().toUtf8()) && m_daemon.output().contains("not a terminal"),
                 m_daemon.output().constData());
        QVERIFY(m_token.size() >= 3 + 64); // "sy_" + 32 bytes in hex
        QFile tokens(m_dir.filePath(QStringLiteral("tokens.json")));
        QVERIFY(tokens.open(QIODevice::ReadOnly));
        QVERIFY2(!tokens.readAll().contains(m_readOnly), "tokens.json must hold hashes only");
    }

    void healthNeedsNoTokenAndEverythingElseDoes()
    {
        // Without a token /health says only that the API answers, and which version: no host
        // name, process id, exact version or uptime for whoever asks.
        const HttpResult health = get(QStringLiteral("/health"), QByteArray());
        QCOMPARE(health.status, 200);
        QCOMPARE(object(health).keys(), (QStringList{QStringLiteral("api_version"), QStringLiteral("status")}));
        QCOMPARE(object(health)[QStringLiteral("status")].toString(), QStringLiteral("ok"));
        QCOMPARE(object(health)[QStringLiteral("api_version")].toInt(), 1);
        QCOMPARE(object(get(QStringLiteral("/health"), "sy_" + QByteArray(64, 'b'))).keys().size(), 2); // a wrong one: the same
        const QJsonObject full = object(get(QStringLiteral("/health"), m_token));
        QVERIFY(full[QStringLiteral("uptime_ms")].toInteger() >= 0);
        QVERIFY(!full[QStringLiteral("instance_id")].toString().isEmpty());
        QVERIFY(!full[QStringLiteral("version")].toString().isEmpty());

        for (const char *path : {"/instance", "/queues", "/cron", "/locks", "/metrics", "/audit", "/notices", "/qos"}) {
            const HttpResult none = get(QLatin1String(path), QByteArray());
            QVERIFY2(none.status == 401, qPrintable(describe(none)));
            QCOMPARE(none.message(), QStringLiteral("unauthorized")); // no detail
            const HttpResult wrong = get(QLatin1String(path), "sy_" + QByteArray(64, 'a'));
            QCOMPARE(wrong.status, 401);
        }
        // Bearer and token schemes both work.
        const HttpResult scheme = http("GET", url(QStringLiteral("/instance")), QByteArray(), QByteArray(),
                                       {{"Authorization", "token " + m_token}});
        QCOMPARE(scheme.status, 200);
    }

    void instanceAndSelfCheck()
    {
        const QJsonObject instance = object(get(QStringLiteral("/instance"), m_token));
        for (const char *key : {"version", "instance_id", "started_at", "config_path", "data_path", "db_type", "queue_types",
                                "cache_adapter", "lock_service", "pubsub_type"})
            QVERIFY2(instance.contains(QLatin1String(key)), key);
        QCOMPARE(instance[QStringLiteral("queue_types")][QStringLiteral("slow")].toString(), QStringLiteral("channel"));
        QVERIFY(QDateTime::fromString(instance[QStringLiteral("started_at")].toString(), Qt::ISODateWithMs).isValid());
        // The store: SQLite under the data directory by default, migrated to this binary's schema.
        QCOMPARE(instance[QStringLiteral("db_type")].toString(), QStringLiteral("sqlite3"));
        QCOMPARE(instance[QStringLiteral("db_location")].toString(),
                 QDir(instance[QStringLiteral("data_path")].toString()).filePath(QStringLiteral("data/switchyard.db")));
        QCOMPARE(instance[QStringLiteral("db_schema_version")].toInt(), Store::currentSchemaVersion());

        const HttpResult check = get(QStringLiteral("/self-check"), m_token);
        QCOMPARE(check.status, 200);
        QStringList names;
        for (const QJsonValue &item : array(check)) {
            names << item[QStringLiteral("name")].toString();
            if (names.last() == QLatin1String("database")) {
                QVERIFY(item[QStringLiteral("ok")].toBool());
                QVERIFY2(item[QStringLiteral("message")].toString().contains(QStringLiteral("sqlite3 database")),
                         qPrintable(item[QStringLiteral("message")].toString()));
            }
        }
        QCOMPARE(names.first(), QStringLiteral("database"));
        QVERIFY2(names.contains(QStringLiteral("cache")) && names.contains(QStringLiteral("disk")) && names.contains(QStringLiteral("audit")),
                 qPrintable(names.join(u',')));
    }

    void queueListPagingAndErrors()
    {
        const HttpResult all = get(QStringLiteral("/queues"), m_token);
        QCOMPARE(all.status, 200);
        QCOMPARE(all.headers.value("x-total-count"), QByteArray("5")); // the engine's three and the test's slow and fast
        const QJsonObject slow = array(all).at(0).toObject();
        for (const char *key : {"qid", "name", "type", "unique", "length", "batch_length", "workers", "active_workers",
                                "max_workers", "capacity", "pushed_total", "handled_total", "failed_total", "paused"})
            QVERIFY2(slow.contains(QLatin1String(key)), key);

        const HttpResult second = get(QStringLiteral("/queues"), m_token, QStringLiteral("limit=1&page=2"));
        QCOMPARE(array(second).size(), 1);
        QCOMPARE(second.headers.value("x-total-count"), QByteArray("5"));
        QCOMPARE(array(get(QStringLiteral("/queues"), m_token, QStringLiteral("limit=1&page=6"))).size(), 0);

        const HttpResult badLimit = get(QStringLiteral("/queues"), m_token, QStringLiteral("limit=501"));
        QCOMPARE(badLimit.status, 400);
        QCOMPARE(badLimit.errorField(), QStringLiteral("limit"));
        const HttpResult badPage = get(QStringLiteral("/queues"), m_token, QStringLiteral("page=zero"));
        QCOMPARE(badPage.status, 400);
        QCOMPARE(badPage.errorField(), QStringLiteral("page"));

        const qint64 fast = qid(QStringLiteral("fast"));
        const HttpResult one = get(QStringLiteral("/queues/%1").arg(fast), m_token);
        QCOMPARE(one.status, 200);
        QCOMPARE(object(one)[QStringLiteral("name")].toString(), QStringLiteral("fast"));
        QCOMPARE(object(one)[QStringLiteral("settings")][QStringLiteral("type")].toString(), QStringLiteral("channel"));
        QCOMPARE(get(QStringLiteral("/queues/9999"), m_token).status, 404);
        const HttpResult notId = get(QStringLiteral("/queues/abc"), m_token);
        QCOMPARE(notId.status, 400);
        QCOMPARE(notId.errorField(), QStringLiteral("qid"));
        const HttpResult unknownEndpoint = get(QStringLiteral("/queues/1/nothing"), m_token);
        QCOMPARE(unknownEndpoint.status, 404);
        QVERIFY(unknownEndpoint.message().contains(QStringLiteral("no such endpoint")));
        // The history: a literal segment, not a qid; dense windows; bad values name their field.
        const HttpResult history = get(QStringLiteral("/queues/history"), m_readOnly);
        QVERIFY2(history.status == 200, qPrintable(describe(history)));
        QCOMPARE(array(history).size(), 60);
        for (const char *key : {"at", "processed", "failed"})
            QVERIFY2(array(history).at(59).toObject().contains(QLatin1String(key)), key);
        QCOMPARE(array(get(QStringLiteral("/queues/history"), m_token, QStringLiteral("resolution=hour&qid=%1").arg(fast))).size(), 168);
        QCOMPARE(array(get(QStringLiteral("/queues/history"), m_token, QStringLiteral("resolution=day"))).size(), 90);
        const HttpResult badResolution = get(QStringLiteral("/queues/history"), m_token, QStringLiteral("resolution=week"));
        QCOMPARE(badResolution.status, 400);
        QCOMPARE(badResolution.errorField(), QStringLiteral("resolution"));
        const HttpResult noQueue = get(QStringLiteral("/queues/history"), m_token, QStringLiteral("qid=9999"));
        QCOMPARE(noQueue.status, 404);
        QCOMPARE(noQueue.errorField(), QStringLiteral("qid"));
        const HttpResult wrongMethod = http("DELETE", url(QStringLiteral("/queues")), m_token);
        QCOMPARE(wrongMethod.status, 405);
        QCOMPARE(wrongMethod.headers.value("allow"), QByteArray("GET"));
    }

    void setMaxWorkersValidatesTheBody()
    {
        const QString path = QStringLiteral("/queues/%1/max-workers").arg(qid(QStringLiteral("fast")));
        QCOMPARE(http("PUT", url(path), m_token, R"({"max_workers": 3})").status, 200);
        QCOMPARE(object(get(QStringLiteral("/queues/%1").arg(qid(QStringLiteral("fast"))), m_token))[QStringLiteral("max_workers")].toInt(), 3);

        const struct
        {
            QByteArray body;
            QString field;
        } bad[] = {{R"({"max_workers": "3"})", QStringLiteral("max_workers")},
                   {R"({"max_workers": 2.5})", QStringLiteral("max_workers")},
                   {R"({"max_workers": 0})", QStringLiteral("max_workers")},
                   {R"({"max_workers": -4294967295})", QStringLiteral("max_workers")},
                   {R"({"max_workers": 1, "max_workers": 3})", QStringLiteral("max_workers")}, // duplicates: refused, not last-wins
                   {R"({"max_workers": 3, "colour": "red"})", QStringLiteral("colour")},
                   {R"({"max_workers": )", QStringLiteral("body")},
                   {R"([3])", QStringLiteral("body")}};
        for (const auto &[body, field] : bad) {
            const HttpResult r = http("PUT", url(path), m_token, body);
            QVERIFY2(r.status == 400, qPrintable(describe(r)));
            QVERIFY2(r.errorField() == field, qPrintable(describe(r)));
        }
        // Nothing changed by the refused calls.
        QCOMPARE(object(get(QStringLiteral("/queues/%1").arg(qid(QStringLiteral("fast"))), m_token))[QStringLiteral("max_workers")].toInt(), 3);
    }

    void pauseResumeFlushTimeoutAndRemoveAll()
    {
        const qint64 slow = qid(QStringLiteral("slow"));
        QCOMPARE(post(QStringLiteral("/queues/%1/pause").arg(slow), m_token).status, 200);
        QVERIFY(object(get(QStringLiteral("/queues/%1").arg(slow), m_token))[QStringLiteral("paused")].toBool());

        // 200 items in batches of 20 at 200 ms each (a flush drains a paused queue too): 50 ms is
        // far too little.
        const HttpResult timedOut = http("POST", url(QStringLiteral("/queues/%1/flush").arg(slow), QStringLiteral("timeout_ms=50")), m_token);
        QVERIFY2(timedOut.status == 408, qPrintable(describe(timedOut)));

        QCOMPARE(post(QStringLiteral("/queues/%1/resume").arg(slow), m_token).status, 200);
        QVERIFY(!object(get(QStringLiteral("/queues/%1").arg(slow), m_token))[QStringLiteral("paused")].toBool());
        const HttpResult badTimeout = http("POST", url(QStringLiteral("/queues/%1/flush").arg(slow), QStringLiteral("timeout_ms=soon")), m_token);
        QCOMPARE(badTimeout.status, 400);
        QCOMPARE(badTimeout.errorField(), QStringLiteral("timeout_ms"));

        const HttpResult dryRun = http("POST", url(QStringLiteral("/queues/%1/remove-all").arg(slow), QStringLiteral("dry_run=1")), m_token);
        QCOMPARE(dryRun.status, 200);
        QVERIFY(object(dryRun)[QStringLiteral("count")].toInteger() > 0);
        const HttpResult removed = post(QStringLiteral("/queues/%1/remove-all").arg(slow), m_token);
        QCOMPARE(removed.status, 200);
        QVERIFY(object(removed).contains(QStringLiteral("removed")));
        const HttpResult flushed = http("POST", url(QStringLiteral("/queues/%1/flush").arg(slow), QStringLiteral("timeout_ms=30000")), m_token);
        QVERIFY2(flushed.status == 200, qPrintable(describe(flushed)));
        QCOMPARE(object(get(QStringLiteral("/queues/%1").arg(slow), m_token))[QStringLiteral("length")].toInteger(), 0);

        QCOMPARE(http("POST", url(QStringLiteral("/queues/flush-all"), QStringLiteral("timeout_ms=30000")), m_token).status, 200);
        QCOMPARE(http("POST", url(QStringLiteral("/queues/flush-all"), QStringLiteral("non_blocking=1")), m_token).status, 202);
        QCOMPARE(post(QStringLiteral("/queues/9999/pause"), m_token).status, 404);
    }

    void cronRunTwiceIsAConflict()
    {
        const QJsonObject row = cronRow(QStringLiteral("slow_task"));
        for (const char *key : {"name", "title", "schedule", "enabled", "run_at_start", "notice_on_success", "running", "next",
                                "prev", "status", "message", "exec_times", "last_doer"})
            QVERIFY2(row.contains(QLatin1String(key)), key);

        const HttpResult started = post(QStringLiteral("/cron/slow_task/run"), m_token);
        QVERIFY2(started.status == 202, qPrintable(describe(started)));
        const HttpResult again = post(QStringLiteral("/cron/slow_task/run"), m_token);
        QVERIFY2(again.status == 409, qPrintable(describe(again)));
        QVERIFY(cronRow(QStringLiteral("slow_task"))[QStringLiteral("running")].toBool());
        QCOMPARE(cronRow(QStringLiteral("slow_task"))[QStringLiteral("last_doer")].toString(), QStringLiteral("api (admin)"));
        QCOMPARE(post(QStringLiteral("/cron/no_such_task/run"), m_token).status, 404);

        // The run shows under processes; cancelling it ends it as cancelled.
        qint64 pid = 0;
        for (const QJsonValue &p : array(get(QStringLiteral("/processes"), m_token)))
            if (p[QStringLiteral("description")].toString().contains(QStringLiteral("slow_task")) && p[QStringLiteral("cancellable")].toBool())
                pid = p[QStringLiteral("pid")].toInteger();
        QVERIFY(pid > 0);
        QCOMPARE(post(QStringLiteral("/processes/%1/cancel").arg(pid), m_token).status, 200);
        QCOMPARE(post(QStringLiteral("/processes/99999999/cancel"), m_token).status, 404);
        QTRY_VERIFY_WITH_TIMEOUT(!cronRow(QStringLiteral("slow_task"))[QStringLiteral("running")].toBool(), 15000);

        const HttpResult runs = get(QStringLiteral("/cron/slow_task/runs"), m_token);
        QCOMPARE(runs.status, 200);
        QCOMPARE(array(runs).at(0)[QStringLiteral("trigger")].toString(), QStringLiteral("manual"));
        QCOMPARE(array(runs).at(0)[QStringLiteral("status")].toString(), QStringLiteral("cancelled"));
        QCOMPARE(get(QStringLiteral("/cron/no_such_task/runs"), m_token).status, 404);

        QCOMPARE(post(QStringLiteral("/cron/slow_task/pause"), m_token).status, 200);
        QVERIFY(cronRow(QStringLiteral("slow_task"))[QStringLiteral("paused")].toBool());
        QCOMPARE(post(QStringLiteral("/cron/slow_task/resume"), m_token).status, 200);
        QVERIFY(!cronRow(QStringLiteral("slow_task"))[QStringLiteral("paused")].toBool());
    }

    void oddNamesAndPathsAreRefusedPrecisely()
    {
        // Percent-encoded traversal and control characters in a name: 400 naming the field.
        const QByteArray auth = "Authorization: Bearer " + m_token + "\r\n";
        QByteArray answer = rawHttp(m_daemon.port(), "POST /api/v1/cron/..%2F..%2Fetc/run HTTP/1.1\r\nHost: x\r\n" + auth
                                                         + "Content-Length: 0\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 404"), answer.constData()); // a name with a slash is just unknown
        answer = rawHttp(m_daemon.port(), "POST /api/v1/cron/%2E%2E/run HTTP/1.1\r\nHost: x\r\n" + auth + "Content-Length: 0\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 400") && answer.contains("\"field\":\"name\""), answer.constData());
        answer = rawHttp(m_daemon.port(), "POST /api/v1/locks/a%01b/force-release HTTP/1.1\r\nHost: x\r\n" + auth
                                              + "Content-Length: 0\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 400") && answer.contains("\"field\":\"key\""), answer.constData());
        answer = rawHttp(m_daemon.port(), "GET /etc/passwd HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 404") && answer.contains("application/json"), answer.constData());
        QCOMPARE(get(QStringLiteral("/health"), QByteArray()).status, 200); // still serving
    }

    void bodiesOverTheLimitAre413()
    {
        const HttpResult big = http("PUT", url(QStringLiteral("/queues/1/max-workers")), m_token, QByteArray(8192, ' '));
        QCOMPARE(big.status, 413);
        QCOMPARE(big.errorField(), QStringLiteral("body"));
    }

    void locksAndForceRelease()
    {
        const HttpResult locks = get(QStringLiteral("/locks"), m_token);
        QCOMPARE(locks.status, 200);
        QCOMPARE(array(locks).size(), 1);
        const QJsonObject lock = array(locks).at(0).toObject();
        QCOMPARE(lock[QStringLiteral("key")].toString(), QStringLiteral("demo-lock"));
        for (const char *key : {"backend", "owner", "token_prefix", "acquired_at", "ttl_ms", "extensions", "fencing_token", "waiters"})
            QVERIFY2(lock.contains(QLatin1String(key)), key);

        StreamClient stream;
        QVERIFY(stream.open(QUrl(url(QStringLiteral("/stream")).toString().replace(QStringLiteral("http"), QStringLiteral("ws"))), m_token));
        QCOMPARE(post(QStringLiteral("/locks/demo-lock/force-release"), m_token).status, 200);
        QCOMPARE(post(QStringLiteral("/locks/demo-lock/force-release"), m_token).status, 404);
        const QJsonDocument released = stream.waitFor(QStringLiteral("lock"), [](const QJsonDocument &d) {
            return d[QStringLiteral("key")].toString() == QLatin1String("demo-lock") && d[QStringLiteral("action")].toString() == QLatin1String("released");
        });
        QVERIFY2(!released.isNull(), qPrintable(stream.frames.join(u'|').left(2000)));

        // Recorded as a system notice naming the doer; notices can be deleted.
        const HttpResult notices = get(QStringLiteral("/notices"), m_token);
        QJsonObject notice;
        for (const QJsonValue &n : array(notices))
            if (n[QStringLiteral("description")].toString().contains(QStringLiteral("demo-lock")))
                notice = n.toObject();
        QVERIFY2(notice[QStringLiteral("description")].toString().contains(QStringLiteral("api (admin)")), notices.body.constData());
        const QString path = QStringLiteral("/notices/%1").arg(notice[QStringLiteral("id")].toInteger());
        QCOMPARE(http("DELETE", url(path), m_token).status, 200);
        QCOMPARE(http("DELETE", url(path), m_token).status, 404);
    }

    void cacheAndQos()
    {
        QCOMPARE(object(get(QStringLiteral("/cache"), m_token))[QStringLiteral("adapter")].toString(), QStringLiteral("memory"));
        const HttpResult test = post(QStringLiteral("/cache/test"), m_readOnly); // a diagnostic: read-only may run it
        QCOMPARE(test.status, 200);
        QVERIFY(object(test)[QStringLiteral("ok")].toBool());
        QCOMPARE(object(test)[QStringLiteral("threshold_ms")].toInt(), 30);
        const QJsonObject stats = object(get(QStringLiteral("/cache/stats"), m_token));
        QVERIFY(stats.contains(QStringLiteral("latency_ms")) && stats[QStringLiteral("latency_ms")].toObject().contains(QStringLiteral("p99")));
        const QJsonObject qos = object(get(QStringLiteral("/qos"), m_token));
        QCOMPARE(qos[QStringLiteral("enabled")].toBool(), false);
        QVERIFY(qos[QStringLiteral("dropped_total")].toObject().contains(QStringLiteral("low")));
    }

    void readOnlyTokensReadButNeverMutate()
    {
        QCOMPARE(get(QStringLiteral("/queues"), m_readOnly).status, 200);
        QCOMPARE(get(QStringLiteral("/metrics"), m_readOnly).status, 200);
        const qint64 fast = qid(QStringLiteral("fast"));
        const struct
        {
            QByteArray method;
            QString path;
            QByteArray body;
        } mutating[] = {{"POST", QStringLiteral("/queues/%1/flush").arg(fast), {}},
                        {"POST", QStringLiteral("/queues/flush-all"), {}},
                        {"POST", QStringLiteral("/queues/%1/remove-all").arg(fast), {}},
                        {"PUT", QStringLiteral("/queues/%1/max-workers").arg(fast), R"({"max_workers": 1})"},
                        {"POST", QStringLiteral("/queues/%1/pause").arg(fast), {}},
                        {"POST", QStringLiteral("/queues/%1/resume").arg(fast), {}},
                        {"POST", QStringLiteral("/cron/slow_task/run"), {}},
                        {"POST", QStringLiteral("/cron/slow_task/pause"), {}},
                        {"POST", QStringLiteral("/cron/slow_task/resume"), {}},
                        {"POST", QStringLiteral("/locks/x/force-release"), {}},
                        {"POST", QStringLiteral("/processes/1/cancel"), {}},
                        {"DELETE", QStringLiteral("/notices/1"), {}},
                        {"POST", QStringLiteral("/mail/test"), R"({"to": "ops@example.com"})"}};
        for (const auto &[method, path, body] : mutating) {
            const HttpResult r = http(method, url(path), m_readOnly, body);
            QVERIFY2(r.status == 403, qPrintable(path + u' ' + describe(r)));
        }
        QCOMPARE(object(get(QStringLiteral("/queues/%1").arg(fast), m_token))[QStringLiteral("max_workers")].toInt(), 3);
        QVERIFY(!cronRow(QStringLiteral("slow_task"))[QStringLiteral("running")].toBool());
    }

    void auditRecordsEveryMutatingCall()
    {
        const HttpResult audit = get(QStringLiteral("/audit"), m_readOnly, QStringLiteral("limit=500"));
        QCOMPARE(audit.status, 200);
        const QJsonArray entries = array(audit);
        QVERIFY(audit.headers.value("x-total-count").toInt() >= entries.size());
        QSet<QString> actions;
        bool forbiddenSeen = false;
        for (const QJsonValue &e : entries) {
            actions.insert(e[QStringLiteral("action")].toString());
            QVERIFY(!e[QStringLiteral("actor")].toString().startsWith(QStringLiteral("sy_"))); // never the token
            if (e[QStringLiteral("actor")].toString() == QLatin1String("viewer") && e[QStringLiteral("result")].toString().startsWith(QStringLiteral("403")))
                forbiddenSeen = true;
        }
        QVERIFY(forbiddenSeen);
        for (const char *action : {"queue.pause", "queue.resume", "queue.flush", "queue.remove-all", "queue.set-max-workers",
                                   "queue.flush-all", "cron.run", "cron.pause", "cron.resume", "lock.force-release",
                                   "process.cancel", "notice.delete"})
            QVERIFY2(actions.contains(QLatin1String(action)), action);

        const HttpResult runs = get(QStringLiteral("/audit"), m_token, QStringLiteral("action=cron.run"));
        QVERIFY(!array(runs).isEmpty());
        for (const QJsonValue &e : array(runs))
            QCOMPARE(e[QStringLiteral("action")].toString(), QStringLiteral("cron.run"));
        const QJsonObject conflict = [&] {
            for (const QJsonValue &e : array(runs))
                if (e[QStringLiteral("result")].toString().startsWith(QStringLiteral("409")))
                    return e.toObject();
            return QJsonObject();
        }();
        QCOMPARE(conflict[QStringLiteral("actor")].toString(), QStringLiteral("admin"));
        QCOMPARE(conflict[QStringLiteral("remote_addr")].toString(), QStringLiteral("127.0.0.1"));
        QCOMPARE(conflict[QStringLiteral("target")].toString(), QStringLiteral("slow_task"));
        QCOMPARE(get(QStringLiteral("/audit"), m_token, QStringLiteral("since=yesterday")).errorField(), QStringLiteral("since"));
        const QString future = QDateTime::currentDateTimeUtc().addDays(1).toString(Qt::ISODate);
        QCOMPARE(array(get(QStringLiteral("/audit"), m_token, QStringLiteral("since=") + future)).size(), 0);
    }

    void metricsAreValidExposition()
    {
        const HttpResult metrics = get(QStringLiteral("/metrics"), m_readOnly);
        QCOMPARE(metrics.status, 200);
        QVERIFY(metrics.headers.value("content-type").startsWith("text/plain; version=0.0.4"));
        QMap<QString, double> series;
        const QString problem = checkExposition(metrics.body, &series);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(series.contains(QStringLiteral("switchyard_queue_length{queue=\"slow\",type=\"channel\"}")));
        QVERIFY(series.value(QStringLiteral("switchyard_queue_pushed_total{queue=\"slow\",type=\"channel\"}")) >= 200);
        QVERIFY(series.value(QStringLiteral("switchyard_cron_runs_total{task=\"slow_task\",status=\"cancelled\"}")) >= 1);
        QVERIFY(series.contains(QStringLiteral("switchyard_locks_held{backend=\"memory\"}")));
        QVERIFY(series.contains(QStringLiteral("switchyard_cache_hits_total{adapter=\"memory\"}")));
        QVERIFY(series.contains(QStringLiteral("switchyard_qos_dropped_total{priority=\"low\"}")));

        // The checker itself refuses what it must.
        QMap<QString, double> scratch;
        QVERIFY(!checkExposition("a 1\n", &scratch).isEmpty());                                  // no TYPE
        QVERIFY(!checkExposition("# TYPE a gauge\na{x=\"1} 1\n", &scratch).isEmpty());           // bad label
        QVERIFY(!checkExposition("# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na 2\n", &scratch).isEmpty()); // split family
    }

    void streamCarriesQueueStatsAndCronStatus()
    {
        StreamClient stream;
        const QUrl ws(url(QStringLiteral("/stream")).toString().replace(QStringLiteral("http"), QStringLiteral("ws")));
        QVERIFY(stream.open(ws, m_token));
        const QJsonDocument stats = stream.waitFor(QStringLiteral("queue-stats"), [](const QJsonDocument &d) { return d.array().size() == 5; });
        QVERIFY2(!stats.isNull(), qPrintable(stream.frames.join(u'|').left(2000)));
        QVERIFY(stats.array().at(0).toObject().contains(QStringLiteral("handled_total")));

        QCOMPARE(post(QStringLiteral("/cron/delete_old_system_notices/run"), m_token).status, 202);
        const QJsonDocument cron = stream.waitFor(QStringLiteral("cron-status"), [](const QJsonDocument &d) {
            return d[QStringLiteral("name")].toString() == QLatin1String("delete_old_system_notices") && d[QStringLiteral("exec_times")].toInt() >= 1;
        });
        QVERIFY2(!cron.isNull(), qPrintable(stream.frames.join(u'|').left(2000)));

        // The token may also come as a query parameter (browsers cannot set headers).
        StreamClient byQuery;
        QUrl withToken = ws;
        withToken.setQuery(QStringLiteral("token=") + QString::fromLatin1(m_readOnly));
        QVERIFY(byQuery.open(withToken, QByteArray()));
        QVERIFY(!byQuery.waitFor(QStringLiteral("queue-stats"), [](const QJsonDocument &) { return true; }).isNull());
    }

    void aRevokedTokenLosesItsStream()
    {
        const QUrl ws(url(QStringLiteral("/stream")).toString().replace(QStringLiteral("http"), QStringLiteral("ws")));
        Admin::TokenStore store(m_dir.path());
        const Result<QString> watcher = store.create(QStringLiteral("watcher"), Admin::Role::Admin);
        QVERIFY(watcher);
        StreamClient stream;
        QVERIFY(stream.open(ws, watcher->toUtf8()));
        QVERIFY(!stream.waitFor(QStringLiteral("queue-stats"), [](const QJsonDocument &) { return true; }).isNull());
        QVERIFY(store.revoke(QStringLiteral("watcher")));
        QElapsedTimer closing;
        closing.start();
        QCOMPARE(stream.waitForClose(), 4401);
        QVERIFY2(closing.elapsed() < 3 * 1000, qPrintable(QString::number(closing.elapsed()))); // one interval (1 s) and change

        // A token whose role changes (the file edited while the daemon runs) is closed as well.
        const Result<QString> demoted = store.create(QStringLiteral("demoted"), Admin::Role::Admin);
        QVERIFY(demoted);
        StreamClient second;
        QVERIFY(second.open(ws, demoted->toUtf8()));
        QVERIFY(!second.waitFor(QStringLiteral("queue-stats"), [](const QJsonDocument &) { return true; }).isNull());
        QFile file(m_dir.filePath(QStringLiteral("tokens.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
        file.close();
        QByteArray text = doc.toJson();
        const qsizetype at = text.indexOf("\"demoted\"");
        QVERIFY(at > 0);
        const qsizetype role = text.indexOf("\"admin\"", at);
        QVERIFY(role > 0);
        text.replace(role, 7, "\"read-only\"");
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        QCOMPARE(second.waitForClose(), 4401);
    }

    void auditTargetsAreCleanedAndBounded()
    {
        // A read-only token's refused call names the raw path value: escape and bell bytes, and a long name.
        const QByteArray hostile = "%1B%5B2J%07x";
        QCOMPARE(rawHttp(m_daemon.port(), "POST /api/v1/locks/" + hostile + "/force-release HTTP/1.1\r\nHost: x\r\n"
                                             "Authorization: Bearer " + m_readOnly + "\r\nContent-Length: 0\r\n\r\n")
                     .left(12),
                 QByteArray("HTTP/1.1 403"));
        const QByteArray longName(5000, 'n');
        QCOMPARE(rawHttp(m_daemon.port(), "POST /api/v1/locks/" + longName + "/force-release HTTP/1.1\r\nHost: x\r\n"
                                             "Authorization: Bearer " + m_readOnly + "\r\nContent-Length: 0\r\n\r\n")
                     .left(12),
                 QByteArray("HTTP/1.1 403"));
        const QJsonArray entries = array(get(QStringLiteral("/audit"), m_token, QStringLiteral("action=lock.force-release&limit=2")));
        QCOMPARE(entries.size(), 2);
        const QString longTarget = entries.at(0)[QStringLiteral("target")].toString();
        QVERIFY2(longTarget.size() <= Admin::AuditLog::kMaxField + 1, qPrintable(QString::number(longTarget.size())));
        const QString escaped = entries.at(1)[QStringLiteral("target")].toString();
        QCOMPARE(escaped, QStringLiteral("\\x1b[2J\\x07x")); // as stored: the API lists the table's fields as they are
    }

    void streamRefusesBadTokensAndForeignOrigins()
    {
        const QUrl ws(url(QStringLiteral("/stream")).toString().replace(QStringLiteral("http"), QStringLiteral("ws")));
        StreamClient noToken;
        noToken.open(ws, QByteArray());
        QCOMPARE(noToken.waitForClose(), 4401);
        QVERIFY(noToken.frames.isEmpty());

        StreamClient foreign;
        foreign.open(ws, m_token, "https://evil.example");
        QCOMPARE(foreign.waitForClose(), 4403);
        QVERIFY(foreign.frames.isEmpty());

        StreamClient sameHost;
        QVERIFY(sameHost.open(ws, m_token, "http://127.0.0.1:" + QByteArray::number(m_daemon.port())));
        QVERIFY(!sameHost.waitFor(QStringLiteral("queue-stats"), [](const QJsonDocument &) { return true; }).isNull());
    }

    void silentAndVanishingClientsDoNotHurtOthers()
    {
        // A client that connects and sends nothing.
        QTcpSocket silent;
        silent.connectToHost(QHostAddress::LocalHost, m_daemon.port());
        QVERIFY(silent.waitForConnected(5000));
        // A stream client that never reads: the server skips its frames.
        QTcpSocket sluggish;
        sluggish.connectToHost(QHostAddress::LocalHost, m_daemon.port());
        QVERIFY(sluggish.waitForConnected(5000));
        sluggish.write("GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer "
                       + m_token + "\r\n\r\n");
        sluggish.flush();
        // A client that starts a long flush and goes away: its flush is cancelled, nothing crashes.
        const qint64 slow = qid(QStringLiteral("slow"));
        QTcpSocket leaving;
        leaving.connectToHost(QHostAddress::LocalHost, m_daemon.port());
        QVERIFY(leaving.waitForConnected(5000));
        leaving.write("POST /api/v1/queues/" + QByteArray::number(slow) + "/flush?timeout_ms=60000 HTTP/1.1\r\nHost: x\r\n"
                      "Authorization: Bearer " + m_token + "\r\nContent-Length: 0\r\n\r\n");
        QVERIFY(leaving.waitForBytesWritten(5000));
        leaving.abort();

        for (int i = 0; i < 20; ++i)
            QCOMPARE(get(QStringLiteral("/queues"), m_token).status, 200);
        QCOMPARE(get(QStringLiteral("/health"), QByteArray()).status, 200);
    }

    // GET /metrics passes Prometheus's own linter (units, suffixes, types).
    void metricsPassPromtool()
    {
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (promtool.isEmpty())
            QSKIP("promtool is not installed (scripts/deps.sh installs Debian's prometheus)");
        const HttpResult metrics = get(QStringLiteral("/metrics"), m_readOnly);
        QCOMPARE(metrics.status, 200);
        QTemporaryDir dir;
        QFile exposition(dir.filePath(QStringLiteral("metrics.txt")));
        QVERIFY(exposition.open(QIODevice::WriteOnly) && exposition.write(metrics.body) == metrics.body.size());
        exposition.close();
        const Ran lint = runProgram(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("\"$0\" check metrics < \"$1\""),
                                                                 promtool, exposition.fileName()});
        const QByteArray said = lint.output;
        QVERIFY2(lint.exitCode == 0 && said.trimmed().isEmpty(), said.constData());
    }

    // Every catalogue entry is served (a route for its method and path), and errors carry the
    // engine's code and field. Read-only token: changes are refused (403), nothing changes.
    // GET /deliveries?format=csv|json: every match streamed in chunks with X-Total-Count; a bad
    // format is a 400 naming it; a dry run is a read; a bulk redelivery is a 202 job.
    void deliveriesAreExportedAndRedeliveredInBulk()
    {
        Test::HttpReceiver receiver;
        receiver.respond(500, "down");
        HttpResult r = post(QStringLiteral("/hooks"), m_token,
                            "{\"scope\":\"system\",\"url\":\"" + receiver.url("/hook") + "\",\"events\":{\"send_everything\":true}}");
        QCOMPARE(r.status, 201);
        const qint64 hook = object(r)[QStringLiteral("id")].toInteger();
        constexpr int kTasks = 12;
        for (int i = 0; i < kTasks; ++i)
            QCOMPARE(post(QStringLiteral("/hooks/%1/test").arg(hook), m_token).status, 201);
        QCOMPARE(post(QStringLiteral("/queues/%1/flush").arg(qid(QStringLiteral("webhook_sender"))), m_token).status, 200);

        const QString filter = QStringLiteral("hook=%1&status=failed").arg(hook);
        r = get(QStringLiteral("/deliveries"), m_token, filter + QStringLiteral("&format=csv"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.headers.value("content-type"), QByteArray("text/csv; charset=utf-8"));
        QCOMPARE(r.headers.value("transfer-encoding"), QByteArray("chunked"));
        QCOMPARE(r.headers.value("x-total-count"), QByteArray::number(kTasks));
        QList<QByteArray> lines = r.body.split('\n');
        QCOMPARE(lines.size(), kTasks + 2);
        QVERIFY(lines.at(0).startsWith("id,hook_id,uuid,"));
        QVERIFY(lines.at(1).split(',').at(0).toLongLong() > lines.at(kTasks).split(',').at(0).toLongLong()); // newest first
        r = get(QStringLiteral("/deliveries"), m_token, filter + QStringLiteral("&format=json&limit=1"));
        QCOMPARE(r.status, 200);
        const QJsonArray all = array(r);
        QCOMPARE(all.size(), kTasks); // limit is for pages, not exports
        QCOMPARE(all.at(0)[QStringLiteral("response")][QStringLiteral("body")].toString(), QStringLiteral("down"));
        r = get(QStringLiteral("/deliveries"), m_token, filter + QStringLiteral("&limit=5"));
        QCOMPARE(array(r).size(), 5);
        QCOMPARE(r.headers.value("x-total-count"), QByteArray::number(kTasks));
        r = get(QStringLiteral("/deliveries"), m_token, QStringLiteral("format=pdf"));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("format"));
        r = get(QStringLiteral("/deliveries"), m_token, QStringLiteral("since=yesterday"));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("since"));

        // Read-only tokens may count, not send.
        const QByteArray body = "{\"hook\":" + QByteArray::number(hook) + ",\"status\":\"failed\"";
        r = post(QStringLiteral("/deliveries/redeliver"), m_readOnly, body + ",\"dry_run\":true}");
        QCOMPARE(r.status, 200);
        QCOMPARE(object(r)[QStringLiteral("matched")].toInteger(), qint64(kTasks));
        QCOMPARE(post(QStringLiteral("/deliveries/redeliver"), m_readOnly, body + "}").status, 403);
        r = post(QStringLiteral("/deliveries/redeliver"), m_token, "{\"status\":\"pending\"}");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("status"));
        receiver.respond(200, "up");
        r = post(QStringLiteral("/deliveries/redeliver"), m_token, body + "}");
        QCOMPARE(r.status, 202);
        QCOMPARE(object(r)[QStringLiteral("matched")].toInteger(), qint64(kTasks));
        const qint64 job = object(r)[QStringLiteral("job_id")].toInteger();
        QVERIFY(job > 0);
        QVERIFY(Test::eventually([&] {
            for (const QJsonValue &p : array(get(QStringLiteral("/processes"), m_token)))
                if (p[QStringLiteral("pid")].toInteger() == job)
                    return false;
            return true;
        }));
        QCOMPARE(post(QStringLiteral("/queues/%1/flush").arg(qid(QStringLiteral("webhook_sender"))), m_token).status, 200);
        r = get(QStringLiteral("/deliveries"), m_token, QStringLiteral("hook=%1&status=succeeded").arg(hook));
        QCOMPARE(r.headers.value("x-total-count"), QByteArray::number(kTasks));
        QCOMPARE(http("DELETE", url(QStringLiteral("/hooks/%1").arg(hook)), m_token).status, 200);
    }

    // Team access over HTTP: an organisation's members and owners, and what their teams give on
    // one of its repositories; a user is not an organisation, a user's repository has no teams.
    void organisationMembersAndTeamAccess()
    {
        const QByteArray push = "{\"ref\":\"refs/heads/main\",\"before\":\"1\",\"after\":\"2\",\"commits\":[],"
                                "\"repository\":{\"id\":20,\"name\":\"secret\",\"full_name\":\"acme/secret\",\"private\":true,"
                                "\"owner\":{\"id\":50,\"login\":\"acme\",\"type\":\"Organization\"}},\"sender\":{\"id\":2,\"login\":\"bob\"}}";
        QCOMPARE(http("POST", url(QStringLiteral("/events")), m_token, push, {{"X-Gitea-Event-Type", "push"}, {"X-Gitea-Delivery", "api-org"}}).status,
                 202);
        QCOMPARE(http("POST", url(QStringLiteral("/queues/%1/flush").arg(qid(QStringLiteral("event_ingest"))), QStringLiteral("timeout_ms=30000")), m_token)
                     .status,
                 200);
        std::map<QString, qint64> users, repos;
        for (const QJsonValue &u : array(get(QStringLiteral("/users"), m_token)))
            users[u[QStringLiteral("login")].toString()] = u[QStringLiteral("id")].toInteger();
        for (const QJsonValue &r : array(get(QStringLiteral("/repos"), m_token)))
            repos[r[QStringLiteral("full_name")].toString()] = r[QStringLiteral("id")].toInteger();
        QVERIFY(users.count(QStringLiteral("acme")) && users.count(QStringLiteral("bob")) && users.count(QStringLiteral("alice")));
        QVERIFY(repos.count(QStringLiteral("acme/secret")) && repos.count(QStringLiteral("alice/engine")));
        const auto put = [&](const QString &path, const QByteArray &body) { return http("PUT", url(path), m_token, body); };
        const qint64 acme = users[QStringLiteral("acme")], bob = users[QStringLiteral("bob")];
        QCOMPARE(put(QStringLiteral("/orgs/%1/members/%2").arg(acme).arg(bob), "{\"role\":\"owner\"}").status, 200);
        QCOMPARE(put(QStringLiteral("/orgs/%1/members/%2").arg(acme).arg(bob), "{\"role\":\"boss\"}").errorField(), QStringLiteral("role"));
        HttpResult r = put(QStringLiteral("/orgs/%1/members/%2").arg(bob).arg(acme), "{\"role\":\"member\"}");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("id"));
        QCOMPARE(put(QStringLiteral("/orgs/424242/members/%1").arg(bob), "{\"role\":\"member\"}").status, 404);
        QCOMPARE(put(QStringLiteral("/repos/%1/team-access/%2").arg(repos[QStringLiteral("acme/secret")]).arg(users[QStringLiteral("alice")]),
                     "{\"access\":1}")
                     .status,
                 200);
        r = put(QStringLiteral("/repos/%1/team-access/%2").arg(repos[QStringLiteral("alice/engine")]).arg(bob), "{\"access\":1}");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("id"));
        QCOMPARE(put(QStringLiteral("/repos/%1/team-access/%2").arg(repos[QStringLiteral("acme/secret")]).arg(bob), "{\"access\":9}").errorField(),
                 QStringLiteral("access"));
    }

    // Gitea's default hooks over HTTP: scope "default" on create and in the list filter; a bad
    // scope is a 400 that names the field and lists the scopes.
    void defaultHooksAreCreatedAndListedByScope()
    {
        HttpResult r = post(QStringLiteral("/hooks"), m_token,
                            "{\"scope\":\"default\",\"url\":\"http://127.0.0.1:9/new-repo\",\"events\":{\"send_everything\":true}}");
        QCOMPARE(r.status, 201);
        const qint64 hook = object(r)[QStringLiteral("id")].toInteger();
        QCOMPARE(object(r)[QStringLiteral("scope")].toString(), QStringLiteral("default"));
        QCOMPARE(object(r)[QStringLiteral("repo_id")].toInteger(), 0);
        QCOMPARE(object(r)[QStringLiteral("owner_id")].toInteger(), 0);
        r = get(QStringLiteral("/hooks"), m_token, QStringLiteral("scope=default"));
        QCOMPARE(r.status, 200);
        QCOMPARE(array(r).size(), 1);
        QCOMPARE(array(r).at(0)[QStringLiteral("id")].toInteger(), hook);
        r = get(QStringLiteral("/hooks"), m_token, QStringLiteral("scope=system"));
        for (const QJsonValue &row : array(r))
            QVERIFY(row[QStringLiteral("id")].toInteger() != hook);
        r = post(QStringLiteral("/hooks"), m_token, "{\"scope\":\"default\",\"repo_id\":3,\"url\":\"http://127.0.0.1:9/x\"}");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("scope"));
        r = post(QStringLiteral("/hooks"), m_token, "{\"scope\":\"everywhere\",\"url\":\"http://127.0.0.1:9/x\"}");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("scope"));
        QVERIFY2(r.body.contains("everywhere") && r.body.contains("default"), r.body.constData());
        r = get(QStringLiteral("/hooks"), m_token, QStringLiteral("scope=everywhere"));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("scope"));
        QCOMPARE(http("DELETE", url(QStringLiteral("/hooks/%1").arg(hook)), m_token).status, 200);
    }

    void everyEntryHasARoute()
    {
        for (const Admin::OpBase *op : Admin::Catalogue::all()) {
            std::map<QString, QString> params;
            for (const Admin::OpBase::ArgInfo &arg : op->args()) {
                if (arg.spec.where == Admin::ArgSpec::Path)
                    params[QLatin1String(arg.spec.name)] = QStringLiteral("987654");
            }
            const QString path = op->pathFor(params);
            const HttpResult r = http(Admin::methodName(op->info().method), url(path), m_readOnly);
            const QJsonObject body = QJsonDocument::fromJson(r.body).object();
            QVERIFY2(r.status != 405 && !body.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("no such endpoint")),
                     qPrintable(QStringLiteral("%1 %2: %3").arg(QString::fromLatin1(Admin::methodName(op->info().method)), path,
                                                                 QString::fromUtf8(r.body))));
            // The two whose dry run is a read answer a read-only caller's bad request with a 400.
            if (op->hasFlag(Admin::Mutating) && op->action() != QLatin1String("queue.remove-all") &&
                op->action() != QLatin1String("delivery.redeliver")) {
                QCOMPARE(r.status, 403);
                QCOMPARE(body.value(QStringLiteral("code")).toString(), QStringLiteral("permission_denied"));
            }
        }
        // A 400 names its field beside the message; a 409 says conflict; a 404 not_found.
        const HttpResult bad = http("PUT", url(QStringLiteral("/queues/abc/max-workers")), m_token, R"({"max_workers": 2})");
        const QJsonObject error = QJsonDocument::fromJson(bad.body).object();
        QCOMPARE(bad.status, 400);
        QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("invalid_argument"));
        QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("qid"));
        const HttpResult missing = get(QStringLiteral("/cron/no_such_task/runs"), m_token);
        QCOMPARE(missing.status, 404);
        QCOMPARE(QJsonDocument::fromJson(missing.body).object().value(QStringLiteral("code")).toString(), QStringLiteral("not_found"));
    }
};

QTEST_GUILESS_MAIN(TestAdminApi)
#include "tst_adminapi.moc"
