// What the delivery chain writes when a delivery ends or goes back: record() (a result, the
// hook's last status, AUTO_DISABLE_AFTER, the retry it schedules), release() (claims given back
// unsent), the recorder thread that group-commits what the delivery loop ended, the retry timer,
// and the history's upkeep (stale claims, cleanup, the requeue at start) and the counters.
//
// Threads:
//   - the recorder thread (runRecorder) records what the loop ended, then gives its room in the
//     loop back (under Loop::mutex);
//   - the workers of webhook_sender record() what failed before the wire, and release() what the
//     loop did not take; the delivery loop thread release()s what waited at a stop;
//   - the retry timer thread (RetryTimer::run) pushes due retries on the queue; schedule() comes
//     from record(), claim() and release(), on their threads;
//   - any caller's thread: cleanup, recoverInterrupted (also the heartbeat thread's recovery
//     round), requeueUndelivered, stats.
// record() and release() are thread-safe (each is one store transaction, then atomics and the
// timer): the only order between two threads' records is the store's.

#include "webhook_p.h"

#include "engine/core/crashpoint.h"
#include "engine/store/instances.h"

#include "engine/store/store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace Switchyard::Webhook {

// A delivery's row as record() writes it.
struct Written
{
    double ms = 0;
    QString request, response;  // the history's JSON, encoded before the write transaction
    bool fenced = false;        // nothing of it was written: another instance took it over, or it is gone
    bool gone = false;          // the task is gone (its hook was deleted)
    bool resent = false;        // cut by a stop and made undelivered again (queued after this)
    bool disabled = false;
    qint64 retryId = 0;
    qint64 retryDue = 0;
};

