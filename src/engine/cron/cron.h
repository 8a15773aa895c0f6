#pragma once

// The cron subsystem's public header (SPEC §4, seed 000 §10.9, seed 002).

#include "crontypes.h"
#include "schedule.h"

#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QString>
#include <QTimeZone>

#include <condition_variable>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace Switchyard {

class EngineConfig;
class Lifecycle;
class Locker;
class NoticeBoard;
class ProcessRegistry;
class RedisPool;

// [cron.<name>]: the four common keys plus task-specific ones (OLDER_THAN, COMMAND, …), kept as
// text and read with the typed getters.
struct CronTaskConfig
{
    bool enabled = true;
    bool runAtStart = false;
    QString schedule;
    bool noticeOnSuccess = false;
    QHash<QString, QString> extra; // upper-case key → value (defaults overridden by app.ini)

    QString value(const QString &key) const { return extra.value(key.toUpper()); }
    // Typed reads of extra keys (validated at registration; the default applies if unreadable).
    std::chrono::nanoseconds duration(const QString &key, std::chrono::nanoseconds fallback) const;
    qint64 integer(const QString &key, qint64 fallback) const;
};

struct CronRunContext
{
    CancelToken cancel;   // cancelled on shutdown, on a lost lock, or by an administrator
    QString taskName;
    QString trigger;      // "schedule", "manual", "start"
    QString doer;         // "system" or the user who pressed Run
    QString traceId;      // the cause of this run, carried by the work it starts
    QDateTime tick;       // scheduled runs: the firing time they stand for
    const CronTaskConfig *config = nullptr;
};

// Returns the message shown with the run (e.g. "removed 12 notices"); an error Status fails it,
// a Cancelled one marks it cancelled.
using CronFunction = std::function<Result<QString>(const CronRunContext &)>;

struct CronTaskDefinition
{
    QString name;
    CronTaskConfig defaults;       // ENABLED / RUN_AT_START / SCHEDULE / NOTICE_ON_SUCCESS + extra keys
    CronFunction run;
    bool available = true;         // false: its feature is off — not registered, not listed
    QString title;                 // user-defined tasks; built-in titles come from the translations
    // Extra keys that take one of a few values (CLEANUP_TYPE: OlderThan, PerWebhook), checked
    // without case at registration. OLDER_THAN and TIMEOUT must be durations, NUMBER_TO_KEEP a
    // whole number ≥ 0.
    QHash<QString, QStringList> choices;
};

// What instances sharing Redis agree on: each scheduled tick runs once, and pauses apply to all.
class CronCoordinator
{
public:
    virtual ~CronCoordinator() = default;
    // true: this instance runs the tick. SET NX with a TTL for Redis.
    virtual Result<bool> claimTick(const QString &task, const QDateTime &tick, std::chrono::seconds ttl) = 0;
    virtual Result<bool> isPaused(const QString &task) = 0;
    virtual Status setPaused(const QString &task, bool paused) = 0;
    virtual QString kind() const = 0;
};
// Where cron reports a problem an operator must see (the engine: a system notice).
using CronProblemReporter = std::function<void(const QString &message)>;
// One instance: every tick is ours; pauses persist in a JSON file (the data directory). A file
// that cannot be read is kept aside as <file>.corrupt-<time>, reported, and no task is paused.
std::unique_ptr<CronCoordinator> createLocalCronCoordinator(const QString &stateFile,
                                                            const CronProblemReporter &report = {});
// The task names a pause file ({"paused": [names]}) holds. A file that cannot be read is kept
// aside as <file>.corrupt-<time> and reported; then no task is paused. (The store's coordinator
// imports the file of a version that kept pauses there with it.)
QSet<QString> readCronPauseFile(const QString &stateFile, const CronProblemReporter &report = {});
// Several instances on one Redis: keys cron_tick:<name>:<tick> and <prefix>cron:paused.
Result<std::unique_ptr<CronCoordinator>> createRedisCronCoordinator(const QString &connStr, const QString &prefix);

// Where run records persist (the store's cron_run table), so that history survives a restart and
// instances sharing a database see each other's runs. Called without the service's lock.
class CronRunJournal
{
public:
    virtual ~CronRunJournal() = default;
    virtual Status append(const QString &task, const CronRunRecord &record) = 0;
    virtual Result<std::vector<CronRunRecord>> newest(const QString &task) = 0; // newest first, as many as kept
};

struct CronOptions
{
    QString instanceId;
    QTimeZone zone = QTimeZone::systemTimeZone();
    std::function<QDateTime()> clock = [] { return QDateTime::currentDateTimeUtc(); }; // tests and skewed children
    int historyLength = 50; // runs kept per task in memory (all of history without a journal)
    // Run history persists here when set (it must outlive the service); history() reads it, and
    // memory is the fallback while it cannot be read.
    CronRunJournal *journal = nullptr;
    // The longest a sleeping scheduler waits before it looks at the wall clock again (so a clock
    // change is noticed).
    std::chrono::milliseconds maxSleep{1000};
};

