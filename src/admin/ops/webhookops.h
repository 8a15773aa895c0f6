#pragma once

// Webhooks (docs/api.md "Webhooks"): hooks and their delivery history, redeliver and test — and
// the JSON description of their values. Secrets and the Authorization header go in, never out.

#include "admin/catalogue.h"

#include "engine/webhook/webhook.h"

// Found by argument-dependent lookup, so it lives in the engine type's namespace.
namespace Switchyard::Webhook {

// GET /deliveries/stats: this instance's delivery counts since start and recent latency.
template<typename V>
void describe(V &v, DeliveryStats &s)
{
    v("succeeded", s.succeeded);
    v("failed", s.failed);
    v("skipped", s.skipped);
    v("in_flight", s.inFlight);
    v("duration_seconds", s.durationSeconds);
    v("recent", s.recent);
    v.group("latency_ms", [&](auto &g) {
        g("p50", s.latencyP50Ms);
        g("p99", s.latencyP99Ms);
    });
}

} // namespace Switchyard::Webhook

namespace Switchyard::Admin {

// A hook as the API shows it.
struct HookRow
{
    qint64 id = 0;
    QString scope; // repository, organization, user, system, default (copied into new repositories, never sent)
    qint64 repoId = 0;
    qint64 ownerId = 0;
    QString url;     // masked (Webhook::maskedUrl()) but for an admin's GET /hooks/{id}
    bool urlMasked = false; // `url` had credentials replaced by ***
    QString name;
    QString type;
    QString httpMethod;
    QString contentType;
    QJsonValue events; // the events JSON
    bool active = true;
    QString lastStatus; // none, succeed, fail
    bool hasSecret = false;
    bool hasAuthorization = false;
    QJsonValue meta;
    QDateTime createdAt;
    QDateTime updatedAt;
    bool authorizationCleared = false; // an update's answer: the new URL dropped the stored Authorization header
    QString notice;                    // an update's answer: what a person should know (that it was dropped)
    bool operator==(const HookRow &) const = default;
};
template<typename V>
void describe(V &v, HookRow &h)
{
    v("id", h.id);
    v("scope", h.scope);
    v("repo_id", h.repoId);
    v("owner_id", h.ownerId);
    v("url", h.url);
    v("url_masked", h.urlMasked, Json::Optional); // always written; absent from older daemons
    v("name", h.name);
    v("type", h.type);
    v("http_method", h.httpMethod);
    v("content_type", h.contentType);
    v("events", h.events);
    v("active", h.active);
    v("last_status", h.lastStatus);
    v("has_secret", h.hasSecret);
    v("has_authorization", h.hasAuthorization);
    v("meta", h.meta);
    v("created_at", h.createdAt);
    v("updated_at", h.updatedAt);
    v("authorization_cleared", h.authorizationCleared, Json::Omit);
    v("notice", h.notice, Json::Omit);
}


// An attempt that ended with its instance (HookTaskRow::interrupted).
template<typename V>
void describe(V &v, HookTaskRow::Interrupted &i)
{
    v("instance_id", i.instanceId);
    v("claimed_at", i.claimedAt);
    v("ended_at", i.endedAt);
    v("ended_by", i.endedBy);
    v("reason", i.reason);
    v("resent", i.resent);
}

// HookTaskRow (admintypes.h): one delivery in the history.
template<typename V>
void describe(V &v, HookTaskRow &t)
{
    v("id", t.id);
    v("hook_id", t.hookId);
    v("uuid", t.uuid);
    v("event_type", t.eventType);
    v("event", t.event);
    v("payload_version", t.payloadVersion);
    v("is_delivered", t.isDelivered);
    v("is_succeed", t.isSucceed);
    v("status", t.status);
    v("created_at", t.createdAt);
    v("delivered", t.delivered);
    v("duration_ms", t.durationMs);
    v("request", t.request);
    v("response", t.response);
    v("redelivery_of", t.redeliveryOf);
    v("trace_id", t.traceId);
    v("attempt", t.attempt, Json::Omit);
    v("deliver_after", t.deliverAfter, Json::Omit);
    v("claimed_by", t.claimedBy, Json::Omit);
    v("interrupted", t.interrupted, Json::Omit); // attempts its instance did not see to an end
}

// The new task of a redelivery or a test.
struct HookTaskCreated
{
    qint64 id = 0;
    QString uuid;
    qint64 hookId = 0;
};
template<typename V>
void describe(V &v, HookTaskCreated &t)
{
    v("id", t.id);
    v("uuid", t.uuid);
    v("hook_id", t.hookId);
}

struct HookListArgs
{
    QString scope;
    qint64 repo = 0;
    qint64 owner = 0;
};
template<typename V>
void describe(V &v, HookListArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "scope", "only this scope: repository, organization, user, system or default", 0, 0, "--scope"}, a.scope);
    v(ArgSpec{ArgSpec::Query, "repo", "only the hooks of this repository id", 0, std::numeric_limits<qint64>::max(), "--repo"}, a.repo);
    v(ArgSpec{ArgSpec::Query, "owner", "only the hooks of this owner (user or organisation) id", 0,
              std::numeric_limits<qint64>::max(), "--owner"},
      a.owner);
}

