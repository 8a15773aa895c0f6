#include "webhookops.h"

#include "engine/core/notices.h"
#include "engine/core/processregistry.h"
#include "engine/engine.h"
#include "engine/forge/forgedata.h"
#include "engine/store/store.h"

#include <QJsonDocument>

namespace Switchyard::Admin {

using namespace Webhook;

namespace {

Status invalid(const char *field, const QString &message)
{
    return Status::invalidArgument(QStringLiteral("%1: %2").arg(QLatin1String(field), message)).withField(QLatin1String(field));
}

QJsonValue parsedJson(const QString &text)
{
    if (text.isEmpty())
        return QJsonValue(QJsonValue::Null);
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    return doc.isObject() ? QJsonValue(doc.object()) : doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(text);
}

Result<bool> ownerIsOrganization(Engine &engine, qint64 ownerId)
{
    if (ownerId <= 0)
        return false;
    return engine.store().readValue<bool>([&](SqlTransaction &tx) -> Result<bool> {
        Result<qint64> isOrg = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(is_org), 0) FROM forge_user WHERE id = ?"), {ownerId});
        if (!isOrg)
            return isOrg.status();
        return *isOrg != 0;
    });
}

Result<HookRow> rowOf(Engine &engine, const Hook &hook, bool clearUrl = false)
{
    Result<bool> isOrg = ownerIsOrganization(engine, hook.ownerId);
    if (!isOrg)
        return isOrg.status();
    return hookRow(hook, *isOrg, clearUrl);
}

// The settings every form of a hook shares, checked and named by field.
Status applyType(const QString &type, Hook &h)
{
    if (type.isEmpty())
        return Status::ok();
    const std::optional<HookType> t = hookTypeFromName(type);
    if (!t)
        return invalid("type", QStringLiteral("\"%1\" is not a hook type").arg(type.left(64)));
    h.type = *t;
    return Status::ok();
}

Status applyContentType(const QString &contentType, Hook &h)
{
    if (contentType.isEmpty())
        return Status::ok();
    const std::optional<ContentType> t = contentTypeFromName(contentType);
    if (!t)
        return invalid("content_type", QStringLiteral("\"%1\" is not one of json, form").arg(contentType.left(64)));
    h.contentType = *t;
    return Status::ok();
}

Status applyEvents(const QJsonValue &events, Hook &h)
{
    if (events.isUndefined() || events.isNull())
        return Status::ok();
    if (!events.isObject())
        return invalid("events", QStringLiteral("expected an object {push_only, send_everything, choose_events, branch_filter, events}"));
    Result<HookEvents> parsed = HookEvents::fromJson(events.toObject(), QStringLiteral("events"));
    if (!parsed)
        return parsed.status();
    h.events = std::move(parsed).value();
    return Status::ok();
}

Status applyMeta(const QJsonValue &meta, Hook &h)
{
    if (meta.isUndefined() || meta.isNull())
        return Status::ok();
    if (!meta.isObject())
        return invalid("meta", QStringLiteral("expected an object (the channel's settings)"));
    h.meta = QString::fromUtf8(QJsonDocument(meta.toObject()).toJson(QJsonDocument::Compact));
    return Status::ok();
}

// A JSON string field of a PATCH: absent (or null) keeps the value.
Status applyString(const char *field, const QJsonValue &value, std::optional<QString> &out)
{
    if (value.isUndefined() || value.isNull())
        return Status::ok();
    if (!value.isString())
        return invalid(field, QStringLiteral("expected a string"));
    out = value.toString();
    return Status::ok();
}

const QString kScopes = QStringLiteral("repository, organization, user, system, default");

// Where a new hook is installed, from scope / repo_id / owner_id; the repository or owner must
// be known to the store.
Status applyScope(Engine &engine, const HookCreateArgs &a, Hook &h)
{
    QString scope = a.scope;
    if (scope.isEmpty())
        scope = a.repoId > 0 ? QStringLiteral("repository") : a.ownerId > 0 ? QStringLiteral("user") : QString();
    if (scope == QLatin1String("repository")) {
        if (a.repoId <= 0)
            return invalid("repo_id", QStringLiteral("a repository hook needs the repository's id"));
        h.repoId = a.repoId;
        Result<ForgeRepo> repo = engine.store().readValue<ForgeRepo>([&](SqlTransaction &tx) { return ForgeDb::repo(tx, a.repoId); });
        if (!repo)
            return repo.status().code() == Status::Code::NotFound
                       ? Status::notFound(QStringLiteral("repo_id: no repository %1").arg(a.repoId)).withField(QStringLiteral("repo_id"))
                       : repo.status();
        h.ownerId = 0;
    } else if (scope == QLatin1String("organization") || scope == QLatin1String("user")) {
        if (a.ownerId <= 0)
            return invalid("owner_id", QStringLiteral("an %1 hook needs the owner's id").arg(scope));
        if (a.repoId > 0)
            return invalid("repo_id", QStringLiteral("an %1 hook has no repository").arg(scope));
        Result<ForgeUser> owner = engine.store().readValue<ForgeUser>([&](SqlTransaction &tx) { return ForgeDb::user(tx, a.ownerId); });
        if (!owner)
            return owner.status().code() == Status::Code::NotFound
                       ? Status::notFound(QStringLiteral("owner_id: no user or organisation %1").arg(a.ownerId)).withField(QStringLiteral("owner_id"))
                       : owner.status();
        if (owner->isOrganization != (scope == QLatin1String("organization")) && !a.scope.isEmpty())
            return invalid("scope", QStringLiteral("%1 is %2, not an %3").arg(owner->login, owner->isOrganization ? QStringLiteral("an organisation") : QStringLiteral("a user"), scope));
        h.ownerId = a.ownerId;
    } else if (scope == QLatin1String("system") || scope == QLatin1String("default")) {
        // Gitea's admin hooks: a system hook hears every repository; a default hook is never sent
        // but copied into each repository created after it.
        if (a.repoId > 0 || a.ownerId > 0)
            return invalid("scope", QStringLiteral("a %1 hook has neither repo_id nor owner_id").arg(scope));
        h.isSystem = scope == QLatin1String("system");
        h.isDefault = !h.isSystem;
    } else if (scope.isEmpty()) {
        return invalid("scope", QStringLiteral("give repo_id, owner_id or scope \"system\" or \"default\""));
    } else {
        return invalid("scope", QStringLiteral("\"%1\" is not one of %2").arg(scope.left(64), kScopes));
    }
    return Status::ok();
}

} // namespace

