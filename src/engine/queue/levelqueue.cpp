// The LevelDB queue's pushes, pops and acks. Any thread; levelqueue.h says what m_mutex guards and
// who uses the database without it. Opening, and reopening after a failed write: levelopen.cpp.
#include "levelqueue.h"

#include "channelqueue.h"
#include "levelkeys.h"
#include "queuelogging.h"

#include <QScopeGuard>
#include <QSet>

#include <algorithm>
#include <thread>

#include <leveldb/db.h>
#include <leveldb/write_batch.h>

namespace Switchyard {

using namespace LevelKeys;

namespace {

// What an item in the window costs beside its bytes, about: the QByteArray, its header, the
// allocator's.
constexpr qsizetype kEntryCost = 48;

} // namespace

Status LevelQueue::write(void *batch, bool sync, LevelWriter::Wait wait)
{
    return m_writer->write(std::move(*static_cast<leveldb::WriteBatch *>(batch)), sync, wait);
}

qsizetype LevelQueue::waiting() const
{
    return qsizetype(m_front.size()) + qsizetype(m_tail - m_head);
}

Status LevelQueue::claimPush(QueueLock &lock, const CancelToken &cancel)
{
    if (!m_pushBusy && !m_waits.closed() && waiting() < m_capacity &&
        !m_writer->failed()) {  // the usual case, without the waits' machinery
        m_pushBusy = true;
        return Status::ok();
    }
    while (true) {
        if (m_writer->failed() && !m_waits.closed()) {
            if (Status usable = repair(lock); !usable)
                return usable;
            continue;  // the lock may have been let go: look again
        }
        if (Status room = m_waits.waitForRoom(lock, cancel, m_name, m_capacity, m_timing.pushBlockTime,
                                              [&] { return waiting() < m_capacity; });
            !room)
            return room;
        if (!m_pushBusy) {
            m_pushBusy = true;
            return Status::ok();
        }
        awaitIdle(lock, [this] { return !m_pushBusy; }); // another push is writing: a write's time
    }
}

void LevelQueue::endPush(QueueLock &)
{
    m_pushBusy = false;
    if (m_idleWaiters > 0)
        m_idle.notify_all();
}

qsizetype LevelQueue::windowCost(const QByteArray &item)
{
    return item.size() + kEntryCost;
}

QByteArray LevelQueue::takeWindowFront()
{
    QByteArray item = std::move(m_window.front());
    m_window.pop_front();
    m_windowBytes -= windowCost(item);
    ++m_windowFrom;
    return item;
}

void LevelQueue::keep(const QByteArray *items, quint64 count)
{
    if (m_windowFrom + m_window.size() != m_tail) { // nothing kept since a removeAll or the open
        m_window.clear();
        m_windowFrom = m_tail;
        m_windowBytes = 0;
    }
    for (quint64 i = 0; i < count; ++i) {
        // A copy shares the caller's bytes, unless they are not the caller's to share (raw data).
        QByteArray &item = m_window.emplace_back(items[i]);
        if (!item.data_ptr().isMutable())
            item = QByteArray(items[i].constData(), items[i].size());
        m_windowBytes += windowCost(item);
    }
    while (m_windowBytes > m_timing.levelWindowBytes && !m_window.empty())
        takeWindowFront();
}

Status LevelQueue::commitPush(QueueLock &lock, void *batch, quint64 tail, const QByteArray *items)
{
    // Entries at m_tail and above are invisible to pops until m_tail moves: written without
    // the lock, so pops (and their writes) go on meanwhile.
    lock.unlock();
    const Status written = write(batch, m_sync);
    lock.lock();
    endPush(lock);
    if (!written) {
        forgetPush(tail, items);
        return written;
    }
    keep(items, tail - m_tail);
    m_tail = tail;
    if (waiting() >= m_spinNeed.load(std::memory_order_relaxed))
        m_spinReady.store(true, std::memory_order_relaxed);
    const QueueWaits::Wake wake = m_waits.wakeFor(waiting());
    lock.unlock();
    m_waits.wake(wake); // after unlocking: the woken popper does not block at once on our lock
    return Status::ok();
}

Status LevelQueue::pushItem(const CancelToken &cancel, const QByteArray &data)
{
    std::unique_lock lock(m_mutex);
    std::string ignored;
    auto queued = [&] { return m_unique && m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored).ok(); };
    if (!m_waits.closed() && !m_writer->failed() && queued())  // failed: m_db may be null; claimPush() says why
        return Status::alreadyExists(QStringLiteral("item already in queue %1").arg(m_name));
    if (Status claimed = claimPush(lock, cancel); !claimed)
        return claimed;
    if (queued()) { // pushed by someone else while we waited
        endPush(lock);
        return Status::alreadyExists(QStringLiteral("item already in queue %1").arg(m_name));
    }
    leveldb::WriteBatch batch;
    batch.Put(seqKey(kQueued, m_tail), slice(data));
    if (m_unique)
        batch.Put(memberKey(data), leveldb::Slice());
    return commitPush(lock, &batch, m_tail + 1, &data);
}

