#include "dummyqueue.h"

#include "queuewaits.h"

namespace Switchyard {

Status DummyQueue::pushItem(const CancelToken &cancel, const QByteArray &)
{
    std::lock_guard lock(m_mutex);
    if (m_closed)
        return queueClosedStatus(QStringLiteral("dummy"));
    return cancel.isCancelled() ? cancel.cause() : Status::ok();
}

Result<std::vector<PoppedItem>> DummyQueue::popItems(const CancelToken &cancel, int,
                                                     std::optional<SteadyClock::time_point> until, int /*atLeast*/)
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
