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
    bool detached = false;       // nobody waits: the leader logs a failure
    Status status;               // set before `done`
    std::atomic<bool> done = false;
};

LevelWriter::LevelWriter(leveldb::DB *db, const QString &name) : m_db(db), m_what(QStringLiteral("queue %1 write").arg(name)) {}

LevelWriter::~LevelWriter() = default;

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
    if (!m_leading) {
        // Nobody writes: write at once, then whatever arrived meanwhile.
        m_leading = true;
        lock.unlock();
        leveldb::WriteOptions options;
        options.sync = sync;
        const Status status = fromLevel(m_db->Write(options, &batch), m_what);
        lock.lock();
        lead(lock);
        return status;
    }
    // Another thread writes: it takes this batch in its next round.
    auto request = std::make_shared<Request>();
    request->batch = std::move(batch);
    request->sync = sync;
    request->detached = wait == Wait::No;
    m_pending.push_back(request);
    if (request->detached)
        return Status::ok();
    lock.unlock();
    awaitWritten(*request);
    return request->status;
}

void LevelWriter::lead(std::unique_lock<std::mutex> &lock)
{
    std::vector<std::shared_ptr<Request>> round;
    while (!m_pending.empty()) {
        round.swap(m_pending);
        lock.unlock();
        leveldb::WriteOptions options;
        leveldb::WriteBatch combined;
        leveldb::WriteBatch *batch = &round.front()->batch;
        if (round.size() > 1) {
            for (const std::shared_ptr<Request> &request : round) {
                combined.Append(request->batch);
                options.sync = options.sync || request->sync;
            }
            batch = &combined;
        } else {
            options.sync = round.front()->sync;
        }
        const Status status = fromLevel(m_db->Write(options, batch), m_what);
        for (const std::shared_ptr<Request> &request : round) {
            if (request->detached && !status)
                qCCritical(lcQueue).noquote() << status.message()
                                              << "(a pop's move to the in-flight area; its items stay queued on disk and come back after a restart)";
            request->status = status;
            request->done.store(true, std::memory_order_release);
            request->done.notify_one();
        }
        round.clear();
        lock.lock();
    }
    m_leading = false;
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
