// Opening the LevelDB queue: LevelDB's recovery of the write-ahead log (what it dropped is
// reported), and the queue's own recovery of its state from the stored keys (levelqueue.h); then
// reopening its database after a failed write. open() and recover() run on the thread that calls
// open(), before the queue is shared; repair() on any thread that finds the writer failed, and
// reopen() with m_mutex held throughout, while nobody else uses the database handle.
#include "levelkeys.h"
#include "levelqueue.h"
#include "queuelogging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/write_batch.h>

namespace Switchyard {

using namespace LevelKeys;

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
    // What recovery dropped since the last call.
    QStringList takeDrops()
    {
        std::lock_guard lock(m_mutex);
        return std::exchange(m_drops, QStringList());
    }

private:
    mutable std::mutex m_mutex;
    QStringList m_drops;  // guarded by m_mutex
};

LevelQueue::LevelQueue(QString name, QString directory, std::unique_ptr<RecoveryLog> log,
                       std::unique_ptr<leveldb::DB> db, int capacity, bool unique, bool sync, QueueTiming timing,
                       QueueDamageReporter reportDamage)
    : m_name(std::move(name))
    , m_directory(std::move(directory))
    , m_log(std::move(log))
    , m_db(std::move(db))
    , m_writer(std::make_unique<LevelWriter>(m_db.get(), m_name))
    , m_capacity(std::max(1, capacity))
    , m_unique(unique)
    , m_sync(sync)
    , m_timing(timing)
    , m_reportDamage(std::move(reportDamage))
{}

LevelQueue::~LevelQueue()
{
    m_writer.reset();
    m_db.reset();  // before the log it writes to
}

namespace {

// Another process (or another open in this one) holds the directory: worth waiting for.
bool heldByAnotherOpener(const leveldb::Status &status)
{
    const std::string text = status.ToString();
    return status.IsIOError() && text.find("lock ") != std::string::npos && text.find("LOCK") != std::string::npos &&
           (text.find("temporarily unavailable") != std::string::npos ||
            text.find("already held") != std::string::npos);
}

leveldb::Status openLevelDb(const QString &directory, leveldb::Logger *log, leveldb::DB **db)
{
    leveldb::Options options;
    options.create_if_missing = true;
    options.info_log = log;
    return leveldb::DB::Open(options, QDir::toNativeSeparators(directory).toStdString(), db);
}

// Tells the operator what LevelDB's recovery dropped (`lost` items found missing, if known).
void reportDrops(const QueueDamageReporter &reportDamage, const QString &name, const QString &directory,
                 const QStringList &drops, qint64 lost, const QString &when)
{
    const QString message =
        lost > 0 ? QStringLiteral(
                       "Queue %1: %2 stored item(s) were lost to a damaged LevelDB log at %3 and skipped; "
                       "they will not be delivered. LevelDB reported: %4")
                       .arg(name)
                       .arg(lost)
                       .arg(directory, drops.join(QStringLiteral("; ")))
                 : QStringLiteral(
                       "Queue %1: LevelDB dropped part of a damaged log at %2 %3; items in that part may be lost "
                       "or delivered again. LevelDB reported: %4")
                       .arg(name, directory, when, drops.join(QStringLiteral("; ")));
    qCCritical(lcQueue).noquote() << message;
    if (reportDamage)
        reportDamage(message);
}

}  // namespace

Result<std::unique_ptr<LevelQueue>> LevelQueue::open(const CancelToken &cancel, QString name, const QString &directory,
                                                     int capacity, bool unique, bool sync, QueueTiming timing,
                                                     QueueDamageReporter reportDamage)
{
    if (!QDir().mkpath(directory))
        return Status::unavailable(QStringLiteral("cannot create the queue directory %1").arg(directory));
    auto log = std::make_unique<RecoveryLog>();
    leveldb::Status status;
    leveldb::DB *raw = nullptr;
    for (int attempt = 1; attempt <= std::max(1, timing.levelOpenAttempts); ++attempt) {
        status = openLevelDb(directory, log.get(), &raw);
        if (status.ok() || !heldByAnotherOpener(status))
            break;  // only a lock held elsewhere is worth waiting for
        qCWarning(lcQueue).noquote() << "queue" << name << ": cannot open" << directory << "(attempt" << attempt
                                     << "):" << QString::fromStdString(status.ToString());
        if (attempt < timing.levelOpenAttempts && !cancel.sleepFor(timing.levelOpenInterval))
            return cancel.cause();
    }
    if (!status.ok())
        return fromLevel(status, QStringLiteral("cannot open LevelDB queue %1 at %2").arg(name, directory));

    std::unique_ptr<LevelQueue> queue(new LevelQueue(name, directory, std::move(log), std::unique_ptr<leveldb::DB>(raw),
                                                     capacity, unique, sync, timing, std::move(reportDamage)));
    const Result<qint64> lost = queue->recover();
    if (!lost)
        return lost.status();
    if (const QStringList drops = queue->m_log->takeDrops(); *lost > 0 || !drops.isEmpty())
        reportDrops(queue->m_reportDamage, name, directory, drops, *lost, QStringLiteral("while opening it"));
    return queue;
}

