#pragma once

#include <QString>

#include "engine/core/status.h"

#include <condition_variable>
#include <memory>
#include <mutex>
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
// arrived meanwhile, in one LevelDB write, in arrival order; the others wait for it briefly
// without sleeping (a write takes microseconds). A caller whose batch may wait for the next
// write (Later: an ack, a pop's head mark) leaves it for the next writer to carry in its own
// write, so a consumer's bookkeeping costs no write of its own while a producer writes anyway.
class LevelWriter
{
public:
    LevelWriter(leveldb::DB *db, const QString &name);
    ~LevelWriter();

    enum class Wait { UntilWritten, Later };
    // Writes `batch` (taken) after every batch submitted before it. UntilWritten: returns that
    // write's outcome. Later: returns at once, and the next write (or flush()) carries it; a
    // failure is logged (LevelDB fails every later write too, so callers see it). At most one
    // batch waits for a next write: a Later batch that finds one waiting is written with it now
    // (by this thread, or by the thread writing at the moment, in its next round).
    Status write(leveldb::WriteBatch &&batch, bool sync, Wait wait = Wait::UntilWritten);
    // Writes whatever waits (returns at once if another thread is writing: it writes them).
    // Called before a consumer sleeps and at close; the destructor flushes too.
    void flush();

private:
    struct Request;
    // Writes `first` (may be null) after what is pending, then what arrives meanwhile, in rounds;
    // requires m_leading, clears it. Returns the outcome of the write that carried `first`.
    Status lead(std::unique_lock<std::mutex> &lock, leveldb::WriteBatch *first, bool sync);
    static void awaitWritten(Request &request);

    leveldb::DB *const m_db;
    const QString m_what; // "queue <name> write", for errors
    std::mutex m_mutex;
    std::vector<std::shared_ptr<Request>> m_pending; // guarded by m_mutex
    bool m_leading = false;                          // guarded by m_mutex
};

} // namespace Switchyard
