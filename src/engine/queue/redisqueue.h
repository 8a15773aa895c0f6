#pragma once

#include "basequeue.h"

#include "engine/redis/redisconnection.h"

#include <QHash>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace Switchyard {

// Queue on a Redis LIST `<name>_queue` with a SET `<name>_queue_unique` for unique queues — the key
// names of Gitea's layout (seed 000 §10.2.4, §10.5.4). Improvements on Gitea:
// - the unique push (length check, SADD, RPUSH) is one Lua script, so no phantom set member can
//   remain when the push fails halfway;
// - at-least-once: a pop moves items (LMOVE, in a script with the SREM) into this instance's
//   in-flight list `<name>_queue:inflight:<instance>`; ack removes them. Each instance refreshes a
//   heartbeat key `<name>_queue:heartbeat:<instance>`; the in-flight list of an instance whose
//   heartbeat expired is pushed back to the front of the queue by any live instance.
// - RemoveAll deletes the list before the set ("better duplicates than losses").
// Connection failures are retried with exponential backoff (backoffBegin → backoffUpper); a push
// gives up after pushBlockTime. Thread-safe: each call takes a connection from a small pool.
class RedisQueue final : public BaseQueue
{
public:
    struct Keys
    {
        QByteArray list, set, inFlightPrefix, heartbeatPrefix, instances;
    };

    // Connects (PING connectAttempts × connectInterval), registers this instance, reclaims the
    // in-flight items of dead instances and starts the heartbeat thread.
    static Result<std::unique_ptr<RedisQueue>> open(const CancelToken &cancel, QString name, const RedisAddress &address,
                                                    const QString &queueFullName, const QString &setFullName,
                                                    int capacity, bool unique, QString instanceId, QueueTiming timing);
    ~RedisQueue() override; // stops and joins the heartbeat thread

    QString type() const override { return QStringLiteral("redis"); }
    bool isUnique() const override { return m_unique; }
    Status pushItem(const CancelToken &cancel, const QByteArray &data) override;
    // One pipelined round trip for the whole batch (each item still its own atomic script).
    Status pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items) override;
    Result<std::vector<PoppedItem>> popItems(const CancelToken &cancel, int max,
                                             std::optional<SteadyClock::time_point> until, int atLeast = 1) override;
    Status ack(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Status release(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Result<bool> hasItem(const CancelToken &cancel, const QByteArray &data) override;
    Result<qint64> len(const CancelToken &cancel) override;
    Result<qint64> removeAll(const CancelToken &cancel) override;
    Result<std::vector<PeekedItem>> peek(const CancelToken &cancel, qint64 offset, int limit) override;
    // Other live or dead instances' in-flight lists (LRANGE each, up to `limit` items in all).
    Result<std::vector<InFlightItem>> heldElsewhere(const CancelToken &cancel, int limit) override;
    void close() override;
    bool isLocal() const override { return false; }

    const Keys &keys() const { return m_keys; }
    // Returns dead instances' in-flight items to the queue now; how many were moved.
    Result<qint64> reclaimDeadInstances(const CancelToken &cancel);

private:
    RedisQueue(QString name, RedisAddress address, Keys keys, int capacity, bool unique, QString instanceId,
               QueueTiming timing);

    Status heartbeat(const CancelToken &cancel);
    // After a pop whose reply was lost, the script may have moved items into our in-flight list
    // that nobody holds: put every in-flight item that is not held back in front of the queue.
    Status reconcileInFlight(const CancelToken &cancel);
    void forgetHeld(const std::vector<PoppedItem> &items); // requires m_mutex
    // Acks that failed earlier, retried before the next reconciliation trusts the in-flight list.
    Status retryUnacked(const CancelToken &cancel);
    void heartbeatLoop();
    QByteArray inFlightKey() const;
    // Runs `fn(connection)` until it succeeds, the token is cancelled or `giveUpAt` passes, backing
    // off between failures.
    template<typename Fn>
    auto withRetry(const CancelToken &cancel, std::optional<SteadyClock::time_point> giveUpAt, const char *what, Fn fn)
        -> decltype(fn(std::declval<RedisConnection &>()));

    const QString m_name;
    const Keys m_keys;
    const qint64 m_capacity;
    const bool m_unique;
    const QString m_instanceId;
    const QueueTiming m_timing;

    RedisPool m_pool;

    std::mutex m_mutex;
    std::condition_variable_any m_pushed; // local pushes wake local pollers
    quint64 m_pushCount = 0;              // guarded by m_mutex
    bool m_closed = false;                // guarded by m_mutex
    QHash<QByteArray, int> m_held;        // guarded by m_mutex; popped, not yet acked or released
    QList<QByteArray> m_unacked;          // guarded by m_mutex; handled, but their ack failed (still held)
    bool m_reconcile = false;             // guarded by m_mutex; a pop's outcome is unknown

    std::mutex m_popMutex; // pops and reconciliation run one at a time

    CancelSource m_stop;      // cancelled by close(): stops the heartbeat and blocked calls
    std::thread m_heartbeat;  // joined by close()/destructor
};

} // namespace Switchyard
