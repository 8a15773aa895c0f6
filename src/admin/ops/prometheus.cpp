#include "prometheus.h"

#include "cacheops.h"
#include "instanceops.h"
#include "mailops.h"

#include "engine/engine.h"

#include <QDateTime>

namespace Switchyard::Admin {

namespace {

QByteArray escapeLabel(const QString &value)
{
    QByteArray out;
    for (char c : value.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

} // namespace

MetricFamily::MetricFamily(QByteArray &out, const char *name, const char *type, const char *help) : m_out(out), m_name(name)
{
    m_out += "# HELP " + m_name + ' ' + help + '\n';
    m_out += "# TYPE " + m_name + ' ' + type + '\n';
}

MetricFamily &MetricFamily::sample(std::initializer_list<std::pair<const char *, QString>> labels, double value, const char *suffix)
{
    m_out += m_name;
    m_out += suffix;
    if (labels.size() > 0) {
        m_out += '{';
        bool first = true;
        for (const auto &[label, labelValue] : labels) {
            if (!first)
                m_out += ',';
            first = false;
            m_out += label;
            m_out += "=\"" + escapeLabel(labelValue) + '"';
        }
        m_out += '}';
    }
    m_out += ' ' + QByteArray::number(value, 'g', 15) + '\n';
    return *this;
}

QByteArray prometheusText(Engine &engine, const InstanceInfo &instance)
{
    using Family = MetricFamily;
    QByteArray out;
    Family(out, "switchyard_build_info", "gauge", "Version and instance of this Switchyard engine.")
        .sample({{"version", instance.version}, {"instance_id", instance.instanceId}}, 1);
    Family(out, "switchyard_uptime_seconds", "gauge", "Seconds since the engine started.")
        .sample(instance.startedAt.msecsTo(QDateTime::currentDateTimeUtc()) / 1000.0);

    // Queues
    const std::vector<QueueRow> queues = engine.queues().list();
    struct QueueFamily
    {
        const char *name, *type, *help;
        std::function<double(const QueueRow &)> value;
    };
    const QueueFamily queueFamilies[] = {
        {"switchyard_queue_length", "gauge", "Items waiting in the queue (-1: the backend could not say).",
         [](const QueueRow &q) { return double(q.length); }},
        {"switchyard_queue_workers", "gauge", "Workers running.", [](const QueueRow &q) { return double(q.workers); }},
        {"switchyard_queue_active_workers", "gauge", "Workers handling a batch now.",
         [](const QueueRow &q) { return double(q.activeWorkers); }},
        {"switchyard_queue_max_workers", "gauge", "Worker limit (0 or less: unbounded).",
         [](const QueueRow &q) { return double(q.maxWorkers); }},
        {"switchyard_queue_paused", "gauge", "1 when the queue hands nothing to workers.",
         [](const QueueRow &q) { return q.paused ? 1.0 : 0.0; }},
        {"switchyard_queue_pushed_total", "counter", "Items pushed since start.",
         [](const QueueRow &q) { return double(q.pushedTotal); }},
        {"switchyard_queue_handled_total", "counter", "Items handled since start.",
         [](const QueueRow &q) { return double(q.handledTotal); }},
        {"switchyard_queue_failed_total", "counter", "Items returned unhandled or in a failed batch since start.",
         [](const QueueRow &q) { return double(q.failedTotal); }},
    };
    for (const QueueFamily &f : queueFamilies) {
        Family family(out, f.name, f.type, f.help);
        for (const QueueRow &q : queues)
            family.sample({{"queue", q.name}, {"type", q.type}}, f.value(q));
    }

    // Cron
    const std::vector<CronRow> cron = engine.cron().list();
    {
        Family runs(out, "switchyard_cron_runs_total", "counter",
                    "Cron runs and skipped firings of this instance since start, by task and status.");
        for (const CronRow &task : cron) {
            for (const auto &[status, count] : task.runsByStatus)
                runs.sample({{"task", task.name}, {"status", status}}, double(count));
        }
        Family running(out, "switchyard_cron_running", "gauge", "1 while the task runs.");
        for (const CronRow &task : cron)
            running.sample({{"task", task.name}}, task.running ? 1 : 0);
    }

    // Locks (an unreachable locker leaves the family without samples rather than failing the scrape)
    {
        Family held(out, "switchyard_locks_held", "gauge", "Global locks held now, by backend.");
        if (const Result<std::vector<LockRow>> locks = engine.locker().list(CancelToken::background()))
            held.sample({{"backend", instance.lockService}}, double(locks->size()));
    }

    // Cache
    const CacheStats cache = engine.cache().stats();
    Family(out, "switchyard_cache_hits_total", "counter", "Cache reads that found the key.").sample({{"adapter", cache.adapter}}, double(cache.hits));
    Family(out, "switchyard_cache_misses_total", "counter", "Cache reads that did not.").sample({{"adapter", cache.adapter}}, double(cache.misses));
    Family(out, "switchyard_cache_evictions_total", "counter", "Items removed to make room or by expiry.")
        .sample({{"adapter", cache.adapter}}, double(cache.evictions));
    Family(out, "switchyard_cache_errors_total", "counter", "Backend failures.").sample({{"adapter", cache.adapter}}, double(cache.errors));
    // A summary of the recent window's quantiles (the cache keeps no all-time sum).
    Family(out, "switchyard_cache_latency_seconds", "summary", "Cache operation latency, recent quantiles.")
        .sample({{"adapter", cache.adapter}, {"quantile", QStringLiteral("0.5")}}, cache.latencyP50Ms / 1000.0)
        .sample({{"adapter", cache.adapter}, {"quantile", QStringLiteral("0.99")}}, cache.latencyP99Ms / 1000.0);

    // Webhooks
    const Webhook::DeliveryStats deliveries = engine.webhooks().stats();
    Family(out, "switchyard_webhook_deliveries_total", "counter", "Webhook deliveries this instance ended since start, by outcome.")
        .sample({{"outcome", QStringLiteral("succeeded")}}, double(deliveries.succeeded))
        .sample({{"outcome", QStringLiteral("failed")}}, double(deliveries.failed))
        .sample({{"outcome", QStringLiteral("skipped")}}, double(deliveries.skipped));
    Family(out, "switchyard_webhook_delivery_seconds_total", "counter", "Time those deliveries took, summed (with the count: the mean).")
        .sample(deliveries.durationSeconds);
    Family(out, "switchyard_webhook_deliveries_in_flight", "gauge", "Webhook deliveries being sent now.").sample(double(deliveries.inFlight));
    const Webhook::WebhookNotifier::Stats notifier = engine.webhookNotifier().stats();
    Family(out, "switchyard_webhook_events_total", "counter", "Forge events the webhook notifier handled since start, by result.")
        .sample({{"result", QStringLiteral("prepared")}}, double(notifier.prepared))
        .sample({{"result", QStringLiteral("failed")}}, double(notifier.failed));

    // Events a forge sent that Gitea has no counterpart for (answered 202, not stored).
    {
        Family ignored(out, "switchyard_events_ignored_total", "counter",
                       "Authentic events answered 202 and ignored since start (GitHub events without a Gitea counterpart), by event.");
        for (const auto &[event, count] : engine.events().ignoredCounts())
            ignored.sample({{"event", event}}, double(count));
    }

    // Mail
    const MailInfo mail = Ops::mailInfoOf(engine);
    Family(out, "switchyard_mail_enabled", "gauge", "1 when [mailer] ENABLED is set.").sample(mail.enabled ? 1 : 0);
    Family(out, "switchyard_mail_messages_total", "counter", "Mails this instance queued, sent and failed since start.")
        .sample({{"result", QStringLiteral("queued")}}, double(mail.queuedTotal))
        .sample({{"result", QStringLiteral("sent")}}, double(mail.sentTotal))
        .sample({{"result", QStringLiteral("failed")}}, double(mail.failedTotal));
    if (const Mail::MailNotifier *mailNotifier = engine.mailNotifier()) {
        const Mail::MailNotifier::Stats s = mailNotifier->stats();
        Family(out, "switchyard_mail_events_total", "counter", "Forge events the mail notifier handled since start, by result.")
            .sample({{"result", QStringLiteral("mailed")}}, double(s.events))
            .sample({{"result", QStringLiteral("failed")}}, double(s.failed));
    }

    // QoS
    const QosStats qos = Ops::qosOf(engine);
    Family(out, "switchyard_qos_enabled", "gauge", "1 when admission control is on.").sample(qos.enabled ? 1 : 0);
    Family(out, "switchyard_qos_inflight", "gauge", "Admitted requests running.").sample(qos.inflight);
    Family(out, "switchyard_qos_waiting", "gauge", "Requests waiting for admission.").sample(qos.waiting);
    Family(out, "switchyard_qos_admitted_total", "counter", "Requests admitted since start.").sample(double(qos.admittedTotal));
    Family(out, "switchyard_qos_dropped_total", "counter", "Requests rejected (503) since start, by priority.")
        .sample({{"priority", QStringLiteral("high")}}, double(qos.droppedTotal[std::size_t(Priority::High)]))
        .sample({{"priority", QStringLiteral("default")}}, double(qos.droppedTotal[std::size_t(Priority::Default)]))
        .sample({{"priority", QStringLiteral("low")}}, double(qos.droppedTotal[std::size_t(Priority::Low)]));

    return out;
}

} // namespace Switchyard::Admin
