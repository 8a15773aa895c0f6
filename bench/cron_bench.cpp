// Cron firing jitter: how late a per-second task starts after its tick, on an idle machine.
// Measured from the tick's wall-clock time to the moment the task function begins.
//
//   cron_bench [--firings N]   (default 60; one per second)
#include "engine/core/lifecycle.h"
#include "engine/core/notices.h"
#include "engine/cron/cron.h"
#include "engine/globallock/globallock.h"
#include "engine/settings/config.h"

#include <QCoreApplication>
#include <QDir>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <mutex>

using namespace Switchyard;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    int firings = 60;
    const QStringList args = app.arguments();
    if (const qsizetype at = args.indexOf(QStringLiteral("--firings")); at >= 0 && at + 1 < args.size())
        firings = args.at(at + 1).toInt();

    const EngineConfig config = EngineConfig::load(Settings(), QDir::tempPath(), QString()).value();
    auto locker = createMemoryLocker(LockerOptions());
    auto coordinator = createLocalCronCoordinator(QString());
    NoticeBoard notices;
    ProcessRegistry processes;
    Lifecycle lifecycle(processes);
    CronOptions options;
    options.instanceId = QStringLiteral("bench");
    CronService cron(config, *locker, *coordinator, notices, processes, options);

    std::mutex mutex;
    std::condition_variable done;
    std::vector<double> lateMs;
    CronTaskDefinition task;
    task.name = QStringLiteral("jitter");
    task.title = QStringLiteral("Jitter probe");
    task.defaults.schedule = QStringLiteral("* * * * * *");
    task.run = [&](const CronRunContext &context) -> Result<QString> {
        const qint64 late = context.tick.msecsTo(QDateTime::currentDateTimeUtc());
        std::lock_guard lock(mutex);
        lateMs.push_back(double(late));
        done.notify_all();
        return QString();
    };
    if (!cron.registerTask(task) || !cron.start(lifecycle))
        return 2;
    {
        std::unique_lock lock(mutex);
        done.wait(lock, [&] { return int(lateMs.size()) >= firings; });
    }
    lifecycle.shutdown();
    lifecycle.waitForTerminated();

    std::sort(lateMs.begin(), lateMs.end());
    auto at = [&](double q) { return lateMs[std::min(lateMs.size() - 1, size_t(q * double(lateMs.size())))]; };
    std::printf("%d firings of a per-second task: late by p50 %.0f ms, p99 %.0f ms, max %.0f ms (millisecond clock)\n", firings,
                at(0.50), at(0.99), lateMs.back());
    return 0;
}
