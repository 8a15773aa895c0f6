#include "workerpool.h"

#include "queuelogging.h"

#include "engine/core/threadname.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <list>
#include <mutex>
#include <optional>
#include <thread>

namespace Switchyard {

struct WorkerPool::Impl
{
    Impl(QString name, std::unique_ptr<BaseQueue> base, RawBatchHandler handler, int batchLength, int maxWorkers,
         int capacity, QueueTiming timing);
    ~Impl();

    // WorkerPool's operations (documented in workerpool.h).
    void run(const CancelToken &cancel);
    Status push(const CancelToken &cancel, const QByteArray &data);
    Status pushMany(const CancelToken &cancel, const std::vector<QByteArray> &items);
    Result<bool> has(const CancelToken &cancel, const QByteArray &data);
    Status flush(const CancelToken &cancel, std::chrono::milliseconds timeout);
    Result<qint64> removeAll(const CancelToken &cancel);
    Result<std::vector<InFlightItem>> inFlight(const CancelToken &cancel, int limit);
    void setMaxWorkers(int maxWorkers);
    Status pause(const CancelToken &cancel);
    void resume();
    bool isPaused() const;
    bool isRunning() const;
    bool waitUntilRunning(const CancelToken &cancel);
    QueueStats stats() const;
    void sampleLength(const CancelToken &cancel);

    struct Worker
    {
        std::thread thread;
        bool finished = false;
        int number = 0;                 // for operators: "worker 3"
        std::vector<QByteArray> inHand; // guarded by m_mutex; the batch being handled
        QDateTime since;                // guarded by m_mutex; when it was taken
    };
    struct FlushRequest
    {
        bool discard = false;
        bool done = false;
        bool abandoned = false;
        Status result;
    };

    // The gatherer's work (Gitea's single buffer, passed from worker to worker): fills the next
    // batch and returns it full, or partial once the debounce is due; serves flush requests and
    // pauses meanwhile. Empty when the pool stops (what it held went back). Requires m_mutex and
    // the gatherer's role.
    std::vector<PoppedItem> gather(std::unique_lock<std::mutex> &lock);
    // The parts of gathering: a flush request, items back on pause, leaving at shutdown.
    void serveNextFlush(std::unique_lock<std::mutex> &lock, std::vector<PoppedItem> &buffer,
                        std::optional<SteadyClock::time_point> &debounceAt);
    void putBack(const CancelToken &cancel, const std::vector<PoppedItem> &items);  // bounded by pushBlockTime
    void leaveAtShutdown(std::unique_lock<std::mutex> &lock, std::vector<PoppedItem> held);
    // A worker for the gatherer's role when none is waiting for it and the maximum allows.
    void ensureGatherer(); // requires m_mutex
    void startWorker();  // requires m_mutex and the gatherer's role free: the new worker takes it
    void workerLoop(Worker *self);
    // Returns how long the handler itself ran (not the acknowledgement).
    SteadyClock::duration handleBatch(std::vector<PoppedItem> batch);
    // nullopt when the handler threw (logged, counted as failed; `error` says what it threw).
    std::optional<RawBatchResult> callHandler(std::vector<QByteArray> &data, QString *error = nullptr);
    // Acknowledges within pushBlockTime; a failure is counted and logged.
    void ackBounded(const std::vector<PoppedItem> &items, const char *when);
    void serveFlush(std::unique_lock<std::mutex> &lock, const std::shared_ptr<FlushRequest> &request);
    void reapWorkers(std::unique_lock<std::mutex> &lock);
    void shutdown(std::unique_lock<std::mutex> &lock);
    void wakeDispatcher();        // requires m_mutex
    // The role is free: an idle worker takes it, or a new one when the maximum allows.
    void passRole();              // requires m_mutex
    // run()'s watch over a worker that kept the role for a quick handler (m_keptBy).
    void watchKeptRole(std::unique_lock<std::mutex> &lock, const CancelToken &cancel);
    bool canStartWorker() const;  // requires m_mutex

    const QString m_name;
    const std::unique_ptr<BaseQueue> m_base;
    const RawBatchHandler m_handler;
    const int m_batchLength;
    const int m_capacity;
    const QueueTiming m_timing;
    const bool m_immediate;  // dummy base queue: push runs the handler

    alignas(64) std::atomic<qint64> m_pushed = 0; // the producer's, apart from the workers' counters below
    alignas(64) std::atomic<qint64> m_handled = 0;
    std::atomic<qint64> m_failed = 0;
    std::atomic<qint64> m_corrupt = 0;
    std::atomic<qint64> m_ackFailed = 0;
    std::atomic<bool> m_flushing = false;
    WorkerPool::Settle m_settle; // guarded by m_mutex
    std::atomic<qint64> m_sampledLength = -1;
    std::atomic<qint64> m_sampledAtMs = 0;  // ms since the epoch; 0: never sampled

