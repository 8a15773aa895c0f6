// Event ingestion and notifications, each figure beside a ceiling measured in the same run:
//
//   events_bench [--seconds N] [--connections C] [--watchers W] [--comments K] [--rows R] [--frames F]
//
// 1. POST /api/v1/events with a 4 KB payload (a new delivery id per request), driven by wrk
//    against the test daemon: requests/s and p99 — beside GET /api/v1/health on the same server
//    (the API's own ceiling for a request that does no work). Target ≥ 1 000/s, p99 < 50 ms.
// 2. K comments on an issue whose repository has W watchers, through the engine (ingestion,
//    recipients, rows): notifications written per second — beside the same rows updated by key
//    in a bare loop (one transaction per comment) on the same store. Target ≥ 10 000/s.
// 3. GET /notifications/new's count for one user among R rows: p50/p99 over 1 000 calls — beside
//    SELECT 1 on the same connection. Target p99 < 5 ms on 1 M rows. And the process's resident
//    memory before and after the R rows were written and counted (target < +100 MiB), beside the
//    database file's size.
// 4. 202 → frame: F events posted one at a time (20/s) while a WebSocket client listens on
//    /stream: from the 202 to the event's first frame (stored) and to its "done" frame — beside a
//    WebSocket ping's round trip on the same connection. Target p95 < 1 s.

#include "benchutil.h"
#include "support/daemonprocess.h"
#include "support/postgresserver.h"
#include "support/testutil.h"

#include "engine/engine.h"
#include "engine/forge/forgedata.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>
#include <QWebSocket>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

using namespace Switchyard;
using Bench::option;
using Bench::percentile;
using Bench::residentKiB;
using Bench::runWrk;
using Bench::WrkFigures;
using namespace std::chrono_literals;

