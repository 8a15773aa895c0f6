#pragma once

// What the console talks to (SPEC §12): every admin operation as an asynchronous call, and the
// live stream as a signal. LocalBackend runs the operations on the embedded engine; a remote
// backend (admin API over HTTP + WebSocket) implements the same interface, so a page works on both.
//
// Calls return at once. Each result is delivered exactly once, on the thread of `context` (the
// GUI thread for pages), unless `context` was destroyed first — then it is dropped. The GUI thread
// never waits on the engine or the network.

#include "admintypes.h"
#include "auditlog.h"

#include "engine/core/status.h"

#include <QObject>
#include <QPointer>

#include <chrono>
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
// carrier not yet sent.
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
    // False with a read-only token: pages disable mutating actions before anyone clicks.
    virtual bool canMutate() const { return true; }
    // Ends the connection: running calls and jobs are cancelled (a flush in progress stops), the
    // embedded engine shuts down gracefully; closed() follows. Idempotent.
    virtual void close(const QString &reason) = 0;

    // Instance, processes, notices
    virtual void instance(QObject *context, Reply<InstanceInfo> reply) = 0;
    virtual void selfCheck(QObject *context, Reply<std::vector<SelfCheckItem>> reply) = 0;
    virtual void processes(QObject *context, Reply<std::vector<ProcessRow>> reply) = 0;
    virtual void cancelProcess(qint64 pid, QObject *context, StatusReply reply) = 0;
    virtual void notices(QObject *context, Reply<std::vector<NoticeRow>> reply) = 0;
    virtual void deleteNotices(const QList<qint64> &ids, QObject *context, StatusReply reply) = 0;

    // Queues
    virtual void queues(QObject *context, Reply<std::vector<QueueRow>> reply) = 0;
    virtual void queueSettings(qint64 qid, QObject *context, Reply<QueueSettingsInfo> reply) = 0;
    // Progress: items drained of those waiting at the start. The job is parented to `parent`.
    virtual AdminJob *flushQueue(qint64 qid, std::chrono::milliseconds timeout, QObject *parent) = 0;
    virtual void removeAllCount(qint64 qid, QObject *context, Reply<qint64> reply) = 0;
    virtual void removeAll(qint64 qid, QObject *context, Reply<qint64> reply) = 0;
    virtual void setMaxWorkers(qint64 qid, int maxWorkers, QObject *context, StatusReply reply) = 0;
    virtual void pauseQueue(qint64 qid, QObject *context, StatusReply reply) = 0;
    virtual void resumeQueue(qint64 qid, QObject *context, StatusReply reply) = 0;

    // Cron
    virtual void cronTasks(QObject *context, Reply<std::vector<CronRow>> reply) = 0;
    virtual void runCron(const QString &name, QObject *context, StatusReply reply) = 0;
    virtual void pauseCron(const QString &name, QObject *context, StatusReply reply) = 0;
    virtual void resumeCron(const QString &name, QObject *context, StatusReply reply) = 0;
    virtual void cronRuns(const QString &name, QObject *context, Reply<std::vector<CronRun>> reply) = 0;

    // Locks
    virtual void locks(QObject *context, Reply<std::vector<LockRow>> reply) = 0;
    virtual void forceReleaseLock(const QString &key, QObject *context, StatusReply reply) = 0;

    // Cache and QoS
    virtual void cacheInfo(QObject *context, Reply<CacheInfo> reply) = 0;
    virtual void cacheStats(QObject *context, Reply<CacheStats> reply) = 0;
    virtual void cacheTest(QObject *context, Reply<CacheTest> reply) = 0;
    virtual void qos(QObject *context, Reply<QosStats> reply) = 0;

    // Audit: the newest mutating admin calls (up to 500), optionally of one action.
    virtual void audit(const QString &action, QObject *context, Reply<std::vector<AuditEntry>> reply) = 0;

Q_SIGNALS:
    void stateChanged(Switchyard::Admin::AdminBackend::State state, const QString &message);
    // The live stream, on the backend's thread.
    void event(const Switchyard::Admin::AdminEvent &event);
    // Events were lost (the backlog overflowed): every view should re-read what it shows.
    void resyncNeeded();
    // After close(): `clean` is false when something had to be abandoned.
    void closed(bool clean);

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
        if (m_carriers.erase(carrier))
            delete carrier;
    }

    State m_state = State::Connecting;
    QString m_stateMessage;
    std::set<QObject *> m_carriers; // deliveries not sent yet (backend thread)
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
