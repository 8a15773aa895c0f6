#include "levelqueue.h"

#include "channelqueue.h"
#include "queuelogging.h"

#include <QDir>
#include <QSet>

#include <cstdarg>
#include <cstdio>

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/write_batch.h>

namespace Switchyard {

namespace {

// Sequence numbers start in the middle so items can be put back in front of the head.
constexpr quint64 kMiddle = quint64(1) << 62;
constexpr char kQueued = 'q';
constexpr char kInFlight = 'f';
constexpr char kMember = 'u';

std::string seqKey(char prefix, quint64 seq)
{
    std::string key(9, '\0');
    key[0] = prefix;
    for (int i = 0; i < 8; ++i)
        key[size_t(8 - i)] = char((seq >> (8 * i)) & 0xff);
    return key;
}

quint64 seqOf(const leveldb::Slice &key)
{
    quint64 seq = 0;
    for (size_t i = 1; i < 9 && i < key.size(); ++i)
        seq = (seq << 8) | quint8(key[i]);
    return seq;
}

std::string memberKey(const QByteArray &data)
{
    std::string key(1, kMember);
    key.append(data.constData(), size_t(data.size()));
    return key;
}

leveldb::Slice slice(const QByteArray &data)
{
    return leveldb::Slice(data.constData(), size_t(data.size()));
}

} // namespace

// LevelDB's informational log, kept in memory instead of a LOG file: recovery reports what it
// dropped from a damaged write-ahead log here ("… dropping N bytes; Corruption: …").
class LevelQueue::RecoveryLog final : public leveldb::Logger
{
public:
    void Logv(const char *format, va_list ap) override
    {
        char buffer[1024];
        std::vsnprintf(buffer, sizeof buffer, format, ap);
        const QString line = QString::fromUtf8(buffer).trimmed();
        qCDebug(lcQueue).noquote() << "leveldb:" << line;
        if (line.contains(QLatin1String("dropping"))) {
            std::lock_guard lock(m_mutex);
            m_drops.append(line);
        }
    }
    QStringList drops() const
    {
        std::lock_guard lock(m_mutex);
        return m_drops;
    }

private:
    mutable std::mutex m_mutex;
    QStringList m_drops; // guarded by m_mutex
};

LevelQueue::LevelQueue(QString name, std::unique_ptr<RecoveryLog> log, std::unique_ptr<leveldb::DB> db, int capacity,
                       bool unique, bool sync, QueueTiming timing)
    : m_name(std::move(name)), m_log(std::move(log)), m_db(std::move(db)),
      m_writer(std::make_unique<LevelWriter>(m_db.get(), m_name)), m_capacity(std::max(1, capacity)), m_unique(unique),
      m_sync(sync), m_timing(timing)
{
}

LevelQueue::~LevelQueue()
{
    m_writer.reset();
    m_db.reset(); // before the log it writes to
}

namespace {

// Another process (or another open in this one) holds the directory: worth waiting for.
bool heldByAnotherOpener(const leveldb::Status &status)
{
    const std::string text = status.ToString();
    return status.IsIOError() && text.find("lock ") != std::string::npos && text.find("LOCK") != std::string::npos
           && (text.find("temporarily unavailable") != std::string::npos || text.find("already held") != std::string::npos);
}

} // namespace

Result<std::unique_ptr<LevelQueue>> LevelQueue::open(const CancelToken &cancel, QString name, const QString &directory,
                                                     int capacity, bool unique, bool sync, QueueTiming timing,
                                                     QueueDamageReporter reportDamage)
{
    if (!QDir().mkpath(directory))
        return Status::unavailable(QStringLiteral("cannot create the queue directory %1").arg(directory));
    auto log = std::make_unique<RecoveryLog>();
    leveldb::Options options;
    options.create_if_missing = true;
    options.info_log = log.get();
    leveldb::Status status;
    leveldb::DB *raw = nullptr;
    for (int attempt = 1; attempt <= std::max(1, timing.levelOpenAttempts); ++attempt) {
        status = leveldb::DB::Open(options, QDir::toNativeSeparators(directory).toStdString(), &raw);
        if (status.ok() || !heldByAnotherOpener(status))
            break; // only a lock held elsewhere is worth waiting for
        qCWarning(lcQueue).noquote() << "queue" << name << ": cannot open" << directory << "(attempt" << attempt
                                     << "):" << QString::fromStdString(status.ToString());
        if (attempt < timing.levelOpenAttempts && !cancel.sleepFor(timing.levelOpenInterval))
            return cancel.cause();
    }
    if (!status.ok())
        return fromLevel(status, QStringLiteral("cannot open LevelDB queue %1 at %2").arg(name, directory));

    std::unique_ptr<LevelQueue> queue(
        new LevelQueue(name, std::move(log), std::unique_ptr<leveldb::DB>(raw), capacity, unique, sync, timing));
    const Result<qint64> lost = queue->recover();
    if (!lost)
        return lost.status();
    const QStringList drops = queue->m_log->drops();
    if (*lost > 0 || !drops.isEmpty()) {
        const QString message =
            *lost > 0 ? QStringLiteral("Queue %1: %2 stored item(s) were lost to a damaged LevelDB log at %3 and skipped; "
                                       "they will not be delivered. LevelDB reported: %4")
                            .arg(name).arg(*lost).arg(directory, drops.join(QStringLiteral("; ")))
                      : QStringLiteral("Queue %1: LevelDB dropped part of a damaged log at %2 while opening it; items in "
                                       "that part may be lost or delivered again. LevelDB reported: %3")
                            .arg(name, directory, drops.join(QStringLiteral("; ")));
        qCCritical(lcQueue).noquote() << message;
        if (reportDamage)
            reportDamage(message);
    }
    return queue;
}

Status LevelQueue::write(void *batch, bool sync, LevelWriter::Wait wait)
{
    return m_writer->write(std::move(*static_cast<leveldb::WriteBatch *>(batch)), sync, wait);
}

Result<qint64> LevelQueue::recover()
{
    std::lock_guard lock(m_mutex);
    std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));

    // Waiting items: head = first key, tail = last key + 1, from the keys themselves. Keys are
    // contiguous unless a damaged log lost some: count the gaps and close them up.
    quint64 stored = 0;
    quint64 first = 0;
    quint64 last = 0;
    for (it->Seek(seqKey(kQueued, 0)); it->Valid() && it->key()[0] == kQueued; it->Next()) {
        if (stored++ == 0)
            first = seqOf(it->key());
        last = seqOf(it->key());
    }
    if (!it->status().ok())
        return fromLevel(it->status(), QStringLiteral("queue %1 scan").arg(m_name));
    qint64 lost = 0;
    if (stored == 0) {
        m_head = m_tail = kMiddle;
    } else {
        m_head = first;
        m_tail = last + 1;
        lost = qint64(m_tail - m_head - stored);
    }
    if (lost > 0) {
        leveldb::WriteBatch batch;
        quint64 seq = m_head;
        for (it->Seek(seqKey(kQueued, 0)); it->Valid() && it->key()[0] == kQueued; it->Next()) {
            const quint64 at = seqOf(it->key());
            if (at != seq) {
                batch.Delete(it->key());
                batch.Put(seqKey(kQueued, seq), it->value());
            }
            ++seq;
        }
        if (Status written = write(&batch, true); !written)
            return written;
        m_tail = seq;
        m_corrupt += lost;
        it.reset(m_db->NewIterator(leveldb::ReadOptions()));
    }

    // In-flight items of the previous run go back to the front, oldest first.
    std::vector<std::pair<std::string, std::string>> inFlight;
    for (it->Seek(seqKey(kInFlight, 0)); it->Valid() && it->key()[0] == kInFlight; it->Next())
        inFlight.emplace_back(it->key().ToString(), it->value().ToString());
    if (!it->status().ok())
        return fromLevel(it->status(), QStringLiteral("queue %1 scan").arg(m_name));
    if (inFlight.empty())
        return lost;

    leveldb::WriteBatch batch;
    quint64 head = m_head;
    for (auto entry = inFlight.rbegin(); entry != inFlight.rend(); ++entry) {
        batch.Delete(entry->first);
        const QByteArray data = QByteArray::fromStdString(entry->second);
        if (m_unique) {
            std::string ignored;
            if (m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored).ok())
                continue; // an equal item is queued already
            batch.Put(memberKey(data), leveldb::Slice());
        }
        batch.Put(seqKey(kQueued, --head), entry->second);
        ++m_recovered;
    }
    if (Status written = write(&batch, true); !written)
        return written;
    m_head = head;
    qCInfo(lcQueue).noquote() << "queue" << m_name << ":" << m_recovered << "in-flight item(s) of the previous run put back";
    return lost;
}

