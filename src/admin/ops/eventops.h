#pragma once

// Events and notifications (docs/api.md "Events and notifications"): ingestion, the events
// list, in-app notifications and their status, and the forge's users — and the JSON description
// of their values.

#include "admin/catalogue.h"

#include "engine/events/eventtypes.h"
#include "engine/forge/forgetypes.h"
#include "engine/notifications/notificationtypes.h"

namespace Switchyard {

template<>
struct Admin::Json::EnumNames<NotificationStatus>
{
    static constexpr std::pair<NotificationStatus, const char *> names[] = {
        {NotificationStatus::Unread, "unread"}, {NotificationStatus::Read, "read"}, {NotificationStatus::Pinned, "pinned"}};
};

// Gitea's ActionType names (models/activities/action.go), lower-case.
template<>
struct Admin::Json::EnumNames<ActionType>
{
    static constexpr std::pair<ActionType, const char *> names[] = {
        {ActionType::CreateRepo, "create_repo"},
        {ActionType::RenameRepo, "rename_repo"},
        {ActionType::CommitRepo, "commit_repo"},
        {ActionType::CreateIssue, "create_issue"},
        {ActionType::CreatePullRequest, "create_pull_request"},
        {ActionType::TransferRepo, "transfer_repo"},
        {ActionType::PushTag, "push_tag"},
        {ActionType::CommentIssue, "comment_issue"},
        {ActionType::MergePullRequest, "merge_pull_request"},
        {ActionType::CloseIssue, "close_issue"},
        {ActionType::ReopenIssue, "reopen_issue"},
        {ActionType::ClosePullRequest, "close_pull_request"},
        {ActionType::ReopenPullRequest, "reopen_pull_request"},
        {ActionType::DeleteTag, "delete_tag"},
        {ActionType::DeleteBranch, "delete_branch"},
        {ActionType::MirrorSyncPush, "mirror_sync_push"},
        {ActionType::MirrorSyncCreate, "mirror_sync_create"},
        {ActionType::MirrorSyncDelete, "mirror_sync_delete"},
        {ActionType::ApprovePullRequest, "approve_pull_request"},
        {ActionType::RejectPullRequest, "reject_pull_request"},
        {ActionType::CommentPull, "comment_pull"},
        {ActionType::PublishRelease, "publish_release"},
        {ActionType::PullReviewDismissed, "pull_review_dismissed"},
        {ActionType::PullRequestReadyForReview, "pull_request_ready_for_review"},
        {ActionType::AutoMergePullRequest, "auto_merge_pull_request"}};
};

template<>
struct Admin::Json::EnumNames<NotificationSource>
{
    static constexpr std::pair<NotificationSource, const char *> names[] = {{NotificationSource::Issue, "issue"},
                                                                            {NotificationSource::Pull, "pull"},
                                                                            {NotificationSource::Commit, "commit"},
                                                                            {NotificationSource::Repository, "repository"}};
};

template<>
struct Admin::Json::EnumNames<WatchMode>
{
    static constexpr std::pair<WatchMode, const char *> names[] = {
        {WatchMode::None, "none"}, {WatchMode::Normal, "normal"}, {WatchMode::Dont, "dont"}, {WatchMode::Auto, "auto"}};
};

template<typename V>
void describe(V &v, RepoRow &r)
{
    v("id", r.id);
    v("source", r.source);
    v("external_id", r.externalId);
    v("full_name", r.fullName);
    v("private", r.isPrivate);
    v("watchers", r.watchers);
}

template<typename V>
void describe(V &v, RepoPersonRow &p)
{
    v("user_id", p.userId);
    v("login", p.login);
    v("mode", p.mode);
    v("issues", p.kinds.issues);
    v("pulls", p.kinds.pulls);
    v("releases", p.kinds.releases);
    v("muted", p.muted);
    v("access", p.access);
}

template<typename V>
void describe(V &v, EventRecord &e)
{
    v("id", e.id);
    v("source", e.source);
    v("delivery_id", e.deliveryId);
    v("event", e.event);
    v("action", e.action);
    v("repo", e.repo);
    v("sender", e.sender);
    v("received_at", e.receivedAt);
    v("status", e.status);
    v("error", e.error, Admin::Json::Omit);
    v("attempts", e.attempts, Admin::Json::Optional);
    v("trace_id", e.traceId);
    v("claimed_by", e.claimedBy, Admin::Json::Omit); // the instance that processes it, or last did
}

template<typename V>
void describe(V &v, NotificationRow &n)
{
    v("id", n.id);
    v("user_id", n.userId);
    v("repo_id", n.repoId);
    v("issue_id", n.issueId);
    v("comment_id", n.commentId);
    v("status", n.status);
    v("source", n.source);
    v("updated_by", n.updatedBy);
    v("created_at", n.createdAt);
    v("updated_at", n.updatedAt);
    v("trace_id", n.traceId, Admin::Json::Optional);
    v("user", n.user, Admin::Json::Optional);
    v("repo", n.repo, Admin::Json::Optional);
    v("issue_number", n.issueNumber, Admin::Json::Optional);
    v("issue_title", n.issueTitle, Admin::Json::Optional);
}

template<typename V>
void describe(V &v, ActionRow &a)
{
    v("id", a.id);
    v("user_id", a.userId);
    v("op_type", a.opType);
    v("act_user_id", a.actUserId);
    v("repo_id", a.repoId);
    v("comment_id", a.commentId);
    v("ref_name", a.refName);
    v("is_private", a.isPrivate);
    v("content", a.content);
    v("created_at", a.createdAt);
    v("trace_id", a.traceId, Admin::Json::Optional);
    v("user", a.user, Admin::Json::Optional);
    v("actor", a.actor, Admin::Json::Optional);
    v("repo", a.repo, Admin::Json::Optional);
}

template<typename V>
void describe(V &v, ForgeUserRow &u)
{
    v("id", u.id);
    v("source", u.source);
    v("external_id", u.externalId);
    v("login", u.login);
    v("full_name", u.fullName, Admin::Json::Optional);
    v("is_bot", u.isBot, Admin::Json::Optional);
    v("is_org", u.isOrganization, Admin::Json::Optional);
    v("email_notifications", u.emailNotifications, Admin::Json::Optional);
    v("unread", u.unread);
}

} // namespace Switchyard

