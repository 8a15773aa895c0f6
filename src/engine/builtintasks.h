#pragma once

// The engine's built-in cron tasks (SPEC §4) that work on data that exists today:
// cache_self_check, queue_health_check, delete_old_system_notices, vacuum_database. They sit above
// cron and the subsystems they use, so cron depends on none of them. Tasks of later subsystems
// (webhooks, notifications) are added here as those subsystems arrive.

#include "engine/cron/cron.h"

namespace Switchyard {

class EventService;
class NoticeBoard;
class QueueManager;
class Store;
class StringCache;

// What the built-in tasks work on; null members only for validation (nothing runs then).
struct BuiltInTaskServices
{
    StringCache *cache = nullptr;
    QueueManager *queues = nullptr;
    NoticeBoard *notices = nullptr;
    Store *store = nullptr;
    EventService *events = nullptr;
};

std::vector<CronTaskDefinition> builtInCronTasks(const BuiltInTaskServices &services);
Status registerBuiltInCronTasks(CronService &cron, const BuiltInTaskServices &services);

// Checks every [cron.<name>] section as start-up would (built-in overrides and user-defined
// tasks), without running anything: for `switchyardd --check-config`.
Status validateCronSettings(const EngineConfig &config);

} // namespace Switchyard