QStringList hookEventNames()
{
    QStringList names;
    for (HookEventType type : allEvents())
        names << name(type);
    return names;
}

HookRow hookRow(const Hook &h, bool ownerIsOrganization, bool clearUrl)
{
    HookRow r;
    r.id = h.id;
    r.scope = h.isDefault ? QStringLiteral("default") : name(targetType(h.repoId, h.ownerId, h.isSystem, ownerIsOrganization));
    r.repoId = h.repoId;
    r.ownerId = h.ownerId;
    r.url = clearUrl ? h.url : maskedUrl(h.url, &r.urlMasked);
    r.name = h.name;
    r.type = name(h.type);
    r.httpMethod = h.httpMethod.isEmpty() ? QStringLiteral("POST") : h.httpMethod;
    r.contentType = name(h.contentType);
    r.events = h.events.toJson();
    r.active = h.active;
    r.lastStatus = name(h.lastStatus);
    r.hasSecret = !h.secret.isEmpty();
    r.hasAuthorization = h.hasAuthorization;
    r.meta = parsedJson(h.meta);
    r.createdAt = h.created;
    r.updatedAt = h.updated;
    return r;
}

HookTaskRow hookTaskRow(const HookTask &t)
{
    HookTaskRow r;
    r.id = t.id;
    r.hookId = t.hookId;
    r.uuid = t.uuid;
    r.eventType = name(t.eventType);
    r.event = event(t.eventType);
    r.payloadVersion = t.payloadVersion;
    r.isDelivered = t.isDelivered;
    r.isSucceed = t.isSucceed;
    r.status = name(t.outcome);
    r.createdAt = t.created;
    if (t.deliveredNs > 0)
        r.delivered = QDateTime::fromMSecsSinceEpoch(t.deliveredNs / 1'000'000, Qt::UTC);
    r.durationMs = t.durationMs;
    // The API's names: request.method (the store says http_method). The URL was masked when it
    // was recorded; a row recorded before that is masked here.
    QJsonValue request = parsedJson(t.request);
    if (request.isObject()) {
        QJsonObject o = request.toObject();
        if (o.contains(QStringLiteral("http_method")) && !o.contains(QStringLiteral("method")))
            o.insert(QStringLiteral("method"), o.value(QStringLiteral("http_method")));
        if (o.contains(QStringLiteral("url")))
            o.insert(QStringLiteral("url"), maskedUrl(o.value(QStringLiteral("url")).toString()));
        request = o;
    }
    r.request = request;
    r.response = parsedJson(t.response);
    r.redeliveryOf = t.redeliveryOf;
    r.traceId = t.traceId;
    if (t.attempt > 0)
        r.attempt = t.attempt;
    if (t.deliverAfterMs > 0)
        r.deliverAfter = QDateTime::fromMSecsSinceEpoch(t.deliverAfterMs, Qt::UTC);
    r.claimedBy = t.claimedBy;
    for (const Webhook::Interruption &i : t.interruptions)
        r.interrupted.push_back({i.instance, i.claimedAt, i.endedAt, i.endedBy, i.reason, i.resent});
    return r;
}

