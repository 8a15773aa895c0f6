#include "adminoperations.h"

#include "engine/core/version.h"
#include "engine/engine.h"

#include <QElapsedTimer>
#include <QStorageInfo>
#include <QUrl>

namespace Switchyard::Admin {

namespace {

// A connection string for display: the password replaced by "***".
QString withoutPassword(const QString &connStr)
{
    QUrl url(connStr);
    if (!url.isValid() || url.password().isEmpty())
        return connStr;
    url.setPassword(QStringLiteral("***"));
    return url.toString();
}

qint64 elapsedMs(const QElapsedTimer &timer)
{
    return timer.elapsed();
}

} // namespace

AdminOperations::AdminOperations(Engine &engine) : m_engine(engine) {}

InstanceInfo AdminOperations::instance() const
{
    const EngineConfig &config = m_engine.config();
    InstanceInfo info;
    info.version = QStringLiteral(SWITCHYARD_VERSION);
    info.instanceId = m_engine.instanceId();
    info.startedAt = m_engine.startedAt();
    info.configPath = config.configPath();
    info.dataPath = config.dataPath();
    info.dbType = config.database.type;
    if (Result<QueueSettings> common = config.queueSettings(QStringLiteral("common")))
        info.queueTypes.insert(QStringLiteral("common"), common->type);
    for (const QString &name : config.configuredQueueNames()) {
        if (Result<QueueSettings> settings = config.queueSettings(name))
            info.queueTypes.insert(name, settings->type);
    }
    info.cacheAdapter = config.cache.adapter;
    info.lockService = m_engine.locker().backend();
    info.pubsubType = config.websocket.pubsubType;
    return info;
}

std::vector<SelfCheckItem> AdminOperations::selfCheck(const CancelToken &cancel)
{
    std::vector<SelfCheckItem> items;

    const CacheTest cache = cacheTest();
    items.push_back({QStringLiteral("cache"), cache.ok && !cache.slow,
                     !cache.ok   ? cache.error
                     : cache.slow ? QStringLiteral("%1 cache test slow: %2 ms (threshold %3 ms)")
                                        .arg(m_engine.cache().adapter())
                                        .arg(cache.elapsedMs, 0, 'f', 1)
                                        .arg(cache.thresholdMs)
                                  : QStringLiteral("%1 cache answered in %2 ms")
                                        .arg(m_engine.cache().adapter())
                                        .arg(cache.elapsedMs, 0, 'f', 1),
                     qint64(cache.elapsedMs)});

    QElapsedTimer timer;
    timer.start();
    const Result<std::vector<LockRow>> held = m_engine.locker().list(cancel);
    items.push_back({QStringLiteral("locks"), held.isOk(),
                     held ? QStringLiteral("%1 locker answered; %2 held").arg(m_engine.locker().backend()).arg(held->size())
                          : held.status().message(),
                     elapsedMs(timer)});

    timer.restart();
    QStringList unreadable, paused;
    const std::vector<QueueRow> rows = queues();
    for (const QueueRow &row : rows) {
        if (row.length < 0)
            unreadable << row.name;
        if (row.paused)
            paused << row.name;
    }
    QString queueMessage = unreadable.isEmpty()
        ? QStringLiteral("%1 queues answered").arg(rows.size())
        : QStringLiteral("cannot read the length of: %1").arg(unreadable.join(QStringLiteral(", ")));
    if (!paused.isEmpty())
        queueMessage += QStringLiteral("; paused: %1").arg(paused.join(QStringLiteral(", ")));
    items.push_back({QStringLiteral("queues"), unreadable.isEmpty(), queueMessage, elapsedMs(timer)});

    timer.restart();
    const QStorageInfo storage(m_engine.config().dataPath());
    const qint64 available = storage.bytesAvailable();
    const qint64 total = storage.bytesTotal();
    // 1 GiB or 5 %: below either, LevelDB compactions and logs start to fail.
    const bool diskOk = storage.isValid() && available >= qMin<qint64>(qint64(1) << 30, total / 20);
    items.push_back({QStringLiteral("disk"), diskOk,
                     storage.isValid() ? QStringLiteral("%1 MiB free of %2 MiB in %3")
                                             .arg(available >> 20)
                                             .arg(total >> 20)
                                             .arg(m_engine.config().dataPath())
                                       : QStringLiteral("cannot read the file system of %1").arg(m_engine.config().dataPath()),
                     elapsedMs(timer)});
    return items;
}

std::vector<ProcessRow> AdminOperations::processes() const
{
    return m_engine.processes().list();
}

Status AdminOperations::cancelProcess(qint64 pid)
{
    return m_engine.processes().cancelProcess(pid);
}

std::vector<NoticeRow> AdminOperations::notices() const
{
    return m_engine.notices().list();
}

Status AdminOperations::deleteNotice(qint64 id)
{
    if (!m_engine.notices().remove(id))
        return Status::notFound(QStringLiteral("no notice with id %1").arg(id));
    return Status::ok();
}

std::vector<QueueRow> AdminOperations::queues() const
{
    return m_engine.queues().list();
}

Result<QueueRow> AdminOperations::queue(qint64 qid) const
{
    return m_engine.queues().stats(qid);
}

Result<QueueSettingsInfo> AdminOperations::queueSettings(qint64 qid) const
{
    const std::shared_ptr<WorkerPool> pool = m_engine.queues().find(qid);
    if (!pool)
        return Status::notFound(QStringLiteral("no queue with qid %1").arg(qid));
    Result<QueueSettings> settings = m_engine.config().queueSettings(pool->name());
    if (!settings)
        return settings.status();
    QueueSettingsInfo info;
    info.name = settings->name;
    info.type = settings->type;
    info.length = settings->length;
    info.batchLength = settings->batchLength;
    if (info.type == QLatin1String("level"))
        info.location = settings->dataDir;
    else if (info.type == QLatin1String("redis"))
        info.location = QStringLiteral("%1, %2 on %3")
                            .arg(settings->queueFullName(), settings->setFullName(), withoutPassword(settings->connStr));
    else
        info.location = QStringLiteral("in memory");
    return info;
}

Status AdminOperations::flushQueue(const CancelToken &cancel, qint64 qid, std::chrono::milliseconds timeout)
{
    const std::shared_ptr<WorkerPool> pool = m_engine.queues().find(qid);
    if (!pool)
        return Status::notFound(QStringLiteral("no queue with qid %1").arg(qid));
    return pool->flush(cancel, timeout);
}

Status AdminOperations::flushAll(const CancelToken &cancel, std::chrono::milliseconds timeout)
{
    return m_engine.queues().flushAll(cancel, timeout);
}

Result<qint64> AdminOperations::removeAllCount(qint64 qid) const
{
    Result<QueueRow> row = queue(qid);
    if (!row)
        return row.status();
    return std::max<qint64>(row->length, 0);
}

Result<qint64> AdminOperations::removeAll(const CancelToken &cancel, qint64 qid)
{
    return m_engine.queues().removeAll(cancel, qid);
}

Status AdminOperations::setMaxWorkers(qint64 qid, int maxWorkers)
{
    if (maxWorkers < 1)
        return Status::invalidArgument(QStringLiteral("max_workers: must be at least 1 (got %1)").arg(maxWorkers));
    return m_engine.queues().setMaxWorkers(qid, maxWorkers);
}

Status AdminOperations::pauseQueue(const CancelToken &cancel, qint64 qid)
{
    return m_engine.queues().pause(cancel, qid);
}

Status AdminOperations::resumeQueue(qint64 qid)
{
    return m_engine.queues().resume(qid);
}

std::vector<CronRow> AdminOperations::cronTasks() const
{
    return m_engine.cron().list();
}

Status AdminOperations::runCron(const QString &name, const QString &doer)
{
    Result<CronService::Trigger> triggered = m_engine.cron().runNow(name, doer);
    if (!triggered)
        return triggered.status();
    if (*triggered == CronService::Trigger::AlreadyRunning)
        return Status::conflict(QStringLiteral("%1 is already running").arg(name));
    return Status::ok();
}

Status AdminOperations::pauseCron(const QString &name)
{
    return m_engine.cron().pause(name);
}

Status AdminOperations::resumeCron(const QString &name)
{
    return m_engine.cron().resume(name);
}

Result<std::vector<CronRun>> AdminOperations::cronRuns(const QString &name) const
{
    return m_engine.cron().history(name);
}

Result<std::vector<LockRow>> AdminOperations::locks(const CancelToken &cancel) const
{
    return m_engine.locker().list(cancel);
}

Status AdminOperations::forceReleaseLock(const CancelToken &cancel, const QString &key, const QString &actor)
{
    Status released = m_engine.locker().forceRelease(cancel, key, actor);
    if (released.code() == Status::Code::NotFound)
        return Status::notFound(QStringLiteral("%1 is not held; it was released meanwhile").arg(key));
    return released;
}

CacheInfo AdminOperations::cacheInfo() const
{
    const EngineConfig &config = m_engine.config();
    CacheInfo info;
    info.adapter = m_engine.cache().adapter();
    if (info.adapter == QLatin1String("redis"))
        info.host = withoutPassword(config.cache.host.isEmpty() ? config.redis.connStr : config.cache.host);
    else if (info.adapter == QLatin1String("twoqueue"))
        info.host = config.cache.host.isEmpty() ? QStringLiteral("50000") : config.cache.host;
    info.ttlMs = std::chrono::duration_cast<std::chrono::milliseconds>(m_engine.cache().itemTtl()).count();
    info.items = m_engine.cache().stats().items;
    return info;
}

CacheStats AdminOperations::cacheStats() const
{
    return m_engine.cache().stats();
}

CacheTest AdminOperations::cacheTest()
{
    const CacheCheckResult check = Switchyard::selfCheck(m_engine.cache());
    CacheTest test;
    test.ok = check.ok;
    test.elapsedMs = std::chrono::duration<double, std::milli>(check.elapsed).count();
    test.slow = check.slow;
    test.thresholdMs = kSlowCacheThreshold.count();
    test.error = check.error;
    return test;
}

QosStats AdminOperations::qos() const
{
    if (AdmissionController *qos = m_engine.qos()) {
        QosStats stats = qos->stats();
        stats.enabled = true;
        return stats;
    }
    const QosSettings &settings = m_engine.config().qos;
    QosStats stats;
    stats.enabled = false;
    stats.maxInflight = settings.maxInflight;
    stats.maxWaiting = settings.maxWaiting;
    stats.targetWaitMs = std::chrono::duration_cast<std::chrono::milliseconds>(settings.targetWaitTime).count();
    return stats;
}

} // namespace Switchyard::Admin
