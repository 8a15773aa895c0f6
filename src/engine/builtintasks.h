#pragma once

// The engine's built-in cron tasks (SPEC §4) that work on data that exists today:
// cache_self_check, queue_health_check, delete_old_system_notices, vacuum_database,
// delete_old_notifications, resume_unfinished_events, cleanup_hook_task_table and
// resync_undelivered_hook_tasks. They sit above cron and the subsystems they use, so cron depends
// on none of them; tasks of later subsystems (mail) are added here as they arrive.

#include "engine/cron/cron.h"

namespace Switchyard {

class EventService;
namespace Webhook {
class WebhookService;
}
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
    Webhook::WebhookService *webhooks = nullptr;
};

std::vector<CronTaskDefinition> builtInCronTasks(const BuiltInTaskServices &services);
Status registerBuiltInCronTasks(CronService &cron, const BuiltInTaskServices &services);

// Checks every [cron.<name>] section as start-up would (built-in overrides and user-defined
// tasks), without running anything: for `switchyardd --check-config`.
Status validateCronSettings(const EngineConfig &config);

} // namespace Switchyard
