#pragma once

// What the console talks to (SPEC §12): every operation of the catalogue as an asynchronous call
// (call()), the connection's state, and the live stream as a signal. LocalBackend runs the
// operations on the embedded engine; RemoteBackend sends them to the admin API over HTTP and
// reads the stream over a WebSocket, so a page works on both.
//
// Calls return at once. Each result is delivered exactly once, on the thread of `context` (the
// GUI thread for pages), unless `context` was destroyed first — then it is dropped. The GUI thread
// never waits on the engine or the network.

#include "admintypes.h"
#include "auditlog.h"
#include "catalogue.h"

#include "engine/core/status.h"

#include <QBasicTimer>
#include <QObject>
#include <QUrl>
#include <QPointer>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>

namespace Switchyard::Admin {

template<typename T>
using Reply = std::function<void(Result<T>)>;
using StatusReply = std::function<void(Status)>;

// One result on its way to `context`'s thread, made by AdminBackend::delivery() where the call
// starts (on the backend's thread, the context alive) and sent from any thread, exactly once. The
// reply runs on the context's thread, never inside the call that produced it, and not at all when
// the context is gone first. How: a carrier QObject of the backend's thread is connected (its
// destroyed()) to the context — a connection, which Qt keeps safe across threads and drops with
// its receiver; send() posts the carrier's deletion to the backend, which therefore owns every
// carrier not yet sent, and deletes it in order with the other replies and the stream's events
// (handOver).
// A reply for a call whose caller only needs to know whether it worked.
template<typename R>
std::function<void(Result<R>)> statusOnly(std::function<void(Status)> reply)
{
    return [reply = std::move(reply)](Result<R> result) { reply(result.status()); };
}

template<typename R>
class Delivery
{
public:
    void send(R value) const;

private:
    friend class AdminBackend;
    std::shared_ptr<std::optional<R>> m_slot;
    QObject *m_carrier = nullptr;
    class AdminBackend *m_owner = nullptr;
};

// A long admin action (KDE's KJob): started by the backend, one finished() signal with the
// outcome, cancel() at any time. Progress is optional: `total` 0 means unknown. The job deletes
// itself after finished() unless its parent goes first.
class AdminJob : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    QString title() const { return m_title; }
    bool isFinished() const { return m_finished; }
    const Status &result() const { return m_result; }
    qint64 done() const { return m_done; }
    qint64 total() const { return m_total; }

    // Asks the job to stop; finished() follows with a Cancelled status unless it completed first.
    virtual void cancel() = 0;

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    void finished(const Switchyard::Status &result);

protected:
    void setTitle(const QString &title) { m_title = title; }
    void setProgress(qint64 done, qint64 total);
    // Emits finished() once and schedules deleteLater(). Backends call it from their answers,
    // never inside the call that created the job.
    void finish(Status result);

private:
    QString m_title;
    bool m_finished = false;
    Status m_result;
    qint64 m_done = 0;
    qint64 m_total = 0;
};

// A call in flight: cancel() asks it to stop (a local call's token fires; a remote request is
// aborted). Its reply still comes, with a Cancelled status unless it completed first.
class CallHandle
{
public:
    CallHandle() = default;
    explicit CallHandle(std::function<void()> cancel) : m_cancel(std::move(cancel)) {}
    void cancel() const
    {
        if (m_cancel)
            m_cancel();
    }

private:
    std::function<void()> m_cancel;
};

// What a remote answer carries for the typed decoder.
struct RemoteAnswer
{
    QJsonValue json;   // the parsed body (an array of every page for a paged list)
    QByteArray raw;    // the body as sent (Text results)
    qint64 total = -1; // X-Total-Count
};

// One catalogue call, typed work done: the backend runs it locally (runLocal) or sends the
// request and hands the answer to `remote`. Exactly one of runLocal, remote and fail is called.
struct Invocation
{
    const OpBase *op = nullptr;
    Request request;
    QPointer<QObject> context;
    std::function<void(OpContext &)> runLocal;
    std::function<void(Result<RemoteAnswer>)> remote;
    std::function<void(Status)> fail;
};

