#pragma once

// Internal to the queue folder: what the in-process backends (channel, level) share.

#include "basequeue.h"

#include "engine/core/spinmutex.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>

namespace Switchyard {

// Shared statuses, so every backend says the same thing.
Status queueClosedStatus(const QString &name);
Status queueFullStatus(const QString &name, qint64 capacity, std::chrono::milliseconds waited);

// The in-process backends' mutex: held briefly by a producer and the workers on other cores
// (#22: std::mutex put the producer to sleep on about one collision per batch).
using QueueMutex = SpinMutex;
using QueueLock = std::unique_lock<QueueMutex>;

// The blocking discipline of the in-process backends (channel, level): pushers wait for room up to
// pushBlockTime, poppers wait for items; both wake on close() and on their token. Every method
// requires the caller to hold the queue's mutex (passed as `lock` to the waits).
class QueueWaits
{
public:
    // ok when `hasRoom()` holds (at once or after waiting); else closed, the token's cause, or full.
    Status waitForRoom(QueueLock &lock, const CancelToken &cancel, const QString &name,
                       qint64 capacity, std::chrono::milliseconds pushBlockTime, const std::function<bool()> &hasRoom);
    // Returns when `count()` ≥ atLeast, the queue is closed, `until` passed or the token fired.
    void waitForItems(QueueLock &lock, const CancelToken &cancel,
                      std::optional<SteadyClock::time_point> until, const std::function<qsizetype()> &count,
                      qsizetype atLeast = 1);
    // `waiting` items are queued now: wakes a popper only when that meets what it waits for, so a
    // gatherer filling a batch is woken once per batch, not once per item.
    void itemAdded(qsizetype waiting);
    // itemAdded() in two halves, for a pusher: decide with the mutex held, wake after releasing
    // it, so the woken popper does not at once block on the mutex its waker still holds.
    enum class Wake { None, One, All };
    Wake wakeFor(qsizetype waiting) const;
    void wake(Wake which);
    void itemsReturned();  // wakes every waiting popper (released items, several at once)
    void roomMade();       // wakes waiting pushers
    void close();
    bool closed() const { return m_closed; }

private:
    std::condition_variable_any m_notEmpty;
    std::condition_variable_any m_notFull;
    int m_waitingPoppers = 0;
    std::multiset<qsizetype> m_needs; // what each waiting popper waits for
    int m_waitingPushers = 0;
    bool m_closed = false;
};

} // namespace Switchyard