namespace Switchyard::Admin {

template<typename V>
void describe(V &v, UnreadChange &u)
{
    v("user_id", u.userId);
    v("count", u.count);
}

// POST /events: the payload as sent, and where the forge put the event's type and signature.
struct EventPost
{
    QString source = QStringLiteral("default");
    QString event;
    QString giteaEventType;
    QString giteaEvent;
    QString githubEvent;
    QString giteaDelivery;
    QString githubDelivery;
    QString hubSignature256;
    QString giteaSignature;
    QString webhookId;
    QString webhookTimestamp;
    QString webhookSignature;
    QByteArray payload;
};
template<typename V>
void describe(V &v, EventPost &a)
{
    v(ArgSpec{ArgSpec::Payload, "payload", "the webhook payload (a JSON file; - for stdin)"}, a.payload);
    v(ArgSpec{ArgSpec::Query, "source", "the [event_source.NAME] it comes from (default: default)", 0, 0, "--source"}, a.source);
    v(ArgSpec{ArgSpec::Query, "event", "the event type (push, issues, pull_request …) when no header says it", 0, 0, "--event"}, a.event);
    v(ArgSpec{ArgSpec::Header, "X-Gitea-Event-Type", "Gitea's fine event type"}, a.giteaEventType);
    v(ArgSpec{ArgSpec::Header, "X-Gitea-Event", "Gitea's event group"}, a.giteaEvent);
    v(ArgSpec{ArgSpec::Header, "X-GitHub-Event", "GitHub's event"}, a.githubEvent);
    v(ArgSpec{ArgSpec::Header, "X-Gitea-Delivery", "Gitea's delivery id"}, a.giteaDelivery);
    v(ArgSpec{ArgSpec::Header, "X-GitHub-Delivery", "GitHub's delivery id", 0, 0, "--delivery"}, a.githubDelivery);
    v(ArgSpec{ArgSpec::Header, "X-Hub-Signature-256", "sha256=HMAC of the payload"}, a.hubSignature256);
    v(ArgSpec{ArgSpec::Header, "X-Gitea-Signature", "HMAC of the payload (hex)"}, a.giteaSignature);
    v(ArgSpec{ArgSpec::Header, "webhook-id", "Standard Webhooks: the message id"}, a.webhookId);
    v(ArgSpec{ArgSpec::Header, "webhook-timestamp", "Standard Webhooks: seconds since the epoch"}, a.webhookTimestamp);
    v(ArgSpec{ArgSpec::Header, "webhook-signature", "Standard Webhooks: v1,<base64 HMAC of id.timestamp.payload>"}, a.webhookSignature);
}

struct EventAcceptedRow
{
    qint64 id = 0; // 0: ignored, nothing stored
    bool duplicate = false;
    QString traceId;
    QString ignored; // the event's name when it has no Gitea counterpart (answered 202, not stored)
};
template<typename V>
void describe(V &v, EventAcceptedRow &a)
{
    v("id", a.id);
    v("duplicate", a.duplicate, Json::Omit);
    v("trace_id", a.traceId, Json::Optional);
    v("ignored", a.ignored, Json::Omit);
}

struct EventListArgs
{
    qint64 page = 1;
    qint64 limit = 50;
    QString type;
    QString repo;
    QString status;
    QDateTime since;
};
template<typename V>
void describe(V &v, EventListArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "page", "page (1-based)", 1, 1'000'000'000, "--page"}, a.page);
    v(ArgSpec{ArgSpec::Query, "limit", "events per page (max 500)", 1, 500, "--limit"}, a.limit);
    v(ArgSpec{ArgSpec::Query, "type", "only this event type", 0, 0, "--type"}, a.type);
    v(ArgSpec{ArgSpec::Query, "repo", "only this repository (owner/name)", 0, 0, "--repo"}, a.repo);
    v(ArgSpec{ArgSpec::Query, "status", "only this status (pending, processing, done, failed, ignored)", 0, 0, "--status"}, a.status);
    v(ArgSpec{ArgSpec::Query, "since", "events received from this RFC 3339 time on", 0, 0, "--since"}, a.since);
}

struct EventRef
{
    qint64 id = 0;
};
template<typename V>
void describe(V &v, EventRef &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the event id (events list)", 1}, a.id);
}

// GET /events/{id}: the row and its payload as a JSON document.
struct EventDetail
{
    EventRecord event;
    QJsonValue payload;
};
template<typename V>
void describe(V &v, EventDetail &d)
{
    describe(v, d.event);
    v("payload", d.payload);
}

struct NotificationListArgs
{
    qint64 page = 1;
    qint64 limit = 50;
    qint64 user = 0;
    QString status;
};
template<typename V>
void describe(V &v, NotificationListArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "page", "page (1-based)", 1, 1'000'000'000, "--page"}, a.page);
    v(ArgSpec{ArgSpec::Query, "limit", "notifications per page (max 500)", 1, 500, "--limit"}, a.limit);
    v(ArgSpec{ArgSpec::Query, "user", "only this user's (users list id)", 0, std::numeric_limits<qint64>::max(), "--user"}, a.user);
    v(ArgSpec{ArgSpec::Query, "status", "comma-separated: unread, read, pinned", 0, 0, "--status"}, a.status);
}

struct FeedArgs
{
    qint64 page = 1;
    qint64 limit = 50;
    qint64 user = 0;
    qint64 repo = 0;
};
template<typename V>
void describe(V &v, FeedArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "page", "page (1-based)", 1, 1'000'000'000, "--page"}, a.page);
    v(ArgSpec{ArgSpec::Query, "limit", "actions per page (max 500)", 1, 500, "--limit"}, a.limit);
    v(ArgSpec{ArgSpec::Query, "user", "only this user's feed (users list id)", 0, std::numeric_limits<qint64>::max(), "--user"}, a.user);
    v(ArgSpec{ArgSpec::Query, "repo", "only this repository (repos list id)", 0, std::numeric_limits<qint64>::max(), "--repo"}, a.repo);
}

// GET /traces/{trace_id}: what one cause produced, oldest first.
struct TraceItem
{
    QString kind; // event | cron-run | notification | feed (and, as they arrive, hook-task, mail)
    qint64 id = 0;
    QDateTime at;
    QString status; // the row's own: an event's or run's status, a notification's, the feed's op type
    QString summary; // for people: "push alice/engine", "cron run cleanup", "bob: alice/engine#1"
    // The engine instance that handled it, where the store knows: the claim of an event, a delivery
    // or a mail (the last one), a cron run's instance. Empty for forge rows (notifications, feed).
    QString instance;
    // A hook-task that sends an earlier one again (a redelivery or a retry): that delivery's id.
    std::optional<qint64> redeliveryOf;
};
template<typename V>
void describe(V &v, TraceItem &t)
{
    v("kind", t.kind);
    v("id", t.id);
    v("at", t.at);
    v("status", t.status);
    v("summary", t.summary, Admin::Json::Optional);
    v("instance", t.instance, Admin::Json::Omit);
    v("redelivery_of", t.redeliveryOf, Admin::Json::Omit);
}

struct Trace
{
    TraceItem root; // the cause: the event or cron run that began it (else the oldest item)
    std::vector<TraceItem> items;
};
template<typename V>
void describe(V &v, Trace &t)
{
    v("root", t.root);
    v("items", t.items);
}

struct TraceRef
{
    QString traceId;
};
template<typename V>
void describe(V &v, TraceRef &a)
{
    v(ArgSpec{ArgSpec::Path, "trace_id", "the trace id (an event's, a cron run's, a notification's trace_id)"}, a.traceId);
}

struct UserRef
{
    qint64 user = 0;
};
template<typename V>
void describe(V &v, UserRef &a)
{
    v(ArgSpec{ArgSpec::Query, "user", "the user id (users list)", 1, std::numeric_limits<qint64>::max(), "--user", true}, a.user);
}

struct UnreadCount
{
    qint64 count = 0;
};
template<typename V>
void describe(V &v, UnreadCount &c)
{
    v("new", c.count);
}

struct NotificationChange
{
    qint64 id = 0;
    QString status;
};
template<typename V>
void describe(V &v, NotificationChange &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the notification id", 1}, a.id);
    v(ArgSpec{ArgSpec::Body, "status", "read, unread or pinned", 0, 0, "--status", true}, a.status);
}

struct PageArgs
{
    qint64 page = 1;
    qint64 limit = 50;
};
template<typename V>
void describe(V &v, PageArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "page", "page (1-based)", 1, 1'000'000'000, "--page"}, a.page);
    v(ArgSpec{ArgSpec::Query, "limit", "rows per page (max 500)", 1, 500, "--limit"}, a.limit);
}

struct RepoRef
{
    qint64 id = 0;
};
template<typename V>
void describe(V &v, RepoRef &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the repository id (repos list)", 1}, a.id);
}

struct RepoUser
{
    qint64 id = 0;
    qint64 user = 0;
};
template<typename V>
void describe(V &v, RepoUser &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the repository id (repos list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Path, "user", "the user id (users list)", 1}, a.user);
}