namespace {

constexpr int kRequeuePage = 100;

// The history's JSON of each of `ended`, encoded before the write transaction.
std::vector<Written> historyOf(const std::vector<Ended> &ended)
{
    std::vector<Written> out(ended.size());
    for (std::size_t i = 0; i < ended.size(); ++i) {
        const Flight &f = ended[i].flight;
        out[i].ms = f.clock.isValid() ? double(f.clock.nsecsElapsed()) / 1e6 : 0;
        out[i].request = QString::fromUtf8(QJsonDocument(f.request).toJson(QJsonDocument::Compact));
        out[i].response = QString::fromUtf8(QJsonDocument(ended[i].response).toJson(QJsonDocument::Compact));
    }
    return out;
}

// The task's result, and its retry when the schedule has one left: the next attempt is a new
// task (new delivery id) linked to the first delivery, held until its delay has passed; written
// with the failure, so neither is lost.
Status writeResult(SqlTransaction &tx, const Ended &e, Written &w, const std::vector<std::chrono::milliseconds> &schedule,
                   qint64 deliveredNs, const QString &self)
{
    const Flight &f = e.flight;
    const TaskOutcome outcome = e.outcome;
    // Fenced by the claim: an instance declared lost may still finish what it sent, but what it
    // held was taken over, and the history keeps the taker's account.
    Result<QSqlQuery> q =
        tx.exec(QStringLiteral("UPDATE hook_task SET delivered_ns = ?, is_succeed = ?, outcome = ?, request = ?, "
                               "response = ?, duration_ms = ? WHERE id = ? AND claimed_by = ? AND outcome = ''"),
                {deliveredNs, outcome == TaskOutcome::Succeeded ? 1 : 0, name(outcome), w.request, w.response, w.ms, f.task.id, self});
    if (!q)
        return q.status();
    w.fenced = q->numRowsAffected() == 0;
    if (w.fenced) {
        // Taken over, or gone with its hook (a delete cuts its deliveries): only the first is news.
        Result<qint64> present = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM hook_task WHERE id = ?"), {f.task.id});
        if (!present)
            return present.status();
        w.gone = *present == 0;
        return Status::ok();
    }
    const bool retry =
        outcome == TaskOutcome::Failed && f.hook.id != 0 && f.hook.active && f.task.attempt < int(schedule.size());
    if (!retry)
        return Status::ok();
    w.retryDue = nowMs() + schedule[std::size_t(f.task.attempt)].count();
    const qint64 first = f.task.attempt > 0 && f.task.redeliveryOf > 0 ? f.task.redeliveryOf : f.task.id;
    Result<qint64> id = tx.insertReturningId(
        QStringLiteral(
            "INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, created_ms, redelivery_of, "
            "trace_id, attempt, deliver_after_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
        {f.task.hookId, QUuid::createUuid().toString(QUuid::WithoutBraces), f.task.payload, f.task.payloadVersion,
         name(f.task.eventType), nowMs(), first, f.task.traceId, f.task.attempt + 1, w.retryDue});
    if (!id)
        return id.status();
    w.retryId = *id;
    return Status::ok();
}

// AUTO_DISABLE_AFTER: the hook's last `limit` results all failed, and it is still active → it
// is made inactive. Whether this made it so.
Result<bool> disableWhenFailing(SqlTransaction &tx, qint64 hookId, int limit)
{
    Result<qint64> succeeded =
        tx.scalar(QStringLiteral("SELECT COUNT(*) FROM (SELECT outcome FROM hook_task WHERE hook_id = ? "
                                 "AND outcome IN ('succeeded', 'failed') ORDER BY id DESC LIMIT ?) last "
                                 "WHERE outcome = 'succeeded'"),
                  {hookId, limit});
    Result<qint64> counted =
        tx.scalar(QStringLiteral("SELECT COUNT(*) FROM (SELECT id FROM hook_task WHERE hook_id = ? "
                                 "AND outcome IN ('succeeded', 'failed') ORDER BY id DESC LIMIT ?) last"),
                  {hookId, limit});
    if (!succeeded || !counted)
        return !succeeded ? succeeded.status() : counted.status();
    if (*succeeded > 0 || *counted < limit)
        return false;
    Result<QSqlQuery> off =
        tx.exec(QStringLiteral("UPDATE webhook SET is_active = 0, updated_unix = ? WHERE id = ? AND is_active = 1"),
                {QDateTime::currentSecsSinceEpoch(), hookId});
    if (!off)
        return off.status();
    return off->numRowsAffected() > 0;
}

// The hook's last status (not for a skipped delivery or a deleted hook): written when it
// differs from what this transaction wrote for it last, in `lastStatus` (a round's deliveries
// are often all of one hook); then AUTO_DISABLE_AFTER (`limit`, 0: never) after a failure.
Status writeHookStatus(SqlTransaction &tx, const Ended &e, Written &w, std::map<qint64, int> &lastStatus, int limit)
{
    const Flight &f = e.flight;
    const TaskOutcome outcome = e.outcome;
    if (outcome == TaskOutcome::Skipped || f.hook.id == 0 || w.fenced)
        return Status::ok();
    const int status = int(outcome == TaskOutcome::Succeeded ? HookStatus::Succeed : HookStatus::Fail);
    if (const auto [at, fresh] = lastStatus.try_emplace(f.hook.id, status); fresh || at->second != status) {
        at->second = status;
        if (Status s = tx.exec(QStringLiteral("UPDATE webhook SET last_status = ? WHERE id = ?"), {status, f.hook.id})
                           .status();
            !s)
            return s;
    }
    if (outcome != TaskOutcome::Failed || limit <= 0)
        return Status::ok();
    Result<bool> disabled = disableWhenFailing(tx, f.hook.id, limit);
    if (!disabled)
        return disabled.status();
    w.disabled = *disabled;
    return Status::ok();
}

// Why a delivery failed, for the log and the notice: our error, else the receiver's status.
QString failureOf(const Ended &e)
{
    return e.flight.error.isEmpty() ? e.response.value(QStringLiteral("status")).toVariant().toString()
                                    : e.flight.error;
}

}  // namespace

void RetryTimer::schedule(qint64 id, qint64 dueMs)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_held.insert(id).second)
            return;  // held already (a requeue at start, a resync): one timer entry
        m_due.emplace(dueMs, id);
    }
    m_changed.notify_all();
}

