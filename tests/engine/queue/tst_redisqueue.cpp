// Redis-specific queue behaviour against a private redis-server: Gitea's key layout, the atomic
// unique push, reclaiming a dead instance's in-flight items, and surviving a Redis restart.
#include "engine/queue/queue.h"
#include "engine/queue/redisqueue.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QSet>
#include <QTest>

#include <mutex>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

QueueTiming testTiming()
{
    QueueTiming timing;
    timing.pushBlockTime = 300ms;
    timing.backoffBegin = 5ms;
    timing.backoffUpper = 50ms;
    timing.connectAttempts = 3;
    timing.connectInterval = 50ms;
    timing.heartbeatTtl = 500ms;
    timing.heartbeatInterval = 50ms;
    timing.batchDebounce = 5ms;
    timing.flushPoll = 5ms;
    return timing;
}

} // namespace

class TestRedisQueue : public QObject
{
    Q_OBJECT

    Test::RedisServer m_redis;

    std::unique_ptr<RedisQueue> open(const QString &name, bool unique, int capacity = 1000,
                                     const QString &instance = QStringLiteral("a"), QueueTiming timing = testTiming())
    {
        auto queue = RedisQueue::open(CancelToken(), name, *RedisAddress::parse(m_redis.url()), name + QStringLiteral("_queue"),
                                      name + QStringLiteral("_queue_unique"), capacity, unique, instance, timing);
        if (!queue)
            qFatal("%s", qPrintable(queue.status().message()));
        return std::move(queue).value();
    }
    QByteArray redis(const QStringList &args) { return m_redis.command(args).valueOr("<error>"); }

private Q_SLOTS:
    void initTestCase()
    {
        Test::RedisServer::Options options;
        options.appendOnly = true;
        const Status started = m_redis.start(options);
        QVERIFY2(started, qPrintable(started.message()));
    }

    // A handled batch whose ack fails during an outage is still ours: once Redis is back it must
    // not be mistaken for items a lost pop moved (which go back to the queue) — no duplicates.
    void anAckLostToAnOutageIsRetriedNotRedelivered()
    {
        auto queue = open(QStringLiteral("outage"), false);
        for (const QByteArray item : {"1", "2", "3"})
            QVERIFY(queue->pushItem(CancelToken(), item));
        const Result<std::vector<PoppedItem>> popped = queue->popItems(CancelToken(), 10, std::nullopt);
        QCOMPARE(popped->size(), size_t(3));
        m_redis.stop();
        const CancelSource shortly = CancelSource::withTimeout(CancelToken(), 200ms);
        QVERIFY(!queue->ack(shortly.token(), *popped));
        QVERIFY(m_redis.restart());
        // The next pop reconciles: the three are neither delivered again nor left in flight.
        const Result<std::vector<PoppedItem>> again = queue->popItems(CancelToken(), 10, SteadyClock::now() + 300ms);
        QVERIFY2(again, qPrintable(again.status().message()));
        QCOMPARE(again->size(), size_t(0));
        QCOMPARE(redis({QStringLiteral("LLEN"), QStringLiteral("outage_queue:inflight:a")}), QByteArray("0"));
        QCOMPARE(redis({QStringLiteral("LLEN"), QStringLiteral("outage_queue")}), QByteArray("0"));
    }

    // Listing statistics never waits for Redis: the length comes from the sampler.
    void statisticsDoNotWaitForAHungRedis()
    {
        auto base = open(QStringLiteral("hung"), false);
        QVERIFY(base->pushItem(CancelToken(), "x"));
        WorkerPool pool(QStringLiteral("hung"), std::move(base), {}, 10, 1, 1000, testTiming());
        pool.sampleLength(CancelToken());
        QCOMPARE(pool.stats().length, qint64(1));
        const QDateTime sampledAt = pool.stats().lengthSampledAt;
        QVERIFY(sampledAt.isValid());
        m_redis.pause();
        QElapsedTimer timer;
        timer.start();
        const QueueStats stats = pool.stats(); // would wait for the LLEN reply before
        const qint64 elapsed = timer.elapsed();
        m_redis.resume();
        QVERIFY2(elapsed < 500, qPrintable(QString::number(elapsed)));
        QCOMPARE(stats.length, qint64(1));
        QCOMPARE(stats.lengthSampledAt, sampledAt);
    }