    mutable std::mutex m_mutex;
    std::condition_variable_any m_changed;  // state below changed (the gatherer, flush, pause, shutdown wait here)
    std::condition_variable m_work;         // the gatherer's role is free, or stopping (idle workers wait here)
    CancelToken m_runToken;                 // guarded by m_mutex; valid while running
    CancelSource m_wake;                    // guarded by m_mutex; interrupts the gatherer's pop
    bool m_running = false;                 // guarded by m_mutex
    bool m_stopping = false;                // guarded by m_mutex; workers exit when idle
    bool m_paused = false;                  // guarded by m_mutex
    bool m_pauseApplied = false;            // guarded by m_mutex; paused and holding nothing
    int m_maxWorkers;                       // guarded by m_mutex
    int m_workerCount = 0;                  // guarded by m_mutex
    int m_idleWorkers = 0;                  // guarded by m_mutex; waiting for the gatherer's role
    int m_activeWorkers = 0;                // guarded by m_mutex
    // One worker at a time gathers the next batch (the gatherer's role); it then handles that
    // batch itself and the role passes to an idle worker, or to a new one. So a batch never
    // changes threads: the only hand-off left is the producer's wake-up of the gatherer.
    bool m_gathererBusy = false;            // guarded by m_mutex; some worker holds the role
    const Worker *m_gatherer = nullptr;     // guarded by m_mutex; which (for the in-flight view)
    const std::vector<PoppedItem> *m_gathering = nullptr; // guarded by m_mutex; the batch being gathered
    // While handlers are quick, the role is kept instead of passed on: the gatherer leaves it free
    // but kept for itself, handles its batch and takes it back — no other worker is woken. run()
    // watches (ticking every handOffAfter while roles are kept) and passes a role kept longer than
    // that on, as the gatherer would have done, so a slow handler never holds up the others.
    bool m_quickHandlers = false;           // guarded by m_mutex; the last handler took < quickHandler
    const Worker *m_keptBy = nullptr;       // guarded by m_mutex; the worker that will take the role back
    quint64 m_keeps = 0;                    // guarded by m_mutex; roles kept so far (run() compares)
    bool m_watching = false;                // guarded by m_mutex; run() ticks
    std::list<Worker> m_workers;            // guarded by m_mutex
    int m_workersStarted = 0;               // guarded by m_mutex
    std::vector<std::shared_ptr<FlushRequest>> m_flushRequests;  // guarded by m_mutex
};

WorkerPool::Impl::Impl(QString name, std::unique_ptr<BaseQueue> base, RawBatchHandler handler, int batchLength,
                       int maxWorkers, int capacity, QueueTiming timing)
    : m_name(std::move(name))
    , m_base(std::move(base))
    , m_handler(std::move(handler))
    , m_batchLength(std::max(1, batchLength))
    , m_capacity(capacity)
    , m_timing(timing)
    , m_immediate(m_base->type() == QLatin1String("dummy"))
    , m_maxWorkers(maxWorkers)
{}

WorkerPool::Impl::~Impl()
{
    std::list<Worker> workers;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_changed.notify_all();
        m_work.notify_all();
        workers = std::move(m_workers);  // std::list: the workers' Worker* stay valid
    }
    for (Worker &worker : workers) {
        if (worker.thread.joinable())
            worker.thread.join();
    }
    m_base->close();
}

bool WorkerPool::Impl::canStartWorker() const
{
    return m_maxWorkers <= 0 || m_workerCount < m_maxWorkers;
}

void WorkerPool::Impl::startWorker()
{
    // It starts as the gatherer (the role was free and no idle worker could take it).
    ++m_workerCount;
    m_workers.push_back(Worker{});
    Worker *worker = &m_workers.back();
    worker->number = ++m_workersStarted;
    m_gathererBusy = true;
    m_gatherer = worker;
    worker->thread = std::thread([this, worker] {
        nameThisThread(m_name.left(12) + u'/' + QString::number(worker->number)); // "webhook_send/1"
        workerLoop(worker);
    });
}

void WorkerPool::Impl::passRole()
{
    if (m_idleWorkers > 0)
        m_work.notify_one();
    else
        ensureGatherer();
}

