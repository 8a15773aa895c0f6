#include "builtintasks.h"

#include "engine/webhook/webhook.h"

#include "engine/cache/cache.h"
#include "engine/core/notices.h"
#include "engine/events/events.h"
#include "engine/core/processregistry.h"
#include "engine/globallock/globallock.h"
#include "engine/queue/queue.h"
#include "engine/settings/duration.h"
#include "engine/store/store.h"

namespace Switchyard {

std::vector<CronTaskDefinition> builtInCronTasks(const BuiltInTaskServices &services)
{
    StringCache *cache_ = services.cache;
    QueueManager *queues_ = services.queues;
    NoticeBoard *notices = services.notices;
    CronTaskDefinition cache;
    cache.name = QStringLiteral("cache_self_check");
    cache.defaults.enabled = true;
    cache.defaults.schedule = QStringLiteral("@every 10m");
    cache.run = [cache_](const CronRunContext &) -> Result<QString> {
        const CacheCheckResult check = selfCheck(*cache_);
        const QString took = QStringLiteral("%1 ms").arg(double(check.elapsed.count()) / 1e6, 0, 'f', 2);
        if (!check.ok)
            return Status::unavailable(QStringLiteral("%1 cache failed its self-check after %2: %3").arg(cache_->adapter(), took, check.error));
        if (check.slow)
            return QStringLiteral("%1 cache is slow: %2 (threshold %3 ms)").arg(cache_->adapter(), took).arg(kSlowCacheThreshold.count());
        return QStringLiteral("%1 cache ok in %2").arg(cache_->adapter(), took);
    };

    CronTaskDefinition queues;
    queues.name = QStringLiteral("queue_health_check");
    queues.defaults.enabled = true;
    queues.defaults.schedule = QStringLiteral("@every 5m");
    queues.run = [queues_](const CronRunContext &) -> Result<QString> {
        QStringList problems;
        const std::vector<QueueStats> list = queues_->list();
        for (const QueueStats &q : list) {
            if (q.length < 0)
                problems.append(QStringLiteral("%1: backend unreachable").arg(q.name));
            else if (q.capacity > 0 && q.length * 10 >= qint64(q.capacity) * 9)
                problems.append(QStringLiteral("%1: %2 of %3 slots used").arg(q.name).arg(q.length).arg(q.capacity));
            if (q.paused && q.length > 0)
                problems.append(QStringLiteral("%1: paused with %2 item(s) waiting").arg(q.name).arg(q.length));
            if (q.corruptTotal > 0)
                problems.append(QStringLiteral("%1: %2 corrupt item(s) skipped").arg(q.name).arg(q.corruptTotal));
        }
        if (!problems.isEmpty())
            return Status::unavailable(problems.join(QStringLiteral("; ")));
        return QStringLiteral("%1 queue(s) healthy").arg(list.size());
    };

    CronTaskDefinition notices_;
    notices_.name = QStringLiteral("delete_old_system_notices");
    notices_.defaults.enabled = false; // as in Gitea: deleting history is opt-in
    notices_.defaults.schedule = QStringLiteral("@every 168h");
    notices_.defaults.extra = {{QStringLiteral("OLDER_THAN"), QStringLiteral("168h")}};
    notices_.run = [notices](const CronRunContext &context) -> Result<QString> {
        const auto age = std::chrono::duration_cast<std::chrono::seconds>(
            context.config->duration(QStringLiteral("OLDER_THAN"), std::chrono::hours(168)));
        return QStringLiteral("removed %1 notice(s) older than %2").arg(notices->removeOlderThan(age)).arg(formatDuration(age));
    };

    CronTaskDefinition vacuum;
    vacuum.name = QStringLiteral("vacuum_database");
    // Opt-in: SQLite's VACUUM rewrites the whole file and holds the write lock while it does.
    vacuum.defaults.enabled = false;
    vacuum.defaults.schedule = QStringLiteral("@weekly");
    Store *store = services.store;
    vacuum.run = [store](const CronRunContext &) -> Result<QString> { return store->vacuum(); };

    CronTaskDefinition notifications;
    notifications.name = QStringLiteral("delete_old_notifications");
    // Opt-in like the notices: read notifications are history a user may still page through.
    notifications.defaults.enabled = false;
    notifications.defaults.schedule = QStringLiteral("@every 24h");
    notifications.defaults.extra = {{QStringLiteral("OLDER_THAN"), QStringLiteral("720h")}};
    notifications.run = [store](const CronRunContext &context) -> Result<QString> {
        const auto age = std::chrono::duration_cast<std::chrono::seconds>(
            context.config->duration(QStringLiteral("OLDER_THAN"), std::chrono::hours(720)));
        const qint64 cutoff = QDateTime::currentSecsSinceEpoch() - age.count();
        // Read ones only: unread and pinned rows are still the user's to-do list.
        Result<qint64> removed = store->writeValue<qint64>([cutoff](SqlTransaction &tx) -> Result<qint64> {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("DELETE FROM notification WHERE status = 2 AND updated_unix < ?"), {cutoff});
            if (!q)
                return q.status();
            return qint64(q->numRowsAffected());
        });
        if (!removed)
            return removed.status();
        return QStringLiteral("removed %1 read notification(s) older than %2").arg(*removed).arg(formatDuration(age));
    };

