#include "engine/core/cancellation.h"

#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

// Set by another thread; waited for with a bound that only matters when the code is broken.
class Flag
{
public:
    void set()
    {
        std::lock_guard lock(m_mutex);
        m_set = true;
        m_cv.notify_all();
    }
    bool waitFor(std::chrono::milliseconds bound)
    {
        std::unique_lock lock(m_mutex);
        return m_cv.wait_for(lock, bound, [this] { return m_set; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_set = false;
};

} // namespace

class TestCancellation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void backgroundIsNeverCancelled()
    {
        const CancelToken token = CancelToken::background();
        QVERIFY(!token.isCancelled());
        QVERIFY(token.cause().isOk());
        QVERIFY(!token.deadline());
        QVERIFY(!token.stopToken().stop_possible());
        bool ran = false;
        const CancelCallback callback = token.onCancel([&] { ran = true; });
        QVERIFY(!ran);
    }

    void cancelRecordsTheFirstCause()
    {
        CancelSource source;
        const CancelToken token = source.token();
        QVERIFY(!token.isCancelled());
        source.cancel(QStringLiteral("operator pressed stop"));
        QVERIFY(token.isCancelled());
        QCOMPARE(token.cause().code(), Status::Code::Cancelled);
        QCOMPARE(token.cause().message(), QStringLiteral("operator pressed stop"));
        source.cancel(QStringLiteral("second reason"));
        QCOMPARE(token.cause().message(), QStringLiteral("operator pressed stop"));
    }

    void parentCancellationReachesEveryDescendantWithItsCause()
    {
        CancelSource root;
        CancelSource child(root.token());
        CancelSource grandchild(child.token());
        CancelSource sibling(root.token());
        root.cancel(QStringLiteral("shutdown"));
        for (const CancelSource *s : {&child, &grandchild, &sibling}) {
            QVERIFY(s->isCancelled());
            QCOMPARE(s->token().cause().message(), QStringLiteral("shutdown"));
        }
    }

    void childCancellationDoesNotReachTheParent()
    {
        CancelSource root;
        CancelSource child(root.token());
        CancelSource sibling(root.token());
        child.cancel();
        QVERIFY(child.isCancelled());
        QVERIFY(!root.isCancelled());
        QVERIFY(!sibling.isCancelled());
    }

    void childOfACancelledParentStartsCancelled()
    {
        CancelSource root;
        root.cancel(QStringLiteral("gone"));
        CancelSource child(root.token());
        QVERIFY(child.isCancelled());
        QCOMPARE(child.token().cause().message(), QStringLiteral("gone"));
    }

    void destroyingTheSourceCancelsItsTokens()
    {
        CancelToken token;
        {
            CancelSource source;
            token = source.token();
            QVERIFY(!token.isCancelled());
        }
        QVERIFY(token.isCancelled());
        QCOMPARE(token.cause().message(), QStringLiteral("scope ended"));
    }

    void moveAssignmentCancelsTheReplacedToken()
    {
        CancelSource a;
        const CancelToken first = a.token();
        a = CancelSource();
        QVERIFY(first.isCancelled());
        QVERIFY(!a.isCancelled());
    }

    void deadlinePassesWithoutAnyoneCancelling()
    {
        CancelSource source = CancelSource::withTimeout(CancelToken(), 30ms);
        const CancelToken token = source.token();
        QVERIFY(token.deadline());
        std::mutex mutex;
        std::condition_variable_any cv;
        std::unique_lock lock(mutex);
        QVERIFY(!token.wait(cv, lock, [] { return false; }));
        QVERIFY(SteadyClock::now() >= *token.deadline());
        QVERIFY(token.isCancelled());
        QCOMPARE(token.cause().code(), Status::Code::DeadlineExceeded);
        QCOMPARE(*token.remaining(), SteadyClock::duration::zero());
    }

    void deadlineRunsCallbacksWithoutAnObserver()
    {
        CancelSource source = CancelSource::withTimeout(CancelToken(), 10ms);
        Flag fired;
        const CancelCallback callback = source.token().onCancel([&] { fired.set(); });
        QVERIFY(fired.waitFor(10s)); // delivered by the watcher thread
        QCOMPARE(source.token().cause().code(), Status::Code::DeadlineExceeded);
    }

    void childInheritsTheEarlierDeadline()
    {
        CancelSource parent = CancelSource::withTimeout(CancelToken(), 10ms);
        CancelSource child(parent.token(), SteadyClock::now() + 1h);
        QCOMPARE(*child.token().deadline(), *parent.token().deadline());
        Flag fired;
        const CancelCallback callback = child.token().onCancel([&] { fired.set(); });
        QVERIFY(fired.waitFor(10s));
        QCOMPARE(child.token().cause().code(), Status::Code::DeadlineExceeded);

        CancelSource late = CancelSource::withTimeout(CancelToken(), 1h);
        CancelSource early(late.token(), SteadyClock::now() + 1ms);
        QVERIFY(*early.token().deadline() < *late.token().deadline());
    }

    void expiredDeadlineIsSeenAtOnce()
    {
        CancelSource source(CancelToken(), SteadyClock::now() - 1ms);
        QVERIFY(source.isCancelled());
        QVERIFY(!source.token().sleepFor(1h));
    }

    void onCancelRunsImmediatelyWhenAlreadyCancelled()
    {
        CancelSource source;
        source.cancel();
        int runs = 0;
        const CancelCallback callback = source.token().onCancel([&] { ++runs; });
        QCOMPARE(runs, 1);
    }

    void droppedCallbackDoesNotRun()
    {
        CancelSource source;
        int runs = 0;
        {
            const CancelCallback callback = source.token().onCancel([&] { ++runs; });
        }
        const CancelCallback kept = source.token().onCancel([&] { runs += 10; });
        source.cancel();
        QCOMPARE(runs, 10);
    }

    void cancellationWakesABlockedWaiterOnAnotherThread()
    {
        CancelSource source;
        std::mutex mutex;
        std::condition_variable_any cv;
        std::atomic<bool> waiting = false;
        std::atomic<bool> result = true;
        std::thread waiter([&] {
            std::unique_lock lock(mutex);
            waiting = true;
            result = source.token().wait(cv, lock, [] { return false; });
        });
        while (!waiting)
            std::this_thread::yield();
        source.cancel(QStringLiteral("stop"));
        waiter.join();
        QVERIFY(!result);
    }

    void waitReturnsTrueWhenThePredicateHolds()
    {
        CancelSource source;
        std::mutex mutex;
        std::condition_variable_any cv;
        bool ready = false;
        std::thread producer([&] {
            std::lock_guard lock(mutex);
            ready = true;
            cv.notify_all();
        });
        std::unique_lock lock(mutex);
        QVERIFY(source.token().wait(cv, lock, [&] { return ready; }));
        lock.unlock();
        producer.join();
    }

    void waitUntilStopsAtTheEarlierOfDeadlineAndLimit()
    {
        CancelSource source = CancelSource::withTimeout(CancelToken(), 1h);
        std::mutex mutex;
        std::condition_variable_any cv;
        std::unique_lock lock(mutex);
        QVERIFY(!source.token().waitUntil(cv, lock, SteadyClock::now() + 5ms, [] { return false; }));
        QVERIFY(!source.isCancelled()); // the limit passed, not the token's deadline
    }

    void sleepForCompletesWhenNotCancelled()
    {
        QVERIFY(CancelToken().sleepFor(1ms));
        CancelSource source;
        std::thread canceller([&] { source.cancel(); });
        QVERIFY(!source.token().sleepFor(1h));
        canceller.join();
    }

    void manyShortLivedChildrenDoNotAccumulate()
    {
        CancelSource root = CancelSource::withTimeout(CancelToken(), 1h);
        for (int i = 0; i < 10000; ++i) {
            CancelSource child = CancelSource::withTimeout(root.token(), 30min);
            QVERIFY(!child.isCancelled());
        }
        int runs = 0;
        const CancelCallback callback = root.token().onCancel([&] { ++runs; });
        root.cancel();
        QCOMPARE(runs, 1);
    }
};

QTEST_GUILESS_MAIN(TestCancellation)
#include "tst_cancellation.moc"
