#pragma once

// The cron tasks' operations (docs/api.md "Cron") and the JSON description of their values.

#include "admin/catalogue.h"

namespace Switchyard {

template<typename V>
void describe(V &v, CronTaskInfo &c)
{
    using Admin::Json::Optional;
    v("name", c.name);
    v("title", c.title);
    v("schedule", c.schedule);
    v("enabled", c.enabled);
    v("run_at_start", c.runAtStart);
    v("notice_on_success", c.noticeOnSuccess);
    v("running", c.running);
    v("paused", c.paused, Optional);
    v("next", c.next);
    v("prev", c.prev);
    v("status", c.status);
    v("message", c.message);
    v("exec_times", c.execTimes);
    v("last_doer", c.lastDoer);
    v("runs_by_status", c.runsByStatus, Optional);
}

template<typename V>
void describe(V &v, CronRunRecord &r)
{
    v("id", r.id);
    v("instance_id", r.instanceId);
    v("trigger", r.trigger);
    v("doer", r.doer);
    v("started_at", r.startedAt);
    v("duration_ms", r.durationMs);
    v("status", r.status);
    v("message", r.message);
    v("trace_id", r.traceId, Admin::Json::Optional);
}

} // namespace Switchyard

namespace Switchyard::Admin {

// POST /cron/{name}/run answers 202: the run goes on after the answer.
struct CronStarted
{
    QString name;
    bool started = true;
};
template<typename V>
void describe(V &v, CronStarted &s)
{
    v("name", s.name);
    v("started", s.started);
}

struct CronRef
{
    QString name;
};
template<typename V>
void describe(V &v, CronRef &a)
{
    v(ArgSpec{ArgSpec::Path, "name", "the task's name (cron list)"}, a.name);
}

namespace Ops {

extern const Op<NoArgs, std::vector<CronRow>> cronList;
extern const Op<CronRef, CronStarted> cronRun;
extern const Op<CronRef, Done> cronPause;
extern const Op<CronRef, Done> cronResume;
extern const Op<CronRef, std::vector<CronRun>> cronRuns;

std::vector<const OpBase *> cronOps();

} // namespace Ops

} // namespace Switchyard::Admin
