#pragma once

// The queue subsystem's public header (SPEC §2): typed worker-pool queues and their manager.

#include "queuecodec.h"
#include "queuestats.h"
#include "workerpool.h"

#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace Switchyard {

class EngineConfig;
class Lifecycle;

namespace Detail {
// Logs an item of `queueName` that could not be decoded (its first 100 bytes, escaped).
void logUndecodable(const QString &queueName, const QByteArray &bytes);
} // namespace Detail

// A typed queue (Gitea's WorkerPoolQueue[T]): items are stored as JSON (QueueCodec<T>), handled
// in batches by the pool's workers. Thread-safe; shared by producers.
template<typename T>
class WorkerPoolQueue
{
public:
    // Returns the items it could not handle; they are pushed again (after a 1 s pause when the
    // whole batch failed). Exceptions are caught and logged; the batch then counts as handled.
    using Handler = std::function<std::vector<T>(std::vector<T> items)>;

    explicit WorkerPoolQueue(std::shared_ptr<WorkerPool> pool) : m_pool(std::move(pool)) {}

    Status push(const CancelToken &cancel, const T &item) { return m_pool->push(cancel, QueueCodec<T>::encode(item)); }
    Result<bool> has(const CancelToken &cancel, const T &item) { return m_pool->has(cancel, QueueCodec<T>::encode(item)); }
    Status flush(const CancelToken &cancel, std::chrono::milliseconds timeout) { return m_pool->flush(cancel, timeout); }
    QueueStats stats() const { return m_pool->stats(); }
    WorkerPool &pool() { return *m_pool; }

    // Decodes a batch, calls `handler`, encodes what it returns. Undecodable items are skipped,
    // counted and logged (SPEC §2.8).
    static RawBatchHandler rawHandler(QString queueName, Handler handler)
    {
        return [queueName = std::move(queueName), handler = std::move(handler)](std::vector<QByteArray> &batch) {
            RawBatchResult result;
            std::vector<T> items;
            items.reserve(batch.size());
            for (const QByteArray &bytes : batch) {
                std::optional<T> item = QueueCodec<T>::decode(bytes);
                if (item) {
                    items.push_back(std::move(*item));
                } else {
                    ++result.corrupt;
                    Detail::logUndecodable(queueName, bytes);
                }
            }
            if (items.empty())
                return result;
            for (const T &unhandled : handler(std::move(items)))
                result.unhandled.push_back(QueueCodec<T>::encode(unhandled));
            return result;
        };
    }

private:
    std::shared_ptr<WorkerPool> m_pool;
};

struct QueueManagerOptions
{
    QueueTiming timing;
    QString instanceId; // this process among instances sharing Redis; generated when empty
    QueueDamageReporter reportDamage; // the engine: a system notice
};

// Every queue of the process with an increasing qid (Gitea's queue manager, SPEC §2.5). Creates
// queues from [queue] / [queue.<name>] (SPEC §2.6) and runs each under the lifecycle, so queues
// created first stop last. Thread-safe. Must outlive no one: pools stay alive while their
// dispatcher thread runs. Threads: the lifecycle runs one "queue statistics" sampler that reads
// remote backends' lengths every QueueTiming::statsInterval (list() and stats() never touch the
// network).
class QueueManager
{
public:
    QueueManager(const EngineConfig &config, Lifecycle &lifecycle, QueueManagerOptions options = {});
    ~QueueManager();

    const QString &instanceId() const { return m_options.instanceId; }

    template<typename T>
    Result<std::shared_ptr<WorkerPoolQueue<T>>> createSimpleQueue(const CancelToken &cancel, const QString &name,
                                                                  typename WorkerPoolQueue<T>::Handler handler)
    {
        return create<T>(cancel, name, false, std::move(handler));
    }
    template<typename T>
    Result<std::shared_ptr<WorkerPoolQueue<T>>> createUniqueQueue(const CancelToken &cancel, const QString &name,
                                                                  typename WorkerPoolQueue<T>::Handler handler)
    {
        return create<T>(cancel, name, true, std::move(handler));
    }

    // Creates the base queue from the settings of `name` (dummy when `handler` is empty), starts
    // the pool under the lifecycle, returns it. AlreadyExists for a name already managed.
    Result<std::shared_ptr<WorkerPool>> createPool(const CancelToken &cancel, const QString &name, bool unique,
                                                   RawBatchHandler handler);

    std::vector<QueueStats> list() const;
    std::shared_ptr<WorkerPool> find(qint64 qid) const;
    std::shared_ptr<WorkerPool> findByName(const QString &name) const;
    Result<QueueStats> stats(qint64 qid) const;

    // Flushes every running queue within `timeout` in total; a negative timeout discards.
    Status flushAll(const CancelToken &cancel, std::chrono::milliseconds timeout);
    Result<qint64> removeAll(const CancelToken &cancel, qint64 qid);
    Status setMaxWorkers(qint64 qid, int maxWorkers);
    // Returns once the queue holds nothing back (WorkerPool::pause).
    Status pause(const CancelToken &cancel, qint64 qid);
    Status resume(qint64 qid);

private:
    void sampleLengths(const CancelToken &cancel); // the statistics sampler's loop
    template<typename T>
    Result<std::shared_ptr<WorkerPoolQueue<T>>> create(const CancelToken &cancel, const QString &name, bool unique,
                                                       typename WorkerPoolQueue<T>::Handler handler)
    {
        RawBatchHandler raw;
        if (handler)
            raw = WorkerPoolQueue<T>::rawHandler(name, std::move(handler));
        Result<std::shared_ptr<WorkerPool>> pool = createPool(cancel, name, unique, std::move(raw));
        if (!pool)
            return pool.status();
        return std::make_shared<WorkerPoolQueue<T>>(std::move(pool).value());
    }

    const EngineConfig &m_config;
    Lifecycle &m_lifecycle;
    QueueManagerOptions m_options;

    mutable std::mutex m_mutex;
    std::map<qint64, std::shared_ptr<WorkerPool>> m_pools; // guarded by m_mutex
    qint64 m_nextQid = 0;                                 // guarded by m_mutex
};

} // namespace Switchyard
