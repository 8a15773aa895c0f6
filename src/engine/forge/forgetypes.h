#pragma once

// The forge's domain as values (Gitea's models, as much of them as the notify bus, event
// ingestion, notifications and webhooks use). Ids are Switchyard's own, keyed in the store by
// (source, external id) — `externalId` is the forge's, the one payloads and Message-IDs carry; optional members are relations that may not be loaded yet — the bus
// loads the ones every notifier needs before it broadcasts (notify.h).

#include <QDateTime>
#include <QString>

#include <optional>
#include <vector>

namespace Switchyard {

struct ForgeUser
{
    qint64 id = 0;
    qint64 externalId = 0; // the forge's own id (the store's external_id): what receivers and mail threads see
    QString login;
    QString fullName;
    QString email;
    QString avatarUrl; // as the forge sent it (payloads' avatar_url)
    bool isBot = false;
    bool isOrganization = false;
    QString language;          // for mail, e.g. "zh-CN"; empty: the instance's
    QString emailNotifications; // "enabled", "onmention", "disabled" (Gitea's EmailNotificationsPreference)
};

// Gitea's WatchMode.
enum class WatchMode { None = 0, Normal = 1, Dont = 2, Auto = 3 };

// What a repository's watcher hears (all by default).
struct WatchKinds
{
    bool issues = true;
    bool pulls = true;
    bool releases = true;
    bool operator==(const WatchKinds &) const = default;
};

// A repository as the admin API lists it.
struct RepoRow
{
    qint64 id = 0;
    QString source;
    qint64 externalId = 0;
    QString fullName;
    bool isPrivate = false;
    qint64 watchers = 0; // mode normal or auto
    bool operator==(const RepoRow &) const = default;
};

// A user's relation to one repository: watch (mode and kinds), mute, access (0 none, 1 read,
// 2 write, 3 admin as a collaborator).
struct RepoPersonRow
{
    qint64 userId = 0;
    QString login;
    WatchMode mode = WatchMode::None;
    WatchKinds kinds;
    bool muted = false;
    int access = 0;
    bool operator==(const RepoPersonRow &) const = default;
};

struct ForgeRepo
{
    qint64 id = 0;
    qint64 externalId = 0; // the forge's own id (the store's external_id): what receivers and mail threads see
    ForgeUser owner;
    QString name;
    bool isPrivate = false;
    bool isFork = false;
    qint64 forkOfId = 0;
    QString defaultBranch;
    QString htmlUrl;

    QString fullName() const { return owner.login + QLatin1Char('/') + name; }
};

// Gitea's ReviewType: only a submitted review notifies; a pending one is a draft.
enum class ReviewType { Pending, Approve, Comment, Reject, Request };

struct ForgeReview
{
    qint64 id = 0;
    qint64 externalId = 0; // the forge's own id (the store's external_id): what receivers and mail threads see
    ReviewType type = ReviewType::Comment;
    std::optional<ForgeUser> reviewer; // loaded by the bus for PullRequestReview
    QString content;
    qint64 issueId = 0;
};

struct ForgeIssue
{
    qint64 id = 0;
    qint64 externalId = 0; // the forge's own id (the store's external_id): what receivers and mail threads see
    qint64 repoId = 0;
    qint64 index = 0; // the number shown, #12
    QString title;
    QString content;
    bool isPull = false;
    bool isClosed = false;
    std::optional<ForgeUser> poster; // loaded by the bus for NewPullRequest
    std::vector<ForgeUser> assignees;
    QString milestone;
    QString ref;
    QString htmlUrl;
};

// Gitea's default WORK_IN_PROGRESS_PREFIXES: a pull whose title starts so is not ready yet
// (repository watchers are not notified of it).
inline bool isWorkInProgressTitle(const QString &title)
{
    const QString upper = title.trimmed().toUpper();
    return upper.startsWith(QLatin1String("WIP:")) || upper.startsWith(QLatin1String("[WIP]"));
}

struct ForgePullRequest
{
    qint64 id = 0;         // the issue's row: a pull is stored with its issue
    qint64 externalId = 0; // the forge's id of the pull (not of its issue): payloads' pull_request.id
    std::optional<ForgeIssue> issue; // loaded by the bus for NewPullRequest
    QString headBranch;
    QString baseBranch;
    bool hasMerged = false;
    bool isWorkInProgress = false; // a WIP title prefix: repo watchers are not notified
    QString mergedCommitId;
};

struct ForgeComment
{
    qint64 id = 0;
    qint64 externalId = 0; // the forge's own id (the store's external_id): what receivers and mail threads see
    qint64 issueId = 0;
    std::optional<ForgeUser> poster; // loaded by the bus for PullRequestCodeComment
    QString content;
    qint64 reviewId = 0;
    std::optional<ForgeReview> review; // loaded by the bus for the comment gate when reviewId != 0
    QString treePath;                  // code comments
    qint64 line = 0;
    QString htmlUrl;
};

struct ForgeRelease
{
    qint64 id = 0;
    qint64 externalId = 0; // the forge's own id (the store's external_id): what receivers and mail threads see
    qint64 repoId = 0;
    QString tagName;
    QString title;
    QString note;
    bool isDraft = false;
    bool isPrerelease = false;
    bool isTag = false; // a bare tag: not broadcast as a release
    // Loaded by the bus for NewRelease (Gitea's LoadAttributes).
    std::optional<ForgeUser> publisher;
    std::optional<ForgeRepo> repo;
};

struct ForgeLabel
{
    qint64 id = 0;
    QString name;
    QString color;
};

struct PushCommit
{
    QString sha;
    QString message;
    QString authorName;
    QString authorEmail;
    QDateTime timestamp;
};

struct PushUpdate
{
    QString refFullName; // refs/heads/main
    QString oldCommitId;
    QString newCommitId;
    std::vector<PushCommit> commits; // newest first, as Gitea's payloads
    int totalCommits = 0;
    QString compareUrl;
};

enum class RefType { Branch, Tag };

struct ForgePackage
{
    qint64 id = 0;
    ForgeUser owner;
    QString type; // "npm", "container", …
    QString name;
    QString version;
};

struct CommitStatus
{
    QString sha;
    QString state; // pending, success, error, failure, warning
    QString context;
    QString description;
    QString targetUrl;
};

struct WorkflowRun
{
    qint64 id = 0;
    QString name;
    QString event;
    QString status;     // queued, in_progress, completed
    QString conclusion; // success, failure, cancelled, skipped (completed runs)
    QString headBranch;
    qint64 runNumber = 0; // Gitea's run index: what its run pages and mail threads name
    QString headSha;      // the commit it ran on
    QString path;         // the workflow file: Gitea "ci.yml@refs/heads/main", GitHub ".github/workflows/ci.yml"
    QString htmlUrl;      // the run's page
};

struct WorkflowJob
{
    qint64 id = 0;
    qint64 runId = 0;
    QString name;
    QString status;
    QString conclusion;
};

struct WikiPage
{
    QString name;
    QString title;
    QString sha;
};

} // namespace Switchyard