Status LevelQueue::pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items)
{
    // One write per run of room, as one push would write each.
    size_t next = 0;
    qsizetype accepted = 0;
    std::string ignored;
    while (next < items.size()) {
        std::unique_lock lock(m_mutex);
        if (Status claimed = claimPush(lock, cancel); !claimed)
            return Status(claimed.code(), QStringLiteral("%1 (%2 of %3 item(s) accepted)").arg(claimed.message()).arg(accepted).arg(items.size()));
        leveldb::WriteBatch batch;
        QSet<QByteArray> inBatch; // unique: an item twice in one call is queued once
        std::vector<QByteArray> written; // a unique queue's, for the window (some are skipped)
        quint64 tail = m_tail;
        for (; next < items.size() && waiting() + qsizetype(tail - m_tail) < m_capacity; ++next) {
            const QByteArray &data = items[next];
            if (m_unique) {
                if (inBatch.contains(data) || m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored).ok())
                    continue; // queued already: skipped, as callers swallow AlreadyInQueue
                inBatch.insert(data);
                batch.Put(memberKey(data), leveldb::Slice());
                written.push_back(data);
            }
            batch.Put(seqKey(kQueued, tail++), slice(data));
        }
        const qsizetype count = qsizetype(tail - m_tail);
        if (count == 0) {
            endPush(lock);
            continue;
        }
        const QByteArray *kept = m_unique ? written.data() : &items[next - size_t(count)];
        if (Status status = commitPush(lock, &batch, tail, kept); !status)
            return Status(status.code(), QStringLiteral("%1 (%2 of %3 item(s) accepted)").arg(status.message()).arg(accepted).arg(items.size()));
        accepted += count;
    }
    return Status::ok();
}

// The waiting keys under the lock, then a LevelDB snapshot read without it: consumers go on
// meanwhile. Keys from the head on are contiguous, so the offset is one Seek, not a walk.
Result<std::vector<PeekedItem>> LevelQueue::peek(const CancelToken &, qint64 offset, int limit)
{
    offset = std::max<qint64>(offset, 0);
    quint64 head = 0;
    quint64 tail = 0;
    qint64 frontSize = 0;
    std::vector<quint64> front; // the front's keys from the offset on
    const leveldb::Snapshot *snapshot = nullptr;
    leveldb::DB *db = nullptr;  // not replaced while m_readers counts this peek
    {
        std::lock_guard lock(m_mutex);
        if (!m_db)
            return refusal();
        db = m_db.get();
        ++m_readers;
        head = m_head;
        tail = m_tail;
        frontSize = qint64(m_front.size());
        for (qint64 at = offset; at < frontSize && qint64(front.size()) < limit; ++at)
            front.push_back(m_front[size_t(at)]);
        snapshot = db->GetSnapshot();
    }
    const auto done = qScopeGuard([&] {
        db->ReleaseSnapshot(snapshot);
        std::lock_guard lock(m_mutex);
        --m_readers;
        if (m_idleWaiters > 0)
            m_idle.notify_all();
    });
    leveldb::ReadOptions options;
    options.snapshot = snapshot;
    options.fill_cache = false; // an operator's look must not evict the consumers' blocks
    std::vector<PeekedItem> items;
    std::string value;
    for (size_t i = 0; i < front.size(); ++i) {
        if (db->Get(options, seqKey(kQueued, front[i]), &value).ok())
            items.push_back(PeekedItem{offset + qint64(i), QByteArray::fromStdString(value), QDateTime()});
    }
    if (qint64(items.size()) < limit) {
        std::unique_ptr<leveldb::Iterator> it(db->NewIterator(options));
        for (it->Seek(seqKey(kQueued, head + quint64(std::max<qint64>(offset - frontSize, 0))));
             it->Valid() && it->key()[0] == kQueued && qint64(items.size()) < limit; it->Next()) {
            const quint64 seq = seqOf(it->key());
            if (seq >= tail)
                break;
            items.push_back(PeekedItem{frontSize + qint64(seq - head), QByteArray(it->value().data(), qsizetype(it->value().size())),
                                       QDateTime()});
        }
    }
    return items;
}

