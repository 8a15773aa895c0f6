#pragma once

#include "notice.h"
#include "status.h"

#include <QDateTime>
#include <QString>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace Switchyard {

// Where notices persist (the store's `notice` table). Called with the board's lock held, so rows
// get ids in the order the board shows them.
class NoticeJournal
{
public:
    virtual ~NoticeJournal() = default;
    virtual Result<qint64> insert(const SystemNotice &notice) = 0; // the new row's id
    virtual Result<std::vector<SystemNotice>> newest(std::size_t limit) = 0; // oldest first
    virtual Status remove(qint64 id) = 0;
    virtual Result<qint64> removeOlderThan(const QDateTime &cutoff) = 0; // rows deleted
};

// Thread-safe. Listeners run on the changing thread; they must be quick.
//
// In memory: the newest `capacity` notices. With a journal attached, every notice is also written
// to it (and keeps the journal's id), and attach() loads the newest ones back. A notice the
// journal cannot take is kept in memory only, with a negative id, and logged: never lost silently.
class NoticeBoard
{
public:
    using Listener = std::function<void(const NoticeChange &)>;

    explicit NoticeBoard(std::size_t capacity = 10000) : m_capacity(capacity) {}

    // Writes the notices added so far to `journal`, then shows the journal's newest. The journal
    // must outlive the board's use. Call before anyone listens. nullptr detaches (memory only).
    Status attach(NoticeJournal *journal);

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
    qint64 m_nextId = 0;                // guarded by m_mutex; memory-only ids count down from -1 once a journal is attached
    NoticeJournal *m_journal = nullptr; // guarded by m_mutex
    void tell(const std::vector<NoticeChange> &changes) const;

    std::map<qint64, Listener> m_listeners; // guarded by m_mutex
    qint64 m_nextListenerId = 0;            // guarded by m_mutex
};

} // namespace Switchyard
