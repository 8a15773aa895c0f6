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
    : m_db(db)
    , m_what(QStringLiteral("queue %1 write").arg(name))
    , m_round(std::make_unique<leveldb::WriteBatch>())
    , m_carry{std::make_unique<leveldb::WriteBatch>(), std::make_unique<leveldb::WriteBatch>()}
{
}

LevelWriter::~LevelWriter()
{
    flush();
    const std::lock_guard lock(m_mutex);
    if (m_carried > 0)  // failed, and never reopened
        qCCritical(lcQueue).noquote() << m_what << ": the database was not reopened after a failed write, so"
                                      << m_carried << "batch(es) of acks and pops' head marks are not written;"
                                      << "those items come back after a restart";
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

Status LevelWriter::failure() const
{
    const std::lock_guard lock(m_mutex);
    return m_failure;
}

void LevelWriter::suspend()
{
    std::unique_lock lock(m_mutex);
    Q_ASSERT(m_failed.load(std::memory_order_relaxed));
    // The thread writing finds the failure at its next round and stops: a write's time at most.
    while (m_leading) {
        lock.unlock();
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        lock.lock();
    }
    m_leading = true;
}

Status LevelWriter::resume(leveldb::DB *db, leveldb::WriteBatch *first)
{
    std::unique_lock lock(m_mutex);
    m_db = db;
    if (db) {
        m_failed.store(false, std::memory_order_relaxed);
        m_failure = Status::ok();
        m_flushing = true;  // the kept carry goes now, even alone
    }
    // Writes, or refuses (no database), what waited meanwhile.
    lead(lock, db ? first : nullptr, false);
    if (!m_failed.load(std::memory_order_relaxed))
        return Status::ok();
    return db ? m_failure : refusal();
}

Status LevelWriter::refusal() const
{
    return Status::unavailable(QStringLiteral("%1 refused until the database is reopened: an earlier write failed (%2)")
                                   .arg(m_what, m_failure.message()));
}

Status LevelWriter::lead(std::unique_lock<SpinMutex> &lock, leveldb::WriteBatch *first, bool firstSync)
{
    Status firstStatus = Status::ok();
    std::vector<std::shared_ptr<Request>> round;
    while (first || !m_pending.empty() ||
           (m_carried > 0 && (m_flushing || m_carried > 1) && !m_failed.load(std::memory_order_relaxed))) {
        if (m_failed.load(std::memory_order_relaxed)) {
            // Nothing more goes to this database: the carry waits for the reopened one.
            const Status refused = refusal();
            if (first)
                firstStatus = refused;
            first = nullptr;
            m_flushing = false;
            round.swap(m_pending);
            lock.unlock();
            answer(round, refused);
            lock.lock();
            continue;
        }
        // The carry goes first: its batches were submitted before `first` (which found nobody
        // writing) and before any request that waited for this round.
        const int at = m_carryAt;
        leveldb::WriteBatch &carry = *m_carry[at];
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
        leveldb::WriteBatch *batch = assemble(carry, carried, first, round);
        m_gate.lock();
        const leveldb::Status written = m_db->Write(options, batch);
        m_gate.unlock();
        const Status status = fromLevel(written, m_what);
        if (batch == m_round.get())
            m_round->Clear();
        if (status && carried > 0)
            carry.Clear();
        if (first) {
            firstStatus = status;
            first = nullptr;
        }
        if (!status) {
            qCCritical(lcQueue).noquote()
                << status.message() << "(nothing more is written to this database until it is reopened;" << carried
                << "batch(es) of acks and pops' head marks are kept for it)";
            lock.lock();
            fail(status, at, carried);  // before the callers learn of it: their next write is refused
            lock.unlock();
        }
        answer(round, status);
        lock.lock();
    }
    m_leading = false;
    return firstStatus;
}

leveldb::WriteBatch *LevelWriter::assemble(leveldb::WriteBatch &carry, int carried, leveldb::WriteBatch *first,
                                           const std::vector<std::shared_ptr<Request>> &round)
{
    if (carried == 0 && round.empty())
        return first;  // alone (a producer in flow): written as it is
    if (!first && round.empty())
        return &carry;  // a flush
    // Small batches: appending copies a few dozen bytes each. The carry is copied, not appended
    // to, so that a failed write leaves it as it was.
    leveldb::WriteBatch &batch = *m_round;
    if (carried > 0)
        batch.Append(carry);
    if (first)
        batch.Append(*first);
    for (const std::shared_ptr<Request> &request : round)
        batch.Append(request->batch);
    return &batch;
}

void LevelWriter::fail(const Status &status, int at, int carried)
{
    m_failed.store(true, std::memory_order_relaxed);
    m_failure = status;
    if (carried > 0) {
        // The failed round's Later batches were submitted before those carried since: in front.
        leveldb::WriteBatch &kept = *m_carry[at];
        kept.Append(*m_carry[m_carryAt]);
        m_carry[m_carryAt]->Clear();
        m_carryAt = at;
        m_carried += carried;
    }
}

void LevelWriter::answer(std::vector<std::shared_ptr<Request>> &round, const Status &status)
{
    for (const std::shared_ptr<Request> &request : round) {
        request->status = status;
        request->done.store(true, std::memory_order_release);
        request->done.notify_one();
    }
    round.clear();
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