namespace {

QJsonObject user(qint64 id, const QString &login)
{
    return {{QStringLiteral("id"), id}, {QStringLiteral("login"), login}};
}

QJsonObject repository()
{
    return {{QStringLiteral("id"), 10},
            {QStringLiteral("name"), QStringLiteral("engine")},
            {QStringLiteral("full_name"), QStringLiteral("alice/engine")},
            {QStringLiteral("owner"), user(1, QStringLiteral("alice"))}};
}

// A push of about 4 KB.
QByteArray pushPayload()
{
    QJsonArray commits;
    for (int i = 0; i < 18; ++i)
        commits.append(QJsonObject{{QStringLiteral("id"), QString(40, QLatin1Char('a' + i % 6))},
                                   {QStringLiteral("message"), QStringLiteral("Change %1: a commit message of a realistic length, "
                                                                              "with a second clause").arg(i)},
                                   {QStringLiteral("author"), QJsonObject{{QStringLiteral("name"), QStringLiteral("Bob")},
                                                                          {QStringLiteral("email"), QStringLiteral("bob@example.com")}}},
                                   {QStringLiteral("timestamp"), QStringLiteral("2026-11-30T10:00:00Z")}});
    const QJsonObject payload{{QStringLiteral("ref"), QStringLiteral("refs/heads/main")},
                              {QStringLiteral("before"), QString(40, QLatin1Char('1'))},
                              {QStringLiteral("after"), QString(40, QLatin1Char('2'))},
                              {QStringLiteral("commits"), commits},
                              {QStringLiteral("repository"), repository()},
                              {QStringLiteral("sender"), user(2, QStringLiteral("bob"))}};
    return QJsonDocument(payload).toJson(QJsonDocument::Compact);
}

// Runs the event loop until `done` holds or `bound` passes.
bool spin(const std::function<bool()> &done, std::chrono::milliseconds bound)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > bound.count())
            return false;
        QEventLoop loop;
        QTimer::singleShot(1, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

void frameBench(const Test::DaemonProcess &daemon, const QByteArray &token, const QByteArray &payload, int count)
{
    QElapsedTimer clock;
    clock.start();
    std::map<qint64, qint64> firstFrame, doneFrame; // event id → arrival (ns)
    QWebSocket socket;
    QNetworkRequest streamRequest(QUrl(daemon.baseUrl().toString().replace(QStringLiteral("http"), QStringLiteral("ws")) + QStringLiteral("/stream")));
    streamRequest.setRawHeader("Authorization", "Bearer " + token);
    bool connected = false;
    std::vector<double> pings;
    qint64 pingSent = 0;
    QObject::connect(&socket, &QWebSocket::connected, [&] { connected = true; });
    QObject::connect(&socket, &QWebSocket::pong, [&](quint64, const QByteArray &) { pings.push_back(double(clock.nsecsElapsed() - pingSent) / 1e6); });
    QObject::connect(&socket, &QWebSocket::textMessageReceived, [&](const QString &frame) {
        if (!frame.startsWith(QLatin1String("event\n")))
            return;
        const QJsonObject row = QJsonDocument::fromJson(frame.mid(6).toUtf8()).object();
        const qint64 id = row.value(QStringLiteral("id")).toInteger();
        const qint64 now = clock.nsecsElapsed();
        firstFrame.try_emplace(id, now);
        if (row.value(QStringLiteral("status")).toString() == QLatin1String("done"))
            doneFrame.try_emplace(id, now);
    });
    socket.open(streamRequest);
    if (!spin([&] { return connected; }, 10s)) {
        std::printf("== 4. 202 → frame: the stream did not connect ==\n\n");
        return;
    }
    QNetworkAccessManager http;
    std::map<qint64, qint64> accepted; // event id → 202 (ns)
    for (int i = 0; i < count; ++i) {
        QNetworkRequest post(QUrl(daemon.baseUrl().toString() + QStringLiteral("/events")));
        post.setRawHeader("Authorization", "Bearer " + token);
        post.setRawHeader("Content-Type", "application/json");
        post.setRawHeader("X-Gitea-Event-Type", "push");
        post.setRawHeader("X-Gitea-Delivery", "frame-bench-" + QByteArray::number(i));
        QNetworkReply *reply = http.post(post, payload);
        spin([&] { return reply->isFinished(); }, 10s);
        const qint64 at = clock.nsecsElapsed();
        const qint64 id = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("id")).toInteger();
        reply->deleteLater();
        if (id > 0)
            accepted.emplace(id, at);
        pingSent = clock.nsecsElapsed();
        socket.ping();
        const qint64 next = clock.nsecsElapsed() + 50'000'000;
        spin([&] { return clock.nsecsElapsed() >= next; }, 1s);
    }
    spin([&] { return doneFrame.size() >= accepted.size(); }, 30s);
    std::vector<double> toFirst, toDone;
    for (const auto &[id, at] : accepted) {
        if (auto f = firstFrame.find(id); f != firstFrame.end())
            toFirst.push_back(double(std::max<qint64>(0, f->second - at)) / 1e6);
        if (auto d = doneFrame.find(id); d != doneFrame.end())
            toDone.push_back(double(std::max<qint64>(0, d->second - at)) / 1e6);
    }
    std::printf("== 4. 202 → stream frame, %zu events posted one at a time (20/s) ==\n", accepted.size());
    std::printf("first frame    p50 %.2f ms  p95 %.2f ms  (%zu of %zu seen; a frame before its 202 counts 0)\n", percentile(toFirst, 0.5),
                percentile(toFirst, 0.95), toFirst.size(), accepted.size());
    std::printf("done frame     p50 %.2f ms  p95 %.2f ms  (%zu seen: processed and notified)\n", percentile(toDone, 0.5), percentile(toDone, 0.95),
                toDone.size());
    std::printf("ping → pong    p50 %.2f ms  p95 %.2f ms  (peer: the same WebSocket's round trip)\n\n", percentile(pings, 0.5),
                percentile(pings, 0.95));
    socket.close();
}

void ingestBench(int seconds, int connections, int frames)
{
    QTemporaryDir dir;
    Test::DaemonProcess daemon;
    Test::DaemonProcess::Options options;
    options.program = QStringLiteral(TEST_DAEMON_PATH);
    options.dataDir = dir.path();
    if (!daemon.start(options)) {
        std::fprintf(stderr, "daemon did not start:\n%s\n", daemon.output().constData());
        std::exit(1);
    }
    const QString token = QString::fromLatin1(daemon.adminToken());
    const QByteArray payload = pushPayload();
    // wrk's script: the payload, and a delivery id of its own for each request.
    const QString script = Test::writeFile(dir.path(), QStringLiteral("post.lua"),
                                           "wrk.method = \"POST\"\n"
                                           "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
                                           "wrk.headers[\"X-Gitea-Event-Type\"] = \"push\"\n"
                                           "wrk.headers[\"Authorization\"] = \"Bearer " + token.toLatin1() + "\"\n"
                                           "wrk.body = [==[" + payload + "]==]\n"
                                           "local n = 0\n"
                                           "request = function()\n"
                                           "  n = n + 1\n"
                                           "  wrk.headers[\"X-Gitea-Delivery\"] = tostring(math.random(1, 2^30)) .. \"-\" .. n\n"
                                           "  return wrk.format()\n"
                                           "end\n");
    frameBench(daemon, token.toLatin1(), payload, frames);
    const QString base = daemon.baseUrl().toString();
    const WrkFigures bare = runWrk({QStringLiteral("-t2"), QStringLiteral("-c%1").arg(connections), QStringLiteral("-d%1s").arg(seconds),
                                    QStringLiteral("--latency"), base + QStringLiteral("/health")},
                                   seconds);
    const WrkFigures events = runWrk({QStringLiteral("-t2"), QStringLiteral("-c%1").arg(connections), QStringLiteral("-d%1s").arg(seconds),
                                      QStringLiteral("--latency"), QStringLiteral("-s"), script, base + QStringLiteral("/events")},
                                     seconds);
    if (events.report.contains(QLatin1String("Non-2xx")))
        std::printf("WARNING: non-2xx answers to POST /events:\n%s\n", qPrintable(events.report));
    std::printf("== 1. POST /events, %lld-byte push, wrk -t2 -c%d -d%ds ==\n", qlonglong(payload.size()), connections, seconds);
    std::printf("POST /events   %8.0f req/s  p99 %s\n", events.requestsPerSecond, qPrintable(events.p99));
    std::printf("GET /health    %8.0f req/s  p99 %s   (ceiling: the same server doing no work)\n", bare.requestsPerSecond,
                qPrintable(bare.p99));
    std::printf("ratio          %8.1f %%\n\n", bare.requestsPerSecond > 0 ? 100.0 * events.requestsPerSecond / bare.requestsPerSecond : 0);
    daemon.stop();
}

