// Helper for tst_crontick: one engine instance running a per-second cron task on a shared Redis,
// with its wall clock skewed. Each run appends "<tick> <pid>" to a log. Runs until SIGTERM/kill.
//
// cronchild --redis URL --log FILE --skew-ms N
#include "engine/core/lifecycle.h"
#include "engine/core/notices.h"
#include "engine/cron/cron.h"
#include "engine/globallock/globallock.h"
#include "engine/settings/config.h"

#include "support/testutil.h"

#include <QCoreApplication>
#include <QDir>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {
volatile std::sig_atomic_t g_stop = 0;
extern "C" void onTerm(int) { g_stop = 1; }
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto value = [&](const char *name) { return Test::argumentValue(args, name); };
    const QString redis = value("--redis");
    const qint64 skew = value("--skew-ms").toLongLong();
    const QByteArray logPath = value("--log").toLocal8Bit();
    std::signal(SIGTERM, onTerm);

    const QByteArray ini = "[global_lock]\nSERVICE_TYPE = redis\nSERVICE_CONN_STR = " + redis.toUtf8() + "\n";
    Result<EngineConfig> config = EngineConfig::load(Settings(*IniFile::parse(QStringLiteral("app.ini"), ini)), QDir::tempPath(), QString());
    if (!config)
        return 2;
    const QString instance = QStringLiteral("child-%1").arg(QCoreApplication::applicationPid());
    LockerOptions lockOptions;
    lockOptions.instanceId = instance;
    lockOptions.ttl = 3000ms;
    lockOptions.extendInterval = 1000ms;
    auto locker = createRedisLocker(CancelToken(), {redis}, lockOptions);
    auto coordinator = createRedisCronCoordinator(redis, QStringLiteral("gitea:globallock:"));
    if (!locker || !coordinator)
        return 2;
    NoticeBoard notices;
    ProcessRegistry processes;
    Lifecycle lifecycle(processes);
    CronOptions options;
    options.instanceId = instance;
    options.zone = QTimeZone("UTC");
    options.clock = [skew] { return QDateTime::currentDateTimeUtc().addMSecs(skew); };
    options.maxSleep = 100ms;
    CronService cron(*config, **locker, **coordinator, notices, processes, options);

    const int log = ::open(logPath.constData(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    CronTaskDefinition task;
    task.name = QStringLiteral("every_second");
    task.title = QStringLiteral("Every second");
    task.defaults.schedule = QStringLiteral("* * * * * *");
    task.run = [log](const CronRunContext &context) -> Result<QString> {
        const QByteArray line = QByteArray::number(context.tick.toSecsSinceEpoch()) + ' '
                                + QByteArray::number(QCoreApplication::applicationPid()) + '\n';
        [[maybe_unused]] const ssize_t written = ::write(log, line.constData(), size_t(line.size()));
        return QString();
    };
    if (!cron.registerTask(task) || !cron.start(lifecycle))
        return 2;
    std::printf("running\n");
    std::fflush(stdout);
    while (!g_stop)
        ::usleep(20000);
    lifecycle.shutdown();
    lifecycle.waitForTerminated();
    ::close(log);
    return 0;
}
