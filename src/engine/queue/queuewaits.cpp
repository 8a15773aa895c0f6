#include "queuewaits.h"

namespace Switchyard {

Status queueClosedStatus(const QString &name)
{
    return Status::cancelled(QStringLiteral("queue %1 is closed").arg(name));
}

Status queueFullStatus(const QString &name, qint64 capacity, std::chrono::milliseconds waited)
{
    return Status::deadlineExceeded(QStringLiteral("queue %1 is full (LENGTH = %2) after waiting %3 ms; "
                                                   "raise [queue.%1] LENGTH or add workers")
                                        .arg(name).arg(capacity).arg(waited.count()));
}

Status QueueWaits::waitForRoom(QueueLock &lock, const CancelToken &cancel, const QString &name,
                               qint64 capacity, std::chrono::milliseconds pushBlockTime, const std::function<bool()> &hasRoom)
{
    if (m_closed)
        return queueClosedStatus(name);
    if (hasRoom())
        return Status::ok();
    ++m_waitingPushers;
    const bool room = cancel.waitUntil(m_notFull, lock, SteadyClock::now() + pushBlockTime, [&] { return m_closed || hasRoom(); });
    --m_waitingPushers;
    if (m_closed)
        return queueClosedStatus(name);
    if (!room)
        return cancel.isCancelled() ? cancel.cause() : queueFullStatus(name, capacity, pushBlockTime);
    return Status::ok();
}

void QueueWaits::waitForItems(QueueLock &lock, const CancelToken &cancel,
                              std::optional<SteadyClock::time_point> until, const std::function<qsizetype()> &count,
                              qsizetype atLeast)
{
    atLeast = std::max<qsizetype>(1, atLeast);
    if (m_closed || count() >= atLeast)
        return;
    ++m_waitingPoppers;
    const auto need = m_needs.insert(atLeast);
    auto ready = [&] { return m_closed || count() >= atLeast; };
    if (until)
        cancel.waitUntil(m_notEmpty, lock, *until, ready);
    else
        cancel.wait(m_notEmpty, lock, ready);
    m_needs.erase(need);
    --m_waitingPoppers;
}

void QueueWaits::itemAdded(qsizetype waiting)
{
    wake(wakeFor(waiting));
}

QueueWaits::Wake QueueWaits::wakeFor(qsizetype waiting) const
{
    if (m_needs.empty() || waiting < *m_needs.begin())
        return Wake::None;
    // Everyone waits for one item: one is enough. Needs differ: let each check its own.
    return *m_needs.rbegin() == 1 ? Wake::One : Wake::All;
}

void QueueWaits::wake(Wake which)
{
    // condition_variable_any may be notified without the caller's mutex: the waiter checks its
    // predicate under that mutex, after the state change the caller made while holding it.
    if (which == Wake::One)
        m_notEmpty.notify_one();
    else if (which == Wake::All)
        m_notEmpty.notify_all();
}

void QueueWaits::itemsReturned()
{
    if (m_waitingPoppers > 0)
        m_notEmpty.notify_all();
}

void QueueWaits::roomMade()
{
    if (m_waitingPushers > 0)
        m_notFull.notify_all();
}

void QueueWaits::close()
{
    m_closed = true;
    m_notEmpty.notify_all();
    m_notFull.notify_all();
}

} // namespace Switchyard