struct HookRef
{
    qint64 id = 0;
};
template<typename V>
void describe(V &v, HookRef &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the hook's id (hooks list)", 1}, a.id);
}

// POST /hooks. The scope follows from repo_id / owner_id when it is not given.
struct HookCreateArgs
{
    QString scope;
    qint64 repoId = 0;
    qint64 ownerId = 0;
    QString url;
    QString name;
    QString type = QStringLiteral("gitea");
    QString httpMethod;
    QString contentType = QStringLiteral("json");
    QString secret;
    QString authorizationHeader;
    QJsonValue events;
    bool active = true;
    QJsonValue meta;
};
template<typename V>
void describe(V &v, HookCreateArgs &a)
{
    constexpr qint64 kMax = std::numeric_limits<qint64>::max();
    v(ArgSpec{ArgSpec::Body, "scope",
              "repository, organization, user, system, or default (copied into each new repository, never sent itself); "
              "when not given: from repo_id / owner_id",
              0, 0, "--scope"},
      a.scope);
    v(ArgSpec{ArgSpec::Body, "repo_id", "the repository's id (a repository hook)", 0, kMax, "--repo"}, a.repoId);
    v(ArgSpec{ArgSpec::Body, "owner_id", "the owner's id (an organisation's or user's hook)", 0, kMax, "--owner"}, a.ownerId);
    v(ArgSpec{ArgSpec::Body, "url", "where deliveries go (http or https)", 0, 0, "--target-url", true}, a.url);
    v(ArgSpec{ArgSpec::Body, "name", "a name for people", 0, 0, "--name"}, a.name);
    v(ArgSpec{ArgSpec::Body, "type", "gitea (default), gogs, slack, discord, dingtalk, telegram, msteams, feishu, matrix, wechatwork or packagist", 0, 0, "--type"}, a.type);
    v(ArgSpec{ArgSpec::Body, "http_method", "POST (default), GET, or PUT (matrix)", 0, 0, "--method"}, a.httpMethod);
    v(ArgSpec{ArgSpec::Body, "content_type", "json (default) or form", 0, 0, "--content-type"}, a.contentType);
    v(ArgSpec{ArgSpec::Body, "secret", "the key of the HMAC signatures", 0, 0, "--secret"}, a.secret);
    v(ArgSpec{ArgSpec::Body, "authorization_header", "an Authorization header to send (sealed at rest)", 0, 0, "--authorization"},
      a.authorizationHeader);
    v(ArgSpec{ArgSpec::Body, "events", "the events JSON: {push_only, send_everything, choose_events, branch_filter, events}", 0, 0,
              "--events"},
      a.events);
    v(ArgSpec{ArgSpec::Body, "active", "deliver (default true)", 0, 0, "--active"}, a.active);
    v(ArgSpec{ArgSpec::Body, "meta", "the channel's settings (JSON object): slack {channel, username, icon_url, color}, discord {username, icon_url}, telegram {chat_id, thread_id}, matrix {message_type}, packagist {package_url}", 0, 0, "--meta"}, a.meta);
}

