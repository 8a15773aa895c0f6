#pragma once

// In-app notifications' values (notifications.h): the queue's item and the rows the admin API
// and the console show.

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace Switchyard {

enum class NotificationStatus { Unread = 1, Read = 2, Pinned = 3 };
enum class NotificationSource { Issue = 1, Pull = 2, Commit = 3, Repository = 4 };
QString notificationStatusName(NotificationStatus status); // unread | read | pinned
std::optional<NotificationStatus> notificationStatusFromName(const QString &name);
QString notificationSourceName(NotificationSource source); // issue | pull | commit | repository

// An item of the notification-service queue (Gitea's notificationOpts).
struct NotificationItem
{
    qint64 issueId = 0;
    qint64 commentId = 0;
    qint64 authorId = 0;
    qint64 receiverId = 0; // 0: everyone concerned
    QString traceId;

    QJsonObject toJson() const;
    static std::optional<NotificationItem> fromJson(const QJsonObject &json);
    bool operator==(const NotificationItem &) const = default;
};

struct NotificationRow
{
    qint64 id = 0;
    qint64 userId = 0;
    qint64 repoId = 0;
    qint64 issueId = 0;
    qint64 commentId = 0;
    NotificationStatus status = NotificationStatus::Unread;
    NotificationSource source = NotificationSource::Issue;
    qint64 updatedBy = 0;
    QDateTime createdAt;
    QDateTime updatedAt;
    QString traceId;
    // For people: the user's login, the repository's full name, the issue's number and title.
    QString user;
    QString repo;
    qint64 issueNumber = 0;
    QString issueTitle;
    bool operator==(const NotificationRow &) const = default;
};

struct NotificationFilter
{
    qint64 userId = 0; // 0: every user
    std::vector<NotificationStatus> statuses; // empty: every status
    qint64 offset = 0;
    qint64 limit = 50;
};

struct NotificationPage
{
    std::vector<NotificationRow> rows;
    qint64 total = 0;
};

// The activity feed (feed.h): Gitea's ActionType numbers, as stored in action.op_type.
enum class ActionType {
    CreateRepo = 1, RenameRepo = 2, CommitRepo = 5, CreateIssue = 6, CreatePullRequest = 7, TransferRepo = 8,
    PushTag = 9, CommentIssue = 10, MergePullRequest = 11, CloseIssue = 12, ReopenIssue = 13, ClosePullRequest = 14,
    ReopenPullRequest = 15, DeleteTag = 16, DeleteBranch = 17, MirrorSyncPush = 18, MirrorSyncCreate = 19,
    MirrorSyncDelete = 20, ApprovePullRequest = 21, RejectPullRequest = 22, CommentPull = 23, PublishRelease = 24,
    PullReviewDismissed = 25, PullRequestReadyForReview = 26, AutoMergePullRequest = 27,
};

// One row of a user's feed: what `actor` did in `repo`, as `user` sees it.
struct ActionRow
{
    qint64 id = 0;
    qint64 userId = 0; // whose feed
    ActionType opType = ActionType::CommitRepo;
    qint64 actUserId = 0;
    qint64 repoId = 0;
    qint64 commentId = 0;
    QString refName;
    bool isPrivate = false;
    QString content; // Gitea's: "index|title", "index|comment", push commits as JSON …
    QDateTime createdAt;
    QString traceId;
    QString user;  // logins and the repository's full name, for people
    QString actor;
    QString repo;
    bool operator==(const ActionRow &) const = default;
};

struct ActionFilter
{
    qint64 userId = 0; // 0: every user's feed
    qint64 repoId = 0; // 0: every repository
    qint64 offset = 0;
    qint64 limit = 50;
};

// A user of the forge as the admin API lists them, with their unread count.
struct ForgeUserRow
{
    qint64 id = 0;
    QString source;
    qint64 externalId = 0;
    QString login;
    QString fullName;
    bool isBot = false;
    bool isOrganization = false;
    QString emailNotifications;
    qint64 unread = 0;
    bool operator==(const ForgeUserRow &) const = default;
};

} // namespace Switchyard
