// Queue throughput and push latency, end to end (push → handler → ack), per backend.
//
//   queue_bench [--items N] [--backends channel,level,redis] [--workers 1,4] [--push single,batch]
//               [--rounds R] [--pop-spin US] [--pop-nap US] [--window BYTES]
//   queue_bench --peek [--items N]   (default 1 000 000)
//
// For each backend and worker count (1, 4), batch 20: one producer pushes N items as fast as it
// can while the pool handles them; items/s is N over the time from the first push until the last
// item was handled; push latency p50/p99 is measured on every push call (one in 16 single
// pushes). Redis runs on a private redis-server (no persistence) started here. Each channel and
// LevelDB row also runs its ceiling in the same process (rawHandoff, rawLevelLoop), alternating
// with the queue for R rounds (3; each run leaves the disk and caches busy for the next one, so
// neither always goes first), and prints the medians and the slowest round's items/s; the ratio
// is the median of the per-round ratios (queue / the ceiling run beside it), with the worst round
// beside it.
#include "engine/queue/channelqueue.h"
#include "engine/queue/levelqueue.h"
#include "engine/queue/queue.h"
#include "engine/queue/redisqueue.h"

#include "support/redisserver.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <cstdio>
#include <mutex>
#include <thread>

using namespace Switchyard;
using Clock = std::chrono::steady_clock;