void WorkerPool::Impl::watchKeptRole(std::unique_lock<std::mutex> &lock, const CancelToken &cancel)
{
    // A tick: a role kept at its start and still kept at its end, with no other kept meanwhile,
    // has been kept by the same handler for at least handOffAfter (at most twice that).
    const quint64 keeps = m_keeps;
    const bool kept = m_keptBy != nullptr;
    const bool woken = cancel.waitUntil(m_changed, lock, SteadyClock::now() + m_timing.handOffAfter, [this] {
        return std::any_of(m_workers.begin(), m_workers.end(), [](const Worker &w) { return w.finished; });
    });
    if (woken || cancel.isCancelled())
        return; // a worker to join, or stopping: the next tick starts afresh
    if (m_keeps != keeps)
        return; // roles kept and taken back meanwhile: handlers are quick
    if (!kept || !m_keptBy) {
        m_watching = false; // a whole tick without a kept role: stop ticking
        return;
    }
    // The same handler has run for a whole tick: the role passes on as it would have at once.
    m_keptBy = nullptr;
    m_quickHandlers = false;
    if (!m_gathererBusy && !m_stopping)
        passRole();
}

void WorkerPool::Impl::wakeDispatcher()
{
    m_wake.cancel(QStringLiteral("wake"));
    m_changed.notify_all();
}

void WorkerPool::Impl::reapWorkers(std::unique_lock<std::mutex> &lock)
{
    std::vector<std::thread> finished;
    for (auto it = m_workers.begin(); it != m_workers.end();) {
        if (it->finished) {
            finished.push_back(std::move(it->thread));
            it = m_workers.erase(it);
        } else {
            ++it;
        }
    }
    if (finished.empty())
        return;
    lock.unlock();
    for (std::thread &thread : finished)
        thread.join();  // already past their last access to the pool
    lock.lock();
}

void WorkerPool::Impl::run(const CancelToken &cancel)
{
    std::unique_lock lock(m_mutex);
    if (m_running) {
        qCWarning(lcQueue).noquote() << "queue" << m_name << "is already running";
        return;
    }
    m_running = true;
    m_stopping = false;
    m_runToken = cancel;
    m_wake = CancelSource(cancel);
    ensureGatherer(); // the first worker; the others come as batches find no idle one
    m_changed.notify_all();

    // The workers gather, handle and serve flushes; this thread joins those that exit idle and
    // leads the shutdown.
    while (!cancel.isCancelled()) {
        if (m_watching)
            watchKeptRole(lock, cancel);
        else
            cancel.wait(m_changed, lock, [this] {
                return m_watching || std::any_of(m_workers.begin(), m_workers.end(), [](const Worker &w) { return w.finished; });
            });
        reapWorkers(lock);
    }

    for (const std::shared_ptr<FlushRequest> &request : m_flushRequests) {
        request->done = true;
        request->result = Status::cancelled(QStringLiteral("queue %1 is shutting down").arg(m_name));
    }
    m_flushRequests.clear();
    m_stopping = true;
    wakeDispatcher();
    m_work.notify_all();
    // The gatherer puts back what it held (or, with no shutdown timeout, hands it to the handler
    // once) — bounded on its own; nothing in hand may vanish.
    CancelToken().wait(m_changed, lock, [this] { return !m_gathererBusy; });
    if (m_timing.shutdownTimeout.count() != 0) {
        const bool finished = CancelToken().waitUntil(m_changed, lock, SteadyClock::now() + m_timing.shutdownTimeout,
                                                      [this] { return m_workerCount == 0; });
        if (!finished)
            qCCritical(lcQueue).noquote()
                << "queue" << m_name << ":" << m_activeWorkers << "worker(s) still running"
                << m_timing.shutdownTimeout.count() << "ms after shutdown; their items stay in flight";
    }
    reapWorkers(lock);
    m_running = false;
    m_changed.notify_all();
}

void WorkerPool::Impl::ensureGatherer()
{
    if (m_running && !m_stopping && !m_gathererBusy && m_idleWorkers == 0 && canStartWorker())
        startWorker();
}