void RetryTimer::run(const CancelToken &cancel, const std::function<void(qint64)> &due)
{
    const CancelCallback wake = cancel.onCancel([this] {
        {
            std::lock_guard lock(m_mutex);
        }
        m_changed.notify_all();
    });
    std::unique_lock lock(m_mutex);
    while (!cancel.isCancelled()) {
        if (m_due.empty()) {
            m_changed.wait(lock);
            continue;
        }
        const qint64 next = m_due.begin()->first;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (next > now) {
            m_changed.wait_for(lock, std::chrono::milliseconds(next - now));
            continue;
        }
        const qint64 id = m_due.begin()->second;
        m_due.erase(m_due.begin());
        m_held.erase(id);
        lock.unlock();
        due(id);
        lock.lock();
    }
}

void WebhookService::Impl::record(const CancelToken &stop, std::vector<Ended> &ended)
{
    if (ended.empty())
        return;
    const std::vector<std::chrono::milliseconds> &schedule = retrySchedule();
    const qint64 deliveredNs = QDateTime::currentMSecsSinceEpoch() * 1'000'000;
    const QString self = instances.instanceId();
    std::vector<Written> out = historyOf(ended);
    const Status written = patiently(stop, "record delivery results", [&] {
        return store.write([&](SqlTransaction &tx) -> Status {
            std::map<qint64, int> lastStatus;  // per hook, what this attempt of the transaction wrote
            for (std::size_t i = 0; i < ended.size(); ++i) {
                Written &w = out[i];
                w = Written{w.ms, w.request, w.response};
                if (ended[i].flight.interrupted) { // cut by this instance's stop
                    Result<std::vector<qint64>> resent = interrupt(tx, {{ended[i].flight.task.id, self}}, QStringLiteral("stopped"),
                                                                   ended[i].flight.error);
                    if (!resent)
                        return resent.status();
                    w.resent = !resent->empty();
                    continue;
                }
                if (Status s = writeResult(tx, ended[i], w, schedule, deliveredNs, self); !s)
                    return s;
                if (Status s = writeHookStatus(tx, ended[i], w, lastStatus, config.webhook.autoDisableAfter); !s)
                    return s;
            }
            return Status::ok();
        });
    });
    if (written)
        crashPoint("hooktask.recorded");
    afterRecord(ended, out, written);
}

void WebhookService::Impl::afterRecord(const std::vector<Ended> &ended, const std::vector<Written> &out, const Status &written)
{
    const std::vector<std::chrono::milliseconds> &schedule = retrySchedule();
    std::vector<qint64> resent;
    for (std::size_t i = 0; i < ended.size(); ++i) {
        const Flight &f = ended[i].flight;
        const Written &w = out[i];
        tally(ended[i], w.ms);
        if (!written) {
            qCWarning(lcWebhook).noquote() << "the result of webhook task" << f.task.id
                                           << "was not recorded (it stays claimed; the next start sends it again):" << written.message();
            continue;
        }
        if (w.fenced) {
            if (!w.gone)
                qCWarning(lcWebhook).noquote() << "webhook task" << f.task.id << "was taken over by another instance (this one was"
                                               << "declared lost): its result here is not recorded";
            continue;
        }
        if (w.resent)
            resent.push_back(f.task.id);
        if (w.disabled)
            announceDisabled(ended[i]);
        announce(w.retryId > 0 ? std::vector<qint64>{f.task.id, w.retryId} : std::vector<qint64>{f.task.id});
        if (w.retryId > 0) {
            retries.schedule(w.retryId, w.retryDue);
            qCInfo(lcWebhook).noquote() << "webhook" << f.hook.id << "delivery" << f.task.uuid << "will be retried (attempt"
                                        << f.task.attempt + 1 << "of" << schedule.size() << ") as task" << w.retryId;
        }
        if (ended[i].outcome == TaskOutcome::Failed)
            qCInfo(lcWebhook).noquote() << "webhook" << f.hook.id << "delivery" << f.task.uuid << "failed:" << failureOf(ended[i]);
    }
    pushStored(CancelToken(), resent, "interrupted");
}

