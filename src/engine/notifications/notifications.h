#pragma once

// In-app notifications (SPEC §8, seed 001 §12.4; docs/notifications.md).
//
// The `uinotification` notifier turns bus events into items of the `notification-service` queue
// — {issue, comment, author, receiver}, receiver 0 meaning "everyone concerned" — so that a
// comment with 3 mentions makes 1 + 3 items. The queue's handler computes the recipients and
// writes the rows (NotificationService::deliver). Recipients of a broadcast: the issue's
// explicit watchers, the repository's watchers of that kind (not for a work-in-progress pull),
// participants, assignees and requested reviewers; minus the author and explicit unwatchers.
// For every item: minus those who muted the repository (a mute beats a mention), minus bots,
// minus those who cannot read a private repository. A user who has a row for the issue gets it
// updated — unread again, its comment moved only if it had been read (so no older comment is
// skipped) — otherwise a new unread row. No retry: a failed item is logged.
//
// Status changes (read, unread, pin, read-all) go through the same service, which calls the bus's
// notificationCountChange for each user whose unread count changed; counts are never stored, so
// a dropped live update only delays the next correct count.

#include "engine/core/status.h"
#include "engine/notifications/notificationtypes.h"
#include "engine/notify/notify.h"
#include "engine/queue/queue.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace Switchyard {

class Store;
class QueueManager;

// Thread-safe.
class NotificationService
{
public:
    // `bus` receives notificationCountChange; not owned.
    NotificationService(Store &store, Notifier &bus);

    // The queue's work: recipients, rows, count changes. Returns how many rows it wrote.
    Result<int> deliver(const NotificationItem &item);
    // Gitea's CreateRepoTransferNotification: written at once for the new owner (or, for an
    // organisation, its members), source repository.
    Status notifyTransfer(const NotifyContext &context, const ForgeUser &newOwner, const ForgeRepo &repo);
    // The receivers of a new pull request: repository watchers of pulls and participants, minus
    // the poster (the caller adds the mentions).
    Result<std::vector<qint64>> pullRequestWatchers(const ForgeIssue &issue);

    Result<NotificationPage> list(const NotificationFilter &filter);
    Result<qint64> countUnread(qint64 userId);
    // NotFound for an unknown id.
    Result<NotificationRow> setStatus(qint64 id, NotificationStatus status);
    // Every unread row of the user becomes read; returns how many.
    Result<qint64> markAllRead(qint64 userId);

    Result<std::vector<ForgeUserRow>> users(qint64 offset, qint64 limit, qint64 *total);

private:
    void countChanged(const std::vector<qint64> &users);

    Store &m_store;
    Notifier &m_bus;
};

// The bus's `uinotification`: events → queue items (run() creates the queue).
class UINotifier final : public NullNotifier
{
public:
    // Not owned. `stop` (the lifecycle's shutdown token) ends the queue handler's waits for an
    // unavailable store.
    UINotifier(NotificationService &service, QueueManager &queues, CancelToken stop = {});

    Status run() override;
    std::shared_ptr<WorkerPoolQueue<NotificationItem>> queue() const { return m_queue; }

    void newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &mentions) override;
    void issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool closed) override;
    void issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle) override;
    void issueChangeAssignee(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &assignee, bool removed,
                             const ForgeComment &comment) override;
    void pullRequestReviewRequest(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &reviewer, bool isRequest,
                                  const ForgeComment &comment) override;
    void newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions) override;
    void mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review, const ForgeComment &comment,
                           const std::vector<ForgeUser> &mentions) override;
    void pullRequestCodeComment(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment,
                                const std::vector<ForgeUser> &mentions) override;
    void pullRequestPushCommits(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment) override;
    void pullReviewDismiss(const NotifyContext &c, const ForgeReview &review, const ForgeComment &comment) override;
    void createIssueComment(const NotifyContext &c, const ForgeRepo &repo, const ForgeIssue &issue, const ForgeComment &comment,
                            const std::vector<ForgeUser> &mentions) override;
    void repoPendingTransfer(const NotifyContext &c, const ForgeUser &newOwner, const ForgeRepo &repo) override;

private:
    // A push the queue refuses comes back with the event (NotifyContext::retryLater).
    void push(const NotifyContext &c, const NotificationItem &item);
    void pushWithMentions(const NotifyContext &c, const NotificationItem &item, const std::vector<ForgeUser> &mentions);

    NotificationService &m_service;
    QueueManager &m_queues;
    const CancelToken m_stop;
    std::shared_ptr<WorkerPoolQueue<NotificationItem>> m_queue;
};

class Broker;

// The bus's `stream`: a changed unread count is counted from the store and published to the
// user's topic and the admin topic as `notification-count\n{"user_id","count"}` — only when
// someone listens (hasTopicSubscribers; always true on Redis).
class StreamNotifier final : public NullNotifier
{
public:
    StreamNotifier(NotificationService &service, Broker &broker); // Not owned
    void notificationCountChange(qint64 userId) override;

private:
    NotificationService &m_service;
    Broker &m_broker;
};

} // namespace Switchyard
