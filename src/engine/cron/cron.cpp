#include "cron.h"

#include "engine/core/lifecycle.h"
#include "engine/core/notices.h"
#include "engine/core/processregistry.h"
#include "engine/globallock/globallock.h"
#include "engine/settings/config.h"
#include "engine/settings/duration.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QUuid>

#include <algorithm>

#include <deque>

Q_LOGGING_CATEGORY(lcCron, "switchyard.cron", QtInfoMsg)

// resources/engine.qrc lives in a static library: its initializer must be referenced explicitly.
static void initEngineResources()
{
    Q_INIT_RESOURCE(engine);
}

namespace Switchyard {

std::chrono::nanoseconds CronTaskConfig::duration(const QString &key, std::chrono::nanoseconds fallback) const
{
    const Result<std::chrono::nanoseconds> parsed = parseDuration(value(key));
    return parsed ? *parsed : fallback;
}

qint64 CronTaskConfig::integer(const QString &key, qint64 fallback) const
{
    bool ok = false;
    const qint64 parsed = value(key).toLongLong(&ok);
    return ok ? parsed : fallback;
}

QString CronService::builtInTitle(const QString &name)
{
    // The en-US catalogue (Gitea: options/locale/locale_en-US.json), compiled in from
    // translations/en-US.json: a built-in task without an entry cannot register.
    static const QJsonObject catalogue = [] {
        initEngineResources();
        QFile file(QStringLiteral(":/switchyard/translations/en-US.json"));
        if (!file.open(QIODevice::ReadOnly))
            qCCritical(lcCron) << "the en-US message catalogue is missing from the build";
        return QJsonDocument::fromJson(file.readAll()).object();
    }();
    return catalogue.value(QStringLiteral("admin.dashboard.") + name).toString();
}

struct CronService::Task
{
    CronTaskDefinition definition;
    CronTaskConfig config;
    std::optional<Schedule> schedule;
    QString title;
    bool running = false;
    bool paused = false;
    QDateTime next;
    QDateTime lastFiredTick;
    QDateTime lastScheduledRun;
    QDateTime lastManualRun;
    QString status;
    QString message;
    qint64 execTimes = 0;
    QString lastDoer;
    std::deque<CronRunRecord> history;  // newest first
    std::map<QString, qint64> runsByStatus;
};

CronService::CronService(const EngineConfig &config, Locker &locker, CronCoordinator &coordinator, NoticeBoard &notices,
                         ProcessRegistry &processes, CronOptions options)
    : m_config(config)
    , m_locker(locker)
    , m_coordinator(coordinator)
    , m_notices(notices)
    , m_processes(processes)
    , m_options(std::move(options))
{}

CronService::~CronService()
{
    stop();
}

Status CronService::registerTask(CronTaskDefinition definition)
{
    const QString name = definition.name;
    if (!definition.available) {
        qCDebug(lcCron).noquote() << "task" << name << "is not registered: its feature is off";
        return Status::ok();
    }
    QString title = definition.title.isEmpty() ? builtInTitle(name) : definition.title;
    if (title.isEmpty())
        return Status::invalidArgument(
            QStringLiteral("translation is missing for cron task %1: add admin.dashboard.%1").arg(name));

    // [cron.<name>] over the task's defaults (no common [cron] section, seed 000 §10.9.8).
    const Settings &s = m_config.settings();
    const QStringList section{QStringLiteral("cron.") + name};
    CronTaskConfig config = definition.defaults;
    QStringList errors;
    auto take = [&](auto result, auto fallback) {
        if (result)
            return std::move(result).value();
        errors.append(result.status().message());
        return fallback;
    };
    config.enabled = take(s.boolean(section, QStringLiteral("ENABLED"), config.enabled), config.enabled);
    config.runAtStart = take(s.boolean(section, QStringLiteral("RUN_AT_START"), config.runAtStart), config.runAtStart);
    config.noticeOnSuccess =
        take(s.boolean(section, QStringLiteral("NOTICE_ON_SUCCESS"), config.noticeOnSuccess), config.noticeOnSuccess);
    config.schedule = take(s.string(section, QStringLiteral("SCHEDULE"), config.schedule), config.schedule);
    for (auto it = config.extra.begin(); it != config.extra.end(); ++it) {
        it.value() = take(s.string(section, it.key(), it.value()), it.value());
        if (it.key() == QLatin1String("OLDER_THAN") || it.key() == QLatin1String("TIMEOUT")) {
            if (const Result<std::chrono::nanoseconds> d = parseDuration(it.value()); !d)
                errors.append(QStringLiteral("%1 = \"%2\" is not valid; %3")
                                  .arg(s.location(section, it.key()), it.value(), d.status().message()));
        }
        if (it.key() == QLatin1String("NUMBER_TO_KEEP")) {
            bool ok = false;
            if (it.value().toLongLong(&ok) < 0 || !ok)
                errors.append(QStringLiteral("%1 = \"%2\" is not valid; expected a whole number of at least 0")
                                  .arg(s.location(section, it.key()), it.value()));
        }
        if (const auto c = definition.choices.constFind(it.key()); c != definition.choices.constEnd()) {
            if (!c->contains(it.value(), Qt::CaseInsensitive))
                errors.append(QStringLiteral("%1 = \"%2\" is not valid; expected one of %3")
                                  .arg(s.location(section, it.key()), it.value(), c->join(QStringLiteral(", "))));
        }
    }
    std::optional<Schedule> schedule;
    if (Result<Schedule> parsed = Schedule::parse(config.schedule); parsed)
        schedule = std::move(parsed).value();
    else
        errors.append(
            QStringLiteral("%1: %2").arg(s.location(section, QStringLiteral("SCHEDULE")), parsed.status().message()));
    if (!errors.isEmpty())
        return Status::invalidArgument(errors.join(QLatin1Char('\n')));

    const Result<bool> paused = m_coordinator.isPaused(name);
    if (!paused)
        qCWarning(lcCron).noquote() << "task" << name
                                    << ": cannot read whether it is paused:" << paused.status().message();

    // What the task did last, from the journal, so the task list agrees with its history after a
    // restart (the run counters stay this instance's since start).
    std::optional<CronRunRecord> last;
    if (m_options.journal) {
        if (Result<std::vector<CronRunRecord>> runs = m_options.journal->newest(name)) {
            const auto ran = std::find_if(runs->begin(), runs->end(),
                                          [](const CronRunRecord &r) { return r.status != QLatin1String("skipped"); });
            if (ran != runs->end())
                last = *ran;
        } else {
            qCWarning(lcCron).noquote() << "task" << name << ": its last run cannot be read:" << runs.status().message();
        }
    }

    std::lock_guard lock(m_mutex);
    if (m_tasks.count(name))
        return Status::alreadyExists(QStringLiteral("duplicate cron task %1").arg(name));
    auto task = std::make_unique<Task>();
    if (last) {
        task->status = last->status;
        task->message = last->message;
        task->lastDoer = last->doer;
        (last->trigger == QLatin1String("manual") ? task->lastManualRun : task->lastScheduledRun) = last->startedAt;
    }
    task->definition = std::move(definition);
    task->config = std::move(config);
    task->schedule = std::move(schedule);
    task->title = title;
    task->paused = paused.valueOr(false);
    Task &ref = *task;
    m_tasks.emplace(name, std::move(task));
    m_order.push_back(&ref);
    m_changed.notify_all();
    if (m_started)
        planLocked(ref, m_options.clock());
    if (m_started && ref.config.enabled && ref.config.runAtStart && beginRunLocked(ref))
        launch(ref, QStringLiteral("start"), QStringLiteral("system"), QString(), std::nullopt);
    return Status::ok();
}

Status CronService::start(Lifecycle &lifecycle)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_started)
            return Status::ok();
        m_started = true;
        const QDateTime now = m_options.clock();
        for (Task *each : m_order) {
            Task &task = *each;
            planLocked(task, now);  // planned now, not whenever the scheduler thread first runs
            if (task.config.enabled && task.config.runAtStart && beginRunLocked(task))
                launch(task, QStringLiteral("start"), QStringLiteral("system"), QString(), std::nullopt);
        }
    }
    // LIFO: the scheduler stops first, then running tasks are cancelled and awaited.
    lifecycle.runAtShutdown(QStringLiteral("cron runs"), [this] { stop(); });
    return lifecycle.runWithCancel(QStringLiteral("cron scheduler"),
                                   [this](const CancelToken &cancel) { schedulerLoop(cancel); });
}

