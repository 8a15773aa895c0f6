#include "engine/core/lifecycle.h"

#include <QTest>

#include <mutex>
#include <stdexcept>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

// A thread-safe record of what happened, in order.
class Journal
{
public:
    void add(const QString &entry)
    {
        std::lock_guard lock(m_mutex);
        m_entries.append(entry);
    }
    QStringList entries() const
    {
        std::lock_guard lock(m_mutex);
        return m_entries;
    }

private:
    mutable std::mutex m_mutex;
    QStringList m_entries;
};

LifecycleOptions fastOptions()
{
    LifecycleOptions options;
    options.hammerTimeout = 10s; // never reached by a passing test unless it asks for it
    options.terminateTimeout = 10s;
    return options;
}

// Blocks until `token` is cancelled; the only way these test components end.
void waitForCancel(const CancelToken &token)
{
    std::mutex mutex;
    std::condition_variable_any cv;
    std::unique_lock lock(mutex);
    token.wait(cv, lock, [] { return false; });
}

} // namespace

class TestLifecycle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shutdownHooksRunInLifoOrderAfterTheShutdownToken()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        Journal journal;
        const CancelToken shutdown = lifecycle.shutdownToken();
        lifecycle.runAtShutdown(QStringLiteral("consumer"), [&] {
            journal.add(QStringLiteral("consumer") + (shutdown.isCancelled() ? QStringLiteral("+") : QString()));
        });
        lifecycle.runAtShutdown(QStringLiteral("producer"), [&] { journal.add(QStringLiteral("producer")); });
        lifecycle.runAtTerminate(QStringLiteral("close store"), [&] { journal.add(QStringLiteral("terminate")); });
        QCOMPARE(lifecycle.phase(), Lifecycle::Phase::Running);
        QVERIFY(journal.entries().isEmpty());

        lifecycle.shutdown(QStringLiteral("test"));
        const ShutdownReport report = lifecycle.waitForTerminated();
        QVERIFY(report.clean());
        QVERIFY(!report.hammered);
        QCOMPARE(journal.entries(), (QStringList{QStringLiteral("producer"), QStringLiteral("consumer+"),
                                                  QStringLiteral("terminate")}));
        QVERIFY(lifecycle.shutdownToken().isCancelled());
        QVERIFY(!lifecycle.hammerToken().isCancelled());
        QVERIFY(lifecycle.terminateToken().isCancelled());
        QCOMPARE(lifecycle.phase(), Lifecycle::Phase::Terminated);
    }

    void producersStopBeforeConsumersAreAskedTo()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        Journal journal;
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("consumer"), [&](const CancelToken &token) {
            waitForCancel(token);
            journal.add(QStringLiteral("consumer stopped"));
        }));
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("producer"), [&](const CancelToken &token) {
            waitForCancel(token);
            journal.add(QStringLiteral("producer stopped"));
        }));
        lifecycle.shutdown();
        QVERIFY(lifecycle.waitForTerminated().clean());
        QCOMPARE(journal.entries(), (QStringList{QStringLiteral("producer stopped"), QStringLiteral("consumer stopped")}));
    }

    void componentsAreListedWhileTheyRun()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("queue webhook_sender"), [](const CancelToken &token) {
            waitForCancel(token);
        }));
        const std::vector<ProcessInfo> running = processes.list();
        QCOMPARE(running.size(), std::size_t(1));
        QCOMPARE(running.front().description, QStringLiteral("queue webhook_sender"));
        QCOMPARE(running.front().type, ProcessType::System);
        QVERIFY(running.front().cancellable);
        lifecycle.shutdown();
        QVERIFY(lifecycle.waitForTerminated().clean());
        QCOMPARE(processes.size(), std::size_t(0));
    }

    void aComponentCanBeCancelledOnItsOwnThroughTheRegistry()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        std::mutex mutex;
        std::condition_variable_any cv;
        bool ended = false;
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("worker"), [&](const CancelToken &token) {
            waitForCancel(token);
            std::lock_guard lock(mutex);
            ended = true;
            cv.notify_all();
        }));
        QVERIFY(processes.cancelProcess(processes.list().front().pid));
        std::unique_lock lock(mutex);
        QVERIFY(cv.wait_for(lock, 10s, [&] { return ended; }));
        QVERIFY(!lifecycle.shutdownToken().isCancelled());
    }

    void startingAfterShutdownIsRefused()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        lifecycle.shutdown();
        const Status refused = lifecycle.runWithCancel(QStringLiteral("late"), [](const CancelToken &) {});
        QCOMPARE(refused.code(), Status::Code::Cancelled);
        QVERIFY(refused.message().contains(QLatin1String("late")));
    }

    void hooksRegisteredDuringShutdownRunAtOnce()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        lifecycle.shutdown();
        lifecycle.waitForTerminated();
        bool ran = false;
        lifecycle.runAtShutdown(QStringLiteral("late"), [&] { ran = true; });
        QVERIFY(ran);
    }

    void slowShutdownIsHammeredAfterTheTimeout()
    {
        ProcessRegistry processes;
        LifecycleOptions options = fastOptions();
        options.hammerTimeout = 50ms;
        Lifecycle lifecycle(processes, options);
        Journal journal;
        // Ignores the shutdown request; stops only when hammered.
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("slow"), [&](const CancelToken &) {
            waitForCancel(lifecycle.hammerToken());
            journal.add(QStringLiteral("hammered: ") + lifecycle.hammerToken().cause().message());
        }));
        lifecycle.shutdown();
        const ShutdownReport report = lifecycle.waitForTerminated();
        QVERIFY(report.hammered);
        QVERIFY(report.clean());
        QCOMPARE(journal.entries().size(), 1);
        QVERIFY2(journal.entries().front().contains(QLatin1String("within 50 ms")), qPrintable(journal.entries().front()));
    }

    void secondSignalHammersWithoutWaiting()
    {
        ProcessRegistry processes;
        LifecycleOptions options = fastOptions();
        options.hammerTimeout = 1h;
        Lifecycle lifecycle(processes, options);
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("slow"), [&](const CancelToken &) {
            waitForCancel(lifecycle.hammerToken());
        }));
        lifecycle.shutdown(QStringLiteral("SIGTERM"));
        lifecycle.hammer(QStringLiteral("second SIGTERM"));
        const ShutdownReport report = lifecycle.waitForTerminated();
        QVERIFY(report.hammered);
        QVERIFY(report.clean());
        QVERIFY(lifecycle.hammerToken().cause().message().contains(QLatin1String("second SIGTERM")));
    }

    void componentsStillRunningAtTerminateAreReported()
    {
        ProcessRegistry processes;
        LifecycleOptions options;
        options.hammerTimeout = 10ms;
        options.terminateTimeout = 10ms;
        CancelSource release; // declared before the lifecycle: still alive when it joins
        Lifecycle lifecycle(processes, options);
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("stubborn"), [&](const CancelToken &) {
            waitForCancel(release.token()); // ignores shutdown, hammer and terminate
        }));
        lifecycle.shutdown();
        const ShutdownReport report = lifecycle.waitForTerminated();
        QVERIFY(report.hammered);
        QCOMPARE(report.unfinished, QStringList{QStringLiteral("stubborn")});
        release.cancel(); // the detached thread ends; the destructor waits for that
    }

    void exceptionsInHooksAndComponentsAreContained()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        Journal journal;
        lifecycle.runAtShutdown(QStringLiteral("survivor"), [&] { journal.add(QStringLiteral("survivor")); });
        lifecycle.runAtShutdown(QStringLiteral("thrower"), [] { throw std::runtime_error("hook failed"); });
        QVERIFY(lifecycle.runWithCancel(QStringLiteral("crasher"), [](const CancelToken &) {
            throw std::runtime_error("component failed");
        }));
        lifecycle.shutdown();
        QVERIFY(lifecycle.waitForTerminated().clean());
        QCOMPARE(journal.entries(), QStringList{QStringLiteral("survivor")});
    }

    void terminatedCallbackRunsOnce()
    {
        ProcessRegistry processes;
        Lifecycle lifecycle(processes, fastOptions());
        std::mutex mutex;
        std::condition_variable_any cv;
        int calls = 0;
        lifecycle.onTerminated([&] {
            std::lock_guard lock(mutex);
            ++calls;
            cv.notify_all();
        });
        lifecycle.shutdown();
        lifecycle.shutdown(); // idempotent
        {
            std::unique_lock lock(mutex);
            QVERIFY(cv.wait_for(lock, 10s, [&] { return calls == 1; }));
        }
        int late = 0;
        lifecycle.onTerminated([&] { ++late; });
        QCOMPARE(late, 1);
        lifecycle.waitForTerminated();
        QCOMPARE(calls, 1);
    }

    void destructionShutsDownAndJoins()
    {
        ProcessRegistry processes;
        bool stopped = false;
        {
            Lifecycle lifecycle(processes, fastOptions());
            QVERIFY(lifecycle.runWithCancel(QStringLiteral("worker"), [&](const CancelToken &token) {
                waitForCancel(token);
                stopped = true;
            }));
        }
        QVERIFY(stopped);
        QCOMPARE(processes.size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestLifecycle)
#include "tst_lifecycle.moc"
