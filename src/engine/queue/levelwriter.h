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
// without sleeping (a write takes microseconds), and a caller that need not know when its batch
// landed (a pop: the moved entries survive a crash either way) does not wait at all.
class LevelWriter
{
public:
    LevelWriter(leveldb::DB *db, const QString &name);
    ~LevelWriter();

    enum class Wait { UntilWritten, No };
    // Writes `batch` (taken) after every batch submitted before it. UntilWritten: returns that
    // write's outcome. No: returns at once when another thread is writing — that thread writes
    // it, and a failure is logged (LevelDB fails every later write too, so callers see it).
    Status write(leveldb::WriteBatch &&batch, bool sync, Wait wait = Wait::UntilWritten);

private:
    struct Request;
    void lead(std::unique_lock<std::mutex> &lock); // writes what is pending, in rounds; requires m_leading
    static void awaitWritten(Request &request);

    leveldb::DB *const m_db;
    const QString m_what; // "queue <name> write", for errors
    std::mutex m_mutex;
    std::vector<std::shared_ptr<Request>> m_pending; // guarded by m_mutex
    bool m_leading = false;                          // guarded by m_mutex
};

} // namespace Switchyard
