#include "notices.h"

#include "logging.h"

namespace Switchyard {

Status NoticeBoard::attach(NoticeJournal *journal)
{
    std::lock_guard lock(m_mutex);
    if (!journal) {
        m_journal = nullptr;
        return Status::ok();
    }
    for (const SystemNotice &early : m_notices) {
        if (Result<qint64> id = journal->insert(early); !id)
            return id.status();
    }
    Result<std::vector<SystemNotice>> newest = journal->newest(m_capacity);
    if (!newest)
        return newest.status();
    m_notices.assign(newest->begin(), newest->end());
    m_journal = journal;
    m_nextId = 0;
    return Status::ok();
}

qint64 NoticeBoard::add(const QString &type, const QString &description)
{
    std::vector<NoticeChange> changes;
    SystemNotice notice;
    {
        std::lock_guard lock(m_mutex);
        notice = SystemNotice{0, type, description, QDateTime::currentDateTimeUtc()};
        if (m_journal) {
            if (Result<qint64> id = m_journal->insert(notice)) {
                notice.id = *id;
            } else {
                notice.id = --m_nextId;
                qCWarning(lcCore).noquote() << "notice kept in memory only (id" << notice.id << "):" << id.status().message();
            }
        } else {
            notice.id = ++m_nextId;
        }
        m_notices.push_back(notice);
        while (m_notices.size() > m_capacity) {
            changes.push_back({NoticeChange::Kind::Removed, m_notices.front()});
            m_notices.pop_front();
        }
    }
    qCInfo(lcCore).noquote() << "notice [" << type << "]:" << description;
    changes.push_back({NoticeChange::Kind::Added, notice});
    tell(changes);
    return notice.id;
}

void NoticeBoard::tell(const std::vector<NoticeChange> &changes) const
{
    if (changes.empty())
        return;
    std::vector<Listener> listeners;
    {
        std::lock_guard lock(m_mutex);
        for (const auto &[id, listener] : m_listeners)
            listeners.push_back(listener);
    }
    for (const NoticeChange &change : changes) {
        for (const Listener &listener : listeners)
            listener(change);
    }
}

std::vector<SystemNotice> NoticeBoard::list() const
{
    std::lock_guard lock(m_mutex);
    return std::vector<SystemNotice>(m_notices.rbegin(), m_notices.rend());
}

bool NoticeBoard::remove(qint64 id)
{
    std::vector<NoticeChange> changes;
    {
        std::lock_guard lock(m_mutex);
        if (m_journal && id > 0) {
            if (Status removed = m_journal->remove(id); !removed)
                qCWarning(lcCore).noquote() << "notice" << id << "removed from memory but not from the store:" << removed.message();
        }
        for (auto it = m_notices.begin(); it != m_notices.end(); ++it) {
            if (it->id == id) {
                changes.push_back({NoticeChange::Kind::Removed, *it});
                m_notices.erase(it);
                break;
            }
        }
    }
    tell(changes);
    return !changes.empty();
}

qint64 NoticeBoard::removeOlderThan(std::chrono::seconds age, const QDateTime &now)
{
    std::vector<NoticeChange> changes;
    qint64 removedStored = -1;
    {
        std::lock_guard lock(m_mutex);
        const QDateTime cutoff = now.addSecs(-age.count());
        if (m_journal) {
            if (Result<qint64> removed = m_journal->removeOlderThan(cutoff))
                removedStored = *removed;
            else
                qCWarning(lcCore).noquote() << "old notices not removed from the store:" << removed.status().message();
        }
        while (!m_notices.empty() && m_notices.front().createdAt < cutoff) {
            changes.push_back({NoticeChange::Kind::Removed, m_notices.front()});
            m_notices.pop_front();
        }
    }
    tell(changes);
    // The store holds more than memory shows: its count is the one that matters.
    return std::max(removedStored, qint64(changes.size()));
}

qint64 NoticeBoard::listen(Listener listener)
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
