// One conformance suite for every base queue backend. The backend comes from
// SWITCHYARD_QUEUE_BACKEND (channel, level, redis, dummy); ctest runs this executable once per
// backend. Redis runs against a private redis-server started by the fixture.
#include "engine/queue/channelqueue.h"
#include "engine/queue/dummyqueue.h"
#include "engine/queue/levelqueue.h"
#include "engine/queue/redisqueue.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QSet>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

QueueTiming testTiming()
{
    QueueTiming timing;
    timing.pushBlockTime = 150ms;
    timing.backoffBegin = 5ms;
    timing.backoffUpper = 20ms;
    timing.connectAttempts = 3;
    timing.connectInterval = 50ms;
    timing.levelOpenAttempts = 3;
    timing.levelOpenInterval = 20ms;
    timing.heartbeatTtl = 300ms;
    timing.heartbeatInterval = 50ms;
    return timing;
}

QByteArray item(int i)
{
    return "item-" + QByteArray::number(i);
}

QList<QByteArray> dataOf(const std::vector<PoppedItem> &items)
{
    QList<QByteArray> data;
    for (const PoppedItem &p : items)
        data.append(p.data);
    return data;
}

} // namespace

class TestBaseQueue : public QObject
{
    Q_OBJECT

    QString m_backend;
    QTemporaryDir m_dir;
    Test::RedisServer m_redis;
    int m_counter = 0;
    QString m_name; // per test: fresh storage

    std::unique_ptr<BaseQueue> open(bool unique, int capacity = 1000, const QString &instance = QStringLiteral("instance-a"),
                                    const QueueTiming &timing = testTiming())
    {
        if (m_backend == QLatin1String("channel"))
            return std::make_unique<ChannelQueue>(m_name, capacity, unique, timing);
        if (m_backend == QLatin1String("dummy"))
            return std::make_unique<DummyQueue>(unique);
        if (m_backend == QLatin1String("level")) {
            auto queue = LevelQueue::open(CancelToken(), m_name, m_dir.filePath(m_name + QStringLiteral("_queue")), capacity,
                                          unique, false, timing);
            if (!queue)
                qFatal("%s", qPrintable(queue.status().message()));
            return std::move(queue).value();
        }
        auto address = RedisAddress::parse(m_redis.url());
        auto queue = RedisQueue::open(CancelToken(), m_name, *address, m_name + QStringLiteral("_queue"),
                                      m_name + QStringLiteral("_queue_unique"), capacity, unique, instance, timing);
        if (!queue)
            qFatal("%s", qPrintable(queue.status().message()));
        return std::move(queue).value();
    }

    bool persistent() const { return m_backend == QLatin1String("level") || m_backend == QLatin1String("redis"); }
    bool stores() const { return m_backend != QLatin1String("dummy"); }

    static std::vector<PoppedItem> popNow(BaseQueue &queue, int max)
    {
        auto popped = queue.popItems(CancelToken(), max, SteadyClock::now() + 200ms);
        if (!popped)
            qFatal("pop failed: %s", qPrintable(popped.status().message()));
        return std::move(popped).value();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = qEnvironmentVariable("SWITCHYARD_QUEUE_BACKEND", QStringLiteral("channel"));
        qInfo("backend: %s", qPrintable(m_backend));
        QVERIFY(m_dir.isValid());
        if (m_backend == QLatin1String("redis")) {
            const Status started = m_redis.start();
            QVERIFY2(started, qPrintable(started.message()));
        }
    }

    void init() { m_name = QStringLiteral("q%1").arg(++m_counter); }

