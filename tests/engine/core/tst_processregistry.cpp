#include "engine/core/processregistry.h"

#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace Switchyard;

class TestProcessRegistry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsLiveProcessesInStartOrder()
    {
        ProcessRegistry registry;
        const QDateTime before = QDateTime::currentDateTimeUtc();
        ProcessRegistry::Handle cron = registry.add(ProcessType::System, QStringLiteral("cron scheduler"));
        ProcessRegistry::Handle run = registry.add(ProcessType::Normal, QStringLiteral("cron run: cleanup"), cron.pid());
        const std::vector<ProcessInfo> list = registry.list();
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(list[0].pid, cron.pid());
        QCOMPARE(list[0].parentPid, qint64(0));
        QCOMPARE(list[0].type, ProcessType::System);
        QCOMPARE(list[1].parentPid, cron.pid());
        QCOMPARE(list[1].description, QStringLiteral("cron run: cleanup"));
        QVERIFY(list[1].startedAt >= before);
        QVERIFY(list[1].startedAt.timeSpec() == Qt::UTC);
        QVERIFY(cron.pid() < run.pid());
        QCOMPARE(processTypeName(ProcessType::Request), QStringLiteral("request"));
    }

    void handleRemovesItsProcessOnce()
    {
        ProcessRegistry registry;
        ProcessRegistry::Handle a = registry.add(ProcessType::Normal, QStringLiteral("a"));
        {
            ProcessRegistry::Handle b = registry.add(ProcessType::Normal, QStringLiteral("b"));
            QCOMPARE(registry.size(), std::size_t(2));
        }
        QCOMPARE(registry.size(), std::size_t(1));
        ProcessRegistry::Handle moved = std::move(a);
        QCOMPARE(a.pid(), qint64(0));
        QCOMPARE(registry.size(), std::size_t(1));
        moved.reset();
        moved.reset();
        QCOMPARE(registry.size(), std::size_t(0));
    }

    void aJobPublishesItsProgress()
    {
        ProcessRegistry registry;
        ProcessRegistry::Handle plain = registry.add(ProcessType::Normal, QStringLiteral("no progress"));
        ProcessRegistry::Handle job = registry.addCancellable(CancelToken(), ProcessType::Normal, QStringLiteral("bulk redeliver"));
        QCOMPARE(registry.list().at(1).total, qint64(-1));
        job.setProgress(3, 10);
        const std::vector<ProcessInfo> list = registry.list();
        QCOMPARE(list.at(0).done, qint64(-1)); // only the job's own entry changed
        QCOMPARE(list.at(1).done, qint64(3));
        QCOMPARE(list.at(1).total, qint64(10));
        const qint64 pid = job.pid();
        job.reset();
        job.setProgress(4, 10); // ended: nothing to publish, nothing comes back
        QCOMPARE(registry.list().size(), std::size_t(1));
        QVERIFY(registry.list().front().pid != pid);
    }

    void pidsAreNeverReused()
    {
        ProcessRegistry registry;
        qint64 first = registry.add(ProcessType::Normal, QStringLiteral("x")).pid();
        qint64 second = registry.add(ProcessType::Normal, QStringLiteral("y")).pid();
        QVERIFY(second > first);
    }

    void cancelCancelsTheProcessToken()
    {
        ProcessRegistry registry;
        CancelSource parent;
        ProcessRegistry::Handle job = registry.addCancellable(parent.token(), ProcessType::Normal, QStringLiteral("flush"));
        ProcessRegistry::Handle fixed = registry.add(ProcessType::Normal, QStringLiteral("delivery"));
        QVERIFY(registry.list()[0].cancellable);
        QVERIFY(!registry.list()[1].cancellable);
        QVERIFY(!job.token().isCancelled());

        QVERIFY(registry.cancelProcess(job.pid(), QStringLiteral("stop it")));
        QVERIFY(job.token().isCancelled());
        QCOMPARE(job.token().cause().message(), QStringLiteral("stop it"));
        QVERIFY(!parent.isCancelled());
        QVERIFY(!fixed.token().isCancelled());
        const Status notCancellable = registry.cancelProcess(fixed.pid());
        QCOMPARE(notCancellable.code(), Status::Code::Conflict);
        QVERIFY(notCancellable.message().contains(QLatin1String("delivery")));
        QCOMPARE(registry.cancelProcess(9999).code(), Status::Code::NotFound);
    }

    void theParentTokenCancelsTheProcess()
    {
        ProcessRegistry registry;
        CancelSource parent;
        ProcessRegistry::Handle job = registry.addCancellable(parent.token(), ProcessType::Normal, QStringLiteral("run"));
        parent.cancel(QStringLiteral("shutdown"));
        QVERIFY(job.token().isCancelled());
        QCOMPARE(job.token().cause().message(), QStringLiteral("shutdown"));
    }

    void cancelMayEndTheProcessFromItsTokenCallback()
    {
        ProcessRegistry registry;
        ProcessRegistry::Handle job = registry.addCancellable(CancelToken(), ProcessType::Normal, QStringLiteral("self-ending"));
        const CancelCallback ends = job.token().onCancel([&] { job.reset(); });
        QVERIFY(registry.cancelProcess(job.pid()));
        QCOMPARE(registry.size(), std::size_t(0));
    }

    // Processes end on their own threads while an administrator cancels them: the registry never
    // calls into a process that has gone (ASan would report the stack frame a callback captured).
    void cancellingProcessesWhileTheyEndIsSafe()
    {
        ProcessRegistry registry;
        std::atomic<bool> done = false;
        std::vector<std::thread> runners;
        for (int t = 0; t < 2; ++t) {
            runners.emplace_back([&] {
                for (int i = 0; i < 2000; ++i) {
                    ProcessRegistry::Handle run = registry.addCancellable(CancelToken(), ProcessType::Normal, QStringLiteral("run"));
                    int onStack = 0;
                    const CancelCallback seen = run.token().onCancel([&onStack] { ++onStack; });
                    std::this_thread::yield();
                }
            });
        }
        std::thread canceller([&] {
            while (!done) {
                for (const ProcessInfo &info : registry.list())
                    registry.cancelProcess(info.pid);
            }
        });
        for (std::thread &runner : runners)
            runner.join();
        done = true;
        canceller.join();
        QCOMPARE(registry.size(), std::size_t(0));
    }

    void concurrentUseKeepsEveryEntry()
    {
        ProcessRegistry registry;
        constexpr int kThreads = 4;
        constexpr int kPerThread = 500;
        std::vector<std::thread> threads;
        std::vector<std::vector<ProcessRegistry::Handle>> kept(kThreads);
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < kPerThread; ++i) {
                    kept[t].push_back(registry.add(ProcessType::Normal, QStringLiteral("kept")));
                    ProcessRegistry::Handle transient = registry.add(ProcessType::Normal, QStringLiteral("transient"));
                    (void)registry.list();
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(registry.size(), std::size_t(kThreads * kPerThread));
        kept.clear();
        QCOMPARE(registry.size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestProcessRegistry)
#include "tst_processregistry.moc"