    void keysFollowGiteasLayout()
    {
        auto queue = open(QStringLiteral("webhook_sender"), true);
        QVERIFY(queue->pushItem(CancelToken(), "42"));
        QCOMPARE(redis({QStringLiteral("TYPE"), QStringLiteral("webhook_sender_queue")}), QByteArray("list"));
        QCOMPARE(redis({QStringLiteral("TYPE"), QStringLiteral("webhook_sender_queue_unique")}), QByteArray("set"));
        QCOMPARE(redis({QStringLiteral("LINDEX"), QStringLiteral("webhook_sender_queue"), QStringLiteral("0")}), QByteArray("42"));
    }

    void aFullUniquePushLeavesNoPhantomMember()
    {
        auto queue = open(QStringLiteral("phantom"), true, 1);
        QVERIFY(queue->pushItem(CancelToken(), "a"));
        QVERIFY(isQueueFull(queue->pushItem(CancelToken(), "b")));
        QCOMPARE(redis({QStringLiteral("SISMEMBER"), QStringLiteral("phantom_queue_unique"), QStringLiteral("b")}), QByteArray("0"));
        // Once there is room, b goes in: nothing blocks it.
        QCOMPARE(queue->popItems(CancelToken(), 1, std::nullopt)->size(), size_t(1));
        QVERIFY(queue->pushItem(CancelToken(), "b"));
    }

    // The block time can run out while the retry of a full queue is on the wire (CI once saw it
    // end that way); the caller must still hear "full", which it may wait on, not "Redis did not
    // answer". Made certain here: Redis stops while a retry is on the wire.
    void aFullQueueStaysFullWhenTheBlockTimeEndsMidCommand()
    {
        QueueTiming timing = testTiming();
        timing.pushBlockTime = 400ms;
        timing.backoffBegin = 150ms; // the retry comes 150 ms after the first "full"
        auto queue = open(QStringLiteral("brimful"), false, 1, QStringLiteral("a"), timing);
        QVERIFY(queue->pushItem(CancelToken(), "a"));
        const auto calls = [this](const char *command) {
            const QByteArray stats = redis({QStringLiteral("INFO"), QStringLiteral("commandstats")});
            const QByteArray field = QByteArray("cmdstat_") + command + ":calls=";
            const qsizetype at = stats.indexOf(field);
            return at < 0 ? 0 : stats.mid(at + field.size()).split(',').front().toLongLong();
        };
        const auto fullWhileRedisStops = [&](const char *command, const std::function<Status()> &push) {
            const qint64 before = calls(command);
            Status result;
            std::thread pusher([&] { result = push(); });
            // Stopped once the retry reached Redis: the first "full" was surely read (stopping
            // after the first command alone could catch Redis before it wrote that answer).
            const bool answered = Test::eventually([&] { return calls(command) > before + 1; });
            m_redis.pause();
            pusher.join();
            m_redis.resume();
            if (!answered)
                return Status::internal(QStringLiteral("the retried %1 never reached Redis").arg(QLatin1String(command)));
            return result;
        };
        const Status one = fullWhileRedisStops("evalsha", [&] { return queue->pushItem(CancelToken(), "b"); });
        QVERIFY2(isQueueFull(one), qPrintable(one.message()));
        const Status many = fullWhileRedisStops("evalsha", [&] { return queue->pushItems(CancelToken(), {"c", "d"}); });
        QVERIFY2(isQueueFull(many), qPrintable(many.message()));
        QVERIFY2(many.message().contains(QLatin1String("0 of 2 item(s) accepted")), qPrintable(many.message()));
    }

