#include "localbackend.h"

#include "adminoperations.h"
#include "eventsource.h"

#include "engine/core/logging.h"

#include <QTimer>

namespace Switchyard::Admin {

// Drains one queue through its handler (AdminOperations::flushQueue) on the call pool while a
// timer reads the queue's length for progress.
class LocalBackend::FlushJob final : public AdminJob
{
public:
    FlushJob(LocalBackend &backend, qint64 qid, std::chrono::milliseconds timeout, QObject *parent)
        : AdminJob(parent), m_backend(backend), m_qid(qid), m_cancel(backend.m_calls.token())
    {
        setTitle(tr("Flush queue %1").arg(qid));
        connect(&m_timer, &QTimer::timeout, this, &FlushJob::readProgress);
        // The length first, then the flush: counted together, the flush could drain items before
        // they were counted and the progress would undercount.
        m_backend.submit<Result<qint64>>(this, [this, qid, timeout](Result<qint64> waiting) {
            if (isFinished())
                return; // cancelled meanwhile: nothing was started
            if (m_cancel.isCancelled()) { // the backend is closing
                finish(m_cancel.token().cause());
                return;
            }
            if (waiting)
                m_initial = *waiting;
            setProgress(0, m_initial);
            m_timer.start(int(m_backend.m_options.progressInterval.count()));
            m_started = true;
            m_backend.submitAudited<Status>(QStringLiteral("queue.flush"), QString::number(qid), this, [this](Status result) {
                m_timer.stop();
                if (result)
                    setProgress(m_initial, m_initial);
                finish(std::move(result));
            }, [qid, timeout, token = m_cancel.token()](AdminOperations &ops, const CancelToken &) {
                return ops.flushQueue(token, qid, timeout);
            });
        }, [qid](AdminOperations &ops, const CancelToken &) { return ops.removeAllCount(qid); });
    }

    void cancel() override
    {
        m_cancel.cancel(tr("cancelled by the operator"));
        if (!m_started) { // still counting: nothing to wait for
            m_timer.stop();
            finish(Status::cancelled(tr("flush cancelled")));
        }
    }

private:
    void readProgress()
    {
        if (m_reading)
            return; // one read at a time, however slow the engine is
        m_reading = true;
        m_backend.submit<Result<qint64>>(this, [this](Result<qint64> waiting) {
            m_reading = false;
            if (waiting && m_initial > 0)
                setProgress(std::max<qint64>(0, m_initial - *waiting), m_initial);
        }, [qid = m_qid](AdminOperations &ops, const CancelToken &) { return ops.removeAllCount(qid); });
    }

