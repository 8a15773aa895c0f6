#pragma once

#include "notice.h"

#include <QDateTime>
#include <QString>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace Switchyard {

// Thread-safe. Listeners run on the changing thread; they must be quick.
class NoticeBoard
{
public:
    using Listener = std::function<void(const NoticeChange &)>;

    explicit NoticeBoard(std::size_t capacity = 10000) : m_capacity(capacity) {}

    qint64 add(const QString &type, const QString &description);
    std::vector<SystemNotice> list() const; // newest first
    bool remove(qint64 id);
    // Deletes notices older than `age`; returns how many.
    qint64 removeOlderThan(std::chrono::seconds age, const QDateTime &now = QDateTime::currentDateTimeUtc());
    // Returns an id for removeListener(). A call already under way when the listener is removed
    // may still run, on the adding thread: state it touches must outlive that (share it).
    qint64 listen(Listener listener);
    void removeListener(qint64 id);

private:
    const std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::deque<SystemNotice> m_notices; // guarded by m_mutex; oldest first
    qint64 m_nextId = 0;                // guarded by m_mutex
    void tell(const std::vector<NoticeChange> &changes) const;

    std::map<qint64, Listener> m_listeners; // guarded by m_mutex
    qint64 m_nextListenerId = 0;            // guarded by m_mutex
};

} // namespace Switchyard
