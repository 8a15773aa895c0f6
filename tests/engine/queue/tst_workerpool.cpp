// WorkerPoolQueue rules of SPEC §2.4, each with shortened constants and deterministic waits.
#include "engine/queue/channelqueue.h"
#include "engine/queue/dummyqueue.h"
#include "engine/queue/levelqueue.h"
#include "engine/queue/queue.h"

#include "support/wait.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

QueueTiming fastTiming()
{
    QueueTiming timing;
    timing.pushBlockTime = 500ms;
    timing.batchDebounce = 20ms;
    timing.workerIdle = 50ms;
    timing.unhandledBackoff = 200ms;
    timing.shutdownTimeout = 5s;
    timing.flushPoll = 5ms;
    timing.backoffBegin = 5ms;
    timing.backoffUpper = 20ms;
    return timing;
}

// What the handler saw, thread-safe, with a condition to wait on.
class Recorder
{
public:
    void record(const std::vector<qint64> &batch)
    {
        std::lock_guard lock(m_mutex);
        m_batches.push_back(batch);
        m_cv.notify_all();
    }
    bool waitForItems(size_t count, std::chrono::milliseconds bound = 20s)
    {
        std::unique_lock lock(m_mutex);
        return m_cv.wait_for(lock, bound, [&] { return itemCountLocked() >= count; });
    }
    std::vector<std::vector<qint64>> batches() const
    {
        std::lock_guard lock(m_mutex);
        return m_batches;
    }
    size_t itemCount() const
    {
        std::lock_guard lock(m_mutex);
        return itemCountLocked();
    }

private:
    size_t itemCountLocked() const
    {
        size_t n = 0;
        for (const auto &b : m_batches)
            n += b.size();
        return n;
    }
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::vector<std::vector<qint64>> m_batches;
};

// Blocks handlers until opened; counts who is waiting.
class Gate
{
public:
    void pass()
    {
        std::unique_lock lock(m_mutex);
        ++m_waiting;
        m_cv.notify_all();
        m_cv.wait(lock, [&] { return m_open; });
        --m_waiting;
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_cv.notify_all();
    }
    bool waitForWaiting(int count)
    {
        std::unique_lock lock(m_mutex);
        return m_cv.wait_for(lock, 20s, [&] { return m_waiting >= count; });
    }
    int waiting()
    {
        std::lock_guard lock(m_mutex);
        return m_waiting;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    int m_waiting = 0;
    bool m_open = false;
};

// A pool on a channel queue, running on a thread the fixture owns and joins.
class RunningPool
{
public:
    RunningPool(WorkerPoolQueue<qint64>::Handler handler, int batchLength, int maxWorkers, QueueTiming timing = fastTiming(),
                std::unique_ptr<BaseQueue> base = nullptr, int capacity = 10000)
    {
        if (!base)
            base = std::make_unique<ChannelQueue>(QStringLiteral("test"), capacity, false, timing);
        pool = std::make_shared<WorkerPool>(QStringLiteral("test"), std::move(base),
                                            WorkerPoolQueue<qint64>::rawHandler(QStringLiteral("test"), std::move(handler)),
                                            batchLength, maxWorkers, capacity, timing);
        queue = std::make_unique<WorkerPoolQueue<qint64>>(pool);
        thread = std::thread([this] { pool->run(source.token()); });
        Test::eventually([this] { return pool->isRunning(); });
    }
    ~RunningPool() { stop(); }
    void stop()
    {
        source.cancel(QStringLiteral("test over"));
        if (thread.joinable())
            thread.join();
    }
    void pushAll(qint64 from, qint64 to)
    {
        for (qint64 i = from; i < to; ++i) {
            if (!queue->push(CancelToken(), i))
                qFatal("push failed");
        }
    }

    CancelSource source;
    std::shared_ptr<WorkerPool> pool;
    std::unique_ptr<WorkerPoolQueue<qint64>> queue;
    std::thread thread;
};

} // namespace

