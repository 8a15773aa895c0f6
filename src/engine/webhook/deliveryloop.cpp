// The delivery loop and the hand-off to it: a worker of webhook_sender reserves room, claims its
// tasks, prepares each request (egress.cpp) and hands it over; the loop thread sends what it was
// handed (loopthread.cpp), at most six at a time per hook, and passes what ended to the recorder
// (recorder.cpp).
//
// Threads:
//   - the queue's workers: deliver(), reserve()/unreserve(), claim(), handOff(). A flight is the
//     worker's until handOff() puts it in Loop::inbox;
//   - the delivery loop thread: LoopThread, for as long as runLoop() runs. It owns the HttpClient
//     and every flight it took from the inbox (on the wire, or waiting for a connection of its
//     hook) until the flight ends and goes to the recorder;
//   - any caller's thread: forget() (a hook was deleted), settle() (a flush of the queue);
//   - the shutdown: Loop::closing (start(), webhook.cpp).
// What they share is Impl::loop, under Loop::mutex: the inbox, the room (held, heldPerHook),
// each hook's pace (oldestSentMs) and whether the loop runs. Room is taken by a worker before it
// claims; it is given back by the worker for what it did not hand over, by the recorder once a
// result is written, and by the loop for what it drops unsent.

#include "webhook_p.h"

#include "engine/core/crashpoint.h"
#include "engine/store/instances.h"

#include "engine/store/store.h"


namespace Switchyard::Webhook {

namespace {

// A claimed task's hook, read once per batch, with what the request needs besides it.
struct HookRead
{
    Hook hook;
    QString error;  // why its tasks cannot be sent (the hook is gone or does not read)
    QString sealedAuthorization;
    bool ownerIsOrganization = false;
};

// Hook `hookId` as a claim needs it, in the claim's transaction.
Result<HookRead> readHook(SqlTransaction &tx, qint64 hookId)
{
    HookRead r;
    Result<QSqlQuery> h =
        tx.exec(QStringLiteral("SELECT ") + kHookColumns + QStringLiteral(" FROM webhook WHERE id = ?"), {hookId});
    if (!h)
        return h.status();
    if (!h->next()) {
        r.error = QStringLiteral("the hook was deleted");
    } else {
        Result<Hook> hook = hookFrom(*h);
        if (!hook)
            r.error = hook.status().message();
        else
            r.hook = std::move(hook).value();
    }
    h->finish();
    // What the request needs besides the hook, in the same transaction.
    if (r.error.isEmpty()) {
        Result<QSqlQuery> extra =
            tx.exec(QStringLiteral("SELECT w.header_authorization, COALESCE(u.is_org, 0) FROM webhook w "
                                   "LEFT JOIN forge_user u ON u.id = w.owner_id WHERE w.id = ?"),
                    {hookId});
        if (!extra)
            return extra.status();
        if (extra->next()) {
            r.sealedAuthorization = extra->value(0).toString();
            r.ownerIsOrganization = extra->value(1).toInt() != 0;
        }
    }
    return r;
}

// Claims task `id` for instance `self` (is_delivered 0 → 1, claimed_ms = `now`) and reads its
// row, in one statement. Nothing when it is delivered, claimed elsewhere, gone — or a retry whose
// time has not come: `dueMs` then says when it is due (0 or the past for the others).
Result<std::optional<HookTask>> claimTask(SqlTransaction &tx, qint64 id, qint64 now, const QString &self, qint64 &dueMs)
{
    Result<QSqlQuery> claimed =
        tx.exec(QStringLiteral("UPDATE hook_task SET is_delivered = 1, claimed_ms = ?, claimed_by = ? WHERE id = ? "
                               "AND is_delivered = 0 AND deliver_after_ms <= ? RETURNING ") +
                    kTaskColumns,
                {now, self, id, now});
    if (!claimed)
        return claimed.status();
    if (!claimed->next()) {
        claimed->finish();
        Result<qint64> after = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(deliver_after_ms), 0) FROM hook_task "
                                                        "WHERE id = ? AND is_delivered = 0"),
                                         {id});
        if (!after)
            return after.status();
        dueMs = *after;
        return std::optional<HookTask>();
    }
    std::optional<HookTask> task = taskFrom(*claimed);
    claimed->finish();
    return task;
}

}  // namespace

