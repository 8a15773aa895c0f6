#pragma once

// The webhook notifier (seed 001 §12.7.1): first on the notify bus, it turns ~40 forge events into
// a hook event type and a Gitea API payload, and hands them to WebhookService::prepare(), which
// picks the repository's, owner's and system's hooks and queues a task per hook.
//
// The mapping follows Gitea's services/webhook/notifier.go:
//   - an issue's change sends issues* on an issue and pull_request* on a pull (isPull decides);
//   - labels send label_updated / label_cleared, milestones milestoned / demilestoned;
//   - a review sends pull_request_review_{approved,rejected,comment} with the action `reviewed`;
//   - create and delete carry the short ref (feature/x), the branch filter sees the full one;
//   - a fork sends fork on the source (forkee = the source, repository = the fork, as Gitea does)
//     and, when the fork's owner is an organisation, repository/created on the fork;
//   - a commit status's target URL is made absolute against the forge's address;
//   - packages go to the owner's hooks (and the system's);
//   - a new repository (created, adopted, migrated, forked) first gets a copy of each default
//     hook (WebhookService::copyDefaultHooks(), once per repository), so the copies hear its
//     repository/created event as in Gitea.
// Not sent, as in Gitea: renames, transfers, default branch changes, code comments (the review's
// comment event covers them), pushes of a pull's commits and review dismissals.
//
// What a payload needs and the event did not carry (an issue's repository, a comment's issue) is
// read from the store; when it cannot be read the event is logged and counted, not half sent —
// unless the store is only unavailable and the event's producer dispatches it again
// (NotifyContext::retryLater). Each call's tasks get delivery ids derived from the event's trace
// and NotifyContext::keyFor(), so an event dispatched again after a crash makes no second task.

#include "orderedjson.h"

#include "engine/notify/notify.h"

#include <atomic>

namespace Switchyard {

class Store;

namespace Webhook {

class WebhookService;
enum class HookEventType;
struct EventSource;

// What some changes add to api.IssuePayload / api.PullRequestPayload (each in its place). At
// namespace scope: GCC refuses a nested class with member initialisers as a default argument.
struct ChangeExtras
{
    OrderedObject changes;                       // api.ChangesPayload, omitted when empty
    std::optional<ForgeUser> requestedReviewer;  // pull_request_review_request
    OrderedObject review;                        // api.ReviewPayload, null when empty
    bool mergedByDoer = false;                   // a merge: merged_by is the doer
};

class WebhookNotifier final : public NullNotifier
{
public:
    WebhookNotifier(WebhookService &service, Store &store); // Not owned

    struct Stats
    {
        qint64 prepared = 0; // events handed to prepare() (a task per subscribed hook)
        qint64 failed = 0;   // events lost to a store or queue error (logged)
    };
    Stats stats() const { return {m_prepared.load(), m_failed.load()}; }

    void adoptRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void createRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void migrateRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void deleteRepository(const NotifyContext &c, const ForgeRepo &repo) override;
    void forkRepository(const NotifyContext &c, const ForgeRepo &oldRepo, const ForgeRepo &repo) override;

