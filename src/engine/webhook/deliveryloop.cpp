// The delivery loop and the hand-off to it: a worker of webhook_sender reserves room, claims its
// tasks, prepares each request (egress.cpp) and hands it over; the loop thread sends what it was
// handed, at most six at a time per hook, and passes what ended to the recorder (recorder.cpp).
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

#include <QEventLoop>
#include <QHostInfo>
#include <QTimer>

#include <deque>
#include <list>

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

// The delivery loop thread's own state and its rounds: what is on the wire (in send order, so by
// deadline), what waits for one of its hook's connections, and the HttpClient that sends them.
// Made and run on the loop thread, for one runLoop(); no other thread touches it (what it
// shares is Impl::loop, under its mutex).
class WebhookService::Impl::LoopThread
{
public:
    explicit LoopThread(Impl &d);
    // Until `stop` is cancelled and nothing is left on the wire.
    void run(const CancelToken &stop);

private:
    void send(Flight &&f);
    void start(std::list<Flight>::iterator it);
    bool follow(std::list<Flight>::iterator it);
    void resolvedHop(const QHostInfo &info);
    void cut(std::list<Flight>::iterator it, const QString &error);
    void admit(Flight &&f);
    void cutOverdue();
    void settleRound();
    void sendNext(const std::map<qint64, qint64> &freed);
    void notePace(const std::map<qint64, qint64> &freed);
    std::vector<qint64> dropWaiting(qint64 hook);
    void cutRemoved(const std::vector<qint64> &removed);
    bool windDown();
    void waitRound();

    Impl &d;
    QEventLoop m_events;  // gives this thread its event dispatcher
    HttpClient m_client;
    std::list<Flight> m_sending;                     // in send order, so by deadline
    std::map<qint64, std::deque<Flight>> m_waiting;  // per hook, beyond its connections
    std::map<qint64, int> m_sendingPerHook;
    std::vector<std::list<Flight>::iterator> m_finished;  // this round's
    std::map<int, std::list<Flight>::iterator> m_resolving; // redirects whose host is being looked up, by lookup id
    std::atomic<bool> m_stopping = false;                 // set by the stop token's callback
    // DELIVER_TIMEOUT is a total deadline, checked after every round of events (a receiver that
    // floods this thread with reads could hold a timer back); the precise timer only wakes the
    // wait for the earliest one, and is set again when it fires early.
    QTimer m_deadline;
    const QString m_overdue;
    QElapsedTimer m_sincePrune;
    CancelToken m_stop; // run()'s
    bool m_graceStarted = false;
    QDeadlineTimer m_graceEnd;
};

WebhookService::Impl::LoopThread::LoopThread(Impl &d)
    : d(d)
    , m_overdue(QStringLiteral("no complete answer within DELIVER_TIMEOUT (%1 s)")
                    .arg(d.config.webhook.deliverTimeoutSeconds))
{
    m_deadline.setSingleShot(true);
    m_deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_deadline, &QTimer::timeout, &m_deadline, [] {});
}

void WebhookService::Impl::LoopThread::send(Flight &&f)
{
    const auto it = m_sending.insert(m_sending.end(), std::move(f));
    if (++m_sendingPerHook[it->hook.id] == 1) {
        std::lock_guard lock(d.loop.mutex);
        d.loop.oldestSentMs[it->hook.id] = nowMs();
    }
    it->exchange.finished = [this, it] {
        if (!it->landed) {
            it->landed = true;
            m_finished.push_back(it);
        }
    };
    d.transmit(m_client, *it);
}

// The next hop of a flight that follows a redirect, on the same clock and deadline (Go's
// Client.Timeout, like DELIVER_TIMEOUT, covers every hop).
void WebhookService::Impl::LoopThread::start(std::list<Flight>::iterator it)
{
    it->landed = false;
    it->exchange.finished = [this, it] {
        if (!it->landed) {
            it->landed = true;
            m_finished.push_back(it);
        }
    };
    m_client.start(it->destination, it->exchange);
}

// A redirect answer: the next hop is vetted against the egress policy as the first was (its
// host resolved once: at once for a literal or an injected resolver, else without blocking this
// thread) and sent. False when the flight ends here (not a redirect, or one refused: f.error).
bool WebhookService::Impl::LoopThread::follow(std::list<Flight>::iterator it)
{
    Flight &f = *it;
    if (!d.nextHop(f))
        return false;
    const QString host = f.url.host();
    if (QHostAddress(host).isNull() && !d.options.resolve) {
        f.landed = false;
        f.lookupId = QHostInfo::lookupHost(host, &m_deadline, [this](const QHostInfo &info) { resolvedHop(info); });
        m_resolving[f.lookupId] = it;
        return true;
    }
    QList<QHostAddress> addresses;
    if (const QHostAddress literal(host); !literal.isNull())
        addresses = {literal};
    else
        addresses = d.options.resolve(host);
    if (addresses.isEmpty())
        f.error = QStringLiteral("redirected to %1, which does not resolve").arg(host);
    else
        addresses = d.vetted(host, addresses, f.error);
    if (addresses.isEmpty()) {
        f.error = QStringLiteral("redirect refused: %1").arg(f.error);
        return false;
    }
    d.aim(f, addresses);
    start(it);
    return true;
}

