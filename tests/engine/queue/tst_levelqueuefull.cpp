// The LevelDB queue on a full disk: a small tmpfs, mounted in a mount namespace of this process's
// own, filled up with a filler file. A push that cannot be written fails Unavailable, naming the
// queue and its directory; pops and acks go on meanwhile; once the filler is deleted the queue
// writes again without being reopened by its owner, every accepted item is handed out, and a
// restart finds no damage.
//
// Both ways LevelDB meets a full disk are covered: a write to its log that fails (the record is
// left torn, and LevelDB would append the next one behind it, misaligned), and a compaction that
// fails (LevelDB's background error: every later write fails until the database is reopened).
// LevelWriter's part (refuse, keep the Later batches, write them to the reopened database) is
// tested on its own too.
#include "engine/queue/levelqueue.h"
#include "engine/queue/levelwriter.h"

#include "support/wait.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/write_batch.h>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

// Why the tests cannot mount a small disk; empty when they can. Set by main().
QString g_mountError;

QString errorText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

bool writeProcFile(const char *path, const QByteArray &text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool written = ::write(fd, text.constData(), size_t(text.size())) == text.size();
    ::close(fd);
    return written;
}

// Gives this process a mount namespace of its own whose mounts do not propagate back, so the
// tmpfs mounts below are seen by this process only and go away with it. A mount namespace is a
// thread's: this must run before any thread starts (LevelDB's compaction thread must see the
// same mounts as the test). As root a mount namespace will do; otherwise a user namespace of our
// own grants the mount. Returns why neither worked, or an empty string.
QString enterPrivateMountNamespace()
{
    if (::unshare(CLONE_NEWNS) != 0) {
        const QString asRoot = errorText(errno);
        const QByteArray uid = QByteArray::number(::getuid());
        const QByteArray gid = QByteArray::number(::getgid());
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            return QStringLiteral("unshare(CLONE_NEWNS) failed (%1), and unshare(CLONE_NEWUSER | CLONE_NEWNS) too (%2)")
                .arg(asRoot, errorText(errno));
        if (!writeProcFile("/proc/self/setgroups", "deny") ||
            !writeProcFile("/proc/self/uid_map", uid + ' ' + uid + " 1") ||
            !writeProcFile("/proc/self/gid_map", gid + ' ' + gid + " 1"))
            return QStringLiteral("cannot map this user into a user namespace: %1").arg(errorText(errno));
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return QStringLiteral("cannot make / private in the new mount namespace: %1").arg(errorText(errno));
    return QString();
}

// A tmpfs of `bytes` on a temporary directory, unmounted at the end. error() says why not.
class SmallDisk
{
public:
    explicit SmallDisk(qint64 bytes)
    {
        if (!g_mountError.isEmpty()) {
            m_error = QStringLiteral("no private mount namespace for a small disk: %1").arg(g_mountError);
            return;
        }
        const QByteArray options = "size=" + QByteArray::number(bytes) + ",mode=0700";
        if (::mount("tmpfs", QFile::encodeName(m_dir.path()).constData(), "tmpfs", 0, options.constData()) != 0) {
            m_error = QStringLiteral("cannot mount a tmpfs on %1: %2").arg(m_dir.path(), errorText(errno));
            return;
        }
        m_mounted = true;
    }
    ~SmallDisk()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_dir.path()).constData(), MNT_DETACH);
    }
    SmallDisk(const SmallDisk &) = delete;
    SmallDisk &operator=(const SmallDisk &) = delete;

    const QString &error() const { return m_error; }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }

    qint64 available() const
    {
        struct statvfs info = {};
        if (::statvfs(QFile::encodeName(m_dir.path()).constData(), &info) != 0)
            return 0;
        return qint64(info.f_bavail) * qint64(info.f_frsize);
    }

    // Writes the filler: zeros (a sparse file would take no room on a tmpfs) until about
    // `leave` bytes are free. Returns whether it could.
    bool fill(qint64 leave) const
    {
        QFile filler(filePath(QStringLiteral("filler")));
        if (!filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            return false;
        const QByteArray chunk(4096, '\0');
        while (available() > leave + chunk.size()) {
            if (filler.write(chunk) != chunk.size())
                return false;
        }
        return true;
    }
    bool removeFiller() const { return QFile::remove(filePath(QStringLiteral("filler"))); }

private:
    QTemporaryDir m_dir;
    QString m_error;
    bool m_mounted = false;
};

