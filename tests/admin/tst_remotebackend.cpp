// What only the remote backend has: a connection that can be missing, refused, incompatible,
// read-only or revoked — and two instances on one Redis, each watched through its own backend.
#include "admin/remotebackend.h"
#include "admin/tokens.h"

#include "support/daemonprocess.h"
#include "support/httpreceiver.h"
#include "support/redisserver.h"
#include "support/testutil.h"
#include "support/opcall.h"
#include "support/wait.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;
using Admin::AdminBackend;
using Admin::RemoteBackend;

using Switchyard::Test::await;

namespace {

const QString kTestDaemon = QStringLiteral(TEST_DAEMON_PATH);


std::unique_ptr<RemoteBackend> connectTo(const QUrl &url, const QByteArray &token)
{
    Admin::RemoteBackendOptions options;
    options.url = url;
    options.token = token;
    options.reconnectMin = 50ms;
    options.reconnectMax = 200ms;
    auto backend = std::make_unique<RemoteBackend>(options);
    backend->start();
    return backend;
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

bool connected(AdminBackend &backend)
{
    return Test::eventually([&] { return backend.state() == AdminBackend::State::Connected; });
}

} // namespace

class TestRemoteBackend : public QObject
{
    Q_OBJECT

    // The standard test daemon and a backend connected to it.
    void startConnected(const QTemporaryDir &dir, Test::DaemonProcess &daemon, std::unique_ptr<RemoteBackend> &backend)
    {
        QVERIFY2(daemon.start(Test::DaemonProcess::standardFixture(kTestDaemon, dir.path(), "[queue]\nTYPE = channel\n")),
                 daemon.output().constData());
        backend = connectTo(daemon.baseUrl(), daemon.adminToken());
        QVERIFY(Test::eventually([&] { return backend->state() == AdminBackend::State::Connected; }));
    }

private Q_SLOTS:
    void unreachableRetriesThenConnectsAndReconnects()
    {
        const quint16 port = freePort();
        auto backend = connectTo(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), "sy_whatever");
        QSignalSpy states(backend.get(), &AdminBackend::stateChanged);
        QVERIFY(Test::eventually([&] { return backend->reconnectAttempts() >= 2; }));
        QCOMPARE(backend->state(), AdminBackend::State::Connecting);
        QCOMPARE(backend->problem(), RemoteBackend::Problem::Unreachable);
        QVERIFY2(backend->stateMessage().startsWith(QStringLiteral("unreachable:")), qPrintable(backend->stateMessage()));

        // The daemon appears on that port: the backend connects (its token comes from the data dir).
        QTemporaryDir dir;
        Test::DaemonProcess daemon;
        Test::DaemonProcess::Options options;
        options.program = kTestDaemon;
        options.dataDir = dir.path();
        options.extraArguments = {QStringLiteral("--port"), QString::number(port)};
        Admin::TokenStore(dir.path()).adminTokenHash(QString(), nullptr); // the token exists before the daemon starts
        QFile tokenFile(dir.filePath(QStringLiteral("admin-token")));
        QVERIFY(tokenFile.open(QIODevice::ReadOnly));
        backend.reset();
        backend = connectTo(QUrl(QStringLiteral("http://127.0.0.1:%1/api/v1").arg(port)), tokenFile.readAll().trimmed());
        QVERIFY(Test::eventually([&] { return backend->reconnectAttempts() >= 1; }));
        QVERIFY2(daemon.start(options), daemon.output().constData());
        QVERIFY(connected(*backend));
        QCOMPARE(backend->problem(), RemoteBackend::Problem::None);
        QVERIFY(backend->canMutate());

        // The daemon goes away and comes back: unreachable, then Connected again (pages re-read).
        QSignalSpy again(backend.get(), &AdminBackend::stateChanged);
        QCOMPARE(daemon.stop(), 0);
        QVERIFY(Test::eventually([&] { return backend->problem() == RemoteBackend::Problem::Unreachable; }));
        Test::DaemonProcess second;
        QVERIFY2(second.start(options), second.output().constData());
        QVERIFY(connected(*backend));
        int connections = 0;
        for (const QList<QVariant> &args : std::as_const(again))
            connections += args.at(0).value<AdminBackend::State>() == AdminBackend::State::Connected;
        QCOMPARE(connections, 1);
        QVERIFY(Test::call(*backend, Admin::Ops::queueList, {}).isOk());
        QCOMPARE(second.stop(), 0);
    }

