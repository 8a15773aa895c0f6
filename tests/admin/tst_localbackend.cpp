// The admin layer through the AdminBackend interface on a real engine: every call answers on the
// caller's thread, errors keep their codes and name what is wrong, the event stream carries
// queue-stats, cron-status, lock and notice events, and close() stops everything.

#include "admin/localbackend.h"

#include "support/testutil.h"
#include "support/opcall.h"
#include "support/wait.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Switchyard;
using namespace std::chrono_literals;

using Switchyard::Test::await;

namespace {

std::unique_ptr<Admin::LocalBackend> openBackend(const QString &dir)
{
    EngineConfig config = Test::configFrom("[queue]\nTYPE = channel\n", dir);
    Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), config);
    if (!engine)
        qFatal("engine: %s", qPrintable(engine.status().toString()));
    Admin::LocalBackendOptions options;
    options.eventInterval = 50ms;
    options.doer = QStringLiteral("tester");
    return std::make_unique<Admin::LocalBackend>(std::move(engine).value(), options);
}


} // namespace

class TestLocalBackend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void errorsKeepTheirCodes()
    {
        QTemporaryDir dir;
        auto backend = openBackend(dir.path());
        using Admin::AdminBackend;
        QCOMPARE(backend->state(), AdminBackend::State::Connected);

        Status unknownQueue = Test::call(*backend, Admin::Ops::queuePause, {999}).status();
        QCOMPARE(unknownQueue.code(), Status::Code::NotFound);
        Result<Admin::QueueSettingsInfo> settings =
            Test::settingsOf(Test::call(*backend, Admin::Ops::queueGet, {999}));
        QCOMPARE(settings.status().code(), Status::Code::NotFound);

        auto pool = backend->engine()->queues().createPool(CancelToken(), QStringLiteral("mail"), false,
                                                           [](std::vector<QByteArray> &) { return RawBatchResult{}; });
        QVERIFY(pool);
        const qint64 qid = backend->engine()->queues().list().front().qid;
        Status workers = Test::call(*backend, Admin::Ops::queueSetMaxWorkers, {qid, 0}).status();
        QCOMPARE(workers.code(), Status::Code::InvalidArgument);
        QVERIFY(workers.message().startsWith(QStringLiteral("max_workers:")));
        QVERIFY(Test::call(*backend, Admin::Ops::queueSetMaxWorkers, {qid, 3}).status());
        QCOMPARE(backend->engine()->queues().list().front().maxWorkers, 3);

        Status task = Test::call(*backend, Admin::Ops::cronRun, {QStringLiteral("no_such_task")}).status();
        QCOMPARE(task.code(), Status::Code::NotFound);

        Status lock = Test::call(*backend, Admin::Ops::lockForceRelease, {QStringLiteral("nobody:holds")}).status();
        QCOMPARE(lock.code(), Status::Code::NotFound);
        QVERIFY(lock.message().contains(QStringLiteral("released meanwhile")));

        Status notice = await<Status>([&](QObject *c, auto r) { backend->deleteNotices({12345}, c, r); });
        QCOMPARE(notice.code(), Status::Code::NotFound);

        // A process that cannot be cancelled is a conflict, not bad input.
        ProcessRegistry::Handle fixed = backend->engine()->processes().add(ProcessType::Normal, QStringLiteral("fixed"));
        Status process = Test::call(*backend, Admin::Ops::processCancel, {fixed.pid()}).status();
        QCOMPARE(process.code(), Status::Code::Conflict);
    }

    // Answers that arrive together are handed over a few milliseconds' worth per pass of the
    // event loop: what was posted meanwhile (a paint, a timer) runs between two long replies.
    void aBurstOfRepliesLeavesTheLoopRunningBetween()
    {
        QTemporaryDir dir;
        auto backend = openBackend(dir.path());
        QObject context;
        int replies = 0;
        int backToBack = 0;
        bool loopRan = true;
        for (int i = 0; i < 4; ++i) {
            backend->call(Admin::Ops::noticeList, {}, &context, [&](Result<std::vector<Admin::NoticeRow>> rows) {
                QVERIFY(rows);
                ++replies;
                if (!loopRan)
                    ++backToBack;
                loopRan = false;
                QMetaObject::invokeMethod(&context, [&] { loopRan = true; }, Qt::QueuedConnection);
                QElapsedTimer busy; // longer than a pass's budget of hand-over
                busy.start();
                while (busy.nsecsElapsed() < 12'000'000) {
                }
            });
        }
        QVERIFY(Test::eventually([&] { return replies == 4; }));
        QCOMPARE(backToBack, 0);
    }

    void cronRunTwiceIsAConflict()
    {
        QTemporaryDir dir;
        auto backend = openBackend(dir.path());
        auto release = std::make_shared<std::atomic<bool>>(false);
        CronTaskDefinition task;
        task.name = QStringLiteral("slow");
        task.title = QStringLiteral("Slow task");
        task.defaults.schedule = QStringLiteral("@every 1h");
        task.run = [release](const CronRunContext &context) -> Result<QString> {
            while (!release->load() && !context.cancel.isCancelled())
                context.cancel.sleepFor(1ms);
            return QStringLiteral("done");
        };
        QVERIFY(backend->engine()->cron().registerTask(std::move(task)));
        QVERIFY(Test::call(*backend, Admin::Ops::cronRun, {QStringLiteral("slow")}).status());
        Status again = Test::call(*backend, Admin::Ops::cronRun, {QStringLiteral("slow")}).status();
        QCOMPARE(again.code(), Status::Code::Conflict);
        QVERIFY(again.message().contains(QStringLiteral("already running")));
        release->store(true);
        backend->engine()->cron().waitIdle();
        auto runs = Test::call(*backend, Admin::Ops::cronRuns, {QStringLiteral("slow")});
        QVERIFY(runs);
        QCOMPARE(runs->size(), std::size_t(1));
        QCOMPARE(runs->front().doer, QStringLiteral("tester"));
    }

    void theStreamCarriesEveryKind()
    {
        QTemporaryDir dir;
        auto backend = openBackend(dir.path());
        QList<Admin::AdminEvent> events;
        connect(backend.get(), &Admin::AdminBackend::event, this, [&](const Admin::AdminEvent &e) { events << e; });
        const auto seen = [&](Admin::AdminEvent::Type type, const std::function<bool(const Admin::AdminEvent &)> &match) {
            return Test::eventually([&] {
                for (const Admin::AdminEvent &e : std::as_const(events))
                    if (e.type == type && match(e))
                        return true;
                return false;
            });
        };
        // Two queue-stats frames: the first sample, lock list included, is complete (a lock taken
        // before the first list is part of the starting state, not an "acquired" event).
        QVERIFY(Test::eventually([&] {
            return std::count_if(events.begin(), events.end(),
                                 [](const Admin::AdminEvent &e) { return e.type == Admin::AdminEvent::Type::QueueStats; }) >= 2;
        }));
        QVERIFY(seen(Admin::AdminEvent::Type::CronStatus, [](const auto &e) { return e.cron.name == QLatin1String("cache_self_check"); }));

        Result<LockGuard> lock = backend->engine()->locker().tryLock(CancelToken(), QStringLiteral("k1"));
        QVERIFY(lock && lock->acquired());
        QVERIFY(seen(Admin::AdminEvent::Type::Lock, [](const auto &e) { return e.lock.key == QLatin1String("k1") && e.lock.action == QLatin1String("acquired"); }));
        lock->release();
        QVERIFY(seen(Admin::AdminEvent::Type::Lock, [](const auto &e) { return e.lock.key == QLatin1String("k1") && e.lock.action == QLatin1String("released"); }));

        const qint64 id = backend->engine()->notices().add(QStringLiteral("test"), QStringLiteral("hello"));
        QVERIFY(seen(Admin::AdminEvent::Type::Notice, [&](const auto &e) { return e.notice.id == id; }));
        QVERIFY(await<Status>([&](QObject *c, auto r) { backend->deleteNotices({id}, c, r); }));
        QVERIFY(seen(Admin::AdminEvent::Type::NoticeRemoved, [&](const auto &e) { return e.notice.id == id; }));
        QCOMPARE(Admin::AdminEvent::typeName(Admin::AdminEvent::Type::QueueStats), QStringLiteral("queue-stats"));
    }

    void aBurstOfEventsIsBoundedAndResynced()
    {
        QLoggingCategory::setFilterRules(QStringLiteral("switchyard.core.info=false")); // 50 000 notices
        const auto restore = qScopeGuard([] { QLoggingCategory::setFilterRules(QString()); });
        QTemporaryDir dir;
        auto backend = openBackend(dir.path());
        QSignalSpy events(backend.get(), &Admin::AdminBackend::event);
        QSignalSpy resync(backend.get(), &Admin::AdminBackend::resyncNeeded);
        // 50 000 notices before the GUI thread looks: one posted hand-over, a bounded backlog.
        for (int i = 0; i < 50000; ++i)
            backend->engine()->notices().add(QStringLiteral("test"), QStringLiteral("notice %1").arg(i));
        QVERIFY(Test::eventually([&] { return resync.count() == 1; }));
        QCoreApplication::processEvents();
        qsizetype notices = 0;
        for (const QList<QVariant> &args : std::as_const(events))
            notices += args.first().value<Admin::AdminEvent>().type == Admin::AdminEvent::Type::Notice ? 1 : 0;
        QVERIFY2(notices < 50000, qPrintable(QString::number(notices))); // dropped for a re-read, not queued without end

        // In order and complete when the views keep up.
        events.clear();
        for (int i = 0; i < 100; ++i)
            backend->engine()->notices().add(QStringLiteral("test"), QStringLiteral("again %1").arg(i));
        QVERIFY(Test::eventually([&] {
            qsizetype n = 0;
            for (const QList<QVariant> &args : std::as_const(events))
                n += args.first().value<Admin::AdminEvent>().type == Admin::AdminEvent::Type::Notice ? 1 : 0;
            return n == 100;
        }));
        QCOMPARE(resync.count(), 1);

        // Closing: nothing more is delivered.
        for (int i = 0; i < 10; ++i)
            backend->engine()->notices().add(QStringLiteral("test"), QStringLiteral("late %1").arg(i));
        events.clear();
        backend->close(QStringLiteral("test"));
        QVERIFY(Test::eventually([&] { return backend->state() == Admin::AdminBackend::State::Closed; }));
        for (const QList<QVariant> &args : std::as_const(events))
            QVERIFY(args.first().value<Admin::AdminEvent>().type != Admin::AdminEvent::Type::Notice);
    }

    void closeStopsCallsAndTheStream()
    {
        QTemporaryDir dir;
        auto backend = openBackend(dir.path());
        QSignalSpy closed(backend.get(), &Admin::AdminBackend::closed);
        backend->close(QStringLiteral("test over"));
        QCOMPARE(backend->state(), Admin::AdminBackend::State::Closing);
        Status late = Test::call(*backend, Admin::Ops::queueResume, {1}).status();
        QCOMPARE(late.code(), Status::Code::Unavailable);
        QVERIFY(Test::eventually([&] { return closed.count() == 1; }));
        QVERIFY(closed.first().first().toBool());
        QCOMPARE(backend->state(), Admin::AdminBackend::State::Closed);

        // A reply whose context went away is dropped, not delivered to freed memory.
        auto other = openBackend(dir.path() + QStringLiteral("/b"));
        bool called = false;
        {
            QObject context;
            other->call(Admin::Ops::instance, {}, &context, [&](Result<Admin::InstanceInfo>) { called = true; });
        }
        QObject marker;
        bool after = false;
        other->call(Admin::Ops::instance, {}, &marker, [&](Result<Admin::InstanceInfo>) { after = true; });
        QVERIFY(Test::eventually([&] { return after; }));
        QVERIFY(!called);
    }

    void closingDuringStartUpStopsIt()
    {
        // The cache's Redis does not answer: start-up PINGs it 10 × 1 s unless cancelled.
        QTemporaryDir dir;
        Admin::LocalBackend backend(Test::configFrom("[cache]\nADAPTER = redis\nHOST = redis://127.0.0.1:1/0\n", dir.path()));
        QList<Admin::AdminBackend::State> states;
        connect(&backend, &Admin::AdminBackend::stateChanged, this, [&](Admin::AdminBackend::State state) { states << state; });
        backend.start();
        QCOMPARE(backend.state(), Admin::AdminBackend::State::Connecting);
        QElapsedTimer timer;
        timer.start();
        backend.close(QStringLiteral("closed while starting"));
        QVERIFY(Test::eventually([&] { return backend.state() == Admin::AdminBackend::State::Closed; }));
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        // The start-up thread's result was posted before Closed (the closing thread joins it first),
        // so it has been seen — and ignored — by now.
        QCOMPARE(states.last(), Admin::AdminBackend::State::Closed);
        QVERIFY(!states.contains(Admin::AdminBackend::State::Failed));
    }

    void startsTheEngineWithoutBlocking()
    {
        QTemporaryDir dir;
        Admin::LocalBackend backend(Test::configFrom("", dir.path()));
        QSignalSpy states(&backend, &Admin::AdminBackend::stateChanged);
        backend.start();
        QCOMPARE(backend.state(), Admin::AdminBackend::State::Connecting);
        Status early = Test::call(backend, Admin::Ops::queueResume, {1}).status();
        QVERIFY(early.code() == Status::Code::Unavailable || early.code() == Status::Code::NotFound);
        QVERIFY(Test::eventually([&] { return backend.state() == Admin::AdminBackend::State::Connected; }));
        auto info = Test::call(backend, Admin::Ops::instance, {});
        QVERIFY(info);
        QCOMPARE(info->dataPath, dir.path());
        QVERIFY(info->configPath.endsWith(QStringLiteral("app.ini")));
        // The audit log opened on the start-up thread records the console's changes.
        QCOMPARE(Test::call(backend, Admin::Ops::cronPause, {QStringLiteral("cache_self_check")}).status().code(),
                 Status::Code::Ok);
        const auto audit = Test::auditOf(Test::call(backend, Admin::Ops::auditList, {1, 500, QString(), {}}));
        QVERIFY(audit.isOk());
        QCOMPARE(audit->size(), std::size_t(1));
        QCOMPARE(audit->front().action, QStringLiteral("cron.pause"));
        QCOMPARE(audit->front().remoteAddr, QStringLiteral("local"));
    }
};

QTEST_GUILESS_MAIN(TestLocalBackend)
#include "tst_localbackend.moc"