// LevelDB's informational log, which the queue passes on at debug level ("leveldb: …"): set
// when a compaction's table could not be written ("Level-0 table #5: 0 bytes IO error: …").
std::atomic<bool> g_compactionFailed = false;
QtMessageHandler g_previousHandler = nullptr;
QLoggingCategory::CategoryFilter g_previousFilter = nullptr;

void watchLevelDb(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtDebugMsg && message.startsWith(QLatin1String("leveldb:"))) {
        if (message.contains(QLatin1String("Level-0 table")) && message.contains(QLatin1String("error")))
            g_compactionFailed = true;
        return;
    }
    g_previousHandler(type, context, message);
}

void queueDebugOn(QLoggingCategory *category)
{
    if (g_previousFilter)  // null while installFilter() applies this filter to the existing categories
        g_previousFilter(category);
    if (qstrcmp(category->categoryName(), "switchyard.queue") == 0)
        category->setEnabled(QtDebugMsg, true);
}

// Watches LevelDB's log while it lives (whatever QT_LOGGING_RULES says of debug messages).
class LevelDbWatch
{
public:
    LevelDbWatch()
    {
        g_compactionFailed = false;
        g_previousHandler = qInstallMessageHandler(watchLevelDb);
        g_previousFilter = QLoggingCategory::installFilter(queueDebugOn);
    }
    ~LevelDbWatch()
    {
        QLoggingCategory::installFilter(g_previousFilter);
        qInstallMessageHandler(g_previousHandler);
    }
    LevelDbWatch(const LevelDbWatch &) = delete;
    LevelDbWatch &operator=(const LevelDbWatch &) = delete;
};

QueueTiming fullDiskTiming()
{
    QueueTiming timing;
    timing.levelOpenAttempts = 1;
    timing.pushBlockTime = 100ms;
    timing.levelReopenInterval = 10ms;
    return timing;
}

// About a page of the disk: a number, then random bytes (LevelDB compresses its tables, and a
// compaction must need as much room as the log it empties).
QByteArray bigItem(int number, QRandomGenerator &random)
{
    QByteArray data = QByteArray::number(number).rightJustified(10, '0') + ':';
    const qsizetype header = data.size();
    data.resize(4000);
    for (qsizetype at = header; at < data.size(); ++at)
        data[at] = char(random.bounded(256));
    return data;
}

// The write-ahead logs in a LevelDB directory, oldest first.
QStringList logsIn(const QString &path)
{
    return QDir(path).entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name);
}

// What a test did with a queue, to check against what comes out of it.
struct Ledger
{
    QList<QByteArray> accepted;        // pushes that returned ok
    QHash<QByteArray, int> handedOut;  // how often each item was popped
    QSet<QByteArray> ackFailed;        // popped items whose ack returned an error
    int acked = 0;