Result<std::vector<PoppedItem>> LevelQueue::popItems(const CancelToken &cancel, int max,
                                                     std::optional<SteadyClock::time_point> until, int atLeast)
{
    std::unique_lock lock(m_mutex);
    if (m_writer->failed())
        repair(lock);  // consumers alone bring the queue back too; a simple queue's pops go on meanwhile
    if (waiting() < atLeast && !m_waits.closed()) {
        // Short of items: poll for the pushes that bring them before sleeping, so a pusher in full
        // flow never pays for waking us (it tests the need once per push and raises the flag
        // once, so it never waits for a cache line this poll keeps reading); then write what
        // waits for the next write (an ack), as no write may come while we sleep. The poll naps
        // (levelPopNap) instead of spinning: a core kept busy beside the pusher's slows the pusher
        // (#22: a spinning thread cost a bare LevelDB put loop on the other core 7 – 20 %).
        m_spinNeed.store(atLeast, std::memory_order_relaxed);
        m_spinReady.store(false, std::memory_order_relaxed);
        lock.unlock();
        const SteadyClock::time_point pollUntil = std::min(SteadyClock::now() + m_timing.levelPopSpin, until.value_or(SteadyClock::time_point::max()));
        const bool napping = m_timing.levelPopNap.count() > 0;
        for (int i = 0; !m_spinReady.load(std::memory_order_relaxed); ++i) {
            if (!napping && i % 8 != 0) { // yielding: the clock is read every eighth round
                std::this_thread::yield();
                continue;
            }
            const SteadyClock::time_point now = SteadyClock::now();
            if (now >= pollUntil || cancel.isCancelled())
                break;
            if (napping)
                std::this_thread::sleep_for(std::min<SteadyClock::duration>(m_timing.levelPopNap, pollUntil - now));
            else
                std::this_thread::yield();
        }
        if (!m_spinReady.load(std::memory_order_relaxed))
            m_writer->flush();
        lock.lock();
        m_spinNeed.store(std::numeric_limits<qsizetype>::max(), std::memory_order_relaxed);
    }
    while (true) {
        m_waits.waitForItems(lock, cancel, until, [&] { return waiting(); }, atLeast);
        if (m_waits.closed())
            return queueClosedStatus(m_name);
        if (!m_popBusy)
            break;
        awaitIdle(lock, [this] { return !m_popBusy; }); // another pop is reading its items: a read's time
    }
    if (waiting() == 0)
        return cancel.isCancelled() ? Result<std::vector<PoppedItem>>(cancel.cause()) : std::vector<PoppedItem>();
    if (!m_db)  // a reopen failed
        return refusal();

    // Reserve the entries — released ones first, then from the head — and read them. A popped
    // item stays where it is until its ack deletes it; the pop only moves the head mark, so a
    // restart knows what was in flight. A unique queue keeps the lock throughout: a push of an
    // equal item must not see its membership between the reservation and the write.
    const size_t wanted = size_t(std::max(1, max));
    std::vector<quint64> front;
    while (!m_front.empty() && front.size() < wanted) {
        front.push_back(m_front.front());
        m_front.pop_front();
    }
    const quint64 first = m_head;
    const quint64 end = first + std::min<quint64>(m_tail - m_head, wanted - front.size());
    m_head = end;
    // The entries first .. fromDisk-1 are read from LevelDB, fromDisk .. end-1 taken from the
    // window (whose front they are: m_head <= m_windowFrom).
    const quint64 fromDisk = std::clamp(m_windowFrom, first, end);
    Q_ASSERT(m_windowFrom >= first && end - fromDisk <= m_window.size());
    std::vector<QByteArray> kept;
    kept.reserve(size_t(end - fromDisk));
    while (m_windowFrom < end)
        kept.push_back(takeWindowFront());
    m_popBusy = true;
    const bool unlocked = !m_unique;
    if (unlocked)
        lock.unlock();

    std::vector<PoppedItem> popped;
    popped.reserve(front.size() + size_t(end - first));
    leveldb::WriteBatch batch;
    qint64 missing = 0; // unreadable entries (a damaged log): the slot is skipped and counted
    const auto take = [&](quint64 seq, QByteArray data) {
        if (m_unique)
            batch.Delete(memberKey(data));
        popped.push_back(PoppedItem{std::move(data), seq});
    };
    std::string value;
    for (const quint64 seq : front) {
        if (m_writer->betweenWrites([&] { return m_db->Get(leveldb::ReadOptions(), seqKey(kQueued, seq), &value); }).ok())
            take(seq, QByteArray::fromStdString(value));
        else
            ++missing;
    }
    if (fromDisk != first) {
        std::unique_ptr<leveldb::Iterator> it(m_writer->betweenWrites([&] { return m_db->NewIterator(leveldb::ReadOptions()); }));
        it->Seek(seqKey(kQueued, first));
        for (quint64 seq = first; seq < fromDisk; ++seq) {
            if (!it->Valid() || it->key() != leveldb::Slice(seqKey(kQueued, seq))) {
                ++missing;
                it->Seek(seqKey(kQueued, seq + 1));
                continue;
            }
            take(seq, QByteArray(it->value().data(), qsizetype(it->value().size())));
            it->Next();
        }
        m_writer->betweenWrites([&] { it.reset(); });
    }
    for (size_t i = 0; i < kept.size(); ++i)
        take(fromDisk + i, std::move(kept[i]));
    if (end != first)
        batch.Put(std::string(1, kHeadMark), encodeSeq(end));
    // A non-unique pop does not wait for its mark: the next write carries it, before any later
    // ack. Until it lands the entries are still queued on disk, which after a crash means what in
    // flight means — they come back.
    Status written = Status::ok();
    if (end != first || (m_unique && !popped.empty()))
        written = write(&batch, false, m_unique ? LevelWriter::Wait::UntilWritten : LevelWriter::Wait::Later);

    if (unlocked)
        lock.lock();
    m_popBusy = false;
    if (m_idleWaiters > 0)
        m_idle.notify_all();
    if (!written) { // nothing moved; no other pop or removeAll ran meanwhile
        m_head = first;
        m_front.insert(m_front.begin(), front.begin(), front.end());
        if (m_windowFrom == end && !kept.empty()) { // else pushes dropped them: read again
            for (auto item = popped.rbegin(); item != popped.rbegin() + qsizetype(kept.size()); ++item) {
                m_windowBytes += windowCost(item->data);
                m_window.push_front(std::move(item->data));
            }
            m_windowFrom = fromDisk;
        }
        return written;
    }
    if (missing > 0) {
        m_corrupt += missing;
        qCCritical(lcQueue).noquote() << "queue" << m_name << ":" << missing << "stored item(s) could not be read; skipped";
    }
    m_waits.roomMade();
    const QueueWaits::Wake more = waiting() > 0 ? m_waits.wakeFor(waiting()) // another popper may take the rest
                                                : QueueWaits::Wake::None;
    lock.unlock();
    m_waits.wake(more);
    return popped;
}

