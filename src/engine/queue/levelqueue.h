#pragma once

#include "basequeue.h"
#include "levelwriter.h"
#include "queuewaits.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace leveldb {
class DB;
}

namespace Switchyard {

// Persistent queue in a LevelDB directory (seed 000 §10.2.3), improved on Gitea's levelqueue
// (gitea#24912): every change is one atomic WriteBatch, and head/tail are recomputed from the
// stored keys at open instead of trusted from counters.
//
// Key layout: 'q' + big-endian seq → item; 'h' → the head mark (big-endian seq: every 'q' key
// below it was popped); 'u' + item → "" (unique membership). A push writes its item once; a pop
// only moves the mark (#22: it used to move the item to an in-flight key); an ack deletes the
// item. So the keys from the mark on are the waiting items, contiguous (gaps are items a damaged
// log lost), and the keys below it are in flight or released. At open every key below the mark
// goes back to the front of the queue, oldest first: the previous run crashed or was stopped
// while handling it. Thread-safe.
//
// A full disk (any failed write): the writer refuses every write from then on (LevelWriter: the
// log LevelDB would go on appending to is torn), and the queue reopens its database — closes it
// and opens it again: LevelDB's recovery ignores the torn record at the end of the old log and
// starts a new one — once a write, pop or ack finds the writer failed, at most every
// levelReopenInterval, and only when the disk has room for what recovery writes (levelopen.cpp).
// Until then pushes fail Unavailable, naming the queue, its directory and the failed write; pops
// of a simple queue go on (their head marks and the acks wait in the writer); a unique queue's
// pops, SYNC acks, releases of a unique queue and removeAll fail too. The state in memory (head,
// tail, front, window, waits) stays authoritative throughout: the reopened database holds what
// was written, plus what the writer kept. Threads: whoever finds the writer failed reopens, with
// m_mutex held throughout and no push, pop or peek under way (they use m_db without the lock).
class LevelQueue final : public BaseQueue
{
public:
    // Opens (creating) `directory`, retrying levelOpenAttempts × levelOpenInterval only while
    // another process holds its lock; any other failure (permissions, corruption) fails at once.
    // Items LevelDB lost while recovering a damaged log are counted (corruptDropped()), the
    // sequence is closed up, and `reportDamage` is told once (and again if a reopen after a
    // failed write finds damage).
    static Result<std::unique_ptr<LevelQueue>> open(const CancelToken &cancel, QString name, const QString &directory,
                                                    int capacity, bool unique, bool sync, QueueTiming timing,
                                                    QueueDamageReporter reportDamage = {});
    ~LevelQueue() override;