class AdminBackend : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Connecting,   // starting the embedded engine, or reaching the remote instance
        Connected,
        Failed,       // stateMessage() says why (start-up refused, unreachable, unauthorised …)
        Closing,
        Closed,
    };
    Q_ENUM(State)

    using QObject::QObject;

    State state() const { return m_state; }
    QString stateMessage() const { return m_stateMessage; }
    // "This computer (embedded engine)" or the remote instance's name.
    virtual QString displayName() const = 0;
    // The admin API's base URL (…/api/v1): a remote instance's, or the one the embedded engine
    // serves once it listens (empty before, and when it cannot: endpointProblem() says why).
    // Forges post their events under it (…/events?source=NAME). endpointChanged() on a change.
    virtual QUrl apiUrl() const { return {}; }
    virtual QString endpointProblem() const { return {}; }
    // The secret an event source's signatures are checked against, when the console knows it
    // (the embedded engine's; a remote instance keeps its own): the Overview shows it to paste
    // into a forge, and test events are signed with it.
    virtual QByteArray eventSourceSecret(const QString &source) const { Q_UNUSED(source) return {}; }
    // False with a read-only token: pages disable mutating actions before anyone clicks.
    virtual bool canMutate() const { return true; }
    // Ends the connection: running calls and jobs are cancelled (a flush in progress stops), the
    // embedded engine shuts down gracefully; closed() follows. Idempotent.
    virtual void close(const QString &reason) = 0;

    // Any operation of the catalogue (src/admin/ops/): the reply comes once, on `context`'s thread.
    template<typename A, typename R>
    CallHandle call(const Op<A, R> &op, std::type_identity_t<A> args, QObject *context, std::type_identity_t<Reply<R>> reply)
    {
        const Delivery<Result<R>> delivery = this->delivery<Result<R>>(context, std::move(reply));
        Invocation invocation;
        invocation.op = &op;
        invocation.request = op.request(args);
        invocation.context = context;
        invocation.runLocal = [&op, args = std::move(args), delivery](OpContext &c) { delivery.send(op.execute(c, args)); };
        invocation.remote = [delivery, &op](Result<RemoteAnswer> answer) {
            if (!answer)
                delivery.send(answer.status());
            else
                delivery.send(decodeAnswer<R>(*answer, op.action()));
        };
        invocation.fail = [delivery](Status status) { delivery.send(std::move(status)); };
        return dispatch(std::move(invocation));
    }

    // Thin helpers for the pages.
    // A queue's flush as a job: progress is the items drained of those waiting at the start.
    AdminJob *flushQueue(qint64 qid, std::chrono::milliseconds timeout, QObject *parent);
    // Deletes notices one after the other; the first error is reported, the rest still go. The
    // stream's notice-removed tells every view which went.
    void deleteNotices(const QList<qint64> &ids, QObject *context, StatusReply reply);

protected:
    // Runs one call (see Invocation). On this backend's thread; returns at once.
    virtual CallHandle dispatch(Invocation invocation) = 0;
    // Runs `step` (a reply, a batch of stream events) on this backend's thread after every step
    // handed over before it, in order, a few milliseconds' worth per pass of the event loop
    // (8 ms, see adminbackend.cpp): a burst of answers — every page reading at connect, 10 000 notices among
    // them — no longer runs back to back in one pass, so the loop paints and runs its timers in
    // between. Call on this backend's thread.
    void handOver(std::function<void()> step);
    void timerEvent(QTimerEvent *event) override;
    // How often a job reads its progress.
    std::chrono::milliseconds m_progressInterval{200};

private:
    struct NoticeDeletion;
    void deleteNext(std::shared_ptr<NoticeDeletion> state);

    template<typename R>
    static Result<R> decodeAnswer(const RemoteAnswer &answer, const QString &action)
    {
        if constexpr (std::is_same_v<R, Text>)
            return Text{answer.raw, "text/plain; charset=utf-8"};
        else if constexpr (detail::IsPage<R>::value) {
            Result<decltype(R::rows)> rows = Json::fromJson<decltype(R::rows)>(answer.json, action);
            if (!rows)
                return rows.status();
            return R{std::move(rows).value(), answer.total};
        } else
            return Json::fromJson<R>(answer.json, action);
    }

public:
Q_SIGNALS:
    void stateChanged(Switchyard::Admin::AdminBackend::State state, const QString &message);
    // The live stream, on the backend's thread.
    void event(const Switchyard::Admin::AdminEvent &event);
    // Events were lost (the backlog overflowed): every view should re-read what it shows.
    void resyncNeeded();
    // After close(): `clean` is false when something had to be abandoned.
    void closed(bool clean);
    // apiUrl() or endpointProblem() changed (the embedded engine's API started, moved or failed).
    void endpointChanged();

public:
    ~AdminBackend() override;

    // A Delivery of one reply to `context` (see Delivery). Call on this backend's thread.
    template<typename R>
    Delivery<R> delivery(QObject *context, std::function<void(R)> reply)
    {
        Delivery<R> d;
        d.m_slot = std::make_shared<std::optional<R>>();
        d.m_carrier = new QObject;
        d.m_owner = this;
        m_carriers.insert(d.m_carrier);
        if (context) {
            QObject::connect(d.m_carrier, &QObject::destroyed, context, [slot = d.m_slot, reply = std::move(reply)] {
                if (*slot)
                    reply(std::move(**slot));
            });
        }
        return d;
    }

protected:
    void setState(State state, const QString &message = QString());

private:
    template<typename R>
    friend class Delivery;
    // Deletes a sent carrier (its destroyed() is the delivery). Backend thread.
    void release(QObject *carrier)
    {
        if (!m_carriers.contains(carrier))
            return;
        handOver([this, carrier] {
            if (m_carriers.erase(carrier))
                delete carrier;
        });
    }

    State m_state = State::Connecting;
    QString m_stateMessage;
    std::set<QObject *> m_carriers; // deliveries not handed over yet (backend thread)
    std::deque<std::function<void()>> m_steps; // handOver()'s queue
    QBasicTimer m_handOver;                     // a zero timer while m_steps is not empty
};

template<typename R>
void Delivery<R>::send(R value) const
{
    *m_slot = std::move(value);
    // On the backend's thread, as a posted call: asynchronous even when sent from inside a call.
    QMetaObject::invokeMethod(m_owner, [owner = m_owner, carrier = m_carrier] { owner->release(carrier); }, Qt::QueuedConnection);
}

} // namespace Switchyard::Admin

Q_DECLARE_METATYPE(Switchyard::Admin::AdminEvent)