    void closingAnswersFromTheEventLoopAsCancelled()
    {
        QTemporaryDir dir;
        Test::DaemonProcess daemon;
        std::unique_ptr<RemoteBackend> backend;
        startConnected(dir, daemon, backend);
        if (QTest::currentTestFailed())
            return;
        QObject page;
        std::optional<Status> listed;
        backend->call(Admin::Ops::queueList, {}, &page, [&](Result<std::vector<Admin::QueueRow>> rows) { listed = rows.status(); });
        backend->close(QStringLiteral("test"));
        QVERIFY(!listed); // not inside close()
        // A job made while closing does not finish inside its constructor: the page connects first.
        Admin::AdminJob *job = backend->flushQueue(1, 5s, &page);
        QVERIFY(!job->isFinished());
        QSignalSpy finished(job, &Admin::AdminJob::finished);
        QVERIFY(Test::eventually([&] { return listed.has_value() && finished.count() == 1; }));
        QCOMPARE(listed->code(), Status::Code::Cancelled);
        QCOMPARE(finished.first().first().value<Status>().code(), Status::Code::Cancelled);
        QVERIFY(Test::eventually([&] { return backend->state() == AdminBackend::State::Closed; }));
        QCOMPARE(daemon.stop(), 0);
    }

    void aViewGoneMidListStopsTheFetch()
    {
        // A list of 1 000 rows served one per page, for ever: the view goes after a few pages.
        Test::HttpReceiver server;
        server.respond(200, R"([{"qid":1,"name":"q","type":"channel","length":0}])", "X-Total-Count: 1000\r\n");
        Admin::RemoteBackendOptions options;
        options.url = QUrl(QString::fromLatin1(server.url("/api/v1")));
        options.token = "sy_test";
        RemoteBackend backend(options); // not started: calls go out all the same
        auto page = std::make_unique<QObject>();
        bool answered = false;
        backend.call(Admin::Ops::queueList, {}, page.get(), [&](Result<std::vector<Admin::QueueRow>>) { answered = true; });
        QVERIFY(Test::eventually([&] { return server.requests().size() >= 3; }));
        page.reset();
        const qsizetype atDeparture = server.requests().size();
        QVERIFY(Test::eventually([&] { return backend.requestsInFlight() == 0; }));
        QCoreApplication::processEvents();
        QVERIFY2(server.requests().size() <= atDeparture + 1, qPrintable(QString::number(server.requests().size())));
        QVERIFY(!answered); // and nothing leaks (ASan) nor runs a destroyed closure
    }

    void aViewGoneMidDeletionStopsTheSequence()
    {
        // Notices are deleted one request after the other; the view goes after the first answers.
        Test::HttpReceiver server;
        server.respond(200, R"({"ok":true})");
        Admin::RemoteBackendOptions options;
        options.url = QUrl(QString::fromLatin1(server.url("/api/v1")));
        options.token = "sy_test";
        RemoteBackend backend(options);
        auto page = std::make_unique<QObject>();
        bool answered = false;
        QList<qint64> ids;
        for (qint64 id = 1; id <= 200; ++id)
            ids << id;
        backend.deleteNotices(ids, page.get(), [&](Status) { answered = true; });
        QVERIFY(Test::eventually([&] { return server.requests().size() >= 2; }));
        page.reset();
        const qsizetype atDeparture = server.requests().size();
        QVERIFY(Test::eventually([&] { return backend.requestsInFlight() == 0; }));
        QCoreApplication::processEvents();
        QVERIFY2(server.requests().size() <= atDeparture + 1, qPrintable(QString::number(server.requests().size())));
        QVERIFY(server.requests().size() < 200);
        QVERIFY(!answered); // and the state went with the last request (ASan: no leak, no closure destroyed while running)
    }

    void redirectsAreNotFollowedWithTheToken()
    {
        Test::HttpReceiver elsewhere;
        Test::HttpReceiver redirecting;
        redirecting.respond(307, {}, "Location: http://localhost:" + QByteArray::number(elsewhere.port()) + "/api/v1/queues\r\n");
        Admin::RemoteBackendOptions options;
        options.url = QUrl(QString::fromLatin1(redirecting.url("/api/v1")));
        options.token = "sy_secret";
        RemoteBackend backend(options);
        const auto queues = Test::call(backend, Admin::Ops::queueList, {});
        QVERIFY(!queues.isOk());
        QVERIFY2(queues.status().message().contains(QStringLiteral("redirect")), qPrintable(queues.status().message()));
        QVERIFY(elsewhere.requests().isEmpty()); // the token went nowhere else
    }