    QString type() const override { return QStringLiteral("level"); }
    bool isUnique() const override { return m_unique; }
    Status pushItem(const CancelToken &cancel, const QByteArray &data) override;
    Status pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items) override;
    Result<std::vector<PoppedItem>> popItems(const CancelToken &cancel, int max,
                                             std::optional<SteadyClock::time_point> until, int atLeast = 1) override;
    Status ack(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Status release(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Result<bool> hasItem(const CancelToken &cancel, const QByteArray &data) override;
    Result<qint64> len(const CancelToken &cancel) override;
    Result<qint64> removeAll(const CancelToken &cancel) override;
    Result<std::vector<PeekedItem>> peek(const CancelToken &cancel, qint64 offset, int limit) override;
    void close() override;

    // Items that were in flight when the queue was opened and went back to the queue.
    qint64 recoveredAtOpen() const { return m_recovered; }
    // Stored entries that could not be read and were dropped (counted, logged).
    qint64 corruptDropped() const override;

    class RecoveryLog; // LevelDB's info log, read for what recovery dropped

private:
    LevelQueue(QString name, QString directory, std::unique_ptr<RecoveryLog> log, std::unique_ptr<leveldb::DB> db,
               int capacity, bool unique, bool sync, QueueTiming timing, QueueDamageReporter reportDamage);
    // Puts in-flight items back, and closes gaps left by items a damaged log lost (counted).
    // Returns the number of lost items found.
    Result<qint64> recover();
    // After a failed write (m_writer->failed()): reopens the database if the last attempt is
    // levelReopenInterval old and the disk has room. Ok when the writer writes again; else why
    // not (refusal()). Requires m_mutex, and that the caller holds no push or pop turn: it may
    // let the lock go while it waits for the push, pop and peeks under way (levelopen.cpp).
    Status repair(QueueLock &lock);
    Status reopen();           // requires m_mutex, no push, pop or peek under way
    Status probeRoom() const;  // whether the disk has room for LevelDB's recovery
    Status refusal() const;    // requires m_mutex: why writes are refused
    // A failed push's keys (the entries m_tail..tail-1, and a unique queue's memberships), which
    // the reopen deletes. Requires m_mutex.
    void forgetPush(quint64 tail, const QByteArray *items);
    // Through m_writer (group commit); `batch` is a leveldb::WriteBatch, taken.
    Status write(void *batch, bool sync, LevelWriter::Wait wait = LevelWriter::Wait::UntilWritten);
    // A push: waits for room and for its turn (one push writes at a time); writes the entries
    // m_tail..tail-1 without the lock and publishes them (returns unlocked); or gives the turn up.
    Status claimPush(QueueLock &lock, const CancelToken &cancel);
    Status commitPush(QueueLock &lock, void *batch, quint64 tail, const QByteArray *items);
    // The window (m_timing.levelWindowBytes): keeps `items` (count = tail - m_tail, the entries
    // a push wrote at m_tail), dropping the oldest beyond the budget. Requires m_mutex.
    void keep(const QByteArray *items, quint64 count);
    // Takes the window's oldest item (m_windowFrom moves past it). Requires m_mutex.
    QByteArray takeWindowFront();
    static qsizetype windowCost(const QByteArray &item); // its share of levelWindowBytes
    void endPush(QueueLock &lock);
    qsizetype waiting() const; // requires m_mutex
    // Waits on m_idle until `done()`; the push and pop that end notify only when someone waits
    // (condition_variable_any's notify takes a mutex of its own: not on every push).
    template<typename Done>
    void awaitIdle(QueueLock &lock, Done done)
    {
        ++m_idleWaiters;
        m_idle.wait(lock, done);
        --m_idleWaiters;
    }

    const QString m_name;
    const QString m_directory;
    std::unique_ptr<RecoveryLog> m_log; // outlives m_db, which writes to it
    // Replaced by reopen() (m_mutex held, no push, pop or peek under way, the writer suspended);
    // null while a reopen failed (then m_writer->failed()). Used without the lock by the push
    // and pop holding their turn (m_pushBusy, m_popBusy) and by peeks (m_readers).
    std::unique_ptr<leveldb::DB> m_db;
    std::unique_ptr<LevelWriter> m_writer; // every write goes through it
    const qsizetype m_capacity;
    const bool m_unique;
    const bool m_sync;
    const QueueTiming m_timing;
    const QueueDamageReporter m_reportDamage;
    qint64 m_recovered = 0;

    mutable QueueMutex m_mutex;
    QueueWaits m_waits;         // guarded by m_mutex
    quint64 m_head = 0;         // guarded by m_mutex
    quint64 m_tail = 0;         // guarded by m_mutex
    // Keys below the head that wait again, in pop order: released items, and at open the items
    // that were in flight. Popped before the head's.
    std::deque<quint64> m_front; // guarded by m_mutex
    // The newest waiting items also in memory: the entries m_windowFrom .. m_tail-1 (a pop takes
    // them without reading LevelDB). m_head <= m_windowFrom; about m_windowBytes bytes.
    std::deque<QByteArray> m_window; // guarded by m_mutex
    quint64 m_windowFrom = 0;        // guarded by m_mutex
    qsizetype m_windowBytes = 0;     // guarded by m_mutex
    // A popper short of items polls m_spinReady without the lock before it sleeps; a push that
    // brings the waiting items to m_spinNeed raises it. Both written under m_mutex. They have a
    // cache line of their own: a push writes the fields around them twice, and each of those
    // writes would take the line from the polling core and send it back (#22: measured with
    // queue_bench; the one-worker single-push row rose from 63 % to 83 – 84 % in the next runs).
    alignas(64) std::atomic<qsizetype> m_spinNeed = std::numeric_limits<qsizetype>::max();
    std::atomic<bool> m_spinReady = false;
    alignas(64) qint64 m_corrupt = 0; // guarded by m_mutex
    // The writes happen without the lock, so a push and a pop do not wait for each other's disk
    // write: a push writes at m_tail and publishes by moving m_tail; a pop of a non-unique queue
    // reserves its keys (front, then head..head+n), then reads them and writes the new mark. One
    // push and one pop at a time; removeAll, and release in a unique queue, wait for both.
    bool m_pushBusy = false;    // guarded by m_mutex
    bool m_popBusy = false;     // guarded by m_mutex
    std::condition_variable_any m_idle;  // a push or pop finished writing, or a peek reading
    int m_idleWaiters = 0;              // guarded by m_mutex
    int m_readers = 0;                  // guarded by m_mutex; peeks reading m_db without the lock
    // After a failed write (levelopen.cpp).
    SteadyClock::time_point m_nextReopen;  // guarded by m_mutex; no attempt before it
    Status m_reopenFailure;                // guarded by m_mutex; why the last attempt did not reopen
    std::vector<std::string> m_unwritten;  // guarded by m_mutex; forgetPush()'s keys
};

} // namespace Switchyard
