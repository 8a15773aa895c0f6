// The engine as a whole: start-up that fails midway or is cancelled undoes what it started, and
// shutdown returns its report and never hangs, even when a component ignores every phase.
#include "engine/engine.h"

#include "support/testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <future>

using namespace Switchyard;
using namespace std::chrono_literals;

using Test::configFrom;

class TestEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsAndShutsDownCleanly()
    {
        QTemporaryDir dir;
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), configFrom("", dir.path()));
        QVERIFY2(engine, qPrintable(engine.status().message()));
        QVERIFY(!(*engine)->cron().list().empty());
        QVERIFY(!(*engine)->processes().list().empty());
        const ShutdownReport report = (*engine)->shutdown();
        QVERIFY(report.clean());
        QVERIFY(!report.hammered);
        QCOMPARE((*engine)->shutdown().clean(), true); // idempotent
        QCOMPARE((*engine)->lifecycle().phase(), Lifecycle::Phase::Terminated);
    }

    // The user task's bad schedule is found after the cache, the locker, the queue manager and
    // its sampler have started: they are all stopped again.
    void aStartThatFailsMidwayUndoesWhatItStarted()
    {
        QTemporaryDir dir;
        const EngineConfig config = configFrom("[cron.broken]\nCOMMAND = /bin/true\nSCHEDULE = every tuesday\n", dir.path());
        const Result<std::unique_ptr<Engine>> failed = Engine::start(CancelToken(), config);
        QVERIFY(!failed);
        QCOMPARE(failed.status().code(), Status::Code::InvalidArgument);
        QVERIFY2(failed.status().message().contains(QLatin1String("SCHEDULE")), qPrintable(failed.status().message()));
        // The data directory is free again: a corrected start works.
        Result<std::unique_ptr<Engine>> fixed = Engine::start(CancelToken(), configFrom("", dir.path()));
        QVERIFY(fixed);
    }

    // Run history, pauses and notices live in the store (data/switchyard.db): a restarted engine
    // shows them.
    void stateSurvivesARestart()
    {
        QTemporaryDir dir;
        const QByteArray ini = "[cron.hello]\nCOMMAND = /bin/true\nSCHEDULE = @yearly\n";
        {
            Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), configFrom(ini, dir.path()));
            QVERIFY2(engine, qPrintable(engine.status().message()));
            QVERIFY((*engine)->cron().runNow(QStringLiteral("hello"), QStringLiteral("api (ops)"), QStringLiteral("trace-1")));
            (*engine)->cron().waitIdle();
            QVERIFY((*engine)->cron().pause(QStringLiteral("hello")));
            (*engine)->notices().add(QStringLiteral("test"), QStringLiteral("kept across the restart"));
            QVERIFY((*engine)->shutdown().clean());
        }
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("data/switchyard.db"))));
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), configFrom(ini, dir.path()));
        QVERIFY2(engine, qPrintable(engine.status().message()));
        const Result<std::vector<CronRunRecord>> runs = (*engine)->cron().history(QStringLiteral("hello"));
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(1));
        QCOMPARE(runs->front().status, QStringLiteral("finished"));
        QCOMPARE(runs->front().doer, QStringLiteral("api (ops)"));
        QCOMPARE(runs->front().traceId, QStringLiteral("trace-1"));
        // The task list agrees with the history: its last run is the one before the restart.
        const CronTaskInfo hello = *(*engine)->cron().task(QStringLiteral("hello"));
        QVERIFY(hello.paused);
        QCOMPARE(hello.status, QStringLiteral("finished"));
        QCOMPARE(hello.lastDoer, QStringLiteral("api (ops)"));
        QCOMPARE(hello.prev, runs->front().startedAt);
        QCOMPARE(hello.execTimes, qint64(0)); // this instance's runs since start
        bool found = false;
        for (const SystemNotice &notice : (*engine)->notices().list())
            found = found || notice.description == QLatin1String("kept across the restart");
        QVERIFY(found);
        QVERIFY((*engine)->shutdown().clean());
    }

    // The queue history's recorder stops after the queues and writes what the last interval
    // counted (here the only one: the interval is an hour), so a restarted engine shows it.
    void queueHistoryKeepsTheLastIntervalAcrossARestart()
    {
        QTemporaryDir dir;
        EngineOptions options;
        options.queueHistoryInterval = std::chrono::hours(1);
        {
            Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), configFrom("", dir.path()), options);
            QVERIFY2(engine, qPrintable(engine.status().message()));
            auto queue = (*engine)->queues().createSimpleQueue<qint64>(CancelToken(), QStringLiteral("counted"), [](std::vector<qint64> items) {
                std::vector<qint64> odd; // returned unhandled: counted as failed, pushed again
                for (qint64 i : items)
                    if (i < 0)
                        odd.push_back(-i);
                return odd;
            });
            QVERIFY(queue);
            for (qint64 i = 1; i <= 30; ++i)
                QVERIFY((*queue)->push(CancelToken(), i == 7 ? -i : i));
            QVERIFY((*queue)->flush(CancelToken(), 30s));
            QVERIFY((*engine)->shutdown().clean());
        }
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), configFrom("", dir.path()), options);
        QVERIFY2(engine, qPrintable(engine.status().message()));
        const Result<std::vector<HistoryBucket>> counted =
            (*engine)->queueHistory().read(QStringLiteral("counted"), HistoryResolution::Minute, QDateTime::currentDateTimeUtc());
        QVERIFY2(counted, qPrintable(counted.status().message()));
        qint64 processed = 0, failed = 0;
        for (const HistoryBucket &b : *counted) {
            processed += b.processed;
            failed += b.failed;
        }
        QCOMPARE(processed, qint64(30)); // 29, then 7 again
        QCOMPARE(failed, qint64(1));
        QVERIFY((*engine)->shutdown().clean());
    }

    // A data directory of a version that kept cron pauses in cron-state.json: imported once.
    void theFormerCronStateFileIsImported()
    {
        QTemporaryDir dir;
        QFile state(dir.filePath(QStringLiteral("cron-state.json")));
        QVERIFY(state.open(QIODevice::WriteOnly));
        state.write(R"({"paused": ["cache_self_check"]})");
        state.close();
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), configFrom("", dir.path()));
        QVERIFY2(engine, qPrintable(engine.status().message()));
        QVERIFY((*engine)->cron().task(QStringLiteral("cache_self_check"))->paused);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("cron-state.json"))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("cron-state.json.imported"))));
        QVERIFY((*engine)->shutdown().clean());
    }

    void aCancelledStartReturnsItsCause()
    {
        QTemporaryDir dir;
        CancelSource cancel;
        cancel.cancel(QStringLiteral("operator closed the window"));
        const Result<std::unique_ptr<Engine>> started = Engine::start(cancel.token(), configFrom("", dir.path()));
        QCOMPARE(started.status().code(), Status::Code::Cancelled);
        QCOMPARE(started.status().message(), QStringLiteral("operator closed the window"));
    }

    // A component that ignores shutdown, hammer and terminate: shutdown() reports it after the
    // hammer and terminate timeouts and the destructor returns instead of joining it.
    void shutdownNeverHangsOnAStuckComponent()
    {
        QTemporaryDir dir;
        EngineOptions options;
        options.lifecycle.terminateTimeout = 100ms;
        Result<std::unique_ptr<Engine>> engine =
            Engine::start(CancelToken(), configFrom("[server]\nGRACEFUL_HAMMER_TIME = 100ms\n", dir.path()), options);
        QVERIFY(engine);
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        QVERIFY((*engine)->lifecycle().runWithCancel(QStringLiteral("stuck component"), [released](const CancelToken &) { released.wait(); }));
        const ShutdownReport report = (*engine)->shutdown();
        QVERIFY(report.hammered);
        QCOMPARE(report.unfinished, QStringList{QStringLiteral("stuck component")});
        engine->reset(); // returns: the parts stay allocated for the stuck thread
        release.set_value();
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
