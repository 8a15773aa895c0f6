#pragma once

#include <QString>

#include "engine/core/spinmutex.h"
#include "engine/core/status.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace leveldb {
class DB;
class Status;
class WriteBatch;
} // namespace leveldb

namespace Switchyard {

// A LevelDB outcome as ours: "<what>: <LevelDB's words>", Corruption or Unavailable.
Status fromLevel(const leveldb::Status &status, const QString &what);

// Group commit for one LevelDB database, shared by the threads that write to it (a queue's
// producers and workers). LevelDB serialises writers itself, but a writer that arrives while
// another writes sleeps on a condition variable, and on a small machine that sleep and wake-up
// cost several times the write. Here the first arrival writes its batch and every batch that
// arrived meanwhile, in one LevelDB write; the others wait for it briefly without sleeping (a
// write takes microseconds). A caller whose batch may wait for the next write (Later: an ack, a
// pop's head mark) leaves it in the carry, which the next write takes ahead of its own batch, so
// a consumer's bookkeeping costs no write, and no allocation, while a producer writes anyway.
//
// A failed write (a full disk) ends the writing to this database handle. LevelDB 1.23 leaves the
// torn record in its log and counts it as written: the next record would land at an offset the
// log's reader does not expect, and the next recovery would drop it with the rest of its block.
// So from the failure on every write is refused (failed(); the caller whose write failed gets
// LevelDB's error, later callers the refusal), and the Later batches — the failed write's and
// those that come since — are kept, until the owner reopens the database: suspend(), then
// resume() with the new handle, which writes them first. (LevelDB's recovery ignores a torn
// record at the very end of a log, and starts a new log.) Thread-safe.
class LevelWriter
{
public:
    LevelWriter(leveldb::DB *db, const QString &name);
    ~LevelWriter();  // writes the carry, unless failed (then it is lost, and logged)

    enum class Wait { UntilWritten, Later };
    // Writes `batch` (taken) after every batch submitted before it. UntilWritten: returns that
    // write's outcome (Unavailable while failed()). Later: returns at once, and the next write (or
    // flush()) carries it; a failed write keeps it for the reopened database. At most one Later
    // batch waits for a next write: a second one is written with it now (by this thread, or by
    // the thread writing at the moment, in its next round). Later batches are never synced.
    Status write(leveldb::WriteBatch &&batch, bool sync, Wait wait = Wait::UntilWritten);
    // Writes the carry (returns at once if another thread is writing: it writes it).
    // Called before a consumer sleeps and at close; the destructor flushes too.
    void flush();

    // Whether a write failed since the database was opened: writes are refused until resume().
    // A relaxed read, for the hot paths; it changes under the writer's lock.
    bool failed() const { return m_failed.load(std::memory_order_relaxed); }
    // The write that failed ("<name> write: IO error: <file>: No space left on device"); ok when
    // none did.
    Status failure() const;
    // Holds every write off until resume(): returns once none is under way, and then none starts
    // (an UntilWritten write meanwhile waits for resume(); a Later batch is kept). Requires
    // failed(). For the owner, which closes the database meanwhile: the writer does not call
    // LevelDB until resume().
    void suspend();
    // Ends suspend(). `db` null: the database could not be reopened; the writer stays failed and
    // refuses what waited. Else writes go to `db` from now: the kept Later batches, `first` (may be
    // null) and what waited are written at once. Returns ok when the writer writes again; else
    // the failure (again) or the refusal.
    Status resume(leveldb::DB *db, leveldb::WriteBatch *first);

    // Runs `call` — LevelDB calls that take the database's own mutex: an iterator's creation and
    // destruction, a Get — while no write is under way. LevelDB's mutex sleeps on the first
    // collision, and a producer that slept there waited for a wake-up of an idle core, some
    // tens of microseconds (#22: one push in 200). A reader here yields while a write is under
    // way, for about the time a write takes; then it sleeps on the gate (a write that waits for
    // LevelDB's compaction can take milliseconds, which it must not spend spinning beside it).
    template<typename Call>
    decltype(auto) betweenWrites(Call &&call)
    {
        for (int i = 0; !m_gate.try_lock(); ++i) {
            if (i == kGateYields) {
                m_gate.lock();
                break;
            }
            std::this_thread::yield();
        }
        const std::unique_lock gate(m_gate, std::adopt_lock);
        return call();
    }

private:
    static constexpr int kGateYields = 64; // a few tens of microseconds
    struct Request;
    // Writes the carry and `first` (may be null), then what arrives meanwhile, in rounds; a
    // lone Later batch left in the carry waits unless flushing. While failed, writes nothing:
    // refuses `first` and the waiting requests. Requires m_leading, clears it. Returns the
    // outcome of the write that carried `first`.
    Status lead(std::unique_lock<SpinMutex> &lock, leveldb::WriteBatch *first, bool sync);
    // One round's batch: `first` alone, or the carry (`carried` batches in it), or m_round.
    leveldb::WriteBatch *assemble(leveldb::WriteBatch &carry, int carried, leveldb::WriteBatch *first,
                                  const std::vector<std::shared_ptr<Request>> &round);
    // After a failed round: refuses writes from now on, and puts the round's carry (m_carry[at],
    // `carried` batches) back in front of what was carried since. Requires m_mutex.
    void fail(const Status &status, int at, int carried);
    Status refusal() const;  // requires m_mutex
    static void answer(std::vector<std::shared_ptr<Request>> &round, const Status &status);
    static void awaitWritten(Request &request);

    // Read by the leader only (m_leading); replaced by resume() while suspended.
    leveldb::DB *m_db;
    const QString m_what; // "queue <name> write", for errors
    mutable SpinMutex m_mutex;  // the producer takes it twice per push: held for a few instructions
    SpinMutex m_gate;     // held by the thread calling LevelDB's Write, and around betweenWrites()
    std::atomic<bool> m_failed = false;  // written under m_mutex
    Status m_failure;                    // guarded by m_mutex; the write that failed
    // The leader's: a round's batches appended to a copy of the carry, so that a failed round
    // leaves the carry as it was (for the reopened database).
    const std::unique_ptr<leveldb::WriteBatch> m_round;
    // Later batches in submission order; two buffers, so the leader writes one without the lock
    // while the other collects (each keeps its allocation).
    std::unique_ptr<leveldb::WriteBatch> m_carry[2]; // guarded by m_mutex
    int m_carryAt = 0;                               // guarded by m_mutex; the one collecting
    int m_carried = 0;                               // guarded by m_mutex; batches in it
    bool m_flushing = false;                         // guarded by m_mutex; write a lone carry too
    std::vector<std::shared_ptr<Request>> m_pending; // guarded by m_mutex; UntilWritten, while leading
    bool m_leading = false;                          // guarded by m_mutex
};

} // namespace Switchyard