Status LevelQueue::claimPush(std::unique_lock<std::mutex> &lock, const CancelToken &cancel)
{
    while (true) {
        if (Status room = m_waits.waitForRoom(lock, cancel, m_name, m_capacity, m_timing.pushBlockTime,
                                              [&] { return qsizetype(m_tail - m_head) < m_capacity; });
            !room)
            return room;
        if (!m_pushBusy) {
            m_pushBusy = true;
            return Status::ok();
        }
        m_idle.wait(lock, [this] { return !m_pushBusy; }); // another push is writing: a write's time
    }
}

void LevelQueue::endPush(std::unique_lock<std::mutex> &)
{
    m_pushBusy = false;
    m_idle.notify_all();
}

Status LevelQueue::commitPush(std::unique_lock<std::mutex> &lock, void *batch, quint64 tail)
{
    // Entries at m_tail and above are invisible to pops until m_tail moves: written without
    // the lock, so pops (and their writes) go on meanwhile.
    lock.unlock();
    const Status written = write(batch, m_sync);
    lock.lock();
    endPush(lock);
    if (!written)
        return written;
    m_tail = tail;
    const QueueWaits::Wake wake = m_waits.wakeFor(qsizetype(m_tail - m_head));
    lock.unlock();
    m_waits.wake(wake); // after unlocking: the woken popper does not block at once on our lock
    return Status::ok();
}

