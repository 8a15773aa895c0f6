#include "engine.h"

#include "engine/core/logging.h"

#include <QCoreApplication>
#include <QDir>
#include <QHostInfo>
#include <QRandomGenerator>

namespace Switchyard {

QString generateInstanceId()
{
    return QStringLiteral("%1-%2-%3")
        .arg(QHostInfo::localHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
}

Engine::Engine(EngineConfig config) : m_config(std::move(config)) {}

Engine::~Engine()
{
    // Producers stop before consumers (LIFO hooks), then the subsystems go in reverse order.
    m_lifecycle->shutdown(QStringLiteral("engine closing"));
    m_lifecycle->waitForTerminated();
    m_lifecycle.reset(); // joins the queues' dispatchers and the cron scheduler
    m_cron.reset();
    m_cronCoordinator.reset();
    m_qos.reset();
    m_queues.reset();
    m_locker.reset();
    m_cache.reset();
}

Result<std::unique_ptr<Engine>> Engine::start(const CancelToken &cancel, EngineConfig config, EngineOptions options)
{
    std::unique_ptr<Engine> engine(new Engine(std::move(config)));
    const EngineConfig &cfg = engine->m_config;
    engine->m_instanceId = options.instanceId.isEmpty() ? generateInstanceId() : options.instanceId;
    engine->m_startedAt = QDateTime::currentDateTimeUtc();
    options.lifecycle.hammerTimeout = std::chrono::duration_cast<std::chrono::milliseconds>(cfg.server.gracefulHammerTime);
    engine->m_lifecycle = std::make_unique<Lifecycle>(engine->m_processes, options.lifecycle);

    Result<std::unique_ptr<StringCache>> cache = createCache(cancel, cfg, options.cacheOptions);
    if (!cache)
        return cache.status();
    engine->m_cache = std::move(cache).value();

    options.lockerOptions.instanceId = engine->m_instanceId;
    Result<std::unique_ptr<Locker>> locker = createLocker(cancel, cfg, options.lockerOptions);
    if (!locker)
        return locker.status();
    engine->m_locker = std::move(locker).value();

    QueueManagerOptions queueOptions;
    queueOptions.timing = options.queueTiming;
    queueOptions.instanceId = engine->m_instanceId;
    queueOptions.reportDamage = [notices = &engine->m_notices](const QString &message) {
        notices->add(QStringLiteral("queue"), message);
    };
    engine->m_queues = std::make_unique<QueueManager>(cfg, *engine->m_lifecycle, queueOptions);

    if (cfg.qos.enabled) {
        QosOptions qos;
        qos.maxInflight = cfg.qos.maxInflight;
        qos.maxWaiting = cfg.qos.maxWaiting;
        qos.targetWaitTime = std::chrono::duration_cast<std::chrono::milliseconds>(cfg.qos.targetWaitTime);
        engine->m_qos = std::make_unique<AdmissionController>(qos);
    }
    engine->m_locker->setForceReleaseObserver([notices = &engine->m_notices](const LockInfo &info, const QString &actor) {
        notices->add(QStringLiteral("lock"), QStringLiteral("Lock %1 (held by %2, fencing token %3) was force-released by %4")
                                                 .arg(info.key, info.owner).arg(info.fencingToken).arg(actor));
    });

    // Cron last: its tasks use everything above.
    if (cfg.globalLock.serviceType == QLatin1String("redis")) {
        const QString first = cfg.globalLock.serviceConnStr.section(QLatin1Char(','), 0, 0).trimmed();
        Result<std::unique_ptr<CronCoordinator>> coordinator =
            createRedisCronCoordinator(first.isEmpty() ? QStringLiteral("redis://127.0.0.1:6379/0") : first, cfg.globalLock.keyPrefix);
        if (!coordinator)
            return coordinator.status();
        engine->m_cronCoordinator = std::move(coordinator).value();
    } else {
        engine->m_cronCoordinator = createLocalCronCoordinator(QDir(cfg.dataPath()).filePath(QStringLiteral("cron-state.json")));
    }
    options.cronOptions.instanceId = engine->m_instanceId;
    engine->m_cron = std::make_unique<CronService>(cfg, *engine->m_locker, *engine->m_cronCoordinator, engine->m_notices,
                                                   engine->m_processes, options.cronOptions);
    if (Status registered = registerBuiltInCronTasks(*engine->m_cron, *engine, engine->m_notices); !registered)
        return registered;
    if (Status registered = engine->m_cron->registerUserTasks(); !registered)
        return registered;
    if (Status started = engine->m_cron->start(*engine->m_lifecycle); !started)
        return started;

    qCInfo(lcCore).noquote() << "engine" << engine->m_instanceId << "started: cache" << engine->m_cache->adapter() << ", locks"
                             << engine->m_locker->backend() << ", qos" << (engine->m_qos ? "on" : "off");
    return engine;
}

} // namespace Switchyard