    // Pushes `item`; returns the push's outcome and books it when accepted.
    Status push(LevelQueue &queue, const QByteArray &item)
    {
        const Status pushed = queue.pushItem(CancelToken(), item);
        if (pushed)
            accepted.append(item);
        return pushed;
    }
    // Pops up to `max` items, waiting up to `wait` for the first.
    Result<std::vector<PoppedItem>> pop(LevelQueue &queue, int max, std::chrono::milliseconds wait = 50ms)
    {
        Result<std::vector<PoppedItem>> popped = queue.popItems(CancelToken(), max, SteadyClock::now() + wait);
        if (popped) {
            for (const PoppedItem &item : *popped)
                ++handedOut[item.data];
        }
        return popped;
    }
    void ack(LevelQueue &queue, const std::vector<PoppedItem> &items)
    {
        if (items.empty())
            return;
        if (const Status ack = queue.ack(CancelToken(), items); !ack) {
            for (const PoppedItem &item : items)
                ackFailed.insert(item.data);
        } else {
            acked += int(items.size());
        }
    }
    // Pops up to `max` items (waiting briefly) and acknowledges them. Returns how many it popped.
    Result<int> popAndAck(LevelQueue &queue, int max)
    {
        const Result<std::vector<PoppedItem>> popped = pop(queue, max);
        if (!popped)
            return popped.status();
        ack(queue, *popped);
        return int(popped->size());
    }
    // Pops and acknowledges until nothing waits. Returns the first failure.
    Status drain(LevelQueue &queue)
    {
        while (true) {
            const Result<int> popped = popAndAck(queue, 64);
            if (!popped)
                return popped.status();
            if (*popped == 0 && *queue.len(CancelToken()) == 0)
                return Status::ok();
        }
    }
    // Items handed out more than once, and items handed out that were never accepted.
    int duplicates() const
    {
        int count = 0;
        for (auto it = handedOut.cbegin(); it != handedOut.cend(); ++it)
            count += it.value() - 1;
        return count;
    }
    QStringList strangers() const
    {
        const QSet<QByteArray> known(accepted.cbegin(), accepted.cend());
        QStringList found;
        for (auto it = handedOut.cbegin(); it != handedOut.cend(); ++it) {
            if (!known.contains(it.key()))
                found.append(QString::fromLatin1(it.key().left(10)));
        }
        return found;
    }
    QStringList neverHandedOut() const
    {
        QStringList missing;
        for (const QByteArray &item : accepted) {
            if (!handedOut.contains(item))
                missing.append(QString::fromLatin1(item.left(10)));
        }
        return missing;
    }
};

// A push the full disk refused: Unavailable, naming the queue and its directory, and the cause.
bool refusedForTheDisk(const Status &status, const QString &queue, const QString &directory)
{
    return status.code() == Status::Code::Unavailable && status.message().contains(queue) &&
           status.message().contains(directory) && status.message().contains(errorText(ENOSPC));
}

}  // namespace

// A bare LevelDB database (created) whose recovery reports what it dropped in `drops`.
class DropLog final : public leveldb::Logger
{
public:
    void Logv(const char *format, va_list ap) override
    {
        char line[1024];
        std::vsnprintf(line, sizeof line, format, ap);
        if (std::strstr(line, "dropping"))
            drops.append(QString::fromUtf8(line));
    }
    QStringList drops;  // written by the thread that opens the database (recovery)
};

std::unique_ptr<leveldb::DB> openDb(const QString &path, DropLog *log)
{
    leveldb::Options options;
    options.create_if_missing = true;
    options.info_log = log;
    leveldb::DB *raw = nullptr;
    if (!leveldb::DB::Open(options, path.toStdString(), &raw).ok())
        return nullptr;
    return std::unique_ptr<leveldb::DB>(raw);
}

leveldb::WriteBatch putBatch(const std::string &key, const std::string &value)
{
    leveldb::WriteBatch batch;
    batch.Put(key, value);
    return batch;
}

class TestLevelQueueFull : public QObject
{
    Q_OBJECT