std::unique_ptr<Engine> startEngine(const QString &dir, const QByteArray &ini = {})
{
    Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom(ini, dir));
    if (!engine) {
        std::fprintf(stderr, "engine: %s\n", qPrintable(engine.status().message()));
        std::exit(1);
    }
    return std::move(engine).value();
}

void accept(Engine &engine, const QString &event, const QJsonObject &payload)
{
    IncomingEvent in;
    in.event = event;
    in.payload = QJsonDocument(payload).toJson(QJsonDocument::Compact);
    in.byToken = true;
    if (Result<EventAccepted> r = engine.events().accept(CancelToken(), in); !r) {
        std::fprintf(stderr, "accept: %s\n", qPrintable(r.status().message()));
        std::exit(1);
    }
}

// `ini` chooses the store ([database]); empty: SQLite in the temporary folder.
void deliveryBench(int watchers, int comments, const QByteArray &ini = {}, const char *label = "SQLite")
{
    QTemporaryDir dir;
    std::unique_ptr<Engine> engine = startEngine(dir.path(), ini);
    Store &store = engine->store();
    const QJsonObject issue{{QStringLiteral("id"), 101}, {QStringLiteral("number"), 1}, {QStringLiteral("title"), QStringLiteral("Queue stalls")},
                            {QStringLiteral("body"), QString()}, {QStringLiteral("state"), QStringLiteral("open")},
                            {QStringLiteral("user"), user(2, QStringLiteral("bob"))}};
    accept(*engine, QStringLiteral("issues"),
           {{QStringLiteral("action"), QStringLiteral("opened")}, {QStringLiteral("issue"), issue}, {QStringLiteral("repository"), repository()},
            {QStringLiteral("sender"), user(2, QStringLiteral("bob"))}});
    engine->queues().flushAll(CancelToken(), 60s);
    engine->queues().flushAll(CancelToken(), 60s);
    // W watchers of the repository.
    store.write([&](SqlTransaction &tx) -> Status {
        const qint64 repo = *tx.scalar(QStringLiteral("SELECT id FROM repo"));
        for (int i = 0; i < watchers; ++i) {
            ForgeUser u;
            u.login = QStringLiteral("watcher%1").arg(i);
            Result<ForgeUser> stored = ForgeDb::upsertUser(tx, QStringLiteral("default"), 1000 + i, u);
            if (!stored)
                return stored.status();
            if (Status s = ForgeDb::setWatch(tx, stored->id, repo, WatchMode::Normal); !s)
                return s;
        }
        return Status::ok();
    });
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < comments; ++i)
        accept(*engine, QStringLiteral("issue_comment"),
               {{QStringLiteral("action"), QStringLiteral("created")},
                {QStringLiteral("issue"), issue},
                {QStringLiteral("comment"), QJsonObject{{QStringLiteral("id"), 5000 + i}, {QStringLiteral("body"), QStringLiteral("comment %1").arg(i)},
                                                        {QStringLiteral("user"), user(3, QStringLiteral("carol"))}}},
                {QStringLiteral("repository"), repository()},
                {QStringLiteral("sender"), user(3, QStringLiteral("carol"))}});
    engine->queues().flushAll(CancelToken(), 600s);
    engine->queues().flushAll(CancelToken(), 600s);
    const double engineSeconds = double(timer.nsecsElapsed()) / 1e9;
    const qint64 written = qint64(comments) * (watchers + 1); // every watcher and bob, once per comment (a row updated or made)

    // The ceiling: the least the engine must do — each recipient's row updated by its key, one
    // transaction per comment — by a bare loop on the same store.
    std::vector<qint64> rowIds;
    store.read([&](SqlTransaction &tx) -> Status {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id FROM notification"));
        if (!q)
            return q.status();
        while (q->next())
            rowIds.push_back(q->value(0).toLongLong());
        return Status::ok();
    });
    timer.restart();
    for (int i = 0; i < comments; ++i) {
        store.write([&](SqlTransaction &tx) -> Status {
            for (qint64 id : rowIds)
                if (Status s = tx.exec(QStringLiteral("UPDATE notification SET status = 1, updated_unix = ? WHERE id = ?"), {qint64(i), id}).status(); !s)
                    return s;
            return Status::ok();
        });
    }
    const double bareSeconds = double(timer.nsecsElapsed()) / 1e9;
    std::printf("== 2. %d comments to %d watchers (%s, %s) ==\n", comments, watchers, label, qPrintable(store.location()));
    std::printf("notifications  %8.0f rows/s  (%lld in %.2f s: ingestion, recipients, rows)\n", double(written) / engineSeconds,
                qlonglong(written), engineSeconds);
    std::printf("bare updates   %8.0f rows/s  (ceiling: %lld rows updated by key, one transaction per comment)\n",
                double(rowIds.size()) * comments / bareSeconds, qlonglong(rowIds.size()));
    std::printf("ratio          %8.1f %%\n\n", 100.0 * (double(written) / engineSeconds) / (double(rowIds.size()) * comments / bareSeconds));
    engine->shutdown();
}

