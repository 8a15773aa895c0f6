#include "channelqueue.h"

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

Status QueueWaits::waitForRoom(std::unique_lock<std::mutex> &lock, const CancelToken &cancel, const QString &name,
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

void QueueWaits::waitForItems(std::unique_lock<std::mutex> &lock, const CancelToken &cancel,
                              std::optional<SteadyClock::time_point> until, const std::function<bool()> &hasItems)
{
    if (m_closed || hasItems())
        return;
    ++m_waitingPoppers;
    auto ready = [&] { return m_closed || hasItems(); };
    if (until)
        cancel.waitUntil(m_notEmpty, lock, *until, ready);
    else
        cancel.wait(m_notEmpty, lock, ready);
    --m_waitingPoppers;
}

void QueueWaits::itemAdded()
{
    if (m_waitingPoppers > 0)
        m_notEmpty.notify_one();
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

ChannelQueue::ChannelQueue(QString name, int capacity, bool unique, QueueTiming timing)
    : m_name(std::move(name)), m_capacity(std::max(1, capacity)), m_unique(unique), m_timing(timing)
{
}

Status ChannelQueue::pushItem(const CancelToken &cancel, const QByteArray &data)
{
    std::unique_lock lock(m_mutex);
    auto queued = [&] { return m_unique && m_set.contains(data); };
    if (!m_waits.closed() && queued())
        return Status::alreadyExists(QStringLiteral("item already in queue %1").arg(m_name));
    if (Status room = m_waits.waitForRoom(lock, cancel, m_name, m_capacity, m_timing.pushBlockTime,
                                          [&] { return qsizetype(m_items.size()) < m_capacity; });
        !room)
        return room;
    if (queued()) // pushed by someone else while we waited
        return Status::alreadyExists(QStringLiteral("item already in queue %1").arg(m_name));
    m_items.push_back(data);
    if (m_unique)
        m_set.insert(data);
    m_waits.itemAdded();
    return Status::ok();
}

Result<std::vector<PoppedItem>> ChannelQueue::popItems(const CancelToken &cancel, int max,
                                                       std::optional<SteadyClock::time_point> until)
{
    std::unique_lock lock(m_mutex);
    m_waits.waitForItems(lock, cancel, until, [&] { return !m_items.empty(); });
    if (m_waits.closed())
        return queueClosedStatus(m_name);
    if (m_items.empty())
        return cancel.isCancelled() ? Result<std::vector<PoppedItem>>(cancel.cause()) : std::vector<PoppedItem>();

    std::vector<PoppedItem> popped;
    const size_t count = std::min(m_items.size(), size_t(std::max(1, max)));
    popped.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        popped.push_back(PoppedItem{std::move(m_items.front()), 0});
        m_items.pop_front();
        if (m_unique)
            m_set.remove(popped.back().data);
    }
    m_waits.roomMade();
    if (!m_items.empty())
        m_waits.itemAdded(); // another popper may take the rest
    return popped;
}

Status ChannelQueue::ack(const CancelToken &, const std::vector<PoppedItem> &)
{
    return Status::ok(); // nothing is kept for in-flight items in memory
}

Status ChannelQueue::release(const CancelToken &, const std::vector<PoppedItem> &items)
{
    std::lock_guard lock(m_mutex);
    // May exceed the capacity: giving items back must never fail or lose one.
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
        if (m_unique) {
            if (m_set.contains(it->data))
                continue; // an equal item was queued meanwhile
            m_set.insert(it->data);
        }
        m_items.push_front(it->data);
    }
    m_waits.itemsReturned();
    return Status::ok();
}

Result<bool> ChannelQueue::hasItem(const CancelToken &, const QByteArray &data)
{
    std::lock_guard lock(m_mutex);
    return m_unique && m_set.contains(data);
}

Result<qint64> ChannelQueue::len(const CancelToken &)
{
    std::lock_guard lock(m_mutex);
    return qint64(m_items.size());
}

Result<qint64> ChannelQueue::removeAll(const CancelToken &)
{
    std::lock_guard lock(m_mutex);
    const qint64 removed = qint64(m_items.size());
    m_items.clear();
    m_set.clear();
    m_waits.roomMade();
    return removed;
}

void ChannelQueue::close()
{
    std::lock_guard lock(m_mutex);
    m_waits.close();
}

Status DummyQueue::pushItem(const CancelToken &cancel, const QByteArray &)
{
    std::lock_guard lock(m_mutex);
    if (m_closed)
        return queueClosedStatus(QStringLiteral("dummy"));
    return cancel.isCancelled() ? cancel.cause() : Status::ok();
}

Result<std::vector<PoppedItem>> DummyQueue::popItems(const CancelToken &cancel, int,
                                                     std::optional<SteadyClock::time_point> until)
{
    std::unique_lock lock(m_mutex);
    if (until)
        cancel.waitUntil(m_closedChanged, lock, *until, [this] { return m_closed; });
    else
        cancel.wait(m_closedChanged, lock, [this] { return m_closed; });
    if (m_closed)
        return queueClosedStatus(QStringLiteral("dummy"));
    if (cancel.isCancelled())
        return cancel.cause();
    return std::vector<PoppedItem>();
}

void DummyQueue::close()
{
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_closedChanged.notify_all();
}

} // namespace Switchyard
