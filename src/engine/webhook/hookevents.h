#pragma once

// The webhook's vocabulary, as Gitea's modules/webhook has it (seed 001 §12.6): the 28 event
// types and the name a receiver sees for each (event()), what a hook subscribes to (HookEvents),
// the 11 hook types, the content types, the delivery status and the installation target.

#include "engine/core/status.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <set>
#include <vector>

namespace Switchyard::Webhook {

// Gitea's HookEventType, in type.go's order. The values are the wire names (name()).
enum class HookEventType {
    Create,
    Delete,
    Fork,
    Push,
    Issues,
    IssueAssign,
    IssueLabel,
    IssueMilestone,
    IssueComment,
    PullRequest,
    PullRequestAssign,
    PullRequestLabel,
    PullRequestMilestone,
    PullRequestComment,
    PullRequestReviewApproved,
    PullRequestReviewRejected,
    PullRequestReviewComment,
    PullRequestSync,
    PullRequestReviewRequest,
    Wiki,
    Repository,
    Release,
    Package,
    Status,
    PullRequestReview, // the group of the three review events a hook subscribes to; never sent
    Schedule,          // Actions only; never sent to a hook
    WorkflowRun,
    WorkflowJob,
};
inline constexpr int kHookEventTypeCount = 28;

// "push", "pull_request_review_approved" …
QString name(HookEventType type);
std::optional<HookEventType> hookEventFromName(QStringView name);
// Every type, in order (28).
const std::vector<HookEventType> &everyHookEventType();
// The name a receiver sees in X-Gitea-Event (and GitHub's X-GitHub-Event): issue_* → issues,
// pull_request_* → pull_request, pull_request_comment → issue_comment, and the reviews →
// pull_request_approved / pull_request_rejected / pull_request_comment. X-Gitea-Event-Type
// carries name() itself.
QString event(HookEventType type);
// The three review events (approved, rejected, comment).
bool isPullRequestReview(HookEventType type);
// What "send everything" sends: 26 types (no pull_request_review, no schedule).
const std::vector<HookEventType> &allEvents();

// The events JSON of a hook: {push_only, send_everything, choose_events, branch_filter, events}.
// The three modes exclude each other.
struct HookEvents
{
    bool pushOnly = false;
    bool sendEverything = false;
    bool chooseEvents = false;
    QString branchFilter; // a glob on the branch name, then on the full ref; empty, * and ** pass
    std::set<HookEventType> events; // with chooseEvents

    // Gitea's HasEvent: the three review events are subscribed to as pull_request_review.
    bool has(HookEventType type) const;
    // The types this hook receives, in order (send everything: allEvents()).
    std::vector<HookEventType> subscribed() const;
    // push, create and delete to `ref` ("refs/heads/main", "refs/tags/v1" or a short name): the
    // filter matches the branch name, then the full ref. Other events always pass.
    bool passesBranchFilter(const QString &ref) const;

    QJsonObject toJson() const;
    // Strict (the API's input): more than one mode, an unknown event or a filter that does not
    // compile fail, naming `field` + the key. No mode and no events means push only, no mode with
    // events means choose events (as Gitea's API does).
    static Result<HookEvents> fromJson(const QJsonObject &json, const QString &field = QStringLiteral("events"));

    bool operator==(const HookEvents &) const = default;
};

// A branch filter glob (gobwas/glob without separators, as Gitea compiles it): * and ** match any
// run of characters, ? one, [abc] [a-z] [!a] a class, {a,b} alternatives, \ escapes. Invalid:
// an unclosed [ or {, a trailing \.
Status validateBranchFilter(const QString &glob);
bool globMatches(const QString &glob, const QString &text);

// Gitea's HookType.
enum class HookType { Gitea, Gogs, Slack, Discord, Dingtalk, Telegram, Msteams, Feishu, Matrix, Wechatwork, Packagist };
QString name(HookType type);
std::optional<HookType> hookTypeFromName(QStringView name);
const std::vector<HookType> &everyHookType();

// HookContentType: json = 1, form = 2 (the body is payload=<json>).
enum class ContentType { Json = 1, Form = 2 };
QString name(ContentType type);
std::optional<ContentType> contentTypeFromName(QStringView name);

// HookStatus: the hook's last delivery.
enum class HookStatus { None = 0, Succeed = 1, Fail = 2 };
QString name(HookStatus status);

// Where a hook is installed (…-Hook-Installation-Target-Type): from its repo_id, owner_id and
// is_system (an owner is an organisation or a user).
enum class TargetType { Repository, Organization, User, System };
TargetType targetType(qint64 repoId, qint64 ownerId, bool isSystem, bool ownerIsOrganization);
QString name(TargetType type);

// The HTTP method a hook of `type` may use: empty (POST), POST, GET (the payload in the query),
// PUT (matrix only). The canonical method, or an error naming "http_method".
Result<QString> checkHttpMethod(const QString &method, HookType type);

} // namespace Switchyard::Webhook
