// At-least-once across crashes (SPEC §2.1): a child process handling a persistent queue is
// killed with SIGKILL again and again in the middle of handling. Every pushed item must be
// handled at least once, and the duplicates stay within the bound of SPEC §2.1:
// kills × (workers × batch + batch).
#include "engine/queue/levelqueue.h"
#include "engine/queue/redisqueue.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QFile>
#include <QHash>
#include <QDeadlineTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Switchyard;
using namespace std::chrono_literals;

#include "engine/core/childprocess.h"

using Switchyard::ChildProcess;

namespace {

constexpr int kItems = 4000;
constexpr int kKills = 8;
constexpr int kWorkers = 2; // as in crashchild.cpp
constexpr int kBatch = 10;

qint64 lineCount(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readAll().count('\n');
}

} // namespace

class TestQueueCrash : public QObject
{
    Q_OBJECT

    void runScenario(const QString &backend, const QString &target, const QString &logPath)
    {
        for (int kill = 0; kill < kKills; ++kill) {
            ChildProcess child; // stdout piped ("running"), stderr ours
            ChildProcess::Options spawn;
            spawn.output = ChildProcess::Output::StdoutOnly;
            QVERIFY(child.start(QStringLiteral(CRASHCHILD_PATH), {QStringLiteral("--backend"), backend, QStringLiteral("--target"), target,
                                                                   QStringLiteral("--log"), logPath},
                                spawn));
            QByteArray said;
            QDeadlineTimer started(20000);
            while (!said.contains("running") && !child.finished() && !started.hasExpired())
                said += child.read(50);
            QVERIFY2(said.contains("running"), said.constData());
            const qint64 before = lineCount(logPath);
            // Kill it in the middle of handling: once it has handled some more items.
            QVERIFY(Test::eventually([&] { return lineCount(logPath) >= before + 150 || child.finished(); }));
            QVERIFY(!child.finished());
            child.kill();
            QVERIFY(child.crashed());
        }
        ChildProcess drain;
        ChildProcess::Options spawn;
        spawn.output = ChildProcess::Output::Inherit;
        QVERIFY(drain.start(QStringLiteral(CRASHCHILD_PATH), {QStringLiteral("--backend"), backend, QStringLiteral("--target"), target,
                                                               QStringLiteral("--log"), logPath, QStringLiteral("--drain")},
                            spawn));
        QVERIFY(drain.waitForFinished(180000));
        QVERIFY(!drain.crashed());
        QCOMPARE(drain.exitCode(), 0);
    }

    void verify(const QString &logPath)
    {
        QFile file(logPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QHash<qint64, int> seen;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.isEmpty())
                ++seen[line.toLongLong()];
        }
        int missing = 0;
        qint64 duplicates = 0;
        for (qint64 i = 0; i < kItems; ++i) {
            const int count = seen.value(i);
            if (count == 0)
                ++missing;
            else
                duplicates += count - 1;
        }
        qInfo("%d items, %d kills: %d lost, %lld duplicates (bound %d)", kItems, kKills, missing, duplicates,
              kKills * (kWorkers * kBatch + kBatch));
        QCOMPARE(missing, 0);
        QCOMPARE(seen.size(), kItems);
        QVERIFY(duplicates <= kKills * (kWorkers * kBatch + kBatch));
    }

private Q_SLOTS:
    void levelDbSurvivesKills()
    {
        QTemporaryDir dir;
        const QString queueDir = dir.filePath(QStringLiteral("crash_queue"));
        {
            auto queue = LevelQueue::open(CancelToken(), QStringLiteral("crash"), queueDir, 1000000, false, false, QueueTiming());
            QVERIFY(queue);
            for (qint64 i = 0; i < kItems; ++i)
                QVERIFY((*queue)->pushItem(CancelToken(), QByteArray::number(i)));
        }
        const QString log = dir.filePath(QStringLiteral("handled.log"));
        runScenario(QStringLiteral("level"), queueDir, log);
        verify(log);
    }

    void redisSurvivesKills()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        {
            QueueTiming timing;
            auto queue = RedisQueue::open(CancelToken(), QStringLiteral("crash"), *RedisAddress::parse(redis.url()),
                                          QStringLiteral("crash_queue"), QStringLiteral("crash_queue_unique"), 1000000, false,
                                          QStringLiteral("filler"), timing);
            QVERIFY(queue);
            for (qint64 i = 0; i < kItems; ++i)
                QVERIFY((*queue)->pushItem(CancelToken(), QByteArray::number(i)));
        }
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("handled.log"));
        runScenario(QStringLiteral("redis"), redis.url(), log);
        verify(log);
        QCOMPARE(*redis.command({QStringLiteral("LLEN"), QStringLiteral("crash_queue")}), QByteArray("0"));
    }
};

QTEST_GUILESS_MAIN(TestQueueCrash)
#include "tst_queuecrash.moc"