void WebhookService::Impl::announceDisabled(const Ended &e)
{
    const QString message = QStringLiteral(
                                "Webhook %1 (%2) was made inactive after %3 failed deliveries in a row "
                                "([webhook] AUTO_DISABLE_AFTER); the last: %4")
                                .arg(e.flight.hook.id)
                                .arg(maskedUrl(e.flight.hook.url).left(200))
                                .arg(config.webhook.autoDisableAfter)
                                .arg(failureOf(e));
    qCWarning(lcWebhook).noquote() << message;
    if (options.notice)
        options.notice(message);
}

void WebhookService::Impl::tally(const Ended &e, double ms)
{
    ++outcomes[std::size_t(e.outcome)];
    durationUs += qint64(ms * 1000);
    if (e.flight.clock.isValid())  // it was sent (not refused or skipped before)
        recentLatency.record(std::chrono::nanoseconds(qint64(ms * 1e6)));
}

void WebhookService::Impl::release(const CancelToken &stop, const std::vector<qint64> &ids, qint64 dueMs)
{
    if (ids.empty())
        return;
    const QString self = instances.instanceId();
    const Status written = patiently(stop, "give claimed webhook tasks back", [&] {
        return store.write([&](SqlTransaction &tx) -> Status {
            for (qint64 id : ids)
                if (Status s = tx.exec(QStringLiteral("UPDATE hook_task SET is_delivered = 0, claimed_ms = 0, claimed_by = '', "
                                                      "deliver_after_ms = CASE WHEN deliver_after_ms < ? THEN ? ELSE deliver_after_ms END "
                                                      "WHERE id = ? AND outcome = '' AND claimed_by = ?"),
                                       {dueMs, dueMs, id, self})
                                   .status();
                    !s)
                    return s;
            return Status::ok();
        });
    });
    if (!written) {
        qCWarning(lcWebhook).noquote() << ids.size()
                                       << "claimed webhook task(s) could not be given back (the next start sends them):"
                                       << written.message();
        return;
    }
    if (dueMs > 0)
        for (qint64 id : ids)
            retries.schedule(id, dueMs);
}

Result<std::vector<qint64>> WebhookService::Impl::interrupt(SqlTransaction &tx, const std::vector<std::pair<qint64, QString>> &claims,
                                                            const QString &reason, const QString &error)
{
    const bool resend = config.webhook.resendInterrupted;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    std::vector<qint64> resent;
    for (const auto &[id, judged] : claims) {
        // Still the claim that was judged: another instance may have taken it over meanwhile.
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT claimed_by, claimed_ms, interrupted FROM hook_task "
                                                     "WHERE id = ? AND is_delivered = 1 AND outcome = '' AND claimed_by = ?"),
                                      {id, judged});
        if (!q)
            return q.status();
        if (!q->next())
            continue; // ended or taken over meanwhile
        const QString holder = q->value(0).toString();
        std::vector<Interruption> history = interruptionsFrom(q->value(2).toString());
        history.push_back({holder, QDateTime::fromMSecsSinceEpoch(q->value(1).toLongLong(), Qt::UTC), now, instances.instanceId(), reason,
                           resend});
        q->finish();
        const QString json = interruptionsJson(history);
        const QString why = error.isEmpty() ? QStringLiteral("instance %1 ended during the delivery (%2): it may or may not have "
                                                             "reached the receiver")
                                                  .arg(holder.isEmpty() ? QStringLiteral("(unknown)") : holder, reason)
                                            : error;
        Result<QSqlQuery> written =
            resend ? tx.exec(QStringLiteral("UPDATE hook_task SET is_delivered = 0, claimed_ms = 0, claimed_by = '', interrupted = ? "
                                            "WHERE id = ? AND is_delivered = 1 AND outcome = '' AND claimed_by = ?"),
                             {json, id, holder})
                   : tx.exec(QStringLiteral("UPDATE hook_task SET outcome = 'unknown', is_succeed = 0, delivered_ns = ?, response = ?, "
                                            "interrupted = ? WHERE id = ? AND is_delivered = 1 AND outcome = '' AND claimed_by = ?"),
                             {now.toMSecsSinceEpoch() * 1'000'000,
                              QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("error"), why}}).toJson(QJsonDocument::Compact)),
                              json, id, holder});
        if (!written)
            return written.status();
        if (resend && written->numRowsAffected() > 0)
            resent.push_back(id);
    }
    return resent;
}