std::vector<PoppedItem> WorkerPool::Impl::gather(std::unique_lock<std::mutex> &lock)
{
    std::vector<PoppedItem> buffer; // changed only with m_mutex held (popItems fills `popped`)
    m_gathering = &buffer;
    std::optional<SteadyClock::time_point> debounceAt;
    bool loggedError = false;
    while (true) {
        if (m_stopping || m_runToken.isCancelled()) {
            leaveAtShutdown(lock, std::move(buffer));
            return {};
        }
        if (!m_flushRequests.empty()) {
            serveNextFlush(lock, buffer, debounceAt);
            continue;
        }
        if (m_paused) {
            if (!buffer.empty()) {
                // Paused: what was already taken goes back, so the queue length stays truthful.
                std::vector<PoppedItem> back = std::move(buffer);
                buffer.clear();
                debounceAt.reset();
                lock.unlock();
                putBack(m_runToken, back);
                lock.lock();
                continue;
            }
            if (!m_pauseApplied) {
                m_pauseApplied = true;  // pause() returns now: nothing is held
                m_changed.notify_all();
            }
            // Also when a resume and a new pause came between two looks: that pause waits for
            // m_pauseApplied again, and nothing is held, so it is applied at once.
            m_runToken.wait(m_changed, lock, [this] { return !m_paused || !m_pauseApplied || !m_flushRequests.empty() || m_stopping; });
            continue;
        }
        if (m_wake.isCancelled())
            m_wake = CancelSource(m_runToken);
        const CancelToken wake = m_wake.token();
        const int room = m_batchLength - int(buffer.size());
        lock.unlock();
        // With part of a batch in hand, sleep until the rest is there or the debounce is due.
        Result<std::vector<PoppedItem>> popped = m_base->popItems(wake, room, debounceAt, buffer.empty() ? 1 : room);
        lock.lock();
        if (!popped) {
            if (m_runToken.isCancelled() || wake.isCancelled())
                continue;  // shutdown, flush, pause or resume
            if (popped.status().code() == Status::Code::Cancelled) {
                qCWarning(lcQueue).noquote() << "queue" << m_name << ":" << popped.status().message();
                m_stopping = true; // closed underneath us
                m_work.notify_all();
                continue;
            }
            if (!loggedError)
                qCWarning(lcQueue).noquote()
                    << "queue" << m_name << ": pop failed, retrying:" << popped.status().message();
            loggedError = true;
            lock.unlock();
            m_runToken.sleepFor(m_timing.backoffUpper);
            lock.lock();
            continue;
        }
        loggedError = false;
        if (!popped->empty()) {
            if (buffer.empty())
                debounceAt = SteadyClock::now() + m_timing.batchDebounce;  // not reset by later items
            for (PoppedItem &item : *popped)
                buffer.push_back(std::move(item));
        }
        const bool full = int(buffer.size()) >= m_batchLength;
        const bool due = debounceAt && SteadyClock::now() >= *debounceAt;
        if (!buffer.empty() && (full || due) && !m_paused) {
            m_gathering = nullptr;
            return buffer;
        }
    }
}

void WorkerPool::Impl::serveNextFlush(std::unique_lock<std::mutex> &lock, std::vector<PoppedItem> &buffer,
                                      std::optional<SteadyClock::time_point> &debounceAt)
{
    const std::shared_ptr<FlushRequest> request = m_flushRequests.front();
    m_flushRequests.erase(m_flushRequests.begin());
    if (!buffer.empty()) {
        std::vector<PoppedItem> batch = std::move(buffer);
        buffer.clear();
        debounceAt.reset();
        lock.unlock();
        if (request->discard) {
            ackBounded(batch, "discard");
        } else {
            m_flushing = true;
            handleBatch(std::move(batch));
        }
        lock.lock();
    }
    serveFlush(lock, request);
}

void WorkerPool::Impl::putBack(const CancelToken &cancel, const std::vector<PoppedItem> &items)
{
    const CancelSource bounded = CancelSource::withTimeout(cancel, m_timing.pushBlockTime);
    if (Status released = m_base->release(bounded.token(), items); !released)
        qCWarning(lcQueue).noquote() << "queue" << m_name << ": pause: could not put back" << items.size()
                                     << "item(s) (they stay in flight and come back later):" << released.message();
}

void WorkerPool::Impl::leaveAtShutdown(std::unique_lock<std::mutex> &lock, std::vector<PoppedItem> held)
{
    m_gathering = nullptr;
    if (held.empty())
        return;
    lock.unlock();
    if (m_timing.shutdownTimeout.count() != 0) {
        const CancelSource bounded = CancelSource::withTimeout(CancelToken(), m_timing.shutdownTimeout);
        if (Status released = m_base->release(bounded.token(), held); !released)
            qCCritical(lcQueue).noquote() << "queue" << m_name << ": could not put back" << held.size()
                                          << "item(s) at shutdown:" << released.message();
    } else {
        std::vector<QByteArray> data;
        for (const PoppedItem &item : held)
            data.push_back(item.data);
        const RawBatchResult result = callHandler(data).value_or(RawBatchResult());
        if (!result.unhandled.empty())
            qCCritical(lcQueue).noquote() << "queue" << m_name << ": shutdown without timeout dropped"
                                          << result.unhandled.size() << "unhandled item(s)";
        ackBounded(held, "shutdown");
    }
    lock.lock();
}

