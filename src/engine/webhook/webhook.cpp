// The webhook service's frame: its construction, start() — which starts the recorder, the
// delivery loop, the webhook_sender queue and the retry timer in the order that lets the
// lifecycle stop them safely, then sweeps stale claims and requeues what is undelivered — the
// push on the queue, and the outcomes' names. The service's work is in hookstore.cpp,
// tasksearch.cpp, deliveryloop.cpp, egress.cpp and recorder.cpp; webhook_p.h says which thread
// owns what.
//
// Threads: start() runs once, on the thread that starts the engine, before any other call but the
// constructor; push() from any thread once the queue exists.

#include "webhook_p.h"

#include "engine/core/cancellation.h"
#include "engine/core/lifecycle.h"
#include "engine/queue/queue.h"

Q_LOGGING_CATEGORY(lcWebhook, "switchyard.webhook", QtInfoMsg)

namespace Switchyard::Webhook {

QString name(TaskOutcome outcome)
{
    switch (outcome) {
        case TaskOutcome::Succeeded: return QStringLiteral("succeeded");
        case TaskOutcome::Failed: return QStringLiteral("failed");
        case TaskOutcome::Unknown: return QStringLiteral("unknown");
        case TaskOutcome::Skipped: return QStringLiteral("skipped");
        case TaskOutcome::Pending: break;
    }
    return QStringLiteral("pending");
}

std::optional<TaskOutcome> taskOutcomeFromName(QStringView n)
{
    if (n.isEmpty())
        return TaskOutcome::Pending;
    for (TaskOutcome o : {TaskOutcome::Pending, TaskOutcome::Succeeded, TaskOutcome::Failed, TaskOutcome::Unknown,
                          TaskOutcome::Skipped})
        if (n == name(o))
            return o;
    return std::nullopt;
}

Status WebhookService::Impl::push(const CancelToken &cancel, const std::vector<qint64> &ids)
{
    if (!queue)
        return Status::unavailable(QStringLiteral("webhook delivery has not started"));
    for (qint64 id : ids) {
        const Status pushed = queue->push(cancel, id);
        if (!pushed && pushed.code() != Status::Code::AlreadyExists)  // already queued: it goes out once
            return pushed;
    }
    return Status::ok();
}

WebhookService::WebhookService(const EngineConfig &config, Store &store, const SecretBox &secrets,
                               WebhookOptions options)
    : d(std::make_unique<Impl>(config, store, secrets, std::move(options)))
{}

WebhookService::~WebhookService() = default;

Status WebhookService::start(const CancelToken &cancel, QueueManager &queues, Lifecycle &lifecycle)
{
    // The recorder, then the delivery loop, then the queue: the lifecycle stops in reverse, so the
    // queue's workers (which hand the loop deliveries) stop before it, and the loop before the
    // recorder that writes what it ended.
    if (Status recording = lifecycle.runWithCancel(QStringLiteral("webhook recorder"),
                                                   [this](const CancelToken &stop) { d->runRecorder(stop); });
        !recording)
        return recording;
    if (Status looping = lifecycle.runWithCancel(QStringLiteral("webhook delivery loop"),
                                                 [this](const CancelToken &stop) { d->runLoop(stop); });
        !looping)
        return looping;
    {
        std::unique_lock lock(d->loop.mutex);
        if (!cancel.wait(d->loop.changed, lock, [this] { return d->loop.running || d->loop.stopped; }))
            return cancel.cause();
    }
    Result<std::shared_ptr<WorkerPoolQueue<qint64>>> queue =
        queues.createUniqueQueue<qint64>(cancel, QStringLiteral("webhook_sender"), [this](std::vector<qint64> ids) {
            deliver(CancelToken(), ids);  // a delivery is bounded by DELIVER_TIMEOUT; never retried
            return std::vector<qint64>{};
        });
    if (!queue)
        return queue.status();
    d->queue = std::move(queue).value();
    // At shutdown (this hook runs before the queue's, hooks run last-registered first) a worker
    // waiting for room gives up, so the queue stops without waiting for a receiver.
    lifecycle.runAtShutdown(QStringLiteral("webhook hand-off"), [this] {
        {
            std::lock_guard lock(d->loop.mutex);
            d->loop.closing = true;
        }
        d->loop.changed.notify_all();
    });
    // A flush of webhook_sender waits for what its workers handed to the loop, too.
    d->queue->pool().setSettle(
        [this](const CancelToken &c, SteadyClock::time_point until) { return d->settle(c, until); });
    // The retry timer is a producer of the queue: started after it, so it is stopped before it.
    if (Status timer = lifecycle.runWithCancel(
            QStringLiteral("webhook retries"),
            [this](const CancelToken &stop) {
                d->retries.run(stop, [this, &stop](qint64 id) {
                    if (Status pushed = d->push(stop, {id}); !pushed)
                        qCWarning(lcWebhook).noquote()
                            << "retry task" << id
                            << "not queued (it stays undelivered and is queued at the next start):" << pushed.message();
                });
            });
        !timer)
        return timer;
    if (Result<qint64> unknown = markStaleClaimsUnknown(); !unknown)
        return unknown.status();
    else if (*unknown > 0)
        qCWarning(lcWebhook).noquote() << *unknown
                                       << "webhook deliveries were interrupted by an earlier stop; they are marked "
                                          "unknown (redeliver them if needed)";
    Result<qint64> requeued = requeueUndelivered(cancel);
    if (!requeued)
        return requeued.status();
    if (*requeued > 0)
        qCInfo(lcWebhook).noquote() << *requeued << "undelivered webhook tasks are queued again";
    return Status::ok();
}

}  // namespace Switchyard::Webhook
