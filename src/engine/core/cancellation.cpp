#include "cancellation.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

namespace Switchyard {
namespace Detail {

struct CancelState
{
    std::stop_source source;
    std::optional<SteadyClock::time_point> deadline; // immutable after construction
    std::unique_ptr<std::stop_callback<std::function<void()>>> parentLink;
    // The deadline watcher's entry; written only under the watcher's mutex (add() sets it before
    // the entry can fall due, the watcher clears it when it takes the entry), read by the destructor.
    std::uint64_t watchId = 0;

    mutable std::mutex mutex;
    Status cause; // guarded by mutex; set once, before source.request_stop()

    ~CancelState();

    void cancel(Status why)
    {
        {
            std::lock_guard lock(mutex);
            if (!cause.isOk())
                return;
            cause = std::move(why);
        }
        source.request_stop();
    }

    Status currentCause() const
    {
        std::lock_guard lock(mutex);
        return cause;
    }

    // Deadlines are delivered by the watcher thread; checking here as well makes isCancelled()
    // exact even when the watcher has not woken yet.
    bool observe()
    {
        if (source.stop_requested())
            return true;
        if (deadline && SteadyClock::now() >= *deadline) {
            cancel(Status::deadlineExceeded(QStringLiteral("deadline exceeded")));
            return true;
        }
        return false;
    }
};

// Cancels states whose deadline passed. One thread for the process, started on first use and
// stopped and joined at exit; the object itself is never destroyed, so states that outlive the
// thread (static destruction) can still unregister safely.
class DeadlineWatcher
{
public:
    static DeadlineWatcher &instance()
    {
        static DeadlineWatcher *watcher = new DeadlineWatcher;
        return *watcher;
    }

    // Registers `state`'s deadline and sets its watchId, under the watcher's mutex: the entry may
    // fall due (and be taken by the watcher thread) the moment the mutex is released.
    void add(SteadyClock::time_point when, const std::shared_ptr<CancelState> &state)
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return; // after exit began: deadlines are still observed by isCancelled()/waits
        if (!m_thread.joinable()) {
            m_thread = std::thread([this] { run(); });
            std::atexit([] { instance().stop(); });
        }
        const std::uint64_t id = ++m_nextId;
        state->watchId = id;
        m_entries.emplace(when, Entry{id, std::weak_ptr<CancelState>(state)});
        // Wake the watcher only when it sleeps past this deadline. A deadline later than its
        // planned wake-up (usually: one whose entry was removed meanwhile) waits for that wake-up,
        // so a timeout per call costs no thread switch.
        if (when < m_wakeAt)
            m_wake.notify_one();
    }

    void remove(std::uint64_t id, SteadyClock::time_point when)
    {
        std::lock_guard lock(m_mutex);
        auto [first, last] = m_entries.equal_range(when);
        for (auto it = first; it != last; ++it) {
            if (it->second.id == id) {
                m_entries.erase(it);
                return;
            }
        }
    }

private:
    struct Entry
    {
        std::uint64_t id;
        std::weak_ptr<CancelState> state;
    };

    void stop()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopped = true;
            m_wake.notify_all();
        }
        if (m_thread.joinable())
            m_thread.join();
    }

    void run()
    {
        std::unique_lock lock(m_mutex);
        while (!m_stopped) {
            if (m_entries.empty()) {
                m_wakeAt = SteadyClock::time_point::max();
                m_wake.wait(lock);
                m_wakeAt = SteadyClock::time_point::min(); // awake: new entries need no notification
                continue;
            }
            const auto next = m_entries.begin()->first;
            if (SteadyClock::now() < next) {
                m_wakeAt = next;
                m_wake.wait_until(lock, next);
                m_wakeAt = SteadyClock::time_point::min();
                continue;
            }
            std::shared_ptr<CancelState> due = m_entries.begin()->second.state.lock();
            m_entries.erase(m_entries.begin());
            if (!due)
                continue;
            due->watchId = 0; // already removed; the destructor must not look for it
            lock.unlock();
            due->cancel(Status::deadlineExceeded(QStringLiteral("deadline exceeded")));
            due.reset(); // may run ~CancelState, which takes m_mutex
            lock.lock();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::multimap<SteadyClock::time_point, Entry> m_entries; // guarded by m_mutex
    std::uint64_t m_nextId = 0;                             // guarded by m_mutex
    // When the watcher will wake by itself; min() while it is awake. Guarded by m_mutex.
    SteadyClock::time_point m_wakeAt = SteadyClock::time_point::min();
    bool m_stopped = false;                                  // guarded by m_mutex
    std::thread m_thread; // started under m_mutex; joined by stop()
};

CancelState::~CancelState()
{
    // Unregister from the parent first: its callback must not run into a half-destroyed state.
    parentLink.reset();
    if (watchId != 0 && deadline)
        DeadlineWatcher::instance().remove(watchId, *deadline);
}

} // namespace Detail