void WorkerPool::Impl::workerLoop(Worker *self)
{
    std::unique_lock lock(m_mutex);
    bool idle = false; // counted in m_idleWorkers; a new worker starts as the gatherer
    while (true) {
        if (m_gatherer != self) {
            // Wait for the gatherer's role; idle for workerIdle, exit — but the last worker stays.
            const auto idleUntil = SteadyClock::now() + m_timing.workerIdle;
            m_work.wait_until(lock, idleUntil, [this] { return !m_gathererBusy || m_stopping; });
            if (m_stopping)
                break;
            if (m_gathererBusy) {
                if (SteadyClock::now() >= idleUntil && m_workerCount > 1)
                    break;
                continue;
            }
            m_gathererBusy = true;
            m_gatherer = self;
            --m_idleWorkers;
            idle = false;
        }
        std::vector<PoppedItem> batch = gather(lock);
        m_gathererBusy = false;
        m_gatherer = nullptr;
        // Only the shutdown waits for the role to be free (pause and flush are served by the
        // gatherer itself): no wake-up of the supervisor and every waiter per batch.
        if (m_stopping)
            m_changed.notify_all();
        if (batch.empty())
            break; // stopping: what it held went back
        // The role passes on: to an idle worker, or to a new one when the maximum allows — so the
        // next batch is gathered while this one is handled. While handlers are quick, waking
        // another worker costs more than the handler: the role is kept for this one instead, and
        // run() passes it on if this handler turns out slow.
        const bool another = m_idleWorkers > 0 || (!m_gathererBusy && canStartWorker());
        if (another && m_quickHandlers && m_base->isLocal()) {
            m_keptBy = self;
            ++m_keeps;
            if (!m_watching) {
                m_watching = true;
                m_changed.notify_all(); // run() starts ticking
            }
        } else if (another) {
            passRole();
        }
        ++m_activeWorkers;
        // What it holds, for the in-flight view (shared bytes: no copy of the items).
        self->inHand.clear();
        for (const PoppedItem &item : batch)
            self->inHand.push_back(item.data);
        self->since = QDateTime::currentDateTimeUtc();
        lock.unlock();
        const bool quick = handleBatch(std::move(batch)) < m_timing.quickHandler;
        lock.lock();
        m_quickHandlers = quick;
        self->inHand.clear();
        --m_activeWorkers;
        if (m_keptBy == self) {
            m_keptBy = nullptr;
            if (!m_gathererBusy && !m_stopping) { // back to gathering, nobody woken
                m_gathererBusy = true;
                m_gatherer = self;
                continue;
            }
        }
        ++m_idleWorkers;
        idle = true;
    }
    if (idle)
        --m_idleWorkers;
    if (m_gatherer == self) { // stopped before it gathered
        m_gathererBusy = false;
        m_gatherer = nullptr;
    }
    --m_workerCount;
    self->finished = true;
    m_changed.notify_all();
    m_work.notify_all();
}

std::optional<RawBatchResult> WorkerPool::Impl::callHandler(std::vector<QByteArray> &data, QString *error)
{
    const qsizetype count = qsizetype(data.size());
    if (!m_handler)
        return RawBatchResult();  // a queue nobody consumes (Gitea: dummy for a nil handler)
    QString what;
    try {
        return m_handler(data);
    } catch (const std::exception &e) {
        what = QString::fromUtf8(e.what());
    } catch (...) {
        what = QStringLiteral("an unknown exception");
    }
    qCCritical(lcQueue).noquote() << "queue" << m_name << ": handler threw on a batch of" << count
                                  << "item(s):" << what;
    if (error)
        *error = what;
    m_failed += count;
    return std::nullopt;  // not retried: a poison batch would loop forever
}

void WorkerPool::Impl::ackBounded(const std::vector<PoppedItem> &items, const char *when)
{
    if (items.empty())
        return;
    // Only a remote backend can wait; a local ack needs no deadline (one less timer per batch).
    std::optional<CancelSource> bounded;
    if (!m_base->isLocal())
        bounded.emplace(CancelSource::withTimeout(CancelToken(), m_timing.pushBlockTime));
    if (Status acked = m_base->ack(bounded ? bounded->token() : CancelToken(), items); !acked) {
        m_ackFailed += qint64(items.size());
        qCWarning(lcQueue).noquote() << "queue" << m_name << ":" << when << ": acknowledging" << items.size()
                                     << "item(s) failed (they may be delivered again):" << acked.message();
    }
}