    CronTaskDefinition resume;
    resume.name = QStringLiteral("resume_unfinished_events");
    // The heartbeat's recovery does the same when an instance is declared lost or a push failed
    // (store/instances.h); this sweep is the backstop, and what an operator runs by hand.
    resume.defaults.enabled = true;
    resume.defaults.schedule = QStringLiteral("@every 1m");
    EventService *events = services.events;
    resume.run = [events](const CronRunContext &context) -> Result<QString> {
        Result<qint64> recovered = events->recoverClaims(context.cancel);
        if (!recovered)
            return recovered.status();
        Result<qint64> requeued = events->requeueUnfinished(context.cancel);
        if (!requeued)
            return requeued.status();
        return QStringLiteral("%1 unfinished event(s) queued again, %2 taken over from instances no longer live")
            .arg(*requeued)
            .arg(*recovered);
    };

    // Gitea's cleanup_hook_task_table: delivered tasks older than OLDER_THAN (OlderThan), or all
    // but the NUMBER_TO_KEEP newest of each hook (PerWebhook). Undelivered tasks are never removed.
    Webhook::WebhookService *webhooks = services.webhooks;
    CronTaskDefinition cleanup;
    cleanup.name = QStringLiteral("cleanup_hook_task_table");
    cleanup.defaults.enabled = true;
    cleanup.defaults.schedule = QStringLiteral("@midnight");
    cleanup.defaults.extra = {{QStringLiteral("CLEANUP_TYPE"), QStringLiteral("OlderThan")},
                              {QStringLiteral("OLDER_THAN"), QStringLiteral("168h")},
                              {QStringLiteral("NUMBER_TO_KEEP"), QStringLiteral("10")}};
    cleanup.choices = {{QStringLiteral("CLEANUP_TYPE"), {QStringLiteral("OlderThan"), QStringLiteral("PerWebhook")}}};
    cleanup.run = [webhooks](const CronRunContext &context) -> Result<QString> {
        const bool perWebhook = context.config->value(QStringLiteral("CLEANUP_TYPE")).compare(QLatin1String("PerWebhook"), Qt::CaseInsensitive) == 0;
        const auto age = std::chrono::duration_cast<std::chrono::milliseconds>(
            context.config->duration(QStringLiteral("OLDER_THAN"), std::chrono::hours(168)));
        const qint64 keep = context.config->integer(QStringLiteral("NUMBER_TO_KEEP"), 10);
        Result<qint64> removed = perWebhook ? webhooks->cleanupPerHook(keep) : webhooks->cleanupOlderThan(age);
        if (!removed)
            return removed.status();
        return perWebhook ? QStringLiteral("removed %1 delivered webhook task(s), keeping the newest %2 of each hook").arg(*removed).arg(keep)
                          : QStringLiteral("removed %1 delivered webhook task(s) older than %2").arg(*removed).arg(formatDuration(age));
    };

