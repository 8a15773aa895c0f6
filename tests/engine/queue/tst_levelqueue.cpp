// LevelDB-specific queue behaviour on real files: a damaged write-ahead log (counted, reported,
// sequence closed up), and opening: only a lock held by another opener is retried.
#include "engine/queue/levelqueue.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestLevelQueue)
#include "tst_levelqueue.moc"