SteadyClock::duration WorkerPool::Impl::handleBatch(std::vector<PoppedItem> batch)
{
    std::vector<QByteArray> data;
    data.reserve(batch.size());
    for (const PoppedItem &item : batch)
        data.push_back(item.data);
    const SteadyClock::time_point began = SteadyClock::now();
    const std::optional<RawBatchResult> outcome = callHandler(data);
    const SteadyClock::duration handling = SteadyClock::now() - began;
    const RawBatchResult result = outcome.value_or(RawBatchResult());
    m_corrupt += result.corrupt;
    if (outcome) {
        m_handled += std::max<qint64>(0, qint64(batch.size()) - qint64(result.unhandled.size()) - result.corrupt);
        m_failed += qint64(result.unhandled.size());
    }

    if (!result.unhandled.empty() && result.unhandled.size() == batch.size() && !m_flushing &&
        m_timing.unhandledBackoff.count() > 0) {
        qCWarning(lcQueue).noquote() << "queue" << m_name << ": a batch of" << batch.size()
                                     << "item(s) came back unhandled; backing off" << m_timing.unhandledBackoff.count()
                                     << "ms";
        CancelToken run;
        {
            std::lock_guard lock(m_mutex);
            run = m_runToken;
        }
        run.sleepFor(m_timing.unhandledBackoff);
    }

    std::vector<PoppedItem> done = std::move(batch);
    // One deadline for all of them, not the run token: at shutdown it is already cancelled
    // (seed 000 §10.3.5). So a batch returns within pushBlockTime however many came back.
    std::optional<CancelSource> limit;
    if (!result.unhandled.empty())
        limit.emplace(CancelSource::withTimeout(CancelToken(), m_timing.pushBlockTime));
    for (const QByteArray &item : result.unhandled) {
        const Status pushed = m_base->pushItem(limit->token(), item);
        if (pushed || isAlreadyInQueue(pushed))
            continue;
        // Keep the original in flight instead: it comes back after a restart.
        const auto original =
            std::find_if(done.begin(), done.end(), [&](const PoppedItem &p) { return p.data == item; });
        if (original != done.end())
            done.erase(original);
        qCCritical(lcQueue).noquote() << "queue" << m_name
                                      << ": could not push an unhandled item back:" << pushed.message();
    }
    ackBounded(done, "after handling");
    return handling;
}

void WorkerPool::Impl::serveFlush(std::unique_lock<std::mutex> &lock, const std::shared_ptr<FlushRequest> &request)
{
    if (request->discard) {
        lock.unlock();
        const Result<qint64> removed = m_base->removeAll(m_runToken);
        lock.lock();
        request->result = removed.status();
        request->done = true;
        m_changed.notify_all();
        return;
    }

    m_flushing = true;
    int emptyPolls = 0;
    Status result;
    while (!request->abandoned && !m_runToken.isCancelled()) {
        const CancelToken run = m_runToken;
        lock.unlock();
        Result<std::vector<PoppedItem>> popped =
            m_base->popItems(run, m_batchLength, SteadyClock::now() + m_timing.flushPoll);
        if (popped && !popped->empty()) {
            handleBatch(std::move(popped).value());
            lock.lock();
            emptyPolls = 0;
            continue;
        }
        if (!popped) {
            lock.lock();
            result = popped.status();
            break;
        }
        const Result<qint64> length = m_base->len(run);
        lock.lock();
        // Drained = two consecutive empty polls with nothing queued and no worker busy.
        if (length && *length == 0 && m_activeWorkers == 0)
            ++emptyPolls;
        else
            emptyPolls = 0;
        if (emptyPolls >= 2)
            break;
    }
    m_flushing = false;
    request->result = result;
    request->done = true;
    m_changed.notify_all();
}

Status WorkerPool::Impl::push(const CancelToken &cancel, const QByteArray &data)
{
    if (m_immediate) {
        std::vector<QByteArray> batch{data};
        m_pushed += 1;
        QString thrown;
        const std::optional<RawBatchResult> result = callHandler(batch, &thrown);
        if (!result)
            return Status::internal(QStringLiteral("queue %1: the handler threw: %2").arg(m_name, thrown));
        m_corrupt += result->corrupt;
        m_handled += std::max<qint64>(0, 1 - qint64(result->unhandled.size()) - result->corrupt);
        m_failed += qint64(result->unhandled.size());
        if (!result->unhandled.empty())
            return Status::unavailable(QStringLiteral("queue %1: the handler returned the item unhandled").arg(m_name));
        if (result->corrupt > 0)
            return Status::invalidArgument(QStringLiteral("queue %1: the item could not be decoded").arg(m_name));
        return Status::ok();
    }
    Status pushed = m_base->pushItem(cancel, data);
    if (pushed)
        ++m_pushed;
    return pushed;
}

