// Cache get/put throughput per adapter, one thread, 10 000 distinct 20-byte keys, 100-byte values.
// Redis runs on a private redis-server; its single-client GET ceiling is measured in the same run
// with plain GET commands on one connection.
//
//   cache_bench [--ops N]
#include "engine/cache/cache.h"
#include "engine/redis/redisconnection.h"

#include "support/redisserver.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Switchyard;
using Clock = std::chrono::steady_clock;

namespace {

QStringList makeKeys()
{
    QStringList keys;
    for (int i = 0; i < 10000; ++i)
        keys.append(QStringLiteral("bench:key:%1").arg(i, 8, 10, QLatin1Char('0')));
    return keys;
}

std::pair<double, double> measure(StringCache &cache, const QStringList &keys, int ops)
{
    const QString value(100, QLatin1Char('v'));
    auto started = Clock::now();
    for (int i = 0; i < ops; ++i)
        cache.put(keys[i % keys.size()], value, std::chrono::seconds(3600));
    const double puts = ops / std::chrono::duration<double>(Clock::now() - started).count();
    started = Clock::now();
    qint64 hits = 0;
    for (int i = 0; i < ops; ++i)
        hits += cache.get(keys[i % keys.size()]).has_value();
    const double gets = ops / std::chrono::duration<double>(Clock::now() - started).count();
    if (hits != ops)
        qFatal("expected every get to hit, %lld of %d did", hits, ops);
    return {gets, puts};
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    int ops = 2000000;
    const QStringList args = app.arguments();
    if (const qsizetype at = args.indexOf(QStringLiteral("--ops")); at >= 0 && at + 1 < args.size())
        ops = args.at(at + 1).toInt();
    const QStringList keys = makeKeys();

    std::printf("%-9s %14s %14s  %s\n", "adapter", "gets/s", "puts/s", "latency p50/p99 ms");
    auto memory = createMemoryCache(std::chrono::seconds(60));
    auto [memoryGets, memoryPuts] = measure(*memory, keys, ops);
    std::printf("%-9s %14.0f %14.0f  %.4f / %.4f\n", "memory", memoryGets, memoryPuts, memory->stats().latencyP50Ms,
                memory->stats().latencyP99Ms);
    auto twoqueue = createTwoQueueCache(50000);
    auto [tqGets, tqPuts] = measure(*twoqueue, keys, ops);
    std::printf("%-9s %14.0f %14.0f  %.4f / %.4f\n", "twoqueue", tqGets, tqPuts, twoqueue->stats().latencyP50Ms,
                twoqueue->stats().latencyP99Ms);

    Test::RedisServer redis;
    if (Status started = redis.start(); !started)
        qFatal("%s", qPrintable(started.message()));
    const int redisOps = std::min(ops, 40000);
    auto cache = std::move(createRedisCache(redis.url(), QStringLiteral("cache:")).value());
    measure(*cache, keys, 2000); // warm-up
    RedisConnection connection(*RedisAddress::parse(redis.url()));
    auto plainGets = [&] {
        const auto started = Clock::now();
        for (int i = 0; i < redisOps; ++i)
            connection.command(CancelToken(), {"GET", "cache:" + keys[i % keys.size()].toUtf8()});
        return redisOps / std::chrono::duration<double>(Clock::now() - started).count();
    };
    const double before = plainGets();
    auto [redisGets, redisPuts] = measure(*cache, keys, redisOps);
    const double ceiling = (before + plainGets()) / 2;
    std::printf("%-9s %14.0f %14.0f  %.4f / %.4f  (gets: %.0f%% of %.0f plain GET/s on one connection)\n", "redis", redisGets,
                redisPuts, cache->stats().latencyP50Ms, cache->stats().latencyP99Ms, 100 * redisGets / ceiling, ceiling);
    return 0;
}
