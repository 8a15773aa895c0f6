#pragma once

// The delivery loop thread (loopthread.cpp): what it owns and its rounds. Private to the webhook
// subsystem's delivery files.

#include "webhook_p.h"

#include <QEventLoop>
#include <QHostInfo>
#include <QTimer>

#include <deque>
#include <list>

namespace Switchyard::Webhook {

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

} // namespace Switchyard::Webhook