    // Drains `queue`: every item `ledger` says was accepted is handed out, once, and nothing
    // else; nothing was counted lost or reported damaged meanwhile (`reports`).
    static void everythingHandedOutOnce(LevelQueue &queue, Ledger &ledger, const QStringList &reports)
    {
        const Status drained = ledger.drain(queue);
        QVERIFY2(drained, qPrintable(drained.message()));
        QVERIFY2(ledger.neverHandedOut().isEmpty(), qPrintable(ledger.neverHandedOut().join(QLatin1Char(' '))));
        QVERIFY2(ledger.strangers().isEmpty(), qPrintable(ledger.strangers().join(QLatin1Char(' '))));
        QCOMPARE(ledger.duplicates(), 0);
        QCOMPARE(queue.corruptDropped(), qint64(0));
        QVERIFY2(reports.isEmpty(), qPrintable(reports.join(QLatin1Char('\n'))));
    }

    // Restarts the queue at `path` (after the disk has room again): nothing is reported damaged,
    // nothing counted lost, and what comes back is only what `ledger` says may: the items whose
    // ack failed (`mayComeBack`, in flight when the queue closed) — nothing acknowledged.
    static void restartFindsNoDamage(const QString &path, bool unique, bool sync, const QSet<QByteArray> &mayComeBack,
                                     qint64 expectedBack)
    {
        QStringList reports;
        auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("full"), path, 100000, unique, sync,
                                         fullDiskTiming(), [&](const QString &message) { reports.append(message); });
        QVERIFY2(reopened, qPrintable(reopened.status().message()));
        LevelQueue &queue = **reopened;
        QVERIFY2(reports.isEmpty(), qPrintable(reports.join(QLatin1Char('\n'))));
        QCOMPARE(queue.corruptDropped(), qint64(0));
        QCOMPARE(*queue.len(CancelToken()), expectedBack);
        Ledger after;
        const Status drained = after.drain(queue);
        QVERIFY2(drained, qPrintable(drained.message()));
        for (auto it = after.handedOut.cbegin(); it != after.handedOut.cend(); ++it)
            QVERIFY2(mayComeBack.contains(it.key()),
                     qPrintable(QStringLiteral("item %1 came back").arg(QString::fromLatin1(it.key().left(10)))));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(g_mountError.isEmpty(), qPrintable(g_mountError)); }

    // LevelWriter on its own: a failed write refuses every later one, keeps the Later batches
    // (the failed write's and those that come since) and writes them, first, to the database
    // its owner reopened. The failed write's own batch is not there; nothing was damaged.
    void theWriterKeepsLaterBatchesForTheReopenedDatabase()
    {
        const SmallDisk disk(4 << 20);
        QVERIFY2(disk.error().isEmpty(), qPrintable(disk.error()));
        const QString path = disk.filePath(QStringLiteral("db"));
        DropLog log;
        std::unique_ptr<leveldb::DB> db = openDb(path, &log);
        QVERIFY(db);
        const auto value = [&](const std::string &key) {
            std::string found;
            return db->Get(leveldb::ReadOptions(), key, &found).ok() ? found : std::string("(none)");
        };
        LevelWriter writer(db.get(), QStringLiteral("test"));
        QVERIFY(writer.write(putBatch("before", "0"), false));
        QVERIFY(disk.fill(64 << 10));
        QVERIFY(writer.write(putBatch("later", "1"), false, LevelWriter::Wait::Later));
        const Status failed = writer.write(putBatch("big", std::string(256 << 10, 'x')), false);
        QVERIFY2(!failed && failed.message().contains(errorText(ENOSPC)), qPrintable(failed.message()));
        QVERIFY(writer.failed());
        QCOMPARE(writer.failure().message(), failed.message());

        const Status refused = writer.write(putBatch("small", "2"), false);
        QCOMPARE(refused.code(), Status::Code::Unavailable);
        QVERIFY2(refused.message().contains(failed.message()), qPrintable(refused.message()));
        QVERIFY(writer.write(putBatch("later", "3"), false, LevelWriter::Wait::Later));
        QVERIFY(writer.write(putBatch("also later", "4"), false, LevelWriter::Wait::Later));
        writer.flush();
        QCOMPARE(value("later"), std::string("(none)"));  // kept, not written

        QVERIFY(disk.removeFiller());
        writer.suspend();
        db.reset();
        db = openDb(path, &log);
        QVERIFY(db);
        const Status resumed = writer.resume(db.get(), nullptr);
        QVERIFY2(resumed, qPrintable(resumed.message()));
        QVERIFY(!writer.failed());
        QCOMPARE(value("before"), std::string("0"));
        QCOMPARE(value("later"), std::string("3"));  // in their order
        QCOMPARE(value("also later"), std::string("4"));
        QCOMPARE(value("big"), std::string("(none)"));
        QCOMPARE(value("small"), std::string("(none)"));
        QVERIFY(writer.write(putBatch("after", "5"), false));
        QCOMPARE(value("after"), std::string("5"));
        QVERIFY2(log.drops.isEmpty(), qPrintable(log.drops.join(QLatin1Char('\n'))));
    }

    // A write to LevelDB's log fails for want of room. Until the disk has room again every push
    // fails, pops and acks go on (a unique queue's pops write at once: they fail too). Then the
    // queue writes again on its own, hands out every accepted item once, and a restart finds the
    // logs whole: only items whose ack failed (SYNC: an ack is written at once) come back.
    void aFullLogIsSurvivedAndWritingResumesWhenSpaceReturns_data()
    {
        QTest::addColumn<bool>("unique");
        QTest::addColumn<bool>("sync");
        QTest::newRow("simple") << false << false;
        QTest::newRow("unique") << true << false;
        QTest::newRow("sync") << false << true;
    }
    void aFullLogIsSurvivedAndWritingResumesWhenSpaceReturns()
    {
        QFETCH(bool, unique);
        QFETCH(bool, sync);
        const SmallDisk disk(8 << 20);
        QVERIFY2(disk.error().isEmpty(), qPrintable(disk.error()));
        // 1.5 MiB for the queue: its log fills it long before LevelDB's 4 MiB memtable would
        // switch to a new log, so the failing write is a log's.
        QVERIFY(disk.fill(1536 << 10));
        const QString path = disk.filePath(QStringLiteral("full_queue"));
        QStringList reports;
        auto opened = LevelQueue::open(CancelToken(), QStringLiteral("full"), path, 100000, unique, sync,
                                       fullDiskTiming(), [&](const QString &message) { reports.append(message); });
        QVERIFY2(opened, qPrintable(opened.status().message()));
        LevelQueue &queue = **opened;
        QRandomGenerator random(1);
        Ledger ledger;
        int next = 0;
        Status failed;
        // Items in hand before the disk fills: one is acknowledged before each push, and that
        // push carries the ack (without SYNC), the one that fails too.
        while (disk.available() > (640 << 10)) {
            const Status pushed = ledger.push(queue, bigItem(next++, random));
            QVERIFY2(pushed, qPrintable(pushed.message()));
        }
        Result<std::vector<PoppedItem>> held = ledger.pop(queue, next);
        QVERIFY2(held && held->size() == size_t(next), qPrintable(held.status().message()));
        do {
            QVERIFY2(!held->empty(), "the disk had room for more items than were popped before");
            ledger.ack(queue, {held->back()});
            held->pop_back();
        } while ((failed = ledger.push(queue, bigItem(next++, random))));
        QVERIFY2(refusedForTheDisk(failed, QStringLiteral("full"), path), qPrintable(failed.message()));
        ledger.ack(queue, *held);

        // While the disk is full.
        for (int round = 0; round < 3; ++round) {
            const Status pushed = ledger.push(queue, bigItem(next++, random));
            QVERIFY2(refusedForTheDisk(pushed, QStringLiteral("full"), path), qPrintable(pushed.message()));
            const Result<int> popped = ledger.popAndAck(queue, 10);
            if (unique)
                QVERIFY2(refusedForTheDisk(popped.status(), QStringLiteral("full"), path),
                         qPrintable(popped.status().message()));
            else
                QVERIFY2(popped && *popped == 10, qPrintable(popped.status().message()));
        }

        // Space returns: the queue writes again without being reopened by its owner.
        QVERIFY(disk.removeFiller());
        Status resumed;
        QVERIFY2(Test::eventually([&] { return (resumed = ledger.push(queue, bigItem(next++, random))).isOk(); }, 10s),
                 qPrintable(resumed.message()));
        for (int i = 0; i < 50; ++i) {
            const Status pushed = ledger.push(queue, bigItem(next++, random));
            QVERIFY2(pushed, qPrintable(pushed.message()));
        }
        everythingHandedOutOnce(queue, ledger, reports);
        if (QTest::currentTestFailed())
            return;
        if (!sync)
            QVERIFY(ledger.ackFailed.isEmpty());  // an ack rides on a later write: kept until the reopen
        queue.close();
        opened->reset();

        restartFindsNoDamage(path, unique, sync, ledger.ackFailed, ledger.ackFailed.size());
    }

    // A compaction fails for want of room: LevelDB's background error, after which it refuses
    // every write until the database is reopened. The log itself fits (its size at LevelDB's
    // switch to a second log is measured first on an ordinary disk), the table does not.
    void aFailedCompactionIsSurvivedAndWritingResumesWhenSpaceReturns()
    {
        // The size of the first log when the memtable is full and LevelDB starts a second one.
        qint64 firstLog = 0;
        {
            QTemporaryDir scratch;
            const QString path = scratch.filePath(QStringLiteral("calibration"));
            auto queue =
                LevelQueue::open(CancelToken(), QStringLiteral("full"), path, 100000, false, true, fullDiskTiming());
            QVERIFY2(queue, qPrintable(queue.status().message()));
            QRandomGenerator random(2);
            const QString first = logsIn(path).constFirst();
            for (int i = 0; logsIn(path).constLast() == first; ++i) {
                QVERIFY2(i < 5000, "LevelDB never started a second log");
                firstLog = QFileInfo(QDir(path).filePath(first)).size();
                QVERIFY((*queue)->pushItem(CancelToken(), bigItem(i, random)));
            }
        }

        const LevelDbWatch watch;
        const SmallDisk disk(firstLog + (8 << 20));
        QVERIFY2(disk.error().isEmpty(), qPrintable(disk.error()));
        const QString path = disk.filePath(QStringLiteral("full_queue"));
        QStringList reports;
        auto opened = LevelQueue::open(CancelToken(), QStringLiteral("full"), path, 100000, false, true,
                                       fullDiskTiming(), [&](const QString &message) { reports.append(message); });
        QVERIFY2(opened, qPrintable(opened.status().message()));
        LevelQueue &queue = **opened;
        // Room for the first log and 512 KiB: the table its compaction writes does not fit.
        QVERIFY(disk.fill(firstLog + (512 << 10)));
        QRandomGenerator random(2);
        Ledger ledger;
        int next = 0;
        const QString first = logsIn(path).constFirst();
        Status switched;
        while (logsIn(path).constLast() == first) {
            switched = ledger.push(queue, bigItem(next++, random));
            if (!switched)
                break;
        }
        // The push that starts the second log races the compaction it triggers for the last
        // 512 KiB. Usually its record is written first and the table is what fails; when the
        // table's first blocks win (seen under ThreadSanitizer), that push is refused for the
        // disk instead — refused, not accepted, so the ledger does not count it.
        if (!switched) {
            QVERIFY2(logsIn(path).constLast() != first, qPrintable(switched.message()));
            QVERIFY2(refusedForTheDisk(switched, QStringLiteral("full"), path), qPrintable(switched.message()));
        }
        // The compaction runs now. Nothing is written until it has failed: LevelDB logs the failed
        // table, then records its background error before it lets a write in.
        QVERIFY2(Test::eventually([] { return g_compactionFailed.load(); }), "LevelDB's compaction did not fail");
        const Status failed = ledger.push(queue, "small " + QByteArray::number(next++));
        QVERIFY2(refusedForTheDisk(failed, QStringLiteral("full"), path), qPrintable(failed.message()));
        if (switched) {
            QVERIFY2(failed.message().contains(QLatin1String(".ldb")),
                     qPrintable(failed.message()));  // the table's write failed
        }

        // While the disk is full: pops go on (SYNC: their acks fail, those items stay in flight).
        for (int round = 0; round < 3; ++round) {
            const Status pushed = ledger.push(queue, "small " + QByteArray::number(next++));
            QVERIFY2(refusedForTheDisk(pushed, QStringLiteral("full"), path), qPrintable(pushed.message()));
            const Result<int> popped = ledger.popAndAck(queue, 10);
            QVERIFY2(popped && *popped == 10, qPrintable(popped.status().message()));
        }
        QCOMPARE(int(ledger.ackFailed.size()), 30);

        QVERIFY(disk.removeFiller());
        Status resumed;
        QVERIFY2(Test::eventually([&] { return (resumed = ledger.push(queue, bigItem(next++, random))).isOk(); }, 10s),
                 qPrintable(resumed.message()));
        everythingHandedOutOnce(queue, ledger, reports);
        if (QTest::currentTestFailed())
            return;
        queue.close();
        opened->reset();

        restartFindsNoDamage(path, false, true, ledger.ackFailed, ledger.ackFailed.size());
    }

    // The reopen replaces the database handle while other threads use the queue: two pushers, a
    // popper that acknowledges what it takes, and a thread that peeks, asks hasItem() and len(),
    // through three full-disk episodes. Nothing fails but with Unavailable, nothing is lost or
    // handed out twice, and a restart finds no damage (run under ThreadSanitizer too).
    void pushesPopsAndPeeksSideBySideSurviveFullDisks_data()
    {
        QTest::addColumn<bool>("unique");
        QTest::newRow("simple") << false;
        QTest::newRow("unique") << true;
    }
    void pushesPopsAndPeeksSideBySideSurviveFullDisks()
    {
        QFETCH(bool, unique);
        const SmallDisk disk(32 << 20);
        QVERIFY2(disk.error().isEmpty(), qPrintable(disk.error()));
        const QString path = disk.filePath(QStringLiteral("busy_queue"));
        QStringList reports;
        auto opened = LevelQueue::open(CancelToken(), QStringLiteral("full"), path, 100000, unique, false,
                                       fullDiskTiming(), [&](const QString &message) { reports.append(message); });
        QVERIFY2(opened, qPrintable(opened.status().message()));
        LevelQueue &queue = **opened;
        std::mutex mutex;
        Ledger ledger;           // guarded by mutex
        QStringList unexpected;  // guarded by mutex
        std::atomic<int> accepted = 0;
        std::atomic<int> refused = 0;
        std::atomic<bool> stop = false;
        const auto expectUnavailable = [&](const Status &status) {
            if (status.code() != Status::Code::Unavailable) {
                const std::lock_guard lock(mutex);
                unexpected.append(status.toString());
            }
        };
        std::vector<std::thread> threads;
        for (int t = 0; t < 2; ++t) {
            threads.emplace_back([&, t] {
                QRandomGenerator random(10 + t);
                for (int n = 0; !stop; ++n) {
                    QByteArray item = bigItem(t * 1000000 + n, random);
                    item.truncate(1000);
                    if (const Status pushed = queue.pushItem(CancelToken(), item); pushed) {
                        const std::lock_guard lock(mutex);
                        ledger.accepted.append(item);
                        ++accepted;
                    } else {
                        expectUnavailable(pushed);
                        ++refused;
                    }
                    std::this_thread::sleep_for(1ms);  // pacing: the disk must not fill by itself
                }
            });
        }
        threads.emplace_back([&] {
            while (!stop) {
                const auto popped = queue.popItems(CancelToken(), 16, SteadyClock::now() + 5ms);
                if (!popped) {
                    expectUnavailable(popped.status());  // a unique queue's pop writes at once
                    std::this_thread::sleep_for(1ms);
                    continue;
                }
                {
                    const std::lock_guard lock(mutex);
                    for (const PoppedItem &item : *popped)
                        ++ledger.handedOut[item.data];
                }
                if (const Status acked = queue.ack(CancelToken(), *popped); !acked)
                    expectUnavailable(acked);
            }
        });
        threads.emplace_back([&] {
            while (!stop) {
                if (const auto peeked = queue.peek(CancelToken(), 0, 5); !peeked)
                    expectUnavailable(peeked.status());
                if (const auto has = queue.hasItem(CancelToken(), "no such item"); !has)
                    expectUnavailable(has.status());
                if (const auto length = queue.len(CancelToken()); !length)
                    expectUnavailable(Status::internal(length.status().message()));
                std::this_thread::sleep_for(1ms);
            }
        });
        for (int episode = 0; episode < 3; ++episode) {
            QVERIFY(disk.fill(64 << 10));
            const int refusedBefore = refused;
            QVERIFY2(Test::eventually([&] { return refused > refusedBefore; }), "the disk did not fill");
            QVERIFY(disk.removeFiller());
            const int acceptedBefore = accepted;
            QVERIFY2(Test::eventually([&] { return accepted > acceptedBefore + 20; }), "no push accepted again");
        }
        stop = true;
        for (std::thread &thread : threads)
            thread.join();
        QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.join(QLatin1Char('\n'))));

        everythingHandedOutOnce(queue, ledger, reports);
        if (QTest::currentTestFailed())
            return;
        queue.close();
        opened->reset();
        restartFindsNoDamage(path, unique, false, {}, 0);
    }

    // The queue closes while the disk is still full (its database was never reopened): the acks
    // made meanwhile were never written, so those items come back after the restart; nothing
    // else does, nothing is lost, and the torn end of the log is no damage.
    void aQueueClosedOnAFullDiskRestartsWithoutDamage()
    {
        const SmallDisk disk(8 << 20);
        QVERIFY2(disk.error().isEmpty(), qPrintable(disk.error()));
        QVERIFY(disk.fill(1536 << 10));
        const QString path = disk.filePath(QStringLiteral("full_queue"));
        Ledger ledger;
        {
            auto opened =
                LevelQueue::open(CancelToken(), QStringLiteral("full"), path, 100000, false, false, fullDiskTiming());
            QVERIFY2(opened, qPrintable(opened.status().message()));
            LevelQueue &queue = **opened;
            QRandomGenerator random(3);
            int next = 0;
            Status failed;
            while ((failed = ledger.push(queue, bigItem(next++, random))))
                QVERIFY(next < 1000);
            QVERIFY2(refusedForTheDisk(failed, QStringLiteral("full"), path), qPrintable(failed.message()));
            for (int round = 0; round < 3; ++round) {
                const Result<int> popped = ledger.popAndAck(queue, 10);
                QVERIFY2(popped && *popped == 10, qPrintable(popped.status().message()));
            }
            queue.close();
        }
        QVERIFY(disk.removeFiller());
        const QSet<QByteArray> all(ledger.accepted.cbegin(), ledger.accepted.cend());
        restartFindsNoDamage(path, false, false, all, ledger.accepted.size());
    }
};

// Not QTEST_GUILESS_MAIN: the mount namespace must be entered before any thread exists.
int main(int argc, char *argv[])
{
    g_mountError = enterPrivateMountNamespace();
    QCoreApplication app(argc, argv);
    TestLevelQueueFull test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_levelqueuefull.moc"