void CronService::stop()
{
    m_stop.cancel(QStringLiteral("cron is stopping"));
    std::list<Run> runs;
    {
        std::lock_guard lock(m_mutex);
        runs = std::move(m_runs);
        m_runs.clear();
    }
    for (Run &run : runs) {
        if (run.thread.joinable())
            run.thread.join();
    }
}

bool CronService::beginRunLocked(Task &task)
{
    if (task.running)
        return false;
    task.running = true;
    return true;
}

void CronService::reapRunsLocked(std::vector<std::thread> &finished)
{
    for (auto it = m_runs.begin(); it != m_runs.end();) {
        if (it->finished) {
            finished.push_back(std::move(it->thread));
            it = m_runs.erase(it);
        } else {
            ++it;
        }
    }
}

void CronService::launch(Task &task, const QString &trigger, const QString &doer, const QString &traceId,
                         std::optional<QDateTime> tick)
{
    // Requires m_mutex; task.running is already claimed.
    std::vector<std::thread> finished;
    reapRunsLocked(finished);
    m_runs.push_back(Run{});
    Run *run = &m_runs.back();
    const QString trace = traceId.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces) : traceId;
    run->thread = std::thread([this, &task, trigger, doer, trace, tick, run] {
        execute(task, trigger, doer, trace, tick);
        std::lock_guard lock(m_mutex);
        task.running = false;
        run->finished = true;
        m_changed.notify_all();
    });
    for (std::thread &thread : finished)
        thread.join();  // past their last use of the service: immediate
}