    void removeAllDeletesListAndSet()
    {
        auto queue = open(QStringLiteral("wipe"), true);
        QVERIFY(queue->pushItem(CancelToken(), "x"));
        QCOMPARE(*queue->removeAll(CancelToken()), qint64(1));
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("wipe_queue"), QStringLiteral("wipe_queue_unique")}), QByteArray("0"));
    }

    void inFlightItemsOfADeadInstanceComeBack()
    {
        {
            auto crashed = open(QStringLiteral("reclaim"), true, 1000, QStringLiteral("dead"));
            for (int i = 0; i < 5; ++i)
                QVERIFY(crashed->pushItem(CancelToken(), QByteArray::number(i)));
            QCOMPARE(crashed->popItems(CancelToken(), 3, std::nullopt)->size(), size_t(3));
            QCOMPARE(redis({QStringLiteral("LLEN"), QStringLiteral("reclaim_queue:inflight:dead")}), QByteArray("3"));
            // It dies: its heartbeat stops (the key expires).
            redis({QStringLiteral("DEL"), QStringLiteral("reclaim_queue:heartbeat:dead")});
        }
        auto survivor = open(QStringLiteral("reclaim"), true, 1000, QStringLiteral("alive"));
        QCOMPARE(*survivor->len(CancelToken()), qint64(5)); // reclaimed at open, in front
        QVERIFY(*survivor->hasItem(CancelToken(), "0"));
        auto popped = survivor->popItems(CancelToken(), 5, std::nullopt);
        QCOMPARE(popped->front().data, QByteArray("0"));
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("reclaim_queue:inflight:dead")}), QByteArray("0"));
        QCOMPARE(redis({QStringLiteral("SISMEMBER"), QStringLiteral("reclaim_queue:instances"), QStringLiteral("dead")}), QByteArray("0"));
    }

    void aLiveInstanceKeepsItsInFlightItems()
    {
        auto first = open(QStringLiteral("live"), false, 1000, QStringLiteral("one"));
        QVERIFY(first->pushItem(CancelToken(), "a"));
        QCOMPARE(first->popItems(CancelToken(), 1, std::nullopt)->size(), size_t(1));
        auto second = open(QStringLiteral("live"), false, 1000, QStringLiteral("two"));
        QCOMPARE(*second->reclaimDeadInstances(CancelToken()), qint64(0));
        QCOMPARE(*second->len(CancelToken()), qint64(0));
    }

    void pushDuringAnOutageFailsWithinThePushBlockTime()
    {
        auto queue = open(QStringLiteral("outage"), false);
        m_redis.stop();
        const auto started = SteadyClock::now();
        const Status pushed = queue->pushItem(CancelToken(), "x");
        const auto took = SteadyClock::now() - started;
        QCOMPARE(pushed.code(), Status::Code::Unavailable);
        QVERIFY(took < testTiming().pushBlockTime + 1s);
        QVERIFY(m_redis.restart());
        QVERIFY(queue->pushItem(CancelToken(), "y")); // reconnected
    }

    void aHungServerDoesNotHoldAPushPastTheBlockTime()
    {
        auto queue = open(QStringLiteral("hung"), false);
        m_redis.pause();
        const auto started = SteadyClock::now();
        const Status pushed = queue->pushItem(CancelToken(), "x");
        const auto took = SteadyClock::now() - started;
        m_redis.resume();
        QVERIFY(!pushed);
        QVERIFY2(took < testTiming().pushBlockTime + 1s, qPrintable(pushed.toString()));
    }

    void itemsSurviveARestartAndTheQueueReconnects()
    {
        auto queue = open(QStringLiteral("restart"), false);
        for (int i = 0; i < 50; ++i)
            QVERIFY(queue->pushItem(CancelToken(), QByteArray::number(i)));
        QVERIFY(m_redis.restart());
        for (int i = 50; i < 100; ++i)
            QVERIFY(queue->pushItem(CancelToken(), QByteArray::number(i)));
        QCOMPARE(*queue->len(CancelToken()), qint64(100));
    }

    void noAcknowledgedPushIsLostAcrossARestartMidStream()
    {
        QueueTiming timing = testTiming();
        timing.pushBlockTime = 5s; // producers ride out the restart
        auto base = open(QStringLiteral("midstream"), false, 100000, QStringLiteral("pool"), timing);
        std::mutex mutex;
        QSet<qint64> handled;
        auto pool = std::make_shared<WorkerPool>(QStringLiteral("midstream"), std::move(base),
                                                 WorkerPoolQueue<qint64>::rawHandler(QStringLiteral("midstream"), [&](std::vector<qint64> items) {
                                                     std::lock_guard lock(mutex);
                                                     for (qint64 i : items)
                                                         handled.insert(i);
                                                     return std::vector<qint64>();
                                                 }),
                                                 20, 2, 100000, timing);
        WorkerPoolQueue<qint64> queue(pool);
        CancelSource stop;
        std::jthread dispatcher([&] { pool->run(stop.token()); });
        auto stopDispatcher = qScopeGuard([&] { stop.cancel(); });

        constexpr qint64 kItems = 3000;
        QSet<qint64> acknowledged;
        std::jthread producer([&] {
            for (qint64 i = 0; i < kItems; ++i) {
                if (queue.push(CancelToken(), i))
                    acknowledged.insert(i);
            }
        });
        QVERIFY(Test::eventually([&] { std::lock_guard lock(mutex); return handled.size() > 500; }));
        QVERIFY(m_redis.restart()); // appendfsync always: every acknowledged push is on disk
        producer.join();
        QVERIFY(acknowledged.size() > kItems / 2);
        QVERIFY(Test::eventually([&] {
            std::lock_guard lock(mutex);
            return handled.contains(acknowledged);
        }, 30s));
    }
};

QTEST_GUILESS_MAIN(TestRedisQueue)
#include "tst_redisqueue.moc"