    LocalBackend &m_backend;
    const qint64 m_qid;
    CancelSource m_cancel; // a child of the backend's: close() cancels the flush
    QTimer m_timer;
    qint64 m_initial = 0;
    bool m_started = false; // the flush was submitted
    bool m_reading = false;
};

LocalBackend::LocalBackend(EngineConfig config, LocalBackendOptions options, QObject *parent)
    : AdminBackend(parent), m_config(std::move(config)), m_options(std::move(options))
{
    m_pool.setMaxThreadCount(m_options.callThreads);
}

LocalBackend::LocalBackend(std::unique_ptr<Engine> engine, LocalBackendOptions options, QObject *parent)
    : AdminBackend(parent), m_config(engine->config()), m_options(std::move(options))
{
    m_pool.setMaxThreadCount(m_options.callThreads);
    connected(std::move(engine));
}

LocalBackend::~LocalBackend()
{
    m_startup.cancel(QStringLiteral("console closing"));
    if (m_closer.joinable())
        m_closer.join(); // it joins the starter itself
    if (m_starter.joinable())
        m_starter.join();
    if (!m_closeRequested) {
        m_closeRequested = true;
        stopCalls(QStringLiteral("console closing"));
        m_pool.waitForDone();
        if (m_engine)
            m_engine->shutdown(QStringLiteral("console closing"));
    }
    m_pool.waitForDone();
    // An engine started but never adopted is shut down by its destructor (m_startedEngine).
}

QString LocalBackend::displayName() const
{
    return tr("This computer (embedded engine)");
}

void LocalBackend::start()
{
    if (m_engine || m_starter.joinable() || m_closeRequested)
        return;
    setState(State::Connecting, tr("starting the embedded engine"));
    m_starter = std::thread([this, config = m_config, options = m_options.engine, token = m_startup.token()] {
        Result<std::unique_ptr<Engine>> started = Engine::start(token, config, options);
        // The audit log reads its whole file: here, not on the GUI thread.
        std::unique_ptr<AuditLog> audit = started ? openAudit(config) : nullptr;
        {
            std::lock_guard lock(m_startMutex);
            m_startedAudit = std::move(audit);
            if (started)
                m_startedEngine = std::move(started).value();
            else
                m_startError = started.status();
        }
        QMetaObject::invokeMethod(this, &LocalBackend::adoptStarted, Qt::QueuedConnection);
    });
}

void LocalBackend::adoptStarted()
{
    if (m_closeRequested)
        return; // the closing thread shuts down an engine that was never adopted
    std::unique_ptr<Engine> engine;
    Status error;
    {
        std::lock_guard lock(m_startMutex);
        engine = std::move(m_startedEngine);
        error = m_startError;
        m_audit = std::move(m_startedAudit);
    }
    if (!engine) {
        setState(State::Failed, tr("the engine did not start: %1").arg(error.message()));
        return;
    }
    connected(std::move(engine));
}

// The console's own changes are audited like the API's, in the same file the daemon uses.
std::unique_ptr<AuditLog> LocalBackend::openAudit(const EngineConfig &config)
{
    Result<std::unique_ptr<AuditLog>> audit = AuditLog::open(config);
    if (audit)
        return std::move(audit).value();
    qWarning("the console's actions are not audited: %s", qPrintable(audit.status().message()));
    return nullptr;
}

void LocalBackend::connected(std::unique_ptr<Engine> engine)
{
    m_engine = std::move(engine);
    m_operations = std::make_unique<AdminOperations>(*m_engine);
    if (!m_audit) // an adopted engine (tests, benchmarks); start() opened it on the start-up thread
        m_audit = openAudit(m_engine->config());
    m_events = std::make_unique<AdminEventSource>(
        *m_operations, [this](AdminEvent event) { forward(std::move(event)); }, m_options.eventInterval);
    m_events->start();
    setState(State::Connected);
}

void LocalBackend::forward(AdminEvent event)
{
    // On the sampling thread (or a notice's adding thread): hand over to this object's thread.
    if (event.type == AdminEvent::Type::QueueStats) {
        std::lock_guard lock(m_pendingMutex);
        const bool posted = m_pendingQueueStats.has_value();
        m_pendingQueueStats = std::move(event);
        if (!posted)
            QMetaObject::invokeMethod(this, &LocalBackend::deliverQueueStats, Qt::QueuedConnection);
        return;
    }
    // The rest in order, handed over in batches: one posted call per batch, and a bounded backlog
    // (a burst of notices cannot queue a call each, nor grow without end).
    std::lock_guard lock(m_pendingMutex);
    const bool posted = !m_pendingEvents.empty() || m_eventsLost; // a deliverEvents() is on its way
    if (m_pendingEvents.size() >= kMaxPendingEvents) {
        m_pendingEvents.clear(); // the views re-read instead (resyncNeeded)
        m_eventsLost = true;
    }
    m_pendingEvents.push_back(std::move(event));
    if (!posted)
        QMetaObject::invokeMethod(this, &LocalBackend::deliverEvents, Qt::QueuedConnection);
}

void LocalBackend::deliverEvents()
{
    std::vector<AdminEvent> events;
    bool lost = false;
    {
        std::lock_guard lock(m_pendingMutex);
        events.swap(m_pendingEvents);
        lost = std::exchange(m_eventsLost, false);
    }
    if (state() != State::Connected)
        return; // closing: nobody is to be told any more
    if (lost) {
        Q_EMIT resyncNeeded();
        return; // the views re-read; these events are older than what they will read
    }
    for (const AdminEvent &event : events)
        Q_EMIT this->event(event);
}

void LocalBackend::deliverQueueStats()
{
    std::optional<AdminEvent> event;
    {
        std::lock_guard lock(m_pendingMutex);
        event.swap(m_pendingQueueStats);
    }
    if (event && state() == State::Connected)
        Q_EMIT this->event(*event);
}

void LocalBackend::stopCalls(const QString &reason)
{
    if (m_events)
        m_events->stop();
    m_calls.cancel(reason);
}

void LocalBackend::close(const QString &reason)
{
    if (m_closeRequested)
        return;
    m_closeRequested = true;
    m_startup.cancel(reason);
    setState(State::Closing, reason);
    stopCalls(reason);
    m_closer = std::thread([this, reason] {
        m_pool.waitForDone();
        // A start-up still under way was cancelled above; an engine it finished anyway is shut
        // down here, never on the GUI thread.
        if (m_starter.joinable())
            m_starter.join();
        std::unique_ptr<Engine> unadopted;
        {
            std::lock_guard lock(m_startMutex);
            unadopted = std::move(m_startedEngine);
        }
        bool clean = true;
        if (unadopted)
            clean = unadopted->shutdown(reason).clean();
        if (m_engine)
            clean = m_engine->shutdown(reason).clean() && clean;
        QMetaObject::invokeMethod(this, [this, clean] {
            setState(State::Closed);
            Q_EMIT closed(clean);
        }, Qt::QueuedConnection);
    });
}

QString LocalBackend::actor() const
{
    if (!m_options.actor.isEmpty())
        return m_options.actor;
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME"));
    return user.isEmpty() ? QStringLiteral("console") : QStringLiteral("console (%1)").arg(user);
}

Status LocalBackend::notRunning() const
{
    if (m_closeRequested)
        return Status::unavailable(tr("the embedded engine is shutting down"));
    if (state() == State::Failed)
        return Status::unavailable(stateMessage());
    return Status::unavailable(tr("the embedded engine is still starting"));
}

template<typename R>
void LocalBackend::submit(QObject *context, std::function<void(R)> reply,
                          std::function<R(AdminOperations &, const CancelToken &)> operation)
{
    // The reply reaches the context's thread (adminbackend.h), never inside this call.
    const Delivery<R> delivery = this->delivery<R>(context, std::move(reply));
    if (!m_operations || m_closeRequested) {
        delivery.send(R(notRunning()));
        return;
    }
    m_pool.start([delivery, operation = std::move(operation), token = m_calls.token(), operations = m_operations.get()] {
        delivery.send(operation(*operations, token));
    });
}

namespace {
const Status &statusOf(const Status &status)
{
    return status;
}
template<typename T>
Status statusOf(const Result<T> &result)
{
    return result ? Status::ok() : result.status();
}
} // namespace

Result<qint64> LocalBackend::beginAudit(const QString &action, const QString &target)
{
    if (!m_audit)
        return qint64(0); // not audited (said once, when the log could not be opened)
    return m_audit->begin({0, {}, actor(), QStringLiteral("local"), action, target, {}});
}

void LocalBackend::finishAudit(qint64 id, const Status &result)
{
    if (m_audit && id > 0)
        m_audit->finish(id, QString(),
                        result ? QStringLiteral("ok") : Status::codeName(result.code()) + QStringLiteral(": ") + result.message());
}

template<typename R>
void LocalBackend::submitAudited(const QString &action, const QString &target, QObject *context, std::function<void(R)> reply,
                                 std::function<R(AdminOperations &, const CancelToken &)> operation)
{
    submit<R>(context, std::move(reply), [this, action, target, operation = std::move(operation)](AdminOperations &ops, const CancelToken &cancel) {
        // Audit before acting: a change the log cannot record is not made.
        const Result<qint64> audited = beginAudit(action, target);
        if (!audited)
            return R(Status::unavailable(audited.status().message() + QStringLiteral("; nothing was changed")));
        R result = operation(ops, cancel);
        finishAudit(*audited, statusOf(result));
        return result;
    });
}

void LocalBackend::instance(QObject *context, Reply<InstanceInfo> reply)
{
    submit<Result<InstanceInfo>>(context, std::move(reply),
                                 [](AdminOperations &ops, const CancelToken &) { return Result<InstanceInfo>(ops.instance()); });
}

void LocalBackend::selfCheck(QObject *context, Reply<std::vector<SelfCheckItem>> reply)
{
    submit<Result<std::vector<SelfCheckItem>>>(context, std::move(reply), [this](AdminOperations &ops, const CancelToken &cancel) {
        std::vector<SelfCheckItem> items = ops.selfCheck(cancel);
        if (m_audit) // the console's changes are audited too: say when they cannot be
            items.push_back(m_audit->check());
        return Result<std::vector<SelfCheckItem>>(std::move(items));
    });
}

void LocalBackend::processes(QObject *context, Reply<std::vector<ProcessRow>> reply)
{
    submit<Result<std::vector<ProcessRow>>>(context, std::move(reply), [](AdminOperations &ops, const CancelToken &) {
        return Result<std::vector<ProcessRow>>(ops.processes());
    });
}

void LocalBackend::cancelProcess(qint64 pid, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("process.cancel"), QString::number(pid), context, std::move(reply), [pid](AdminOperations &ops, const CancelToken &) { return ops.cancelProcess(pid); });
}

