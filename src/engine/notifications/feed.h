#pragma once

// The bus's `feed` notifier (Gitea's services/feed): the activity feed, one `action` row per user
// who sees what happened — the doer, the repository's owner (an organisation's feed), and the
// repository's watchers (modes normal and auto) who may read it — all written in one transaction
// inside the bus call (the only notifier besides audit that writes synchronously; seed 001 §12.3).
//
// Content is Gitea's: "index|title" for issues and pulls, "index|first 200 characters" for
// comments and reviews, the old name for a rename, the push's commits as JSON. Content over
// 65 535 bytes (MySQL's TEXT, which Gitea's table has) becomes "{}" when it is JSON and is cut
// otherwise. A created tag is not recorded (its push already was). A failed write is logged and
// counted (failures()); the event's other notifiers are not affected.

#include "notificationtypes.h"

#include "engine/notify/notify.h"

#include <atomic>

namespace Switchyard {

class Store;

class FeedNotifier final : public NullNotifier
{
public:
    static constexpr qsizetype kMaxContentBytes = 65535;

    explicit FeedNotifier(Store &store); // not owned

    // The feed, newest first; `total` gets the number of matching rows.
    Result<std::vector<ActionRow>> list(const ActionFilter &filter, qint64 *total);
    qint64 failures() const { return m_failures.load(); }

    void createRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void migrateRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void forkRepository(const NotifyContext &c, const ForgeRepo &oldRepo, const ForgeRepo &repo) override;
    void renameRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldName) override;
    void transferRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldOwnerName) override;
    void newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &mentions) override;
    void issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool closed) override;
    void issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle) override;
    void createIssueComment(const NotifyContext &c, const ForgeRepo &repo, const ForgeIssue &issue, const ForgeComment &comment,
                            const std::vector<ForgeUser> &mentions) override;
    void newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions) override;
    void pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review, const ForgeComment &comment,
                           const std::vector<ForgeUser> &mentions) override;
    void pullReviewDismiss(const NotifyContext &c, const ForgeReview &review, const ForgeComment &comment) override;
    void mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void pushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push) override;
    void createRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,
                   const QString &refId) override;
    void deleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName) override;
    void syncPushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push) override;
    void syncCreateRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,
                       const QString &refId) override;
    void syncDeleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName) override;
    void newRelease(const NotifyContext &c, const ForgeRelease &release) override;

    // The stored form of `content`: at most kMaxContentBytes of UTF-8 ("{}" for JSON over it).
    static QString bounded(const QString &content, bool isJson);

private:
    struct Action
    {
        ActionType type;
        qint64 repoId = 0; // the repository row; its owner and privacy are read with the watchers
        qint64 issueId = 0; // an issue's or pull's action: content is "<number>|<content>", repo from the issue
        qint64 commentId = 0;
        QString refName;
        QString content;
        bool isJson = false;
    };
    void record(const NotifyContext &c, const Action &action);

    Store &m_store;
    std::atomic<qint64> m_failures{0};
};

} // namespace Switchyard