    void aFlushCancelledWhileCountingIsNeverSent()
    {
        QTemporaryDir dir;
        Test::DaemonProcess daemon;
        std::unique_ptr<RemoteBackend> backend;
        startConnected(dir, daemon, backend);
        if (QTest::currentTestFailed())
            return;
        const auto rows = Test::call(*backend, Admin::Ops::queueList, {});
        qint64 slow = -1;
        for (const Admin::QueueRow &row : rows.value())
            if (row.name == QLatin1String("slow"))
                slow = row.qid;
        QVERIFY(slow > 0);
        QObject page;
        Admin::AdminJob *job = backend->flushQueue(slow, 60s, &page);
        QSignalSpy finished(job, &Admin::AdminJob::finished);
        job->cancel(); // its first request (the length) is still on its way
        QVERIFY(finished.count() == 1 || finished.wait(10000));
        QCOMPARE(finished.first().first().value<Status>().code(), Status::Code::Cancelled);
        // The answer to the count arrives and is ignored: no flush reaches the daemon.
        QVERIFY(Test::eventually([&] { return backend->requestsInFlight() == 0; }));
        const auto entries = Test::auditOf(Test::call(*backend, Admin::Ops::auditList, {1, 500, QStringLiteral("queue.flush"), {}}));
        QVERIFY(entries.isOk());
        QCOMPARE(entries->size(), std::size_t(0));
        backend->close(QStringLiteral("test"));
        QVERIFY(Test::eventually([&] { return backend->state() == AdminBackend::State::Closed; }));
        QCOMPARE(daemon.stop(), 0);
    }

    void wrongTokenIsUnauthorisedAndStops()
    {
        QTemporaryDir dir;
        Test::DaemonProcess daemon;
        QVERIFY2(daemon.start(Test::DaemonProcess::standardFixture(kTestDaemon, dir.path(), QByteArray())), daemon.output().constData());
        auto backend = connectTo(daemon.baseUrl(), "sy_" + QByteArray(64, '0'));
        QVERIFY(Test::eventually([&] { return backend->state() == AdminBackend::State::Failed; }));
        QCOMPARE(backend->problem(), RemoteBackend::Problem::Unauthorised);
        QVERIFY2(backend->stateMessage().contains(QStringLiteral("unauthorised")), qPrintable(backend->stateMessage()));
        QCOMPARE(backend->reconnectAttempts(), 0);
        QCOMPARE(daemon.stop(), 0);
    }

    void readOnlyTokensConnectWithoutMutating()
    {
        QTemporaryDir dir;
        Test::DaemonProcess daemon;
        QVERIFY2(daemon.start(Test::DaemonProcess::standardFixture(kTestDaemon, dir.path(), QByteArray())), daemon.output().constData());
        const Result<QString> viewer = Admin::TokenStore(dir.path()).create(QStringLiteral("viewer"), Admin::Role::ReadOnly);
        QVERIFY(viewer.isOk());
        auto backend = connectTo(daemon.baseUrl(), viewer->toLatin1());
        QVERIFY(connected(*backend));
        QVERIFY(!backend->canMutate());
        QVERIFY(backend->stateMessage().contains(QStringLiteral("read-only")));
        QVERIFY(Test::call(*backend, Admin::Ops::cronList, {}).isOk());
        QCOMPARE(Test::call(*backend, Admin::Ops::cronRun, {QStringLiteral("delete_old_system_notices")}).status().code(),
                 Status::Code::PermissionDenied);

        // A token revoked while connected: the next call is refused and the backend says so.
        const Result<QString> ci = Admin::TokenStore(dir.path()).create(QStringLiteral("ci"), Admin::Role::Admin);
        auto admin = connectTo(daemon.baseUrl(), ci->toLatin1());
        QVERIFY(connected(*admin));
        QVERIFY(admin->canMutate());
        QVERIFY(Admin::TokenStore(dir.path()).revoke(QStringLiteral("ci")));
        QCOMPARE(Test::call(*admin, Admin::Ops::queueList, {}).status().code(),
                 Status::Code::Unauthenticated);
        QCOMPARE(admin->state(), AdminBackend::State::Failed);
        QCOMPARE(admin->problem(), RemoteBackend::Problem::Unauthorised);
        QCOMPARE(daemon.stop(), 0);
    }