Result<CronService::Trigger> CronService::runNow(const QString &name, const QString &doer, const QString &traceId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_tasks.find(name);
    if (it == m_tasks.end())
        return Status::notFound(QStringLiteral("no cron task %1").arg(name));
    if (m_stop.isCancelled())
        return Status::unavailable(QStringLiteral("cron is stopping"));
    Task &task = *it->second;
    if (!beginRunLocked(task))
        return Trigger::AlreadyRunning;
    task.lastManualRun = m_options.clock();
    launch(task, QStringLiteral("manual"), doer.isEmpty() ? QStringLiteral("system") : doer, traceId, std::nullopt);
    return Trigger::Started;
}

void CronService::recordLocked(Task &task, CronRunRecord record)
{
    record.id = ++m_nextRecordId;
    record.instanceId = m_options.instanceId;
    ++task.runsByStatus[record.status];
    if (m_options.journal)
        m_unsaved.emplace_back(task.definition.name, record);
    task.history.push_front(std::move(record));
    while (int(task.history.size()) > m_options.historyLength)
        task.history.pop_back();
}

void CronService::saveRecords()
{
    if (!m_options.journal)
        return;
    std::lock_guard saving(m_saving);
    std::vector<std::pair<QString, CronRunRecord>> unsaved;
    {
        std::lock_guard lock(m_mutex);
        unsaved.swap(m_unsaved);
    }
    for (const auto &[name, record] : unsaved) {
        // The run happened either way; its row is what cannot be kept. Memory still shows it.
        if (Status saved = m_options.journal->append(name, record); !saved)
            qCWarning(lcCron).noquote() << "run of" << name << "at" << record.startedAt.toString(Qt::ISODateWithMs)
                                        << "(" << record.status << ") kept in memory only:" << saved.message();
    }
}

void CronService::recordSkipped(Task &task, const QString &trigger, const QString &reason, const QDateTime &at)
{
    qCDebug(lcCron).noquote() << "task" << task.definition.name << "skipped:" << reason;
    CronRunRecord record;
    record.trigger = trigger;
    record.doer = QStringLiteral("system");
    record.startedAt = at;
    record.status = QStringLiteral("skipped");
    record.message = reason;
    {
        std::lock_guard lock(m_mutex);
        recordLocked(task, std::move(record));
    }
    saveRecords();
}