namespace {

QByteArray csvField(const QString &text)
{
    QByteArray bytes = text.toUtf8();
    if (!bytes.contains(',') && !bytes.contains('"') && !bytes.contains('\n') && !bytes.contains('\r'))
        return bytes;
    return '"' + bytes.replace('"', "\"\"") + '"';
}

QString timeText(const QDateTime &t)
{
    return t.isValid() ? Json::time(t).toString() : QString();
}

} // namespace

QByteArray deliveryCsvHeader()
{
    return QByteArrayLiteral("id,hook_id,uuid,event_type,event,status,created_at,delivered,duration_ms,request_method,request_url,"
                             "response_status,redelivery_of,trace_id\r\n");
}

QByteArray deliveryCsvLine(const HookTaskRow &r)
{
    const QJsonObject request = r.request.toObject();
    const QJsonValue status = r.response.toObject().value(QStringLiteral("status"));
    const QStringList fields{QString::number(r.id),
                             QString::number(r.hookId),
                             r.uuid,
                             r.eventType,
                             r.event,
                             r.status,
                             timeText(r.createdAt),
                             timeText(r.delivered),
                             r.isDelivered ? QString::number(r.durationMs, 'f', 1) : QString(),
                             request.value(QStringLiteral("method")).toString(),
                             request.value(QStringLiteral("url")).toString(),
                             status.isDouble() ? QString::number(status.toInt()) : QString(),
                             r.redeliveryOf > 0 ? QString::number(r.redeliveryOf) : QString(),
                             r.traceId};
    QByteArray line;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i > 0)
            line += ',';
        line += csvField(fields[i]);
    }
    return line + "\r\n";
}