Status WorkerPool::Impl::pushMany(const CancelToken &cancel, const std::vector<QByteArray> &items)
{
    if (m_immediate) {
        qsizetype handled = 0;
        for (const QByteArray &item : items) {
            if (Status pushed = push(cancel, item); !pushed)
                return Status(
                    pushed.code(),
                    pushed.message() + QStringLiteral(" (%1 of %2 item(s) handled)").arg(handled).arg(items.size()));
            ++handled;
        }
        return Status::ok();
    }
    Status pushed = m_base->pushItems(cancel, items);
    if (pushed)
        m_pushed += qint64(items.size());
    return pushed;
}

Result<bool> WorkerPool::Impl::has(const CancelToken &cancel, const QByteArray &data)
{
    return m_base->hasItem(cancel, data);
}

Status WorkerPool::Impl::flush(const CancelToken &cancel, std::chrono::milliseconds timeout)
{
    auto request = std::make_shared<FlushRequest>();
    request->discard = timeout.count() < 0;
    std::unique_lock lock(m_mutex);
    if (!m_running)
        return Status::unavailable(QStringLiteral("queue %1 is not running").arg(m_name));
    m_flushRequests.push_back(request);
    wakeDispatcher();
    ensureGatherer(); // every worker busy with a batch: one more serves the flush, when allowed
    CancelSource limit = request->discard ? CancelSource(cancel) : CancelSource(cancel, SteadyClock::now() + timeout);
    limit.token().wait(m_changed, lock, [&] { return request->done; });
    if (request->done)
        return request->result;
    request->abandoned = true;
    if (cancel.isCancelled())
        return cancel.cause();
    return Status::deadlineExceeded(
        QStringLiteral("flushing queue %1 did not finish within %2 ms").arg(m_name).arg(timeout.count()));
}

Result<std::vector<InFlightItem>> WorkerPool::Impl::inFlight(const CancelToken &cancel, int limit)
{
    std::vector<InFlightItem> items;
    {
        std::lock_guard lock(m_mutex);
        for (const Worker &worker : m_workers) {
            for (const QByteArray &data : worker.inHand) {
                if (qint64(items.size()) < limit)
                    items.push_back(InFlightItem{data, worker.since, QStringLiteral("worker %1").arg(worker.number)});
            }
        }
        // Taken from the backend, not yet handled: the batch being gathered (in the backend's
        // in-flight area), held by the worker that will handle it.
        if (m_gathering && m_gatherer)
            for (const PoppedItem &item : *m_gathering) {
                if (qint64(items.size()) < limit)
                    items.push_back(InFlightItem{item.data, QDateTime(),
                                                 QStringLiteral("worker %1, gathering a batch").arg(m_gatherer->number)});
            }
    }
    if (qint64(items.size()) >= limit)
        return items;
    Result<std::vector<InFlightItem>> elsewhere = m_base->heldElsewhere(cancel, limit - int(items.size()));
    if (!elsewhere)
        return elsewhere.status();
    items.insert(items.end(), elsewhere->begin(), elsewhere->end());
    return items;
}

Result<qint64> WorkerPool::Impl::removeAll(const CancelToken &cancel)
{
    Result<qint64> removed = m_base->removeAll(cancel);
    if (removed)
        sampleLength(cancel);
    return removed;
}

void WorkerPool::Impl::setMaxWorkers(int maxWorkers)
{
    std::lock_guard lock(m_mutex);
    m_maxWorkers = maxWorkers;
    ensureGatherer(); // every worker busy: one more gathers the next batch now
    m_changed.notify_all();
}

Status WorkerPool::Impl::pause(const CancelToken &cancel)
{
    std::unique_lock lock(m_mutex);
    m_paused = true;
    if (!m_gathererBusy)
        m_pauseApplied = true; // nobody holds items to put back: the next gatherer will see the pause
    wakeDispatcher();
    if (!cancel.wait(m_changed, lock, [this] { return m_pauseApplied || !m_running || !m_paused; }))
        return Status(cancel.cause().code(),
                      QStringLiteral("queue %1 is pausing; it had not put back what it held yet: %2")
                          .arg(m_name, cancel.cause().message()));
    return Status::ok();
}

void WorkerPool::Impl::resume()
{
    std::lock_guard lock(m_mutex);
    m_paused = false;
    m_pauseApplied = false;
    wakeDispatcher();
}

bool WorkerPool::Impl::isPaused() const
{
    std::lock_guard lock(m_mutex);
    return m_paused;
}

bool WorkerPool::Impl::waitUntilRunning(const CancelToken &cancel)
{
    std::unique_lock lock(m_mutex);
    return cancel.wait(m_changed, lock, [this] { return m_running; });
}

bool WorkerPool::Impl::isRunning() const
{
    std::lock_guard lock(m_mutex);
    return m_running;
}