void WebhookService::Impl::toRecorder(std::vector<Ended> &&ended)
{
    {
        std::lock_guard lock(recorder.mutex);
        if (recorder.inbox.empty())
            recorder.inbox = std::move(ended);
        else
            std::move(ended.begin(), ended.end(), std::back_inserter(recorder.inbox));
    }
    recorder.arrived.notify_one();
}

void WebhookService::Impl::runRecorder(const CancelToken &stop)
{
    std::vector<Ended> batch;
    while (true) {
        {
            std::unique_lock lock(recorder.mutex);
            stop.wait(recorder.arrived, lock, [&] { return !recorder.inbox.empty(); });
            batch.swap(recorder.inbox);
        }
        if (batch.empty())  // stopped, and the loop (stopped before) left nothing
            return;
        record(stop, batch);
        std::vector<qint64> recorded;
        for (const Ended &e : batch)
            recorded.push_back(e.flight.task.id);
        letGo(recorded);
        // Their room in the loop comes back now that they are written.
        std::map<qint64, qint64> freed;
        for (const Ended &e : batch)
            ++freed[e.flight.hook.id];
        inFlight -= qint64(batch.size());
        {
            std::lock_guard lock(loop.mutex);
            loop.held -= qint64(batch.size());
            for (const auto &[hook, n] : freed)
                if ((loop.heldPerHook[hook] -= n) <= 0)
                    loop.heldPerHook.erase(hook);
        }
        loop.changed.notify_all();
        batch.clear();
    }
}

DeliveryStats WebhookService::stats() const
{
    DeliveryStats st;
    st.succeeded = d->outcomes[std::size_t(TaskOutcome::Succeeded)];
    st.failed = d->outcomes[std::size_t(TaskOutcome::Failed)];
    st.skipped = d->outcomes[std::size_t(TaskOutcome::Skipped)];
    st.durationSeconds = double(d->durationUs.load()) / 1e6;
    st.inFlight = d->inFlight;
    st.recent = d->recentLatency.count();
    st.latencyP50Ms = d->recentLatency.quantileMs(0.50);
    st.latencyP99Ms = d->recentLatency.quantileMs(0.99);
    return st;
}

Result<qint64> WebhookService::cleanupOlderThan(std::chrono::milliseconds age)
{
    const qint64 before = nowMs() - age.count();
    return d->store.writeValue<qint64>([&](SqlTransaction &tx) -> Result<qint64> {
        Result<QSqlQuery> q =
            tx.exec(QStringLiteral("DELETE FROM hook_task WHERE is_delivered = 1 AND outcome <> '' AND created_ms < ?"),
                    {before});
        if (!q)
            return q.status();
        return qint64(q->numRowsAffected());
    });
}

Result<qint64> WebhookService::cleanupPerHook(qint64 keep)
{
    return d->store.writeValue<qint64>([&](SqlTransaction &tx) -> Result<qint64> {
        Result<QSqlQuery> q =
            tx.exec(QStringLiteral("DELETE FROM hook_task WHERE id IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER "
                                   "(PARTITION BY hook_id ORDER BY id DESC) AS n FROM hook_task "
                                   "WHERE is_delivered = 1 AND outcome <> '') ranked WHERE n > ?)"),
                    {std::max<qint64>(keep, 0)});
        if (!q)
            return q.status();
        return qint64(q->numRowsAffected());
    });
}

void WebhookService::Impl::hold(const std::vector<qint64> &ids)
{
    std::lock_guard lock(handMutex);
    inHand.insert(ids.begin(), ids.end());
}

