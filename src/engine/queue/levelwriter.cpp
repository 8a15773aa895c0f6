#include "levelwriter.h"

#include "queuelogging.h"

#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace Switchyard {

struct LevelWriter::Request
{
    leveldb::WriteBatch batch;
    bool sync = false;
    bool detached = false;       // Later: nobody waits, the leader logs a failure
    Status status;               // set before `done`
    std::atomic<bool> done = false;
};

LevelWriter::LevelWriter(leveldb::DB *db, const QString &name) : m_db(db), m_what(QStringLiteral("queue %1 write").arg(name)) {}

LevelWriter::~LevelWriter()
{
    flush();
}

Status fromLevel(const leveldb::Status &status, const QString &what)
{
    if (status.ok())
        return Status::ok();
    const QString message = QStringLiteral("%1: %2").arg(what, QString::fromStdString(status.ToString()));
    return status.IsCorruption() ? Status::corruption(message) : Status::unavailable(message);
}

Status LevelWriter::write(leveldb::WriteBatch &&batch, bool sync, Wait wait)
{
    std::unique_lock lock(m_mutex);
    const bool later = wait == Wait::Later && m_pending.empty();
    if (!later && !m_leading) {
        // Nobody writes: write at once (with what waits for the next write), then whatever
        // arrived meanwhile.
        m_leading = true;
        if (!m_pending.empty())
            return lead(lock, &batch, sync);
        // Alone (a producer in flow, every push): one write, no rounds.
        lock.unlock();
        leveldb::WriteOptions options;
        options.sync = sync;
        const leveldb::Status written = m_db->Write(options, &batch);
        lock.lock();
        if (m_pending.empty())
            m_leading = false;
        else
            lead(lock, nullptr, false);
        return written.ok() ? Status::ok() : fromLevel(written, m_what);
    }
    // Another thread writes (it takes this batch in its next round), or the next writer will.
    auto request = std::make_shared<Request>();
    request->batch = std::move(batch);
    request->sync = sync;
    request->detached = wait == Wait::Later;
    m_pending.push_back(request);
    if (request->detached)
        return Status::ok();
    lock.unlock();
    awaitWritten(*request);
    return request->status;
}

void LevelWriter::flush()
{
    std::unique_lock lock(m_mutex);
    if (m_leading || m_pending.empty())
        return; // the thread writing takes them in its next round
    m_leading = true;
    lead(lock, nullptr, false);
}

Status LevelWriter::lead(std::unique_lock<std::mutex> &lock, leveldb::WriteBatch *first, bool firstSync)
{
    Status firstStatus = Status::ok();
    std::vector<std::shared_ptr<Request>> round;
    while (first || !m_pending.empty()) {
        round.swap(m_pending);
        lock.unlock();
        leveldb::WriteOptions options;
        options.sync = first && firstSync;
        for (const std::shared_ptr<Request> &request : round)
            options.sync = options.sync || request->sync;
        leveldb::WriteBatch combined;
        leveldb::WriteBatch *batch = first;
        if (round.size() + (first ? 1 : 0) > 1) {
            for (const std::shared_ptr<Request> &request : round)
                combined.Append(request->batch);
            if (first)
                combined.Append(*first);
            batch = &combined;
        } else if (!first) {
            batch = &round.front()->batch;
        }
        const Status status = fromLevel(m_db->Write(options, batch), m_what);
        if (first) {
            firstStatus = status;
            first = nullptr;
        }
        for (const std::shared_ptr<Request> &request : round) {
            if (request->detached && !status)
                qCCritical(lcQueue).noquote() << status.message()
                                              << "(an ack or a pop's head mark; those items come back after a restart)";
            request->status = status;
            request->done.store(true, std::memory_order_release);
            request->done.notify_one();
        }
        round.clear();
        lock.lock();
    }
    m_leading = false;
    return firstStatus;
}

void LevelWriter::awaitWritten(Request &request)
{
    // A round is one LevelDB write: a few microseconds. Yield for about that long instead of
    // sleeping (a sleep and wake-up cost more here than the wait; yielding, not spinning, lets a
    // writer that shares this core finish), then block.
    const auto yieldUntil = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
    for (int i = 1; !request.done.load(std::memory_order_acquire); ++i) {
        if (i % 8 == 0 && std::chrono::steady_clock::now() >= yieldUntil) {
            request.done.wait(false, std::memory_order_acquire);
            break;
        }
        std::this_thread::yield();
    }
}

} // namespace Switchyard
