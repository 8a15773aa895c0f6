#pragma once

#include <QString>

#include "engine/core/spinmutex.h"
#include "engine/core/status.h"

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
class LevelWriter
{
public:
    LevelWriter(leveldb::DB *db, const QString &name);
    ~LevelWriter();

    enum class Wait { UntilWritten, Later };
    // Writes `batch` (taken) after every batch submitted before it. UntilWritten: returns that
    // write's outcome. Later: returns at once, and the next write (or flush()) carries it; a
    // failure is logged (LevelDB fails every later write too, so callers see it). At most one
    // Later batch waits for a next write: a second one is written with it now (by this thread,
    // or by the thread writing at the moment, in its next round). Later batches are never synced.
    Status write(leveldb::WriteBatch &&batch, bool sync, Wait wait = Wait::UntilWritten);
    // Writes the carry (returns at once if another thread is writing: it writes it).
    // Called before a consumer sleeps and at close; the destructor flushes too.
    void flush();

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
    // lone Later batch left in the carry waits unless flushing. Requires m_leading, clears it.
    // Returns the outcome of the write that carried `first`.
    Status lead(std::unique_lock<SpinMutex> &lock, leveldb::WriteBatch *first, bool sync);
    static void awaitWritten(Request &request);

    leveldb::DB *const m_db;
    const QString m_what; // "queue <name> write", for errors
    SpinMutex m_mutex;    // the producer takes it twice per push: held for a few instructions
    SpinMutex m_gate;     // held by the thread calling LevelDB's Write, and around betweenWrites()
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