QString CronService::claimScheduledTick(Task &task, const QDateTime &tick)
{
    const QString &name = task.definition.name;
    const Result<bool> paused = m_coordinator.isPaused(name);
    if (!paused)
        return QStringLiteral("redis_down");
    {
        std::lock_guard lock(m_mutex); // another instance may have paused or resumed it
        task.paused = *paused;
    }
    if (*paused)
        return QStringLiteral("paused");
    // Each tick once across instances, even when their clocks differ (SPEC §4).
    const auto ttl = task.schedule && task.schedule->isInterval()
                         ? std::max(std::chrono::seconds(60), *task.schedule->interval() * 2)
                         : std::chrono::seconds(3600);
    const Result<bool> claimed = m_coordinator.claimTick(name, tick, ttl);
    if (!claimed)
        return QStringLiteral("redis_down");
    if (!*claimed)
        return QStringLiteral("tick_claimed");
    return QString();
}

std::pair<QString, QString> CronService::runTaskFunction(Task &task, const CronRunContext &context,
                                                         const CancelToken &runToken)
{
    QString status;
    QString message;
    try {
        const Result<QString> result = task.definition.run(context);
        if (result) {
            status = QStringLiteral("finished");
            message = *result;
        } else if (result.status().code() == Status::Code::Cancelled || runToken.isCancelled()) {
            status = QStringLiteral("cancelled");
            message = result.status().message();
        } else {
            status = QStringLiteral("error");
            message = result.status().message();
        }
    } catch (const std::exception &e) {
        status = QStringLiteral("error");
        message = QStringLiteral("the task threw: %1").arg(QString::fromUtf8(e.what()));
    } catch (...) {
        status = QStringLiteral("error");
        message = QStringLiteral("the task threw");
    }
    return {status, message};
}

void CronService::finishRun(Task &task, const QString &trigger, const QString &doer, const QString &traceId,
                            const QDateTime &started, const QString &status, const QString &message)
{
    const QString &name = task.definition.name;
    const qint64 durationMs = started.msecsTo(m_options.clock());
    CronRunRecord record;
    record.trigger = trigger;
    record.doer = doer;
    record.startedAt = started;
    record.durationMs = durationMs;
    record.status = status;
    record.message = message;
    record.traceId = traceId;
    {
        std::lock_guard lock(m_mutex);
        task.status = status;
        task.message = message;
        recordLocked(task, record);
    }
    saveRecords();
    if (status != QLatin1String("finished") || task.config.noticeOnSuccess) {
        const QString by =
            doer == QLatin1String("system") ? QStringLiteral("by the scheduler") : QStringLiteral("by %1").arg(doer);
        m_notices.add(QStringLiteral("cron"),
                      QStringLiteral("Cron task %1 (%2) %3: %4").arg(name, by, status, message));
    }
    if (status == QLatin1String("finished"))
        qCDebug(lcCron).noquote() << "task" << name << status << "in" << durationMs << "ms:" << message;
    else
        qCWarning(lcCron).noquote() << "task" << name << status << "in" << durationMs << "ms:" << message;
}