class TestWorkerPool : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fullBatchesAreDispatchedAtOnce()
    {
        Recorder seen;
        QueueTiming timing = fastTiming();
        timing.batchDebounce = 1h; // only a full batch can be dispatched
        RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 5, 1, timing);
        p.pushAll(0, 10);
        QVERIFY(seen.waitForItems(10));
        for (const auto &batch : seen.batches())
            QCOMPARE(batch.size(), size_t(5));
    }

    void partialBatchIsDispatchedAfterTheDebounce()
    {
        Recorder seen;
        RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 20, 1);
        p.pushAll(0, 3);
        QVERIFY(seen.waitForItems(3));
        QCOMPARE(seen.batches().front(), (std::vector<qint64>{0, 1, 2}));
    }

    void debounceIsNotResetByLaterItems()
    {
        // A producer keeps adding items, never pausing as long as the debounce. A resetting
        // debounce would dispatch nothing until the producer stops; ours dispatches meanwhile.
        Recorder seen;
        QueueTiming timing = fastTiming();
        timing.batchDebounce = 30ms;
        RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 100000, 1, timing);
        std::atomic<bool> producing = true;
        size_t seenWhileProducing = 0;
        std::thread producer([&] {
            qint64 i = 0;
            while (seen.itemCount() == 0 && i < 200000) {
                p.queue->push(CancelToken(), i++);
                std::this_thread::sleep_for(1ms); // pacing, well below the debounce
            }
            seenWhileProducing = seen.itemCount();
            producing = false;
        });
        producer.join();
        QVERIFY2(seenWhileProducing > 0, "no batch was dispatched while items kept arriving");
    }

    void workersScaleUpToTheMaximumAndIdleOnesExitButTheLast()
    {
        Gate gate;
        RunningPool p([&](std::vector<qint64>) { gate.pass(); return std::vector<qint64>(); }, 1, 3);
        p.pushAll(0, 5);
        QVERIFY(gate.waitForWaiting(3));
        QueueStats stats = p.pool->stats();
        QCOMPARE(stats.workers, 3);
        QCOMPARE(stats.activeWorkers, 3);
        QCOMPARE(stats.maxWorkers, 3);
        gate.open();
        QVERIFY(Test::eventually([&] { return p.pool->stats().handledTotal == 5; }));
        // Idle for workerIdle: all but the last exit.
        QVERIFY(Test::eventually([&] { return p.pool->stats().workers == 1; }));
        std::this_thread::sleep_for(fastTiming().workerIdle * 3); // the last one must stay
        QCOMPARE(p.pool->stats().workers, 1);
    }

    void maxWorkersCanBeRaisedWhileRunning()
    {
        Gate gate;
        RunningPool p([&](std::vector<qint64>) { gate.pass(); return std::vector<qint64>(); }, 1, 1);
        p.pushAll(0, 3);
        QVERIFY(gate.waitForWaiting(1));
        QCOMPARE(p.pool->stats().activeWorkers, 1);
        p.pool->setMaxWorkers(3);
        QVERIFY(gate.waitForWaiting(3));
        QCOMPARE(p.pool->stats().activeWorkers, 3);
        gate.open();
    }

    void unboundedWorkers()
    {
        Gate gate;
        RunningPool p([&](std::vector<qint64>) { gate.pass(); return std::vector<qint64>(); }, 1, 0);
        p.pushAll(0, 12);
        QVERIFY(gate.waitForWaiting(12));
        QCOMPARE(p.pool->stats().workers, 12);
        gate.open();
    }

    void unhandledItemsArePushedAgain()
    {
        std::mutex mutex;
        std::map<qint64, int> attempts;
        Recorder done;
        RunningPool p([&](std::vector<qint64> items) {
            std::vector<qint64> unhandled;
            std::vector<qint64> handled;
            std::lock_guard lock(mutex);
            for (qint64 i : items) {
                if (i % 2 == 0 && attempts[i]++ == 0)
                    unhandled.push_back(i); // even items fail once
                else
                    handled.push_back(i);
            }
            done.record(handled);
            return unhandled;
        }, 10, 1);
        p.pushAll(0, 10);
        QVERIFY(done.waitForItems(10));
        QVERIFY(p.queue->flush(CancelToken(), 10s)); // the counters are final once the workers are idle
        std::lock_guard lock(mutex);
        QCOMPARE(attempts[4], 2);
        QCOMPARE(attempts[3], 0);
        const QueueStats stats = p.pool->stats();
        QCOMPARE(stats.handledTotal, qint64(10));
        QCOMPARE(stats.failedTotal, qint64(5));
    }

    void aWhollyUnhandledBatchBacksOffFirst()
    {
        std::mutex mutex;
        std::vector<SteadyClock::time_point> calls;
        Recorder done;
        QueueTiming timing = fastTiming();
        timing.unhandledBackoff = 300ms;
        RunningPool p([&](std::vector<qint64> items) {
            std::lock_guard lock(mutex);
            calls.push_back(SteadyClock::now());
            if (calls.size() == 1)
                return items; // everything failed
            done.record(items);
            return std::vector<qint64>();
        }, 10, 1, timing);
        p.pushAll(0, 3);
        QVERIFY(done.waitForItems(3));
        std::lock_guard lock(mutex);
        QVERIFY(calls.size() >= 2);
        QVERIFY(calls[1] - calls[0] >= timing.unhandledBackoff);
    }

    void partlyUnhandledBatchesDoNotBackOff()
    {
        std::atomic<int> calls = 0;
        Recorder done;
        QueueTiming timing = fastTiming();
        timing.unhandledBackoff = 1h; // a backoff would make this test time out
        RunningPool p([&](std::vector<qint64> items) {
            if (calls++ == 0) {
                std::vector<qint64> back{items.front()};
                done.record(std::vector<qint64>(items.begin() + 1, items.end()));
                return back;
            }
            done.record(items);
            return std::vector<qint64>();
        }, 10, 1, timing);
        p.pushAll(0, 4);
        QVERIFY(done.waitForItems(4));
    }

    void handlerExceptionsAreContainedAndNotRetried()
    {
        Recorder done;
        std::atomic<int> throws = 0;
        RunningPool p([&](std::vector<qint64> items) {
            if (items.front() == 0) {
                ++throws;
                throw std::runtime_error("poison");
            }
            done.record(items);
            return std::vector<qint64>();
        }, 1, 1);
        p.pushAll(0, 4);
        QVERIFY(done.waitForItems(3));
        QVERIFY(p.queue->flush(CancelToken(), 10s));
        QCOMPARE(throws.load(), 1);
        const QueueStats stats = p.pool->stats();
        QCOMPARE(stats.failedTotal, qint64(1));
        QCOMPARE(stats.handledTotal, qint64(3));
    }

    void flushDrainsEverythingSynchronously()
    {
        std::atomic<int> handled = 0;
        RunningPool p([&](std::vector<qint64> items) {
            handled += int(items.size());
            return std::vector<qint64>();
        }, 7, 2);
        p.pool->pause(CancelToken()); // nothing moves until the flush
        p.pushAll(0, 50);
        QCOMPARE(handled.load(), 0);
        QVERIFY(p.queue->flush(CancelToken(), 10s));
        QCOMPARE(handled.load(), 50);
        QCOMPARE(p.pool->stats().length, qint64(0));
    }

    void flushWithANegativeTimeoutDiscards()
    {
        std::atomic<int> handled = 0;
        RunningPool p([&](std::vector<qint64> items) {
            handled += int(items.size());
            return std::vector<qint64>();
        }, 5, 1);
        p.pool->pause(CancelToken());
        p.pushAll(0, 20);
        QVERIFY(p.queue->flush(CancelToken(), -1ms));
        QCOMPARE(p.pool->stats().length, qint64(0));
        p.pool->resume();
        QVERIFY(p.queue->flush(CancelToken(), 10s));
        QCOMPARE(handled.load(), 0);
    }

    void flushTimesOut()
    {
        Gate gate;
        RunningPool p([&](std::vector<qint64>) { gate.pass(); return std::vector<qint64>(); }, 1, 1);
        p.pushAll(0, 3);
        QVERIFY(gate.waitForWaiting(1));
        const Status flushed = p.queue->flush(CancelToken(), 50ms);
        QCOMPARE(flushed.code(), Status::Code::DeadlineExceeded);
        QVERIFY(flushed.message().contains(QLatin1String("50 ms")));
        gate.open();
    }

    void flushOfAStoppedPoolIsRefused()
    {
        RunningPool p([&](std::vector<qint64>) { return std::vector<qint64>(); }, 1, 1);
        p.stop();
        QCOMPARE(p.queue->flush(CancelToken(), 1s).code(), Status::Code::Unavailable);
    }

    void pausedQueueAcceptsButHandsNothingOut()
    {
        Recorder seen;
        RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 2, 1);
        QVERIFY(p.pool->pause(CancelToken())); // returns once the dispatcher holds nothing: it waits for resume()
        QVERIFY(p.pool->stats().paused);
        p.pushAll(0, 6);
        QCOMPARE(p.pool->stats().pushedTotal, qint64(6));
        QCOMPARE(seen.itemCount(), size_t(0));
        QCOMPARE(p.pool->stats().length, qint64(6));
        p.pool->resume();
        QVERIFY(seen.waitForItems(6));
    }

    // The dispatcher has taken items and waits for the batch to fill when the queue is paused:
    // pause() returns only once they are back, so Remove all counts every one of them.
    void pauseReturnsWhatTheDispatcherHeldSoRemoveAllIsExact()
    {
        Recorder seen;
        QueueTiming timing = fastTiming();
        timing.batchDebounce = 1h; // a partial batch stays with the dispatcher
        RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 100, 1, timing);
        p.pushAll(0, 10);
        QVERIFY(Test::eventually([&] { return p.pool->stats().length < 10; })); // some in the dispatcher's hands
        QVERIFY(p.pool->pause(CancelToken()));
        QCOMPARE(p.pool->stats().length, qint64(10));
        QCOMPARE(*p.pool->removeAll(CancelToken()), qint64(10));
        QCOMPARE(seen.itemCount(), size_t(0));
    }

    void anImmediateQueueReportsItemsItCouldNotHandle()
    {
        std::atomic<int> calls = 0;
        auto pool = std::make_shared<WorkerPool>(QStringLiteral("immediate"), std::make_unique<DummyQueue>(false),
                                                 WorkerPoolQueue<qint64>::rawHandler(QStringLiteral("immediate"),
                                                                                     [&](std::vector<qint64> items) {
                                                                                         if (calls++ == 0)
                                                                                             throw std::runtime_error("disk on fire");
                                                                                         return items; // not now
                                                                                     }),
                                                 20, 1, 100, fastTiming());
        WorkerPoolQueue<qint64> queue(pool);
        const Status thrown = queue.push(CancelToken(), 1);
        QCOMPARE(thrown.code(), Status::Code::Internal);
        QVERIFY(thrown.message().contains(QLatin1String("disk on fire")));
        const Status unhandled = queue.push(CancelToken(), 2);
        QCOMPARE(unhandled.code(), Status::Code::Unavailable);
        QVERIFY(unhandled.message().contains(QLatin1String("unhandled")));
        QCOMPARE(pool->stats().failedTotal, qint64(2));
        QCOMPARE(pool->stats().handledTotal, qint64(0));
        const Status many = pool->pushMany(CancelToken(), {"3", "4"});
        QVERIFY(many.message().contains(QLatin1String("0 of 2")));
    }

    void corruptItemsAreSkippedAndCounted()
    {
        Recorder seen;
        RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 10, 1);
        QVERIFY(p.pool->push(CancelToken(), "not a number"));
        p.pushAll(1, 3);
        QVERIFY(seen.waitForItems(2));
        QVERIFY(p.queue->flush(CancelToken(), 10s));
        QCOMPARE(p.pool->stats().corruptTotal, qint64(1));
        QCOMPARE(p.pool->stats().handledTotal, qint64(2));
    }

    void shutdownPutsUndispatchedItemsBack()
    {
        QTemporaryDir dir;
        QueueTiming timing = fastTiming();
        auto base = LevelQueue::open(CancelToken(), QStringLiteral("test"), dir.filePath(QStringLiteral("q")), 1000, false, false, timing);
        QVERIFY(base);
        Gate gate;
        Recorder seen;
        {
            RunningPool p([&](std::vector<qint64> items) {
                gate.pass();
                seen.record(items);
                return std::vector<qint64>();
            }, 1, 1, timing, std::move(base).value());
            p.pushAll(0, 5);
            QVERIFY(gate.waitForWaiting(1)); // item 0 in the handler, item 1 waiting for the worker
            std::thread opener([&] {
                // Open the gate once the dispatcher has put item 1 back: the worker finishes item 0.
                Test::eventually([&] { return p.source.isCancelled() && *p.pool->base().len(CancelToken()) == 4; });
                gate.open();
            });
            p.stop();
            opener.join();
            QCOMPARE(seen.itemCount(), size_t(1));
            QCOMPARE(seen.batches().front(), std::vector<qint64>{0});
            QCOMPARE(*p.pool->base().len(CancelToken()), qint64(4)); // 1..4 back in the queue
        }
        // Reopened: the same four, in order.
        auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("test"), dir.filePath(QStringLiteral("q")), 1000, false,
                                         false, timing);
        QVERIFY(reopened);
        auto popped = (*reopened)->popItems(CancelToken(), 10, SteadyClock::now() + 100ms);
        QCOMPARE(popped->size(), size_t(4));
        QCOMPARE(popped->front().data, QByteArray("1"));
        QCOMPARE(popped->back().data, QByteArray("4"));
    }

    void shutdownWithoutTimeoutRunsTheHandlerOnLeftovers()
    {
        QueueTiming timing = fastTiming();
        timing.shutdownTimeout = 0ms;
        timing.batchDebounce = 1h;
        Recorder seen;
        {
            RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 100, 1, timing);
            p.pushAll(0, 3);
            // The dispatcher holds the start of a batch, waiting for a debounce that never comes.
            QVERIFY(Test::eventually([&] { return p.pool->stats().length < 3; }));
            const qint64 queued = p.pool->stats().length;
            p.stop();
            // What it held (and whatever its interrupted pop took) went through the handler; the
            // rest is still queued: nothing vanished.
            QVERIFY(qint64(seen.itemCount()) >= 3 - queued);
            QCOMPARE(qint64(seen.itemCount()) + p.pool->stats().length, qint64(3));
        }
    }

    void immediateQueueRunsTheHandlerOnPush()
    {
        std::vector<qint64> seen;
        auto pool = std::make_shared<WorkerPool>(QStringLiteral("immediate"), std::make_unique<DummyQueue>(false),
                                                 WorkerPoolQueue<qint64>::rawHandler(QStringLiteral("immediate"),
                                                                                     [&](std::vector<qint64> items) {
                                                                                         seen.insert(seen.end(), items.begin(), items.end());
                                                                                         return std::vector<qint64>();
                                                                                     }),
                                                 20, 1, 100, fastTiming());
        WorkerPoolQueue<qint64> queue(pool);
        QVERIFY(queue.push(CancelToken(), 42));
        QCOMPARE(seen, std::vector<qint64>{42}); // synchronously, after a JSON round trip
        QCOMPARE(pool->stats().handledTotal, qint64(1));
    }

    // #22: the worker that gathers a batch holds it (no dispatcher between): the in-flight view
    // names it, and it is counted as a worker once it holds something. What it has not taken yet
    // waits in the queue: a gatherer holding part of a batch takes the rest when the batch is full
    // or the debounce is due (how many it took first depends on when it woke).
    void aBatchBeingGatheredIsHeldByAWorker()
    {
        QueueTiming timing = fastTiming();
        timing.batchDebounce = 1h;
        RunningPool p([&](std::vector<qint64>) { return std::vector<qint64>(); }, 100, 2, timing);
        p.pushAll(0, 3);
        std::vector<InFlightItem> held;
        QVERIFY(Test::eventually([&] {
            const Result<std::vector<InFlightItem>> now = p.pool->inFlight(CancelToken(), 10);
            if (!now || now->empty())
                return false;
            held = *now;
            return qint64(held.size()) + p.pool->stats().length == 3;
        }));
        for (const InFlightItem &item : held)
            QCOMPARE(item.holder, QStringLiteral("worker 1, gathering a batch"));
        const QueueStats stats = p.pool->stats();
        QCOMPARE(stats.workers, 1);
        QCOMPARE(stats.activeWorkers, 0);
    }

    // #22: with every worker busy and the maximum reached, nobody gathers: the next items wait in
    // the queue, not in anyone's hands; a worker that is done gathers them.
    void withEveryWorkerBusyTheNextBatchWaitsInTheQueue()
    {
        Gate gate;
        Recorder seen;
        RunningPool p([&](std::vector<qint64> items) {
            gate.pass();
            seen.record(items);
            return std::vector<qint64>();
        }, 1, 2);
        p.pushAll(0, 5);
        QVERIFY(gate.waitForWaiting(2));
        QVERIFY(Test::eventually([&] { return p.pool->stats().length == 3; }));
        const Result<std::vector<InFlightItem>> held = p.pool->inFlight(CancelToken(), 10);
        QCOMPARE(held->size(), std::size_t(2));
        for (const InFlightItem &item : *held)
            QVERIFY2(!item.holder.contains(QLatin1String("gathering")), qPrintable(item.holder));
        QCOMPARE(p.pool->stats().workers, 2);
        gate.open();
        QVERIFY(seen.waitForItems(5));
        QCOMPARE(p.pool->stats().workers <= 2, true);
    }

    // #22: the gatherer's role passes between four workers while two producers push and the queue
    // is paused and resumed: every item is handled exactly once.
    void theGathererRolePassesAndEveryItemIsHandledOnce()
    {
        std::mutex mutex;
        std::vector<int> count(40000, 0);
        std::atomic<qint64> handled = 0;
        RunningPool p([&](std::vector<qint64> items) {
            std::lock_guard lock(mutex);
            for (qint64 i : items)
                ++count[std::size_t(i)];
            handled += qint64(items.size());
            return std::vector<qint64>();
        }, 7, 4, fastTiming(), nullptr, 50000);
        std::thread a([&] { p.pushAll(0, 20000); });
        std::thread b([&] { p.pushAll(20000, 40000); });
        for (int i = 0; i < 5; ++i) { // pauses while items flow
            QVERIFY(p.pool->pause(CancelToken()));
            QVERIFY(p.pool->stats().paused);
            p.pool->resume();
        }
        a.join();
        b.join();
        QVERIFY(p.queue->flush(CancelToken(), 30s));
        QCOMPARE(handled.load(), qint64(40000));
        std::lock_guard lock(mutex);
        QCOMPARE(std::count(count.begin(), count.end(), 1), std::ptrdiff_t(40000));
        QCOMPARE(p.pool->stats().handledTotal, qint64(40000));
    }

    // #22: while handlers are quick, the gatherer keeps its role instead of waking the idle
    // worker; when a handler then blocks, run() passes the role on after handOffAfter, so the
    // items behind it are handled meanwhile (else they would wait for the hour-long idle timeout).
    void aKeptRoleIsPassedOnWhenItsHandlerTurnsSlow()
    {
        QueueTiming timing = fastTiming();
        timing.workerIdle = 1h;   // the idle worker wakes only when the role is passed to it
        timing.quickHandler = 1h; // every handler counts as quick: the role is kept
        timing.handOffAfter = 5ms;
        Gate gate;
        Recorder seen;
        RunningPool p([&](std::vector<qint64> items) {
            if (items.front() == 100)
                gate.pass();
            seen.record(items);
            return std::vector<qint64>();
        }, 1, 2, timing);
        const auto release = qScopeGuard([&] { gate.open(); }); // on failure too, before the pool stops
        // The first batch passes the role (nothing is known of the handler yet) and starts a
        // second worker; the next ones are kept.
        p.pushAll(0, 3);
        QVERIFY(seen.waitForItems(3));
        QVERIFY(Test::eventually([&] { return p.pool->stats().activeWorkers == 0; }));
        // The gatherer of 100 keeps the role (another worker idles, or may be started) and its
        // handler blocks: only the hand-off gets 101..103 handled.
        p.pushAll(100, 101);
        QVERIFY(gate.waitForWaiting(1));
        p.pushAll(101, 104);
        QVERIFY(seen.waitForItems(6));
        QCOMPARE(gate.waiting(), 1);
        for (const auto &batch : seen.batches())
            QVERIFY(batch.front() != 100);
        gate.open();
        QVERIFY(seen.waitForItems(7));
        QVERIFY(p.queue->flush(CancelToken(), 10s));
        QCOMPARE(p.pool->stats().handledTotal, qint64(7));
    }

    void countersAddUp()
    {
        Recorder seen;
        RunningPool p([&](std::vector<qint64> items) { seen.record(items); return std::vector<qint64>(); }, 4, 2);
        p.pushAll(0, 40);
        QVERIFY(seen.waitForItems(40));
        QVERIFY(p.queue->flush(CancelToken(), 10s));
        const QueueStats stats = p.pool->stats();
        QCOMPARE(stats.pushedTotal, qint64(40));
        QCOMPARE(stats.handledTotal, qint64(40));
        QCOMPARE(stats.failedTotal, qint64(0));
        QCOMPARE(stats.batchLength, 4);
        QCOMPARE(stats.type, QStringLiteral("channel"));
    }
};

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