Status LevelQueue::ack(const CancelToken &, const std::vector<PoppedItem> &items)
{
    if (items.empty())
        return Status::ok();
    // Without SYNC the ack rides on the next write (a push's, the next pop's mark): if the process
    // dies first, the batch is handled again after the restart, as if it had died during the
    // handler (at least once). With SYNC it is written and synced now.
    if (m_writer->failed()) {
        QueueLock lock(m_mutex);
        if (Status usable = repair(lock); !usable && m_sync)
            return usable;  // without SYNC the ack waits in the writer for the reopened database
    }
    leveldb::WriteBatch batch;
    for (const PoppedItem &item : items)
        batch.Delete(seqKey(kQueued, item.ref));
    return write(&batch, m_sync, m_sync ? LevelWriter::Wait::UntilWritten : LevelWriter::Wait::Later);
}

// A released item keeps its key (below the head mark, so a restart puts it in front too) and
// goes back to the front of the waiting list: nothing to write unless the queue is unique.
Status LevelQueue::release(const CancelToken &, const std::vector<PoppedItem> &items)
{
    std::unique_lock lock(m_mutex);
    std::vector<quint64> back;
    back.reserve(items.size());
    if (m_unique) {
        // An equal item may be being pushed, or popped (its membership removed).
        awaitIdle(lock, [this] { return !m_popBusy && !m_pushBusy; });
        if (Status usable = repair(lock); !usable)
            return usable;
        leveldb::WriteBatch batch;
        QSet<QByteArray> members;
        for (const PoppedItem &item : items) {
            std::string ignored;
            if (members.contains(item.data) || m_db->Get(leveldb::ReadOptions(), memberKey(item.data), &ignored).ok()) {
                batch.Delete(seqKey(kQueued, item.ref)); // an equal item was queued meanwhile
                continue;
            }
            members.insert(item.data);
            batch.Put(memberKey(item.data), leveldb::Slice());
            back.push_back(item.ref);
        }
        if (Status written = write(&batch, true); !written)
            return written;
    } else {
        for (const PoppedItem &item : items)
            back.push_back(item.ref);
    }
    m_front.insert(m_front.begin(), back.begin(), back.end());
    m_waits.itemsReturned();
    return Status::ok();
}

