#pragma once

// Webhooks (SPEC §9, seed 001 §12.6–12.9): hooks kept in the store, a task per event and hook,
// and signed delivery on the unique `webhook_sender` queue with a history of every attempt.
//
// Delivery is at least once, and never twice by two workers: a worker claims a task by
// compare-and-set (is_delivered 0 → 1, claimed_by this instance) before it sends, so two workers
// — or two instances on one PostgreSQL — never send one task at the same time. A claim whose
// instance is no longer live (it crashed, stopped mid-delivery, or went silent:
// store/instances.h) is taken over: the attempt is recorded as interrupted, and with [webhook]
// RESEND_INTERRUPTED (the default) the task is sent again under its delivery id, so a receiver
// that dedupes by X-Gitea-Delivery / X-GitHub-Delivery sees one delivery; without it the task
// ends `unknown` for an operator. A failed delivery is not retried (Gitea's semantics) unless
// [webhook] RETRY_SCHEDULE says so; an operator redelivers it (a new task, a new delivery id).
// A store that is only unavailable (busy, full) is waited out by whoever holds the task; a
// task that fell out of the queue is queued again by the next recovery round.

#include "hookevents.h"

#include "engine/core/retry.h"
#include "engine/core/status.h"

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Switchyard {

class CancelToken;
class EngineConfig;
class InstanceRegistry;
class ProcessRegistry;
class Lifecycle;
class QueueManager;
class SecretBox;
class Store;

namespace Webhook {

struct Hook
{
    qint64 id = 0;
    qint64 repoId = 0;  // a repository's hook (the store's repo id)
    qint64 ownerId = 0; // an organisation's or user's hook (repo 0)
    bool isSystem = false; // repo 0, owner 0: every repository's events
    // Gitea's default (admin) hook: repo 0, owner 0, not system. It is never sent; each new
    // repository gets a copy of it as a repository hook (WebhookService::copyDefaultHooks()).
    bool isDefault = false;
    QString url;
    QString name;
    QString httpMethod = QStringLiteral("POST");
    ContentType contentType = ContentType::Json;
    QString secret; // the HMAC key of the signatures; never returned by the API
    HookEvents events;
    bool active = true;
    HookType type = HookType::Gitea;
    QString meta; // the channel's settings (JSON), empty for gitea and gogs
    HookStatus lastStatus = HookStatus::None;
    bool hasAuthorization = false; // an Authorization header is sealed in the store (never read back)
    QDateTime created;
    QDateTime updated;

    bool operator==(const Hook &) const = default;
};

// What a task's history says.
enum class TaskOutcome { Pending, Succeeded, Failed, Unknown, Skipped };

// An attempt that ended with its instance: the delivery may or may not have reached the
// receiver. The task keeps them in order (its history's earlier attempts).
struct Interruption
{
    QString instance;    // the instance that held the claim
    QDateTime claimedAt;
    QDateTime endedAt;   // when it was taken over
    QString endedBy;     // the instance that took it over
    QString reason;      // "lost": the instance died or went silent; "stopped": it stopped first
    bool resent = false; // sent again under the same delivery id ([webhook] RESEND_INTERRUPTED)

    bool operator==(const Interruption &) const = default;
};
QString name(TaskOutcome outcome);
std::optional<TaskOutcome> taskOutcomeFromName(QStringView name);

struct HookTask
{
    qint64 id = 0;
    qint64 hookId = 0;
    QString uuid;             // the delivery id (X-Gitea-Delivery …)
    QByteArray payload;       // v1: the body as sent; v2: the original event's payload
    int payloadVersion = 2;
    HookEventType eventType = HookEventType::Push;
    bool isDelivered = false; // claimed (and, once the outcome is set, delivered)
    qint64 deliveredNs = 0;   // when the delivery ended (ns since the epoch)
    bool isSucceed = false;
    TaskOutcome outcome = TaskOutcome::Pending;
    QString request;  // JSON: {url, http_method, headers} — Authorization as ******
    QString response; // JSON: {status, headers, body} or {error}
    double durationMs = 0;
    QDateTime created;
    qint64 redeliveryOf = 0; // the task this one redelivers (a retry: the first delivery)
    QString traceId;
    int attempt = 0;          // 0: a first delivery or a manual redelivery; n: the n-th retry
    qint64 deliverAfterMs = 0; // a retry waits until then (ms since the epoch); 0: at once
    QString claimedBy;         // the instance that claimed it last ("" while never claimed)
    std::vector<Interruption> interruptions; // attempts its instance did not see to an end, oldest first

    bool operator==(const HookTask &) const = default;
};

// Which tasks: every field narrows (and) the search; the defaults match every task.
struct TaskFilter
{
    qint64 hookId = 0; // 0: every hook
    std::optional<TaskOutcome> outcome;
    std::optional<HookEventType> event; // the fine event type ("issue_comment", "pull_request_review_approved")
    QDateTime since;   // queued at or after (invalid: no bound)
    QDateTime until;   // queued before (invalid: no bound)
    QString text;      // in the payload or the response, ASCII case-insensitive (SQL LIKE); empty: any
    qint64 beforeId = 0; // only tasks with a smaller id (keyset paging, newest first); 0: no bound
    qint64 page = 1;
    qint64 limit = 50; // 1 … 500
};
struct TaskPage
{
    std::vector<HookTask> rows; // newest first
    qint64 total = 0;
};

// Where an event happened: repository hooks, then the owner's, then the system's are asked.
struct EventSource
{
    qint64 repoId = 0;
    qint64 ownerId = 0;
    // The event tells of repository repoId's creation: the default hooks are copied into it
    // first, in prepare()'s transaction, so the copies hear this event (Gitea copies them when
    // it creates the repository, before it notifies).
    bool newRepository = false;
};

struct WebhookOptions
{
    // Resolves a host name for the egress check; empty: the system resolver (QHostInfo).
    std::function<QList<QHostAddress>(const QString &host)> resolve;
    // Waiting out a store that is unavailable (a claim, a result, a task given back).
    RetryDelays retry;
    // Bytes of a response body kept in the history; reading stops there.
    qint64 maxResponseBytes = 1 << 20;
    // Where a hook disabled by [webhook] AUTO_DISABLE_AFTER is announced (the engine: a system
    // notice); called outside any transaction.
    std::function<void(const QString &message)> notice;
    // Hears each task added (an event, a test, a redelivery, a retry) or ended (its result),
    // after the write; it must be quick (the engine publishes the id on the admin topic).
    std::function<void(qint64 taskId)> changed;
    // Replaces [webhook] RETRY_SCHEDULE when not empty (tests shorten the delays).
    std::vector<std::chrono::milliseconds> retrySchedule;
    // Deliveries the delivery loop holds at once (sending, or waiting for one of their hook's
    // six connections); a worker handing over one more waits for room.
    int maxInFlight = 1000;
    // Of those, at most this many of one hook (at least 6). A worker handing over one more waits
    // for the hook's room, up to busyHookWait, while the receiver keeps up (its oldest delivery
    // on the wire was sent less than keepingUp ago); a hook whose receiver is slower or hangs
    // gets its further tasks back in the store instead, due when its backlog should have been
    // sent at that pace.
    int maxHeldPerHook = 100;
    std::chrono::milliseconds keepingUp{100};
    std::chrono::milliseconds busyHookWait{250};
    // At shutdown, how long deliveries on the wire may still finish; then they are cut and
    // recorded as interrupted (they may have arrived): sent again after the next start, or
    // `unknown` without RESEND_INTERRUPTED. Those waiting for a connection go back to the store
    // unsent at once.
    std::chrono::milliseconds stopGrace{3000};
};

// What this instance delivered since start (/metrics).
struct DeliveryStats
{
    qint64 succeeded = 0;
    qint64 failed = 0;
    qint64 skipped = 0;
    double durationSeconds = 0; // of the deliveries counted above
    qint64 inFlight = 0;        // held by the delivery loop: on the wire, or waiting for a connection of its hook
    // Deliveries sent that ended in the last one to two minutes (not skipped or refused ones), and their
    // duration quantiles (upper bucket edges, ≤ 41 % high).
    qint64 recent = 0;
    double latencyP50Ms = 0;
    double latencyP99Ms = 0;
};

// Thread-safe. start() before prepare(); the queue's workers deliver.
class WebhookService
{
public:
    // Not owned.
    WebhookService(const EngineConfig &config, Store &store, const SecretBox &secrets, InstanceRegistry &instances,
                   WebhookOptions options = {});
    ~WebhookService();

    // Starts the delivery loop (a thread of `lifecycle`'s, stopped after the queue: at shutdown
    // what is on the wire gets WebhookOptions::stopGrace and what waits goes back to the store),
    // creates the webhook_sender queue, takes over the claims of instances that are not live,
    // re-enqueues every undelivered task (in pages of 100), and joins the heartbeat's recovery
    // rounds. A thread of `lifecycle`'s holds retries until they are due and then queues them
    // (registered after the queue: it stops first).
    // `processes` lists the bulk redelivery jobs.
    Status start(const CancelToken &cancel, QueueManager &queues, Lifecycle &lifecycle, ProcessRegistry &processes);

    // A new hook (scope: repoId, ownerId, isSystem or isDefault): 400 naming the field (url, type, http_method, content_type, events, secret,
    // authorization, meta) when it is not valid — a URL whose host is an address ALLOWED_HOST_LIST
    // refuses too (checkHookHost()) — and nothing is written. `authorization`: the Authorization
    // header to send, sealed at rest; empty for none.
    Result<Hook> create(const Hook &hook, const QString &authorization = {});
    // Replaces the hook's settings (not its id, scope or last status), checked as create() does.
    // `authorization`: nullopt keeps the sealed header — unless the URL changes: a new URL drops
    // it, so a header is never sent where it was not given for —, "" removes it.
    Result<Hook> update(const Hook &hook, const std::optional<QString> &authorization = std::nullopt);
    Status remove(qint64 id); // its tasks go too
    Result<Hook> get(qint64 id);
    Result<std::vector<Hook>> list(); // by id

    // The hooks of `source` that subscribe to `type` get a task each, queued for delivery (default
    // hooks are never among them; source.newRepository copies them in first). Gates,
    // in order: [security] DISABLE_WEBHOOKS; the subscription; an empty push (no commits) only to
    // gitea and gogs; the branch filter for push, create and delete (`ref`). How many tasks.
    // With a `key` (NotifyContext::keyFor(): the call's place in its cause's dispatch and the event type) each
    // delivery id is derived from the trace, the key and the hook, so preparing the same call
    // again (an event dispatched again after a crash) makes no second task: the existing one is
    // queued if it is still undelivered. Without one, delivery ids are random. Stored tasks the
    // queue does not take are queued by the next recovery round: that is not an error.
    Result<int> prepare(const CancelToken &cancel, const EventSource &source, HookEventType type, const QByteArray &payload,
                        const QString &ref, const QString &traceId, const QString &key = {});
    // Gitea's CopyDefaultWebhooksToRepo: every default hook becomes a hook of repository
    // `repoId` (same URL, type, method, content type, secret, Authorization header, events,
    // branch filter, meta, active flag; a new id, no last status). Once per repository: a
    // repository seen created again (a redelivered event) gets nothing. How many were copied.
    // Done whatever DISABLE_WEBHOOKS says, as in Gitea.
    Result<int> copyDefaultHooks(qint64 repoId);
    // A copy of task `id` under a new delivery id, queued; the history keeps the original.
    Result<HookTask> redeliver(const CancelToken &cancel, qint64 id);

    // A test delivery to hook `id`: Gitea's fake push on the repository's default branch, sent
    // whatever the hook subscribes to and whatever its branch filter (DISABLE_WEBHOOKS still
    // holds: Conflict). An inactive hook records it as skipped.
    Result<HookTask> test(const CancelToken &cancel, qint64 hookId);

    Result<HookTask> task(qint64 id);
    Result<HookTask> task(const QString &uuid); // by delivery id
    // A page of the tasks `filter` matches, newest first, with how many match.
    Result<TaskPage> tasks(const TaskFilter &filter);
    // How many tasks match (page and limit ignored).
    Result<qint64> count(const TaskFilter &filter);
    // Every match, newest first, in pages of `pageSize` read one transaction each (a long export
    // does not hold the store): `sink` gets each page and stops the walk by returning an error.
    // Tasks queued while it runs are not included (the walk starts below the newest id at the
    // start). Page and limit ignored.
    Status forEach(const CancelToken &cancel, const TaskFilter &filter, const std::function<Status(const std::vector<HookTask> &)> &sink,
                   qint64 pageSize = 500);
    // Bulk redelivery (docs/webhooks.md "Redelivering in bulk"): every task `filter` matches
    // (failed or unknown ones only: InvalidArgument naming `status` otherwise), oldest first, at
    // most those that matched when it started. It is a job of the store (bulk_job): one runs at
    // a time across the instances sharing the store (Conflict naming the one running, so two
    // over one filter never send each delivery twice); each redelivery and the job's progress are
    // one transaction, so a job whose instance ends is resumed where it stopped by a live one
    // (resumeBulkJobs()), and nothing is redelivered twice.
    //
    // redeliverMatching() runs one on the caller's thread: `progress` (may be empty) hears
    // (done, total) after each; how many were redelivered; on cancel or an error, what was done
    // stays done, the job ends (cancelled or failed) and the status says where it stopped.
    Result<qint64> redeliverMatching(const CancelToken &cancel, const TaskFilter &filter,
                                     const std::function<void(qint64 done, qint64 total)> &progress = {});
    // Starts one on a thread of the lifecycle's, listed as a cancellable process with its
    // progress; returns at once (the claim is synchronous: a caller answers 409 before anything
    // runs). An operator's cancel ends it; a stop of the instance leaves it to be resumed.
    struct BulkJob
    {
        qint64 jobId = 0;   // bulk_job's id
        qint64 pid = 0;     // its process on this instance
        qint64 matched = 0; // how many it redelivers
    };
    Result<BulkJob> startBulkRedelivery(const TaskFilter &filter, const QString &doer);
    // Jobs held by instances that are no longer live are taken over and resumed here (at start,
    // at every heartbeat): how many.
    Result<qint64> resumeBulkJobs();
    // Tasks claimed by instances that are no longer live are taken over: their attempt is
    // recorded as interrupted, and they are sent again (queued here) or, without [webhook]
    // RESEND_INTERRUPTED, marked `unknown`. At start, at every heartbeat, and by cron: how many.
    Result<qint64> recoverInterrupted(const CancelToken &cancel);
    // cleanup_hook_task_table: delivered tasks (with a result) queued before now − `age`, or all
    // but the `keep` newest delivered tasks of each hook. Undelivered and in-flight tasks stay.
    // How many were removed.
    Result<qint64> cleanupOlderThan(std::chrono::milliseconds age);
    Result<qint64> cleanupPerHook(qint64 keep);
    // Pushes every undelivered task to the queue again (at start, and by cron): how many.
    Result<qint64> requeueUndelivered(const CancelToken &cancel);

    DeliveryStats stats() const;

    // The queue's handler: claims a batch and hands it to the delivery loop, returning at once
    // (or when there is room: WebhookOptions::maxInFlight). `stop` ends its waits (for room, for
    // an unavailable store); what it could not claim then is returned, to go back to the queue.
    // Public for the tests.
    std::vector<qint64> deliver(const CancelToken &stop, const std::vector<qint64> &ids);
    // Waits until every delivery handed to the loop is recorded (a flush of webhook_sender
    // waits for this too). DeadlineExceeded after `timeout`.
    Status settle(const CancelToken &cancel, std::chrono::milliseconds timeout);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// What [webhook] ALLOWED_HOST_LIST's built-in names see in an address (hostpolicy.cpp, after
// Gitea's modules/hostmatcher): `loopback` (127.0.0.0/8, ::1), `private` (RFC 1918, unique and
// site-local IPv6, carrier-grade NAT, benchmarking, documentation, NAT64, 6to4, Teredo and other
// special-purpose ranges), `external` (every other address: the public internet), and reserved
// ranges no name allows (0.0.0.0/8, link-local and cloud metadata, multicast, 240.0.0.0/4, ::,
// IPv4-compatible IPv6). An IPv4-mapped IPv6 address is the IPv4 address it carries.
struct AddressClass
{
    enum Kind { Loopback, Private, External, Reserved };
    Kind kind = Reserved;
    QString range; // the CIDR that decided, empty for external
    QString what;  // what the range is ("benchmarking, RFC 2544")
    // "external", or "in 198.18.0.0/15 (benchmarking, RFC 2544)".
    QString describe() const;
};
AddressClass classifyAddress(const QHostAddress &address);

// The host policy of [webhook] ALLOWED_HOST_LIST: `external` (the default), `private`,
// `loopback` (classifyAddress()), `*`, host name globs (`*.example.com`) and CIDRs
// (`10.0.0.0/8`). A host name matches a glob by name; an address by its class or range. Ok, or
// PermissionDenied ("egress blocked: …") naming the host, the address, its range and the list.
Status checkEgress(const QStringList &allowed, const QString &host, const QHostAddress &address);
// A hook's URL whose host is an IP address the policy refuses: InvalidArgument naming `url`, with
// checkEgress()'s reason. A host name passes (its addresses are checked at every delivery).
Status checkHookHost(const QStringList &allowed, const QString &url);

// `url` as it may be shown (every view of hooks, deliveries and logs but the admin's edit form):
// its user info becomes `***` and so does the value of each query key that names a secret
// (token, secret, key, password, passwd, pass, auth, access_token, api_key, apikey, sig,
// signature, credential(s), any case, `-` for `_`, with a prefix or suffix such as
// `x-api-key` or `private_token`). Sets `*masked` when it changed anything. Idempotent.
QString maskedUrl(const QString &url, bool *masked = nullptr);

// HMAC of `body` with `secret`, lowercase hex: SHA-256 (X-Gitea-Signature, X-Hub-Signature-256)
// and SHA-1 (X-Hub-Signature).
QByteArray hmacSha256Hex(const QByteArray &secret, const QByteArray &body);
QByteArray hmacSha1Hex(const QByteArray &secret, const QByteArray &body);

} // namespace Webhook
} // namespace Switchyard
