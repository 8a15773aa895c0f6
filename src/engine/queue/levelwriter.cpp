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
    Status status;               // set before `done`
    std::atomic<bool> done = false;
};

LevelWriter::LevelWriter(leveldb::DB *db, const QString &name)
    : m_db(db), m_what(QStringLiteral("queue %1 write").arg(name)),
      m_carry{std::make_unique<leveldb::WriteBatch>(), std::make_unique<leveldb::WriteBatch>()}
{
}

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
    if (wait == Wait::Later) {
        m_carry[m_carryAt]->Append(batch);
        if (++m_carried == 1 || m_leading)
            return Status::ok(); // the next write carries it, or the leader's next round
        m_leading = true;        // a second one waits: both go now
        m_flushing = true;
        return lead(lock, nullptr, false);
    }
    if (!m_leading) {
        // Nobody writes: write at once, with the carry, then whatever arrives meanwhile.
        m_leading = true;
        return lead(lock, &batch, sync);
    }
    // Another thread writes: it takes this batch in its next round.
    auto request = std::make_shared<Request>();
    request->batch = std::move(batch);
    request->sync = sync;
    m_pending.push_back(request);
    lock.unlock();
    awaitWritten(*request);
    return request->status;
}

void LevelWriter::flush()
{
    std::unique_lock lock(m_mutex);
    if (m_carried == 0)
        return;
    m_flushing = true;
    if (m_leading)
        return; // the thread writing takes it in its next round
    m_leading = true;
    lead(lock, nullptr, false);
}

Status LevelWriter::lead(std::unique_lock<SpinMutex> &lock, leveldb::WriteBatch *first, bool firstSync)
{
    Status firstStatus = Status::ok();
    std::vector<std::shared_ptr<Request>> round;
    while (first || !m_pending.empty() || (m_carried > 0 && (m_flushing || m_carried > 1))) {
        // The carry goes first: its batches were submitted before `first` (which found nobody
        // writing) and before any request that waited for this round.
        leveldb::WriteBatch &carry = *m_carry[m_carryAt];
        const int carried = m_carried;
        m_carryAt ^= 1;
        m_carried = 0;
        m_flushing = false;
        round.swap(m_pending);
        lock.unlock();
        leveldb::WriteOptions options;
        options.sync = first && firstSync;
        for (const std::shared_ptr<Request> &request : round)
            options.sync = options.sync || request->sync;
        leveldb::WriteBatch *batch = first; // alone (a producer in flow): written as it is
        if (carried > 0 || !first || !round.empty()) {
            // Small batches: appending copies a few dozen bytes each.
            if (first)
                carry.Append(*first);
            for (const std::shared_ptr<Request> &request : round)
                carry.Append(request->batch);
            batch = &carry;
        }
        m_gate.lock();
        const leveldb::Status written = m_db->Write(options, batch);
        m_gate.unlock();
        const Status status = fromLevel(written, m_what);
        carry.Clear();
        if (first) {
            firstStatus = status;
            first = nullptr;
        }
        if (carried > 0 && !status)
            qCCritical(lcQueue).noquote() << status.message() << "(acks or pops' head marks; those items come back after a restart)";
        for (const std::shared_ptr<Request> &request : round) {
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