Result<qint64> LevelQueue::recover()
{
    std::lock_guard lock(m_mutex);
    const leveldb::ReadOptions read;
    std::string markValue;
    const leveldb::Status markStatus = m_db->Get(read, std::string(1, kHeadMark), &markValue);
    if (!markStatus.ok() && !markStatus.IsNotFound())
        return fromLevel(markStatus, QStringLiteral("queue %1 head mark").arg(m_name));
    const bool marked = markStatus.ok() && markValue.size() == 8;
    quint64 mark = marked ? seqOf(markValue, 0) : 0;

    // Keys below the mark were popped and not acknowledged: in flight when the previous run
    // stopped. From the mark on, keys wait; they are contiguous unless a damaged log lost some:
    // count the gaps and close them up.
    std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(read));
    std::vector<std::pair<quint64, std::string>> front;  // key, and the item for a unique queue
    quint64 stored = 0;
    quint64 first = 0;
    quint64 last = 0;
    for (it->Seek(seqKey(kQueued, 0)); it->Valid() && it->key()[0] == kQueued; it->Next()) {
        const quint64 seq = seqOf(it->key());
        if (marked && seq < mark) {
            front.emplace_back(seq, m_unique ? it->value().ToString() : std::string());
            continue;
        }
        if (stored++ == 0)
            first = seq;
        last = seq;
    }
    if (!it->status().ok())
        return fromLevel(it->status(), QStringLiteral("queue %1 scan").arg(m_name));
    if (!marked)
        mark = stored > 0 ? first : kMiddle;
    m_head = mark;
    m_tail = stored > 0 ? last + 1 : mark;
    const qint64 lost = qint64(m_tail - m_head - stored);
    leveldb::WriteBatch batch;
    if (lost > 0) {
        quint64 seq = m_head;
        for (it->Seek(seqKey(kQueued, m_head)); it->Valid() && it->key()[0] == kQueued; it->Next()) {
            if (seqOf(it->key()) != seq) {
                batch.Delete(it->key());
                batch.Put(seqKey(kQueued, seq), it->value());
            }
            ++seq;
        }
        m_tail = seq;
        m_corrupt += lost;
    }

    // The layout before #22 moved popped items to 'f' keys (and had no mark): they go in front of
    // everything else, oldest first.
    std::vector<std::pair<std::string, std::string>> moved;
    for (it->Seek(std::string(1, kLegacyInFlight)); it->Valid() && it->key()[0] == kLegacyInFlight; it->Next())
        moved.emplace_back(it->key().ToString(), it->value().ToString());
    if (!it->status().ok())
        return fromLevel(it->status(), QStringLiteral("queue %1 scan").arg(m_name));
    if (!moved.empty()) {
        quint64 seq = (front.empty() ? m_head : front.front().first) - moved.size();
        std::vector<std::pair<quint64, std::string>> older;
        for (auto &[key, value] : moved) {
            batch.Delete(key);
            batch.Put(seqKey(kQueued, seq), value);
            older.emplace_back(seq++, std::move(value));
        }
        front.insert(front.begin(), std::make_move_iterator(older.begin()), std::make_move_iterator(older.end()));
    }

    // In-flight items go back to the front, oldest first. A unique queue dropped their membership
    // when they were popped: an item queued again meanwhile (or twice in flight) is kept once.
    QSet<QByteArray> members;
    for (const auto &[seq, value] : front) {
        if (m_unique) {
            const QByteArray data = QByteArray::fromStdString(value);
            std::string ignored;
            if (members.contains(data) || m_db->Get(read, memberKey(data), &ignored).ok()) {
                batch.Delete(seqKey(kQueued, seq));
                continue;
            }
            members.insert(data);
            batch.Put(memberKey(data), leveldb::Slice());
        }
        m_front.push_back(seq);
    }
    m_recovered = qint64(m_front.size());
    m_windowFrom = m_tail;  // nothing in memory: the stored items are read from LevelDB
    batch.Put(std::string(1, kHeadMark), encodeSeq(m_head));
    if (Status written = write(&batch, true); !written)
        return written;
    if (m_recovered > 0)
        qCInfo(lcQueue).noquote() << "queue" << m_name << ":" << m_recovered
                                  << "in-flight item(s) of the previous run put back";
    return lost;
}