void LocalBackend::notices(QObject *context, Reply<std::vector<NoticeRow>> reply)
{
    submit<Result<std::vector<NoticeRow>>>(context, std::move(reply), [](AdminOperations &ops, const CancelToken &) {
        return Result<std::vector<NoticeRow>>(ops.notices());
    });
}

void LocalBackend::deleteNotices(const QList<qint64> &ids, QObject *context, StatusReply reply)
{
    // Deletes what it can; the stream tells every view which notices went.
    submit<Status>(context, std::move(reply), [this, ids](AdminOperations &ops, const CancelToken &) {
        Status first;
        for (qint64 id : ids) {
            const Result<qint64> audited = beginAudit(QStringLiteral("notice.delete"), QString::number(id));
            if (!audited)
                return Status::unavailable(audited.status().message() + QStringLiteral("; nothing was changed"));
            Status deleted = ops.deleteNotice(id);
            finishAudit(*audited, deleted);
            if (deleted) {
                AdminEvent event;
                event.type = AdminEvent::Type::NoticeRemoved;
                event.notice.id = id;
                forward(std::move(event));
            } else if (first.isOk()) {
                first = deleted;
            }
        }
        return first;
    });
}

void LocalBackend::queues(QObject *context, Reply<std::vector<QueueRow>> reply)
{
    submit<Result<std::vector<QueueRow>>>(context, std::move(reply), [](AdminOperations &ops, const CancelToken &) {
        return Result<std::vector<QueueRow>>(ops.queues());
    });
}