CancelCallback::~CancelCallback() = default;

bool CancelToken::isCancelled() const
{
    return m_state && m_state->observe();
}

Status CancelToken::cause() const
{
    if (!m_state || !m_state->observe())
        return Status::ok();
    return m_state->currentCause();
}

std::optional<SteadyClock::time_point> CancelToken::deadline() const
{
    return m_state ? m_state->deadline : std::nullopt;
}

std::optional<SteadyClock::duration> CancelToken::remaining() const
{
    const auto limit = deadline();
    if (!limit)
        return std::nullopt;
    const auto left = *limit - SteadyClock::now();
    return left > SteadyClock::duration::zero() ? left : SteadyClock::duration::zero();
}

std::stop_token CancelToken::stopToken() const
{
    return m_state ? m_state->source.get_token() : std::stop_token();
}

CancelCallback CancelToken::onCancel(std::function<void()> fn) const
{
    CancelCallback registration;
    if (!m_state)
        return registration;
    m_state->observe();
    registration.m_callback = std::make_unique<std::stop_callback<std::function<void()>>>(
        m_state->source.get_token(), std::move(fn));
    return registration;
}

bool CancelToken::sleepFor(SteadyClock::duration duration) const
{
    std::mutex mutex;
    std::condition_variable_any cv;
    std::unique_lock lock(mutex);
    const auto until = SteadyClock::now() + duration;
    waitUntil(cv, lock, until, [] { return false; });
    return !isCancelled() && SteadyClock::now() >= until;
}

static std::shared_ptr<Detail::CancelState> makeState(const CancelToken &parent,
                                                      std::optional<SteadyClock::time_point> deadline)
{
    auto state = std::make_shared<Detail::CancelState>();
    const auto parentDeadline = parent.deadline();
    if (parentDeadline && (!deadline || *parentDeadline < *deadline))
        deadline = parentDeadline; // the parent's watcher entry cancels us through the link
    else if (deadline)
        Detail::DeadlineWatcher::instance().add(*deadline, state);
    state->deadline = deadline;

    if (parent.stopToken().stop_possible()) {
        std::weak_ptr<Detail::CancelState> weakChild = state;
        // Runs at once when the parent is already cancelled.
        state->parentLink = std::make_unique<std::stop_callback<std::function<void()>>>(
            parent.stopToken(), [weakChild, parent] {
                if (auto child = weakChild.lock())
                    child->cancel(parent.cause());
            });
    }
    return state;
}

CancelSource::CancelSource() : m_state(makeState(CancelToken(), std::nullopt)) {}

CancelSource::CancelSource(const CancelToken &parent) : m_state(makeState(parent, std::nullopt)) {}

CancelSource::CancelSource(const CancelToken &parent, SteadyClock::time_point deadline)
    : m_state(makeState(parent, deadline))
{
}

CancelSource CancelSource::withTimeout(const CancelToken &parent, SteadyClock::duration timeout)
{
    return CancelSource(parent, SteadyClock::now() + timeout);
}

CancelSource &CancelSource::operator=(CancelSource &&other) noexcept
{
    if (this != &other) {
        if (m_state)
            m_state->cancel(Status::cancelled(QStringLiteral("scope ended")));
        m_state = std::move(other.m_state);
    }
    return *this;
}

CancelSource::~CancelSource()
{
    if (m_state)
        m_state->cancel(Status::cancelled(QStringLiteral("scope ended")));
}

void CancelSource::cancel(const QString &reason)
{
    cancel(Status::cancelled(reason));
}

void CancelSource::cancel(Status cause)
{
    if (cause.isOk())
        cause = Status::cancelled(QStringLiteral("cancelled"));
    if (m_state)
        m_state->cancel(std::move(cause));
}

} // namespace Switchyard
