// QoS admission control with an injected clock, and the small throttling primitives.
#include "engine/cache/cache.h"
#include "engine/qos/qos.h"

#include "support/wait.h"

#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

// A clock the test moves by hand.
class ManualClock
{
public:
    SteadyClock::time_point now() const { return m_now.load(); }
    void advance(SteadyClock::duration d) { m_now.store(m_now.load() + d); }
    AdmissionController::Clock function() { return [this] { return now(); }; }

private:
    std::atomic<SteadyClock::time_point> m_now{SteadyClock::now()};
};

QosOptions options(int inflight, int waiting)
{
    QosOptions o;
    o.maxInflight = inflight;
    o.maxWaiting = waiting;
    o.targetWaitTime = 250ms;
    return o;
}

// A request waiting on its own thread; records what it got.
class Request
{
public:
    Request(AdmissionController &qos, Priority priority, std::function<void(Priority)> onAdmit = {})
        : m_thread([this, &qos, priority, onAdmit] {
              Result<AdmissionController::Ticket> ticket = qos.acquire(m_cancel.token(), priority);
              std::lock_guard lock(m_mutex);
              m_done = true;
              m_status = ticket.status();
              if (ticket) {
                  if (onAdmit)
                      onAdmit(priority);
                  m_ticket = std::move(ticket).value();
              }
              m_cv.notify_all();
          })
    {
    }
    ~Request()
    {
        m_cancel.cancel();
        m_thread.join();
    }
    Status waitForResult()
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait_for(lock, 20s, [&] { return m_done; });
        return m_done ? m_status : Status::internal(QStringLiteral("no result"));
    }
    bool done()
    {
        std::lock_guard lock(m_mutex);
        return m_done;
    }
    void release()
    {
        std::lock_guard lock(m_mutex);
        m_ticket.release();
    }
    void cancel() { m_cancel.cancel(QStringLiteral("client went away")); }

private:
    CancelSource m_cancel;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_done = false;
    Status m_status;
    AdmissionController::Ticket m_ticket;
    std::thread m_thread;
};

} // namespace