// The scheduler, the task registry and the run bookkeeping. Thread-safe. Threads: the scheduler
// loop runs under the lifecycle ("cron scheduler"); each run gets a thread the service owns and
// joins (stop() or destruction).
class CronService
{
public:
    CronService(const EngineConfig &config, Locker &locker, CronCoordinator &coordinator, NoticeBoard &notices,
                ProcessRegistry &processes, CronOptions options);
    ~CronService();

    // Registration (seed 000 §10.9.2): fails on a missing title translation, a duplicate name, or
    // bad settings (an invalid SCHEDULE names the position and reason); a task whose feature is
    // off is skipped; a disabled task is listed but not scheduled. [cron.<name>] overrides the
    // defaults; there is no common [cron] section.
    Status registerTask(CronTaskDefinition definition);
    // Registers every [cron.<name>] section with COMMAND or URL that is not a built-in task.
    Status registerUserTasks();

    // Runs every enabled RUN_AT_START task asynchronously, then starts the scheduler. Cron
    // starts last, after queues and services.
    Status start(Lifecycle &lifecycle);
    // Stops scheduling and waits for running tasks (their tokens are cancelled).
    void stop();

    enum class Trigger { Started, AlreadyRunning };
    // Returns at once (seed 002): the in-flight claim is taken here, on the caller's thread.
    // NotFound for an unknown task.
    Result<Trigger> runNow(const QString &name, const QString &doer, const QString &traceId = QString());
    Status pause(const QString &name);
    Status resume(const QString &name);

    std::vector<CronTaskInfo> list();
    Result<CronTaskInfo> task(const QString &name);
    // Newest first.
    Result<std::vector<CronRunRecord>> history(const QString &name);
    // Blocks until no run is in progress (tests, flush before shutdown).
    void waitIdle();

    // The English title of a built-in task ("admin.dashboard.<name>"), empty when missing.
    static QString builtInTitle(const QString &name);

private:
    struct Task;
    void schedulerLoop(const CancelToken &cancel);
    QDateTime latestTickUpTo(const Task &task, const QDateTime &now) const; // requires m_mutex
    void planLocked(Task &task, const QDateTime &now); // sets the next firing when unset
    // Claims the in-flight slot (false: already running) — under m_mutex.
    bool beginRunLocked(Task &task);
    void launch(Task &task, const QString &trigger, const QString &doer, const QString &traceId,
                std::optional<QDateTime> tick);
    void execute(Task &task, const QString &trigger, const QString &doer, const QString &traceId,
                 std::optional<QDateTime> tick);
    // execute()'s parts: the scheduled tick's claim (empty, or why it is skipped), the call of
    // the task's function (status, message), and the record, notice and log of the outcome.
    QString claimScheduledTick(Task &task, const QDateTime &tick);
    std::pair<QString, QString> runTaskFunction(Task &task, const CronRunContext &context, const CancelToken &runToken);
    void finishRun(Task &task, const QString &trigger, const QString &doer, const QString &traceId, const QDateTime &started,
                   const QString &status, const QString &message);
    void recordSkipped(Task &task, const QString &trigger, const QString &reason, const QDateTime &at);
    void recordLocked(Task &task, CronRunRecord record);
    void saveRecords(); // writes what recordLocked() queued to the journal; without m_mutex
    void reapRunsLocked(std::vector<std::thread> &finished);
    CronTaskInfo infoLocked(const Task &task) const;

    const EngineConfig &m_config;
    Locker &m_locker;
    CronCoordinator &m_coordinator;
    NoticeBoard &m_notices;
    ProcessRegistry &m_processes;
    const CronOptions m_options;

    mutable std::mutex m_mutex;
    std::condition_variable_any m_changed;
    std::map<QString, std::unique_ptr<Task>> m_tasks; // guarded by m_mutex
    std::vector<Task *> m_order;                      // guarded by m_mutex; registration order (tasks stay)
    struct Run
    {
        std::thread thread;
        bool finished = false;
    };
    std::list<Run> m_runs;     // guarded by m_mutex
    qint64 m_nextRecordId = 0; // guarded by m_mutex
    std::vector<std::pair<QString, CronRunRecord>> m_unsaved; // guarded by m_mutex; for the journal
    std::mutex m_saving;       // one saveRecords() at a time, so rows are written in record order
    bool m_started = false;    // guarded by m_mutex
    CancelSource m_stop;       // cancels runs on stop()
};

} // namespace Switchyard
