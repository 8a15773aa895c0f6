#include "queue.h"
#include "queuelogging.h"

#include "engine/core/instanceid.h"
#include "engine/core/lifecycle.h"
#include "engine/settings/config.h"

namespace Switchyard {

void Detail::logUndecodable(const QString &queueName, const QByteArray &bytes)
{
    qCWarning(lcQueue).noquote() << "queue" << queueName << ": skipped an undecodable item:"
                                 << QString::fromUtf8(bytes.left(100).toPercentEncoding(" {}[]:,\"'"));
}

QueueManager::QueueManager(const EngineConfig &config, Lifecycle &lifecycle, QueueManagerOptions options)
    : m_config(config), m_lifecycle(lifecycle), m_options(std::move(options))
{
    if (m_options.instanceId.isEmpty())
        m_options.instanceId = generateInstanceId();
    if (Status started = m_lifecycle.runWithCancel(QStringLiteral("queue statistics"),
                                                   [this](const CancelToken &cancel) { sampleLengths(cancel); });
        !started)
        qCWarning(lcQueue).noquote() << "queue statistics are not sampled:" << started.message();
}

void QueueManager::sampleLengths(const CancelToken &cancel)
{
    while (cancel.sleepFor(m_options.timing.statsInterval)) {
        std::vector<std::shared_ptr<WorkerPool>> pools;
        {
            std::lock_guard lock(m_mutex);
            for (const auto &[qid, pool] : m_pools)
                pools.push_back(pool);
        }
        for (const std::shared_ptr<WorkerPool> &pool : pools) {
            const CancelSource bounded(cancel, SteadyClock::now() + m_options.timing.statsInterval);
            pool->sampleLength(bounded.token());
        }
    }
}

QueueManager::~QueueManager() = default;

Result<std::shared_ptr<WorkerPool>> QueueManager::createPool(const CancelToken &cancel, const QString &name, bool unique,
                                                             RawBatchHandler handler)
{
    if (findByName(name))
        return Status::alreadyExists(QStringLiteral("queue %1 exists already").arg(name));
    Result<QueueSettings> settings = m_config.queueSettings(name);
    if (!settings)
        return settings.status();
    if (!handler) {
        qCDebug(lcQueue).noquote() << "queue" << name << "has no handler: using a dummy queue";
        settings->type = QStringLiteral("dummy");
    }
    BaseQueueOptions options;
    options.timing = m_options.timing;
    options.instanceId = m_options.instanceId;
    options.reportDamage = m_options.reportDamage;
    Result<std::unique_ptr<BaseQueue>> base = createBaseQueue(cancel, *settings, unique, options);
    if (!base)
        return base.status();

    auto pool = std::make_shared<WorkerPool>(name, std::move(base).value(), std::move(handler), settings->batchLength,
                                             settings->maxWorkers, settings->length, m_options.timing);
    qint64 qid = 0;
    {
        std::lock_guard lock(m_mutex);
        qid = ++m_nextQid;
        m_pools.emplace(qid, pool);
    }
    const Status started = m_lifecycle.runWithCancel(QStringLiteral("queue %1").arg(name),
                                                     [pool](const CancelToken &token) { pool->run(token); });
    if (!started) {
        std::lock_guard lock(m_mutex);
        m_pools.erase(qid);
        return started;
    }
    pool->waitUntilRunning(cancel); // so that flush and the admin actions find it running
    pool->sampleLength(cancel);     // the first listing shows a length
    qCInfo(lcQueue).noquote() << "queue" << name << "started:" << settings->type << (unique ? "unique" : "simple")
                              << "batch" << settings->batchLength << "max workers" << settings->maxWorkers;
    return pool;
}

std::vector<QueueStats> QueueManager::list() const
{
    std::vector<std::pair<qint64, std::shared_ptr<WorkerPool>>> pools;
    {
        std::lock_guard lock(m_mutex);
        pools.assign(m_pools.begin(), m_pools.end());
    }
    std::vector<QueueStats> result;
    result.reserve(pools.size());
    for (const auto &[qid, pool] : pools) {
        QueueStats stats = pool->stats();
        stats.qid = qid;
        result.push_back(std::move(stats));
    }
    return result;
}

std::shared_ptr<WorkerPool> QueueManager::find(qint64 qid) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_pools.find(qid);
    return it == m_pools.end() ? nullptr : it->second;
}

std::shared_ptr<WorkerPool> QueueManager::findByName(const QString &name) const
{
    std::lock_guard lock(m_mutex);
    for (const auto &[qid, pool] : m_pools) {
        if (pool->name() == name)
            return pool;
    }
    return nullptr;
}

static Status unknownQueue(qint64 qid)
{
    return Status::notFound(QStringLiteral("no queue with qid %1").arg(qid));
}

Result<QueueStats> QueueManager::stats(qint64 qid) const
{
    const std::shared_ptr<WorkerPool> pool = find(qid);
    if (!pool)
        return unknownQueue(qid);
    QueueStats stats = pool->stats();
    stats.qid = qid;
    return stats;
}

Status QueueManager::flushAll(const CancelToken &cancel, std::chrono::milliseconds timeout)
{
    std::vector<std::shared_ptr<WorkerPool>> pools;
    {
        std::lock_guard lock(m_mutex);
        for (const auto &[qid, pool] : m_pools)
            pools.push_back(pool);
    }
    const auto deadline = SteadyClock::now() + timeout;
    QStringList failures;
    for (const std::shared_ptr<WorkerPool> &pool : pools) {
        if (!pool->isRunning())
            continue;
        auto left = timeout.count() < 0 ? timeout
                                        : std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
        if (timeout.count() >= 0 && left.count() <= 0)
            left = std::chrono::milliseconds(1);
        if (Status flushed = pool->flush(cancel, left); !flushed) {
            if (flushed.code() == Status::Code::Cancelled && cancel.isCancelled())
                return flushed;
            failures.append(flushed.message());
            if (flushed.code() == Status::Code::DeadlineExceeded)
                return Status::deadlineExceeded(failures.join(QStringLiteral("; ")));
        }
    }
    if (!failures.isEmpty())
        return Status::unavailable(failures.join(QStringLiteral("; ")));
    return Status::ok();
}

Result<qint64> QueueManager::removeAll(const CancelToken &cancel, qint64 qid)
{
    const std::shared_ptr<WorkerPool> pool = find(qid);
    if (!pool)
        return unknownQueue(qid);
    return pool->removeAll(cancel);
}

Status QueueManager::setMaxWorkers(qint64 qid, int maxWorkers)
{
    const std::shared_ptr<WorkerPool> pool = find(qid);
    if (!pool)
        return unknownQueue(qid);
    pool->setMaxWorkers(maxWorkers);
    return Status::ok();
}

Status QueueManager::pause(const CancelToken &cancel, qint64 qid)
{
    const std::shared_ptr<WorkerPool> pool = find(qid);
    if (!pool)
        return unknownQueue(qid);
    return pool->pause(cancel);
}

Status QueueManager::resume(qint64 qid)
{
    const std::shared_ptr<WorkerPool> pool = find(qid);
    if (!pool)
        return unknownQueue(qid);
    pool->resume();
    return Status::ok();
}

} // namespace Switchyard
