// Helper for tst_queuecrash: handles queue items into an append-only log until it is killed
// (kill -9), or with --drain until the queue is empty. Not a test on its own.
//
// crashchild --backend level|redis --target DIR|URL --log FILE [--drain]
#include "engine/queue/levelqueue.h"
#include "engine/queue/queue.h"
#include "engine/queue/redisqueue.h"

#include "support/testutil.h"

#include <QCoreApplication>
#include <QRandomGenerator>

#include <cstdio>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace CrashTest {
constexpr int kWorkers = 2;
constexpr int kBatch = 10;
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto value = [&](const char *name) { return Test::argumentValue(args, name); };
    const QString backend = value("--backend");
    const QString target = value("--target");
    const QString logPath = value("--log");
    const bool drain = args.contains(QStringLiteral("--drain"));

    QueueTiming timing;
    timing.batchDebounce = 5ms;
    timing.heartbeatTtl = 300ms;
    timing.heartbeatInterval = 50ms;
    timing.flushPoll = 10ms;
    timing.backoffBegin = 5ms;
    timing.backoffUpper = 50ms;

    if (drain && backend == QLatin1String("redis"))
        std::this_thread::sleep_for(timing.heartbeatTtl * 2); // every killed instance's heartbeat has expired

    std::unique_ptr<BaseQueue> base;
    if (backend == QLatin1String("level")) {
        auto opened = LevelQueue::open(CancelToken(), QStringLiteral("crash"), target, 1000000, false, false, timing);
        if (!opened) {
            std::fprintf(stderr, "%s\n", qPrintable(opened.status().message()));
            return 2;
        }
        base = std::move(opened).value();
    } else {
        const QString instance = QStringLiteral("child-%1").arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
        auto opened = RedisQueue::open(CancelToken(), QStringLiteral("crash"), *RedisAddress::parse(target),
                                       QStringLiteral("crash_queue"), QStringLiteral("crash_queue_unique"), 1000000, false,
                                       instance, timing);
        if (!opened) {
            std::fprintf(stderr, "%s\n", qPrintable(opened.status().message()));
            return 2;
        }
        base = std::move(opened).value();
    }

    const int log = ::open(logPath.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log < 0)
        return 3;
    auto pool = std::make_shared<WorkerPool>(
        QStringLiteral("crash"), std::move(base),
        WorkerPoolQueue<qint64>::rawHandler(QStringLiteral("crash"),
                                            [log](std::vector<qint64> items) {
                                                // "Handling" = one line per item; the kernel keeps it
                                                // after a kill -9.
                                                QByteArray lines;
                                                for (qint64 item : items)
                                                    lines += QByteArray::number(item) + '\n';
                                                [[maybe_unused]] const ssize_t written = ::write(log, lines.constData(), size_t(lines.size()));
                                                std::this_thread::sleep_for(2ms);
                                                return std::vector<qint64>();
                                            }),
        CrashTest::kBatch, CrashTest::kWorkers, 1000000, timing);

    CancelSource stop;
    std::thread dispatcher([&] { pool->run(stop.token()); });
    pool->waitUntilRunning(CancelToken());
    std::fprintf(stdout, "running\n");
    std::fflush(stdout);
    int exitCode = 0;
    if (drain) {
        const Status flushed = pool->flush(CancelToken(), 120s);
        if (!flushed) {
            std::fprintf(stderr, "flush: %s\n", qPrintable(flushed.message()));
            exitCode = 4;
        }
    } else {
        std::this_thread::sleep_for(1h); // until killed
    }
    stop.cancel();
    dispatcher.join();
    ::close(log);
    return exitCode;
}
