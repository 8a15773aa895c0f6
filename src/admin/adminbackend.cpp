#include "adminbackend.h"

#include "ops/instanceops.h"
#include "ops/queueops.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QTimerEvent>

namespace Switchyard::Admin {

// queue.flush as a job: the queue's length first (the total), then the flush, while a timer reads
// the length for progress — one read at a time, however slow the instance is. Counted together,
// the flush could drain items before they were counted and the progress would undercount.
class FlushJob final : public AdminJob
{
public:
    FlushJob(AdminBackend &backend, qint64 qid, std::chrono::milliseconds timeout, std::chrono::milliseconds interval,
             QObject *parent)
        : AdminJob(parent), m_backend(backend), m_qid(qid)
    {
        setTitle(tr("Flush queue %1").arg(qid));
        // Closing the connection cancels the job (the backend cancels its calls too).
        connect(&backend, &AdminBackend::stateChanged, this, [this](AdminBackend::State state) {
            if (state == AdminBackend::State::Closing || state == AdminBackend::State::Closed)
                stop(Status::cancelled(tr("the connection is closing")));
        });
        m_timer.setInterval(interval);
        connect(&m_timer, &QTimer::timeout, this, &FlushJob::readProgress);
        m_count = m_backend.call(Ops::queueGet, QueueRef{qid}, this, [this, timeout](Result<QueueDetail> detail) {
            if (isFinished())
                return; // cancelled while counting: the flush is never started
            if (!detail) {
                finish(detail.status());
                return;
            }
            m_total = std::max<qint64>(0, detail->row.length);
            setProgress(0, m_total);
            m_timer.start();
            m_flush = m_backend.call(Ops::queueFlush, FlushArgs{m_qid, timeout.count()}, this, [this](Result<Done> flushed) {
                m_timer.stop();
                if (flushed)
                    setProgress(m_total, m_total);
                finish(flushed.status());
            });
        });
    }

    void cancel() override { stop(Status::cancelled(tr("flush cancelled"))); }

private:
    void stop(Status why)
    {
        if (isFinished())
            return;
        m_timer.stop();
        m_count.cancel();
        m_flush.cancel(); // a local flush's token fires; a remote request is aborted and the server stops
        finish(std::move(why));
    }

    void readProgress()
    {
        if (m_reading)
            return;
        m_reading = true;
        m_backend.call(Ops::queueGet, QueueRef{m_qid}, this, [this](Result<QueueDetail> detail) {
            m_reading = false;
            if (detail && !isFinished() && m_total > 0)
                setProgress(std::clamp<qint64>(m_total - detail->row.length, 0, m_total), m_total);
        });
    }

    AdminBackend &m_backend;
    const qint64 m_qid;
    qint64 m_total = 0;
    CallHandle m_count;
    CallHandle m_flush;
    QTimer m_timer;
    bool m_reading = false;
};

AdminJob *AdminBackend::flushQueue(qint64 qid, std::chrono::milliseconds timeout, QObject *parent)
{
    return new FlushJob(*this, qid, timeout, m_progressInterval, parent);
}

// The notices still to delete; each answer sends the next.
struct AdminBackend::NoticeDeletion
{
    QList<qint64> left;
    Status first;
    QPointer<QObject> context;
    Delivery<Status> done;
};

void AdminBackend::deleteNotices(const QList<qint64> &ids, QObject *context, StatusReply reply)
{
    deleteNext(std::make_shared<NoticeDeletion>(NoticeDeletion{ids, Status::ok(), context, delivery<Status>(context, std::move(reply))}));
}

void AdminBackend::deleteNext(std::shared_ptr<NoticeDeletion> state)
{
    if (state->left.isEmpty() || !state->context) {
        state->done.send(state->first);
        return;
    }
    call(Ops::noticeDelete, NoticeRef{state->left.takeFirst()}, this, [this, state](Result<Done> deleted) {
        if (!deleted && state->first.isOk())
            state->first = deleted.status();
        deleteNext(state);
    });
}

void AdminJob::setProgress(qint64 done, qint64 total)
{
    if (m_finished || (done == m_done && total == m_total))
        return;
    m_done = done;
    m_total = total;
    Q_EMIT progress(done, total);
}

void AdminJob::finish(Status result)
{
    if (m_finished)
        return;
    m_finished = true;
    m_result = std::move(result);
    Q_EMIT finished(m_result);
    deleteLater();
}

namespace {
// How long one pass of the event loop hands over replies and events before it lets the loop paint
// and run its timers (a step started within the budget runs to its end).
constexpr qint64 kHandOverBudgetNs = 8'000'000;
} // namespace

void AdminBackend::handOver(std::function<void()> step)
{
    m_steps.push_back(std::move(step));
    if (!m_handOver.isActive())
        m_handOver.start(0, this);
}

void AdminBackend::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_handOver.timerId()) {
        QObject::timerEvent(event);
        return;
    }
    QElapsedTimer pass;
    pass.start();
    const QPointer<AdminBackend> alive(this); // a reply may delete the backend (the console closes an instance)
    while (!m_steps.empty() && pass.nsecsElapsed() < kHandOverBudgetNs) {
        std::function<void()> step = std::move(m_steps.front());
        m_steps.pop_front();
        step(); // may hand over more
        if (!alive)
            return;
    }
    if (m_steps.empty())
        m_handOver.stop();
}

AdminBackend::~AdminBackend()
{
    m_steps.clear();
    // Deliveries never sent, or sent but not yet handed over: no reply reaches its context any more
    // (it could call into a backend being destroyed).
    for (QObject *carrier : std::exchange(m_carriers, {})) {
        carrier->disconnect();
        delete carrier;
    }
}

void AdminBackend::setState(State state, const QString &message)
{
    if (state == m_state && message == m_stateMessage)
        return;
    m_state = state;
    m_stateMessage = message;
    Q_EMIT stateChanged(state, message);
}

} // namespace Switchyard::Admin