Result<std::vector<Flight>> WebhookService::Impl::claim(const CancelToken &stop, const std::vector<qint64> &ids)
{
    std::vector<Flight> flights;
    std::vector<std::pair<qint64, qint64>> held;  // (id, due)
    const QString self = instances.instanceId();
    bool told = false;
    const Status read = untilAvailable(
        stop, options.retry,
        [&] {
            return store.write([&](SqlTransaction &tx) -> Status {
                flights.clear();
                held.clear();
                std::map<qint64, HookRead> hooks;  // a batch is mostly one hook's: each hook is read once
                const qint64 now = nowMs();
                for (qint64 id : ids) {
                    qint64 dueMs = 0;
                    Result<std::optional<HookTask>> task = claimTask(tx, id, now, self, dueMs);
                    if (!task)
                        return task.status();
                    if (!*task) {
                        if (dueMs > now)
                            held.emplace_back(id, dueMs);
                        continue;
                    }
                    Flight f;
                    f.task = std::move(**task);
                    auto hook = hooks.find(f.task.hookId);
                    if (hook == hooks.end()) {
                        Result<HookRead> r = readHook(tx, f.task.hookId);
                        if (!r)
                            return r.status();
                        hook = hooks.emplace(f.task.hookId, std::move(r).value()).first;
                    }
                    f.error = hook->second.error;
                    if (f.error.isEmpty()) {
                        f.hook = hook->second.hook;
                        f.sealedAuthorization = hook->second.sealedAuthorization;
                        f.ownerIsOrganization = hook->second.ownerIsOrganization;
                    }
                    flights.push_back(std::move(f));
                }
                return Status::ok();
            });
        },
        [&](const Status &why) {
            if (!std::exchange(told, true))
                qCWarning(lcWebhook).noquote() << ids.size() << "webhook task(s) cannot be claimed yet, waiting:" << why.message();
        });
    if (!read) {
        qCWarning(lcWebhook).noquote() << ids.size() << "webhook task(s) were not claimed (they go back to the queue):" << read.message();
        return read;
    }
    crashPoint("hooktask.claimed");
    for (const auto &[id, due] : held)
        retries.schedule(id, due);
    return flights;
}

void WebhookService::Impl::transmit(HttpClient &client, Flight &f) const
{
    f.clock.start();
    f.sentMs = nowMs();
    f.due.setRemainingTime(timeout(), Qt::PreciseTimer);
    client.start(f.destination, f.exchange);
}

void WebhookService::Impl::forget(qint64 hookId)
{
    std::lock_guard lock(loop.mutex);
    loop.removedHooks.push_back(hookId);
    if (loop.dispatcher)
        loop.dispatcher->wakeUp();
}

bool WebhookService::Impl::reserve(const CancelToken &cancel, qint64 n)
{
    std::unique_lock lock(loop.mutex);
    if (!cancel.wait(loop.changed, lock, [&] { return loop.stopped || loop.closing || loop.held < maxInFlight(); }) ||
        loop.stopped || loop.closing)
        return false;
    loop.held += n;
    inFlight += n;
    return true;
}

void WebhookService::Impl::unreserve(qint64 n)
{
    if (n <= 0)
        return;
    {
        std::lock_guard lock(loop.mutex);
        loop.held -= n;
    }
    inFlight -= n;
    loop.changed.notify_all();
}

qint64 WebhookService::Impl::drainMs(qint64 hook, qint64 held) const
{
    const qint64 rounds = (held + kConnectionsPerHook - 1) / kConnectionsPerHook;
    const auto oldest = loop.oldestSentMs.find(hook);
    const qint64 round = oldest == loop.oldestSentMs.end()
                             ? options.keepingUp.count()
                             : std::clamp<qint64>(nowMs() - oldest->second, 1, timeout().count());
    return rounds * round;
}

bool WebhookService::Impl::keepsUp(qint64 hook) const
{
    const auto oldest = loop.oldestSentMs.find(hook);
    return oldest == loop.oldestSentMs.end() || nowMs() - oldest->second < options.keepingUp.count();
}

bool WebhookService::Impl::handOff(const CancelToken &cancel, Flight &&f)
{
    const qint64 hook = f.hook.id;
    const auto heldOf = [&] {
        return loop.heldPerHook.count(hook) ? loop.heldPerHook.at(hook) : qint64(0);
    };
    std::unique_lock lock(loop.mutex);
    if (heldOf() >= maxHeldPerHook() && !loop.stopped && !loop.closing && loop.dispatcher && keepsUp(hook))
        cancel.waitUntil(loop.changed, lock, SteadyClock::now() + options.busyHookWait,
                         [&] { return loop.stopped || loop.closing || heldOf() < maxHeldPerHook(); });
    if (heldOf() >= maxHeldPerHook() || loop.stopped || !loop.dispatcher) {
        const bool stopped = loop.stopped || !loop.dispatcher;
        const qint64 due = stopped ? 0 : nowMs() + drainMs(hook, heldOf());
        lock.unlock();
        release(cancel, {f.task.id}, due);
        return false;
    }
    ++loop.heldPerHook[hook];
    loop.inbox.push_back(std::move(f));
    loop.dispatcher->wakeUp();
    return true;
}