// PATCH /hooks/{id}: the fields given change, the others stay. An empty secret or
// authorization_header removes it.
struct HookUpdateArgs
{
    qint64 id = 0;
    QString url;
    QJsonValue name;
    QString type;
    QString httpMethod;
    QString contentType;
    QJsonValue secret;
    QJsonValue authorizationHeader;
    QJsonValue events;
    QJsonValue active;
    QJsonValue meta;
};
template<typename V>
void describe(V &v, HookUpdateArgs &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the hook's id (hooks list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Body, "url", "where deliveries go", 0, 0, "--target-url"}, a.url);
    v(ArgSpec{ArgSpec::Body, "name", "a name for people (a JSON string)", 0, 0, "--name"}, a.name);
    v(ArgSpec{ArgSpec::Body, "type", "gitea, gogs, slack, discord, dingtalk, telegram, msteams, feishu, matrix, wechatwork or packagist", 0, 0, "--type"}, a.type);
    v(ArgSpec{ArgSpec::Body, "http_method", "POST, GET, or PUT (matrix)", 0, 0, "--method"}, a.httpMethod);
    v(ArgSpec{ArgSpec::Body, "content_type", "json or form", 0, 0, "--content-type"}, a.contentType);
    v(ArgSpec{ArgSpec::Body, "secret", "the HMAC key; \"\" removes it", 0, 0, "--secret"}, a.secret);
    v(ArgSpec{ArgSpec::Body, "authorization_header", "the Authorization header; \"\" removes it", 0, 0, "--authorization"},
      a.authorizationHeader);
    v(ArgSpec{ArgSpec::Body, "events", "the events JSON", 0, 0, "--events"}, a.events);
    v(ArgSpec{ArgSpec::Body, "active", "true or false", 0, 0, "--active"}, a.active);
    v(ArgSpec{ArgSpec::Body, "meta", "the channel's settings (JSON object): slack {channel, username, icon_url, color}, discord {username, icon_url}, telegram {chat_id, thread_id}, matrix {message_type}, packagist {package_url}", 0, 0, "--meta"}, a.meta);
}

struct HookTasksArgs
{
    qint64 id = 0;
    qint64 page = 1;
    qint64 limit = 50;
    QString status;
};
template<typename V>
void describe(V &v, HookTasksArgs &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the hook's id (hooks list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Query, "page", "page (1-based)", 1, 1'000'000'000, "--page"}, a.page);
    v(ArgSpec{ArgSpec::Query, "limit", "deliveries per page (max 500)", 1, 500, "--limit"}, a.limit);
    v(ArgSpec{ArgSpec::Query, "status", "only this status: pending, succeeded, failed, unknown, skipped", 0, 0, "--status"}, a.status);
}

struct HookTaskRef
{
    qint64 id = 0;
    QString uuid;
};
template<typename V>
void describe(V &v, HookTaskRef &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the hook's id (hooks list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Path, "uuid", "the delivery id (hooks tasks)"}, a.uuid);
}

// The delivery filter GET /deliveries takes in its query and POST /deliveries/redeliver in its
// body (docs/webhooks.md "Searching the history").
struct DeliveryFilterArgs
{
    qint64 hook = 0;
    QString status;
    QString event;
    QDateTime since;
    QDateTime until;
    QString q;
};
template<typename V>
void describeFilter(V &v, DeliveryFilterArgs &a, ArgSpec::Where where, bool statusRequired)
{
    constexpr qint64 kMax = std::numeric_limits<qint64>::max();
    v(ArgSpec{where, "hook", "only this hook's deliveries", 0, kMax, "--hook"}, a.hook);
    v(ArgSpec{where, "status", statusRequired ? "failed or unknown" : "pending, succeeded, failed, unknown or skipped", 0, 0, "--status",
              statusRequired},
      a.status);
    v(ArgSpec{where, "event", "the fine event type (issue_comment, pull_request_review_approved …)", 0, 0, "--event"}, a.event);
    v(ArgSpec{where, "since", "queued at or after (ISO 8601)", 0, 0, "--since"}, a.since);
    v(ArgSpec{where, "until", "queued before (ISO 8601)", 0, 0, "--until"}, a.until);
    v(ArgSpec{where, "q", "text in the payload or the response (ASCII case ignored)", 0, 0, "--text"}, a.q);
}