Status LevelQueue::pushItem(const CancelToken &cancel, const QByteArray &data)
{
    std::unique_lock lock(m_mutex);
    std::string ignored;
    auto queued = [&] { return m_unique && m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored).ok(); };
    if (!m_waits.closed() && queued())
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
    return commitPush(lock, &batch, m_tail + 1);
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
        quint64 tail = m_tail;
        for (; next < items.size() && qsizetype(tail - m_head) < m_capacity; ++next) {
            const QByteArray &data = items[next];
            if (m_unique) {
                if (inBatch.contains(data) || m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored).ok())
                    continue; // queued already: skipped, as callers swallow AlreadyInQueue
                inBatch.insert(data);
                batch.Put(memberKey(data), leveldb::Slice());
            }
            batch.Put(seqKey(kQueued, tail++), slice(data));
        }
        const qsizetype count = qsizetype(tail - m_tail);
        if (count == 0) {
            endPush(lock);
            continue;
        }
        if (Status written = commitPush(lock, &batch, tail); !written)
            return Status(written.code(), QStringLiteral("%1 (%2 of %3 item(s) accepted)").arg(written.message()).arg(accepted).arg(items.size()));
        accepted += count;
    }
    return Status::ok();
}

// The head under the lock, then a LevelDB snapshot read without it: consumers go on meanwhile.
// Sequence keys are contiguous, so the offset is one Seek, not a walk from the head.
Result<std::vector<PeekedItem>> LevelQueue::peek(const CancelToken &, qint64 offset, int limit)
{
    quint64 head = 0;
    quint64 tail = 0;
    const leveldb::Snapshot *snapshot = nullptr;
    {
        std::lock_guard lock(m_mutex);
        head = m_head;
        tail = m_tail;
        snapshot = m_db->GetSnapshot();
    }
    leveldb::ReadOptions options;
    options.snapshot = snapshot;
    options.fill_cache = false; // an operator's look must not evict the consumers' blocks
    std::vector<PeekedItem> items;
    {
        std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(options));
        for (it->Seek(seqKey(kQueued, head + quint64(std::max<qint64>(offset, 0))));
             it->Valid() && it->key()[0] == kQueued && qint64(items.size()) < limit; it->Next()) {
            const quint64 seq = seqOf(it->key());
            if (seq >= tail)
                break;
            items.push_back(PeekedItem{qint64(seq - head), QByteArray(it->value().data(), qsizetype(it->value().size())), QDateTime()});
        }
    }
    m_db->ReleaseSnapshot(snapshot);
    return items;
}


