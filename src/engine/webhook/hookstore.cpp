// Hooks in the store and the tasks they are given: validating and writing a hook, prepare()
// with its gates (DISABLE_WEBHOOKS, the subscription, an empty push, the branch filter), a
// redelivery, a test delivery, a task by id or delivery id, and the readers of their rows; the
// default hooks' copies into a new repository.
//
// Threads: every function runs on its caller's thread (the admin API, the notify bus, cron),
// any number at once; each is one or a few store transactions, then a push on webhook_sender
// (thread-safe). remove() tells the delivery loop through forget() (under Loop::mutex). The only
// other state is hookFrom()'s parsed-events cache, one per thread.

#include "webhook_p.h"

#include "engine/core/crashpoint.h"

#include "channels/channels.h"
#include "payloads.h"

#include "engine/core/secretbox.h"
#include "engine/forge/forgedata.h"
#include "engine/store/store.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>
#include <QUuid>

namespace Switchyard::Webhook {

namespace {

constexpr qsizetype kMaxSecret = 1024;
constexpr qsizetype kMaxAuthorization = 8192;
constexpr qsizetype kMaxUrl = 2048;

Status invalid(const QString &field, const QString &message)
{
    return Status::invalidArgument(message).withField(field);
}

}  // namespace

Result<Hook> hookFrom(const QSqlQuery &q)
{
    Hook h;
    h.id = q.value(0).toLongLong();
    h.repoId = q.value(1).toLongLong();
    h.ownerId = q.value(2).toLongLong();
    h.isSystem = q.value(3).toBool();
    h.isDefault = !h.isSystem && h.repoId == 0 && h.ownerId == 0;
    h.url = q.value(4).toString();
    h.name = q.value(5).toString();
    h.httpMethod = q.value(6).toString();
    h.contentType = q.value(7).toInt() == int(ContentType::Form) ? ContentType::Form : ContentType::Json;
    h.secret = q.value(8).toString();
    // Every event and claim reads the hooks again, and their events rarely change: the parsed
    // form is kept per thread, by its stored text (bounded; a full cache starts again).
    thread_local QHash<QString, Result<HookEvents>> parsed;
    const QString stored = q.value(9).toString();
    auto events = parsed.constFind(stored);
    if (events == parsed.cend()) {
        if (parsed.size() >= 256)
            parsed.clear();
        events = parsed.insert(stored, HookEvents::fromJson(QJsonDocument::fromJson(stored.toUtf8()).object()));
    }
    if (!*events)
        return Status::corruption(
            QStringLiteral("webhook %1's stored events do not read: %2").arg(h.id).arg(events->status().message()));
    h.events = events->value();
    h.active = q.value(10).toBool();
    h.type = hookTypeFromName(q.value(11).toString()).value_or(HookType::Gitea);
    h.meta = q.value(12).toString();
    h.lastStatus = HookStatus(std::clamp(q.value(13).toInt(), 0, 2));
    h.hasAuthorization = q.value(14).toBool();
    h.created = QDateTime::fromSecsSinceEpoch(q.value(15).toLongLong(), Qt::UTC);
    h.updated = QDateTime::fromSecsSinceEpoch(q.value(16).toLongLong(), Qt::UTC);
    return h;
}

HookTask taskFrom(const QSqlQuery &q)
{
    HookTask t;
    t.id = q.value(0).toLongLong();
    t.hookId = q.value(1).toLongLong();
    t.uuid = q.value(2).toString();
    t.payload = q.value(3).toByteArray();
    t.payloadVersion = q.value(4).toInt();
    t.eventType = hookEventFromName(q.value(5).toString()).value_or(HookEventType::Push);
    t.isDelivered = q.value(6).toBool();
    t.deliveredNs = q.value(7).toLongLong();
    t.isSucceed = q.value(8).toBool();
    t.outcome = taskOutcomeFromName(q.value(9).toString()).value_or(TaskOutcome::Pending);
    t.request = q.value(10).toString();
    t.response = q.value(11).toString();
    t.durationMs = q.value(12).toDouble();
    t.created = QDateTime::fromMSecsSinceEpoch(q.value(13).toLongLong(), Qt::UTC);
    t.redeliveryOf = q.value(14).toLongLong();
    t.traceId = q.value(15).toString();
    t.attempt = q.value(16).toInt();
    t.deliverAfterMs = q.value(17).toLongLong();
    t.claimedBy = q.value(18).toString();
    t.interruptions = interruptionsFrom(q.value(19).toString());
    return t;
}

QString interruptionsJson(const std::vector<Interruption> &interruptions)
{
    QJsonArray array;
    for (const Interruption &i : interruptions)
        array.append(QJsonObject{{QStringLiteral("instance"), i.instance},
                                 {QStringLiteral("claimed_ms"), i.claimedAt.toMSecsSinceEpoch()},
                                 {QStringLiteral("ended_ms"), i.endedAt.toMSecsSinceEpoch()},
                                 {QStringLiteral("ended_by"), i.endedBy},
                                 {QStringLiteral("reason"), i.reason},
                                 {QStringLiteral("resent"), i.resent}});
    return array.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

std::vector<Interruption> interruptionsFrom(const QString &json)
{
    std::vector<Interruption> out;
    if (json.isEmpty())
        return out;
    for (const QJsonValue &v : QJsonDocument::fromJson(json.toUtf8()).array()) {
        const QJsonObject o = v.toObject();
        Interruption i;
        i.instance = o.value(QStringLiteral("instance")).toString();
        i.claimedAt = QDateTime::fromMSecsSinceEpoch(o.value(QStringLiteral("claimed_ms")).toInteger(), Qt::UTC);
        i.endedAt = QDateTime::fromMSecsSinceEpoch(o.value(QStringLiteral("ended_ms")).toInteger(), Qt::UTC);
        i.endedBy = o.value(QStringLiteral("ended_by")).toString();
        i.reason = o.value(QStringLiteral("reason")).toString();
        i.resent = o.value(QStringLiteral("resent")).toBool();
        out.push_back(std::move(i));
    }
    return out;
}

namespace {

// The checks every written hook passes; the method comes back canonical.
Status validate(Hook &h, const std::optional<QString> &authorization)
{
    const QUrl url(h.url.trimmed(), QUrl::StrictMode);
    if (h.url.trimmed().isEmpty() || !url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return invalid(QStringLiteral("url"),
                       QStringLiteral("url '%1' is not an http:// or https:// URL with a host").arg(maskedUrl(h.url.left(200))));
    if (h.url.size() > kMaxUrl)
        return invalid(QStringLiteral("url"), QStringLiteral("url is longer than %1 characters").arg(kMaxUrl));
    h.url = h.url.trimmed();
    if (Status s = Channels::validateUrl(h.type, h.url); !s)
        return s;
    Result<QString> method = checkHttpMethod(h.httpMethod, h.type);
    if (!method)
        return method.status();
    h.httpMethod = *method;
    if (int(h.contentType) != 1 && int(h.contentType) != 2)
        return invalid(QStringLiteral("content_type"), QStringLiteral("content_type must be json or form"));
    if (Status s = validateBranchFilter(h.events.branchFilter); !s)
        return invalid(
            QStringLiteral("events.branch_filter"),
            QStringLiteral("events.branch_filter '%1' does not compile: %2").arg(h.events.branchFilter, s.message()));
    if (int(h.events.pushOnly) + int(h.events.sendEverything) + int(h.events.chooseEvents) != 1)
        return invalid(QStringLiteral("events"),
                       QStringLiteral("events: exactly one of push_only, send_everything and choose_events"));
    if (h.secret.size() > kMaxSecret)
        return invalid(QStringLiteral("secret"), QStringLiteral("secret is longer than %1 characters").arg(kMaxSecret));
    if (authorization) {
        if (authorization->size() > kMaxAuthorization)
            return invalid(QStringLiteral("authorization"),
                           QStringLiteral("authorization is longer than %1 characters").arg(kMaxAuthorization));
        if (authorization->contains(u'\r') || authorization->contains(u'\n'))
            return invalid(QStringLiteral("authorization"),
                           QStringLiteral("authorization must be one line (no CR or LF)"));
    }
    const QJsonDocument meta = QJsonDocument::fromJson(h.meta.toUtf8());
    if (!h.meta.isEmpty() && !meta.isObject())
        return invalid(QStringLiteral("meta"), QStringLiteral("meta must be a JSON object"));
    if (Status s = Channels::validateMeta(h.type, meta.object()); !s)
        return s;
    if (Channels::isChannel(h.type) && h.contentType != ContentType::Json)
        return invalid(
            QStringLiteral("content_type"),
            QStringLiteral("content_type form is for gitea and gogs hooks; a %1 hook is sent JSON").arg(name(h.type)));
    if (h.repoId < 0 || h.ownerId < 0)
        return invalid(QStringLiteral("repo_id"), QStringLiteral("repo_id and owner_id are ids (0 or more)"));
    if (h.isSystem && h.isDefault)
        return invalid(QStringLiteral("is_default"), QStringLiteral("a hook is a system hook or a default hook, not both"));
    if ((h.isSystem || h.isDefault) && (h.repoId != 0 || h.ownerId != 0))
        return invalid(h.isSystem ? QStringLiteral("is_system") : QStringLiteral("is_default"),
                       QStringLiteral("a %1 hook has neither repo_id nor owner_id").arg(h.isSystem ? QLatin1String("system") : QLatin1String("default")));
    // Repo 0, owner 0 and not system is how the store keeps a default hook: only on purpose.
    if (!h.isSystem && !h.isDefault && h.repoId == 0 && h.ownerId == 0)
        return invalid(QStringLiteral("repo_id"),
                       QStringLiteral("a hook belongs to a repository (repo_id), an owner (owner_id), the system (is_system) "
                                      "or new repositories (is_default)"));
    if (h.name.size() > 255)
        return invalid(QStringLiteral("name"), QStringLiteral("name is longer than 255 characters"));
    return Status::ok();
}

QByteArray eventsJson(const HookEvents &events)
{
    return QJsonDocument(events.toJson()).toJson(QJsonDocument::Compact);
}

bool isEmptyPush(HookEventType type, const QByteArray &payload)
{
    if (type != HookEventType::Push)
        return false;
    const QJsonValue commits = QJsonDocument::fromJson(payload).object().value(QStringLiteral("commits"));
    return commits.isArray() && commits.toArray().isEmpty();
}

bool isRefEvent(HookEventType type)
{
    return type == HookEventType::Push || type == HookEventType::Create || type == HookEventType::Delete;
}

}  // namespace

Result<Hook> WebhookService::create(const Hook &input, const QString &authorization)
{
    Hook h = input;
    if (Status s = validate(h, authorization); !s)
        return s;
    if (Status s = checkHookHost(d->config.webhook.allowedHostList, h.url); !s)
        return s;
    const QString sealed = d->secrets.seal(authorization.toUtf8());
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    Result<qint64> id = d->store.writeValue<qint64>([&](SqlTransaction &tx) {
        return tx.insertReturningId(
            QStringLiteral(
                "INSERT INTO webhook (repo_id, owner_id, is_system, url, name, http_method, content_type, secret, "
                "events, is_active, type, meta, last_status, header_authorization, created_unix, updated_unix) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING id"),
            {h.repoId, h.ownerId, h.isSystem ? 1 : 0, h.url, h.name, h.httpMethod, int(h.contentType), h.secret,
             QString::fromUtf8(eventsJson(h.events)), h.active ? 1 : 0, name(h.type), h.meta, sealed, now, now});
    });
    if (!id)
        return id.status();
    return get(*id);
}

Result<Hook> WebhookService::update(const Hook &input, const std::optional<QString> &authorization)
{
    Result<Hook> current = get(input.id);
    if (!current)
        return current.status();
    Hook h = input;
    h.repoId = current->repoId;
    h.ownerId = current->ownerId;
    h.isSystem = current->isSystem;
    h.isDefault = current->isDefault;
    if (Status s = validate(h, authorization); !s)
        return s;
    if (Status s = checkHookHost(d->config.webhook.allowedHostList, h.url); !s)
        return s;
    // A new URL may be another party's: the stored Authorization header is not sent there unless
    // it is given again (Gitea asks for it on every edit).
    std::optional<QString> header = authorization;
    if (!header && h.url != current->url)
        header = QString();
    const Status written = d->store.write([&](SqlTransaction &tx) -> Status {
        if (Status s = tx.exec(QStringLiteral("UPDATE webhook SET url = ?, name = ?, http_method = ?, content_type = "
                                              "?, secret = ?, events = ?, "
                                              "is_active = ?, type = ?, meta = ?, updated_unix = ? WHERE id = ?"),
                               {h.url, h.name, h.httpMethod, int(h.contentType), h.secret,
                                QString::fromUtf8(eventsJson(h.events)), h.active ? 1 : 0, name(h.type), h.meta,
                                QDateTime::currentSecsSinceEpoch(), h.id})
                           .status();
            !s)
            return s;
        if (!header)
            return Status::ok();
        return tx
            .exec(QStringLiteral("UPDATE webhook SET header_authorization = ? WHERE id = ?"),
                  {d->secrets.seal(header->toUtf8()), h.id})
            .status();
    });
    if (!written)
        return written;
    return get(h.id);
}

Status WebhookService::remove(qint64 id)
{
    bool found = false;
    const Status written = d->store.write([&](SqlTransaction &tx) -> Status {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("DELETE FROM webhook WHERE id = ?"), {id});
        if (!q)
            return q.status();
        found = q->numRowsAffected() > 0;
        return tx.exec(QStringLiteral("DELETE FROM hook_task WHERE hook_id = ?"), {id}).status();
    });
    if (!written)
        return written;
    if (found)
        d->forget(id);
    return found ? Status::ok()
                 : Status::notFound(QStringLiteral("no webhook %1").arg(id)).withField(QStringLiteral("id"));
}

Result<Hook> WebhookService::get(qint64 id)
{
    return d->store.readValue<Hook>([&](SqlTransaction &tx) -> Result<Hook> {
        Result<QSqlQuery> q =
            tx.exec(QStringLiteral("SELECT ") + kHookColumns + QStringLiteral(" FROM webhook WHERE id = ?"), {id});
        if (!q)
            return q.status();
        if (!q->next())
            return Status::notFound(QStringLiteral("no webhook %1").arg(id)).withField(QStringLiteral("id"));
        return hookFrom(*q);
    });
}

Result<std::vector<Hook>> WebhookService::list()
{
    return d->store.readValue<std::vector<Hook>>([&](SqlTransaction &tx) -> Result<std::vector<Hook>> {
        Result<QSqlQuery> q =
            tx.exec(QStringLiteral("SELECT ") + kHookColumns + QStringLiteral(" FROM webhook ORDER BY id"));
        if (!q)
            return q.status();
        std::vector<Hook> hooks;
        while (q->next()) {
            Result<Hook> h = hookFrom(*q);
            if (!h)
                return h.status();
            hooks.push_back(std::move(h).value());
        }
        return hooks;
    });
}

namespace {

// The delivery id of the task one call of a dispatch makes for one hook: the same in every
// dispatch of the same cause (prepare()'s `key`).
QString derivedDeliveryId(const QString &traceId, const QString &key, qint64 hookId)
{
    static const QUuid kNamespace = QUuid::fromString(QLatin1String("8f6c2b8e-4a1d-4f0e-9c57-2f1e6b0d9a31"));
    return QUuid::createUuidV5(kNamespace, QStringLiteral("%1\n%2\n%3").arg(traceId, key).arg(hookId)).toString(QUuid::WithoutBraces);
}

// A task for hook `h`: its id; with a derived delivery id that exists already, that task's id
// when it is still undelivered (to be queued again), 0 when it is delivered.
Result<qint64> insertTask(SqlTransaction &tx, const Hook &h, HookEventType type, const QByteArray &payload, const QString &traceId,
                          const QString &key)
{
    const QString uuid = key.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces) : derivedDeliveryId(traceId, key, h.id);
    Result<QSqlQuery> inserted =
        tx.exec(QStringLiteral("INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, created_ms, trace_id) "
                               "VALUES (?, ?, ?, 2, ?, ?, ?) ON CONFLICT (uuid) DO NOTHING RETURNING id"),
                {h.id, uuid, payload, name(type), nowMs(), traceId});
    if (!inserted)
        return inserted.status();
    if (inserted->next())
        return inserted->value(0).toLongLong();
    inserted->finish();
    return tx.scalar(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM hook_task WHERE uuid = ? AND is_delivered = 0 AND outcome = ''"),
                     {uuid});
}

// Gitea's CopyDefaultWebhooksToRepo inside the caller's transaction: the default hooks become
// repository `repoId`'s, unless a row of repo_default_hooks says it got them already.
Result<int> copyDefaults(SqlTransaction &tx, qint64 repoId)
{
    if (repoId <= 0)
        return 0;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    Result<QSqlQuery> first = tx.exec(QStringLiteral("INSERT INTO repo_default_hooks (repo_id, copied_unix) VALUES (?, ?) "
                                                     "ON CONFLICT (repo_id) DO NOTHING RETURNING repo_id"),
                                      {repoId, now});
    if (!first)
        return first.status();
    const bool firstTime = first->next();
    first->finish();
    if (!firstTime)
        return 0;
    // Everything but the id, the scope and the last status (a copy has not been delivered yet).
    Result<QSqlQuery> copied = tx.exec(
        QStringLiteral("INSERT INTO webhook (repo_id, owner_id, is_system, url, name, http_method, content_type, secret, events, "
                       "is_active, type, meta, last_status, header_authorization, created_unix, updated_unix) "
                       "SELECT ?, 0, 0, url, name, http_method, content_type, secret, events, is_active, type, meta, 0, "
                       "header_authorization, ?, ? FROM webhook WHERE repo_id = 0 AND owner_id = 0 AND is_system = 0 ORDER BY id"),
        {repoId, now, now});
    if (!copied)
        return copied.status();
    return copied->numRowsAffected();
}

} // namespace

Result<int> WebhookService::copyDefaultHooks(qint64 repoId)
{
    return d->store.writeValue<int>([&](SqlTransaction &tx) { return copyDefaults(tx, repoId); });
}

Result<int> WebhookService::prepare(const CancelToken &cancel, const EventSource &source, HookEventType type,
                                    const QByteArray &payload, const QString &ref, const QString &traceId, const QString &key)
{
    if (d->config.webhook.disableWebhooks) {
        if (!source.newRepository)
            return 0;
        Result<int> copied = copyDefaultHooks(source.repoId); // Gitea copies them all the same
        return copied ? Result<int>(0) : Result<int>(copied.status());
    }
    std::vector<qint64> created;
    const Status written = d->store.write([&](SqlTransaction &tx) -> Status {
        created.clear();
        if (source.newRepository)
            if (Result<int> copied = copyDefaults(tx, source.repoId); !copied)
                return copied.status();
        // Repository hooks, then the owner's, then the system's; active ones only. A default hook
        // (repo 0, owner 0, not system) matches no clause: it is never sent.
        Result<QSqlQuery> q = tx.exec(
            QStringLiteral("SELECT ") + kHookColumns +
                QStringLiteral(" FROM webhook WHERE is_active = 1 AND ((repo_id = ? AND ? <> 0) "
                               "OR (repo_id = 0 AND owner_id = ? AND ? <> 0) OR is_system = 1) "
                               "ORDER BY CASE WHEN repo_id <> 0 THEN 0 WHEN owner_id <> 0 THEN 1 ELSE 2 END, id"),
            {source.repoId, source.repoId, source.ownerId, source.ownerId});
        if (!q)
            return q.status();
        std::vector<Hook> hooks;
        while (q->next()) {
            Result<Hook> h = hookFrom(*q);
            if (!h) {
                qCWarning(lcWebhook).noquote() << h.status().message();  // one unreadable hook does not stop the others
                continue;
            }
            hooks.push_back(std::move(h).value());
        }
        const bool emptyPush = isEmptyPush(type, payload);
        for (const Hook &h : hooks) {
            if (!h.events.has(type))
                continue;
            if (emptyPush && h.type != HookType::Gitea && h.type != HookType::Gogs)
                continue;
            if (isRefEvent(type) && !h.events.passesBranchFilter(ref))
                continue;
            Result<qint64> id = insertTask(tx, h, type, payload, traceId, key);
            if (!id)
                return id.status();
            if (*id > 0)
                created.push_back(*id);
        }
        return Status::ok();
    });
    if (!written)
        return written;
    crashPoint("hooktask.stored");
    d->announce(created);
    d->pushStored(cancel, created, "new");
    return int(created.size());
}

Result<HookTask> WebhookService::redeliver(const CancelToken &cancel, qint64 id)
{
    Result<HookTask> original = task(id);
    if (!original)
        return original.status();
    Result<qint64> copy = d->store.writeValue<qint64>([&](SqlTransaction &tx) {
        return tx.insertReturningId(
            QStringLiteral("INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, created_ms, "
                           "redelivery_of, trace_id) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
            {original->hookId, QUuid::createUuid().toString(QUuid::WithoutBraces), original->payload,
             original->payloadVersion, name(original->eventType), nowMs(), original->id, original->traceId});
    });
    if (!copy)
        return copy.status();
    d->announce({*copy});
    d->pushStored(cancel, {*copy}, "redelivered");
    return task(*copy);
}

Result<HookTask> WebhookService::test(const CancelToken &cancel, qint64 hookId)
{
    if (d->config.webhook.disableWebhooks)
        return Status::conflict(QStringLiteral("webhooks are disabled ([security] DISABLE_WEBHOOKS)"));
    Result<Hook> hook = get(hookId);
    if (!hook)
        return hook.status();
    // Gitea's test push: one fake commit on the default branch of the hook's repository (a
    // stand-in repository for an owner's or the system's hook).
    Result<ForgeRepo> repo =
        hook->repoId > 0
            ? d->store.readValue<ForgeRepo>([&](SqlTransaction &tx) { return ForgeDb::repo(tx, hook->repoId); })
            : Result<ForgeRepo>(ForgeRepo{});
    if (!repo)
        return repo.status();
    if (repo->name.isEmpty()) {
        repo->name = QStringLiteral("test");
        repo->owner.login = QStringLiteral("switchyard");
        repo->defaultBranch = QStringLiteral("main");
    }
    const QString branch = repo->defaultBranch.isEmpty() ? QStringLiteral("main") : repo->defaultBranch;
    PushCommit commit;
    commit.sha = QStringLiteral("0000000000000000000000000000000000000000");
    commit.message = QStringLiteral("This is a fake commit");
    commit.authorName = QStringLiteral("Switchyard");
    commit.authorEmail = QStringLiteral("switchyard@localhost");
    commit.timestamp = QDateTime::currentDateTimeUtc();
    PushUpdate push;
    push.refFullName = QStringLiteral("refs/heads/") + branch;
    push.oldCommitId = commit.sha;
    push.newCommitId = commit.sha;
    push.commits = {commit};
    push.totalCommits = 1;
    ForgeUser pusher;
    pusher.login = QStringLiteral("switchyard");
    pusher.fullName = QStringLiteral("Switchyard test delivery");
    const QByteArray payload = Payload::push(push, *repo, pusher, pusher).toJson();
    const QString traceId = QUuid::createUuid().toString(QUuid::Id128);
    Result<qint64> id = d->store.writeValue<qint64>([&](SqlTransaction &tx) {
        return tx.insertReturningId(
            QStringLiteral(
                "INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, created_ms, trace_id) "
                "VALUES (?, ?, ?, 2, ?, ?, ?) RETURNING id"),
            {hookId, QUuid::createUuid().toString(QUuid::WithoutBraces), payload, name(HookEventType::Push), nowMs(),
             traceId});
    });
    if (!id)
        return id.status();
    d->announce({*id});
    d->pushStored(cancel, {*id}, "test");
    return task(*id);
}

Result<HookTask> WebhookService::task(const QString &uuid)
{
    return d->store.readValue<HookTask>([&](SqlTransaction &tx) -> Result<HookTask> {
        Result<QSqlQuery> q = tx.exec(
            QStringLiteral("SELECT ") + kTaskColumns + QStringLiteral(" FROM hook_task WHERE uuid = ?"), {uuid});
        if (!q)
            return q.status();
        if (!q->next())
            return Status::notFound(QStringLiteral("no webhook task with delivery id %1").arg(uuid.left(64)))
                .withField(QStringLiteral("uuid"));
        return taskFrom(*q);
    });
}

Result<HookTask> WebhookService::task(qint64 id)
{
    return d->store.readValue<HookTask>([&](SqlTransaction &tx) -> Result<HookTask> {
        Result<QSqlQuery> q =
            tx.exec(QStringLiteral("SELECT ") + kTaskColumns + QStringLiteral(" FROM hook_task WHERE id = ?"), {id});
        if (!q)
            return q.status();
        if (!q->next())
            return Status::notFound(QStringLiteral("no webhook task %1").arg(id)).withField(QStringLiteral("id"));
        return taskFrom(*q);
    });
}

}  // namespace Switchyard::Webhook
