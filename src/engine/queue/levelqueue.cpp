#include "levelqueue.h"

#include "channelqueue.h"
#include "queuelogging.h"

#include <QDir>

#include <leveldb/db.h>
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

Status fromLevel(const leveldb::Status &status, const QString &what)
{
    if (status.ok())
        return Status::ok();
    const QString message = QStringLiteral("%1: %2").arg(what, QString::fromStdString(status.ToString()));
    return status.IsCorruption() ? Status::corruption(message) : Status::unavailable(message);
}

} // namespace

LevelQueue::LevelQueue(QString name, std::unique_ptr<leveldb::DB> db, int capacity, bool unique, bool sync,
                       QueueTiming timing)
    : m_name(std::move(name)), m_db(std::move(db)), m_capacity(std::max(1, capacity)), m_unique(unique),
      m_sync(sync), m_timing(timing)
{
}

LevelQueue::~LevelQueue() = default;

Result<std::unique_ptr<LevelQueue>> LevelQueue::open(const CancelToken &cancel, QString name, const QString &directory,
                                                     int capacity, bool unique, bool sync, QueueTiming timing)
{
    if (!QDir().mkpath(directory))
        return Status::unavailable(QStringLiteral("cannot create the queue directory %1").arg(directory));
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::Status status;
    leveldb::DB *raw = nullptr;
    for (int attempt = 1; attempt <= std::max(1, timing.levelOpenAttempts); ++attempt) {
        status = leveldb::DB::Open(options, QDir::toNativeSeparators(directory).toStdString(), &raw);
        if (status.ok())
            break;
        qCWarning(lcQueue).noquote() << "queue" << name << ": cannot open" << directory << "(attempt" << attempt
                                     << "):" << QString::fromStdString(status.ToString());
        if (attempt < timing.levelOpenAttempts && !cancel.sleepFor(timing.levelOpenInterval))
            return cancel.cause();
    }
    if (!status.ok())
        return fromLevel(status, QStringLiteral("cannot open LevelDB queue %1 at %2").arg(name, directory));

    std::unique_ptr<LevelQueue> queue(
        new LevelQueue(std::move(name), std::unique_ptr<leveldb::DB>(raw), capacity, unique, sync, timing));
    if (Status recovered = queue->recover(); !recovered)
        return recovered;
    return queue;
}

Status LevelQueue::write(const void *batch, bool sync)
{
    leveldb::WriteOptions options;
    options.sync = sync;
    return fromLevel(m_db->Write(options, const_cast<leveldb::WriteBatch *>(static_cast<const leveldb::WriteBatch *>(batch))),
                     QStringLiteral("queue %1 write").arg(m_name));
}

Status LevelQueue::recover()
{
    std::lock_guard lock(m_mutex);
    std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));

    // Waiting items: head = first key, tail = last key + 1, from the keys themselves.
    it->Seek(seqKey(kQueued, 0));
    if (it->Valid() && it->key()[0] == kQueued) {
        m_head = seqOf(it->key());
        it->Seek(seqKey(kQueued, ~quint64(0)));
        if (it->Valid())
            it->Prev();
        else
            it->SeekToLast();
        while (it->Valid() && it->key()[0] != kQueued)
            it->Prev();
        m_tail = seqOf(it->key()) + 1;
    } else {
        m_head = m_tail = kMiddle;
    }

    // In-flight items of the previous run go back to the front, oldest first.
    std::vector<std::pair<std::string, std::string>> inFlight;
    for (it->Seek(seqKey(kInFlight, 0)); it->Valid() && it->key()[0] == kInFlight; it->Next())
        inFlight.emplace_back(it->key().ToString(), it->value().ToString());
    if (!it->status().ok())
        return fromLevel(it->status(), QStringLiteral("queue %1 scan").arg(m_name));
    if (inFlight.empty())
        return Status::ok();

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
    return Status::ok();
}

Status LevelQueue::pushItem(const CancelToken &cancel, const QByteArray &data)
{
    std::unique_lock lock(m_mutex);
    std::string ignored;
    auto queued = [&] { return m_unique && m_db->Get(leveldb::ReadOptions(), memberKey(data), &ignored).ok(); };
    if (!m_waits.closed() && queued())
        return Status::alreadyExists(QStringLiteral("item already in queue %1").arg(m_name));
    if (Status room = m_waits.waitForRoom(lock, cancel, m_name, m_capacity, m_timing.pushBlockTime,
                                          [&] { return qsizetype(m_tail - m_head) < m_capacity; });
        !room)
        return room;
    if (queued()) // pushed by someone else while we waited
        return Status::alreadyExists(QStringLiteral("item already in queue %1").arg(m_name));
    leveldb::WriteBatch batch;
    batch.Put(seqKey(kQueued, m_tail), slice(data));
    if (m_unique)
        batch.Put(memberKey(data), leveldb::Slice());
    if (Status written = write(&batch, m_sync); !written)
        return written;
    ++m_tail;
    m_waits.itemAdded();
    return Status::ok();
}

Result<std::vector<PoppedItem>> LevelQueue::popItems(const CancelToken &cancel, int max,
                                                     std::optional<SteadyClock::time_point> until)
{
    std::unique_lock lock(m_mutex);
    m_waits.waitForItems(lock, cancel, until, [&] { return m_head != m_tail; });
    if (m_waits.closed())
        return queueClosedStatus(m_name);
    if (m_head == m_tail)
        return cancel.isCancelled() ? Result<std::vector<PoppedItem>>(cancel.cause()) : std::vector<PoppedItem>();

    std::vector<PoppedItem> popped;
    leveldb::WriteBatch batch;
    quint64 head = m_head;
    quint64 nextInFlight = m_nextInFlight;
    const quint64 wanted = std::min<quint64>(m_tail - m_head, quint64(std::max(1, max)));
    std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));
    it->Seek(seqKey(kQueued, head));
    while (popped.size() < wanted && head < m_tail) {
        const std::string key = seqKey(kQueued, head);
        ++head;
        if (!it->Valid() || it->key().ToString() != key) {
            // A gap in the stored sequence: the entry is unreadable; drop the slot, count it.
            ++m_corrupt;
            qCWarning(lcQueue).noquote() << "queue" << m_name << ": stored item" << (head - 1) << "is missing; skipped";
            batch.Delete(key);
            it->Seek(seqKey(kQueued, head));
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
    if (Status written = write(&batch, false); !written)
        return written;
    m_head = head;
    m_nextInFlight = nextInFlight;
    m_waits.roomMade();
    if (m_head != m_tail)
        m_waits.itemAdded(); // another popper may take the rest
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
    std::lock_guard lock(m_mutex);
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
    std::lock_guard lock(m_mutex);
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
