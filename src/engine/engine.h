#pragma once

// The engine: every subsystem wired together in start-up order, owned in one place. The daemon
// and (later) the desktop console's embedded mode create one Engine each.

#include "engine/cache/cache.h"
#include "engine/core/lifecycle.h"
#include "engine/core/notices.h"
#include "engine/core/processregistry.h"
#include "engine/cron/cron.h"
#include "engine/globallock/globallock.h"
#include "engine/qos/qos.h"
#include "engine/queue/queue.h"
#include "engine/settings/config.h"

#include <QDateTime>

#include <memory>

namespace Switchyard {

struct EngineOptions
{
    LifecycleOptions lifecycle;   // hammer time is taken from [server] GRACEFUL_HAMMER_TIME
    QueueTiming queueTiming;
    LockerOptions lockerOptions;  // instance id, prefix and hold cap are filled in from the config
    CacheOptions cacheOptions;
    CronOptions cronOptions;      // instance id filled in
    QString instanceId;           // generated when empty: host-pid-random
};

// Start-up order: cache (PINGed; an unreachable adapter refuses start-up), global locker (Redis
// PINGed likewise), queue manager, QoS, and cron last (built-in and user-defined tasks registered,
// RUN_AT_START tasks started). Subsystems that come later (store, webhooks) go before cron. Destruction shuts the lifecycle down and joins everything.
// Thread-safety: the accessors may be used from any thread once start() returned.
class Engine
{
public:
    static Result<std::unique_ptr<Engine>> start(const CancelToken &cancel, EngineConfig config, EngineOptions options = {});
    ~Engine();

    const EngineConfig &config() const { return m_config; }
    const QString &instanceId() const { return m_instanceId; }
    QDateTime startedAt() const { return m_startedAt; }

    ProcessRegistry &processes() { return m_processes; }
    Lifecycle &lifecycle() { return *m_lifecycle; }
    StringCache &cache() { return *m_cache; }
    Locker &locker() { return *m_locker; }
    QueueManager &queues() { return *m_queues; }
    // Null when [qos] ENABLED = false.
    AdmissionController *qos() { return m_qos.get(); }
    NoticeBoard &notices() { return m_notices; }
    CronService &cron() { return *m_cron; }

private:
    explicit Engine(EngineConfig config);

    const EngineConfig m_config;
    QString m_instanceId;
    QDateTime m_startedAt;
    ProcessRegistry m_processes;
    NoticeBoard m_notices;
    std::unique_ptr<Lifecycle> m_lifecycle;
    std::unique_ptr<StringCache> m_cache;
    std::unique_ptr<Locker> m_locker;
    std::unique_ptr<QueueManager> m_queues;
    std::unique_ptr<AdmissionController> m_qos;
    std::unique_ptr<CronCoordinator> m_cronCoordinator;
    std::unique_ptr<CronService> m_cron;
};

// host-pid-random: identifies this process among instances sharing Redis.
QString generateInstanceId();

} // namespace Switchyard
