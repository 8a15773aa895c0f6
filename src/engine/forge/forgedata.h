#pragma once

// The forge's domain in the store (schema migration 2): what event ingestion learns about users,
// repositories, issues, comments, reviews and releases, and the relations operators set by hand
// (watch modes, mutes, collaborators, organisation members and their team access). Upserts run inside the caller's transaction, so one event's
// rows commit together; reads for the admin API page in SQL.
//
// Keys: users, repositories, comments, reviews and releases by (source, external id) — the event
// source's name and the forge's own id; issues and pulls by (repository, number). An upsert never
// erases what an earlier, fuller payload said: empty strings keep the stored value.

#include "engine/core/status.h"
#include "engine/forge/forgetypes.h"
#include "engine/notify/notify.h"

#include <QDateTime>
#include <QSet>
#include <QString>
#include <QStringList>

#include <vector>

namespace Switchyard {

class SqlTransaction;
class Store;

namespace ForgeDb {

// Each returns the row as stored (with its id). `seen.id` is ignored; nested users must have
// been upserted first (their `id` set).
Result<ForgeUser> upsertUser(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeUser &seen);
Result<ForgeRepo> upsertRepo(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeRepo &seen);
// Pull fields come from `pull` when the issue is a pull request. Assignees, when `assignees` is
// given, replace the stored ones.
Result<ForgeIssue> upsertIssue(SqlTransaction &tx, qint64 externalId, const ForgeIssue &seen, const ForgePullRequest *pull,
                               const std::vector<ForgeUser> *assignees);
Result<ForgeComment> upsertComment(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeComment &seen);
Result<ForgeReview> upsertReview(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeReview &seen);
Result<ForgeRelease> upsertRelease(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeRelease &seen);
// upsertUser keeps a stored email when the payload has none (a forge that hides it); this one
// forgets it, for a payload whose email was refused (the user is not mailed at an old address).
Status forgetEmail(SqlTransaction &tx, qint64 userId);
Status setReviewRequest(SqlTransaction &tx, qint64 issueId, qint64 userId, bool requested);
Status addParticipant(SqlTransaction &tx, qint64 issueId, qint64 userId);
// The users of `source` with these logins (unknown logins are left out).
Result<std::vector<ForgeUser>> usersByLogin(SqlTransaction &tx, const QString &source, const QStringList &logins);
Result<ForgeUser> user(SqlTransaction &tx, qint64 id);
// A repository with its owner; NotFound naming repo_id.
Result<ForgeRepo> repo(SqlTransaction &tx, qint64 id);
// An issue with its poster and assignees; when `pull` is given, a pull's branches and state go
// there (and the issue into pull->issue). NotFound naming issue_id.
Result<ForgeIssue> issue(SqlTransaction &tx, qint64 id, ForgePullRequest *pull = nullptr);

// What the recipient rules (notifications, mail) need of an issue: its place, kind and whether
// its repository is private. NotFound for an id the store does not have.
struct IssueFacts
{
    qint64 id = 0;
    qint64 repoId = 0;
    qint64 number = 0;
    qint64 posterId = 0;
    bool isPull = false;
    bool isWip = false; // the flag, or a work-in-progress title
    bool repoPrivate = false;
    qint64 ownerId = 0;
};
Result<IssueFacts> issueFacts(SqlTransaction &tx, qint64 issueId);

// [service] AUTO_WATCH_ON_CHANGES: a user who changes something starts watching the repository
// (mode auto) unless a watch row says otherwise already.
Status watchIfAuto(SqlTransaction &tx, qint64 userId, qint64 repoId);

// Set by operators (PUT /repos/{id}/watchers/{user} …). Mode None removes the watch.
Status setWatch(SqlTransaction &tx, qint64 userId, qint64 repoId, WatchMode mode, WatchKinds kinds = {});
Status setIssueWatch(SqlTransaction &tx, qint64 userId, qint64 issueId, bool watching);
Status setMute(SqlTransaction &tx, qint64 userId, qint64 repoId, bool muted);
// Which mail the user gets (Gitea's EmailNotificationsPreference): enabled, onmention, disabled
// or andyourown; InvalidArgument naming email_notifications for anything else.
Status setMailPreference(SqlTransaction &tx, qint64 userId, const QString &preference);
// mode 1 read, 2 write, 3 admin; 0 removes.
Status setCollaborator(SqlTransaction &tx, qint64 repoId, qint64 userId, int mode);
// A member of organisation `orgId`; `owner`: of its Owners team (every repository of it). Not a
// member removes the row (and with it every team access it gave).
Status setOrgMember(SqlTransaction &tx, qint64 orgId, qint64 userId, bool member, bool owner = false);
// The access a member's teams give to repository `repoId` of their organisation (Gitea's
// team_repo × team_user, the highest mode): 1 read, 2 write, 3 admin; 0 removes.
Status setTeamAccess(SqlTransaction &tx, qint64 repoId, qint64 userId, int mode);

// Who may read a private repository (Gitea's CheckRepoUnitUser / HasAccessUnit, as far as the
// forge told Switchyard): its owner, its collaborators (mode ≥ 1), and those members of the owning
// organisation who own it or whose teams give access to the repository (team_access ≥ 1). Org
// membership alone is not access, and nothing unknown is taken for access. A public repository:
// everyone (not asked here).
Result<QSet<qint64>> privateReaders(SqlTransaction &tx, qint64 repoId, qint64 ownerId);
// The same as a SQL subquery of user ids, for `IN (…)`; its parameters: privateReadersValues().
QString privateReadersSql();
QVariantList privateReadersValues(qint64 repoId, qint64 ownerId);

// The first column of every row of `sql` (user ids, mostly), as a set.
Result<QSet<qint64>> idSet(SqlTransaction &tx, const QString &sql, const QVariantList &values);

// The admin API's lists: repositories with their watcher counts, a repository's people (those
// who watch, muted or may read it).
Result<std::vector<RepoRow>> repos(SqlTransaction &tx, qint64 offset, qint64 limit, qint64 *total);
Result<std::vector<RepoPersonRow>> repoPeople(SqlTransaction &tx, qint64 repoId);
// NotFound, naming the field, for an id the store does not have.
Status checkRepo(SqlTransaction &tx, qint64 repoId);
Status checkUser(SqlTransaction &tx, qint64 userId);

// @mentions in Markdown: "@login" at a word start, outside fenced and inline code; each once.
QStringList mentionedLogins(const QString &markdown);

} // namespace ForgeDb

// The bus's loader over the store: relations the gated events need (notify.h).
class StoredNotifyLoader final : public NotifyLoader
{
public:
    explicit StoredNotifyLoader(Store &store) : m_store(store) {}
    Status loadPullIssue(ForgePullRequest &pr) override;
    Status loadReviewer(ForgeReview &review) override;
    Status loadCommentPoster(ForgeComment &comment) override;
    Status loadCommentReview(ForgeComment &comment) override;
    Status loadReleaseAttributes(ForgeRelease &release) override;

private:
    Store &m_store;
};

} // namespace Switchyard