void WebhookService::Impl::LoopThread::resolvedHop(const QHostInfo &info)
{
    const auto found = m_resolving.find(info.lookupId());
    if (found == m_resolving.end())
        return; // cut meanwhile
    const auto it = found->second;
    m_resolving.erase(found);
    Flight &f = *it;
    f.lookupId = -1;
    const QString host = f.url.host();
    QList<QHostAddress> addresses = info.addresses();
    if (addresses.isEmpty())
        f.error = QStringLiteral("redirect refused: %1 does not resolve").arg(host);
    else if (addresses = d.vetted(host, addresses, f.error); addresses.isEmpty())
        f.error = QStringLiteral("redirect refused: %1").arg(f.error);
    if (addresses.isEmpty()) {
        f.landed = true;
        m_finished.push_back(it);
        return;
    }
    d.aim(f, addresses);
    start(it);
}

// Ends a flight that is still on its way (on the wire, or its redirect's host being looked up).
void WebhookService::Impl::LoopThread::cut(std::list<Flight>::iterator it, const QString &error)
{
    if (it->lookupId >= 0) {
        QHostInfo::abortHostLookup(it->lookupId);
        m_resolving.erase(it->lookupId);
        it->lookupId = -1;
        it->landed = true;
        m_finished.push_back(it);
        return;
    }
    m_client.abort(it->exchange, error);
}

void WebhookService::Impl::LoopThread::admit(Flight &&f)
{
    const qint64 hook = f.hook.id;
    if (m_sendingPerHook[hook] < kConnectionsPerHook)
        send(std::move(f));
    else
        m_waiting[hook].push_back(std::move(f));
}

void WebhookService::Impl::LoopThread::cutOverdue()
{
    for (auto it = m_sending.begin(); it != m_sending.end(); ++it) {
        if (!it->due.hasExpired())
            break;  // later ones are due later
        if (!it->landed) {
            it->error = m_overdue;
            cut(it, m_overdue);
        }
    }
}

// Hands this round's ends to the recorder and lets the next of each hook go.
void WebhookService::Impl::LoopThread::settleRound()
{
    if (m_finished.empty())
        return;
    std::vector<std::list<Flight>::iterator> finished;
    finished.swap(m_finished); // a hop that ends as it starts lands in the next round
    std::vector<Ended> ended;
    ended.reserve(finished.size());
    std::map<qint64, qint64> freed;
    for (auto it : finished) {
        if (follow(it))
            continue; // a redirect: still on its way, on the same connection slot
        const qint64 hook = it->hook.id;
        ++freed[hook];
        ended.push_back(d.landed(*it));
        m_sending.erase(it);
        if (--m_sendingPerHook[hook] <= 0)
            m_sendingPerHook.erase(hook);
    }
    if (ended.empty())
        return;
    crashPoint("hooktask.sent"); // answered (or cut), not yet recorded
    sendNext(freed);  // first, so its receiver works while this round is recorded
    notePace(freed);
    d.toRecorder(std::move(ended));  // the room they hold is given back once they are recorded
}

// The next waiting delivery of each hook that `freed` connections.
void WebhookService::Impl::LoopThread::sendNext(const std::map<qint64, qint64> &freed)
{
    for (const auto &[hook, n] : freed) {
        auto w = m_waiting.find(hook);
        for (qint64 i = 0; w != m_waiting.end() && i < n && !w->second.empty(); ++i) {
            send(std::move(w->second.front()));
            w->second.pop_front();
        }
        if (w != m_waiting.end() && w->second.empty())
            m_waiting.erase(w);
    }
}

// Loop::oldestSentMs of the hooks in `freed`: their oldest delivery still on the wire.
void WebhookService::Impl::LoopThread::notePace(const std::map<qint64, qint64> &freed)
{
    std::lock_guard lock(d.loop.mutex);
    for (const auto &[hook, n] : freed) {
        // `m_sending` is in send order: the hook's first one there is its oldest.
        const auto oldest = m_sendingPerHook.count(hook)
                                ? std::find_if(m_sending.begin(), m_sending.end(),
                                               [hook](const Flight &f) { return f.hook.id == hook; })
                                : m_sending.end();
        if (oldest == m_sending.end())
            d.loop.oldestSentMs.erase(hook);
        else
            d.loop.oldestSentMs[hook] = oldest->sentMs;
    }
}

