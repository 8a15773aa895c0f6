#include "notices.h"

#include "logging.h"

namespace Switchyard {

qint64 NoticeBoard::add(const QString &type, const QString &description)
{
    SystemNotice notice;
    std::vector<std::function<void(const SystemNotice &)>> listeners;
    listeners.reserve(4);
    {
        std::lock_guard lock(m_mutex);
        notice = SystemNotice{++m_nextId, type, description, QDateTime::currentDateTimeUtc()};
        m_notices.push_back(notice);
        while (m_notices.size() > m_capacity)
            m_notices.pop_front();
        for (const auto &[id, listener] : m_listeners)
            listeners.push_back(listener);
    }
    qCInfo(lcCore).noquote() << "notice [" << type << "]:" << description;
    for (const auto &listener : listeners)
        listener(notice);
    return notice.id;
}

std::vector<SystemNotice> NoticeBoard::list() const
{
    std::lock_guard lock(m_mutex);
    return std::vector<SystemNotice>(m_notices.rbegin(), m_notices.rend());
}

bool NoticeBoard::remove(qint64 id)
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_notices.begin(); it != m_notices.end(); ++it) {
        if (it->id == id) {
            m_notices.erase(it);
            return true;
        }
    }
    return false;
}

qint64 NoticeBoard::removeOlderThan(std::chrono::seconds age, const QDateTime &now)
{
    std::lock_guard lock(m_mutex);
    const QDateTime cutoff = now.addSecs(-age.count());
    qint64 removed = 0;
    while (!m_notices.empty() && m_notices.front().createdAt < cutoff) {
        m_notices.pop_front();
        ++removed;
    }
    return removed;
}

qint64 NoticeBoard::onAdded(std::function<void(const SystemNotice &)> listener)
{
    std::lock_guard lock(m_mutex);
    m_listeners.emplace(++m_nextListenerId, std::move(listener));
    return m_nextListenerId;
}

void NoticeBoard::removeListener(qint64 id)
{
    std::lock_guard lock(m_mutex);
    m_listeners.erase(id);
}

} // namespace Switchyard
