// Global lock throughput: acquire + release cycles per second, one thread, on one key and on
// distinct keys, for the memory and the Redis locker (private redis-server). For Redis the
// round-trip ceiling is measured too: a cycle costs two EVALSHA round trips (acquire script,
// compare-and-delete script), so the ceiling is (EVALSHA/s) / 2.
//
//   lock_bench [--cycles N]
#include "engine/globallock/globallock.h"
#include "engine/redis/redisconnection.h"

#include "support/redisserver.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Switchyard;
using Clock = std::chrono::steady_clock;

namespace {

double cyclesPerSecond(Locker &locker, int cycles, bool distinctKeys)
{
    const auto started = Clock::now();
    for (int i = 0; i < cycles; ++i) {
        Result<LockGuard> guard = locker.lock(CancelToken(), distinctKeys ? QStringLiteral("bench:%1").arg(i % 1000)
                                                                          : QStringLiteral("bench"));
        if (!guard || !guard->acquired())
            qFatal("lock failed: %s", qPrintable(guard.status().message()));
        guard->release();
    }
    return cycles / std::chrono::duration<double>(Clock::now() - started).count();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    int cycles = 20000;
    const QStringList args = app.arguments();
    if (const qsizetype at = args.indexOf(QStringLiteral("--cycles")); at >= 0 && at + 1 < args.size())
        cycles = args.at(at + 1).toInt();

    LockerOptions options;
    options.instanceId = QStringLiteral("bench");
    auto memory = createMemoryLocker(options);
    std::printf("%-8s %-10s %14s\n", "backend", "keys", "cycles/s");
    std::printf("%-8s %-10s %14.0f\n", "memory", "one", cyclesPerSecond(*memory, cycles * 50, false));
    std::printf("%-8s %-10s %14.0f\n", "memory", "distinct", cyclesPerSecond(*memory, cycles * 50, true));

    Test::RedisServer redis;
    if (Status started = redis.start(); !started)
        qFatal("%s", qPrintable(started.message()));
    auto locker = createRedisLocker(CancelToken(), {redis.url()}, options);
    if (!locker)
        qFatal("%s", qPrintable(locker.status().message()));
    cyclesPerSecond(**locker, cycles / 10, false); // warm-up: connections, scripts loaded
    RedisConnection connection(*RedisAddress::parse(redis.url()));
    const RedisScript trivial(QByteArrayLiteral("return 1"));
    auto evalshaRate = [&] {
        const auto started = Clock::now();
        for (int i = 0; i < cycles; ++i)
            connection.eval(CancelToken(), trivial, {}, {});
        return cycles / std::chrono::duration<double>(Clock::now() - started).count();
    };
    evalshaRate();
    const double before = evalshaRate();
    const double one = cyclesPerSecond(**locker, cycles, false);
    const double distinct = cyclesPerSecond(**locker, cycles, true);
    const double evalshaPerSecond = (before + evalshaRate()) / 2; // measured around the runs
    const double ceiling = evalshaPerSecond / 2;
    std::printf("%-8s %-10s %14.0f   (%.0f%% of the ceiling)\n", "redis", "one", one, 100 * one / ceiling);
    std::printf("%-8s %-10s %14.0f   (%.0f%% of the ceiling)\n", "redis", "distinct", distinct, 100 * distinct / ceiling);
    std::printf("ceiling: %.0f EVALSHA/s on one connection -> %.0f cycles/s\n", evalshaPerSecond, ceiling);
    return 0;
}
