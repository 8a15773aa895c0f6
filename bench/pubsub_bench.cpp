// Pub/sub: what a stalled subscriber costs a publisher. Publish latency (p50, p99) on one topic
// with 101 subscribers: first all reading (the peer: a fan-out to 101 queues), then one reading
// and 100 that never read (their buffers fill at 8 and every later message is dropped for them).
// The ratio stalled / reading is the figure: a stalled subscriber must not cost the publisher
// more than one that keeps up. Memory always; Redis on a private redis-server.
//
//   pubsub_bench [--messages N]   (default 20000 for memory, a quarter of it for Redis)
#include "engine/pubsub/pubsub.h"

#include "support/redisserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

using namespace Switchyard;

namespace {

struct Figures
{
    double p50Us = 0, p99Us = 0;
};

Figures measure(Broker &broker, int messages, bool othersRead)
{
    const QString topic = QStringLiteral("user-1");
    std::unique_ptr<Subscription> reader = broker.subscribe(topic);
    std::vector<std::unique_ptr<Subscription>> others;
    for (int i = 0; i < 100; ++i)
        others.push_back(broker.subscribe(topic));
    CancelSource stop;
    std::thread drain([&] {
        while (reader->next(stop.token())) {
        }
    });
    // The 100 others: one thread keeps all their buffers empty, or nobody reads them.
    std::atomic<bool> done{false};
    std::thread drainOthers([&] {
        while (othersRead && !done.load()) {
            for (const std::unique_ptr<Subscription> &other : others) {
                while (other->tryNext()) {
                }
            }
            std::this_thread::yield();
        }
    });
    if (broker.type() == QLatin1String("redis"))
        std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the SUBSCRIBE lands (a benchmark, not a test)
    const QByteArray payload(256, 'x');
    std::vector<double> us;
    us.reserve(size_t(messages));
    QElapsedTimer timer;
    for (int i = 0; i < messages; ++i) {
        timer.start();
        broker.publish(topic, payload);
        us.push_back(double(timer.nsecsElapsed()) / 1000.0);
    }
    stop.cancel();
    drain.join();
    done = true;
    drainOthers.join();
    std::sort(us.begin(), us.end());
    return {us[us.size() / 2], us[std::min(us.size() - 1, us.size() * 99 / 100)]};
}

void report(Broker &broker, int messages)
{
    const Figures reading = measure(broker, messages, true);
    const Figures stalled = measure(broker, messages, false);
    std::printf("%-6s %6d publishes of 256 B to 101 subscribers: all reading p50 %7.2f us p99 %7.2f us | 100 stalled"
                " p50 %7.2f us p99 %7.2f us | stalled/reading p50 %.2f p99 %.2f\n",
                qPrintable(broker.type()), messages, reading.p50Us, reading.p99Us, stalled.p50Us, stalled.p99Us,
                stalled.p50Us / reading.p50Us, stalled.p99Us / reading.p99Us);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    int messages = 20000;
    const QStringList args = app.arguments();
    if (const qsizetype at = args.indexOf(QStringLiteral("--messages")); at >= 0 && at + 1 < args.size())
        messages = args.at(at + 1).toInt();

    report(*createMemoryBroker(), messages);

    Test::RedisServer server;
    if (Status started = server.start(); !started) {
        std::printf("redis: skipped (%s)\n", qPrintable(started.message()));
        return 0;
    }
    Result<std::unique_ptr<Broker>> redis = createRedisBroker(CancelToken(), server.url());
    if (!redis) {
        std::printf("redis: %s\n", qPrintable(redis.status().message()));
        return 1;
    }
    report(**redis, std::max(1, messages / 4));
    return 0;
}
