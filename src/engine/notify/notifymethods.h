#pragma once

// The notify bus's events (seed 001 §12.1.1), listed once: Notifier declares them, NullNotifier
// implements them empty, and the bus fans them out, each from this list, so an event added here
// reaches all three. Gitea's names in lowerCamel, in notifier.go's order. Not here:
// StopwatchChanged (Switchyard has no time tracking).
//
// X(name, (parameters), (arguments)) — every event but the gated ones;
// G(…) — the same form, for the events the bus gates (notify.cpp writes their fan-out by hand).

#define SWITCHYARD_NOTIFY_EVENTS(X, G)                                                                            \
    /* repositories */                                                                                            \
    X(adoptRepository, (const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo), (c, owner, repo)) \
    X(createRepository, (const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo), (c, owner, repo)) \
    X(migrateRepository, (const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo), (c, owner, repo)) \
    X(deleteRepository, (const NotifyContext &c, const ForgeRepo &repo), (c, repo))                                \
    X(forkRepository, (const NotifyContext &c, const ForgeRepo &oldRepo, const ForgeRepo &repo), (c, oldRepo, repo)) \
    X(renameRepository, (const NotifyContext &c, const ForgeRepo &repo, const QString &oldName), (c, repo, oldName)) \
    X(transferRepository, (const NotifyContext &c, const ForgeRepo &repo, const QString &oldOwnerName),             \
      (c, repo, oldOwnerName))                                                                                      \
    X(repoPendingTransfer, (const NotifyContext &c, const ForgeUser &newOwner, const ForgeRepo &repo),              \
      (c, newOwner, repo))                                                                                          \
    /* issues */                                                                                                    \
    X(newIssue, (const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &mentions),          \
      (c, issue, mentions))                                                                                         \
    X(issueChangeStatus, (const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool closed), \
      (c, issue, comment, closed))                                                                                  \
    X(deleteIssue, (const NotifyContext &c, const ForgeIssue &issue), (c, issue))                                   \
    X(issueChangeMilestone, (const NotifyContext &c, const ForgeIssue &issue, const QString &oldMilestone),         \
      (c, issue, oldMilestone))                                                                                     \
    X(issueChangeAssignee,                                                                                          \
      (const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &assignee, bool removed,                    \
       const ForgeComment &comment),                                                                                \
      (c, issue, assignee, removed, comment))                                                                       \
    X(pullRequestReviewRequest,                                                                                     \
      (const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &reviewer, bool isRequest,                  \
       const ForgeComment &comment),                                                                                \
      (c, issue, reviewer, isRequest, comment))                                                                     \
    X(issueChangeContent, (const NotifyContext &c, const ForgeIssue &issue, const QString &oldContent),             \
      (c, issue, oldContent))                                                                                       \
    X(issueClearLabels, (const NotifyContext &c, const ForgeIssue &issue), (c, issue))                              \
    X(issueChangeTitle, (const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle),                 \
      (c, issue, oldTitle))                                                                                         \
    X(issueChangeRef, (const NotifyContext &c, const ForgeIssue &issue, const QString &oldRef), (c, issue, oldRef)) \
    X(issueChangeLabels,                                                                                            \
      (const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeLabel> &added,                       \
       const std::vector<ForgeLabel> &removed),                                                                     \
      (c, issue, added, removed))                                                                                   \
    /* pull requests */                                                                                             \
    G(newPullRequest, (const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions), \
      (c, pr, mentions))                                                                                            \
    X(mergePullRequest, (const NotifyContext &c, const ForgePullRequest &pr), (c, pr))                              \
    X(autoMergePullRequest, (const NotifyContext &c, const ForgePullRequest &pr), (c, pr))                          \
    X(pullRequestSynchronized, (const NotifyContext &c, const ForgePullRequest &pr), (c, pr))                       \
    G(pullRequestReview,                                                                                            \
      (const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review, const ForgeComment &comment,  \
       const std::vector<ForgeUser> &mentions),                                                                     \
      (c, pr, review, comment, mentions))                                                                           \
    G(pullRequestCodeComment,                                                                                       \
      (const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment,                             \
       const std::vector<ForgeUser> &mentions),                                                                     \
      (c, pr, comment, mentions))                                                                                   \
    X(pullRequestChangeTargetBranch, (const NotifyContext &c, const ForgePullRequest &pr, const QString &oldBranch), \
      (c, pr, oldBranch))                                                                                           \
    X(pullRequestPushCommits, (const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment),    \
      (c, pr, comment))                                                                                             \
    X(pullReviewDismiss, (const NotifyContext &c, const ForgeReview &review, const ForgeComment &comment),          \
      (c, review, comment))                                                                                         \
    /* comments */                                                                                                  \
    G(createIssueComment,                                                                                           \
      (const NotifyContext &c, const ForgeRepo &repo, const ForgeIssue &issue, const ForgeComment &comment,         \
       const std::vector<ForgeUser> &mentions),                                                                     \
      (c, repo, issue, comment, mentions))                                                                          \
    G(updateComment, (const NotifyContext &c, const ForgeComment &comment, const QString &oldContent),              \
      (c, comment, oldContent))                                                                                     \
    G(deleteComment, (const NotifyContext &c, const ForgeComment &comment), (c, comment))                           \
    /* wiki */                                                                                                      \
    X(newWikiPage, (const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page, const QString &comment),   \
      (c, repo, page, comment))                                                                                     \
    X(editWikiPage, (const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page, const QString &comment),  \
      (c, repo, page, comment))                                                                                     \
    X(deleteWikiPage, (const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page), (c, repo, page))       \
    /* releases */                                                                                                  \
    G(newRelease, (const NotifyContext &c, const ForgeRelease &release), (c, release))                              \
    X(updateRelease, (const NotifyContext &c, const ForgeRelease &release), (c, release))                           \
    X(deleteRelease, (const NotifyContext &c, const ForgeRelease &release), (c, release))                           \
    /* git refs */                                                                                                  \
    X(pushCommits, (const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push), (c, repo, push))        \
    X(createRef, (const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,          \
                  const QString &commitId),                                                                         \
      (c, repo, type, refFullName, commitId))                                                                       \
    X(deleteRef, (const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName),         \
      (c, repo, type, refFullName))                                                                                 \
    X(syncPushCommits, (const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push), (c, repo, push))    \
    X(syncCreateRef, (const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,      \
                      const QString &commitId),                                                                     \
      (c, repo, type, refFullName, commitId))                                                                       \
    X(syncDeleteRef, (const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName),     \
      (c, repo, type, refFullName))                                                                                 \
    /* packages */                                                                                                  \
    X(packageCreate, (const NotifyContext &c, const ForgePackage &package), (c, package))                           \
    X(packageDelete, (const NotifyContext &c, const ForgePackage &package), (c, package))                           \
    /* the rest */                                                                                                  \
    X(changeDefaultBranch, (const NotifyContext &c, const ForgeRepo &repo), (c, repo))                              \
    X(createCommitStatus, (const NotifyContext &c, const ForgeRepo &repo, const CommitStatus &status),              \
      (c, repo, status))                                                                                            \
    X(workflowRunStatusUpdate, (const NotifyContext &c, const ForgeRepo &repo, const WorkflowRun &run),             \
      (c, repo, run))                                                                                               \
    X(workflowJobStatusUpdate, (const NotifyContext &c, const ForgeRepo &repo, const WorkflowJob &job),             \
      (c, repo, job))                                                                                               \
    /* not a forge event: a user's unread count changed (after any write that affects it) */                      \
    X(notificationCountChange, (qint64 userId), (userId))