void CronService::execute(Task &task, const QString &trigger, const QString &doer, const QString &traceId,
                          std::optional<QDateTime> tick)
{
    const QString name = task.definition.name;
    const bool scheduled = trigger == QLatin1String("schedule");
    const QDateTime firedAt = tick.value_or(m_options.clock());

    if (scheduled) {
        if (const QString skip = claimScheduledTick(task, *tick); !skip.isEmpty())
            return recordSkipped(task, trigger, skip, firedAt);
    }

    // Multi-instance dedup while running (seed 000 §10.9.4): tryLock, skip silently when held.
    Result<LockGuard> guard = m_locker.tryLock(m_stop.token(), QStringLiteral("cron_task:") + name);
    QString lockNote;
    if (!guard) {
        if (scheduled)
            return recordSkipped(task, trigger, QStringLiteral("redis_down"), firedAt);
        lockNote = QStringLiteral(" (global lock unavailable: ran with the local lock only)");
        guard = LockGuard();
    } else if (!guard->acquired()) {
        return recordSkipped(task, trigger, QStringLiteral("lock_held"), firedAt);
    }

    const QDateTime started = m_options.clock();
    {
        std::lock_guard lock(m_mutex);
        ++task.execTimes;
        task.lastDoer = doer;
        if (scheduled)
            task.lastScheduledRun = started;
    }
    // The run's token follows stop(), a lost lock and the process list's Cancel. The lock-lost
    // callback is unregistered (waiting for it if it runs) before `lockScope` goes away.
    CancelSource lockScope(m_stop.token());
    const CancelToken lockToken = guard->token();
    const CancelCallback lockLost =
        guard->acquired() ? lockToken.onCancel([&lockScope, lockToken] { lockScope.cancel(lockToken.cause()); })
                          : CancelCallback();
    ProcessRegistry::Handle process =
        m_processes.addCancellable(lockScope.token(), ProcessType::Normal, QStringLiteral("cron: %1").arg(name));
    const CancelToken runToken = process.token();
    CronRunContext context;
    context.cancel = runToken;
    context.taskName = name;
    context.trigger = trigger;
    context.doer = doer;
    context.traceId = traceId;
    context.tick = tick.value_or(QDateTime());
    context.config = &task.config;

    auto [status, message] = runTaskFunction(task, context, runToken);
    message += lockNote;
    guard->release();  // always, whatever happened
    process.reset();

    finishRun(task, trigger, doer, traceId, started, status, message);
}

void CronService::planLocked(Task &task, const QDateTime &now)
{
    if (!task.config.enabled || !task.schedule || task.next.isValid())
        return;
    const QDateTime from = task.lastFiredTick.isValid() ? std::max(task.lastFiredTick, now) : now;
    task.next = task.schedule->nextAfter(from, m_options.zone).value_or(QDateTime());
}

QDateTime CronService::latestTickUpTo(const Task &task, const QDateTime &now) const
{
    // After the wall clock jumped forward, the missed ticks collapse into the latest one: the
    // run that stands for "now", and the one other instances (whose clocks did not jump) claim.
    QDateTime tick = task.next;
    qint64 skipped = 0;
    for (int i = 0; i < 100000; ++i) {  // bounded: a years-long jump of a per-second schedule
        const std::optional<QDateTime> following = task.schedule->nextAfter(tick, m_options.zone);
        if (!following || !following->isValid() || *following > now)
            break;
        tick = *following;
        ++skipped;
    }
    if (skipped > 0)
        qCInfo(lcCron).noquote() << "task" << task.definition.name << ": the clock moved forward;" << skipped
                                 << "missed firing(s) collapse into the one of" << tick.toString(Qt::ISODate);
    return tick;
}

void CronService::schedulerLoop(const CancelToken &cancel)
{
    std::unique_lock lock(m_mutex);
    while (!cancel.isCancelled()) {
        const QDateTime now = m_options.clock();
        std::optional<QDateTime> earliest;
        for (Task *each : m_order) {
            Task &task = *each;
            if (!task.config.enabled || !task.schedule)
                continue;
            if (!task.next.isValid()) {
                planLocked(task, now);
                if (!task.next.isValid())
                    continue;  // never fires
            }
            if (task.next <= now) {
                const QDateTime tick = latestTickUpTo(task, now);
                // Never the same tick twice, whatever the wall clock did meanwhile.
                task.next = task.schedule->nextAfter(std::max(tick, now), m_options.zone).value_or(QDateTime());
                if (task.lastFiredTick.isValid() && tick <= task.lastFiredTick)
                    continue;
                task.lastFiredTick = tick;
                if (beginRunLocked(task))
                    launch(task, QStringLiteral("schedule"), QStringLiteral("system"), QString(), tick);
                else
                    recordLocked(
                        task, CronRunRecord{0, QString(), QStringLiteral("schedule"), QStringLiteral("system"), tick, 0,
                                            QStringLiteral("skipped"), QStringLiteral("lock_held"), QString()});
                if (!task.next.isValid())
                    continue;
            }
            if (!earliest || task.next < *earliest)
                earliest = task.next;
        }
        if (!m_unsaved.empty()) { // skipped firings: written without holding the lock
            lock.unlock();
            saveRecords();
            lock.lock();
        }
        // Sleep on the monotonic clock until the earliest firing, but look at the wall clock at
        // least every maxSleep so that a clock change is noticed.
        auto wait = std::chrono::milliseconds(m_options.maxSleep);
        if (earliest)
            wait = std::clamp(std::chrono::milliseconds(now.msecsTo(*earliest)), std::chrono::milliseconds(0), wait);
        const std::size_t tasksBefore = m_order.size();
        cancel.waitUntil(m_changed, lock, SteadyClock::now() + wait, [&] { return m_order.size() != tasksBefore; });
    }
}