Status LevelQueue::repair(QueueLock &lock)
{
    if (!m_writer->failed())
        return Status::ok();
    if (SteadyClock::now() < m_nextReopen)
        return refusal();
    // The handle is replaced: nobody may be using it without the lock.
    awaitIdle(lock, [this] { return !m_pushBusy && !m_popBusy && m_readers == 0; });
    if (!m_writer->failed())
        return Status::ok();  // reopened meanwhile
    if (SteadyClock::now() < m_nextReopen)
        return refusal();  // another thread tried meanwhile
    m_nextReopen = SteadyClock::now() + m_timing.levelReopenInterval;
    m_reopenFailure = reopen();
    return m_reopenFailure ? Status::ok() : refusal();
}

Status LevelQueue::reopen()
{
    // While the disk is full the database stays open: pops go on reading it.
    if (Status room = probeRoom(); !room)
        return room;
    m_writer->suspend();
    m_db.reset();  // its log ends with the torn record; LevelDB waits for its compaction
    m_log->takeDrops();
    leveldb::DB *raw = nullptr;
    if (const leveldb::Status opened = openLevelDb(m_directory, m_log.get(), &raw); !opened.ok()) {
        m_writer->resume(nullptr, nullptr);
        return fromLevel(opened, QStringLiteral("its recovery failed"));
    }
    m_db.reset(raw);
    if (const QStringList drops = m_log->takeDrops(); !drops.isEmpty())
        reportDrops(m_reportDamage, m_name, m_directory, drops, 0,
                    QStringLiteral("while reopening it after a failed write"));
    // A failed push whose write LevelDB replayed anyway (a failed sync leaves that open) is
    // undone: the entries from the tail on are no item's.
    leveldb::WriteBatch undo;
    for (const std::string &key : m_unwritten)
        undo.Delete(key);
    const Status resumed = m_writer->resume(m_db.get(), m_unwritten.empty() ? nullptr : &undo);
    if (!resumed)
        return resumed;
    m_unwritten.clear();
    qCInfo(lcQueue).noquote() << "queue" << m_name << ": LevelDB database at" << m_directory
                              << "reopened after a failed write; writing again";
    return Status::ok();
}

Status LevelQueue::probeRoom() const
{
    // LevelDB's recovery writes what its logs hold into a table before it deletes them.
    qint64 need = 64 << 10;
    for (const QFileInfo &log : QDir(m_directory).entryInfoList({QStringLiteral("*.log")}, QDir::Files))
        need += log.size();
    const QByteArray probe = QFile::encodeName(QDir(m_directory).filePath(QStringLiteral("SPACE-PROBE")));
    const int fd = ::open(probe.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return Status::unavailable(QStringLiteral("cannot create %1: %2")
                                       .arg(QFile::decodeName(probe), QString::fromLocal8Bit(std::strerror(errno))));
    const int error = ::posix_fallocate(fd, 0, need);
    ::close(fd);
    ::unlink(probe.constData());
    if (error != 0)
        return Status::unavailable(QStringLiteral("no room for the %1 bytes its recovery writes (%2)")
                                       .arg(need)
                                       .arg(QString::fromLocal8Bit(std::strerror(error))));
    return Status::ok();
}

Status LevelQueue::refusal() const
{
    QString message = QStringLiteral(
                          "queue %1: nothing is written to %2 until its LevelDB database is reopened after a "
                          "failed write (%3); tried at most every %4 ms")
                          .arg(m_name, m_directory, m_writer->failure().message())
                          .arg(m_timing.levelReopenInterval.count());
    if (!m_reopenFailure)
        message += QStringLiteral("; not reopened: %1").arg(m_reopenFailure.message());
    return Status::unavailable(message);
}

void LevelQueue::forgetPush(quint64 tail, const QByteArray *items)
{
    for (quint64 seq = m_tail; seq < tail; ++seq) {
        m_unwritten.push_back(seqKey(kQueued, seq));
        if (m_unique)
            m_unwritten.push_back(memberKey(items[seq - m_tail]));
    }
}

}  // namespace Switchyard
