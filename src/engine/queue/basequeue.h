#pragma once

#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Switchyard {

struct QueueSettings;

// The timing constants of the queue layer (seed 000 §10.3.2). Production uses the defaults; tests
// shorten them. Every value is documented with why it has it.
struct QueueTiming
{
    // A push to a full queue waits this long, then fails with DeadlineExceeded ("queue full"), so
    // no caller blocks forever (Gitea's pushBlockTime).
    std::chrono::milliseconds pushBlockTime{5000};
    // Redis push/pop retry backoff after a failure: doubles from begin up to upper.
    std::chrono::milliseconds backoffBegin{50};
    std::chrono::milliseconds backoffUpper{2000};
    // Redis at creation: PING this often, this far apart (Redis may start after us).
    int connectAttempts = 10;
    std::chrono::milliseconds connectInterval{1000};
    // LevelDB open: retried while another process still holds the lock.
    int levelOpenAttempts = 10;
    std::chrono::milliseconds levelOpenInterval{1000};
    // LevelDB pop: a popper short of items polls this long for a pusher to publish them before it
    // sleeps until woken. Waking a sleeping thread costs the pusher more than a LevelDB write on a
    // small virtual machine (#22, docs/queues.md); 0 sleeps at once.
    std::chrono::microseconds levelPopSpin{1000};
    // The poll sleeps in naps this long: a timed sleep, which no pusher has to wake, and which
    // leaves the core to the pusher's kernel work and LevelDB's compaction (#22: 500 – 1 000 µs
    // measured best, 100 µs 4 – 5 points lower). 0: it yields in a loop instead.
    std::chrono::microseconds levelPopNap{500};
    // LevelDB: the newest waiting items, up to about this many bytes per queue, are kept in memory
    // too, and a pop takes them from there instead of reading them back (#22). Older items, and
    // every item after a restart, are read from LevelDB. 0: always read.
    qsizetype levelWindowBytes = 4 << 20;
    // LevelDB after a failed write (a full disk): the queue writes nothing more until it has
    // reopened its database, which a write, pop or ack attempts at most this often, once the disk
    // has room for LevelDB's recovery (a failed attempt costs a failed fallocate of the logs'
    // size). 1 s: a disk an operator freed is written to again within a second.
    std::chrono::milliseconds levelReopenInterval{1000};
    // Redis in-flight lists: an instance whose heartbeat key is older than heartbeatTtl is dead
    // and its in-flight items go back to the queue. Refreshed every heartbeatInterval.
    std::chrono::milliseconds heartbeatTtl{30000};
    std::chrono::milliseconds heartbeatInterval{10000};

    // Worker pool (seed 000 §10.3.2).
    std::chrono::milliseconds batchDebounce{100};    // a partial batch waits at most this long
    std::chrono::milliseconds workerIdle{1000};      // an idle worker exits (the last one stays)
    std::chrono::milliseconds unhandledBackoff{1000}; // pause after a batch that was wholly unhandled
    std::chrono::milliseconds shutdownTimeout{2000};  // shutdown must finish in predictable time
    std::chrono::milliseconds flushPoll{20};          // flush: two empty polls this far apart = drained
    // While handlers are quick (the last one ran under quickHandler), the gatherer of a local
    // queue handles its batch and gathers on instead of waking another worker: the wake-up costs
    // more than such a handler (#22). A handler that runs longer than handOffAfter passes the
    // role on as before (docs/queues.md "Workers").
    std::chrono::microseconds quickHandler{20};
    std::chrono::microseconds handOffAfter{2000};
    // Statistics: a remote backend's length is read this often in the background (one sampler
    // thread for all queues), so listing queues never waits on Redis.
    std::chrono::milliseconds statsInterval{1000};
};

// An item taken from a base queue. Until it is acknowledged it sits in the backend's in-flight
// area, so a crash returns it to the queue instead of losing it.
struct PoppedItem
{
    QByteArray data;
    quint64 ref = 0; // backend bookkeeping (LevelDB: the item's sequence key)
};

// A waiting item as an operator sees it (peek: nothing is consumed).
struct PeekedItem
{
    qint64 position = 0;   // 0: the next to be handed out
    QByteArray data;
    QDateTime enqueuedAt;  // invalid when the backend does not keep it
};

// An item taken for handling and not yet acknowledged.
struct InFlightItem
{
    QByteArray data;
    QDateTime since;       // invalid when not known (another instance's, or a batch being gathered)
    QString holder;        // this process: "worker 2", or "worker 2, gathering a batch"
    QString instance;      // another instance's id; empty: this process
};