void WebhookService::Impl::letGo(const std::vector<qint64> &ids)
{
    std::lock_guard lock(handMutex);
    for (qint64 id : ids)
        if (const auto it = inHand.find(id); it != inHand.end())
            inHand.erase(it);
}

Result<std::vector<qint64>> WebhookService::Impl::interruptOwnOrphans(SqlTransaction &tx)
{
    const QString self = instances.instanceId();
    Result<std::vector<qint64>> mine =
        tx.numbers(QStringLiteral("SELECT id FROM hook_task WHERE is_delivered = 1 AND outcome = '' AND claimed_by = ?"), {self});
    if (!mine)
        return mine;
    // Locked while they are taken over: a worker holds an id (hold()) before it claims it.
    std::lock_guard lock(handMutex);
    std::vector<std::pair<qint64, QString>> orphans;
    for (qint64 id : *mine)
        if (!inHand.count(id))
            orphans.emplace_back(id, self);
    if (orphans.empty())
        return std::vector<qint64>{};
    qCWarning(lcWebhook).noquote() << orphans.size() << "webhook task(s) stayed claimed here after a write that failed; taken over";
    return interrupt(tx, orphans, QStringLiteral("lost"), {});
}

Result<qint64> WebhookService::recoverInterrupted(const CancelToken &cancel)
{
    const QString notLive = d->instances.notLive(QStringLiteral("claimed_by"));
    Result<std::vector<qint64>> orphans =
        d->store.writeValue<std::vector<qint64>>([&](SqlTransaction &tx) { return d->interruptOwnOrphans(tx); });
    if (!orphans)
        return orphans.status();
    d->pushStored(cancel, *orphans, "interrupted");
    qint64 total = qint64(orphans->size());
    for (;;) {
        std::vector<qint64> ids;
        std::vector<qint64> resent;
        const Status written = d->store.write([&](SqlTransaction &tx) -> Status {
            Result<QSqlQuery> found = tx.exec(
                QStringLiteral("SELECT id, claimed_by FROM hook_task WHERE is_delivered = 1 AND outcome = '' AND %1 ORDER BY id LIMIT ?")
                    .arg(notLive),
                {kRequeuePage});
            if (!found)
                return found.status();
            ids.clear();
            std::vector<std::pair<qint64, QString>> claims;
            while (found->next()) {
                ids.push_back(found->value(0).toLongLong());
                claims.emplace_back(ids.back(), found->value(1).toString());
            }
            found->finish();
            Result<std::vector<qint64>> again = d->interrupt(tx, claims, QStringLiteral("lost"), {});
            if (!again)
                return again.status();
            resent = std::move(again).value();
            return Status::ok();
        });
        if (!written)
            return written;
        d->announce(ids);
        d->pushStored(cancel, resent, "interrupted");
        total += qint64(ids.size());
        if (qint64(ids.size()) < kRequeuePage || cancel.isCancelled())
            break;
    }
    if (total > 0)
        qCWarning(lcWebhook).noquote() << total << "webhook deliveries were interrupted by an instance that ended during them;"
                                       << (d->config.webhook.resendInterrupted ? "they are sent again under their delivery ids"
                                                                               : "they are marked unknown (RESEND_INTERRUPTED = false)");
    return total;
}

Result<qint64> WebhookService::requeueUndelivered(const CancelToken &cancel)
{
    qint64 pushed = 0;
    qint64 after = 0;
    for (;;) {
        Result<std::vector<qint64>> ids = d->store.readValue<std::vector<qint64>>([&](SqlTransaction &tx) {
            return tx.numbers(
                QStringLiteral(
                    "SELECT id FROM hook_task WHERE outcome = '' AND is_delivered = 0 AND id > ? ORDER BY id LIMIT ?"),
                {after, kRequeuePage});
        });
        if (!ids)
            return ids.status();
        if (ids->empty())
            return pushed;
        if (Status s = d->push(cancel, *ids); !s)
            return s;
        pushed += qint64(ids->size());
        after = ids->back();
    }
}

}  // namespace Switchyard::Webhook
