// The delivery loop thread: it sends what the workers handed over (deliveryloop.cpp), at most six
// at a time per hook, follows redirects, cuts what is overdue, and passes what ended to the
// recorder (recorder.cpp).
//
// Threads: everything here runs on the loop thread, for one runLoop(); what it shares with the
// workers, the recorder and the callers of forget()/settle() is Impl::loop, under Loop::mutex
// (see deliveryloop.cpp's note).

#include "loopthread_p.h"

#include "engine/core/crashpoint.h"

namespace Switchyard::Webhook {

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
    if (m_graceStarted && m_graceEnd.hasExpired() && f.error.isEmpty() && !f.interrupted && f.exchange.error.isEmpty() &&
        f.exchange.status >= 300 && f.exchange.status < 400) {
        // Stopping, its grace over: no new hop. It never reached the receiver the redirect names,
        // so it ends as an interrupted delivery (sent again at the next start, as any other).
        f.interrupted = true;
        f.error = QStringLiteral("the instance stopped while following a redirect: it did not reach the final receiver");
        return false;
    }
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

} // namespace Switchyard::Webhook
