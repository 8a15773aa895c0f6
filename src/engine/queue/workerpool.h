#pragma once

#include "queuestats.h"
#include "basequeue.h"

#include "engine/core/cancellation.h"

#include <QDateTime>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace Switchyard {

// What a batch handler returns: the items it could not handle (pushed again) and how many input
// items were undecodable (skipped, counted).
struct RawBatchResult
{
    std::vector<QByteArray> unhandled;
    qint64 corrupt = 0;
};
using RawBatchHandler = std::function<RawBatchResult(std::vector<QByteArray> &batch)>;

// The worker pool over a base queue (Gitea's WorkerPoolQueue, seed 000 §10.3), on bytes; the
// typed WorkerPoolQueue<T> wraps it. Rules:
// - items are batched up to batchLength; a partial batch is dispatched batchDebounce after its
//   first item (the timer is not reset by later items);
// - a batch goes to an idle worker; with none idle and fewer than maxWorkers (≤ 0: unbounded), a
//   worker is started; a worker idle for workerIdle exits, except the last one;
// - while handlers are quick (the last ran under quickHandler), a local queue's gatherer handles
//   its batch itself and gathers on; a handler running longer than handOffAfter (at most twice
//   that) passes the next batch on as above;
// - the handler returns the unhandled items, which are pushed again; when a whole batch comes back
//   unhandled the worker first waits unhandledBackoff (not while flushing); handler exceptions are
//   caught and logged and the batch counts as handled (no retry loop on a poison item);
// - items are acknowledged to the base queue only after the handler returned, so a crash
//   redelivers them (at-least-once; duplicates ≤ workers × batchLength);
// - shutdown (run()'s token cancelled): the batch being gathered goes back to the front of the
//   base queue, workers get shutdownTimeout to finish; with shutdownTimeout 0 the handler runs
//   once on the leftovers instead. Nothing is dropped silently.
// How (docs/queues.md "Workers"): there is no dispatcher thread. One worker at a time holds the
// gatherer's role — it pops the next batch (one buffer, one debounce, as Gitea's dispatcher) —
// then handles that batch itself while the role passes to an idle worker, or to a new one when
// none is idle and the maximum allows. A batch never changes threads; with every worker busy and
// the maximum reached, nobody gathers until one is free. stats().workers does not count a
// gatherer that holds nothing yet (that is the dispatcher's part), unless it is the only worker.
// Thread-safety: all public methods may be called from any thread. Threads: run() supervises (on
// a thread its caller owns: it joins workers that exit idle and leads the shutdown); workers are
// owned by the pool and joined by run() or the destructor.
class WorkerPool
{
public:
    WorkerPool(QString name, std::unique_ptr<BaseQueue> base, RawBatchHandler handler, int batchLength,
               int maxWorkers, int capacity, QueueTiming timing);
    ~WorkerPool(); // joins workers still running, then closes the base queue

    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    const QString &name() const;
    BaseQueue &base();

    // Starts the first worker and supervises; returns after `cancel` is cancelled and shutdown is complete.
    void run(const CancelToken &cancel);

    // Pushes to the base queue (errors of BaseQueue::pushItem). A dummy ("immediate") queue runs
    // the handler here and fails when it throws (Internal) or returns the item unhandled
    // (Unavailable), so the caller knows the item was not handled.
    Status push(const CancelToken &cancel, const QByteArray &data);
    // Several items in one go (BaseQueue::pushItems): for producers with many items at once.
    Status pushMany(const CancelToken &cancel, const std::vector<QByteArray> &items);
    Result<bool> has(const CancelToken &cancel, const QByteArray &data);

    // Drains every queued item through the handler before returning. A negative timeout discards
    // every queued item instead. DeadlineExceeded when not drained within `timeout`; Unavailable
    // when the pool is not running.
    Status flush(const CancelToken &cancel, std::chrono::milliseconds timeout);
    // For a handler that hands its items on and returns before they are done (webhook_sender's
    // delivery loop): a flush that drained the queue then waits for `settle` too, within the
    // rest of its timeout. Set once, before items flow.
    using Settle = std::function<Status(const CancelToken &cancel, SteadyClock::time_point until)>;
    void setSettle(Settle settle);
    // Deletes every waiting item; returns how many. On a paused queue the count is exact (pause()
    // has put back whatever the gatherer held); on a running one, batches already taken for
    // handling are not counted and are handled.
    Result<qint64> removeAll(const CancelToken &cancel);
    // Up to `limit` waiting items from `offset`, consuming nothing (BaseQueue::peek).
    Result<std::vector<PeekedItem>> peek(const CancelToken &cancel, qint64 offset, int limit);
    // Up to `limit` items taken and not yet acknowledged: in this pool's workers' hands (since
    // when, which worker), the batch a worker is gathering, then other instances' (Redis).
    Result<std::vector<InFlightItem>> inFlight(const CancelToken &cancel, int limit);

    // Live: fewer workers take effect as workers go idle; more at the next dispatch.
    void setMaxWorkers(int maxWorkers);
    // A paused queue keeps accepting pushes and hands nothing to workers. Returns once the
    // gatherer has put back the items it held (at once when nobody gathers; a flush in progress
    // finishes first) or when `cancel` fires; batches already with workers finish.
    Status pause(const CancelToken &cancel);
    void resume();
    bool isPaused() const;
    bool isRunning() const;
    // Blocks until run() has started; false when `cancel` fired first.
    bool waitUntilRunning(const CancelToken &cancel);

    // Never waits on the network: see QueueStats::lengthSampledAt.
    QueueStats stats() const;
    // Reads the base queue's length for stats() (the sampler calls it for remote backends).
    void sampleLength(const CancelToken &cancel);

private:
    struct Impl; // the workers, the gatherer's role and their state (workerpool.cpp)
    const std::unique_ptr<Impl> d;
};

} // namespace Switchyard