Status WebhookService::Impl::settle(const CancelToken &cancel, SteadyClock::time_point until)
{
    std::unique_lock lock(loop.mutex);
    if (cancel.waitUntil(loop.changed, lock, until, [&] { return loop.held == 0; }))
        return Status::ok();
    if (cancel.isCancelled())
        return cancel.cause();
    return Status::deadlineExceeded(QStringLiteral("webhook_sender: %1 deliveries still in flight").arg(loop.held));
}

Ended WebhookService::Impl::landed(Flight &f) const
{
    const HttpExchange &x = f.exchange;
    const int code = x.status;
    const QString error = f.error.isEmpty() ? x.error : f.error;
    QJsonObject response;
    if (code > 0) {
        QJsonObject headers;
        for (const auto &[k, v] : x.responseHeaders)
            headers.insert(QString::fromLatin1(k), QString::fromUtf8(v));
        response = {{QStringLiteral("status"), code},
                    {QStringLiteral("headers"), headers},
                    {QStringLiteral("body"),
                     QString::fromUtf8(x.responseBody) +
                         (x.truncated ? QStringLiteral("\n… (cut at %1 bytes)").arg(x.maxBody) : QString())}};
        if (!error.isEmpty())
            response.insert(QStringLiteral("error"), error);
    } else {
        response = {{QStringLiteral("error"), error}};
    }
    // The status decides (as in Gitea), unless we cut the delivery (a deadline, a stop, a
    // deleted hook); an answer the receiver cut off after its head still counts by its status.
    const bool ok = code >= 200 && code <= 299 && f.error.isEmpty();
    Ended e;
    e.outcome = f.interrupted ? TaskOutcome::Unknown : ok ? TaskOutcome::Succeeded : TaskOutcome::Failed;
    e.response = std::move(response);
    e.flight = std::move(f);
    return e;
}

std::vector<qint64> WebhookService::deliver(const CancelToken &stop, const std::vector<qint64> &ids)
{
    // Claimed in one transaction, prepared here (DNS included), handed to the delivery loop; what
    // fails before sending is recorded here, in one transaction.
    if (!d->reserve(stop, qint64(ids.size())))
        return ids;  // stopping: back to the queue (and undelivered in the store)
    d->hold(ids);    // in hand from before the claim until the loop has them, or they end here
    Result<std::vector<Flight>> claimed = d->claim(stop, ids);
    if (!claimed) {
        d->unreserve(qint64(ids.size()));
        d->letGo(ids);
        return ids;
    }
    qint64 unused = qint64(ids.size());
    std::vector<Ended> ended;
    std::set<qint64> handed;
    for (Flight &f : *claimed) {
        if (f.error.isEmpty() && !f.hook.active) {
            ended.push_back({std::move(f), TaskOutcome::Skipped,
                             QJsonObject{{QStringLiteral("error"), QStringLiteral("the hook is inactive")}}});
            continue;
        }
        if (f.error.isEmpty() && f.task.payloadVersion == 0)
            f.error = QStringLiteral("payload version 0 cannot be delivered");
        if (f.error.isEmpty())
            d->prepare(f);
        if (!f.error.isEmpty()) {
            QJsonObject response{{QStringLiteral("error"), f.error}};
            ended.push_back({std::move(f), TaskOutcome::Failed, std::move(response)});
            continue;
        }
        const qint64 id = f.task.id;
        if (d->handOff(stop, std::move(f))) {
            --unused;
            handed.insert(id);
        }
    }
    d->unreserve(unused);
    d->record(stop, ended);
    std::vector<qint64> done;
    for (qint64 id : ids)
        if (!handed.count(id))
            done.push_back(id);
    d->letGo(done);
    return {};
}

Status WebhookService::settle(const CancelToken &cancel, std::chrono::milliseconds timeout)
{
    return d->settle(cancel, SteadyClock::now() + timeout);
}

}  // namespace Switchyard::Webhook