// Takes the deliveries of `hook` waiting for a connection out of the loop, with their room: their
// task ids.
std::vector<qint64> WebhookService::Impl::LoopThread::dropWaiting(qint64 hook)
{
    std::vector<qint64> ids;
    auto w = m_waiting.find(hook);
    if (w == m_waiting.end())
        return ids;
    for (const Flight &f : w->second)
        ids.push_back(f.task.id);
    m_waiting.erase(w);
    d.inFlight -= qint64(ids.size());
    {
        std::lock_guard lock(d.loop.mutex);
        d.loop.held -= qint64(ids.size());
        if ((d.loop.heldPerHook[hook] -= qint64(ids.size())) <= 0)
            d.loop.heldPerHook.erase(hook);
    }
    d.loop.changed.notify_all();
    return ids;
}

// A deleted hook's deliveries: those waiting are dropped (their tasks went with it), those on the
// wire are cut (and not retried); what abort() finished at once is recorded before the wait.
void WebhookService::Impl::LoopThread::cutRemoved(const std::vector<qint64> &removed)
{
    for (qint64 hook : removed) {
        d.letGo(dropWaiting(hook)); // gone with their hook
        for (auto it = m_sending.begin(); it != m_sending.end(); ++it)
            if (it->hook.id == hook && !it->landed) {
                it->error = QStringLiteral("the hook was deleted during the delivery");
                it->hook.active = false;  // no retry of a deleted hook
                cut(it, it->error);
            }
        m_client.closePool(hook);
    }
    if (!removed.empty())
        settleRound();
}

// A round of the shutdown: what waits for a connection goes back unsent; what is on the wire
// gets WebhookOptions::stopGrace, then it is cut and recorded `unknown`. True when nothing is
// left on the wire.
bool WebhookService::Impl::LoopThread::windDown()
{
    if (!m_graceStarted) {
        m_graceStarted = true;
        m_graceEnd.setRemainingTime(std::max(std::chrono::milliseconds(0), d.options.stopGrace), Qt::PreciseTimer);
    }
    if (m_graceEnd.hasExpired())
        for (auto it = m_sending.begin(); it != m_sending.end(); ++it)
            if (!it->landed) {
                it->interrupted = true;
                it->error = QStringLiteral("the instance stopped during the delivery: it may or may not have arrived");
                cut(it, it->error);
            }
    settleRound();
    std::vector<qint64> unsent;
    while (!m_waiting.empty()) {
        const std::vector<qint64> ids = dropWaiting(m_waiting.begin()->first);
        unsent.insert(unsent.end(), ids.begin(), ids.end());
    }
    d.release(m_stop, unsent, 0);
    d.letGo(unsent);
    return m_sending.empty();
}

// Waits for events until the earliest deadline (or the grace's end), then cuts what is overdue,
// settles what ended and tidies the connections.
void WebhookService::Impl::LoopThread::waitRound()
{
    if (!m_sending.empty()) {
        qint64 wait = m_sending.front().due.remainingTime();
        if (m_graceStarted)
            wait = std::min(wait, m_graceEnd.remainingTime());
        m_deadline.start(std::max<qint64>(1, wait));
    }
    // (An exchange that failed as it started finished already: no waiting for it.)
    m_events.processEvents(m_finished.empty() ? QEventLoop::WaitForMoreEvents : QEventLoop::AllEvents);
    cutOverdue();
    settleRound();
    m_client.reap();
    if (m_sincePrune.hasExpired(60'000)) {
        m_client.closeIdle(std::chrono::minutes(1));
        m_sincePrune.restart();
    }
}

void WebhookService::Impl::LoopThread::run(const CancelToken &stop)
{
    m_stop = stop;
    {
        std::lock_guard lock(d.loop.mutex);
        d.loop.dispatcher = QAbstractEventDispatcher::instance();
        d.loop.running = true;
    }
    d.loop.changed.notify_all();
    const CancelCallback wake = stop.onCancel([this] {
        m_stopping = true;
        std::lock_guard lock(d.loop.mutex);
        if (d.loop.dispatcher)
            d.loop.dispatcher->wakeUp();
    });
    m_sincePrune.start();
    std::vector<Flight> arrived;
    std::vector<qint64> removed;
    while (true) {
        {
            std::lock_guard lock(d.loop.mutex);
            arrived.swap(d.loop.inbox);
            removed.swap(d.loop.removedHooks);
            if (m_stopping)
                d.loop.stopped = true;  // handOff() refuses from now on
        }
        for (Flight &f : arrived)
            admit(std::move(f));
        arrived.clear();
        cutRemoved(removed);
        removed.clear();
        if (m_stopping && windDown())
            break;
        waitRound();
    }
    {
        std::lock_guard lock(d.loop.mutex);
        d.loop.dispatcher = nullptr;
        d.loop.running = false;
    }
    d.loop.changed.notify_all();
}

void WebhookService::Impl::runLoop(const CancelToken &stop)
{
    LoopThread(*this).run(stop);
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