    void otherServersAreIncompatible()
    {
        Test::HttpReceiver server;
        server.respond(200, R"({"status":"ok","version":"9.0.0"})");
        auto backend = connectTo(QUrl(QString::fromLatin1(server.url("/api/v1"))), "sy_x");
        QVERIFY(Test::eventually([&] { return backend->state() == AdminBackend::State::Failed; }));
        QCOMPARE(backend->problem(), RemoteBackend::Problem::Incompatible);
        QVERIFY2(backend->stateMessage().contains(QStringLiteral("incompatible version")), qPrintable(backend->stateMessage()));
    }

    // Two daemons on one private Redis (Redis locks, Redis queues), one backend each: a cron task
    // run from one shows as held on the other, with the other's lock events.
    void twoInstancesOnOneRedis()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        const QByteArray config = "[redis]\nCONN_STR = " + redis.url().toUtf8() + "\n[queue]\nTYPE = redis\n"
                                  "[global_lock]\nSERVICE_TYPE = redis\n"
                                  "[cron.slow_task]\nCOMMAND = sleep 30\nSCHEDULE = @every 1h\n";
        QTemporaryDir dirA, dirB;
        Test::DaemonProcess a, b;
        Test::DaemonProcess::Options options = Test::DaemonProcess::standardFixture(kTestDaemon, dirA.path(), config);
        options.environment.remove(QStringLiteral("SY_TEST_LOCK"));
        options.environment.insert(QStringLiteral("SY_TEST_PUSH"), QString());
        QVERIFY2(a.start(options), a.output().constData());
        options.dataDir = dirB.path();
        QVERIFY2(b.start(options), b.output().constData());
        auto backendA = connectTo(a.baseUrl(), a.adminToken());
        auto backendB = connectTo(b.baseUrl(), b.adminToken());
        QVERIFY(connected(*backendA));
        QVERIFY(connected(*backendB));
        const QString instanceA = Test::call(*backendA, Admin::Ops::instance, {})->instanceId;
        QCOMPARE(Test::call(*backendB, Admin::Ops::instance, {})->lockService, QStringLiteral("redis"));
        const auto queuesB = Test::call(*backendB, Admin::Ops::queueList, {});
        QCOMPARE(queuesB->front().type, QStringLiteral("redis"));

        QSignalSpy eventsB(backendB.get(), &AdminBackend::event);
        QVERIFY(Test::call(*backendA, Admin::Ops::cronRun, {QStringLiteral("slow_task")}).status());
        const QString key = QStringLiteral("cron_task:slow_task");
        QVERIFY(Test::eventually([&] {
            const auto locks = Test::call(*backendB, Admin::Ops::lockList, {});
            return locks && std::any_of(locks->begin(), locks->end(), [&](const Admin::LockRow &l) { return l.key == key && l.owner == instanceA; });
        }));
        auto lockEvent = [&](const QString &action) {
            return Test::eventually([&] {
                for (const QList<QVariant> &args : std::as_const(eventsB)) {
                    const auto e = args.at(0).value<Admin::AdminEvent>();
                    if (e.type == Admin::AdminEvent::Type::Lock && e.lock.key == key && e.lock.action == action)
                        return true;
                }
                return false;
            });
        };
        QVERIFY(lockEvent(QStringLiteral("acquired")));

        // Released from B (force release): B's stream says released and B records a notice. (A's
        // run learns it lost the lock at its next lease extension, up to 15 s later — the engine's
        // documented behaviour — so the test does not wait for it.)
        const Status released = Test::call(*backendB, Admin::Ops::lockForceRelease, {key}).status();
        QVERIFY2(released.isOk(), qPrintable(released.toString()));
        QVERIFY(lockEvent(QStringLiteral("released")));
        const auto notices = Test::call(*backendB, Admin::Ops::noticeList, {});
        QVERIFY(std::any_of(notices->begin(), notices->end(), [&](const Admin::NoticeRow &n) { return n.description.contains(key); }));
        backendA.reset();
        backendB.reset();
        QCOMPARE(a.stop(), 0);
        QCOMPARE(b.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRemoteBackend)
#include "tst_remotebackend.moc"