void countBench(int rows)
{
    QTemporaryDir dir;
    std::unique_ptr<Engine> engine = startEngine(dir.path());
    Store &store = engine->store();
    const qint64 rssBefore = residentKiB();
    // R rows over 1 000 users, a quarter unread.
    store.write([&](SqlTransaction &tx) {
        return tx.exec(QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?) "
                                      "INSERT INTO notification (user_id, repo_id, issue_id, status, source, updated_by, created_unix, updated_unix) "
                                      "SELECT i % 1000, 1, i, CASE WHEN i % 4 = 0 THEN 1 ELSE 2 END, 1, 1, i, i FROM n"),
                       {rows})
            .status();
    });
    NotificationService &service = engine->notifications();
    std::vector<double> count, ping;
    for (int i = 0; i < 1000; ++i) {
        QElapsedTimer one;
        one.start();
        service.countUnread(i % 1000);
        count.push_back(double(one.nsecsElapsed()) / 1e6);
        one.restart();
        store.ping();
        ping.push_back(double(one.nsecsElapsed()) / 1e6);
    }
    std::printf("== 3. unread count for one user among %d rows, 1 000 calls ==\n", rows);
    std::printf("count          p50 %.3f ms  p99 %.3f ms\n", percentile(count, 0.5), percentile(count, 0.99));
    std::printf("SELECT 1       p50 %.3f ms  p99 %.3f ms  (ceiling: a statement that reads nothing)\n", percentile(ping, 0.5),
                percentile(ping, 0.99));
    const qint64 rssAfter = residentKiB();
    std::printf("resident       %lld MiB before the rows, %lld MiB after: %+lld MiB  (beside: the database file, %lld MiB)\n\n",
                qlonglong(rssBefore / 1024), qlonglong(rssAfter / 1024), qlonglong((rssAfter - rssBefore) / 1024),
                qlonglong(QFileInfo(store.location()).size() / (1024 * 1024)));
    engine->shutdown();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int seconds = option(args, "--seconds", 10);
    ingestBench(seconds, option(args, "--connections", 16), option(args, "--frames", 100));
    deliveryBench(option(args, "--watchers", 1000), option(args, "--comments", 1000));
    // The same on a private PostgreSQL cluster (fsync off, as in the tests), unless --postgres 0.
    if (option(args, "--postgres", 1)) {
        Result<Test::PostgresServer *> server = Test::PostgresServer::shared();
        Result<DatabaseSettings> db = server ? (*server)->createDatabase(QStringLiteral("bench")) : Result<DatabaseSettings>(server.status());
        if (!db) {
            std::fprintf(stderr, "postgres: %s\n", qPrintable(db.status().message()));
            return 1;
        }
        const QByteArray ini = QStringLiteral("[security]\nSECRET_KEY = bench\n[database]\nDB_TYPE = postgres\nHOST = %1\nNAME = %2\nUSER = %3\nPASSWD = %4\n")
                                   .arg(db->host, db->name, db->user, db->passwd)
                                   .toUtf8();
        deliveryBench(option(args, "--watchers", 1000), option(args, "--comments", 1000), ini, "PostgreSQL");
    }
    countBench(option(args, "--rows", 1'000'000));
    return 0;
}