    void pushPopKeepsOrder()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(false);
        for (int i = 0; i < 10; ++i)
            QVERIFY(queue->pushItem(CancelToken(), item(i)));
        QCOMPARE(*queue->len(CancelToken()), qint64(10));
        QCOMPARE(dataOf(popNow(*queue, 3)), (QList<QByteArray>{item(0), item(1), item(2)}));
        QCOMPARE(dataOf(popNow(*queue, 100)).size(), 7);
        QCOMPARE(*queue->len(CancelToken()), qint64(0));
    }

    void uniqueQueueRejectsQueuedDuplicates()
    {
        auto unique = open(true);
        QVERIFY(unique->isUnique());
        QVERIFY(unique->pushItem(CancelToken(), item(1)));
        if (!stores())
            return; // dummy: accepted and gone
        const Status again = unique->pushItem(CancelToken(), item(1));
        QVERIFY(isAlreadyInQueue(again));
        QCOMPARE(*unique->len(CancelToken()), qint64(1));
        // Once popped, it may be queued again: unique means "not twice in the queue".
        QCOMPARE(popNow(*unique, 1).size(), size_t(1));
        QVERIFY(unique->pushItem(CancelToken(), item(1)));

        init();
        auto simple = open(false);
        QVERIFY(simple->pushItem(CancelToken(), item(1)));
        QVERIFY(simple->pushItem(CancelToken(), item(1)));
        QCOMPARE(*simple->len(CancelToken()), qint64(2));
    }

    void hasItemSemantics()
    {
        auto unique = open(true);
        QVERIFY(!*unique->hasItem(CancelToken(), item(1)));
        QVERIFY(unique->pushItem(CancelToken(), item(1)));
        QCOMPARE(*unique->hasItem(CancelToken(), item(1)), stores());
        popNow(*unique, 1);
        QVERIFY(!*unique->hasItem(CancelToken(), item(1)));

        init();
        auto simple = open(false);
        QVERIFY(simple->pushItem(CancelToken(), item(1)));
        QVERIFY(!*simple->hasItem(CancelToken(), item(1))); // simple queues never say yes
    }

    void lenCountsWaitingItemsOnly()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(false);
        for (int i = 0; i < 5; ++i)
            QVERIFY(queue->pushItem(CancelToken(), item(i)));
        const std::vector<PoppedItem> inFlight = popNow(*queue, 2);
        QCOMPARE(*queue->len(CancelToken()), qint64(3));
        QVERIFY(queue->ack(CancelToken(), inFlight));
        QCOMPARE(*queue->len(CancelToken()), qint64(3));
    }

    // A peek shows the waiting items from the head with their positions, consumes nothing, skips
    // what is in flight, and follows released items back to the front.
    void peekShowsWaitingItemsAndConsumesNothing()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(false);
        for (int i = 0; i < 6; ++i)
            QVERIFY(queue->pushItem(CancelToken(), item(i)));
        std::vector<PoppedItem> taken = popNow(*queue, 2); // item(0), item(1) in flight
        const Result<std::vector<PeekedItem>> all = queue->peek(CancelToken(), 0, 100);
        QVERIFY2(all, qPrintable(all.status().toString()));
        QCOMPARE(all->size(), std::size_t(4));
        for (std::size_t i = 0; i < all->size(); ++i) {
            QCOMPARE((*all)[i].position, qint64(i));
            QCOMPARE((*all)[i].data, item(int(i) + 2));
        }
        const Result<std::vector<PeekedItem>> page = queue->peek(CancelToken(), 1, 2);
        QVERIFY(page);
        QCOMPARE(page->size(), std::size_t(2));
        QCOMPARE(page->front().position, qint64(1));
        QCOMPARE(page->front().data, item(3));
        QCOMPARE(queue->peek(CancelToken(), 10, 5)->size(), std::size_t(0));
        QCOMPARE(*queue->len(CancelToken()), qint64(4)); // nothing consumed
        QVERIFY(queue->release(CancelToken(), taken));
        const Result<std::vector<PeekedItem>> again = queue->peek(CancelToken(), 0, 1);
        QVERIFY(again);
        QCOMPARE(again->front().data, item(0));
        QCOMPARE(dataOf(popNow(*queue, 10)), (QList<QByteArray>{item(0), item(1), item(2), item(3), item(4), item(5)}));
    }

    void removeAllEmptiesQueueAndSet()
    {
        auto queue = open(true);
        for (int i = 0; i < 4; ++i)
            QVERIFY(queue->pushItem(CancelToken(), item(i)));
        QCOMPARE(*queue->removeAll(CancelToken()), qint64(stores() ? 4 : 0));
        QCOMPARE(*queue->len(CancelToken()), qint64(0));
        QVERIFY(!*queue->hasItem(CancelToken(), item(1)));
        QVERIFY(queue->pushItem(CancelToken(), item(1))); // the set was cleared too
    }

    void fullQueueFailsAfterThePushBlockTime()
    {
        if (!stores())
            QSKIP("dummy is never full");
        auto queue = open(false, 3);
        for (int i = 0; i < 3; ++i)
            QVERIFY(queue->pushItem(CancelToken(), item(i)));
        const auto started = SteadyClock::now();
        const Status full = queue->pushItem(CancelToken(), item(3));
        QVERIFY2(isQueueFull(full), qPrintable(full.toString()));
        QVERIFY(SteadyClock::now() - started >= testTiming().pushBlockTime - 10ms);
        QVERIFY(full.message().contains(QLatin1String("LENGTH = 3")));
        QCOMPARE(*queue->len(CancelToken()), qint64(3));

        // Room made while a push waits lets it through.
        std::atomic<bool> pushed = false;
        std::thread producer([&] { pushed = bool(queue->pushItem(CancelToken(), item(4))); });
        QCOMPARE(popNow(*queue, 1).size(), size_t(1));
        producer.join();
        QVERIFY(pushed);
        QCOMPARE(*queue->len(CancelToken()), qint64(3));
    }

    void blockedPopIsCancelled()
    {
        auto queue = open(false);
        CancelSource source;
        Result<std::vector<PoppedItem>> result = std::vector<PoppedItem>();
        std::thread consumer([&] { result = queue->popItems(source.token(), 1, std::nullopt); });
        source.cancel(QStringLiteral("operator stop"));
        consumer.join();
        QVERIFY(!result);
        QCOMPARE(result.status().message(), QStringLiteral("operator stop"));
    }

    void popUntilReturnsEmptyWhenNothingArrives()
    {
        auto queue = open(false);
        auto popped = queue->popItems(CancelToken(), 5, SteadyClock::now() + 30ms);
        QVERIFY(popped);
        QVERIFY(popped->empty());
    }

    void popWakesOnPush()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(false);
        Result<std::vector<PoppedItem>> result = std::vector<PoppedItem>();
        std::thread consumer([&] { result = queue->popItems(CancelToken(), 5, SteadyClock::now() + 20s); });
        QVERIFY(queue->pushItem(CancelToken(), item(7)));
        consumer.join();
        QVERIFY(result);
        QCOMPARE(dataOf(*result), QList<QByteArray>{item(7)});
    }

    void closeWakesPoppersAndRefusesPushes()
    {
        auto queue = open(false);
        Result<std::vector<PoppedItem>> result = std::vector<PoppedItem>();
        std::thread consumer([&] { result = queue->popItems(CancelToken(), 1, std::nullopt); });
        queue->close();
        consumer.join();
        QVERIFY(!result);
        QCOMPARE(result.status().code(), Status::Code::Cancelled);
        QVERIFY(result.status().message().contains(QLatin1String("closed")));
        QVERIFY(!queue->pushItem(CancelToken(), item(1)));
    }

    void releasePutsItemsBackInFront()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(true);
        for (int i = 0; i < 5; ++i)
            QVERIFY(queue->pushItem(CancelToken(), item(i)));
        std::vector<PoppedItem> taken = popNow(*queue, 3);
        QVERIFY(queue->pushItem(CancelToken(), item(1))); // popped, so it may be queued again
        QVERIFY(queue->release(CancelToken(), taken));
        // item(1) is queued already, so the released copy is dropped.
        QCOMPARE(dataOf(popNow(*queue, 10)), (QList<QByteArray>{item(0), item(2), item(3), item(4), item(1)}));
    }

    void itemsSurviveRestartAndInFlightItemsComeBack()
    {
        if (!persistent())
            QSKIP("not a persistent backend");
        {
            auto queue = open(true);
            for (int i = 0; i < 6; ++i)
                QVERIFY(queue->pushItem(CancelToken(), item(i)));
            std::vector<PoppedItem> taken = popNow(*queue, 3); // 0, 1, 2 in flight
            std::vector<PoppedItem> done{taken[1]};
            QVERIFY(queue->ack(CancelToken(), done)); // 1 handled
            // "crash": dropped without giving 0 and 2 back
        }
        auto reopened = open(true, 1000, QStringLiteral("instance-b"));
        // Redis: the old instance's heartbeat must expire before its in-flight list is reclaimed.
        QVERIFY(Test::eventually([&] { return *reopened->len(CancelToken()) == 5; }));
        QCOMPARE(dataOf(popNow(*reopened, 10)), (QList<QByteArray>{item(0), item(2), item(3), item(4), item(5)}));
        QVERIFY(!*reopened->hasItem(CancelToken(), item(1)));
    }

    void acknowledgedItemsDoNotComeBack()
    {
        if (!persistent())
            QSKIP("not a persistent backend");
        {
            auto queue = open(false);
            for (int i = 0; i < 3; ++i)
                QVERIFY(queue->pushItem(CancelToken(), item(i)));
            QVERIFY(queue->ack(CancelToken(), popNow(*queue, 3)));
        }
        auto reopened = open(false, 1000, QStringLiteral("instance-c"));
        QVERIFY(reopened->pushItem(CancelToken(), item(9)));
        QCOMPARE(dataOf(popNow(*reopened, 10)), QList<QByteArray>{item(9)});
    }

    void pushItemsInOneGo()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(true);
        QVERIFY(queue->pushItem(CancelToken(), item(2)));
        std::vector<QByteArray> batch;
        for (int i = 0; i < 5; ++i)
            batch.push_back(item(i));
        batch.push_back(item(4)); // twice in one batch: queued once on a unique queue
        QVERIFY(queue->pushItems(CancelToken(), batch)); // item(2) is skipped: already queued
        QCOMPARE(dataOf(popNow(*queue, 10)), (QList<QByteArray>{item(2), item(0), item(1), item(3), item(4)}));
        batch.pop_back();

        init();
        auto small = open(false, 3);
        const Status full = small->pushItems(CancelToken(), batch);
        QVERIFY(isQueueFull(full));
        QVERIFY2(full.message().contains(QLatin1String("3 of 5")), qPrintable(full.message()));
        QCOMPARE(*small->len(CancelToken()), qint64(3));
    }

    // Batched pushes (which wait for room between batches) beside pops that put half of what
    // they took back: every item is acknowledged exactly once.
    void pushItemsBesidePopsAndReleasesLoseNothing()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        // Small: the producer waits for room between batches — as long as it takes (the case is
        // not about the push block time, and consumers under a sanitizer are slow).
        QueueTiming patient = testTiming();
        patient.pushBlockTime = 60s;
        auto queue = open(false, 64, QStringLiteral("instance-a"), patient);
        constexpr int kBatches = 60;
        constexpr int kPerBatch = 25;
        std::mutex mutex;
        QSet<QByteArray> acked;
        int duplicates = 0;
        CancelSource stop;
        std::vector<std::thread> consumers;
        for (int c = 0; c < 2; ++c) {
            consumers.emplace_back([&, c] {
                int round = 0;
                while (true) {
                    auto popped = queue->popItems(stop.token(), 9, std::nullopt);
                    if (!popped)
                        return;
                    if (popped->empty())
                        continue;
                    if (++round % 2 == c % 2) { // every other pop goes back whole
                        queue->release(CancelToken(), *popped);
                        continue;
                    }
                    queue->ack(CancelToken(), *popped);
                    std::lock_guard lock(mutex);
                    for (const PoppedItem &p : *popped) {
                        if (acked.contains(p.data))
                            ++duplicates;
                        acked.insert(p.data);
                    }
                }
            });
        }
        // The consumers stop and are joined however this ends (a failed check returns early).
        const auto joinConsumers = qScopeGuard([&] {
            stop.cancel();
            for (std::thread &t : consumers)
                t.join();
        });
        Status pushed = Status::ok();
        for (int b = 0; b < kBatches && pushed; ++b) {
            std::vector<QByteArray> batch;
            for (int i = 0; i < kPerBatch; ++i)
                batch.push_back(item(b * kPerBatch + i));
            pushed = queue->pushItems(CancelToken(), batch);
        }
        QVERIFY2(pushed, qPrintable(pushed.message()));
        QVERIFY(Test::eventually([&] {
            std::lock_guard lock(mutex);
            return acked.size() == kBatches * kPerBatch;
        }));
        stop.cancel();
        for (std::thread &t : consumers)
            t.join();
        consumers.clear();
        QCOMPARE(duplicates, 0);
        QCOMPARE(*queue->len(CancelToken()), qint64(0));
    }

    void binarySafeItems()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(true);
        const QByteArray binary("\0\x01\xff{\"a\":1}\n\r", 12);
        QVERIFY(queue->pushItem(CancelToken(), binary));
        QVERIFY(*queue->hasItem(CancelToken(), binary));
        QCOMPARE(dataOf(popNow(*queue, 1)), QList<QByteArray>{binary});
    }

    void concurrentProducersAndConsumersLoseNothing()
    {
        if (!stores())
            QSKIP("dummy stores nothing");
        auto queue = open(false, 50); // small: producers hit "full" and wait
        constexpr int kProducers = 3;
        constexpr int kPerProducer = 300;
        std::atomic<int> consumed = 0;
        std::atomic<bool> failed = false;
        CancelSource stop;
        std::vector<std::thread> threads;
        for (int c = 0; c < 2; ++c) {
            threads.emplace_back([&] {
                while (true) {
                    auto popped = queue->popItems(stop.token(), 7, std::nullopt);
                    if (!popped)
                        return;
                    consumed += int(popped->size());
                    queue->ack(CancelToken(), *popped);
                }
            });
        }
        std::vector<std::thread> producers;
        for (int p = 0; p < kProducers; ++p) {
            producers.emplace_back([&, p] {
                for (int i = 0; i < kPerProducer; ++i) {
                    Status pushed;
                    do {
                        pushed = queue->pushItem(CancelToken(), item(p * kPerProducer + i));
                    } while (isQueueFull(pushed));
                    if (!pushed)
                        failed = true;
                }
            });
        }
        for (std::thread &t : producers)
            t.join();
        QVERIFY(Test::eventually([&] { return consumed == kProducers * kPerProducer; }));
        stop.cancel();
        for (std::thread &t : threads)
            t.join();
        QVERIFY(!failed);
        QCOMPARE(consumed.load(), kProducers * kPerProducer);
    }
};

QTEST_GUILESS_MAIN(TestBaseQueue)
#include "tst_basequeue.moc"