namespace {

struct Figures
{
    double itemsPerSecond = 0;
    double p50us = 0;
    double p99us = 0;
};

// The item every producer here pushes (about 40 bytes of JSON).
QByteArray item(int i)
{
    return "{\"id\":" + QByteArray::number(i) + ",\"payload\":\"0123456789abcdef\"}";
}

Figures run(std::unique_ptr<BaseQueue> base, int workers, int items, int pushBatch)
{
    QueueTiming timing;
    std::mutex mutex;
    std::condition_variable done;
    qint64 handled = 0;
    auto pool = std::make_shared<WorkerPool>(
        QStringLiteral("bench"), std::move(base),
        [&](std::vector<QByteArray> &batch) {
            std::lock_guard lock(mutex);
            handled += qint64(batch.size());
            if (handled >= items)
                done.notify_all();
            return RawBatchResult();
        },
        20, workers, items + 1, timing);
    CancelSource stop;
    std::thread dispatcher([&] { pool->run(stop.token()); });
    pool->waitUntilRunning(CancelToken());

    std::vector<double> latencies;
    latencies.reserve(size_t(items));
    const auto started = Clock::now();
    std::vector<QByteArray> chunk;
    // Single pushes are timed one in 16: two clock reads per call cost the producer ~3 % of its
    // time, which the ceiling's loop does not pay.
    const int timedEvery = pushBatch == 1 ? 16 : 1;
    for (int i = 0, call = 0; i < items; i += pushBatch, ++call) {
        chunk.clear();
        for (int j = i; j < std::min(items, i + pushBatch); ++j)
            chunk.push_back(item(j));
        const bool timed = call % timedEvery == 0;
        const auto before = timed ? Clock::now() : Clock::time_point();
        if (pushBatch == 1) {
            if (Status pushed = pool->push(CancelToken(), chunk.front()); !pushed)
                qFatal("push: %s", qPrintable(pushed.message()));
        } else if (Status pushed = pool->pushMany(CancelToken(), chunk); !pushed) {
            qFatal("push: %s", qPrintable(pushed.message()));
        }
        if (timed)
            latencies.push_back(std::chrono::duration<double, std::micro>(Clock::now() - before).count());
    }
    {
        std::unique_lock lock(mutex);
        done.wait(lock, [&] { return handled >= items; });
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    stop.cancel();
    dispatcher.join();

    std::sort(latencies.begin(), latencies.end());
    Figures figures;
    figures.itemsPerSecond = items / seconds;
    figures.p50us = latencies[latencies.size() / 2];
    figures.p99us = latencies[std::min(latencies.size() - 1, latencies.size() * 99 / 100)];
    return figures;
}

// The LevelDB queue's ceiling: the same storage work with no queue around it, on one thread and
// without locks or hand-offs. Per item a Put of 'q' + sequence (the push); per 20 items the values
// read through an iterator and one write of the head mark (the pop), and one WriteBatch deleting
// the 20 keys (the ack). The same item bytes are built per item, as the producer above does.
double rawLevelLoop(int items, int pushBatch)
{
    QTemporaryDir dir;
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::DB *raw = nullptr;
    if (!leveldb::DB::Open(options, dir.filePath(QStringLiteral("raw")).toStdString(), &raw).ok())
        qFatal("raw LevelDB open failed");
    const std::unique_ptr<leveldb::DB> db(raw);
    const auto bytes = [](quint64 seq) {
        std::string b(8, '\0');
        for (int i = 0; i < 8; ++i)
            b[size_t(7 - i)] = char((seq >> (8 * i)) & 0xff);
        return b;
    };
    const auto key = [&](quint64 seq) { return 'q' + bytes(seq); };
    const leveldb::WriteOptions write;
    quint64 tail = 0, head = 0;
    std::vector<QByteArray> handed;
    const auto started = Clock::now();
    for (int i = 0; i < items; i += pushBatch) {
        leveldb::WriteBatch push;
        for (int j = i; j < std::min(items, i + pushBatch); ++j) {
            const QByteArray data = item(j);
            push.Put(key(tail++), leveldb::Slice(data.constData(), size_t(data.size())));
        }
        db->Write(write, &push);
        while (tail - head >= 20 || (i + pushBatch >= items && head < tail)) {
            leveldb::WriteBatch pop, ack;
            handed.clear();
            std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
            it->Seek(key(head));
            for (int n = 0; n < 20 && head < tail && it->Valid(); ++n, ++head, it->Next()) {
                handed.emplace_back(it->value().data(), qsizetype(it->value().size()));
                ack.Delete(it->key());
            }
            it.reset();
            pop.Put("h", bytes(head));
            db->Write(write, &pop);
            db->Write(write, &ack);
        }
    }
    return items / std::chrono::duration<double>(Clock::now() - started).count();
}

// The channel queue's ceiling: the simplest correct hand-off of the same items from the producer to
// one consumer thread — a deque under a mutex, the consumer woken by a condition variable when a
// batch of 20 is there (or the last items are), taking what there is.
double rawHandoff(int items, int pushBatch)
{
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<QByteArray> queue;
    bool last = false;
    qint64 handled = 0;
    const auto started = Clock::now();
    std::thread consumer([&] {
        std::vector<QByteArray> batch;
        std::unique_lock lock(mutex);
        while (handled < items) {
            ready.wait(lock, [&] { return queue.size() >= 20 || (last && !queue.empty()); });
            batch.clear();
            while (!queue.empty() && batch.size() < 20) {
                batch.push_back(std::move(queue.front()));
                queue.pop_front();
            }
            lock.unlock();
            handled += qint64(batch.size()); // the handler's work: count them
            lock.lock();
        }
    });
    for (int i = 0; i < items; i += pushBatch) {
        std::lock_guard lock(mutex);
        for (int j = i; j < std::min(items, i + pushBatch); ++j)
            queue.push_back(item(j));
        last = i + pushBatch >= items;
        if (queue.size() >= 20 || last)
            ready.notify_one();
    }
    consumer.join();
    return items / std::chrono::duration<double>(Clock::now() - started).count();
}

// --peek: an operator's look at the head of a big LevelDB queue (GET /queues/{qid}/items): 100
// items, 200 times, first on the idle queue (the peer), then while 4 workers consume it. Target:
// every peek under 50 ms.
int peekBench(int items)
{
    QTemporaryDir dir;
    auto base = LevelQueue::open(CancelToken(), QStringLiteral("peek"), dir.filePath(QStringLiteral("peek")), items + 1, false, false,
                                 QueueTiming());
    if (!base)
        qFatal("open: %s", qPrintable(base.status().message()));
    std::atomic<qint64> handled = 0;
    auto pool = std::make_shared<WorkerPool>(
        QStringLiteral("peek"), std::move(base).value(),
        [&](std::vector<QByteArray> &batch) {
            handled += qint64(batch.size());
            return RawBatchResult();
        },
        20, 4, items + 1, QueueTiming());
    std::vector<QByteArray> chunk;
    for (int i = 0; i < items; i += 1000) {
        chunk.clear();
        for (int j = i; j < std::min(items, i + 1000); ++j)
            chunk.push_back(item(j));
        if (Status pushed = pool->pushMany(CancelToken(), chunk); !pushed)
            qFatal("push: %s", qPrintable(pushed.message()));
    }
    const auto measure = [&](const char *what) {
        std::vector<double> ms;
        for (int round = 0; round < 200; ++round) {
            const auto before = Clock::now();
            const Result<std::vector<PeekedItem>> peeked = pool->peek(CancelToken(), 0, 100);
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - before).count());
            if (!peeked || peeked->size() != 100)
                qFatal("peek: %s", peeked ? "short" : qPrintable(peeked.status().message()));
        }
        std::sort(ms.begin(), ms.end());
        std::printf("%-34s %10.3f %10.3f %10.3f\n", what, ms[ms.size() / 2], ms[ms.size() * 99 / 100], ms.back());
        return ms.back();
    };
    std::printf("LevelDB queue of %d items; peek of 100 from the head, 200 times (ms)\n", items);
    std::printf("%-34s %10s %10s %10s\n", "", "p50", "p99", "max");
    const double idle = measure("idle queue (peer)");
    CancelSource stop;
    std::thread dispatcher([&] { pool->run(stop.token()); });
    pool->waitUntilRunning(CancelToken());
    while (handled < 20000) // consumption under way
        std::this_thread::yield();
    const qint64 before = handled;
    const double busy = measure("while 4 workers consume it");
    const qint64 during = handled - before;
    stop.cancel();
    dispatcher.join();
    std::printf("consumed during the busy peeks: %lld items; worst busy / worst idle: %.1f; target: every peek < 50 ms: %s\n",
                static_cast<long long>(during), busy / std::max(idle, 1e-3), busy < 50 ? "met" : "NOT met");
    return busy < 50 ? 0 : 1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.contains(QStringLiteral("--peek"))) {
        const qsizetype at = args.indexOf(QStringLiteral("--items"));
        return peekBench(at >= 0 && at + 1 < args.size() ? args.at(at + 1).toInt() : 1000000);
    }
    int items = 200000;
    QStringList backends{QStringLiteral("channel"), QStringLiteral("level"), QStringLiteral("redis")};
    if (const qsizetype at = args.indexOf(QStringLiteral("--items")); at >= 0 && at + 1 < args.size())
        items = args.at(at + 1).toInt();
    if (const qsizetype at = args.indexOf(QStringLiteral("--backends")); at >= 0 && at + 1 < args.size())
        backends = args.at(at + 1).split(QLatin1Char(','));
    int rounds = 3;
    // --pop-spin US: QueueTiming::levelPopSpin for the LevelDB rows (0: a popper sleeps at once).
    QueueTiming levelTiming;
    if (const qsizetype at = args.indexOf(QStringLiteral("--pop-spin")); at >= 0 && at + 1 < args.size())
        levelTiming.levelPopSpin = std::chrono::microseconds(args.at(at + 1).toInt());
    // --pop-nap US: QueueTiming::levelPopNap (0: the poll yields in a loop).
    if (const qsizetype at = args.indexOf(QStringLiteral("--pop-nap")); at >= 0 && at + 1 < args.size())
        levelTiming.levelPopNap = std::chrono::microseconds(args.at(at + 1).toInt());
    // --window BYTES: QueueTiming::levelWindowBytes (0: every pop reads LevelDB).
    if (const qsizetype at = args.indexOf(QStringLiteral("--window")); at >= 0 && at + 1 < args.size())
        levelTiming.levelWindowBytes = args.at(at + 1).toLongLong();
    if (const qsizetype at = args.indexOf(QStringLiteral("--rounds")); at >= 0 && at + 1 < args.size())
        rounds = std::max(1, args.at(at + 1).toInt());
    // For a profiler: one row at a time.
    QList<int> workerCounts{1, 4};
    if (const qsizetype at = args.indexOf(QStringLiteral("--workers")); at >= 0 && at + 1 < args.size()) {
        workerCounts.clear();
        for (const QString &count : args.at(at + 1).split(QLatin1Char(',')))
            workerCounts.append(count.toInt());
    }
    QList<int> pushBatches{1, 100};
    if (const qsizetype at = args.indexOf(QStringLiteral("--push")); at >= 0 && at + 1 < args.size()) {
        const QStringList kinds = args.at(at + 1).split(QLatin1Char(','));
        pushBatches.clear();
        if (kinds.contains(QStringLiteral("single")))
            pushBatches.append(1);
        if (kinds.contains(QStringLiteral("batch")))
            pushBatches.append(100);
    }

    Test::RedisServer redis;
    if (backends.contains(QStringLiteral("redis"))) {
        if (Status started = redis.start(); !started)
            qFatal("%s", qPrintable(started.message()));
    }

    std::printf("%-8s %-7s %-10s %14s %14s %12s %12s %16s %6s %6s\n", "backend", "workers", "push", "items/s", "slowest round",
                "push p50 us", "push p99 us", "ceiling items/s", "ratio", "worst");
    int round = 0;
    for (const QString &backend : backends) {
        const bool hasCeiling = backend == QLatin1String("channel") || backend == QLatin1String("level");
        for (int workers : workerCounts) {
            for (int pushBatch : pushBatches) {
                std::vector<Figures> runs;
                std::vector<double> ceilings;
                for (int r = 0; r < (hasCeiling ? rounds : 1); ++r) {
                    QTemporaryDir dir;
                    std::unique_ptr<BaseQueue> base;
                    const QString name = QStringLiteral("bench%1").arg(++round);
                    if (backend == QLatin1String("channel")) {
                        base = std::make_unique<ChannelQueue>(name, items + 1, false, QueueTiming());
                    } else if (backend == QLatin1String("level")) {
                        base = std::move(LevelQueue::open(CancelToken(), name, dir.filePath(name), items + 1, false, false, levelTiming).value());
                    } else {
                        base = std::move(RedisQueue::open(CancelToken(), name, *RedisAddress::parse(redis.url()), name + QStringLiteral("_queue"),
                                                          name + QStringLiteral("_queue_unique"), items + 1, false, QStringLiteral("bench"),
                                                          QueueTiming())
                                             .value());
                    }
                    const auto ceiling = [&] {
                        ceilings.push_back(backend == QLatin1String("channel") ? rawHandoff(items, pushBatch) : rawLevelLoop(items, pushBatch));
                    };
                    if (hasCeiling && r % 2 == 0)
                        ceiling();
                    runs.push_back(run(std::move(base), workers, items, pushBatch));
                    if (hasCeiling && r % 2 == 1)
                        ceiling();
                }
                const auto median = [](std::vector<double> values) {
                    std::sort(values.begin(), values.end());
                    return values.empty() ? 0.0 : values[values.size() / 2];
                };
                // The ratio is taken per round, against the ceiling run beside it, then the median
                // of those: the machine's pace drifts between rounds, and a pair shares its state.
                std::vector<double> ratios;
                for (size_t r = 0; r < ceilings.size(); ++r)
                    ratios.push_back(runs[r].itemsPerSecond / ceilings[r]);
                std::sort(runs.begin(), runs.end(), [](const Figures &a, const Figures &b) { return a.itemsPerSecond < b.itemsPerSecond; });
                const Figures &f = runs[runs.size() / 2];
                std::printf("%-8s %-7d %-10s %14.0f %14.0f %12.1f %12.1f", qPrintable(backend), workers,
                            pushBatch == 1 ? "single" : "batch 100", f.itemsPerSecond, runs.front().itemsPerSecond, f.p50us, f.p99us);
                if (!ceilings.empty())
                    std::printf(" %16.0f %5.0f%% %5.0f%%\n", median(ceilings), 100 * median(ratios), 100 * *std::min_element(ratios.begin(), ratios.end()));
                else
                    std::printf(" %16s %6s %6s\n", "-", "-", "-");
                std::fflush(stdout);
            }
        }
    }
    return 0;
}