struct WatchChange
{
    qint64 id = 0;
    qint64 user = 0;
    QString mode;
    QString kinds = QStringLiteral("issues,pulls,releases");
};
template<typename V>
void describe(V &v, WatchChange &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the repository id (repos list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Path, "user", "the user id (users list)", 1}, a.user);
    v(ArgSpec{ArgSpec::Body, "mode", "none, normal, dont or auto", 0, 0, "--mode", true}, a.mode);
    v(ArgSpec{ArgSpec::Body, "kinds", "what the watcher hears, comma-separated: issues, pulls, releases", 0, 0, "--kinds"}, a.kinds);
}

struct MailPreferenceChange
{
    qint64 id = 0;
    QString preference;
};
template<typename V>
void describe(V &v, MailPreferenceChange &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the user id (users list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Body, "email_notifications", "enabled, onmention, disabled or andyourown", 0, 0, "--mail", true}, a.preference);
}

struct AccessChange
{
    qint64 id = 0;
    qint64 user = 0;
    qint64 access = 0;
};
template<typename V>
void describe(V &v, AccessChange &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the repository id (repos list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Path, "user", "the user id (users list)", 1}, a.user);
    v(ArgSpec{ArgSpec::Body, "access", "0 none (removes), 1 read, 2 write, 3 admin", 0, 3, "--access", true}, a.access);
}

