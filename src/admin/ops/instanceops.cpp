#include "instanceops.h"

#include "cacheops.h"
#include "cronops.h"
#include "lockops.h"
#include "queueops.h"
#include "prometheus.h"

#include "engine/core/version.h"
#include "engine/engine.h"
#include "engine/store/store.h"

#include <QElapsedTimer>
#include <QStorageInfo>

namespace Switchyard::Admin::Ops {

namespace {

InstanceInfo instanceOf(Engine &engine)
{
    const EngineConfig &config = engine.config();
    InstanceInfo info;
    info.version = QStringLiteral(SWITCHYARD_VERSION);
    info.instanceId = engine.instanceId();
    info.startedAt = engine.startedAt();
    info.configPath = config.configPath();
    info.dataPath = config.dataPath();
    info.dbType = engine.store().backendName();
    info.dbLocation = engine.store().location();
    info.dbSchemaVersion = engine.store().schemaVersion();
    if (Result<QueueSettings> common = config.queueSettings(QStringLiteral("common")))
        info.queueTypes.insert(QStringLiteral("common"), common->type);
    for (const QString &name : config.configuredQueueNames()) {
        if (Result<QueueSettings> settings = config.queueSettings(name))
            info.queueTypes.insert(name, settings->type);
    }
    info.cacheAdapter = config.cache.adapter;
    info.lockService = engine.locker().backend();
    info.pubsubType = config.websocket.pubsubType;
    return info;
}

// database (a read transaction answers), cache (Delete → Put → Get, slow above 30 ms), locks (the locker answers), queues (every queue's
// backend answers, paused ones named), disk (free space of the data directory) and, where admin
// changes are audited, the audit log.
std::vector<SelfCheckItem> selfCheckOf(OpContext &c)
{
    Engine &engine = c.engine;
    std::vector<SelfCheckItem> items;

    QElapsedTimer timer;
    timer.start();
    Store &store = engine.store();
    const Status pinged = store.ping();
    items.push_back({QStringLiteral("database"), pinged.isOk(),
                     pinged ? QStringLiteral("%1 database answered in %2 ms (schema version %3): %4")
                                  .arg(store.backendName())
                                  .arg(double(timer.nsecsElapsed()) / 1e6, 0, 'f', 1)
                                  .arg(store.schemaVersion())
                                  .arg(store.location())
                            : pinged.message(),
                     timer.elapsed()});

    const CacheTest cache = cacheTest(engine);
    items.push_back({QStringLiteral("cache"), cache.ok && !cache.slow,
                     !cache.ok   ? cache.error
                     : cache.slow ? QStringLiteral("%1 cache test slow: %2 ms (threshold %3 ms)")
                                        .arg(engine.cache().adapter())
                                        .arg(cache.elapsedMs, 0, 'f', 1)
                                        .arg(cache.thresholdMs)
                                  : QStringLiteral("%1 cache answered in %2 ms").arg(engine.cache().adapter()).arg(cache.elapsedMs, 0, 'f', 1),
                     qint64(cache.elapsedMs)});

    timer.restart();
    const Result<std::vector<LockRow>> held = engine.locker().list(c.cancel);
    items.push_back({QStringLiteral("locks"), held.isOk(),
                     held ? QStringLiteral("%1 locker answered; %2 held").arg(engine.locker().backend()).arg(held->size())
                          : held.status().message(),
                     timer.elapsed()});

    timer.restart();
    QStringList unreadable, paused;
    const std::vector<QueueRow> rows = engine.queues().list();
    for (const QueueRow &row : rows) {
        if (row.length < 0)
            unreadable << row.name;
        if (row.paused)
            paused << row.name;
    }
    QString queueMessage = unreadable.isEmpty() ? QStringLiteral("%1 queues answered").arg(rows.size())
                                                : QStringLiteral("cannot read the length of: %1").arg(unreadable.join(QStringLiteral(", ")));
    if (!paused.isEmpty())
        queueMessage += QStringLiteral("; paused: %1").arg(paused.join(QStringLiteral(", ")));
    items.push_back({QStringLiteral("queues"), unreadable.isEmpty(), queueMessage, timer.elapsed()});

    timer.restart();
    const QString dataPath = engine.config().dataPath();
    const QStorageInfo storage(dataPath);
    const qint64 available = storage.bytesAvailable();
    const qint64 total = storage.bytesTotal();
    // 1 GiB or 5 %: below either, LevelDB compactions and logs start to fail.
    const bool diskOk = storage.isValid() && available >= qMin<qint64>(qint64(1) << 30, total / 20);
    items.push_back({QStringLiteral("disk"), diskOk,
                     storage.isValid() ? QStringLiteral("%1 MiB free of %2 MiB in %3").arg(available >> 20).arg(total >> 20).arg(dataPath)
                                       : QStringLiteral("cannot read the file system of %1").arg(dataPath),
                     timer.elapsed()});
    if (c.audit) // admin changes are audited: say when they cannot be
        items.push_back(c.audit->check());
    return items;
}

} // namespace

CacheTest cacheTest(Engine &engine)
{
    const CacheCheckResult check = Switchyard::selfCheck(engine.cache());
    CacheTest test;
    test.ok = check.ok;
    test.elapsedMs = std::chrono::duration<double, std::milli>(check.elapsed).count();
    test.slow = check.slow;
    test.thresholdMs = kSlowCacheThreshold.count();
    test.error = check.error;
    return test;
}

const Op<NoArgs, Health> health{
    {.action = "instance.health", .method = HttpMethod::Get, .path = "/health", .flags = Anonymous,
     .summary = "whether the API answers, its version and, with a token, the instance and its uptime", .cli = "health"},
    [](OpContext &c, const NoArgs &) -> Result<Health> {
        Health h;
        if (c.tokenName.isEmpty())
            return h;
        h.version = QStringLiteral(SWITCHYARD_VERSION);
        h.instanceId = c.engine.instanceId();
        h.uptimeMs = c.engine.startedAt().msecsTo(QDateTime::currentDateTimeUtc());
        return h;
    }};

const Op<NoArgs, InstanceInfo> instance{
    {.action = "instance.get", .method = HttpMethod::Get, .path = "/instance",
     .summary = "the instance's identity and settings, and who is asking", .cli = "instance"},
    [](OpContext &c, const NoArgs &) -> Result<InstanceInfo> {
        InstanceInfo info = instanceOf(c.engine);
        info.access = Access{c.tokenName, c.role};
        return info;
    }};

const Op<NoArgs, std::vector<InstanceRecord>> instanceList{
    {.action = "instance.list", .method = HttpMethod::Get, .path = "/instances", .flags = Paged,
     .summary = "the instances sharing this store: heartbeats, and who ended how (lost: declared dead, its work taken over)",
     .cli = "instances",
     .columns = {{"id", "id"}, {"host", "host"}, {"pid", "pid"}, {"live", "live"}, {"heartbeat", "heartbeat_at"}, {"ended", "ended"},
                 {"by", "ended_by"}}},
    [](OpContext &c, const NoArgs &) -> Result<std::vector<InstanceRecord>> { return c.engine.instances().list(); }};

const Op<NoArgs, std::vector<SelfCheckItem>> selfCheck{
    {.action = "instance.self-check", .method = HttpMethod::Get, .path = "/self-check", .flags = MayWait,
     .summary = "cache, locks, queues, disk and audit log checks (exit 1 when one fails)", .cli = "self-check",
     .columns = {{"check", "name"}, {"ok", "ok"}, {"ms", "elapsed_ms"}, {"message", "message"}},
     .succeeded = [](const QJsonValue &answer) {
         const QJsonArray items = answer.toArray();
         return std::all_of(items.begin(), items.end(), [](const QJsonValue &item) { return item[QStringLiteral("ok")].toBool(); });
     }},
    [](OpContext &c, const NoArgs &) -> Result<std::vector<SelfCheckItem>> { return selfCheckOf(c); }};

const Op<NoArgs, Text> metrics{
    {.action = "instance.metrics", .method = HttpMethod::Get, .path = "/metrics",
     .summary = "the Prometheus text exposition (0.0.4)", .cli = "metrics"},
    [](OpContext &c, const NoArgs &) -> Result<Text> {
        Text text;
        text.body = prometheusText(c.engine, instanceOf(c.engine));
        if (c.serverMetrics)
            text.body += c.serverMetrics();
        text.contentType = "text/plain; version=0.0.4; charset=utf-8";
        return text;
    }};

const Op<NoArgs, std::vector<ProcessRow>> processList{
    {.action = "process.list", .method = HttpMethod::Get, .path = "/processes", .flags = Paged,
     .summary = "running processes: worker pools, cron runs, flushes, API requests", .cli = "processes list",
     .cliAliases = {"processes"},
     .columns = {{"pid", "pid"}, {"parent", "parent_pid"}, {"type", "type"}, {"started", "started_at"},
                 {"cancellable", "cancellable"}, {"done", "done"}, {"of", "total"}, {"description", "description"}}},
    [](OpContext &c, const NoArgs &) -> Result<std::vector<ProcessRow>> { return c.engine.processes().list(); }};

const Op<ProcessRef, Done> processCancel{
    {.action = "process.cancel", .method = HttpMethod::Post, .path = "/processes/{pid}/cancel", .flags = Mutating,
     .summary = "cancel a process and its children", .cli = "processes cancel", .done = "cancelled {pid}"},
    [](OpContext &c, const ProcessRef &a) -> Result<Done> {
        if (Status s = c.engine.processes().cancelProcess(a.pid); !s)
            return s;
        return Done{};
    }};

const Op<NoArgs, std::vector<NoticeRow>> noticeList{
    {.action = "notice.list", .method = HttpMethod::Get, .path = "/notices", .flags = Paged,
     .summary = "system notices, newest first", .cli = "notices list", .cliAliases = {"notices"},
     .columns = {{"id", "id"}, {"type", "type"}, {"created", "created_at"}, {"description", "description"}}},
    [](OpContext &c, const NoArgs &) -> Result<std::vector<NoticeRow>> { return c.engine.notices().list(); }};

const Op<NoticeRef, Done> noticeDelete{
    {.action = "notice.delete", .method = HttpMethod::Delete, .path = "/notices/{id}", .flags = Mutating,
     .summary = "delete a system notice (the stream sends notice-removed)", .cli = "notices delete", .done = "deleted notice {id}"},
    [](OpContext &c, const NoticeRef &a) -> Result<Done> {
        if (!c.engine.notices().remove(a.id))
            return Status::notFound(QStringLiteral("no notice with id %1").arg(a.id));
        return Done{};
    }};

const Op<AuditArgs, Page<AuditEntry>> auditList{
    {.action = "audit.list", .method = HttpMethod::Get, .path = "/audit",
     .summary = "every admin change (and refusal), newest first", .cli = "audit",
     .columns = {{"at", "at"}, {"actor", "actor"}, {"from", "remote_addr"}, {"action", "action"}, {"target", "target"}, {"result", "result"}}},
    [](OpContext &c, const AuditArgs &a) -> Result<Page<AuditEntry>> {
        if (!c.audit)
            return Status::unavailable(QStringLiteral("the audit log could not be opened"));
        AuditQuery query;
        query.page = int(a.page);
        query.limit = int(a.limit);
        query.action = a.action;
        query.since = a.since;
        Result<AuditPage> found = c.audit->query(query);
        if (!found)
            return found.status();
        return Page<AuditEntry>{std::move(found->entries), found->total};
    }};

std::vector<const OpBase *> instanceOps()
{
    return {&health, &instance, &instanceList, &selfCheck, &metrics, &processList, &processCancel, &noticeList, &noticeDelete, &auditList};
}

} // namespace Switchyard::Admin::Ops
