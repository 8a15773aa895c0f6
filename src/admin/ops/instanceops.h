#pragma once

// The instance's operations (docs/api.md "Instance"): health, identity, self-check, metrics,
// processes, system notices and the audit log — and the JSON description of their values.

#include "admin/auditlog.h"
#include "admin/catalogue.h"

#include "engine/store/instances.h"

namespace Switchyard {

template<>
struct Admin::Json::EnumNames<ProcessType>
{
    static constexpr std::pair<ProcessType, const char *> names[] = {
        {ProcessType::System, "system"}, {ProcessType::Normal, "normal"}, {ProcessType::Request, "request"}};
};

template<typename V>
void describe(V &v, ProcessInfo &p)
{
    v("pid", p.pid);
    v("parent_pid", p.parentPid);
    v("type", p.type);
    v("description", p.description);
    v("started_at", p.startedAt);
    v("cancellable", p.cancellable, Admin::Json::Optional);
    v("done", p.done, Admin::Json::Omit);   // a job's progress, only when it has one
    v("total", p.total, Admin::Json::Omit);
}

// GET /instances: the instances sharing the store (store/instances.h).
template<typename V>
void describe(V &v, InstanceRecord &i)
{
    v("id", i.id);
    v("node", i.node);
    v("host", i.host);
    v("pid", i.pid);
    v("version", i.version);
    v("started_at", i.startedAt);
    v("heartbeat_at", i.heartbeatAt);
    v("stopped_at", i.stoppedAt, Admin::Json::Omit);
    v("ended", i.ended, Admin::Json::Omit);    // "stopped" or "lost"
    v("ended_by", i.endedBy, Admin::Json::Omit); // the instance that declared it lost
    v("live", i.live);
}

template<typename V>
void describe(V &v, SystemNotice &n)
{
    v("id", n.id);
    v("type", n.type);
    v("description", n.description);
    v("created_at", n.createdAt);
}

} // namespace Switchyard

namespace Switchyard::Admin {

template<typename V>
void describe(V &v, Access &a)
{
    v("token_name", a.tokenName);
    v("role", a.role);
}

template<typename V>
void describe(V &v, InstanceInfo &i)
{
    v("version", i.version);
    v("instance_id", i.instanceId);
    v("started_at", i.startedAt);
    v("config_path", i.configPath);
    v("data_path", i.dataPath);
    v("db_type", i.dbType);
    v("db_location", i.dbLocation, Json::Optional); // Optional: older daemons do not send it
    v("db_schema_version", i.dbSchemaVersion, Json::Optional);
    v("queue_types", i.queueTypes, Json::Optional);
    v("cache_adapter", i.cacheAdapter);
    v("lock_service", i.lockService);
    v("pubsub_type", i.pubsubType);
    v("access", i.access, Json::Omit);
}

template<typename V>
void describe(V &v, SelfCheckItem &s)
{
    v("name", s.name);
    v("ok", s.ok);
    v("message", s.message);
    v("elapsed_ms", s.elapsedMs);
}

template<typename V>
void describe(V &v, AuditEntry &e)
{
    v("id", e.id);
    v("at", e.at);
    v("actor", e.doer);
    v("remote_addr", e.remoteAddr);
    v("action", e.action);
    v("target", e.target);
    v("result", e.result);
}

// GET /health: without a token only that the API answers and its version.
struct Health
{
    QString status = QStringLiteral("ok");
    QString version;
    QString instanceId;
    qint64 apiVersion = 1;
    qint64 uptimeMs = -1;
};
template<typename V>
void describe(V &v, Health &h)
{
    v("status", h.status);
    v("version", h.version, Json::Omit);
    v("instance_id", h.instanceId, Json::Omit);
    v("api_version", h.apiVersion);
    v("uptime_ms", h.uptimeMs, Json::Omit);
}

struct ProcessRef
{
    qint64 pid = 0;
};
template<typename V>
void describe(V &v, ProcessRef &a)
{
    v(ArgSpec{ArgSpec::Path, "pid", "the process id (processes list)", 1}, a.pid);
}

struct NoticeRef
{
    qint64 id = 0;
};
template<typename V>
void describe(V &v, NoticeRef &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the notice id (notices list)", 1}, a.id);
}

struct AuditArgs
{
    qint64 page = 1;
    qint64 limit = 50;
    QString action;
    QDateTime since;
};
template<typename V>
void describe(V &v, AuditArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "page", "page (1-based)", 1, 1'000'000'000, "--page"}, a.page);
    v(ArgSpec{ArgSpec::Query, "limit", "entries per page (max 500)", 1, 500, "--limit"}, a.limit);
    v(ArgSpec{ArgSpec::Query, "action", "only this action (queue.flush …)", 0, 0, "--action"}, a.action);
    v(ArgSpec{ArgSpec::Query, "since", "entries from this RFC 3339 time on", 0, 0, "--since"}, a.since);
}

namespace Ops {

extern const Op<NoArgs, Health> health;
extern const Op<NoArgs, InstanceInfo> instance;
extern const Op<NoArgs, std::vector<InstanceRecord>> instanceList;
extern const Op<NoArgs, std::vector<SelfCheckItem>> selfCheck;
extern const Op<NoArgs, Text> metrics;
extern const Op<NoArgs, std::vector<ProcessRow>> processList;
extern const Op<ProcessRef, Done> processCancel;
extern const Op<NoArgs, std::vector<NoticeRow>> noticeList;
extern const Op<NoticeRef, Done> noticeDelete;
extern const Op<AuditArgs, Page<AuditEntry>> auditList;

std::vector<const OpBase *> instanceOps();

// The cache self-check's figures, shared with GET /self-check.
CacheTest cacheTest(Engine &engine);

} // namespace Ops

} // namespace Switchyard::Admin
