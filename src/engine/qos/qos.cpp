#include "qos.h"

#include "engine/cache/cache.h"

#include <QLoggingCategory>
#include <QThread>

Q_LOGGING_CATEGORY(lcQos, "switchyard.qos", QtInfoMsg)

namespace Switchyard {

QString priorityName(Priority priority)
{
    switch (priority) {
    case Priority::Low: return QStringLiteral("low");
    case Priority::Default: return QStringLiteral("default");
    case Priority::High: return QStringLiteral("high");
    }
    return QStringLiteral("default");
}

static QosOptions normalised(QosOptions options)
{
    if (options.maxInflight <= 0)
        options.maxInflight = 4 * std::max(1, QThread::idealThreadCount());
    options.maxWaiting = std::max(0, options.maxWaiting);
    return options;
}

AdmissionController::AdmissionController(QosOptions options, Clock clock)
    : m_options(normalised(options)), m_clock(std::move(clock))
{
}

AdmissionController::~AdmissionController()
{
    std::unique_lock lock(m_mutex);
    m_closing = true;
    for (auto it = m_waiters.begin(); it != m_waiters.end(); ++it) {
        if (it->state == Waiter::State::Waiting)
            dropLocked(it, QStringLiteral("the server is shutting down"));
    }
    m_changed.wait(lock, [this] { return m_waiters.empty(); });
}

AdmissionController::Ticket &AdmissionController::Ticket::operator=(Ticket &&other) noexcept
{
    if (this != &other) {
        release();
        m_owner = std::exchange(other.m_owner, nullptr);
    }
    return *this;
}

void AdmissionController::Ticket::release()
{
    if (AdmissionController *owner = std::exchange(m_owner, nullptr))
        owner->releaseSlot();
}

void AdmissionController::dropLocked(std::list<Waiter>::iterator waiter, const QString &reason)
{
    waiter->state = Waiter::State::Dropped;
    waiter->reason = reason;
    ++m_dropped[size_t(waiter->priority)];
    m_changed.notify_all();
}

void AdmissionController::grantLocked()
{
    const auto now = m_clock();
    while (m_inflight < m_options.maxInflight) {
        auto best = m_waiters.end();
        for (auto it = m_waiters.begin(); it != m_waiters.end(); ++it) {
            if (it->state == Waiter::State::Waiting && (best == m_waiters.end() || it->priority > best->priority))
                best = it; // arrival order breaks ties: the first found stays
        }
        if (best == m_waiters.end())
            return;
        if (now - best->enqueued > m_options.targetWaitTime) {
            dropLocked(best, QStringLiteral("waited longer than the %1 ms target").arg(m_options.targetWaitTime.count()));
            continue;
        }
        best->state = Waiter::State::Admitted;
        ++m_inflight;
        ++m_admitted;
        m_changed.notify_all();
    }
}

void AdmissionController::releaseSlot()
{
    std::lock_guard lock(m_mutex);
    --m_inflight;
    grantLocked();
}

void AdmissionController::reevaluate()
{
    std::lock_guard lock(m_mutex);
    const auto now = m_clock();
    for (auto it = m_waiters.begin(); it != m_waiters.end(); ++it) {
        if (it->state == Waiter::State::Waiting && now - it->enqueued > m_options.targetWaitTime)
            dropLocked(it, QStringLiteral("waited longer than the %1 ms target").arg(m_options.targetWaitTime.count()));
    }
    grantLocked();
    m_changed.notify_all();
}

Result<AdmissionController::Ticket> AdmissionController::acquire(const CancelToken &cancel, Priority priority)
{
    std::unique_lock lock(m_mutex);
    if (m_closing)
        return Status::unavailable(QStringLiteral("QoS: the server is shutting down"));
    const bool anyoneWaiting = std::any_of(m_waiters.begin(), m_waiters.end(),
                                           [](const Waiter &w) { return w.state == Waiter::State::Waiting; });
    if (m_inflight < m_options.maxInflight && !anyoneWaiting) {
        ++m_inflight;
        ++m_admitted;
        return Ticket(this);
    }

    const int waiting = int(std::count_if(m_waiters.begin(), m_waiters.end(),
                                          [](const Waiter &w) { return w.state == Waiter::State::Waiting; }));
    if (waiting >= m_options.maxWaiting) {
        auto victim = m_waiters.end();
        for (auto it = m_waiters.begin(); it != m_waiters.end(); ++it) {
            if (it->state == Waiter::State::Waiting && (victim == m_waiters.end() || it->priority <= victim->priority))
                victim = it; // lowest priority; the newest among equals
        }
        if (victim == m_waiters.end() || victim->priority >= priority) {
            ++m_dropped[size_t(priority)];
            return Status::unavailable(QStringLiteral("QoS: %1 requests are waiting already (MAX_WAITING); try again later")
                                           .arg(m_options.maxWaiting));
        }
        dropLocked(victim, QStringLiteral("pushed out of the full waiting line by a higher-priority request"));
    }

    auto self = m_waiters.insert(m_waiters.end(), Waiter{priority, m_clock()});
    while (true) {
        if (self->state == Waiter::State::Admitted) {
            m_waiters.erase(self);
            m_changed.notify_all();
            return Ticket(this);
        }
        if (self->state == Waiter::State::Dropped) {
            const QString reason = self->reason;
            m_waiters.erase(self);
            m_changed.notify_all();
            return Status::unavailable(QStringLiteral("QoS: request dropped: ") + reason);
        }
        if (cancel.isCancelled()) {
            m_waiters.erase(self);
            m_changed.notify_all();
            return cancel.cause();
        }
        const auto overdue = self->enqueued + m_options.targetWaitTime - m_clock();
        if (overdue < SteadyClock::duration::zero()) {
            dropLocked(self, QStringLiteral("waited longer than the %1 ms target").arg(m_options.targetWaitTime.count()));
            continue;
        }
        cancel.waitUntil(m_changed, lock, SteadyClock::now() + overdue + std::chrono::milliseconds(1),
                         [&] { return self->state != Waiter::State::Waiting; });
    }
}

QosStats AdmissionController::stats() const
{
    std::lock_guard lock(m_mutex);
    QosStats stats;
    stats.maxInflight = m_options.maxInflight;
    stats.maxWaiting = m_options.maxWaiting;
    stats.targetWaitMs = m_options.targetWaitTime.count();
    stats.inflight = m_inflight;
    stats.waiting = int(std::count_if(m_waiters.begin(), m_waiters.end(),
                                      [](const Waiter &w) { return w.state == Waiter::State::Waiting; }));
    stats.admittedTotal = m_admitted;
    stats.droppedTotal = m_dropped;
    return stats;
}

TrySemaphore::Permit &TrySemaphore::Permit::operator=(Permit &&other) noexcept
{
    if (this != &other) {
        release();
        m_owner = std::exchange(other.m_owner, nullptr);
    }
    return *this;
}

void TrySemaphore::Permit::release()
{
    if (TrySemaphore *owner = std::exchange(m_owner, nullptr)) {
        std::lock_guard lock(owner->m_mutex);
        --owner->m_inUse;
    }
}

TrySemaphore::Permit TrySemaphore::tryAcquire()
{
    std::lock_guard lock(m_mutex);
    if (m_inUse >= m_capacity)
        return Permit();
    ++m_inUse;
    return Permit(this);
}

int TrySemaphore::inUse() const
{
    std::lock_guard lock(m_mutex);
    return m_inUse;
}

Result<bool> CacheRateLimiter::allow(const QString &key)
{
    return m_cache.putIfAbsent(m_prefix + key, QStringLiteral("1"), m_ttl);
}

Debouncer::Debouncer(std::chrono::milliseconds delay, std::function<void()> fn, Clock clock)
    : m_delay(delay), m_fn(std::move(fn)), m_clock(std::move(clock)),
      m_thread([this](std::stop_token stop) { loop(stop); })
{
}

Debouncer::~Debouncer()
{
    m_thread.request_stop(); // wakes the condition wait through the stop token
    m_thread.join();
}

void Debouncer::trigger()
{
    std::lock_guard lock(m_mutex);
    m_dueAt = m_clock() + m_delay; // a later trigger pushes the call back
    m_changed.notify_all();
}

int Debouncer::runs() const
{
    std::lock_guard lock(m_mutex);
    return m_runs;
}

void Debouncer::loop(std::stop_token stop)
{
    std::unique_lock lock(m_mutex);
    while (!stop.stop_requested()) {
        if (!m_dueAt) {
            m_changed.wait(lock, stop, [this] { return m_dueAt.has_value(); });
            continue;
        }
        const auto due = *m_dueAt;
        if (const auto now = m_clock(); now < due) {
            // Sleeps on the real clock for what the (maybe injected) clock says is left.
            m_changed.wait_until(lock, stop, SteadyClock::now() + (due - now), [&] { return m_dueAt != due; });
            continue;
        }
        m_dueAt.reset();
        lock.unlock();
        try {
            m_fn();
        } catch (const std::exception &e) {
            qCWarning(lcQos) << "debounced call threw:" << e.what();
        }
        lock.lock();
        ++m_runs;
        m_changed.notify_all();
    }
}

} // namespace Switchyard