// The storage layer of a queue: bytes in, bytes out (seed 000 §10.2.1).
//
// Contract for callers of pushItem():
//   ok                  accepted; it will be delivered at least once
//   AlreadyExists       unique queue: an equal item is already queued ("AlreadyInQueue") — swallow
//   DeadlineExceeded    the queue stayed full for pushBlockTime ("queue full"): log, raise LENGTH
//   Cancelled           the caller's token was cancelled first
//   Unavailable/other   backend failure (Redis down, disk error)
//
// Unique is best-effort: an item popped for handling can be pushed again while it is handled.
// Thread-safety: every method may be called from any thread concurrently.
class BaseQueue
{
public:
    virtual ~BaseQueue() = default;

    virtual QString type() const = 0; // "channel", "level", "redis", "dummy"
    virtual bool isUnique() const = 0;

    virtual Status pushItem(const CancelToken &cancel, const QByteArray &data) = 0;
    // Pushes several items in one go (Redis: one round trip). Items a unique queue already holds
    // are skipped, as callers swallow AlreadyInQueue anyway. On failure the items before the
    // failing one may be queued; the message says how many were accepted.
    virtual Status pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items);
    // Takes 1..max items, moving them to the in-flight area. Blocks while fewer than `atLeast`
    // items wait (a gatherer filling a batch sleeps until it is full instead of waking per
    // item), until `until` (then returns what there is, maybe nothing), cancellation (the token's
    // cause) or close() (Cancelled, "queue closed"). Redis treats every atLeast as 1.
    virtual Result<std::vector<PoppedItem>> popItems(const CancelToken &cancel, int max,
                                                     std::optional<SteadyClock::time_point> until, int atLeast = 1) = 0;
    // The handler is done with these items: remove them from the in-flight area. Redis retries a
    // failure until `cancel` fires; callers bound it (the worker pool: pushBlockTime). An item
    // whose ack failed stays in flight and is retried by the backend, never re-queued while this
    // instance lives; a crash redelivers it (at-least-once).
    virtual Status ack(const CancelToken &cancel, const std::vector<PoppedItem> &items) = 0;
    // Puts in-flight items back at the front of the queue (pause, shutdown). A unique queue drops
    // a released item when an equal one was queued meanwhile. Bounded like ack().
    virtual Status release(const CancelToken &cancel, const std::vector<PoppedItem> &items) = 0;

    // Unique queues: whether an equal item is queued. Simple queues: always false.
    virtual Result<bool> hasItem(const CancelToken &cancel, const QByteArray &data) = 0;
    // Items waiting (not counting in-flight ones).
    virtual Result<qint64> len(const CancelToken &cancel) = 0;
    // Deletes every waiting item; returns how many. In-flight items are not touched.
    virtual Result<qint64> removeAll(const CancelToken &cancel) = 0;
    // Up to `limit` waiting items from `offset` (0 = the head), consuming nothing; a snapshot that
    // may be stale the moment it returns.
    virtual Result<std::vector<PeekedItem>> peek(const CancelToken &cancel, qint64 offset, int limit) = 0;
    // Items other instances took from this queue and have not acknowledged (Redis); what this
    // process holds the worker pool knows better. Local backends: none.
    virtual Result<std::vector<InFlightItem>> heldElsewhere(const CancelToken &, int) { return std::vector<InFlightItem>(); }
    // Wakes blocked pops; later pops and pushes fail. Data stays in persistent backends.
    virtual void close() = 0;

    // Whether the backend lives in this process (channel, level, dummy): len() and ack() never
    // wait on a network, so statistics read the length directly and acks need no deadline. A
    // remote backend's length is sampled in the background instead.
    virtual bool isLocal() const { return true; }
    // Stored items the backend found unreadable and dropped (LevelDB: lost to a damaged log).
    virtual qint64 corruptDropped() const { return 0; }
};

// Where a backend reports damage an operator must see (the engine: a system notice). Called on
// the thread that opens the queue, or that reopens it after a failed write with the queue's lock
// held: it must not call the queue.
using QueueDamageReporter = std::function<void(const QString &message)>;

struct BaseQueueOptions
{
    QueueTiming timing;
    // Identifies this process among instances sharing a Redis (in-flight list ownership).
    QString instanceId;
    // Called when stored items were lost to damage (LevelDB recovering a damaged log). Logged
    // as critical whether or not it is set.
    QueueDamageReporter reportDamage;
};

// Creates the backend named by `settings.type` ("dummy"/"immediate" → dummy). Redis: connects
// and PINGs (connectAttempts × connectInterval); fails Unavailable when Redis never answers.
// LevelDB: opens DATADIR/<queue full name>, retrying while another process holds the lock.
Result<std::unique_ptr<BaseQueue>> createBaseQueue(const CancelToken &cancel, const QueueSettings &settings,
                                                   bool unique, const BaseQueueOptions &options);

// Error classes for callers (seed 000 §10.4.2).
inline bool isAlreadyInQueue(const Status &s) { return s.code() == Status::Code::AlreadyExists; }
inline bool isQueueFull(const Status &s) { return s.code() == Status::Code::DeadlineExceeded; }

} // namespace Switchyard