class TestQos : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void admitsUpToTheLimitAtOnce()
    {
        AdmissionController qos(options(2, 10));
        Result<AdmissionController::Ticket> a = qos.acquire(CancelToken(), Priority::Default);
        Result<AdmissionController::Ticket> b = qos.acquire(CancelToken(), Priority::Low);
        QVERIFY(a && b);
        QCOMPARE(qos.stats().inflight, 2);
        a->release();
        a->release();
        QCOMPARE(qos.stats().inflight, 1);
        QCOMPARE(qos.stats().admittedTotal, qint64(2));
    }

    void highPriorityIsAdmittedBeforeLow()
    {
        AdmissionController qos(options(1, 10));
        Result<AdmissionController::Ticket> busy = qos.acquire(CancelToken(), Priority::Default);
        std::mutex mutex;
        std::vector<Priority> order;
        auto record = [&](Priority p) {
            std::lock_guard lock(mutex);
            order.push_back(p);
        };
        Request low(qos, Priority::Low, record);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 1; }));
        Request high(qos, Priority::High, record);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 2; }));
        busy->release();
        QVERIFY(high.waitForResult());
        QVERIFY(!low.done());
        high.release();
        QVERIFY(low.waitForResult());
        std::lock_guard lock(mutex);
        QCOMPARE(order, (std::vector<Priority>{Priority::High, Priority::Low}));
    }

    void underOverloadTheLowPriorityIsDroppedFirst()
    {
        AdmissionController qos(options(1, 2));
        Result<AdmissionController::Ticket> busy = qos.acquire(CancelToken(), Priority::Default);
        Request low1(qos, Priority::Low);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 1; }));
        Request low2(qos, Priority::Low);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 2; }));
        // The line is full: a high-priority request pushes out the newest low one.
        Request high(qos, Priority::High);
        const Status dropped = low2.waitForResult();
        QCOMPARE(dropped.code(), Status::Code::Unavailable);
        QVERIFY(dropped.message().contains(QLatin1String("higher-priority")));
        QVERIFY(!low1.done());
        QCOMPARE(qos.stats().droppedTotal[size_t(Priority::Low)], qint64(1));
        // Another low one finds the line full of equal-or-better requests: rejected at once.
        const Result<AdmissionController::Ticket> rejected = qos.acquire(CancelToken(), Priority::Low);
        QCOMPARE(rejected.status().code(), Status::Code::Unavailable);
        QVERIFY(rejected.status().message().contains(QLatin1String("MAX_WAITING")));
        QCOMPARE(qos.stats().droppedTotal[size_t(Priority::Low)], qint64(2));
        QCOMPARE(qos.stats().droppedTotal[size_t(Priority::High)], qint64(0));
        busy->release();
        QVERIFY(high.waitForResult());
    }

    void aRequestWaitingOverTheTargetIsRejected()
    {
        ManualClock clock;
        AdmissionController qos(options(1, 10), clock.function());
        Result<AdmissionController::Ticket> busy = qos.acquire(CancelToken(), Priority::Default);
        Request waiting(qos, Priority::High);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 1; }));
        clock.advance(200ms);
        qos.reevaluate();
        QVERIFY(!waiting.done()); // within the target
        clock.advance(100ms);     // 300 ms > 250 ms
        qos.reevaluate();
        const Status status = waiting.waitForResult();
        QCOMPARE(status.code(), Status::Code::Unavailable);
        QVERIFY(status.message().contains(QLatin1String("250 ms target")));
        QCOMPARE(qos.stats().droppedTotal[size_t(Priority::High)], qint64(1));
    }

    void aSlotFreedForAnOverdueWaiterGoesToTheNextInstead()
    {
        ManualClock clock;
        AdmissionController qos(options(1, 10), clock.function());
        Result<AdmissionController::Ticket> busy = qos.acquire(CancelToken(), Priority::Default);
        Request old(qos, Priority::High);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 1; }));
        clock.advance(300ms);
        Request fresh(qos, Priority::Low);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 2 || old.done(); }));
        busy->release(); // dequeue: the overdue one is dropped, the fresh one admitted
        QCOMPARE(old.waitForResult().code(), Status::Code::Unavailable);
        QVERIFY(fresh.waitForResult());
    }

    void streamsReleaseTheirSlotAtOnce()
    {
        AdmissionController qos(options(1, 10));
        Result<AdmissionController::Ticket> stream = qos.acquire(CancelToken(), Priority::High);
        stream->release(); // the stream keeps running without a slot
        QVERIFY(qos.acquire(CancelToken(), Priority::Low));
    }

    void aWaiterCanBeCancelled()
    {
        AdmissionController qos(options(1, 10));
        Result<AdmissionController::Ticket> busy = qos.acquire(CancelToken(), Priority::Default);
        Request waiting(qos, Priority::Default);
        QVERIFY(Test::eventually([&] { return qos.stats().waiting == 1; }));
        waiting.cancel();
        QCOMPARE(waiting.waitForResult().message(), QStringLiteral("client went away"));
        QCOMPARE(qos.stats().waiting, 0);
    }

    void trySemaphoreThrottlesInsteadOfWaiting()
    {
        TrySemaphore semaphore(2);
        TrySemaphore::Permit a = semaphore.tryAcquire();
        TrySemaphore::Permit b = semaphore.tryAcquire();
        TrySemaphore::Permit c = semaphore.tryAcquire();
        QVERIFY(a && b);
        QVERIFY(!c); // throttled: come back later
        QCOMPARE(semaphore.inUse(), 2);
        a.release();
        QVERIFY(semaphore.tryAcquire());
        QCOMPARE(TrySemaphore(0).capacity(), 1); // never a semaphore nobody can pass
    }

    void cacheRateLimiterAllowsOncePerTtl()
    {
        auto cache = createMemoryCache(60s);
        CacheRateLimiter limiter(*cache, QStringLiteral("MailResendLimit_"), 1s);
        QVERIFY(*limiter.allow(QStringLiteral("alice")));
        QVERIFY(!*limiter.allow(QStringLiteral("alice")));
        QVERIFY(*limiter.allow(QStringLiteral("bob")));
        QVERIFY(cache->isExist(QStringLiteral("MailResendLimit_alice")));
        QVERIFY(Test::eventually([&] { return *limiter.allow(QStringLiteral("alice")); }, 5s));
    }

    // An injected clock: the call can only happen once that clock reaches the last trigger plus
    // the delay, whatever the real scheduling does.
    void debounceRunsOnceAfterTheLastTrigger()
    {
        const SteadyClock::time_point base = SteadyClock::now();
        std::atomic<qint64> nowMs = 0;
        std::mutex mutex;
        std::vector<qint64> calledAt; // injected time of each call
        Debouncer debouncer(
            50ms,
            [&] {
                std::lock_guard lock(mutex);
                calledAt.push_back(nowMs.load());
            },
            [&] { return base + std::chrono::milliseconds(nowMs.load()); });
        for (int i = 0; i < 5; ++i) {
            debouncer.trigger(); // at 0, 10, 20, 30, 40: each postpones the call
            nowMs += 10;
        }
        // Injected time 50: the last trigger (40) is not 50 ms old yet.
        QCOMPARE(debouncer.runs(), 0);
        nowMs = 89;
        QCOMPARE(debouncer.runs(), 0);
        nowMs = 90; // 40 + 50
        QVERIFY(Test::eventually([&] { return debouncer.runs() == 1; }));
        {
            std::lock_guard lock(mutex);
            QCOMPARE(calledAt, std::vector<qint64>{90});
        }
        debouncer.trigger();
        nowMs = 140;
        QVERIFY(Test::eventually([&] { return debouncer.runs() == 2; }));
    }
};

QTEST_GUILESS_MAIN(TestQos)
#include "tst_qos.moc"
