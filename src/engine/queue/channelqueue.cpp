#include "channelqueue.h"

namespace Switchyard {

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
    const QueueWaits::Wake wake = m_waits.wakeFor(qsizetype(m_items.size()));
    lock.unlock();
    m_waits.wake(wake);
    return Status::ok();
}

Status ChannelQueue::pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items)
{
    // One lock for as many as there is room for, then wait for room for the rest.
    std::unique_lock lock(m_mutex);
    size_t next = 0;
    qsizetype accepted = 0;
    while (next < items.size()) {
        if (Status room = m_waits.waitForRoom(lock, cancel, m_name, m_capacity, m_timing.pushBlockTime,
                                              [&] { return qsizetype(m_items.size()) < m_capacity; });
            !room)
            return Status(room.code(), QStringLiteral("%1 (%2 of %3 item(s) accepted)").arg(room.message()).arg(accepted).arg(items.size()));
        for (; next < items.size() && qsizetype(m_items.size()) < m_capacity; ++next) {
            if (m_unique && m_set.contains(items[next]))
                continue; // queued already: skipped, as callers swallow AlreadyInQueue
            m_items.push_back(items[next]);
            if (m_unique)
                m_set.insert(items[next]);
            ++accepted;
        }
        const QueueWaits::Wake wake = m_waits.wakeFor(qsizetype(m_items.size()));
        lock.unlock();
        m_waits.wake(wake);
        lock.lock();
    }
    return Status::ok();
}

Result<std::vector<PoppedItem>> ChannelQueue::popItems(const CancelToken &cancel, int max,
                                                       std::optional<SteadyClock::time_point> until, int atLeast)
{
    std::unique_lock lock(m_mutex);
    m_waits.waitForItems(lock, cancel, until, [&] { return qsizetype(m_items.size()); }, atLeast);
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
        m_waits.itemAdded(qsizetype(m_items.size())); // another popper may take the rest
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

Result<std::vector<PeekedItem>> ChannelQueue::peek(const CancelToken &, qint64 offset, int limit)
{
    std::lock_guard lock(m_mutex);
    std::vector<PeekedItem> items;
    for (qint64 i = std::max<qint64>(offset, 0); i < qint64(m_items.size()) && qint64(items.size()) < limit; ++i)
        items.push_back(PeekedItem{i, m_items[std::size_t(i)], QDateTime()});
    return items;
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

} // namespace Switchyard