// An organisation's member and role (Gitea's org_user; owner: the Owners team).
struct OrgMemberChange
{
    qint64 id = 0;
    qint64 user = 0;
    QString role;
};
template<typename V>
void describe(V &v, OrgMemberChange &a)
{
    v(ArgSpec{ArgSpec::Path, "id", "the organisation's user id (users list)", 1}, a.id);
    v(ArgSpec{ArgSpec::Path, "user", "the user id (users list)", 1}, a.user);
    v(ArgSpec{ArgSpec::Body, "role", "none (removes, with the team access it gave), member or owner", 0, 0, "--as", true}, a.role);
}

namespace Ops {

extern const Op<EventPost, EventAcceptedRow> eventIngest;
extern const Op<EventListArgs, Page<EventRecord>> eventList;
extern const Op<EventRef, EventDetail> eventGet;
extern const Op<NotificationListArgs, Page<NotificationRow>> notificationList;
extern const Op<UserRef, UnreadCount> notificationNew;
extern const Op<NotificationChange, NotificationRow> notificationUpdate;
extern const Op<UserRef, NoContent> notificationReadAll;
extern const Op<FeedArgs, Page<ActionRow>> feedList;
extern const Op<TraceRef, Trace> traceGet;
extern const Op<PageArgs, Page<ForgeUserRow>> userList;
extern const Op<PageArgs, Page<RepoRow>> repoList;
extern const Op<RepoRef, std::vector<RepoPersonRow>> repoPeople;
extern const Op<WatchChange, Done> repoWatch;
extern const Op<MailPreferenceChange, Done> userMail;
extern const Op<RepoUser, Done> repoMute;
extern const Op<RepoUser, Done> repoUnmute;
extern const Op<AccessChange, Done> repoCollaborator;
extern const Op<AccessChange, Done> repoTeamAccess;
extern const Op<OrgMemberChange, Done> orgMember;

std::vector<const OpBase *> eventOps();

} // namespace Ops

} // namespace Switchyard::Admin