Result<std::vector<PoppedItem>> LevelQueue::popItems(const CancelToken &cancel, int max,
                                                     std::optional<SteadyClock::time_point> until, int atLeast)
{
    std::unique_lock lock(m_mutex);
    while (true) {
        m_waits.waitForItems(lock, cancel, until, [&] { return qsizetype(m_tail - m_head); }, atLeast);
        if (m_waits.closed())
            return queueClosedStatus(m_name);
        if (!m_popBusy)
            break;
        m_idle.wait(lock, [this] { return !m_popBusy; }); // another pop is moving its items: a write's time
    }
    if (m_head == m_tail)
        return cancel.isCancelled() ? Result<std::vector<PoppedItem>>(cancel.cause()) : std::vector<PoppedItem>();

    // Reserve the entries, then read and move them. A unique queue keeps the lock throughout: a
    // push of an equal item must not see its membership between the reservation and the write.
    const quint64 first = m_head;
    const quint64 end = first + std::min<quint64>(m_tail - m_head, quint64(std::max(1, max)));
    quint64 nextInFlight = m_nextInFlight;
    m_head = end;
    m_nextInFlight += end - first;
    m_popBusy = true;
    const bool unlocked = !m_unique;
    if (unlocked)
        lock.unlock();

    std::vector<PoppedItem> popped;
    popped.reserve(size_t(end - first));
    leveldb::WriteBatch batch;
    qint64 missing = 0;
    {
        std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));
        it->Seek(seqKey(kQueued, first));
        for (quint64 seq = first; seq < end; ++seq) {
            const std::string key = seqKey(kQueued, seq);
            if (!it->Valid() || it->key() != leveldb::Slice(key)) {
                // A gap in the stored sequence: the entry is unreadable; drop the slot, count it.
                ++missing;
                batch.Delete(key);
                it->Seek(seqKey(kQueued, seq + 1));
                continue;
            }
            const QByteArray data(it->value().data(), qsizetype(it->value().size()));
            it->Next();
            batch.Delete(key);
            batch.Put(seqKey(kInFlight, nextInFlight), slice(data));
            if (m_unique)
                batch.Delete(memberKey(data));
            popped.push_back(PoppedItem{data, nextInFlight});
            ++nextInFlight;
        }
    }
    // A non-unique pop does not wait for its write when another thread is writing (that thread
    // writes it next, before any later release or ack): until it lands the entries are still
    // queued on disk, which after a crash means what in flight means — they come back.
    const Status written = write(&batch, false, m_unique ? LevelWriter::Wait::UntilWritten : LevelWriter::Wait::No);

    if (unlocked)
        lock.lock();
    m_popBusy = false;
    m_idle.notify_all();
    if (!written) {
        m_head = first; // nothing moved; no other pop, release or removeAll ran meanwhile
        return written;
    }
    if (missing > 0) {
        m_corrupt += missing;
        qCCritical(lcQueue).noquote() << "queue" << m_name << ":" << missing << "stored item(s) could not be read; skipped";
    }
    m_waits.roomMade();
    const QueueWaits::Wake more = m_head != m_tail ? m_waits.wakeFor(qsizetype(m_tail - m_head)) // another popper may take the rest
                                                   : QueueWaits::Wake::None;
    lock.unlock();
    m_waits.wake(more);
    return popped;
}

Status LevelQueue::ack(const CancelToken &, const std::vector<PoppedItem> &items)
{
    if (items.empty())
        return Status::ok();
    leveldb::WriteBatch batch;
    for (const PoppedItem &item : items)
        batch.Delete(seqKey(kInFlight, item.ref));
    return write(&batch, m_sync);
}

Status LevelQueue::release(const CancelToken &, const std::vector<PoppedItem> &items)
{
    std::unique_lock lock(m_mutex);
    // The keys just below the head may still be a pop's to delete, and an equal item may be
    // being pushed (unique).
    m_idle.wait(lock, [this] { return !m_popBusy && !m_pushBusy; });
    leveldb::WriteBatch batch;
    quint64 head = m_head;
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
        batch.Delete(seqKey(kInFlight, it->ref));
        if (m_unique) {
            std::string ignored;
            if (m_db->Get(leveldb::ReadOptions(), memberKey(it->data), &ignored).ok())
                continue; // an equal item was queued meanwhile
            batch.Put(memberKey(it->data), leveldb::Slice());
        }
        batch.Put(seqKey(kQueued, --head), slice(it->data));
    }
    if (Status written = write(&batch, true); !written)
        return written;
    m_head = head;
    m_waits.itemsReturned();
    return Status::ok();
}

Result<bool> LevelQueue::hasItem(const CancelToken &, const QByteArray &data)
{
    if (!m_unique)
        return false;
    std::string ignored;
    const leveldb::Status status = m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored);
    if (status.ok())
        return true;
    if (status.IsNotFound())
        return false;
    return fromLevel(status, QStringLiteral("queue %1 lookup").arg(m_name));
}

Result<qint64> LevelQueue::len(const CancelToken &)
{
    std::lock_guard lock(m_mutex);
    return qint64(m_tail - m_head);
}

Result<qint64> LevelQueue::removeAll(const CancelToken &)
{
    std::unique_lock lock(m_mutex);
    // The entries a pop reserved are taken, not queued; a push's are not queued yet.
    m_idle.wait(lock, [this] { return !m_popBusy && !m_pushBusy; });
    leveldb::WriteBatch batch;
    std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));
    for (it->Seek(seqKey(kQueued, 0)); it->Valid() && it->key()[0] == kQueued; it->Next())
        batch.Delete(it->key());
    for (it->Seek(std::string(1, kMember)); it->Valid() && it->key()[0] == kMember; it->Next())
        batch.Delete(it->key());
    if (Status written = write(&batch, true); !written)
        return written;
    const qint64 removed = qint64(m_tail - m_head);
    m_head = m_tail;
    m_waits.roomMade();
    return removed;
}

void LevelQueue::close()
{
    std::lock_guard lock(m_mutex);
    m_waits.close();
}

qint64 LevelQueue::corruptDropped() const
{
    std::lock_guard lock(m_mutex);
    return m_corrupt;
}

} // namespace Switchyard
