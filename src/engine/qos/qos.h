#pragma once

// Overload protection and small throttling primitives (SPEC §6, seed 000 §10.11).

#include "qostypes.h"
#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <QString>

#include <array>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace Switchyard {

class StringCache;

struct QosOptions
{
    int maxInflight = 0;  // ≤ 0: 4 × cores
    int maxWaiting = 100; // requests allowed to queue for a slot
    std::chrono::milliseconds targetWaitTime{250};
};

// Admission control for the admin API: at most maxInflight requests run; others wait, highest
// priority first (first come first served within a priority). Overload sheds the least valuable
// work instead of letting latency grow without bound:
// - a request that has waited longer than targetWaitTime is rejected instead of admitted (its
//   client is better served by a fast 503 than by a late answer — the CoDel idea of dropping on
//   sojourn time);
// - when maxWaiting requests wait, a newcomer of higher priority pushes out the lowest-priority,
//   newest waiter; otherwise the newcomer is rejected.
// Rejections are Unavailable (HTTP 503). Long-poll and stream requests release their ticket as
// soon as they are admitted. Time comes from an injectable clock; after moving a test clock call
// reevaluate(). Thread-safe.
class AdmissionController
{
public:
    using Clock = std::function<SteadyClock::time_point()>;

    // Releases its slot once (destruction or release()). Move-only.
    class Ticket
    {
    public:
        Ticket() = default;
        Ticket(Ticket &&other) noexcept : m_owner(std::exchange(other.m_owner, nullptr)) {}
        Ticket &operator=(Ticket &&other) noexcept;
        ~Ticket() { release(); }
        void release();
        bool valid() const { return m_owner != nullptr; }

    private:
        friend class AdmissionController;
        explicit Ticket(AdmissionController *owner) : m_owner(owner) {}
        AdmissionController *m_owner = nullptr; // Not owned; must outlive the ticket.
    };

    explicit AdmissionController(QosOptions options, Clock clock = [] { return SteadyClock::now(); });
    ~AdmissionController(); // rejects every waiter

    // Admits, waits, or rejects (Unavailable); Cancelled when `cancel` fires while waiting.
    Result<Ticket> acquire(const CancelToken &cancel, Priority priority);
    // Re-checks waiters against the clock (tests with an injected clock).
    void reevaluate();
    QosStats stats() const;

private:
    struct Waiter
    {
        Priority priority;
        SteadyClock::time_point enqueued;
        enum class State { Waiting, Admitted, Dropped } state = State::Waiting;
        QString reason;
    };

    void releaseSlot();
    void grantLocked(); // requires m_mutex
    void dropLocked(std::list<Waiter>::iterator waiter, const QString &reason); // requires m_mutex

    const QosOptions m_options;
    const Clock m_clock;
    mutable std::mutex m_mutex;
    std::condition_variable_any m_changed;
    std::list<Waiter> m_waiters; // guarded by m_mutex; in arrival order
    int m_inflight = 0;          // guarded by m_mutex
    qint64 m_admitted = 0;       // guarded by m_mutex
    std::array<qint64, 3> m_dropped{}; // guarded by m_mutex
    bool m_closing = false;      // guarded by m_mutex
};

// A counting semaphore that never waits (Gitea's task-pick limiter): tryAcquire() either takes a
// permit or reports "throttled" so the caller can come back later without touching the store.
// Capacity is at least 1. Thread-safe.
class TrySemaphore
{
public:
    class Permit
    {
    public:
        Permit() = default;
        Permit(Permit &&other) noexcept : m_owner(std::exchange(other.m_owner, nullptr)) {}
        Permit &operator=(Permit &&other) noexcept;
        ~Permit() { release(); }
        void release();
        explicit operator bool() const { return m_owner != nullptr; }

    private:
        friend class TrySemaphore;
        explicit Permit(TrySemaphore *owner) : m_owner(owner) {}
        TrySemaphore *m_owner = nullptr; // Not owned.
    };

    explicit TrySemaphore(int capacity) : m_capacity(std::max(1, capacity)) {}
    // An empty Permit means throttled.
    Permit tryAcquire();
    int inUse() const;
    int capacity() const { return m_capacity; }

private:
    const int m_capacity;
    mutable std::mutex m_mutex;
    int m_inUse = 0; // guarded by m_mutex
};

// "At most once per TTL per key" on the cache (Gitea's MailResendLimit_ pattern): allow() stores
// prefix+key with the TTL if absent (atomically) and says whether it did. Shared across instances
// when the cache is Redis. Thread-safe.
class CacheRateLimiter
{
public:
    CacheRateLimiter(StringCache &cache, QString prefix, std::chrono::seconds ttl)
        : m_cache(cache), m_prefix(std::move(prefix)), m_ttl(ttl)
    {
    }
    // true: go ahead (and the key is now limited for the TTL); false: limited. Errors: the cache
    // failed — callers decide whether to fail open or closed.
    Result<bool> allow(const QString &key);

private:
    StringCache &m_cache; // Not owned.
    const QString m_prefix;
    const std::chrono::seconds m_ttl;
};

// Trailing debounce (Gitea's util.Debounce): trigger() (re)starts a countdown; `fn` runs once,
// `delay` after the last trigger, on a thread the debouncer owns. Destruction stops the thread
// without running a pending call. Thread-safe.
class Debouncer
{
public:
    using Clock = std::function<SteadyClock::time_point()>;
    // `clock` is for tests; the debouncer sleeps on the real clock for what it says is left.
    Debouncer(std::chrono::milliseconds delay, std::function<void()> fn, Clock clock = [] { return SteadyClock::now(); });
    ~Debouncer();
    void trigger();
    int runs() const;

private:
    void loop(std::stop_token stop);

    const std::chrono::milliseconds m_delay;
    const std::function<void()> m_fn;
    const Clock m_clock;
    mutable std::mutex m_mutex;
    std::condition_variable_any m_changed;
    std::optional<SteadyClock::time_point> m_dueAt; // guarded by m_mutex
    int m_runs = 0;                                 // guarded by m_mutex
    std::jthread m_thread;                          // joined by the destructor
};

} // namespace Switchyard