    void newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &mentions) override;
    void issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool closed) override;
    void deleteIssue(const NotifyContext &c, const ForgeIssue &issue) override;
    void issueChangeMilestone(const NotifyContext &c, const ForgeIssue &issue, const QString &oldMilestone) override;
    void issueChangeAssignee(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &assignee, bool removed,
                             const ForgeComment &comment) override;
    void pullRequestReviewRequest(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &reviewer, bool isRequest,
                                  const ForgeComment &comment) override;
    void issueChangeContent(const NotifyContext &c, const ForgeIssue &issue, const QString &oldContent) override;
    void issueClearLabels(const NotifyContext &c, const ForgeIssue &issue) override;
    void issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle) override;
    void issueChangeRef(const NotifyContext &c, const ForgeIssue &issue, const QString &oldRef) override;
    void issueChangeLabels(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeLabel> &added,
                           const std::vector<ForgeLabel> &removed) override;

    void newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions) override;
    void mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void pullRequestSynchronized(const NotifyContext &c, const ForgePullRequest &pr) override;
    void pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review, const ForgeComment &comment,
                           const std::vector<ForgeUser> &mentions) override;
    void pullRequestChangeTargetBranch(const NotifyContext &c, const ForgePullRequest &pr, const QString &oldBranch) override;

    void createIssueComment(const NotifyContext &c, const ForgeRepo &repo, const ForgeIssue &issue, const ForgeComment &comment,
                            const std::vector<ForgeUser> &mentions) override;
    void updateComment(const NotifyContext &c, const ForgeComment &comment, const QString &oldContent) override;
    void deleteComment(const NotifyContext &c, const ForgeComment &comment) override;

    void newWikiPage(const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page, const QString &comment) override;
    void editWikiPage(const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page, const QString &comment) override;
    void deleteWikiPage(const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page) override;

    void newRelease(const NotifyContext &c, const ForgeRelease &release) override;
    void updateRelease(const NotifyContext &c, const ForgeRelease &release) override;
    void deleteRelease(const NotifyContext &c, const ForgeRelease &release) override;

    void pushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push) override;
    void createRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,
                   const QString &commitId) override;
    void deleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName) override;
    void syncPushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push) override;
    void syncCreateRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,
                       const QString &commitId) override;
    void syncDeleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName) override;

    void packageCreate(const NotifyContext &c, const ForgePackage &package) override;
    void packageDelete(const NotifyContext &c, const ForgePackage &package) override;

    void createCommitStatus(const NotifyContext &c, const ForgeRepo &repo, const CommitStatus &status) override;
    void workflowRunStatusUpdate(const NotifyContext &c, const ForgeRepo &repo, const WorkflowRun &run) override;
    void workflowJobStatusUpdate(const NotifyContext &c, const ForgeRepo &repo, const WorkflowJob &job) override;

private:
    struct IssueContext; // an issue with its repository and, for a pull, the pull
    // The loads: false when the store could not give what the payload needs (failed() was told).
    bool load(const char *method, const NotifyContext &c, const ForgeIssue &given, IssueContext &out);
    bool loadPull(const char *method, const NotifyContext &c, const ForgePullRequest &given, IssueContext &out);
    bool loadComment(const char *method, const NotifyContext &c, const ForgeComment &given, IssueContext &out);
    bool loadRepo(const char *method, const NotifyContext &c, qint64 repoId, ForgeRepo &out);
    // A failure that passes (Unavailable) within a dispatch that can be repeated is handed back
    // (NotifyContext::retryLater); any other is logged and counted.
    void failed(const char *method, const NotifyContext &c, const Status &why);

    // `payload` is complete, its sender included, in Gitea's field order.
    void send(const char *method, const EventSource &source, HookEventType type, const OrderedObject &payload, const NotifyContext &c,
              const QString &ref = {});
    // The issues* or pull_request* form of one change to an issue (isPull decides).
    void sendIssueChange(const char *method, const NotifyContext &c, const IssueContext &ctx, HookEventType issueType,
                         HookEventType pullType, const QString &action, const ChangeExtras &extra = ChangeExtras());
    void sendRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &action);
    void sendMerged(const char *method, const NotifyContext &c, const ForgePullRequest &pr);
    void sendPush(const char *method, const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push);
    void sendCreateRef(const char *method, const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &ref,
                       const QString &sha);
    void sendDeleteRef(const char *method, const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &ref);
    void sendWiki(const char *method, const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page, const QString &action,
                  const QString &comment);
    void sendRelease(const char *method, const NotifyContext &c, const ForgeRelease &release, const QString &action);
    void sendPackage(const char *method, const NotifyContext &c, const ForgePackage &package, const QString &action);

    WebhookService &m_service;
    Store &m_store;
    std::atomic<qint64> m_prepared{0};
    std::atomic<qint64> m_failed{0};
};

} // namespace Webhook
} // namespace Switchyard
