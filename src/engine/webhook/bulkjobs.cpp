// Bulk redeliveries as jobs of the store: a bulk_job row holds the job's filter and progress and
// names the instance that runs it (claimed_by), so one job runs at a time across the instances
// sharing the store, and a job whose instance ends is taken over and resumed where it stopped
// (store/instances.h). Each redelivery is one transaction with the job's progress: a crash never
// redelivers a task twice, nor skips one.
//
// Threads: redeliverMatching() on its caller's; startBulkRedelivery() on its caller's, then the
// job on a thread of the lifecycle's (a component, stopped at shutdown before the queue it
// pushes to), listed as a cancellable process; resumeBulkJobs() from start() and the heartbeat's
// recovery round. Nothing here is shared in memory: the job's row is the shared state.

#include "webhook_p.h"

#include "engine/core/lifecycle.h"
#include "engine/core/processregistry.h"
#include "engine/store/instances.h"
#include "engine/store/store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace Switchyard::Webhook {

namespace {

constexpr qint64 kJobPage = 500;

QString filterJson(const TaskFilter &f)
{
    QJsonObject o{{QStringLiteral("hook_id"), f.hookId}, {QStringLiteral("text"), f.text}};
    if (f.outcome)
        o.insert(QStringLiteral("status"), name(*f.outcome));
    if (f.event)
        o.insert(QStringLiteral("event"), name(*f.event));
    if (f.since.isValid())
        o.insert(QStringLiteral("since_ms"), f.since.toMSecsSinceEpoch());
    if (f.until.isValid())
        o.insert(QStringLiteral("until_ms"), f.until.toMSecsSinceEpoch());
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

TaskFilter filterFrom(const QString &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    TaskFilter f;
    f.hookId = o.value(QStringLiteral("hook_id")).toInteger();
    f.text = o.value(QStringLiteral("text")).toString();
    if (o.contains(QStringLiteral("status")))
        f.outcome = taskOutcomeFromName(o.value(QStringLiteral("status")).toString());
    if (o.contains(QStringLiteral("event")))
        f.event = hookEventFromName(o.value(QStringLiteral("event")).toString());
    if (o.contains(QStringLiteral("since_ms")))
        f.since = QDateTime::fromMSecsSinceEpoch(o.value(QStringLiteral("since_ms")).toInteger(), Qt::UTC);
    if (o.contains(QStringLiteral("until_ms")))
        f.until = QDateTime::fromMSecsSinceEpoch(o.value(QStringLiteral("until_ms")).toInteger(), Qt::UTC);
    return f;
}

Status checkBulkFilter(const TaskFilter &filter)
{
    if (!filter.outcome || (*filter.outcome != TaskOutcome::Failed && *filter.outcome != TaskOutcome::Unknown))
        return Status::invalidArgument(QStringLiteral("a bulk redelivery takes status failed or unknown")).withField(QStringLiteral("status"));
    return Status::ok();
}

// Where a job stands: the last original it redelivered, the newest it may, how far it got.
struct JobPlace
{
    qint64 afterId = 0;
    qint64 boundId = 0;
    qint64 done = 0;
    qint64 total = 0;
};

// One redelivery of the job, in one transaction with its progress: the copy of `original`
// (a new delivery id), or nothing when the original is gone. False when the job is no longer
// this instance's to run (taken over, or ended).
Result<std::optional<qint64>> redeliverOne(SqlTransaction &tx, qint64 jobId, qint64 original, const QString &self)
{
    Result<QSqlQuery> progressed = tx.exec(QStringLiteral("UPDATE bulk_job SET after_id = ?, done = done + 1 WHERE id = ? AND claimed_by = ? "
                                                          "AND state = 'running'"),
                                           {original, jobId, self});
    if (!progressed)
        return progressed.status();
    if (progressed->numRowsAffected() == 0)
        return Status::conflict(QStringLiteral("bulk redelivery job %1 is no longer this instance's to run").arg(jobId));
    Result<QSqlQuery> copy = tx.exec(
        QStringLiteral("INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, created_ms, redelivery_of, trace_id) "
                       "SELECT hook_id, ?, payload, payload_version, event_type, ?, id, trace_id FROM hook_task WHERE id = ? RETURNING id"),
        {QUuid::createUuid().toString(QUuid::WithoutBraces), nowMs(), original});
    if (!copy)
        return copy.status();
    return copy->next() ? std::optional<qint64>(copy->value(0).toLongLong()) : std::optional<qint64>();
}

} // namespace

Result<std::pair<qint64, qint64>> WebhookService::Impl::beginBulkJob(const TaskFilter &filter, const QString &doer)
{
    if (Status s = checkBulkFilter(filter); !s)
        return s;
    const TaskWhere where = whereOf(filter, store.backend());
    // Held across the write: the job is in runningJobs before a recovery round can see its row.
    std::lock_guard jobs(jobsMutex);
    Result<std::pair<qint64, qint64>> job = store.writeValue<std::pair<qint64, qint64>>([&](SqlTransaction &tx) -> Result<std::pair<qint64, qint64>> {
        Result<QSqlQuery> running = tx.exec(QStringLiteral("SELECT id, claimed_by, doer FROM bulk_job WHERE state = 'running'"));
        if (!running)
            return running.status();
        if (running->next())
            return Status::conflict(QStringLiteral("a bulk redelivery is already running (job %1, started by %2 on instance %3); "
                                                   "wait for it or cancel it")
                                        .arg(running->value(0).toLongLong())
                                        .arg(running->value(2).toString(), running->value(1).toString()));
        running->finish();
        Result<qint64> total = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM hook_task") + where.sql, where.values);
        Result<qint64> bound = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM hook_task"));
        if (!total || !bound)
            return !total ? total.status() : bound.status();
        Result<qint64> id = tx.insertReturningId(
            QStringLiteral("INSERT INTO bulk_job (kind, args, doer, claimed_by, claimed_ms, created_ms, total, bound_id) "
                           "VALUES ('redeliver', ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
            {filterJson(filter), doer, instances.instanceId(), nowMs(), nowMs(), *total, *bound});
        if (!id)
            return id.status();
        return std::pair{*id, *total};
    });
    if (job)
        runningJobs.insert(job->first);
    return job;
}

Result<qint64> WebhookService::Impl::walkBulkJob(const CancelToken &cancel, const CancelToken &stop, qint64 jobId, const TaskFilter &filter,
                                                 const std::function<void(qint64 done, qint64 total)> &progress)
{
    const QString self = instances.instanceId();
    const auto place = [&]() -> Result<JobPlace> {
        return store.readValue<JobPlace>([&](SqlTransaction &tx) -> Result<JobPlace> {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT after_id, bound_id, done, total FROM bulk_job WHERE id = ?"), {jobId});
            if (!q)
                return q.status();
            if (!q->next())
                return Status::notFound(QStringLiteral("no bulk redelivery job %1").arg(jobId));
            return JobPlace{q->value(0).toLongLong(), q->value(1).toLongLong(), q->value(2).toLongLong(), q->value(3).toLongLong()};
        });
    };
    Result<JobPlace> at = untilAvailable(cancel, options.retry, place);
    Status ended = at.status();
    while (ended) {
        if (progress)
            progress(at->done, at->total);
        TaskFilter bounded = filter;
        bounded.beforeId = at->boundId + 1;
        const TaskWhere where = whereOf(bounded, store.backend());
        Result<std::vector<qint64>> page = untilAvailable(cancel, options.retry, [&] {
            return store.readValue<std::vector<qint64>>([&](SqlTransaction &tx) {
                return tx.numbers(QStringLiteral("SELECT id FROM hook_task") + where.sql + QStringLiteral(" AND id > ? ORDER BY id LIMIT ?"),
                                  where.values + QVariantList{at->afterId, kJobPage});
            });
        });
        if (!page || page->empty()) {
            ended = page.status();
            break;
        }
        for (qint64 original : *page) {
            if (cancel.isCancelled()) {
                ended = cancel.cause();
                break;
            }
            std::optional<qint64> copy;
            ended = untilAvailable(cancel, options.retry, [&] {
                Result<std::optional<qint64>> made = store.writeValue<std::optional<qint64>>(
                    [&](SqlTransaction &tx) { return redeliverOne(tx, jobId, original, self); });
                if (made)
                    copy = *made;
                return made.status();
            });
            if (!ended)
                break;
            at->afterId = original;
            ++at->done;
            if (copy) {
                announce({*copy});
                pushStored(cancel, {*copy}, "redelivered");
            }
            if (progress)
                progress(at->done, at->total);
        }
    }
    if (!ended && stop.isCancelled())
        return Status(ended.code(), QStringLiteral("%1 (after %2 of %3 redeliveries; the job resumes at the next start)")
                                        .arg(ended.message())
                                        .arg(at ? at->done : 0)
                                        .arg(at ? at->total : 0));
    const QString state = ended ? QStringLiteral("finished") : cancel.isCancelled() ? QStringLiteral("cancelled") : QStringLiteral("failed");
    const QString message = ended ? QString()
                                  : QStringLiteral("%1 (after %2 of %3 redeliveries)").arg(ended.message()).arg(at ? at->done : 0).arg(at ? at->total : 0);
    // Bounded: a job whose end is not written stays running, this instance's, and not running
    // here — resumeBulkJobs() takes it up again (and ends it, having nothing left).
    const CancelSource bound = CancelSource::withTimeout(CancelToken(), std::chrono::seconds(30));
    patiently(bound.token(), "end a bulk redelivery job", [&] {
        return store.write([&](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("UPDATE bulk_job SET state = ?, message = ?, ended_ms = ? WHERE id = ? AND claimed_by = ? "
                                          "AND state = 'running'"),
                           {state, message.left(2000), nowMs(), jobId, self})
                .status();
        });
    });
    if (!ended)
        return Status(ended.code(), message);
    return at->done;
}

Result<qint64> WebhookService::Impl::runBulkJob(qint64 jobId, const TaskFilter &filter, qint64 total, const QString &doer)
{
    if (!lifecycle || !processes)
        return Status::unavailable(QStringLiteral("webhook delivery has not started"));
    auto job = std::make_shared<ProcessRegistry::Handle>(processes->addCancellable(
        CancelToken(), ProcessType::Normal,
        QStringLiteral("bulk redeliver: %1 deliveries (%2, job %3)").arg(total).arg(doer.isEmpty() ? QStringLiteral("system") : doer).arg(jobId)));
    const qint64 pid = job->pid();
    const Status started = lifecycle->runWithCancel(QStringLiteral("bulk redelivery job %1").arg(jobId), [this, job, jobId, filter](const CancelToken &stop) {
        const CancelCallback onStop =
            stop.onCancel([this, pid = job->pid()] { processes->cancelProcess(pid, QStringLiteral("the instance is stopping")); });
        const Result<qint64> done = walkBulkJob(job->token(), stop, jobId, filter, [&job](qint64 n, qint64 all) { job->setProgress(n, all); });
        if (!done && !stop.isCancelled() && options.notice)
            options.notice(QStringLiteral("Bulk redelivery job %1 stopped: %2").arg(jobId).arg(done.status().message()));
        job->reset();
        std::lock_guard lock(jobsMutex);
        runningJobs.erase(jobId);
    });
    if (!started) {
        std::lock_guard lock(jobsMutex);
        runningJobs.erase(jobId);
        return started; // stopping: the job stays, to be resumed at the next start
    }
    return pid;
}

Result<qint64> WebhookService::redeliverMatching(const CancelToken &cancel, const TaskFilter &filter,
                                                 const std::function<void(qint64 done, qint64 total)> &progress)
{
    Result<std::pair<qint64, qint64>> job = d->beginBulkJob(filter, {});
    if (!job)
        return job.status();
    Result<qint64> done = d->walkBulkJob(cancel, CancelToken(), job->first, filter, progress);
    std::lock_guard lock(d->jobsMutex);
    d->runningJobs.erase(job->first);
    return done;
}

Result<WebhookService::BulkJob> WebhookService::startBulkRedelivery(const TaskFilter &filter, const QString &doer)
{
    Result<std::pair<qint64, qint64>> job = d->beginBulkJob(filter, doer);
    if (!job)
        return job.status();
    Result<qint64> pid = d->runBulkJob(job->first, filter, job->second, doer);
    if (!pid)
        return pid.status();
    return BulkJob{job->first, *pid, job->second};
}

Result<qint64> WebhookService::resumeBulkJobs()
{
    struct Taken
    {
        qint64 id = 0;
        QString args, doer, from;
        qint64 total = 0;
    };
    // jobsMutex before the transaction, as where a job begins: a job that begins is in
    // runningJobs before anyone can see its row unheld.
    std::unique_lock jobs(d->jobsMutex);
    Result<std::vector<Taken>> taken = d->store.writeValue<std::vector<Taken>>([&](SqlTransaction &tx) -> Result<std::vector<Taken>> {
        // Jobs of instances that are no longer live, and this instance's own that nothing here
        // runs (their end was not written).
        Result<QSqlQuery> q = tx.exec(
            QStringLiteral("SELECT id, args, doer, claimed_by, total FROM bulk_job WHERE state = 'running' AND (%1 OR claimed_by = ?)")
                .arg(d->instances.notLive(QStringLiteral("claimed_by"))),
            {d->instances.instanceId()});
        if (!q)
            return q.status();
        std::vector<Taken> rows;
        while (q->next())
            if (!d->runningJobs.count(q->value(0).toLongLong())) // jobsMutex is held (below)
                rows.push_back({q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toString(), q->value(3).toString(),
                                q->value(4).toLongLong()});
        q->finish();
        std::vector<Taken> mine;
        for (const Taken &t : rows) {
            Result<QSqlQuery> claimed = tx.exec(QStringLiteral("UPDATE bulk_job SET claimed_by = ?, claimed_ms = ? WHERE id = ? AND claimed_by = ? "
                                                               "AND state = 'running'"),
                                                {d->instances.instanceId(), nowMs(), t.id, t.from});
            if (!claimed)
                return claimed.status();
            if (claimed->numRowsAffected() > 0)
                mine.push_back(t);
        }
        return mine;
    });
    if (taken)
        for (const Taken &t : *taken)
            d->runningJobs.insert(t.id);
    jobs.unlock();
    if (!taken)
        return taken.status();
    for (const Taken &t : *taken) {
        qCWarning(lcWebhook).noquote() << "bulk redelivery job" << t.id << "of" << (t.from.isEmpty() ? QStringLiteral("(unknown)") : t.from)
                                       << "is resumed here: its instance ended";
        if (Result<qint64> pid = d->runBulkJob(t.id, filterFrom(t.args), t.total, t.doer); !pid)
            return pid.status();
    }
    return qint64(taken->size());
}

} // namespace Switchyard::Webhook