// GET /deliveries: the search across hooks.
struct DeliverySearchArgs : DeliveryFilterArgs
{
    qint64 page = 1;
    qint64 limit = 50;
    QString format; // empty: a page of JSON rows; csv or json: every match, streamed (an export)
    qint64 before = 0; // keyset paging: only ids below this (the last id of the previous page)
};
template<typename V>
void describe(V &v, DeliverySearchArgs &a)
{
    describeFilter(v, a, ArgSpec::Query, false);
    v(ArgSpec{ArgSpec::Query, "before", "only deliveries with a smaller id (the last id of the previous page)", 0,
              std::numeric_limits<qint64>::max(), "--before"},
      a.before);
    v(ArgSpec{ArgSpec::Query, "page", "page (1-based)", 1, 1'000'000'000, "--page"}, a.page);
    v(ArgSpec{ArgSpec::Query, "limit", "deliveries per page (max 500)", 1, 500, "--limit"}, a.limit);
    v(ArgSpec{ArgSpec::Query, "format", "csv or json: export every match (page and limit ignored)", 0, 0, "--format"}, a.format);
}

// POST /deliveries/redeliver: the same filter in the body; status failed or unknown.
struct DeliveryRedeliverArgs : DeliveryFilterArgs
{
    bool dryRun = false;
};
template<typename V>
void describe(V &v, DeliveryRedeliverArgs &a)
{
    describeFilter(v, a, ArgSpec::Body, true);
    v(ArgSpec{ArgSpec::Body, "dry_run", "only count the matches (a read)", 0, 0, "--dry-run"}, a.dryRun);
}

// What a bulk redelivery answers: the matches, and the job that sends them (not for a dry run).
struct BulkRedelivery
{
    qint64 matched = 0;
    qint64 jobId = -1; // the process (GET /processes, POST /processes/{pid}/cancel)
    bool dryRun = false;
    bool accepted = false; // 202: the job goes on after the answer
};
template<typename V>
void describe(V &v, BulkRedelivery &b)
{
    v("matched", b.matched);
    v("job_id", b.jobId, Json::Omit);
    v("dry_run", b.dryRun, Json::Omit);
}


// The CSV export of the delivery history (RFC 4180, UTF-8, CRLF), one line per delivery; the
// API's format=csv and the console's Export write the same bytes. Bodies are left out (the JSON
// export has them).
QByteArray deliveryCsvHeader();
QByteArray deliveryCsvLine(const HookTaskRow &row);

// `clearUrl`: the URL as stored (the admin's edit form: GET /hooks/{id} with an admin token);
// otherwise masked, as every other view shows it.
HookRow hookRow(const Webhook::Hook &hook, bool ownerIsOrganization, bool clearUrl = false);
// The events a hook may choose (Gitea's allEvents(): 26 names, in its order).
QStringList hookEventNames();
HookTaskRow hookTaskRow(const Webhook::HookTask &task);

namespace Ops {

extern const Op<HookListArgs, std::vector<HookRow>> hookList;
extern const Op<HookRef, HookRow> hookGet;
extern const Op<HookCreateArgs, HookRow> hookCreate;
extern const Op<HookUpdateArgs, HookRow> hookUpdate;
extern const Op<HookRef, Done> hookDelete;
extern const Op<HookTasksArgs, Page<HookTaskRow>> hookTasks;
extern const Op<HookTaskRef, HookTaskCreated> hookRedeliver;
extern const Op<HookRef, HookTaskCreated> hookTest;
extern const Op<DeliverySearchArgs, Page<HookTaskRow>> deliverySearch;
extern const Op<DeliveryRedeliverArgs, BulkRedelivery> deliveryRedeliver;
extern const Op<NoArgs, Webhook::DeliveryStats> deliveryStats;

std::vector<const OpBase *> webhookOps();

} // namespace Ops

} // namespace Switchyard::Admin