QueueStats WorkerPool::Impl::stats() const
{
    QueueStats stats;
    stats.name = m_name;
    stats.type = m_base->type();
    stats.unique = m_base->isUnique();
    stats.batchLength = m_batchLength;
    stats.capacity = m_capacity;
    {
        std::lock_guard lock(m_mutex);
        stats.workers = m_workerCount;
        // A gatherer with nothing in hand yet is what Gitea's dispatcher is, not a worker — unless
        // it is the last one.
        if (m_gathererBusy && (!m_gathering || m_gathering->empty()) && m_workerCount > 1)
            --stats.workers;
        stats.activeWorkers = m_activeWorkers;
        stats.maxWorkers = m_maxWorkers;
        stats.paused = m_paused;
    }
    stats.pushedTotal = m_pushed.load();
    stats.handledTotal = m_handled.load();
    stats.failedTotal = m_failed.load();
    stats.corruptTotal = m_corrupt.load() + m_base->corruptDropped();
    stats.ackFailedTotal = m_ackFailed.load();
    if (m_base->isLocal()) {
        const Result<qint64> length = m_base->len(CancelToken());  // a mutex, no network
        stats.length = length ? *length : -1;
        stats.lengthSampledAt = QDateTime::currentDateTimeUtc();
    } else {
        stats.length = m_sampledLength.load();
        const qint64 at = m_sampledAtMs.load();
        if (at > 0)
            stats.lengthSampledAt = QDateTime::fromMSecsSinceEpoch(at, Qt::UTC);
    }
    return stats;
}

void WorkerPool::Impl::sampleLength(const CancelToken &cancel)
{
    if (m_base->isLocal())
        return;
    const Result<qint64> length = m_base->len(cancel);
    m_sampledLength = length ? *length : -1;
    m_sampledAtMs = QDateTime::currentMSecsSinceEpoch();
}

// The public face: every call goes to the implementation.

WorkerPool::WorkerPool(QString name, std::unique_ptr<BaseQueue> base, RawBatchHandler handler, int batchLength,
                       int maxWorkers, int capacity, QueueTiming timing)
    : d(std::make_unique<Impl>(std::move(name), std::move(base), std::move(handler), batchLength, maxWorkers, capacity,
                               timing))
{}
WorkerPool::~WorkerPool() = default;
const QString &WorkerPool::name() const
{
    return d->m_name;
}
BaseQueue &WorkerPool::base()
{
    return *d->m_base;
}
void WorkerPool::run(const CancelToken &cancel)
{
    d->run(cancel);
}
Status WorkerPool::push(const CancelToken &cancel, const QByteArray &data)
{
    return d->push(cancel, data);
}
Status WorkerPool::pushMany(const CancelToken &cancel, const std::vector<QByteArray> &items)
{
    return d->pushMany(cancel, items);
}
Result<bool> WorkerPool::has(const CancelToken &cancel, const QByteArray &data)
{
    return d->has(cancel, data);
}
Status WorkerPool::flush(const CancelToken &cancel, std::chrono::milliseconds timeout)
{
    const SteadyClock::time_point until = SteadyClock::now() + timeout;
    Status flushed = d->flush(cancel, timeout);
    Settle settle;
    {
        std::lock_guard lock(d->m_mutex);
        settle = d->m_settle;
    }
    if (!flushed || timeout.count() < 0 || !settle)
        return flushed;
    return settle(cancel, until);
}

void WorkerPool::setSettle(Settle settle)
{
    std::lock_guard lock(d->m_mutex);
    d->m_settle = std::move(settle);
}
Result<qint64> WorkerPool::removeAll(const CancelToken &cancel)
{
    return d->removeAll(cancel);
}

Result<std::vector<PeekedItem>> WorkerPool::peek(const CancelToken &cancel, qint64 offset, int limit)
{
    return d->m_base->peek(cancel, offset, limit);
}

Result<std::vector<InFlightItem>> WorkerPool::inFlight(const CancelToken &cancel, int limit)
{
    return d->inFlight(cancel, limit);
}
void WorkerPool::setMaxWorkers(int maxWorkers)
{
    d->setMaxWorkers(maxWorkers);
}
Status WorkerPool::pause(const CancelToken &cancel)
{
    return d->pause(cancel);
}
void WorkerPool::resume()
{
    d->resume();
}
bool WorkerPool::isPaused() const
{
    return d->isPaused();
}
bool WorkerPool::isRunning() const
{
    return d->isRunning();
}
bool WorkerPool::waitUntilRunning(const CancelToken &cancel)
{
    return d->waitUntilRunning(cancel);
}
QueueStats WorkerPool::stats() const
{
    return d->stats();
}
void WorkerPool::sampleLength(const CancelToken &cancel)
{
    d->sampleLength(cancel);
}

}  // namespace Switchyard
