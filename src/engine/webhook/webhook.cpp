// The webhook service's frame: its construction, start() — which starts the recorder, the
// delivery loop, the webhook_sender queue and the retry timer in the order that lets the
// lifecycle stop them safely, then takes over the claims of instances that are not live,
// requeues what is undelivered and joins the heartbeat's recovery — the push on the queue, the
// patient writes, and the outcomes' names. The service's work is in hookstore.cpp,
// tasksearch.cpp, deliveryloop.cpp, egress.cpp and recorder.cpp; webhook_p.h says which thread
// owns what.
//
// Threads: start() runs once, on the thread that starts the engine, before any other call but the
// constructor; push() from any thread once the queue exists.

#include "webhook_p.h"

#include "engine/core/cancellation.h"
#include "engine/core/lifecycle.h"
#include "engine/queue/queue.h"
#include "engine/store/instances.h"

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

void WebhookService::Impl::pushStored(const CancelToken &cancel, const std::vector<qint64> &ids, const char *what)
{
    if (ids.empty())
        return;
    if (Status pushed = push(cancel, ids); !pushed) {
        resync = true;
        qCWarning(lcWebhook).noquote() << ids.size() << what << "webhook task(s) are stored but not queued (" << pushed.message()
                                       << "); the next recovery round queues them";
    }
}

Status WebhookService::Impl::patiently(const CancelToken &stop, const char *what, const std::function<Status()> &attempt) const
{
    bool told = false;
    const auto wait = [&](const Status &why) {
        if (!std::exchange(told, true))
            qCWarning(lcWebhook).noquote() << "cannot" << what << "yet, waiting:" << why.message();
    };
    Status s = untilAvailable(stop, options.retry, attempt, wait);
    if (s.code() == Status::Code::Unavailable && stop.isCancelled()) {
        const CancelSource bound = CancelSource::withTimeout(CancelToken(), kStopPatience);
        s = untilAvailable(bound.token(), options.retry, attempt, wait);
    }
    return s;
}

WebhookService::WebhookService(const EngineConfig &config, Store &store, const SecretBox &secrets, InstanceRegistry &instances,
                               WebhookOptions options)
    : d(std::make_unique<Impl>(config, store, secrets, instances, std::move(options)))
{}

WebhookService::~WebhookService() = default;

Status WebhookService::start(const CancelToken &cancel, QueueManager &queues, Lifecycle &lifecycle, ProcessRegistry &processes)
{
    d->lifecycle = &lifecycle;
    d->processes = &processes;
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
    // A delivery is bounded by DELIVER_TIMEOUT; what a stop kept the worker from claiming goes
    // back to the queue.
    Result<std::shared_ptr<WorkerPoolQueue<qint64>>> queue = queues.createUniqueQueue<qint64>(
        cancel, QStringLiteral("webhook_sender"),
        [this, stop = lifecycle.shutdownToken()](std::vector<qint64> ids) { return deliver(stop, ids); });
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
                d->retries.run(stop, [this, &stop](qint64 id) { d->pushStored(stop, {id}, "due retry"); });
            });
        !timer)
        return timer;
    if (Result<qint64> recovered = recoverInterrupted(cancel); !recovered)
        return recovered.status();
    if (Result<qint64> resumed = resumeBulkJobs(); !resumed)
        return resumed.status();
    Result<qint64> requeued = requeueUndelivered(cancel);
    if (!requeued)
        return requeued.status();
    if (*requeued > 0)
        qCInfo(lcWebhook).noquote() << *requeued << "undelivered webhook tasks are queued again";
    d->instances.addRecoverer(QStringLiteral("webhooks"), [this](const CancelToken &c, bool adopted) -> Status {
        if (Result<qint64> recovered = recoverInterrupted(c); !recovered)
            return recovered.status();
        if (Result<qint64> resumed = resumeBulkJobs(); !resumed)
            return resumed.status();
        if (!adopted && !d->resync.exchange(false))
            return Status::ok();
        Result<qint64> again = requeueUndelivered(c);
        if (!again)
            d->resync = true;
        return again.status();
    });
    return Status::ok();
}

}  // namespace Switchyard::Webhook