Result<bool> LevelQueue::hasItem(const CancelToken &, const QByteArray &data)
{
    if (!m_unique)
        return false;
    std::string ignored;
    std::unique_lock lock(m_mutex);  // m_db may be replaced (a reopen) or null (a reopen failed)
    if (!m_db)
        return refusal();
    const leveldb::Status status = m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored);
    lock.unlock();
    if (status.ok())
        return true;
    if (status.IsNotFound())
        return false;
    return fromLevel(status, QStringLiteral("queue %1 lookup").arg(m_name));
}

Result<qint64> LevelQueue::len(const CancelToken &)
{
    std::lock_guard lock(m_mutex);
    return qint64(waiting());
}

Result<qint64> LevelQueue::removeAll(const CancelToken &)
{
    std::unique_lock lock(m_mutex);
    // The entries a pop reserved are taken, not queued; a push's are not queued yet. Items in
    // flight stay for their acks.
    awaitIdle(lock, [this] { return !m_popBusy && !m_pushBusy; });
    if (Status usable = repair(lock); !usable)
        return usable;
    leveldb::WriteBatch batch;
    for (const quint64 seq : m_front)
        batch.Delete(seqKey(kQueued, seq));
    for (quint64 seq = m_head; seq < m_tail; ++seq)
        batch.Delete(seqKey(kQueued, seq));
    batch.Put(std::string(1, kHeadMark), encodeSeq(m_tail)); // else a restart would count them lost
    if (m_unique) {
        std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));
        for (it->Seek(std::string(1, kMember)); it->Valid() && it->key()[0] == kMember; it->Next())
            batch.Delete(it->key());
    }
    if (Status written = write(&batch, true); !written)
        return written;
    const qint64 removed = qint64(waiting());
    m_front.clear();
    m_head = m_tail;
    m_window.clear();
    m_windowFrom = m_tail;
    m_windowBytes = 0;
    m_waits.roomMade();
    return removed;
}

void LevelQueue::close()
{
    {
        QueueLock lock(m_mutex);
        m_waits.close();
        if (m_writer->failed()) {  // a last attempt, so that the acks kept meanwhile are written
            m_nextReopen = {};
            repair(lock);
        }
    }
    m_writer->flush();
}

qint64 LevelQueue::corruptDropped() const
{
    std::lock_guard lock(m_mutex);
    return m_corrupt;
}

} // namespace Switchyard
