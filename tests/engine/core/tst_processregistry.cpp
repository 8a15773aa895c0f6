#include "engine/core/processregistry.h"

#include <QTest>

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

    void pidsAreNeverReused()
    {
        ProcessRegistry registry;
        qint64 first = registry.add(ProcessType::Normal, QStringLiteral("x")).pid();
        qint64 second = registry.add(ProcessType::Normal, QStringLiteral("y")).pid();
        QVERIFY(second > first);
    }

    void cancelCallsTheProcessCancelFunction()
    {
        ProcessRegistry registry;
        int cancelled = 0;
        ProcessRegistry::Handle job = registry.add(ProcessType::Normal, QStringLiteral("flush"), 0, [&] { ++cancelled; });
        ProcessRegistry::Handle fixed = registry.add(ProcessType::Normal, QStringLiteral("delivery"));
        QVERIFY(registry.list()[0].cancellable);
        QVERIFY(!registry.list()[1].cancellable);

        QVERIFY(registry.cancelProcess(job.pid()));
        QCOMPARE(cancelled, 1);
        const Status notCancellable = registry.cancelProcess(fixed.pid());
        QCOMPARE(notCancellable.code(), Status::Code::InvalidArgument);
        QVERIFY(notCancellable.message().contains(QLatin1String("delivery")));
        QCOMPARE(registry.cancelProcess(9999).code(), Status::Code::NotFound);
    }

    void cancelMayEndTheProcessFromInsideTheCallback()
    {
        ProcessRegistry registry;
        ProcessRegistry::Handle job;
        job = registry.add(ProcessType::Normal, QStringLiteral("self-ending"), 0, [&] { job.reset(); });
        QVERIFY(registry.cancelProcess(job.pid()));
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