    // Not in Gitea (whose webhooks are its own): ingested events keep their payloads, so they are
    // removed once processed and old; failed ones stay longer for an operator to look at.
    CronTaskDefinition events_;
    events_.name = QStringLiteral("cleanup_event_table");
    events_.defaults.enabled = true;
    events_.defaults.schedule = QStringLiteral("@midnight");
    events_.defaults.extra = {{QStringLiteral("OLDER_THAN"), QStringLiteral("720h")},
                              {QStringLiteral("FAILED_OLDER_THAN"), QStringLiteral("2160h")}};
    events_.run = [events](const CronRunContext &context) -> Result<QString> {
        const auto processed = std::chrono::duration_cast<std::chrono::milliseconds>(
            context.config->duration(QStringLiteral("OLDER_THAN"), std::chrono::hours(720)));
        const auto failed = std::chrono::duration_cast<std::chrono::milliseconds>(
            context.config->duration(QStringLiteral("FAILED_OLDER_THAN"), std::chrono::hours(2160)));
        Result<qint64> removed = events->cleanupOlderThan(context.cancel, processed, failed);
        if (!removed)
            return removed.status();
        return QStringLiteral("removed %1 event(s): processed before %2 ago, failed before %3 ago")
            .arg(*removed)
            .arg(formatDuration(processed), formatDuration(failed));
    };

    // Not in Gitea (which re-enqueues only at start): deliveries claimed by instances that are no
    // longer live are taken over (sent again, or unknown), and tasks that were written but never
    // reached the queue are queued again. The heartbeat's recovery does both too
    // (store/instances.h); this sweep is the backstop, and what an operator runs by hand.
    CronTaskDefinition resync;
    resync.name = QStringLiteral("resync_undelivered_hook_tasks");
    resync.defaults.enabled = true;
    resync.defaults.schedule = QStringLiteral("@every 10m");
    resync.run = [webhooks](const CronRunContext &context) -> Result<QString> {
        Result<qint64> interrupted = webhooks->recoverInterrupted(context.cancel);
        if (!interrupted)
            return interrupted.status();
        Result<qint64> requeued = webhooks->requeueUndelivered(context.cancel);
        if (!requeued)
            return requeued.status();
        return QStringLiteral("%1 undelivered webhook task(s) queued again, %2 interrupted delivery(ies) taken over")
            .arg(*requeued)
            .arg(*interrupted);
    };

    return {std::move(cache),         std::move(queues), std::move(notices_), std::move(vacuum), std::move(notifications),
            std::move(resume),        std::move(cleanup), std::move(resync), std::move(events_)};
}

Status registerBuiltInCronTasks(CronService &cron, const BuiltInTaskServices &services)
{
    for (CronTaskDefinition &definition : builtInCronTasks(services)) {
        if (Status registered = cron.registerTask(std::move(definition)); !registered)
            return registered;
    }
    return Status::ok();
}

Status validateCronSettings(const EngineConfig &config)
{
    // A throwaway service: nothing is started, no task function is called.
    LockerOptions lockOptions;
    const std::unique_ptr<Locker> locker = createMemoryLocker(lockOptions);
    const std::unique_ptr<CronCoordinator> coordinator = createLocalCronCoordinator(QString(), {});
    NoticeBoard notices;
    ProcessRegistry processes;
    CronService cron(config, *locker, *coordinator, notices, processes, CronOptions());
    QStringList errors;
    for (CronTaskDefinition &definition : builtInCronTasks(BuiltInTaskServices())) {
        if (Status registered = cron.registerTask(std::move(definition)); !registered)
            errors.append(registered.message());
    }
    if (Status registered = cron.registerUserTasks(); !registered)
        errors.append(registered.message());
    if (!errors.isEmpty())
        return Status::invalidArgument(errors.join(QLatin1Char('\n')));
    return Status::ok();
}

} // namespace Switchyard