Status CronService::pause(const QString &name)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_tasks.count(name))
            return Status::notFound(QStringLiteral("no cron task %1").arg(name));
    }
    if (Status stored = m_coordinator.setPaused(name, true); !stored)
        return stored;
    std::lock_guard lock(m_mutex);
    m_tasks.at(name)->paused = true;
    return Status::ok();
}

Status CronService::resume(const QString &name)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_tasks.count(name))
            return Status::notFound(QStringLiteral("no cron task %1").arg(name));
    }
    if (Status stored = m_coordinator.setPaused(name, false); !stored)
        return stored;
    std::lock_guard lock(m_mutex);
    m_tasks.at(name)->paused = false;
    return Status::ok();
}

CronTaskInfo CronService::infoLocked(const Task &task) const
{
    CronTaskInfo info;
    info.name = task.definition.name;
    info.title = task.title;
    info.schedule = task.config.schedule;
    info.enabled = task.config.enabled;
    info.runAtStart = task.config.runAtStart;
    info.noticeOnSuccess = task.config.noticeOnSuccess;
    info.running = task.running;
    info.paused = task.paused;
    if (task.config.enabled)
        info.next = task.next.isValid()
                        ? task.next
                        : task.schedule->nextAfter(m_options.clock(), m_options.zone).value_or(QDateTime());
    info.prev = std::max(task.lastScheduledRun, task.lastManualRun);
    info.status = task.status;
    info.message = task.message;
    info.execTimes = task.execTimes;
    info.lastDoer = task.lastDoer;
    info.runsByStatus = task.runsByStatus;
    return info;
}

std::vector<CronTaskInfo> CronService::list()
{
    std::lock_guard lock(m_mutex);
    std::vector<CronTaskInfo> infos;
    infos.reserve(m_order.size());
    for (const Task *task : m_order)
        infos.push_back(infoLocked(*task));
    return infos;
}

Result<CronTaskInfo> CronService::task(const QString &name)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_tasks.find(name);
    if (it == m_tasks.end())
        return Status::notFound(QStringLiteral("no cron task %1").arg(name));
    return infoLocked(*it->second);
}

Result<std::vector<CronRunRecord>> CronService::history(const QString &name)
{
    std::vector<CronRunRecord> inMemory;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_tasks.find(name);
        if (it == m_tasks.end())
            return Status::notFound(QStringLiteral("no cron task %1").arg(name));
        if (!m_options.journal)
            return std::vector<CronRunRecord>(it->second->history.begin(), it->second->history.end());
        inMemory.assign(it->second->history.begin(), it->second->history.end());
    }
    saveRecords(); // a record made a moment ago is in the answer
    Result<std::vector<CronRunRecord>> stored = m_options.journal->newest(name);
    if (stored)
        return stored;
    qCWarning(lcCron).noquote() << "run history of" << name << "read from memory (this instance's newest"
                                << inMemory.size() << "): the journal cannot be read:" << stored.status().message();
    return inMemory;
}

void CronService::waitIdle()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] {
        for (const auto &[name, task] : m_tasks) {
            if (task->running)
                return false;
        }
        return true;
    });
}

}  // namespace Switchyard
