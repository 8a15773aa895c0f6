// Each scheduled tick runs at most once across instances (SPEC §4): three engine processes on one
// Redis, with wall clocks up to 700 ms apart, run a per-second task; one is killed (SIGKILL) and
// restarted. No tick may appear twice in the shared log.
#include "engine/core/lifecycle.h"
#include "engine/core/notices.h"
#include "engine/cron/cron.h"
#include "engine/globallock/globallock.h"
#include "engine/settings/config.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QDeadlineTimer>

#include "engine/core/childprocess.h"
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Switchyard;
using namespace std::chrono_literals;

class TestCronTick : public QObject
{
    Q_OBJECT

    static qint64 lines(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll().count('\n') : 0;
    }

    std::unique_ptr<ChildProcess> startChild(const QString &redis, const QString &log, int skewMs)
    {
        auto child = std::make_unique<ChildProcess>();
        ChildProcess::Options spawn;
        spawn.output = ChildProcess::Output::StdoutOnly;
        if (!child->start(QStringLiteral(CRONCHILD_PATH), {QStringLiteral("--redis"), redis, QStringLiteral("--log"), log,
                                                            QStringLiteral("--skew-ms"), QString::number(skewMs)},
                          spawn))
            qFatal("cronchild did not start");
        QDeadlineTimer deadline(20000);
        QByteArray said;
        while (said.isEmpty() && !child->finished() && !deadline.hasExpired())
            said += child->read(50);
        if (said.isEmpty())
            qFatal("cronchild did not start");
        return child;
    }

private Q_SLOTS:
    void everyTickRunsOnceAcrossInstances()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("ticks.log"));
        std::vector<std::unique_ptr<ChildProcess>> children;
        children.push_back(startChild(redis.url(), log, 0));
        children.push_back(startChild(redis.url(), log, 350));
        children.push_back(startChild(redis.url(), log, -350));
        QVERIFY(Test::eventually([&] { return lines(log) >= 3; }, 20s));

        children[1]->kill(); // crash one instance (SIGKILL)
        const qint64 afterKill = lines(log);
        QVERIFY(Test::eventually([&] { return lines(log) >= afterKill + 2; }, 20s));
        children[1] = startChild(redis.url(), log, 700); // back, with a clock further off
        const qint64 afterRestart = lines(log);
        QVERIFY(Test::eventually([&] { return lines(log) >= afterRestart + 3; }, 20s));

        for (auto &child : children) {
            child->signal(SIGTERM);
            QVERIFY(child->waitForFinished(20000));
        }
        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QHash<QByteArray, QByteArray> byTick;
        int duplicates = 0;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const QByteArray tick = line.split(' ').value(0);
            if (byTick.contains(tick)) {
                ++duplicates;
                qWarning("tick %s ran twice: %s and %s", tick.constData(), byTick.value(tick).constData(), line.constData());
            }
            byTick.insert(tick, line);
        }
        QCOMPARE(duplicates, 0);
        QVERIFY(byTick.size() >= 7);
    }

    // Two instances on one Redis: a pause made on one stops the scheduled runs of the other,
    // which shows the task paused from its next firing on; resuming lets it run again.
    void aPauseAppliesAcrossInstances()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        const EngineConfig config = EngineConfig::load(Settings(), QDir::tempPath(), QString()).value();
        LockerOptions lockOptions;
        lockOptions.connectAttempts = 1;
        NoticeBoard notices;
        ProcessRegistry processes;
        struct Instance
        {
            std::unique_ptr<Locker> locker;
            std::unique_ptr<CronCoordinator> coordinator;
            std::unique_ptr<CronService> cron;
            std::atomic<int> runs = 0;
        };
        Instance a, b;
        Lifecycle lifecycle(processes); // destroyed first: the scheduler stops before the services go
        for (Instance *instance : {&a, &b}) {
            lockOptions.instanceId = instance == &a ? QStringLiteral("a") : QStringLiteral("b");
            instance->locker = std::move(createRedisLocker(CancelToken(), {redis.url()}, lockOptions).value());
            instance->coordinator = std::move(createRedisCronCoordinator(redis.url(), QStringLiteral("t:")).value());
            CronOptions options;
            options.instanceId = lockOptions.instanceId;
            options.maxSleep = std::chrono::milliseconds(50);
            instance->cron = std::make_unique<CronService>(config, *instance->locker, *instance->coordinator, notices, processes, options);
            CronTaskDefinition task;
            task.name = QStringLiteral("tick");
            task.title = QStringLiteral("Tick");
            task.defaults.schedule = QStringLiteral("* * * * * *");
            task.run = [instance](const CronRunContext &) -> Result<QString> {
                ++instance->runs;
                return QString();
            };
            QVERIFY(instance->cron->registerTask(task));
        }
        QVERIFY(a.cron->pause(QStringLiteral("tick")));
        QVERIFY(b.cron->start(lifecycle));
        QVERIFY(Test::eventually([&] {
            const auto history = *b.cron->history(QStringLiteral("tick"));
            return !history.empty() && history.front().message == QLatin1String("paused");
        }, 10s));
        QCOMPARE(b.runs.load(), 0);
        QVERIFY(b.cron->task(QStringLiteral("tick"))->paused);
        QVERIFY(a.cron->resume(QStringLiteral("tick")));
        QVERIFY(Test::eventually([&] { return b.runs.load() > 0; }, 10s));
        QVERIFY(!b.cron->task(QStringLiteral("tick"))->paused);
        lifecycle.shutdown();
        lifecycle.waitForTerminated();
    }

    void whenRedisIsDownScheduledRunsAreSkippedAndManualRunsProceed()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        const EngineConfig config = EngineConfig::load(Settings(), QDir::tempPath(), QString()).value();
        LockerOptions lockOptions;
        lockOptions.instanceId = QStringLiteral("solo");
        lockOptions.connectAttempts = 1;
        auto locker = createRedisLocker(CancelToken(), {redis.url()}, lockOptions);
        auto coordinator = createRedisCronCoordinator(redis.url(), QStringLiteral("t:"));
        QVERIFY(locker && coordinator);
        NoticeBoard notices;
        ProcessRegistry processes;
        Lifecycle lifecycle(processes);
        CronOptions options;
        options.instanceId = QStringLiteral("solo");
        options.maxSleep = std::chrono::milliseconds(50);
        CronService cron(config, **locker, **coordinator, notices, processes, options);
        std::atomic<int> runs = 0;
        CronTaskDefinition task;
        task.name = QStringLiteral("tick");
        task.title = QStringLiteral("Tick");
        task.defaults.schedule = QStringLiteral("* * * * * *");
        task.run = [&](const CronRunContext &) -> Result<QString> {
            ++runs;
            return QString();
        };
        QVERIFY(cron.registerTask(task));
        QVERIFY(cron.start(lifecycle));
        QVERIFY(Test::eventually([&] { return runs >= 1; }, 10s));

        redis.stop();
        QVERIFY(Test::eventually([&] {
            const auto history = *cron.history(QStringLiteral("tick"));
            return !history.empty() && history.front().status == QLatin1String("skipped")
                   && history.front().message == QLatin1String("redis_down");
        }, 20s));
        const int before = runs;
        // A scheduled firing still trying Redis holds the task's in-flight slot (Run now then says
        // AlreadyRunning, as it should); once it has given up, Run now proceeds without Redis.
        QVERIFY(Test::eventually([&] {
            return *cron.runNow(QStringLiteral("tick"), QStringLiteral("operator")) == CronService::Trigger::Started;
        }, 20s));
        QVERIFY(Test::eventually([&] { return runs > before; }, 20s));
        cron.waitIdle();
        QVERIFY(Test::eventually([&] {
            const auto history = *cron.history(QStringLiteral("tick"));
            return std::any_of(history.begin(), history.end(), [](const CronRunRecord &r) {
                return r.trigger == QLatin1String("manual") && r.status == QLatin1String("finished")
                       && r.message.contains(QLatin1String("local lock only"));
            });
        }));
        lifecycle.shutdown();
        lifecycle.waitForTerminated();
    }
};

QTEST_GUILESS_MAIN(TestCronTick)
#include "tst_crontick.moc"