void LocalBackend::queueSettings(qint64 qid, QObject *context, Reply<QueueSettingsInfo> reply)
{
    submit<Result<QueueSettingsInfo>>(context, std::move(reply),
                                      [qid](AdminOperations &ops, const CancelToken &) { return ops.queueSettings(qid); });
}

AdminJob *LocalBackend::flushQueue(qint64 qid, std::chrono::milliseconds timeout, QObject *parent)
{
    return new FlushJob(*this, qid, timeout, parent);
}

void LocalBackend::removeAllCount(qint64 qid, QObject *context, Reply<qint64> reply)
{
    submit<Result<qint64>>(context, std::move(reply), [qid](AdminOperations &ops, const CancelToken &) { return ops.removeAllCount(qid); });
}

void LocalBackend::removeAll(qint64 qid, QObject *context, Reply<qint64> reply)
{
    submitAudited<Result<qint64>>(QStringLiteral("queue.remove-all"), QString::number(qid), context, std::move(reply),
                           [qid](AdminOperations &ops, const CancelToken &cancel) { return ops.removeAll(cancel, qid); });
}

void LocalBackend::setMaxWorkers(qint64 qid, int maxWorkers, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("queue.set-max-workers"), QString::number(qid), context, std::move(reply),
                   [qid, maxWorkers](AdminOperations &ops, const CancelToken &) { return ops.setMaxWorkers(qid, maxWorkers); });
}

