// LevelDB-specific queue behaviour on real files: a damaged write-ahead log (counted, reported,
// sequence closed up), opening (only a lock held by another opener is retried), the head-mark
// layout (in-flight and released items come back first, acked holes are not losses, the layout
// before it is converted), the in-memory window of the newest items, and the writes made outside
// the queue's lock (#22): group commit keeps each thread's order, a Later batch rides on the next
// write, and pushes, pops, releases and removeAll side by side lose and duplicate nothing.
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

// A bare LevelDB database (created), for the writer's tests and for writing an old layout by hand.
std::unique_ptr<leveldb::DB> openDb(const QString &path)
{
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::DB *raw = nullptr;
    if (!leveldb::DB::Open(options, path.toStdString(), &raw).ok())
        return nullptr;
    return std::unique_ptr<leveldb::DB>(raw);
}

// Rows of levelWindowBytes: none, room for about `items` items of itemNumber's size, the default.
void windowRows(int items)
{
    QTest::addColumn<qsizetype>("window");
    QTest::newRow("none") << qsizetype(0);
    QTest::newRow(qPrintable(QStringLiteral("%1 items").arg(items))) << qsizetype(items * (100 + 48));
    QTest::newRow("default") << QueueTiming().levelWindowBytes;
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
    // and some are left for another write to carry (Wait::Later). Each thread's writes still land
    // in its order: a key put, deleted without waiting, then put again ends with the last value.
    void groupCommitKeepsEachThreadsOrder()
    {
        QTemporaryDir dir;
        const std::unique_ptr<leveldb::DB> db = openDb(dir.filePath(QStringLiteral("db")));
        QVERIFY(db);
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
                    failures += writer.write(std::move(remove), false, LevelWriter::Wait::Later) ? 0 : 1;
                    if (i % 2 == 1) {
                        leveldb::WriteBatch again;
                        again.Put(key, "again");
                        failures += writer.write(std::move(again), false, i % 4 == 1 ? LevelWriter::Wait::Later : LevelWriter::Wait::UntilWritten) ? 0 : 1;
                    }
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(failures.load(), 0);
        writer.flush(); // the last batch left for a next write, if any
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

    // The layout (#22): a pop only moves the head mark, an ack deletes the item. Popped items
    // not acknowledged when the queue closed come back first, in their order, with released ones;
    // the holes acknowledged items leave below the mark are not taken for items a damaged log
    // lost; and removeAll moves the mark, so what it removed is not counted lost either.
    void inFlightAndReleasedItemsComeBackFirstAndAckedHolesAreNotLosses()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("marked"));
        {
            auto opened = LevelQueue::open(CancelToken(), QStringLiteral("marked"), path, 1000, false, false, timing());
            QVERIFY(opened);
            LevelQueue &queue = **opened;
            for (int i = 0; i < 10; ++i)
                QVERIFY(queue.pushItem(CancelToken(), itemNumber(i)));
            auto first = queue.popItems(CancelToken(), 4, std::nullopt); // 0..3
            QVERIFY(first && first->size() == 4);
            QVERIFY(queue.ack(CancelToken(), {(*first)[0], (*first)[2]})); // 0 and 2 handled
            auto second = queue.popItems(CancelToken(), 2, std::nullopt); // 4, 5
            QVERIFY(second && second->size() == 2);
            QVERIFY(queue.release(CancelToken(), *second)); // back in front, without a write
            QCOMPARE(*queue.len(CancelToken()), qint64(6));
            auto again = queue.popItems(CancelToken(), 1, std::nullopt);
            QVERIFY(again && again->size() == 1);
            QCOMPARE(again->front().data, itemNumber(4)); // released items come first
        } // closed with 1, 3 and 4 in flight, 5 released
        {
            auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("marked"), path, 1000, false, false, timing());
            QVERIFY(reopened);
            LevelQueue &queue = **reopened;
            QCOMPARE(queue.recoveredAtOpen(), qint64(4));
            QCOMPARE(queue.corruptDropped(), qint64(0));
            QCOMPARE(*queue.len(CancelToken()), qint64(8));
            auto popped = queue.popItems(CancelToken(), 100, std::nullopt);
            QVERIFY(popped);
            QList<QByteArray> order;
            for (const PoppedItem &item : *popped)
                order.append(item.data);
            QCOMPARE(order, (QList<QByteArray>{itemNumber(1), itemNumber(3), itemNumber(4), itemNumber(5), itemNumber(6),
                                               itemNumber(7), itemNumber(8), itemNumber(9)}));
            QVERIFY(queue.ack(CancelToken(), *popped));
            for (int i = 10; i < 15; ++i)
                QVERIFY(queue.pushItem(CancelToken(), itemNumber(i)));
            QCOMPARE(*queue.removeAll(CancelToken()), qint64(5));
            QVERIFY(queue.pushItem(CancelToken(), itemNumber(15)));
        }
        auto last = LevelQueue::open(CancelToken(), QStringLiteral("marked"), path, 1000, false, false, timing());
        QVERIFY(last);
        QCOMPARE((*last)->recoveredAtOpen(), qint64(0));
        QCOMPARE((*last)->corruptDropped(), qint64(0));
        auto rest = (*last)->popItems(CancelToken(), 100, std::nullopt);
        QVERIFY(rest && rest->size() == 1);
        QCOMPARE(rest->front().data, itemNumber(15));
    }

    // A unique queue forgets an item's membership when it is popped, so an equal item can be
    // queued while the first is in flight. At open the in-flight one is then dropped (the equal
    // one is queued); one with no equal item comes back and is a member again.
    void aUniqueQueueKeepsOneOfEqualItemsAtOpen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("unique"));
        {
            auto opened = LevelQueue::open(CancelToken(), QStringLiteral("unique"), path, 1000, true, false, timing());
            QVERIFY(opened);
            QVERIFY((*opened)->pushItem(CancelToken(), "a"));
            QVERIFY((*opened)->pushItem(CancelToken(), "b"));
            auto popped = (*opened)->popItems(CancelToken(), 2, std::nullopt);
            QVERIFY(popped && popped->size() == 2);
            QVERIFY((*opened)->pushItem(CancelToken(), "a")); // "a" in flight and queued
        }
        auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("unique"), path, 1000, true, false, timing());
        QVERIFY(reopened);
        LevelQueue &queue = **reopened;
        QCOMPARE(queue.recoveredAtOpen(), qint64(1));
        QVERIFY(*queue.hasItem(CancelToken(), "a"));
        QVERIFY(*queue.hasItem(CancelToken(), "b"));
        QCOMPARE(queue.pushItem(CancelToken(), "b").code(), Status::Code::AlreadyExists);
        auto popped = queue.popItems(CancelToken(), 10, std::nullopt);
        QVERIFY(popped);
        QCOMPARE(popped->size(), size_t(2));
        QCOMPARE((*popped)[0].data, QByteArray("b"));
        QCOMPARE((*popped)[1].data, QByteArray("a"));
    }

    // Queues written before #22 moved popped items to 'f' keys: at open those come back first,
    // oldest first, and the queue goes on in the new layout.
    void theLayoutBeforeTheHeadMarkIsConverted()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("legacy"));
        {
            const std::unique_ptr<leveldb::DB> db = openDb(path);
            QVERIFY(db);
            const auto key = [](char prefix, quint64 seq) {
                std::string k(9, '\0');
                k[0] = prefix;
                for (int i = 0; i < 8; ++i)
                    k[size_t(8 - i)] = char((seq >> (8 * i)) & 0xff);
                return k;
            };
            leveldb::WriteBatch batch;
            const quint64 middle = quint64(1) << 62;
            batch.Put(key('q', middle + 2), "waiting-1");
            batch.Put(key('q', middle + 3), "waiting-2");
            batch.Put(key('f', 7), "in-flight-1");
            batch.Put(key('f', 8), "in-flight-2");
            QVERIFY(db->Write(leveldb::WriteOptions(), &batch).ok());
        }
        QList<QByteArray> order;
        {
            auto opened = LevelQueue::open(CancelToken(), QStringLiteral("legacy"), path, 1000, false, false, timing());
            QVERIFY2(opened, qPrintable(opened.status().message()));
            QCOMPARE((*opened)->recoveredAtOpen(), qint64(2));
            QCOMPARE((*opened)->corruptDropped(), qint64(0));
            auto popped = (*opened)->popItems(CancelToken(), 2, std::nullopt);
            QVERIFY(popped);
            for (const PoppedItem &item : *popped)
                order.append(item.data);
            QVERIFY((*opened)->ack(CancelToken(), *popped));
        }
        QCOMPARE(order, (QList<QByteArray>{"in-flight-1", "in-flight-2"}));
        auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("legacy"), path, 1000, false, false, timing());
        QVERIFY(reopened);
        QCOMPARE((*reopened)->recoveredAtOpen(), qint64(0));
        auto rest = (*reopened)->popItems(CancelToken(), 10, std::nullopt);
        QVERIFY(rest && rest->size() == 2);
        QCOMPARE((*rest)[0].data, QByteArray("waiting-1"));
        QCOMPARE((*rest)[1].data, QByteArray("waiting-2"));
    }

    // A popper short of items polls for levelPopSpin, then sleeps until its deadline or a push.
    // Its deadline holds past the poll (a partial batch comes back when the time is up, not
    // sooner), and a push wakes it whether it finds it polling or asleep: 50 rounds each with no
    // poll and with a short one (a lost wake-up hangs until the test's timeout).
    void aPopperShortOfItemsWaitsForAPushAfterItsPoll()
    {
        for (const auto spin : {std::chrono::microseconds(0), std::chrono::microseconds(50)}) {
            QTemporaryDir dir;
            QueueTiming t = timing();
            t.levelPopSpin = spin;
            auto opened = LevelQueue::open(CancelToken(), QStringLiteral("spin"), dir.filePath(QStringLiteral("spin")), 1000, false, false, t);
            QVERIFY(opened);
            LevelQueue &queue = **opened;
            QVERIFY(queue.pushItem(CancelToken(), "one"));
            // Two wanted, one there, 20 ms to wait: the one comes back when the time is up.
            const auto before = SteadyClock::now();
            auto partial = queue.popItems(CancelToken(), 10, before + 20ms, 2);
            QVERIFY(SteadyClock::now() - before >= 20ms);
            QVERIFY(partial && partial->size() == 1);
            QVERIFY(queue.ack(CancelToken(), *partial));
            for (int round = 0; round < 50; ++round) {
                std::atomic<bool> popping = false;
                Result<std::vector<PoppedItem>> woken = std::vector<PoppedItem>();
                std::thread popper([&] {
                    popping = true;
                    woken = queue.popItems(CancelToken(), 10, std::nullopt); // no time limit: a push must wake it
                });
                QVERIFY(Test::eventually([&] { return popping.load(); }));
                const QByteArray item = QByteArray::number(round);
                QVERIFY(queue.pushItem(CancelToken(), item));
                popper.join();
                QVERIFY(woken && woken->size() == 1);
                QCOMPARE(woken->front().data, item);
                QVERIFY(queue.ack(CancelToken(), *woken));
            }
        }
    }

    // A Later batch waits for the next write and lands in it, before that write's own batch; a
    // second Later batch does not wait behind the first (at most one waits); flush() and the
    // writer's end write what waits.
    void aLaterBatchRidesOnTheNextWrite()
    {
        QTemporaryDir dir;
        const std::unique_ptr<leveldb::DB> db = openDb(dir.filePath(QStringLiteral("db")));
        QVERIFY(db);
        const auto value = [&](const std::string &key) {
            std::string found;
            return db->Get(leveldb::ReadOptions(), key, &found).ok() ? found : std::string("(none)");
        };
        const auto batch = [](const std::string &key, const std::string &value) {
            leveldb::WriteBatch put;
            put.Put(key, value);
            return put;
        };
        {
            LevelWriter writer(db.get(), QStringLiteral("test"));
            QVERIFY(writer.write(batch("k", "later"), false, LevelWriter::Wait::Later));
            QCOMPARE(value("k"), std::string("(none)"));
            QVERIFY(writer.write(batch("k", "now"), false)); // after the waiting one: its value wins
            QCOMPARE(value("k"), std::string("now"));

            QVERIFY(writer.write(batch("a", "1"), false, LevelWriter::Wait::Later));
            QVERIFY(writer.write(batch("b", "2"), false, LevelWriter::Wait::Later)); // one waits already: both go
            QCOMPARE(value("a"), std::string("1"));
            QCOMPARE(value("b"), std::string("2"));

            QVERIFY(writer.write(batch("c", "3"), false, LevelWriter::Wait::Later));
            QCOMPARE(value("c"), std::string("(none)"));
            writer.flush();
            QCOMPARE(value("c"), std::string("3"));

            QVERIFY(writer.write(batch("d", "4"), false, LevelWriter::Wait::Later));
        }
        QCOMPARE(value("d"), std::string("4")); // written when the writer ended
    }

    // The window (levelWindowBytes): a pop takes the newest items from memory and older ones
    // from LevelDB, in one order. With no window, with room for about two items (pops cross from
    // LevelDB into the window and pushes drop its oldest), and with the default: batches and
    // unique queues (whose skipped duplicates must not shift the window) hand out exactly what was
    // pushed, released items come first, and a reopened queue (nothing in memory) reads the rest.
    void theWindowHandsOutWhatLevelDBHolds_data() { windowRows(2); }
    void theWindowHandsOutWhatLevelDBHolds()
    {
        QFETCH(qsizetype, window);
        QTemporaryDir dir;
        QueueTiming t = timing();
        t.levelWindowBytes = window;
        const auto data = [](const std::vector<PoppedItem> &items) {
            QList<QByteArray> list;
            for (const PoppedItem &item : items)
                list.append(item.data);
            return list;
        };
        for (const bool unique : {false, true}) {
            const QString path = dir.filePath(unique ? QStringLiteral("unique") : QStringLiteral("plain"));
            {
                auto opened = LevelQueue::open(CancelToken(), QStringLiteral("window"), path, 1000, unique, false, t);
                QVERIFY(opened);
                LevelQueue &queue = **opened;
                for (int i = 0; i < 4; ++i)
                    QVERIFY(queue.pushItem(CancelToken(), itemNumber(i)));
                // 2 twice and 0 again: a unique queue skips them.
                QVERIFY(queue.pushItems(CancelToken(), {itemNumber(4), itemNumber(2), itemNumber(5), itemNumber(2), itemNumber(6), itemNumber(0)}));
                QList<QByteArray> expected{itemNumber(0), itemNumber(1), itemNumber(2), itemNumber(3), itemNumber(4)};
                expected += unique ? QList<QByteArray>{itemNumber(5), itemNumber(6)}
                                   : QList<QByteArray>{itemNumber(2), itemNumber(5), itemNumber(2), itemNumber(6), itemNumber(0)};
                auto first = queue.popItems(CancelToken(), 3, std::nullopt);
                QVERIFY(first);
                QCOMPARE(data(*first), expected.mid(0, 3));
                QVERIFY(queue.release(CancelToken(), {(*first)[1]})); // 1 goes back in front
                auto second = queue.popItems(CancelToken(), 4, std::nullopt);
                QVERIFY(second);
                QCOMPARE(data(*second), QList<QByteArray>{expected[1]} + expected.mid(3, 3));
                QVERIFY(queue.ack(CancelToken(), *first));
                QVERIFY(queue.ack(CancelToken(), *second));
                QVERIFY(queue.pushItem(CancelToken(), itemNumber(7)));
                expected.append(itemNumber(7));
                auto third = queue.popItems(CancelToken(), 1, std::nullopt); // in flight at close
                QVERIFY(third);
                QCOMPARE(data(*third), expected.mid(6, 1));
                QCOMPARE(*queue.len(CancelToken()), qint64(expected.size() - 7));
            }
            auto reopened = LevelQueue::open(CancelToken(), QStringLiteral("window"), path, 1000, unique, false, t);
            QVERIFY(reopened);
            LevelQueue &queue = **reopened;
            QList<QByteArray> expected = unique ? QList<QByteArray>{itemNumber(6), itemNumber(7)}
                                                : QList<QByteArray>{itemNumber(5), itemNumber(2), itemNumber(6), itemNumber(0), itemNumber(7)};
            auto rest = queue.popItems(CancelToken(), 100, std::nullopt);
            QVERIFY(rest);
            QCOMPARE(data(*rest), expected);
            QVERIFY(queue.ack(CancelToken(), *rest));
            // After a removeAll the window starts again at the tail.
            QVERIFY(queue.pushItems(CancelToken(), {itemNumber(8), itemNumber(9)}));
            QCOMPARE(*queue.removeAll(CancelToken()), qint64(2));
            QVERIFY(queue.pushItems(CancelToken(), {itemNumber(10), itemNumber(11), itemNumber(12)}));
            auto last = queue.popItems(CancelToken(), 100, std::nullopt);
            QVERIFY(last);
            QCOMPARE(data(*last), (QList<QByteArray>{itemNumber(10), itemNumber(11), itemNumber(12)}));
        }
    }

    // Three pushers, two consumers that put every third batch back, and a removeAll in the middle:
    // every item is acknowledged once or removed once, and a reopened queue holds nothing. With no
    // window, a small one (pops cross from LevelDB into it while pushes drop its oldest) and the
    // default.
    void pushesPopsReleasesAndRemoveAllSideBySideLoseNothing_data() { windowRows(20); }
    void pushesPopsReleasesAndRemoveAllSideBySideLoseNothing()
    {
        QFETCH(qsizetype, window);
        QueueTiming t = timing();
        t.levelWindowBytes = window;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("busy"));
        constexpr int kPushers = 3;
        constexpr int kPerPusher = 600;
        {
            auto opened = LevelQueue::open(CancelToken(), QStringLiteral("busy"), path, 100000, false, false, t);
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
