// The cron service: registration rules, run semantics, manual triggers, pause/resume, history,
// the scheduler's firing and its behaviour when the wall clock jumps, user-defined tasks.
#include "engine/core/lifecycle.h"
#include "engine/core/notices.h"
#include "engine/cron/cron.h"
#include "engine/globallock/globallock.h"
#include "engine/settings/config.h"

#include "support/httpreceiver.h"
#include "support/wait.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <mutex>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

// Holds a run inside its task until opened.
class Gate
{
public:
    void pass()
    {
        std::unique_lock lock(m_mutex);
        ++m_inside;
        m_cv.notify_all();
        m_cv.wait(lock, [&] { return m_open; });
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_cv.notify_all();
    }
    bool waitInside(int n = 1)
    {
        std::unique_lock lock(m_mutex);
        return m_cv.wait_for(lock, 20s, [&] { return m_inside >= n; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    int m_inside = 0;
    bool m_open = false;
};

struct Fixture
{
    explicit Fixture(const QByteArray &ini = QByteArray(), std::function<QDateTime()> clock = {})
    {
        Result<EngineConfig> loaded = EngineConfig::load(Settings(*IniFile::parse(QStringLiteral("app.ini"), ini)), dir.path(), QString());
        if (!loaded)
            qFatal("%s", qPrintable(loaded.status().message()));
        config = std::make_unique<EngineConfig>(std::move(loaded).value());
        LockerOptions lockOptions;
        lockOptions.instanceId = QStringLiteral("test");
        locker = createMemoryLocker(lockOptions);
        coordinator = createLocalCronCoordinator(dir.filePath(QStringLiteral("cron-state.json")));
        CronOptions options;
        options.instanceId = QStringLiteral("test");
        options.zone = QTimeZone("UTC");
        options.maxSleep = 50ms;
        if (clock)
            options.clock = std::move(clock);
        cron = std::make_unique<CronService>(*config, *locker, *coordinator, notices, processes, options);
    }
    ~Fixture()
    {
        lifecycle.shutdown();
        lifecycle.waitForTerminated();
    }

    // A task that runs until its token is cancelled; `inside` turns true once it runs.
    static CronTaskDefinition untilCancelled(const QString &name, std::atomic<bool> &inside)
    {
        return task(name, QStringLiteral("@yearly"), [&inside](const CronRunContext &c) -> Result<QString> {
            inside = true;
            c.cancel.sleepFor(std::chrono::hours(1));
            return c.cancel.cause();
        });
    }

    static CronTaskDefinition task(const QString &name, const QString &schedule, CronFunction fn, bool enabled = true)
    {
        CronTaskDefinition definition;
        definition.name = name;
        definition.title = QStringLiteral("Test task %1").arg(name);
        definition.defaults.enabled = enabled;
        definition.defaults.schedule = schedule;
        definition.run = std::move(fn);
        return definition;
    }

    QTemporaryDir dir;
    std::unique_ptr<EngineConfig> config;
    std::unique_ptr<Locker> locker;
    std::unique_ptr<CronCoordinator> coordinator;
    NoticeBoard notices;
    ProcessRegistry processes;
    Lifecycle lifecycle{processes};
    std::unique_ptr<CronService> cron;
};

Result<QString> ok(const CronRunContext &)
{
    return QStringLiteral("done");
}

} // namespace

class TestCron : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void registrationRules()
    {
        Fixture f("[cron.cache_self_check]\nSCHEDULE = @every 1h\nRUN_AT_START = true\n"
                  "[cron.delete_old_system_notices]\nOLDER_THAN = 72h\n");
        CronTaskDefinition untranslated = Fixture::task(QStringLiteral("no_title"), QStringLiteral("@daily"), ok);
        untranslated.title.clear();
        QCOMPARE(f.cron->registerTask(untranslated).message(),
                 QStringLiteral("translation is missing for cron task no_title: add admin.dashboard.no_title"));

        CronTaskDefinition cache = Fixture::task(QStringLiteral("cache_self_check"), QStringLiteral("@every 10m"), ok);
        cache.title.clear(); // a built-in: the title comes from the catalogue
        QVERIFY(f.cron->registerTask(cache));
        QCOMPARE(f.cron->registerTask(cache).code(), Status::Code::AlreadyExists);

        CronTaskDefinition gated = Fixture::task(QStringLiteral("gated"), QStringLiteral("@daily"), ok);
        gated.available = false;
        QVERIFY(f.cron->registerTask(gated));
        QVERIFY(!f.cron->task(QStringLiteral("gated")));

        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("off"), QStringLiteral("@daily"), ok, false)));

        CronTaskDefinition notices = Fixture::task(QStringLiteral("delete_old_system_notices"), QStringLiteral("@every 168h"), ok);
        notices.defaults.extra = {{QStringLiteral("OLDER_THAN"), QStringLiteral("168h")}};
        QVERIFY(f.cron->registerTask(notices));

        const std::vector<CronTaskInfo> list = f.cron->list();
        QCOMPARE(list.size(), size_t(3));
        QCOMPARE(list[0].name, QStringLiteral("cache_self_check"));
        QCOMPARE(list[0].title, CronService::builtInTitle(QStringLiteral("cache_self_check")));
        QCOMPARE(list[0].schedule, QStringLiteral("@every 1h")); // [cron.cache_self_check] wins
        QVERIFY(list[0].runAtStart);
        QVERIFY(list[0].next.isValid());
        QCOMPARE(list[1].name, QStringLiteral("off"));
        QVERIFY(!list[1].enabled);
        QVERIFY(!list[1].next.isValid()); // listed, not scheduled
    }

    void everyCatalogueTranslatesEveryBuiltInTask()
    {
        QVERIFY(!CronService::builtInTitle(QStringLiteral("cache_self_check")).isEmpty()); // loads the resources
        auto keys = [](const QString &path) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                return QStringList();
            QStringList list = QJsonDocument::fromJson(file.readAll()).object().keys();
            list.sort();
            return list;
        };
        const QStringList english = keys(QStringLiteral(":/switchyard/translations/en-US.json"));
        QVERIFY(english.size() >= 7);
        QCOMPARE(keys(QStringLiteral(":/switchyard/translations/zh-CN.json")), english);
        for (const QString &name : {QStringLiteral("cache_self_check"), QStringLiteral("queue_health_check"),
                                    QStringLiteral("delete_old_system_notices"), QStringLiteral("cleanup_hook_task_table")})
            QVERIFY(english.contains(QStringLiteral("admin.dashboard.") + name));
    }

    void badTaskSettingsAreRejectedWithTheirLocation()
    {
        Fixture f("[cron.broken]\nSCHEDULE = 0 25 * * *\nOLDER_THAN = soon\nENABLED = maybe\n");
        CronTaskDefinition broken = Fixture::task(QStringLiteral("broken"), QStringLiteral("@daily"), ok);
        broken.defaults.extra = {{QStringLiteral("OLDER_THAN"), QStringLiteral("24h")}};
        const Status status = f.cron->registerTask(broken);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        const QString message = status.message();
        QVERIFY2(message.contains(QLatin1String("app.ini:4: [cron.broken] ENABLED = \"maybe\" is not valid")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("app.ini:3: [cron.broken] OLDER_THAN = \"soon\" is not valid")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("app.ini:2: [cron.broken] SCHEDULE: invalid schedule \"0 25 * * *\": hour: 25 is out of range 0-23")),
                 qPrintable(message));
    }

    void runNowReturnsAtOnceAndRefusesASecondRun()
    {
        Fixture f;
        Gate gate;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("slow"), QStringLiteral("@yearly"), [&](const CronRunContext &c) -> Result<QString> {
            gate.pass();
            return QStringLiteral("ran for %1").arg(c.doer);
        })));
        QCOMPARE(*f.cron->runNow(QStringLiteral("slow"), QStringLiteral("alice")), CronService::Trigger::Started);
        QVERIFY(gate.waitInside()); // running on its own thread while we go on
        QCOMPARE(*f.cron->runNow(QStringLiteral("slow"), QStringLiteral("bob")), CronService::Trigger::AlreadyRunning);
        QVERIFY(f.cron->task(QStringLiteral("slow"))->running);
        const std::vector<ProcessInfo> processes = f.processes.list();
        QVERIFY(std::any_of(processes.begin(), processes.end(),
                            [](const ProcessInfo &p) { return p.description == QLatin1String("cron: slow"); }));
        gate.open();
        f.cron->waitIdle();
        const CronTaskInfo info = *f.cron->task(QStringLiteral("slow"));
        QCOMPARE(info.status, QStringLiteral("finished"));
        QCOMPARE(info.message, QStringLiteral("ran for alice"));
        QCOMPARE(info.execTimes, qint64(1));
        QCOMPARE(info.lastDoer, QStringLiteral("alice"));
        QVERIFY(info.prev.isValid());
        const std::vector<CronRunRecord> runs = *f.cron->history(QStringLiteral("slow"));
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].trigger, QStringLiteral("manual"));
        QCOMPARE(runs[0].doer, QStringLiteral("alice"));
        QCOMPARE(runs[0].instanceId, QStringLiteral("test"));
        QVERIFY(!runs[0].traceId.isEmpty());
        QVERIFY(f.notices.list().empty()); // no notice on success unless asked for
        QCOMPARE(f.cron->runNow(QStringLiteral("nope"), QStringLiteral("alice")).status().code(), Status::Code::NotFound);
    }

    void failuresAndExceptionsAreRecordedAndNoticed()
    {
        Fixture f("[cron.good]\nNOTICE_ON_SUCCESS = true\n");
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("bad"), QStringLiteral("@yearly"), [](const CronRunContext &) -> Result<QString> {
            return Status::unavailable(QStringLiteral("disk full"));
        })));
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("throws"), QStringLiteral("@yearly"), [](const CronRunContext &) -> Result<QString> {
            throw std::runtime_error("boom");
        })));
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("good"), QStringLiteral("@yearly"), ok)));
        f.cron->runNow(QStringLiteral("bad"), QStringLiteral("system"));
        f.cron->runNow(QStringLiteral("throws"), QStringLiteral("system"));
        f.cron->runNow(QStringLiteral("good"), QStringLiteral("carol"));
        f.cron->waitIdle();
        QCOMPARE(f.cron->task(QStringLiteral("bad"))->status, QStringLiteral("error"));
        QCOMPARE(f.cron->task(QStringLiteral("bad"))->message, QStringLiteral("disk full"));
        QCOMPARE(f.cron->task(QStringLiteral("throws"))->status, QStringLiteral("error"));
        QVERIFY(f.cron->task(QStringLiteral("throws"))->message.contains(QLatin1String("boom")));
        QCOMPARE(f.notices.list().size(), size_t(3));
        // The lock is released whatever happened.
        QVERIFY(f.locker->tryLock(CancelToken(), QStringLiteral("cron_task:throws"))->acquired());
    }

    void stoppingCancelsARunningTask()
    {
        Fixture f;
        std::atomic<bool> inside = false;
        QVERIFY(f.cron->registerTask(Fixture::untilCancelled(QStringLiteral("long"), inside)));
        f.cron->runNow(QStringLiteral("long"), QStringLiteral("system"));
        QVERIFY(Test::eventually([&] { return inside.load(); }));
        f.cron->stop();
        QCOMPARE(f.cron->task(QStringLiteral("long"))->status, QStringLiteral("cancelled"));
    }

    void anAdministratorCancelsARunFromTheProcessList()
    {
        Fixture f;
        std::atomic<bool> inside = false;
        QVERIFY(f.cron->registerTask(Fixture::untilCancelled(QStringLiteral("long"), inside)));
        f.cron->runNow(QStringLiteral("long"), QStringLiteral("alice"));
        QVERIFY(Test::eventually([&] { return inside.load(); }));
        const std::vector<ProcessInfo> processes = f.processes.list();
        const auto run = std::find_if(processes.begin(), processes.end(),
                                      [](const ProcessInfo &p) { return p.description == QLatin1String("cron: long"); });
        QVERIFY(run != processes.end() && run->cancellable);
        QVERIFY(f.processes.cancelProcess(run->pid));
        f.cron->waitIdle();
        QCOMPARE(f.cron->task(QStringLiteral("long"))->status, QStringLiteral("cancelled"));
        QVERIFY(f.cron->task(QStringLiteral("long"))->message.contains(QLatin1String("administrator")));
    }

    // Runs end on their own while the process list cancels them: run under ASan, a cancel that
    // reached a finished run's stack frame would be reported (issue: use-after-free).
    void cancellingRunsWhileTheyFinishIsSafe()
    {
        Fixture f;
        std::atomic<int> runs = 0;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("quick"), QStringLiteral("@yearly"), [&](const CronRunContext &) -> Result<QString> {
            ++runs;
            return QStringLiteral("done");
        })));
        std::atomic<bool> done = false;
        std::thread canceller([&] {
            while (!done) {
                for (const ProcessInfo &info : f.processes.list())
                    f.processes.cancelProcess(info.pid);
                std::this_thread::yield();
            }
        });
        for (int i = 0; i < 300; ++i) {
            f.cron->runNow(QStringLiteral("quick"), QStringLiteral("system"));
            f.cron->waitIdle();
        }
        done = true;
        canceller.join();
        QCOMPARE(runs.load(), 300);
        QCOMPARE(f.cron->history(QStringLiteral("quick"))->size(), size_t(50)); // the history keeps the last 50
    }

    void aDamagedStateFileIsKeptAsideAndReported()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cron-state.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"paused\": [\"cache_self_check\"");
        file.close();
        QStringList reports;
        const auto coordinator = createLocalCronCoordinator(path, [&](const QString &message) { reports.append(message); });
        QCOMPARE(reports.size(), 1);
        QVERIFY2(reports.first().contains(QLatin1String("is not valid JSON")), qPrintable(reports.first()));
        QVERIFY(!QFile::exists(path));
        const QStringList kept = QDir(dir.path()).entryList({QStringLiteral("cron-state.json.corrupt-*")});
        QCOMPARE(kept.size(), 1);
        QVERIFY(reports.first().contains(kept.first()));
        QCOMPARE(*coordinator->isPaused(QStringLiteral("cache_self_check")), false);
        // A pause is written to a fresh file.
        QVERIFY(coordinator->setPaused(QStringLiteral("x"), true));
        QVERIFY(*createLocalCronCoordinator(path)->isPaused(QStringLiteral("x")));
    }

    void aRunWhoseLockIsHeldElsewhereIsSkipped()
    {
        Fixture f;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("shared"), QStringLiteral("@yearly"), ok)));
        Result<LockGuard> other = f.locker->lock(CancelToken(), QStringLiteral("cron_task:shared")); // another instance
        f.cron->runNow(QStringLiteral("shared"), QStringLiteral("system"));
        f.cron->waitIdle();
        const std::vector<CronRunRecord> runs = *f.cron->history(QStringLiteral("shared"));
        QCOMPARE(runs.front().status, QStringLiteral("skipped"));
        QCOMPARE(runs.front().message, QStringLiteral("lock_held"));
        QCOMPARE(f.cron->task(QStringLiteral("shared"))->execTimes, qint64(0));
    }

    void scheduledFiringsPauseAndResume()
    {
        Fixture f;
        std::atomic<int> runs = 0;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("tick"), QStringLiteral("* * * * * *"), [&](const CronRunContext &c) -> Result<QString> {
            ++runs;
            return c.tick.toString(Qt::ISODate);
        })));
        QVERIFY(f.cron->start(f.lifecycle));
        QVERIFY(Test::eventually([&] { return runs >= 2; }, 10s));
        QCOMPARE(f.cron->history(QStringLiteral("tick"))->front().trigger, QStringLiteral("schedule"));

        QVERIFY(f.cron->pause(QStringLiteral("tick")));
        QVERIFY(f.cron->task(QStringLiteral("tick"))->paused);
        QVERIFY(Test::eventually([&] {
            const auto history = *f.cron->history(QStringLiteral("tick"));
            return history.front().status == QLatin1String("skipped") && history.front().message == QLatin1String("paused");
        }, 10s));
        const int whilePaused = runs;
        // Persisted: another coordinator on the same state file sees the pause.
        QVERIFY(*createLocalCronCoordinator(f.dir.filePath(QStringLiteral("cron-state.json")))->isPaused(QStringLiteral("tick")));
        // A manual run still works on a paused schedule.
        f.cron->runNow(QStringLiteral("tick"), QStringLiteral("dave"));
        QVERIFY(Test::eventually([&] { return runs > whilePaused; }));
        QVERIFY(f.cron->resume(QStringLiteral("tick")));
        const int resumedAt = runs;
        QVERIFY(Test::eventually([&] { return runs > resumedAt; }, 10s));
        QVERIFY(!*createLocalCronCoordinator(f.dir.filePath(QStringLiteral("cron-state.json")))->isPaused(QStringLiteral("tick")));
    }

    void runAtStartRunsAsynchronouslyAtStart()
    {
        Fixture f("[cron.early]\nRUN_AT_START = true\n");
        std::atomic<bool> ran = false;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("early"), QStringLiteral("@yearly"), [&](const CronRunContext &c) -> Result<QString> {
            ran = true;
            return c.trigger;
        })));
        QVERIFY(f.cron->start(f.lifecycle));
        QVERIFY(Test::eventually([&] { return ran.load(); }));
        f.cron->waitIdle();
        QCOMPARE(f.cron->history(QStringLiteral("early"))->front().trigger, QStringLiteral("start"));
    }

    void anOverlappingFiringIsSkipped()
    {
        Fixture f;
        Gate gate;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("busy"), QStringLiteral("* * * * * *"), [&](const CronRunContext &) -> Result<QString> {
            gate.pass();
            return QStringLiteral("done");
        })));
        QVERIFY(f.cron->start(f.lifecycle));
        QVERIFY(gate.waitInside());
        QVERIFY(Test::eventually([&] {
            const auto history = *f.cron->history(QStringLiteral("busy"));
            return !history.empty() && history.front().status == QLatin1String("skipped");
        }, 10s));
        QCOMPARE(f.cron->history(QStringLiteral("busy"))->front().message, QStringLiteral("lock_held"));
        gate.open();
    }

    void aClockThatJumpsBackNeverFiresATickTwice()
    {
        std::atomic<qint64> offsetMs = 0;
        Fixture f(QByteArray(), [&] { return QDateTime::currentDateTimeUtc().addMSecs(offsetMs.load()); });
        std::mutex mutex;
        QList<QDateTime> ticks;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("tick"), QStringLiteral("* * * * * *"), [&](const CronRunContext &c) -> Result<QString> {
            std::lock_guard lock(mutex);
            ticks.append(c.tick);
            return QString();
        })));
        QVERIFY(f.cron->start(f.lifecycle));
        QVERIFY(Test::eventually([&] { std::lock_guard lock(mutex); return ticks.size() >= 2; }, 10s));
        offsetMs = -5000; // the wall clock is set back five seconds
        qsizetype before = 0;
        {
            std::lock_guard lock(mutex);
            before = ticks.size();
        }
        QVERIFY(Test::eventually([&] { std::lock_guard lock(mutex); return ticks.size() >= before + 2; }, 20s));
        std::lock_guard lock(mutex);
        for (qsizetype i = 1; i < ticks.size(); ++i)
            QVERIFY2(ticks[i] > ticks[i - 1], qPrintable(ticks[i].toString(Qt::ISODate)));
    }

    void aClockThatJumpsForwardFiresTheLatestMissedTickOnce()
    {
        const QDateTime base = QDateTime::fromString(QStringLiteral("2026-01-01T10:00:30Z"), Qt::ISODate);
        std::atomic<qint64> offsetMs = 0; // the wall clock stands still until the test moves it
        Fixture f(QByteArray(), [&] { return base.addMSecs(offsetMs.load()); });
        std::mutex mutex;
        QList<QDateTime> ticks;
        QVERIFY(f.cron->registerTask(Fixture::task(QStringLiteral("minutely"), QStringLiteral("0 * * * * *"), [&](const CronRunContext &c) -> Result<QString> {
            std::lock_guard lock(mutex);
            ticks.append(c.tick);
            return QString();
        })));
        QVERIFY(f.cron->start(f.lifecycle));
        QCOMPARE(f.cron->task(QStringLiteral("minutely"))->next, base.addSecs(30)); // 10:01:00
        offsetMs = qint64(3 * 3600 + 5 * 60) * 1000; // 13:05:30: 185 firings were missed
        QVERIFY(Test::eventually([&] { return f.cron->task(QStringLiteral("minutely"))->next == base.addSecs(3 * 3600 + 6 * 60 - 30); }));
        f.cron->waitIdle();
        const std::vector<CronRunRecord> runs = *f.cron->history(QStringLiteral("minutely"));
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY2(runs.front().status == QLatin1String("finished"), qPrintable(runs.front().status + QLatin1Char(' ') + runs.front().message));
        std::lock_guard lock(mutex);
        QCOMPARE(ticks.size(), qsizetype(1));
        QCOMPARE(ticks.first(), QDateTime::fromString(QStringLiteral("2026-01-01T13:05:00Z"), Qt::ISODate));
    }

    void userDefinedCommandTasks()
    {
        Fixture f("[cron.echo]\nCOMMAND = /bin/echo \"hello world\"\nSCHEDULE = @yearly\n"
                  "[cron.fails]\nCOMMAND = /bin/sh -c \"echo broken >&2; exit 3\"\nSCHEDULE = @yearly\n"
                  "[cron.hangs]\nCOMMAND = /bin/sleep 30\nTIMEOUT = 200ms\nSCHEDULE = @yearly\n");
        QVERIFY(f.cron->registerUserTasks());
        f.cron->runNow(QStringLiteral("echo"), QStringLiteral("system"));
        f.cron->runNow(QStringLiteral("fails"), QStringLiteral("system"));
        f.cron->runNow(QStringLiteral("hangs"), QStringLiteral("system"));
        f.cron->waitIdle();
        QCOMPARE(f.cron->task(QStringLiteral("echo"))->status, QStringLiteral("finished"));
        QCOMPARE(f.cron->task(QStringLiteral("echo"))->message, QStringLiteral("hello world"));
        QCOMPARE(f.cron->task(QStringLiteral("echo"))->title, QStringLiteral("Run /bin/echo \"hello world\""));
        QCOMPARE(f.cron->task(QStringLiteral("fails"))->status, QStringLiteral("error"));
        QCOMPARE(f.cron->task(QStringLiteral("fails"))->message, QStringLiteral("exit code 3: broken"));
        QCOMPARE(f.cron->task(QStringLiteral("hangs"))->status, QStringLiteral("error"));
        QVERIFY(f.cron->task(QStringLiteral("hangs"))->message.startsWith(QLatin1String("timed out after 200ms")));
    }

    void commandsStartWithTheDefaultSignalMask()
    {
        // The daemon blocks SIGINT/SIGTERM in all its threads; its commands must not inherit that.
        sigset_t blocked;
        sigemptyset(&blocked);
        sigaddset(&blocked, SIGTERM);
        sigaddset(&blocked, SIGINT);
        pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
        Fixture f("[cron.mask]\nCOMMAND = /bin/grep SigBlk /proc/self/status\nSCHEDULE = @yearly\n");
        QVERIFY(f.cron->registerUserTasks());
        f.cron->runNow(QStringLiteral("mask"), QStringLiteral("system"));
        f.cron->waitIdle();
        pthread_sigmask(SIG_UNBLOCK, &blocked, nullptr);
        QCOMPARE(f.cron->task(QStringLiteral("mask"))->message.simplified(), QStringLiteral("SigBlk: 0000000000000000"));
    }

    void userDefinedUrlTasks()
    {
        Test::HttpReceiver receiver;
        Fixture f("[cron.ping]\nURL = " + receiver.url("/hook") + "\nMETHOD = POST\nSCHEDULE = @yearly\n");
        QVERIFY(f.cron->registerUserTasks());
        receiver.respond(204, QByteArray());
        f.cron->runNow(QStringLiteral("ping"), QStringLiteral("system"));
        f.cron->waitIdle();
        QCOMPARE(f.cron->task(QStringLiteral("ping"))->status, QStringLiteral("finished"));
        QVERIFY(f.cron->task(QStringLiteral("ping"))->message.startsWith(QLatin1String("HTTP 204")));
        QCOMPARE(receiver.requests().size(), 1);
        QCOMPARE(receiver.requests()[0].method, QByteArray("POST"));
        QCOMPARE(receiver.requests()[0].path, QByteArray("/hook"));
        QVERIFY(!receiver.requests()[0].header("X-Switchyard-Trace").isEmpty());

        receiver.respond(500, "internal trouble");
        f.cron->runNow(QStringLiteral("ping"), QStringLiteral("system"));
        f.cron->waitIdle();
        QCOMPARE(f.cron->task(QStringLiteral("ping"))->status, QStringLiteral("error"));
        QCOMPARE(f.cron->task(QStringLiteral("ping"))->message, QStringLiteral("HTTP 500: internal trouble"));
    }

    void badUserTasksAreRejected()
    {
        Fixture f("[cron.both]\nCOMMAND = /bin/true\nURL = http://127.0.0.1/\nSCHEDULE = @daily\n"
                  "[cron.noschedule]\nCOMMAND = /bin/true\n"
                  "[cron.badurl]\nURL = ftp://example.com/\nSCHEDULE = @daily\n"
                  "[cron.cleanup_hook_task_table]\nOLDER_THAN = 24h\n");
        const Status status = f.cron->registerUserTasks();
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QVERIFY(status.message().contains(QLatin1String("[cron.both]: a user-defined task needs exactly one of COMMAND or URL")));
        QVERIFY(status.message().contains(QLatin1String("[cron.noschedule]: SCHEDULE is required")));
        QVERIFY(status.message().contains(QLatin1String("expected an http:// or https:// URL")));
        QVERIFY(!status.message().contains(QLatin1String("cleanup_hook_task_table"))); // a built-in's settings
    }
};

QTEST_GUILESS_MAIN(TestCron)
#include "tst_cron.moc"