void LocalBackend::pauseQueue(qint64 qid, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("queue.pause"), QString::number(qid), context, std::move(reply), [qid](AdminOperations &ops, const CancelToken &cancel) { return ops.pauseQueue(cancel, qid); });
}

void LocalBackend::resumeQueue(qint64 qid, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("queue.resume"), QString::number(qid), context, std::move(reply), [qid](AdminOperations &ops, const CancelToken &) { return ops.resumeQueue(qid); });
}

void LocalBackend::cronTasks(QObject *context, Reply<std::vector<CronRow>> reply)
{
    submit<Result<std::vector<CronRow>>>(context, std::move(reply), [](AdminOperations &ops, const CancelToken &) {
        return Result<std::vector<CronRow>>(ops.cronTasks());
    });
}

void LocalBackend::runCron(const QString &name, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("cron.run"), name, context, std::move(reply), [name, doer = actor()](AdminOperations &ops, const CancelToken &) {
        return ops.runCron(name, doer);
    });
}

void LocalBackend::pauseCron(const QString &name, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("cron.pause"), name, context, std::move(reply), [name](AdminOperations &ops, const CancelToken &) { return ops.pauseCron(name); });
}

void LocalBackend::resumeCron(const QString &name, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("cron.resume"), name, context, std::move(reply), [name](AdminOperations &ops, const CancelToken &) { return ops.resumeCron(name); });
}

void LocalBackend::cronRuns(const QString &name, QObject *context, Reply<std::vector<CronRun>> reply)
{
    submit<Result<std::vector<CronRun>>>(context, std::move(reply),
                                         [name](AdminOperations &ops, const CancelToken &) { return ops.cronRuns(name); });
}

void LocalBackend::locks(QObject *context, Reply<std::vector<LockRow>> reply)
{
    submit<Result<std::vector<LockRow>>>(context, std::move(reply),
                                         [](AdminOperations &ops, const CancelToken &cancel) { return ops.locks(cancel); });
}

void LocalBackend::forceReleaseLock(const QString &key, QObject *context, StatusReply reply)
{
    submitAudited<Status>(QStringLiteral("lock.force-release"), key, context, std::move(reply), [key, who = actor()](AdminOperations &ops, const CancelToken &cancel) {
        return ops.forceReleaseLock(cancel, key, who);
    });
}

void LocalBackend::cacheInfo(QObject *context, Reply<CacheInfo> reply)
{
    submit<Result<CacheInfo>>(context, std::move(reply),
                              [](AdminOperations &ops, const CancelToken &) { return Result<CacheInfo>(ops.cacheInfo()); });
}

void LocalBackend::cacheStats(QObject *context, Reply<CacheStats> reply)
{
    submit<Result<CacheStats>>(context, std::move(reply),
                               [](AdminOperations &ops, const CancelToken &) { return Result<CacheStats>(ops.cacheStats()); });
}

void LocalBackend::cacheTest(QObject *context, Reply<CacheTest> reply)
{
    submit<Result<CacheTest>>(context, std::move(reply),
                              [](AdminOperations &ops, const CancelToken &) { return Result<CacheTest>(ops.cacheTest()); });
}

void LocalBackend::qos(QObject *context, Reply<QosStats> reply)
{
    submit<Result<QosStats>>(context, std::move(reply),
                             [](AdminOperations &ops, const CancelToken &) { return Result<QosStats>(ops.qos()); });
}

void LocalBackend::audit(const QString &action, QObject *context, Reply<std::vector<AuditEntry>> reply)
{
    submit<Result<std::vector<AuditEntry>>>(context, std::move(reply), [this, action](AdminOperations &, const CancelToken &) {
        if (!m_audit)
            return Result<std::vector<AuditEntry>>(Status::unavailable(tr("the audit log could not be opened")));
        AuditQuery query;
        query.action = action;
        query.limit = 500;
        return Result<std::vector<AuditEntry>>(m_audit->query(query).entries);
    });
}

} // namespace Switchyard::Admin
