// LevelDB-specific queue behaviour on real files: a damaged write-ahead log (counted, reported,
// sequence closed up), opening (only a lock held by another opener is retried), and the writes
// made outside the queue's lock (#22): group commit keeps each thread's order, and pushes, pops,
// releases and removeAll side by side lose and duplicate nothing.
#include "engine/queue/levelqueue.h"
#include "engine/queue/levelwriter.h"

#include "support/wait.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include <atomic>
#include <mutex>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

QueueTiming timing(int openAttempts = 3, std::chrono::milliseconds interval = 10ms)
{
    QueueTiming t;
    t.levelOpenAttempts = openAttempts;
    t.levelOpenInterval = interval;
    t.pushBlockTime = 100ms;
    return t;
}

QByteArray itemNumber(int i)
{
    return QByteArray::number(i).rightJustified(100, '0'); // 100 bytes: 1000 items span several log blocks
}

} // namespace

class TestLevelQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void itemsLostToADamagedLogAreCountedAndReported()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged_queue"));
        {
            auto queue = LevelQueue::open(CancelToken(), QStringLiteral("damaged"), path, 100000, false, false, timing());
            QVERIFY(queue);
            for (int i = 0; i < 1000; ++i)
                QVERIFY((*queue)->pushItem(CancelToken(), itemNumber(i)));
        } // closed without compaction: the items live in the write-ahead log
        const QStringList logs = QDir(path).entryList({QStringLiteral("*.log")}, QDir::Files);
        QCOMPARE(logs.size(), 1);
        QFile log(QDir(path).filePath(logs.first()));
        QVERIFY(log.size() > 64 * 1024);
        QVERIFY(log.open(QIODevice::ReadWrite));
        QVERIFY(log.seek(1000));
        QCOMPARE(log.write(QByteArray(32, '\xA5')), qint64(32)); // 32 bytes overwritten in the first block
        log.close();

        QStringList reports;
        auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("damaged"), path, 100000, false, false, timing(),
                                         [&](const QString &message) { reports.append(message); });
        QVERIFY2(reopened, qPrintable(reopened.status().message()));
        LevelQueue &queue = **reopened;
        const qint64 lost = queue.corruptDropped();
        const qint64 left = *queue.len(CancelToken());
        QVERIFY2(lost > 0, "the items of the damaged block were not counted");
        QCOMPARE(lost + left, qint64(1000));
        QCOMPARE(reports.size(), 1);
        QVERIFY2(reports.first().contains(QStringLiteral("%1 stored item(s) were lost").arg(lost)), qPrintable(reports.first()));
        // The survivors come out in order, with no holes left to skip.
        QByteArray previous;
        qint64 popped = 0;
        while (popped < left) {
            const Result<std::vector<PoppedItem>> items = queue.popItems(CancelToken(), 100, std::nullopt);
            QVERIFY(items);
            for (const PoppedItem &item : *items) {
                QVERIFY(item.data > previous);
                previous = item.data;
            }
            popped += qint64(items->size());
        }
        QCOMPARE(popped, left);
        QCOMPARE(queue.corruptDropped(), lost); // nothing more found while popping
        QCOMPARE(previous, itemNumber(999));
    }

    void aDirectoryThatCannotBeOpenedFailsAtOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken_queue"));
        QVERIFY(QDir().mkpath(path));
        QFile current(QDir(path).filePath(QStringLiteral("CURRENT")));
        QVERIFY(current.open(QIODevice::WriteOnly));
        current.write("MANIFEST-does-not-exist\n");
        current.close();
        // A retry would wait an hour: the test's timeout would catch it.
        const auto opened = LevelQueue::open(CancelToken(), QStringLiteral("broken"), path, 10, false, false, timing(10, 1h));
        QVERIFY(!opened);
        QVERIFY(opened.status().message().contains(QLatin1String("broken")));
    }

    void aLockHeldByAnotherOpenerIsWaitedFor()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shared_queue"));
        auto first = LevelQueue::open(CancelToken(), QStringLiteral("shared"), path, 10, false, false, timing());
        QVERIFY(first);
        const auto refused = LevelQueue::open(CancelToken(), QStringLiteral("shared"), path, 10, false, false, timing(3, 5ms));
        QCOMPARE(refused.status().code(), Status::Code::Unavailable);
        QVERIFY(refused.status().message().contains(QLatin1String("lock")));

        Result<std::unique_ptr<LevelQueue>> second = Status::internal(QStringLiteral("not opened"));
        std::thread opener([&] { second = LevelQueue::open(CancelToken(), QStringLiteral("shared"), path, 10, false, false, timing(100000, 2ms)); });
        first->reset(); // the holder goes away while the other one retries
        opener.join();
        QVERIFY2(second, qPrintable(second.status().message()));
    }

    // Four threads write through one LevelWriter at once, so batches are combined into rounds
    // and some are left for another thread to write (Wait::No). Each thread's writes still land
    // in its order: a key put, deleted without waiting, then put again ends with the last value.
    void groupCommitKeepsEachThreadsOrder()
    {
        QTemporaryDir dir;
        leveldb::Options options;
        options.create_if_missing = true;
        leveldb::DB *raw = nullptr;
        QVERIFY(leveldb::DB::Open(options, dir.filePath(QStringLiteral("db")).toStdString(), &raw).ok());
        const std::unique_ptr<leveldb::DB> db(raw);
        LevelWriter writer(db.get(), QStringLiteral("test"));
        constexpr int kThreads = 4;
        constexpr int kKeys = 1500;
        std::atomic<int> failures = 0;
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < kKeys; ++i) {
                    const std::string key = std::to_string(t) + '/' + std::to_string(i);
                    leveldb::WriteBatch put;
                    put.Put(key, "first");
                    failures += writer.write(std::move(put), false) ? 0 : 1;
                    leveldb::WriteBatch remove;
                    remove.Delete(key);
                    failures += writer.write(std::move(remove), false, LevelWriter::Wait::No) ? 0 : 1;
                    if (i % 2 == 1) {
                        leveldb::WriteBatch again;
                        again.Put(key, "again");
                        failures += writer.write(std::move(again), false, i % 4 == 1 ? LevelWriter::Wait::No : LevelWriter::Wait::UntilWritten) ? 0 : 1;
                    }
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(failures.load(), 0);
        // Every thread has returned: whatever was left to another thread has been written.
        for (int t = 0; t < kThreads; ++t) {
            for (int i = 0; i < kKeys; ++i) {
                std::string value;
                const leveldb::Status found = db->Get(leveldb::ReadOptions(), std::to_string(t) + '/' + std::to_string(i), &value);
                if (i % 2 == 1)
                    QVERIFY2(found.ok() && value == "again", qPrintable(QStringLiteral("%1/%2").arg(t).arg(i)));
                else
                    QVERIFY2(found.IsNotFound(), qPrintable(QStringLiteral("%1/%2").arg(t).arg(i)));
            }
        }
    }

    // Three pushers, two consumers that put every third batch back, and a removeAll in the middle:
    // every item is acknowledged once or removed once, and a reopened queue holds nothing.
    void pushesPopsReleasesAndRemoveAllSideBySideLoseNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("busy"));
        constexpr int kPushers = 3;
        constexpr int kPerPusher = 600;
        {
            auto opened = LevelQueue::open(CancelToken(), QStringLiteral("busy"), path, 100000, false, false, timing());
            QVERIFY(opened);
            LevelQueue &queue = **opened;
            std::mutex mutex;
            QSet<QByteArray> acked;
            int duplicates = 0;
            std::atomic<qint64> removed = 0;
            std::atomic<int> pushFailures = 0; // and failed acks and releases
            CancelSource stop;
            std::vector<std::thread> threads;
            for (int c = 0; c < 2; ++c) {
                threads.emplace_back([&] {
                    for (int round = 1;; ++round) {
                        auto popped = queue.popItems(stop.token(), 7, std::nullopt);
                        if (!popped)
                            return;
                        if (round % 3 == 0) {
                            if (!queue.release(CancelToken(), *popped))
                                ++pushFailures;
                            continue;
                        }
                        if (!queue.ack(CancelToken(), *popped))
                            ++pushFailures;
                        std::lock_guard lock(mutex);
                        for (const PoppedItem &item : *popped) {
                            duplicates += acked.contains(item.data) ? 1 : 0;
                            acked.insert(item.data);
                        }
                    }
                });
            }
            std::vector<std::thread> pushers;
            for (int p = 0; p < kPushers; ++p) {
                pushers.emplace_back([&, p] {
                    for (int i = 0; i < kPerPusher; ++i) {
                        if (!queue.pushItem(CancelToken(), itemNumber(p * kPerPusher + i)))
                            ++pushFailures;
                        if (p == 0 && i == kPerPusher / 2)
                            removed += queue.removeAll(CancelToken()).value();
                    }
                });
            }
            for (std::thread &pusher : pushers)
                pusher.join();
            QCOMPARE(pushFailures.load(), 0);
            const auto settled = [&] {
                std::lock_guard lock(mutex);
                return qint64(acked.size()) + removed == kPushers * kPerPusher && *queue.len(CancelToken()) == 0;
            };
            QVERIFY(Test::eventually(settled));
            stop.cancel();
            for (std::thread &thread : threads)
                thread.join();
            QCOMPARE(duplicates, 0);
            QCOMPARE(qint64(acked.size()) + removed.load(), qint64(kPushers * kPerPusher));
        }
        auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("busy"), path, 100000, false, false, timing());
        QVERIFY(reopened);
        QCOMPARE(*(*reopened)->len(CancelToken()), qint64(0));
        QCOMPARE((*reopened)->recoveredAtOpen(), qint64(0));
        QCOMPARE((*reopened)->corruptDropped(), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestLevelQueue)
#include "tst_levelqueue.moc"
