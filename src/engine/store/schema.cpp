// The store's schema as numbered migrations. A released migration is never edited: a change is a
// new migration. Each runs in one transaction (DDL is transactional in SQLite and PostgreSQL), so a
// failed one leaves the previous version intact. Column conventions (docs/storage.md): ids are
// 64-bit and generated; times are *_ms (milliseconds since the epoch, UTC) for the engine's own
// rows and *_unix (seconds) for the forge's domain rows, as in Gitea; work rows keep trace_id.
#include "store_p.h"

namespace Switchyard {

namespace {

QString id(StoreBackend backend)
{
    return backend == StoreBackend::Postgres ? QStringLiteral("id BIGSERIAL PRIMARY KEY")
                                             : QStringLiteral("id INTEGER PRIMARY KEY AUTOINCREMENT");
}

// 1: the engine's own state — system notices, cron run history, pauses and tick claims.
QStringList engineState(StoreBackend b)
{
    return {
        QStringLiteral("CREATE TABLE notice (%1, type TEXT NOT NULL, description TEXT NOT NULL, "
                       "created_ms BIGINT NOT NULL, trace_id TEXT NOT NULL DEFAULT '')").arg(id(b)),
        QStringLiteral("CREATE INDEX notice_created ON notice (created_ms)"),

        QStringLiteral("CREATE TABLE cron_run (%1, task TEXT NOT NULL, instance_id TEXT NOT NULL, "
                       "trigger_kind TEXT NOT NULL, doer TEXT NOT NULL, started_ms BIGINT NOT NULL, "
                       "duration_ms BIGINT NOT NULL, status TEXT NOT NULL, message TEXT NOT NULL, "
                       "trace_id TEXT NOT NULL DEFAULT '')").arg(id(b)),
        QStringLiteral("CREATE INDEX cron_run_task ON cron_run (task, id)"),

        QStringLiteral("CREATE TABLE cron_pause (task TEXT PRIMARY KEY, paused_ms BIGINT NOT NULL)"),
        // One row per scheduled tick that an instance ran: instances sharing a PostgreSQL
        // database without Redis agree through its primary key.
        QStringLiteral("CREATE TABLE cron_tick (task TEXT NOT NULL, tick_ms BIGINT NOT NULL, instance_id TEXT NOT NULL, "
                       "expires_ms BIGINT NOT NULL, PRIMARY KEY (task, tick_ms))"),
        QStringLiteral("CREATE INDEX cron_tick_expires ON cron_tick (expires_ms)"),
    };
}

// 2: the forge's domain as seen in ingested events, and what the engine makes of it: in-app
// notifications, the activity feed, the events themselves. Domain rows are keyed by (source,
// external_id): the event source's name and the forge's own id, so two forges never collide.
QStringList forgeDomain(StoreBackend b)
{
    const QString blob = b == StoreBackend::Postgres ? QStringLiteral("BYTEA") : QStringLiteral("BLOB");
    return {
        // Users and organisations. email_notifications: enabled | onmention | disabled | andyourown.
        QStringLiteral("CREATE TABLE forge_user (%1, source TEXT NOT NULL, external_id BIGINT NOT NULL, login TEXT NOT NULL, "
                       "full_name TEXT NOT NULL DEFAULT '', email TEXT NOT NULL DEFAULT '', is_bot INTEGER NOT NULL DEFAULT 0, "
                       "is_org INTEGER NOT NULL DEFAULT 0, is_active INTEGER NOT NULL DEFAULT 1, language TEXT NOT NULL DEFAULT '', "
                       "email_notifications TEXT NOT NULL DEFAULT 'enabled', created_unix BIGINT NOT NULL, "
                       "updated_unix BIGINT NOT NULL, UNIQUE (source, external_id))").arg(id(b)),
        QStringLiteral("CREATE INDEX forge_user_login ON forge_user (login)"),
        QStringLiteral("CREATE TABLE repo (%1, source TEXT NOT NULL, external_id BIGINT NOT NULL, owner_id BIGINT NOT NULL, "
                       "name TEXT NOT NULL, is_private INTEGER NOT NULL DEFAULT 0, is_fork INTEGER NOT NULL DEFAULT 0, "
                       "fork_of_id BIGINT NOT NULL DEFAULT 0, default_branch TEXT NOT NULL DEFAULT '', "
                       "html_url TEXT NOT NULL DEFAULT '', created_unix BIGINT NOT NULL, updated_unix BIGINT NOT NULL, "
                       "UNIQUE (source, external_id))").arg(id(b)),
        // Issues and pull requests (is_pull); a pull's branches and state beside the issue's. Keyed
        // by (repo_id, number): a pull's payloads carry the pull's id, its comments the issue's.
        QStringLiteral("CREATE TABLE issue (%1, external_id BIGINT NOT NULL DEFAULT 0, repo_id BIGINT NOT NULL, "
                       "number BIGINT NOT NULL, poster_id BIGINT NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL DEFAULT '', "
                       "is_pull INTEGER NOT NULL DEFAULT 0, is_closed INTEGER NOT NULL DEFAULT 0, is_wip INTEGER NOT NULL DEFAULT 0, "
                       "has_merged INTEGER NOT NULL DEFAULT 0, head_branch TEXT NOT NULL DEFAULT '', base_branch TEXT NOT NULL DEFAULT '', "
                       "html_url TEXT NOT NULL DEFAULT '', created_unix BIGINT NOT NULL, updated_unix BIGINT NOT NULL, "
                       "UNIQUE (repo_id, number))").arg(id(b)),
        QStringLiteral("CREATE TABLE issue_assignee (issue_id BIGINT NOT NULL, user_id BIGINT NOT NULL, PRIMARY KEY (issue_id, user_id))"),
        QStringLiteral("CREATE TABLE review_request (issue_id BIGINT NOT NULL, user_id BIGINT NOT NULL, PRIMARY KEY (issue_id, user_id))"),
        // Who took part: the poster, commenters, reviewers, the @mentioned (Gitea derives it from comments).
        QStringLiteral("CREATE TABLE issue_participant (issue_id BIGINT NOT NULL, user_id BIGINT NOT NULL, PRIMARY KEY (issue_id, user_id))"),
        QStringLiteral("CREATE TABLE comment (%1, source TEXT NOT NULL, external_id BIGINT NOT NULL, issue_id BIGINT NOT NULL, "
                       "poster_id BIGINT NOT NULL, content TEXT NOT NULL DEFAULT '', review_id BIGINT NOT NULL DEFAULT 0, "
                       "tree_path TEXT NOT NULL DEFAULT '', line BIGINT NOT NULL DEFAULT 0, html_url TEXT NOT NULL DEFAULT '', "
                       "created_unix BIGINT NOT NULL, updated_unix BIGINT NOT NULL, UNIQUE (source, external_id))").arg(id(b)),
        QStringLiteral("CREATE INDEX comment_issue ON comment (issue_id)"),
        // type as Gitea's ReviewType: 0 pending, 1 approve, 2 comment, 3 reject, 4 request.
        QStringLiteral("CREATE TABLE review (%1, source TEXT NOT NULL, external_id BIGINT NOT NULL, issue_id BIGINT NOT NULL, "
                       "reviewer_id BIGINT NOT NULL, type INTEGER NOT NULL, content TEXT NOT NULL DEFAULT '', "
                       "created_unix BIGINT NOT NULL, UNIQUE (source, external_id))").arg(id(b)),
        QStringLiteral("CREATE TABLE forge_release (%1, source TEXT NOT NULL, external_id BIGINT NOT NULL, repo_id BIGINT NOT NULL, "
                       "publisher_id BIGINT NOT NULL, tag_name TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', "
                       "note TEXT NOT NULL DEFAULT '', is_draft INTEGER NOT NULL DEFAULT 0, is_prerelease INTEGER NOT NULL DEFAULT 0, "
                       "created_unix BIGINT NOT NULL, UNIQUE (source, external_id))").arg(id(b)),
        // Repository watches. mode as Gitea's WatchMode: 0 none, 1 normal, 2 don't, 3 auto; the
        // three flags narrow what a watcher hears (all by default).
        QStringLiteral("CREATE TABLE watch (user_id BIGINT NOT NULL, repo_id BIGINT NOT NULL, mode INTEGER NOT NULL, "
                       "issues INTEGER NOT NULL DEFAULT 1, pulls INTEGER NOT NULL DEFAULT 1, releases INTEGER NOT NULL DEFAULT 1, "
                       "created_unix BIGINT NOT NULL, updated_unix BIGINT NOT NULL, PRIMARY KEY (user_id, repo_id))"),
        QStringLiteral("CREATE INDEX watch_repo ON watch (repo_id, mode)"),
        // An explicit issue watch (is_watching 1) or unwatch (0).
        QStringLiteral("CREATE TABLE issue_watch (user_id BIGINT NOT NULL, issue_id BIGINT NOT NULL, is_watching INTEGER NOT NULL, "
                       "created_unix BIGINT NOT NULL, updated_unix BIGINT NOT NULL, PRIMARY KEY (user_id, issue_id))"),
        QStringLiteral("CREATE INDEX issue_watch_issue ON issue_watch (issue_id)"),
        // A user who muted a repository hears nothing of it, mentions included.
        QStringLiteral("CREATE TABLE repo_ignore (user_id BIGINT NOT NULL, repo_id BIGINT NOT NULL, created_unix BIGINT NOT NULL, "
                       "PRIMARY KEY (user_id, repo_id))"),
        // mode: 1 read, 2 write, 3 admin (Gitea's AccessMode).
        QStringLiteral("CREATE TABLE collaborator (repo_id BIGINT NOT NULL, user_id BIGINT NOT NULL, mode INTEGER NOT NULL, "
                       "PRIMARY KEY (repo_id, user_id))"),
        QStringLiteral("CREATE TABLE org_member (org_id BIGINT NOT NULL, user_id BIGINT NOT NULL, PRIMARY KEY (org_id, user_id))"),

        // In-app notifications. status: 1 unread, 2 read, 3 pinned; source: 1 issue, 2 pull,
        // 3 commit, 4 repository.
        QStringLiteral("CREATE TABLE notification (%1, user_id BIGINT NOT NULL, repo_id BIGINT NOT NULL, issue_id BIGINT NOT NULL, "
                       "comment_id BIGINT NOT NULL DEFAULT 0, commit_id TEXT NOT NULL DEFAULT '', status INTEGER NOT NULL, "
                       "source INTEGER NOT NULL, updated_by BIGINT NOT NULL, created_unix BIGINT NOT NULL, "
                       "updated_unix BIGINT NOT NULL, trace_id TEXT NOT NULL DEFAULT '')").arg(id(b)),
        QStringLiteral("CREATE INDEX notification_user ON notification (user_id, status, updated_unix)"),
        QStringLiteral("CREATE INDEX notification_issue ON notification (issue_id, user_id)"),
        QStringLiteral("CREATE INDEX notification_trace ON notification (trace_id)"),
        // The activity feed: one row per user who sees the action (Gitea's action table).
        QStringLiteral("CREATE TABLE action (%1, user_id BIGINT NOT NULL, op_type INTEGER NOT NULL, act_user_id BIGINT NOT NULL, "
                       "repo_id BIGINT NOT NULL, comment_id BIGINT NOT NULL DEFAULT 0, ref_name TEXT NOT NULL DEFAULT '', "
                       "is_private INTEGER NOT NULL DEFAULT 0, content TEXT NOT NULL DEFAULT '', created_unix BIGINT NOT NULL, "
                       "trace_id TEXT NOT NULL DEFAULT '')").arg(id(b)),
        QStringLiteral("CREATE INDEX action_user ON action (user_id, created_unix)"),
        // Ingested events: stored before the 202; (source, delivery_id) makes a repeated delivery
        // answer the first id. status: pending | processing | done | failed | ignored; claimed_ms
        // is the lease of the instance processing it.
        QStringLiteral("CREATE TABLE event (%1, source TEXT NOT NULL, delivery_id TEXT NOT NULL, event TEXT NOT NULL, "
                       "action TEXT NOT NULL DEFAULT '', repo TEXT NOT NULL DEFAULT '', sender TEXT NOT NULL DEFAULT '', "
                       "payload %2 NOT NULL, received_ms BIGINT NOT NULL, status TEXT NOT NULL, error TEXT NOT NULL DEFAULT '', "
                       "attempts INTEGER NOT NULL DEFAULT 0, claimed_ms BIGINT NOT NULL DEFAULT 0, "
                       "trace_id TEXT NOT NULL DEFAULT '', UNIQUE (source, delivery_id))").arg(id(b), blob),
        QStringLiteral("CREATE INDEX event_status ON event (status, id)"),
        QStringLiteral("CREATE INDEX event_trace ON event (trace_id)"),
    };
}

// 3: processed and failed items per queue in minute, hour and day buckets (resolution 0, 1, 2;
// bucket_ms is the bucket's start), bounded by the recorder (queuehistory.h).
QStringList queueHistory(StoreBackend)
{
    return {
        QStringLiteral("CREATE TABLE queue_history (queue TEXT NOT NULL, resolution INTEGER NOT NULL, bucket_ms BIGINT NOT NULL, "
                       "processed BIGINT NOT NULL, failed BIGINT NOT NULL, PRIMARY KEY (queue, resolution, bucket_ms))"),
        QStringLiteral("CREATE INDEX queue_history_age ON queue_history (resolution, bucket_ms)"),
    };
}

// 4: what one cause produced (GET /traces/{id}) is found by trace_id in every work table.
QStringList traceIndexes(StoreBackend)
{
    return {
        QStringLiteral("CREATE INDEX cron_run_trace ON cron_run (trace_id)"),
        QStringLiteral("CREATE INDEX action_trace ON action (trace_id)"),
    };
}

// 5: the audit log (admin/auditlog.h), formerly audit.jsonl in the data directory. result is
// "started" until the change ends; trace_id ties a change to what it caused.
QStringList auditLog(StoreBackend b)
{
    return {
        QStringLiteral("CREATE TABLE audit (%1, at_ms BIGINT NOT NULL, actor TEXT NOT NULL, remote_addr TEXT NOT NULL, "
                       "action TEXT NOT NULL, target TEXT NOT NULL, result TEXT NOT NULL, trace_id TEXT NOT NULL DEFAULT '')")
            .arg(id(b)),
        QStringLiteral("CREATE INDEX audit_action ON audit (action, id)"),
        QStringLiteral("CREATE INDEX audit_at ON audit (at_ms)"),
    };
}

// 6: webhooks (Gitea's webhook and hook_task). A hook's scope is repo_id / owner_id / is_system;
// events is the events JSON; header_authorization is sealed (core/secretbox.h). A task's outcome
// is '' until it has one: succeeded, failed, unknown (claimed, no result: the instance stopped
// mid-delivery) or skipped (the hook was inactive). request and response are JSON (Gitea's
// HookRequest and HookResponse); delivered_ns is when the delivery ended.
QStringList webhooks(StoreBackend b)
{
    const QString blob = b == StoreBackend::Postgres ? QStringLiteral("BYTEA") : QStringLiteral("BLOB");
    const QString real = b == StoreBackend::Postgres ? QStringLiteral("DOUBLE PRECISION") : QStringLiteral("REAL");
    return {
        QStringLiteral("CREATE TABLE webhook (%1, repo_id BIGINT NOT NULL DEFAULT 0, owner_id BIGINT NOT NULL DEFAULT 0, "
                       "is_system INTEGER NOT NULL DEFAULT 0, url TEXT NOT NULL, name TEXT NOT NULL DEFAULT '', "
                       "http_method TEXT NOT NULL DEFAULT 'POST', content_type INTEGER NOT NULL DEFAULT 1, secret TEXT NOT NULL DEFAULT '', "
                       "events TEXT NOT NULL, is_active INTEGER NOT NULL DEFAULT 1, type TEXT NOT NULL DEFAULT 'gitea', "
                       "meta TEXT NOT NULL DEFAULT '', last_status INTEGER NOT NULL DEFAULT 0, "
                       "header_authorization TEXT NOT NULL DEFAULT '', created_unix BIGINT NOT NULL, updated_unix BIGINT NOT NULL)")
            .arg(id(b)),
        QStringLiteral("CREATE INDEX webhook_repo ON webhook (repo_id, is_active)"),
        QStringLiteral("CREATE INDEX webhook_owner ON webhook (owner_id, is_active)"),
        QStringLiteral("CREATE TABLE hook_task (%1, hook_id BIGINT NOT NULL, uuid TEXT NOT NULL UNIQUE, payload %2 NOT NULL, "
                       "payload_version INTEGER NOT NULL, event_type TEXT NOT NULL, is_delivered INTEGER NOT NULL DEFAULT 0, "
                       "delivered_ns BIGINT NOT NULL DEFAULT 0, is_succeed INTEGER NOT NULL DEFAULT 0, outcome TEXT NOT NULL DEFAULT '', "
                       "request TEXT NOT NULL DEFAULT '', response TEXT NOT NULL DEFAULT '', duration_ms %3 NOT NULL DEFAULT 0, "
                       "claimed_ms BIGINT NOT NULL DEFAULT 0, created_ms BIGINT NOT NULL, redelivery_of BIGINT NOT NULL DEFAULT 0, "
                       "trace_id TEXT NOT NULL DEFAULT '')")
            .arg(id(b), blob, real),
        QStringLiteral("CREATE INDEX hook_task_hook ON hook_task (hook_id, id)"),
        QStringLiteral("CREATE INDEX hook_task_undelivered ON hook_task (is_delivered, id)"),
        QStringLiteral("CREATE INDEX hook_task_delivered ON hook_task (delivered_ns)"),
        QStringLiteral("CREATE INDEX hook_task_trace ON hook_task (trace_id)"),
    };
}

// 7: the delivery search (GET /deliveries) filters by status, event and time across hooks, newest
// first: an index for each, ending in id so a page is read off the index in order.
QStringList deliverySearch(StoreBackend)
{
    return {
        QStringLiteral("CREATE INDEX hook_task_outcome ON hook_task (outcome, id)"),
        QStringLiteral("CREATE INDEX hook_task_event ON hook_task (event_type, id)"),
        QStringLiteral("CREATE INDEX hook_task_created ON hook_task (created_ms)"),
    };
}

// 8: scheduled retries ([webhook] RETRY_SCHEDULE). attempt is 0 for a first delivery (and a
// manual redelivery), n for the n-th retry; deliver_after_ms holds a retry back until then.
QStringList deliveryRetries(StoreBackend)
{
    return {
        QStringLiteral("ALTER TABLE hook_task ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE hook_task ADD COLUMN deliver_after_ms BIGINT NOT NULL DEFAULT 0"),
    };
}

// 9: the search's usual narrowing, one hook's failed (or unknown …) deliveries: by hook and
// status together (webhook_bench: 478 ms → a few ms on 1 000 000 tasks).
QStringList deliveryHookStatus(StoreBackend)
{
    return {
        QStringLiteral("CREATE INDEX hook_task_hook_outcome ON hook_task (hook_id, outcome, id)"),
    };
}

// 10: fewer index writes per delivery (webhook_bench: its insert, claim and result wrote 17 index
// entries). hook_task_delivered was read by nothing; hook_task_undelivered (is_delivered, id)
// changed on every claim. The start-up reads it served — undelivered tasks to queue again, claims
// without a result — ask for "outcome = ''" first and read hook_task_outcome (outcome, id) in id
// order (is_delivered is 0 only while the outcome is empty), so a claim now touches no index.
QStringList deliveryFewerIndexes(StoreBackend)
{
    return {
        QStringLiteral("DROP INDEX hook_task_delivered"),
        QStringLiteral("DROP INDEX hook_task_undelivered"),
    };
}

// 11: who holds a claim (docs/storage.md "Instances and claims"). `instance`: every engine that
// ran on this store, its heartbeat (the database's clock) and how it ended ("stopped", or "lost":
// declared dead). claimed_by names the instance holding an event or a delivery; a claim of an
// instance that is not live is taken over at once. event.notified: the notifiers that had
// finished an event handed back unfinished. hook_task.interrupted: the attempts an instance
// ended during (JSON); such a delivery is sent again under its delivery id. The partial index
// holds only the claims in progress, which the recovery reads every heartbeat. `bulk_job`: a bulk
// redelivery (its filter as JSON in args), its progress (after_id: the last original
// redelivered, up to bound_id; done of total) and who runs it; state running | finished |
// cancelled | failed; at most one runs (the partial unique index). `mail_outbox`: every queued
// mail (the message as JSON) until a week after it ended: pending (outcome ''), claimed by the
// instance sending it, then sent or failed; uuid keys a mail an event's dispatch makes.
QStringList claimHolders(StoreBackend b)
{
    return {
        QStringLiteral("CREATE TABLE bulk_job (%1, kind TEXT NOT NULL, args TEXT NOT NULL, doer TEXT NOT NULL DEFAULT '', "
                       "claimed_by TEXT NOT NULL DEFAULT '', claimed_ms BIGINT NOT NULL DEFAULT 0, created_ms BIGINT NOT NULL, "
                       "total BIGINT NOT NULL DEFAULT 0, done BIGINT NOT NULL DEFAULT 0, after_id BIGINT NOT NULL DEFAULT 0, "
                       "bound_id BIGINT NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT 'running', message TEXT NOT NULL DEFAULT '', "
                       "ended_ms BIGINT NOT NULL DEFAULT 0)")
            .arg(id(b)),
        QStringLiteral("CREATE UNIQUE INDEX bulk_job_running ON bulk_job (kind) WHERE state = 'running'"),
        QStringLiteral("CREATE TABLE mail_outbox (%1, uuid TEXT NOT NULL UNIQUE, message TEXT NOT NULL, to_address TEXT NOT NULL DEFAULT '', "
                       "info TEXT NOT NULL DEFAULT '', trace_id TEXT NOT NULL DEFAULT '', created_ms BIGINT NOT NULL, "
                       "is_claimed INTEGER NOT NULL DEFAULT 0, claimed_by TEXT NOT NULL DEFAULT '', claimed_ms BIGINT NOT NULL DEFAULT 0, "
                       "outcome TEXT NOT NULL DEFAULT '', error TEXT NOT NULL DEFAULT '', ended_ms BIGINT NOT NULL DEFAULT 0, "
                       "interrupted TEXT NOT NULL DEFAULT '')")
            .arg(id(b)),
        QStringLiteral("CREATE INDEX mail_outbox_unsent ON mail_outbox (id) WHERE outcome = ''"),
        QStringLiteral("CREATE INDEX mail_outbox_ended ON mail_outbox (ended_ms) WHERE outcome <> ''"),
        QStringLiteral("CREATE INDEX mail_outbox_trace ON mail_outbox (trace_id)"),
        QStringLiteral("CREATE TABLE instance (id TEXT PRIMARY KEY, node TEXT NOT NULL, host TEXT NOT NULL DEFAULT '', "
                       "pid BIGINT NOT NULL DEFAULT 0, version TEXT NOT NULL DEFAULT '', started_ms BIGINT NOT NULL, "
                       "heartbeat_ms BIGINT NOT NULL, stopped_ms BIGINT NOT NULL DEFAULT 0, ended TEXT NOT NULL DEFAULT '', "
                       "ended_by TEXT NOT NULL DEFAULT '')"),
        QStringLiteral("CREATE INDEX instance_node ON instance (node)"),
        QStringLiteral("ALTER TABLE event ADD COLUMN claimed_by TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("ALTER TABLE event ADD COLUMN notified TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("ALTER TABLE hook_task ADD COLUMN claimed_by TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("ALTER TABLE hook_task ADD COLUMN interrupted TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("CREATE INDEX hook_task_claims ON hook_task (claimed_by) WHERE is_delivered = 1 AND outcome = ''"),
    };
}

// 12: a payload seen again under another delivery id is found by its hash (the replay window),
// and processed events are removed by age (cleanup_event_table).
QStringList eventRetention(StoreBackend)
{
    return {
        QStringLiteral("ALTER TABLE event ADD COLUMN payload_sha256 TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("CREATE INDEX event_payload ON event (source, payload_sha256, received_ms)"),
        QStringLiteral("CREATE INDEX event_age ON event (status, received_ms)"),
    };
}

// 13: what webhook payloads carry beyond the notifiers' needs (docs/webhooks.md): a user's avatar
// as the forge sent it, and a pull request's own id (its issue's is external_id).
QStringList payloadFields(StoreBackend)
{
    return {
        QStringLiteral("ALTER TABLE forge_user ADD COLUMN avatar_url TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("ALTER TABLE issue ADD COLUMN pull_external_id BIGINT NOT NULL DEFAULT 0"),
    };
}

// 14: Gitea's default webhooks (repo 0, owner 0, not system) are copied into each new repository;
// a row of repo_default_hooks says repository repo_id got its copies, so a creation seen again
// copies nothing. Team access to an organisation's private repositories: org_member.is_owner (the
// Owners team: every repository), team_access the mode a member's teams give on one repository
// (Gitea's team_repo × team_user; 1 read, 2 write, 3 admin).
QStringList defaultHooksAndTeams(StoreBackend)
{
    return {
        QStringLiteral("CREATE TABLE repo_default_hooks (repo_id BIGINT PRIMARY KEY, copied_unix BIGINT NOT NULL)"),
        QStringLiteral("ALTER TABLE org_member ADD COLUMN is_owner INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("CREATE TABLE team_access (repo_id BIGINT NOT NULL, user_id BIGINT NOT NULL, mode INTEGER NOT NULL, "
                       "PRIMARY KEY (repo_id, user_id))"),
    };
}

// 15: a pull's synchronize finds the push to its head branch among the latest of its repository.
QStringList eventByRepo(StoreBackend)
{
    return {QStringLiteral("CREATE INDEX event_repo_kind ON event (source, repo, event, id)")};
}

} // namespace

const std::vector<Migration> &storeMigrations()
{
    static const std::vector<Migration> migrations{
        {1, "engine state: notices, cron runs, pauses and ticks", &engineState},
        {2, "forge domain, notifications, feed and ingested events", &forgeDomain},
        {3, "queue history", &queueHistory},
        {4, "trace indexes", &traceIndexes},
        {5, "audit log", &auditLog},
        {6, "webhooks and their delivery history", &webhooks},
        {7, "delivery search indexes", &deliverySearch},
        {8, "delivery retries", &deliveryRetries},
        {9, "delivery search by hook and status", &deliveryHookStatus},
        {10, "fewer delivery indexes", &deliveryFewerIndexes},
        {11, "claim holders, instances, bulk jobs and the mail outbox", &claimHolders},
        {12, "event replay detection and retention", &eventRetention},
        {13, "payload fields: user avatars, pull request ids", &payloadFields},
        {14, "default webhooks copied into new repositories; organisation team access", &defaultHooksAndTeams},
        {15, "events by repository and type", &eventByRepo},
    };
    return migrations;
}

} // namespace Switchyard
