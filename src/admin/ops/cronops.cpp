#include "cronops.h"

#include "engine/engine.h"

namespace Switchyard::Admin::Ops {

const Op<NoArgs, std::vector<CronRow>> cronList{
    {.action = "cron.list", .method = HttpMethod::Get, .path = "/cron", .flags = Paged,
     .summary = "tasks with schedule, next run and last status", .cli = "cron list", .cliAliases = {"cron"},
     .columns = {{"name", "name"}, {"schedule", "schedule"}, {"enabled", "enabled"}, {"paused", "paused"}, {"running", "running"},
                 {"next", "next"}, {"prev", "prev"}, {"status", "status"}, {"runs", "exec_times"}}},
    [](OpContext &c, const NoArgs &) -> Result<std::vector<CronRow>> { return c.engine.cron().list(); }};

const Op<CronRef, CronStarted> cronRun{
    {.action = "cron.run", .method = HttpMethod::Post, .path = "/cron/{name}/run", .flags = Mutating,
     .summary = "run a task now (409 while it runs)", .cli = "cron run", .done = "started {name}", .okStatus = 202},
    [](OpContext &c, const CronRef &a) -> Result<CronStarted> {
        Result<CronService::Trigger> triggered = c.engine.cron().runNow(a.name, c.engineDoer());
        if (!triggered)
            return triggered.status();
        if (*triggered == CronService::Trigger::AlreadyRunning)
            return Status::conflict(QStringLiteral("%1 is already running").arg(a.name));
        return CronStarted{a.name, true};
    }};

const Op<CronRef, Done> cronPause{
    {.action = "cron.pause", .method = HttpMethod::Post, .path = "/cron/{name}/pause", .flags = Mutating,
     .summary = "skip the task's scheduled firings (on every instance sharing Redis)", .cli = "cron pause", .done = "paused {name}"},
    [](OpContext &c, const CronRef &a) -> Result<Done> {
        if (Status s = c.engine.cron().pause(a.name); !s)
            return s;
        return Done{};
    }};

const Op<CronRef, Done> cronResume{
    {.action = "cron.resume", .method = HttpMethod::Post, .path = "/cron/{name}/resume", .flags = Mutating,
     .summary = "fire the task on schedule again", .cli = "cron resume", .done = "resumed {name}"},
    [](OpContext &c, const CronRef &a) -> Result<Done> {
        if (Status s = c.engine.cron().resume(a.name); !s)
            return s;
        return Done{};
    }};

const Op<CronRef, std::vector<CronRun>> cronRuns{
    {.action = "cron.runs", .method = HttpMethod::Get, .path = "/cron/{name}/runs", .flags = Paged,
     .summary = "run history, newest first, with skipped firings and why", .cli = "cron runs",
     .columns = {{"started", "started_at"}, {"trigger", "trigger"}, {"status", "status"}, {"ms", "duration_ms"}, {"doer", "doer"},
                 {"instance", "instance_id"}, {"message", "message"}}},
    [](OpContext &c, const CronRef &a) -> Result<std::vector<CronRun>> { return c.engine.cron().history(a.name); }};

std::vector<const OpBase *> cronOps()
{
    return {&cronList, &cronRun, &cronPause, &cronResume, &cronRuns};
}

} // namespace Switchyard::Admin::Ops