namespace Ops {

const Op<HookListArgs, std::vector<HookRow>> hookList{
    {.action = "hook.list", .method = HttpMethod::Get, .path = "/hooks", .flags = Paged,
     .summary = "webhooks (secrets, the Authorization header and credentials in URLs are never shown)", .cli = "hooks list", .cliAliases = {"hooks"},
     .columns = {{"id", "id"}, {"scope", "scope"}, {"repo", "repo_id"}, {"owner", "owner_id"}, {"type", "type"}, {"url", "url"},
                 {"active", "active"}, {"last", "last_status"}}},
    [](OpContext &c, const HookListArgs &a) -> Result<std::vector<HookRow>> {
        if (!a.scope.isEmpty() && !kScopes.split(QStringLiteral(", ")).contains(a.scope))
            return invalid("scope", QStringLiteral("\"%1\" is not one of %2").arg(a.scope.left(64), kScopes));
        Result<std::vector<Hook>> hooks = c.engine.webhooks().list();
        if (!hooks)
            return hooks.status();
        std::vector<HookRow> rows;
        for (const Hook &h : *hooks) {
            if ((a.repo > 0 && h.repoId != a.repo) || (a.owner > 0 && h.ownerId != a.owner))
                continue;
            Result<HookRow> row = rowOf(c.engine, h);
            if (!row)
                return row.status();
            if (!a.scope.isEmpty() && row->scope != a.scope)
                continue;
            rows.push_back(std::move(row).value());
        }
        return rows;
    }};

const Op<HookRef, HookRow> hookGet{
    {.action = "hook.get", .method = HttpMethod::Get, .path = "/hooks/{id}",
     .summary = "one webhook (its URL in clear for an admin: the edit form's source)", .cli = "hooks show"},
    [](OpContext &c, const HookRef &a) -> Result<HookRow> {
        Result<Hook> hook = c.engine.webhooks().get(a.id);
        if (!hook)
            return hook.status();
        // Whoever may change the hook may see what they would edit; read-only callers see the
        // URL masked, as in every list.
        return rowOf(c.engine, *hook, c.mayMutate);
    }};

const Op<HookCreateArgs, HookRow> hookCreate{
    {.action = "hook.create", .method = HttpMethod::Post, .path = "/hooks", .flags = Mutating,
     .summary = "add a webhook (repository, organisation, user, system, or a default hook copied into each new repository)", .cli = "hooks create", .done = "created hook {id}",
     .okStatus = 201},
    [](OpContext &c, const HookCreateArgs &a) -> Result<HookRow> {
        Hook h;
        if (Status s = applyScope(c.engine, a, h); !s)
            return s;
        h.url = a.url;
        h.name = a.name;
        h.httpMethod = a.httpMethod;
        h.secret = a.secret;
        h.active = a.active;
        for (const Status &s : {applyType(a.type, h), applyContentType(a.contentType, h), applyEvents(a.events, h), applyMeta(a.meta, h)})
            if (!s)
                return s;
        if (a.events.isUndefined() || a.events.isNull())
            h.events.pushOnly = true; // Gitea's default
        Result<Hook> created = c.engine.webhooks().create(h, a.authorizationHeader);
        if (!created)
            return created.status();
        return rowOf(c.engine, *created);
    }};

const Op<HookUpdateArgs, HookRow> hookUpdate{
    {.action = "hook.update", .method = HttpMethod::Patch, .path = "/hooks/{id}", .flags = Mutating,
     .summary = "change a webhook's settings (the fields given)", .cli = "hooks update", .cliAliases = {"hooks edit"},
     .done = "updated hook {id}"},
    [](OpContext &c, const HookUpdateArgs &a) -> Result<HookRow> {
        Result<Hook> current = c.engine.webhooks().get(a.id);
        if (!current)
            return current.status();
        Hook h = *current;
        if (!a.url.isEmpty())
            h.url = a.url;
        if (!a.httpMethod.isEmpty())
            h.httpMethod = a.httpMethod;
        std::optional<QString> name, secret, authorization;
        for (const Status &s : {applyType(a.type, h), applyContentType(a.contentType, h), applyEvents(a.events, h), applyMeta(a.meta, h),
                                applyString("name", a.name, name), applyString("secret", a.secret, secret),
                                applyString("authorization_header", a.authorizationHeader, authorization)})
            if (!s)
                return s;
        if (name)
            h.name = *name;
        if (secret)
            h.secret = *secret;
        if (!a.active.isUndefined() && !a.active.isNull()) {
            if (!a.active.isBool())
                return invalid("active", QStringLiteral("expected true or false"));
            h.active = a.active.toBool();
        }
        Result<Hook> updated = c.engine.webhooks().update(h, authorization);
        if (!updated)
            return updated.status();
        Result<HookRow> row = rowOf(c.engine, *updated);
        if (row && current->hasAuthorization && !updated->hasAuthorization && !authorization) {
            row->authorizationCleared = true;
            row->notice = QStringLiteral("the Authorization header was removed because the URL changed; give "
                                         "authorization_header with the new URL to send one there");
        }
        return row;
    }};

const Op<HookRef, Done> hookDelete{
    {.action = "hook.delete", .method = HttpMethod::Delete, .path = "/hooks/{id}", .flags = Mutating,
     .summary = "delete a webhook and its delivery history", .cli = "hooks delete", .done = "deleted hook {id}"},
    [](OpContext &c, const HookRef &a) -> Result<Done> {
        if (Status s = c.engine.webhooks().remove(a.id); !s)
            return s;
        return Done{};
    }};

namespace {

// `status` (a name, or empty for any) into the filter; InvalidArgument naming `status`.
Status readStatus(const QString &status, TaskFilter &filter)
{
    if (status.isEmpty())
        return Status::ok();
    filter.outcome = taskOutcomeFromName(status);
    if (!filter.outcome)
        return invalid("status", QStringLiteral("\"%1\" is not one of pending, succeeded, failed, unknown, skipped").arg(status.left(64)));
    return Status::ok();
}

Result<Page<HookTaskRow>> taskPage(WebhookService &webhooks, const TaskFilter &filter)
{
    Result<TaskPage> page = webhooks.tasks(filter);
    if (!page)
        return page.status();
    Page<HookTaskRow> rows;
    rows.total = page->total;
    for (const HookTask &t : page->rows)
        rows.rows.push_back(hookTaskRow(t));
    return rows;
}

} // namespace

const Op<HookTasksArgs, Page<HookTaskRow>> hookTasks{
    {.action = "hook.tasks", .method = HttpMethod::Get, .path = "/hooks/{id}/tasks",
     .summary = "a webhook's delivery history, newest first", .cli = "hooks tasks",
     .columns = {{"id", "id"}, {"uuid", "uuid"}, {"event", "event_type"}, {"status", "status"}, {"created", "created_at"},
                 {"ms", "duration_ms"}}},
    [](OpContext &c, const HookTasksArgs &a) -> Result<Page<HookTaskRow>> {
        if (Result<Hook> hook = c.engine.webhooks().get(a.id); !hook)
            return hook.status();
        TaskFilter filter;
        filter.hookId = a.id;
        filter.page = a.page;
        filter.limit = a.limit;
        if (Status status = readStatus(a.status, filter); !status)
            return status;
        return taskPage(c.engine.webhooks(), filter);
    }};

const Op<HookTaskRef, HookTaskCreated> hookRedeliver{
    {.action = "hook.redeliver", .method = HttpMethod::Post, .path = "/hooks/{id}/tasks/{uuid}/redeliver",
     .flags = Mutating | MayWait, .summary = "send a delivery again (a new task and delivery id; the history keeps both)",
     .cli = "hooks redeliver", .done = "queued delivery {uuid}", .okStatus = 201},
    [](OpContext &c, const HookTaskRef &a) -> Result<HookTaskCreated> {
        Result<HookTask> original = c.engine.webhooks().task(a.uuid);
        if (!original)
            return original.status();
        if (original->hookId != a.id)
            return Status::notFound(QStringLiteral("uuid: delivery %1 is not one of hook %2's").arg(a.uuid.left(64)).arg(a.id))
                .withField(QStringLiteral("uuid"));
        Result<HookTask> copy = c.engine.webhooks().redeliver(c.cancel, original->id);
        if (!copy)
            return copy.status();
        return HookTaskCreated{copy->id, copy->uuid, copy->hookId};
    }};

const Op<HookRef, HookTaskCreated> hookTest{
    {.action = "hook.test", .method = HttpMethod::Post, .path = "/hooks/{id}/test", .flags = Mutating | MayWait,
     .summary = "send a test push to a webhook (whatever its events and branch filter)", .cli = "hooks test",
     .done = "queued test delivery {uuid}", .okStatus = 201},
    [](OpContext &c, const HookRef &a) -> Result<HookTaskCreated> {
        Result<HookTask> task = c.engine.webhooks().test(c.cancel, a.id);
        if (!task)
            return task.status();
        return HookTaskCreated{task->id, task->uuid, task->hookId};
    }};

namespace {

// The engine's filter for the search's arguments; InvalidArgument naming the field.
Result<TaskFilter> filterOf(const DeliveryFilterArgs &a)
{
    TaskFilter filter;
    filter.hookId = a.hook;
    if (Status status = readStatus(a.status, filter); !status)
        return status;
    if (!a.event.isEmpty()) {
        filter.event = hookEventFromName(a.event);
        if (!filter.event)
            return invalid("event", QStringLiteral("\"%1\" is not an event type (issue_comment, pull_request_review_approved …)").arg(a.event.left(64)));
    }
    if (a.since.isValid() && a.until.isValid() && a.until <= a.since)
        return invalid("until", QStringLiteral("until must come after since"));
    filter.since = a.since;
    filter.until = a.until;
    filter.text = a.q;
    return filter;
}

} // namespace

namespace {

// Every match of `filter` written to `write` as `format` (csv or json), newest first, a page of
// the walk per piece.
Status exportDeliveries(WebhookService &webhooks, const CancelToken &cancel, const TaskFilter &filter, bool csv,
                        const StreamBody::Write &write)
{
    if (Status head = write(csv ? deliveryCsvHeader() : QByteArray("[")); !head)
        return head;
    bool first = true;
    const Status walked = webhooks.forEach(cancel, filter, [&](const std::vector<HookTask> &tasks) {
        QByteArray piece;
        for (const HookTask &t : tasks) {
            const HookTaskRow row = hookTaskRow(t);
            if (csv) {
                piece += deliveryCsvLine(row);
            } else {
                if (!first)
                    piece += ',';
                piece += QJsonDocument(Json::encode(row).toObject()).toJson(QJsonDocument::Compact);
            }
            first = false;
        }
        return write(piece);
    });
    if (!walked)
        return walked;
    return csv ? Status::ok() : write(QByteArray("]"));
}

} // namespace

const Op<DeliverySearchArgs, Page<HookTaskRow>> deliverySearch{
    {.action = "delivery.search", .method = HttpMethod::Get, .path = "/deliveries",
     .summary = "search the delivery history across hooks (status, event, time, text); --format csv|json exports every match",
     .cli = "deliveries search",
     .columns = {{"id", "id"}, {"hook", "hook_id"}, {"event", "event_type"}, {"status", "status"}, {"queued", "created_at"},
                 {"ms", "duration_ms"}, {"uuid", "uuid"}}},
    [](OpContext &c, const DeliverySearchArgs &a) -> Result<Page<HookTaskRow>> {
        Result<TaskFilter> filter = filterOf(a);
        if (!filter)
            return filter.status();
        if (!a.format.isEmpty() && a.format != u"csv" && a.format != u"json")
            return invalid("format", QStringLiteral("\"%1\" is not csv or json").arg(a.format.left(32)));
        if (!a.format.isEmpty()) {
            // An export: the count now (X-Total-Count), the rows as the walk reads them.
            Result<qint64> total = c.engine.webhooks().count(*filter);
            if (!total)
                return total.status();
            Page<HookTaskRow> out;
            out.total = *total;
            const bool csv = a.format == u"csv";
            out.stream = std::make_shared<StreamBody>();
            out.stream->contentType = csv ? QByteArrayLiteral("text/csv; charset=utf-8") : QByteArrayLiteral("application/json");
            out.stream->produce = [&webhooks = c.engine.webhooks(), filter = *filter, csv](const CancelToken &cancel,
                                                                                           const StreamBody::Write &write) {
                return exportDeliveries(webhooks, cancel, filter, csv, write);
            };
            return out;
        }
        filter->beforeId = a.before;
        filter->page = a.page;
        filter->limit = a.limit;
        return taskPage(c.engine.webhooks(), *filter);
    }};

const Op<DeliveryRedeliverArgs, BulkRedelivery> deliveryRedeliver{
    {.action = "delivery.redeliver", .method = HttpMethod::Post, .path = "/deliveries/redeliver", .flags = Mutating | MayWait,
     .summary = "redeliver every failed or unknown delivery the filter matches (--dry-run: count them)", .cli = "deliveries redeliver",
     .done = "redelivering {matched} deliveries (job {job_id})", .doneDryRun = "would redeliver {matched} deliveries"},
    [](OpContext &c, const DeliveryRedeliverArgs &a) -> Result<BulkRedelivery> {
        Result<TaskFilter> filter = filterOf(a);
        if (!filter)
            return filter.status();
        if (!filter->outcome || (*filter->outcome != TaskOutcome::Failed && *filter->outcome != TaskOutcome::Unknown))
            return invalid("status", QStringLiteral("a bulk redelivery takes status failed or unknown"));
        Result<qint64> matched = c.engine.webhooks().count(*filter);
        if (!matched)
            return matched.status();
        if (a.dryRun)
            return BulkRedelivery{*matched, -1, true, false};
        // A job of the store, on a thread of the engine's: listed as a cancellable process (its
        // pid is the job id the API answers), resumed by a live instance if this one ends.
        Result<Webhook::WebhookService::BulkJob> job = c.engine.webhooks().startBulkRedelivery(*filter, c.engineDoer());
        if (!job)
            return job.status();
        return BulkRedelivery{job->matched, job->pid, false, true};
    },
    [](const DeliveryRedeliverArgs &a) { return a.dryRun; }};

const Op<NoArgs, Webhook::DeliveryStats> deliveryStats{
    {.action = "delivery.stats", .method = HttpMethod::Get, .path = "/deliveries/stats",
     .summary = "this instance's deliveries since start by outcome, in flight, and the last minute or two's latency quantiles",
     .cli = "deliveries stats"},
    [](OpContext &c, const NoArgs &) -> Result<Webhook::DeliveryStats> { return c.engine.webhooks().stats(); }};

std::vector<const OpBase *> webhookOps()
{
    return {&hookList,  &hookGet,       &hookCreate, &hookUpdate,     &hookDelete,        &hookTasks,
            &hookRedeliver, &hookTest,  &deliverySearch, &deliveryRedeliver, &deliveryStats};
}

} // namespace Ops

} // namespace Switchyard::Admin
