#include "forgedata.h"

#include "engine/store/store.h"

#include <QRegularExpression>
#include <QSet>

namespace Switchyard {

namespace {

qint64 nowUnix()
{
    return QDateTime::currentSecsSinceEpoch();
}

// Keeps the stored text when the payload's is empty.
QString keep(const char *column, const char *table)
{
    return QStringLiteral("%1 = CASE WHEN excluded.%1 <> '' THEN excluded.%1 ELSE %2.%1 END")
        .arg(QLatin1String(column), QLatin1String(table));
}

const QString kUserColumns = QStringLiteral("id, login, full_name, email, is_bot, is_org, language, email_notifications, external_id, avatar_url");

ForgeUser userFrom(const QSqlQuery &q, int first = 0)
{
    ForgeUser u;
    u.id = q.value(first).toLongLong();
    u.login = q.value(first + 1).toString();
    u.fullName = q.value(first + 2).toString();
    u.email = q.value(first + 3).toString();
    u.isBot = q.value(first + 4).toBool();
    u.isOrganization = q.value(first + 5).toBool();
    u.language = q.value(first + 6).toString();
    u.emailNotifications = q.value(first + 7).toString();
    u.externalId = q.value(first + 8).toLongLong();
    u.avatarUrl = q.value(first + 9).toString();
    return u;
}

Result<ForgeUser> firstUser(Result<QSqlQuery> q, const QString &what)
{
    if (!q)
        return q.status();
    if (!q->next())
        return Status::notFound(QStringLiteral("%1: no such user").arg(what));
    return userFrom(*q);
}

} // namespace

namespace ForgeDb {

Result<ForgeUser> upsertUser(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeUser &seen)
{
    if (seen.login.isEmpty())
        return Status::invalidArgument(QStringLiteral("a user without a login")).withField(QStringLiteral("login"));
    const qint64 now = nowUnix();
    return firstUser(tx.exec(QStringLiteral("INSERT INTO forge_user (source, external_id, login, full_name, email, is_bot, is_org, language, "
                                            "avatar_url, created_unix, updated_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                                            "ON CONFLICT (source, external_id) DO UPDATE SET login = excluded.login, %1, %2, %3, %4, "
                                            "is_bot = excluded.is_bot, is_org = excluded.is_org, updated_unix = excluded.updated_unix "
                                            "RETURNING %5")
                                 .arg(keep("full_name", "forge_user"), keep("email", "forge_user"), keep("language", "forge_user"),
                                      keep("avatar_url", "forge_user"), kUserColumns),
                             {source, externalId, seen.login, seen.fullName, seen.email, int(seen.isBot), int(seen.isOrganization),
                              seen.language, seen.avatarUrl, now, now}),
                     seen.login);
}

Result<ForgeRepo> upsertRepo(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeRepo &seen)
{
    if (seen.owner.id <= 0 || seen.name.isEmpty())
        return Status::invalidArgument(QStringLiteral("a repository without an owner or a name")).withField(QStringLiteral("repository"));
    const qint64 now = nowUnix();
    Result<qint64> id = tx.insertReturningId(
        QStringLiteral("INSERT INTO repo (source, external_id, owner_id, name, is_private, is_fork, fork_of_id, default_branch, html_url, "
                       "created_unix, updated_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (source, external_id) DO UPDATE SET owner_id = excluded.owner_id, name = excluded.name, "
                       "is_private = excluded.is_private, is_fork = excluded.is_fork, "
                       "fork_of_id = CASE WHEN excluded.fork_of_id <> 0 THEN excluded.fork_of_id ELSE repo.fork_of_id END, %1, %2, "
                       "updated_unix = excluded.updated_unix RETURNING id")
            .arg(keep("default_branch", "repo"), keep("html_url", "repo")),
        {source, externalId, seen.owner.id, seen.name, int(seen.isPrivate), int(seen.isFork), seen.forkOfId, seen.defaultBranch,
         seen.htmlUrl, now, now});
    if (!id)
        return id.status();
    ForgeRepo repo = seen;
    repo.id = *id;
    repo.externalId = externalId;
    return repo;
}

Result<ForgeIssue> upsertIssue(SqlTransaction &tx, qint64 externalId, const ForgeIssue &seen, const ForgePullRequest *pull,
                               const std::vector<ForgeUser> *assignees)
{
    if (seen.repoId <= 0 || seen.index <= 0)
        return Status::invalidArgument(QStringLiteral("an issue without a repository or a number")).withField(QStringLiteral("number"));
    if (!seen.poster || seen.poster->id <= 0)
        return Status::invalidArgument(QStringLiteral("issue #%1 without its poster").arg(seen.index)).withField(QStringLiteral("user"));
    const qint64 now = nowUnix();
    Result<qint64> id = tx.insertReturningId(
        QStringLiteral("INSERT INTO issue (external_id, repo_id, number, poster_id, title, content, is_pull, is_closed, is_wip, has_merged, "
                       "head_branch, base_branch, html_url, created_unix, updated_unix, pull_external_id) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (repo_id, number) DO UPDATE SET "
                       "external_id = CASE WHEN excluded.external_id <> 0 THEN excluded.external_id ELSE issue.external_id END, "
                       "pull_external_id = CASE WHEN excluded.pull_external_id <> 0 THEN excluded.pull_external_id "
                       "ELSE issue.pull_external_id END, "
                       "poster_id = excluded.poster_id, %1, content = excluded.content, "
                       "is_pull = CASE WHEN excluded.is_pull <> 0 THEN 1 ELSE issue.is_pull END, is_closed = excluded.is_closed, "
                       "is_wip = excluded.is_wip, has_merged = CASE WHEN excluded.has_merged <> 0 THEN 1 ELSE issue.has_merged END, "
                       "%2, %3, %4, updated_unix = excluded.updated_unix RETURNING id")
            .arg(keep("title", "issue"), keep("head_branch", "issue"), keep("base_branch", "issue"), keep("html_url", "issue")),
        {externalId, seen.repoId, seen.index, seen.poster->id, seen.title, seen.content, int(seen.isPull), int(seen.isClosed),
         int(pull && pull->isWorkInProgress), int(pull && pull->hasMerged), pull ? pull->headBranch : QString(),
         pull ? pull->baseBranch : QString(), seen.htmlUrl, now, now, pull ? pull->externalId : 0});
    if (!id)
        return id.status();
    ForgeIssue issue = seen;
    issue.id = *id;
    if (externalId != 0)
        issue.externalId = externalId;
    if (assignees) {
        if (Status s = tx.exec(QStringLiteral("DELETE FROM issue_assignee WHERE issue_id = ?"), {issue.id}).status(); !s)
            return s;
        for (const ForgeUser &assignee : *assignees) {
            if (Status s = tx.exec(QStringLiteral("INSERT INTO issue_assignee (issue_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING"),
                                   {issue.id, assignee.id})
                               .status();
                !s)
                return s;
        }
        issue.assignees = *assignees;
    }
    if (Status s = addParticipant(tx, issue.id, seen.poster->id); !s)
        return s;
    return issue;
}

Result<ForgeComment> upsertComment(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeComment &seen)
{
    if (seen.issueId <= 0 || !seen.poster || seen.poster->id <= 0)
        return Status::invalidArgument(QStringLiteral("a comment without its issue or poster")).withField(QStringLiteral("comment"));
    const qint64 now = nowUnix();
    Result<qint64> id = tx.insertReturningId(
        QStringLiteral("INSERT INTO comment (source, external_id, issue_id, poster_id, content, review_id, tree_path, line, html_url, "
                       "created_unix, updated_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (source, external_id) DO UPDATE SET content = excluded.content, %1, "
                       "updated_unix = excluded.updated_unix RETURNING id")
            .arg(keep("html_url", "comment")),
        {source, externalId, seen.issueId, seen.poster->id, seen.content, seen.reviewId, seen.treePath, seen.line, seen.htmlUrl, now, now});
    if (!id)
        return id.status();
    ForgeComment comment = seen;
    comment.id = *id;
    comment.externalId = externalId;
    if (Status s = addParticipant(tx, seen.issueId, seen.poster->id); !s)
        return s;
    return comment;
}

Result<ForgeReview> upsertReview(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeReview &seen)
{
    if (seen.issueId <= 0 || !seen.reviewer || seen.reviewer->id <= 0)
        return Status::invalidArgument(QStringLiteral("a review without its pull request or reviewer")).withField(QStringLiteral("review"));
    Result<qint64> id = tx.insertReturningId(
        QStringLiteral("INSERT INTO review (source, external_id, issue_id, reviewer_id, type, content, created_unix) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, external_id) DO UPDATE SET type = excluded.type, "
                       "content = excluded.content RETURNING id"),
        {source, externalId, seen.issueId, seen.reviewer->id, int(seen.type), seen.content, nowUnix()});
    if (!id)
        return id.status();
    ForgeReview review = seen;
    review.id = *id;
    review.externalId = externalId;
    if (Status s = addParticipant(tx, seen.issueId, seen.reviewer->id); !s)
        return s;
    return review;
}

Result<ForgeRelease> upsertRelease(SqlTransaction &tx, const QString &source, qint64 externalId, const ForgeRelease &seen)
{
    if (seen.repoId <= 0 || !seen.publisher || seen.publisher->id <= 0)
        return Status::invalidArgument(QStringLiteral("a release without its repository or publisher")).withField(QStringLiteral("release"));
    Result<qint64> id = tx.insertReturningId(
        QStringLiteral("INSERT INTO forge_release (source, external_id, repo_id, publisher_id, tag_name, title, note, is_draft, "
                       "is_prerelease, created_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, external_id) "
                       "DO UPDATE SET tag_name = excluded.tag_name, title = excluded.title, note = excluded.note, "
                       "is_draft = excluded.is_draft, is_prerelease = excluded.is_prerelease RETURNING id"),
        {source, externalId, seen.repoId, seen.publisher->id, seen.tagName, seen.title, seen.note, int(seen.isDraft),
         int(seen.isPrerelease), nowUnix()});
    if (!id)
        return id.status();
    ForgeRelease release = seen;
    release.id = *id;
    release.externalId = externalId;
    return release;
}

Status setReviewRequest(SqlTransaction &tx, qint64 issueId, qint64 userId, bool requested)
{
    if (requested)
        return tx.exec(QStringLiteral("INSERT INTO review_request (issue_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING"),
                       {issueId, userId})
            .status();
    return tx.exec(QStringLiteral("DELETE FROM review_request WHERE issue_id = ? AND user_id = ?"), {issueId, userId}).status();
}

Status addParticipant(SqlTransaction &tx, qint64 issueId, qint64 userId)
{
    return tx.exec(QStringLiteral("INSERT INTO issue_participant (issue_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING"),
                   {issueId, userId})
        .status();
}

Result<std::vector<ForgeUser>> usersByLogin(SqlTransaction &tx, const QString &source, const QStringList &logins)
{
    std::vector<ForgeUser> users;
    for (const QString &login : logins) {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT %1 FROM forge_user WHERE source = ? AND lower(login) = lower(?)").arg(kUserColumns),
                                      {source, login});
        if (!q)
            return q.status();
        if (q->next())
            users.push_back(userFrom(*q));
    }
    return users;
}

Result<ForgeUser> user(SqlTransaction &tx, qint64 id)
{
    return firstUser(tx.exec(QStringLiteral("SELECT %1 FROM forge_user WHERE id = ?").arg(kUserColumns), {id}),
                     QStringLiteral("user %1").arg(id));
}

Result<ForgeRepo> repo(SqlTransaction &tx, qint64 id)
{
    Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, owner_id, name, is_private, is_fork, fork_of_id, default_branch, html_url, "
                                                 "external_id FROM repo WHERE id = ?"),
                                  {id});
    if (!q)
        return q.status();
    if (!q->next())
        return Status::notFound(QStringLiteral("repository %1 is not in the store").arg(id)).withField(QStringLiteral("repo_id"));
    ForgeRepo r;
    r.id = q->value(0).toLongLong();
    const qint64 ownerId = q->value(1).toLongLong();
    r.name = q->value(2).toString();
    r.isPrivate = q->value(3).toBool();
    r.isFork = q->value(4).toBool();
    r.forkOfId = q->value(5).toLongLong();
    r.defaultBranch = q->value(6).toString();
    r.htmlUrl = q->value(7).toString();
    r.externalId = q->value(8).toLongLong();
    Result<ForgeUser> owner = user(tx, ownerId);
    if (!owner)
        return owner.status();
    r.owner = *owner;
    return r;
}

Result<ForgeIssue> issue(SqlTransaction &tx, qint64 id, ForgePullRequest *pull)
{
    Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, repo_id, number, poster_id, title, content, is_pull, is_closed, html_url, "
                                                 "is_wip, has_merged, head_branch, base_branch, external_id, pull_external_id "
                                                 "FROM issue WHERE id = ?"),
                                  {id});
    if (!q)
        return q.status();
    if (!q->next())
        return Status::notFound(QStringLiteral("issue %1 is not in the store").arg(id)).withField(QStringLiteral("issue_id"));
    ForgeIssue i;
    i.id = q->value(0).toLongLong();
    i.repoId = q->value(1).toLongLong();
    i.index = q->value(2).toLongLong();
    const qint64 posterId = q->value(3).toLongLong();
    i.title = q->value(4).toString();
    i.content = q->value(5).toString();
    i.isPull = q->value(6).toBool();
    i.isClosed = q->value(7).toBool();
    i.htmlUrl = q->value(8).toString();
    i.externalId = q->value(13).toLongLong();
    if (pull) {
        pull->id = i.id;
        pull->isWorkInProgress = q->value(9).toBool();
        pull->hasMerged = q->value(10).toBool();
        pull->headBranch = q->value(11).toString();
        pull->baseBranch = q->value(12).toString();
        pull->externalId = q->value(14).toLongLong();
    }
    Result<ForgeUser> poster = user(tx, posterId);
    if (!poster)
        return poster.status();
    i.poster = *poster;
    Result<QSqlQuery> assignees = tx.exec(QStringLiteral("SELECT %1 FROM forge_user u JOIN issue_assignee a ON a.user_id = u.id "
                                                         "WHERE a.issue_id = ? ORDER BY u.id")
                                              .arg(QStringLiteral("u.id, u.login, u.full_name, u.email, u.is_bot, u.is_org, u.language, "
                                                                  "u.email_notifications, u.external_id, u.avatar_url")),
                                          {i.id});
    if (!assignees)
        return assignees.status();
    while (assignees->next())
        i.assignees.push_back(userFrom(*assignees));
    if (pull)
        pull->issue = i;
    return i;
}

Result<IssueFacts> issueFacts(SqlTransaction &tx, qint64 issueId)
{
    Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT i.id, i.repo_id, i.number, i.poster_id, i.is_pull, i.is_wip, i.title, r.is_private, "
                                                 "r.owner_id FROM issue i JOIN repo r ON r.id = i.repo_id WHERE i.id = ?"),
                                  {issueId});
    if (!q)
        return q.status();
    if (!q->next())
        return Status::notFound(QStringLiteral("issue %1 is not in the store").arg(issueId));
    IssueFacts f;
    f.id = q->value(0).toLongLong();
    f.repoId = q->value(1).toLongLong();
    f.number = q->value(2).toLongLong();
    f.posterId = q->value(3).toLongLong();
    f.isPull = q->value(4).toBool();
    f.isWip = q->value(5).toBool() || isWorkInProgressTitle(q->value(6).toString());
    f.repoPrivate = q->value(7).toBool();
    f.ownerId = q->value(8).toLongLong();
    return f;
}

Status forgetEmail(SqlTransaction &tx, qint64 userId)
{
    return tx.exec(QStringLiteral("UPDATE forge_user SET email = '', updated_unix = ? WHERE id = ?"), {nowUnix(), userId}).status();
}

Status setMailPreference(SqlTransaction &tx, qint64 userId, const QString &preference)
{
    static const QStringList valid{QStringLiteral("enabled"), QStringLiteral("onmention"), QStringLiteral("disabled"), QStringLiteral("andyourown")};
    if (!valid.contains(preference))
        return Status::invalidArgument(QStringLiteral("email_notifications: \"%1\" is not one of %2").arg(preference.left(64), valid.join(QStringLiteral(", "))))
            .withField(QStringLiteral("email_notifications"));
    return tx.exec(QStringLiteral("UPDATE forge_user SET email_notifications = ?, updated_unix = ? WHERE id = ?"), {preference, nowUnix(), userId})
        .status();
}

Status watchIfAuto(SqlTransaction &tx, qint64 userId, qint64 repoId)
{
    const qint64 now = nowUnix();
    return tx.exec(QStringLiteral("INSERT INTO watch (user_id, repo_id, mode, created_unix, updated_unix) VALUES (?, ?, ?, ?, ?) "
                                  "ON CONFLICT (user_id, repo_id) DO NOTHING"),
                   {userId, repoId, int(WatchMode::Auto), now, now})
        .status();
}

Status setWatch(SqlTransaction &tx, qint64 userId, qint64 repoId, WatchMode mode, WatchKinds kinds)
{
    if (mode == WatchMode::None)
        return tx.exec(QStringLiteral("DELETE FROM watch WHERE user_id = ? AND repo_id = ?"), {userId, repoId}).status();
    const qint64 now = nowUnix();
    return tx.exec(QStringLiteral("INSERT INTO watch (user_id, repo_id, mode, issues, pulls, releases, created_unix, updated_unix) "
                                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, repo_id) DO UPDATE SET mode = excluded.mode, "
                                  "issues = excluded.issues, pulls = excluded.pulls, releases = excluded.releases, "
                                  "updated_unix = excluded.updated_unix"),
                   {userId, repoId, int(mode), int(kinds.issues), int(kinds.pulls), int(kinds.releases), now, now})
        .status();
}

Status setIssueWatch(SqlTransaction &tx, qint64 userId, qint64 issueId, bool watching)
{
    const qint64 now = nowUnix();
    return tx.exec(QStringLiteral("INSERT INTO issue_watch (user_id, issue_id, is_watching, created_unix, updated_unix) VALUES (?, ?, ?, ?, ?) "
                                  "ON CONFLICT (user_id, issue_id) DO UPDATE SET is_watching = excluded.is_watching, "
                                  "updated_unix = excluded.updated_unix"),
                   {userId, issueId, int(watching), now, now})
        .status();
}

Status setMute(SqlTransaction &tx, qint64 userId, qint64 repoId, bool muted)
{
    if (!muted)
        return tx.exec(QStringLiteral("DELETE FROM repo_ignore WHERE user_id = ? AND repo_id = ?"), {userId, repoId}).status();
    return tx.exec(QStringLiteral("INSERT INTO repo_ignore (user_id, repo_id, created_unix) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
                   {userId, repoId, nowUnix()})
        .status();
}

Status setCollaborator(SqlTransaction &tx, qint64 repoId, qint64 userId, int mode)
{
    if (mode <= 0)
        return tx.exec(QStringLiteral("DELETE FROM collaborator WHERE repo_id = ? AND user_id = ?"), {repoId, userId}).status();
    return tx.exec(QStringLiteral("INSERT INTO collaborator (repo_id, user_id, mode) VALUES (?, ?, ?) "
                                  "ON CONFLICT (repo_id, user_id) DO UPDATE SET mode = excluded.mode"),
                   {repoId, userId, mode})
        .status();
}

Status setOrgMember(SqlTransaction &tx, qint64 orgId, qint64 userId, bool member, bool owner)
{
    if (!member)
        return tx.exec(QStringLiteral("DELETE FROM org_member WHERE org_id = ? AND user_id = ?"), {orgId, userId}).status();
    return tx.exec(QStringLiteral("INSERT INTO org_member (org_id, user_id, is_owner) VALUES (?, ?, ?) "
                                  "ON CONFLICT (org_id, user_id) DO UPDATE SET is_owner = excluded.is_owner"),
                   {orgId, userId, owner ? 1 : 0})
        .status();
}

Status setTeamAccess(SqlTransaction &tx, qint64 repoId, qint64 userId, int mode)
{
    if (mode <= 0)
        return tx.exec(QStringLiteral("DELETE FROM team_access WHERE repo_id = ? AND user_id = ?"), {repoId, userId}).status();
    return tx.exec(QStringLiteral("INSERT INTO team_access (repo_id, user_id, mode) VALUES (?, ?, ?) "
                                  "ON CONFLICT (repo_id, user_id) DO UPDATE SET mode = excluded.mode"),
                   {repoId, userId, mode})
        .status();
}

QString privateReadersSql()
{
    // A team access counts only while its holder is still a member (leaving the organisation
    // ends every team membership in Gitea).
    return QStringLiteral("SELECT CAST(? AS BIGINT) UNION SELECT user_id FROM collaborator WHERE repo_id = ? AND mode >= 1 "
                          "UNION SELECT m.user_id FROM org_member m WHERE m.org_id = ? AND (m.is_owner = 1 OR EXISTS "
                          "(SELECT 1 FROM team_access t WHERE t.repo_id = ? AND t.user_id = m.user_id AND t.mode >= 1))");
}

QVariantList privateReadersValues(qint64 repoId, qint64 ownerId)
{
    return {ownerId, repoId, ownerId, repoId};
}

Result<QSet<qint64>> privateReaders(SqlTransaction &tx, qint64 repoId, qint64 ownerId)
{
    return idSet(tx, privateReadersSql(), privateReadersValues(repoId, ownerId));
}

Result<std::vector<RepoRow>> repos(SqlTransaction &tx, qint64 offset, qint64 limit, qint64 *total)
{
    Result<qint64> count = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM repo"));
    if (!count)
        return count.status();
    *total = *count;
    Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT r.id, r.source, r.external_id, COALESCE(o.login, '') || '/' || r.name, r.is_private, "
                                                 "(SELECT COUNT(*) FROM watch w WHERE w.repo_id = r.id AND w.mode IN (1, 3)) "
                                                 "FROM repo r LEFT JOIN forge_user o ON o.id = r.owner_id ORDER BY r.id LIMIT ? OFFSET ?"),
                                  {limit, offset});
    if (!q)
        return q.status();
    std::vector<RepoRow> rows;
    while (q->next())
        rows.push_back({q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toLongLong(), q->value(3).toString(),
                        q->value(4).toBool(), q->value(5).toLongLong()});
    return rows;
}

Result<std::vector<RepoPersonRow>> repoPeople(SqlTransaction &tx, qint64 repoId)
{
    Result<QSqlQuery> q = tx.exec(
        QStringLiteral("SELECT u.id, u.login, COALESCE(w.mode, 0), COALESCE(w.issues, 1), COALESCE(w.pulls, 1), COALESCE(w.releases, 1), "
                       "CASE WHEN m.user_id IS NULL THEN 0 ELSE 1 END, COALESCE(c.mode, 0) FROM forge_user u "
                       "LEFT JOIN watch w ON w.user_id = u.id AND w.repo_id = ? LEFT JOIN repo_ignore m ON m.user_id = u.id AND m.repo_id = ? "
                       "LEFT JOIN collaborator c ON c.user_id = u.id AND c.repo_id = ? "
                       "WHERE w.user_id IS NOT NULL OR m.user_id IS NOT NULL OR c.user_id IS NOT NULL ORDER BY u.login"),
        {repoId, repoId, repoId});
    if (!q)
        return q.status();
    std::vector<RepoPersonRow> rows;
    while (q->next())
        rows.push_back({q->value(0).toLongLong(), q->value(1).toString(), WatchMode(q->value(2).toInt()),
                        WatchKinds{q->value(3).toBool(), q->value(4).toBool(), q->value(5).toBool()}, q->value(6).toBool(),
                        q->value(7).toInt()});
    return rows;
}

Result<QSet<qint64>> idSet(SqlTransaction &tx, const QString &sql, const QVariantList &values)
{
    Result<QSqlQuery> q = tx.exec(sql, values);
    if (!q)
        return q.status();
    QSet<qint64> found;
    while (q->next())
        found.insert(q->value(0).toLongLong());
    return found;
}

Status checkRepo(SqlTransaction &tx, qint64 repoId)
{
    Result<qint64> n = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM repo WHERE id = ?"), {repoId});
    if (!n)
        return n.status();
    return *n ? Status::ok() : Status::notFound(QStringLiteral("no repository %1").arg(repoId)).withField(QStringLiteral("id"));
}

Status checkUser(SqlTransaction &tx, qint64 userId)
{
    Result<qint64> n = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM forge_user WHERE id = ?"), {userId});
    if (!n)
        return n.status();
    return *n ? Status::ok() : Status::notFound(QStringLiteral("no user %1").arg(userId)).withField(QStringLiteral("user"));
}

QStringList mentionedLogins(const QString &markdown)
{
    // Code is not prose: fenced blocks, then inline spans, are cut before looking for mentions.
    static const QRegularExpression fenced(QStringLiteral("(^|\\n)[ \\t]*(```|~~~)[^\\n]*\\n[\\s\\S]*?(\\n[ \\t]*\\2[^\\n]*(?=\\n|$)|$)"));
    static const QRegularExpression inlineCode(QStringLiteral("`+[^`]*`+"));
    // Gitea's mention pattern: "@" after a start, space or opening punctuation; a login of
    // letters, digits, '-', '_' and '.', not ending in '.'.
    static const QRegularExpression mention(QStringLiteral("(?:^|[\\s(\\[{\"'>])@([A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_]|[A-Za-z0-9_])(?![A-Za-z0-9_@])"));
    QString text = markdown;
    text.replace(fenced, QStringLiteral("\n"));
    text.replace(inlineCode, QStringLiteral(" "));
    QStringList logins;
    QSet<QString> seen;
    for (auto it = mention.globalMatch(text); it.hasNext();) {
        const QString login = it.next().captured(1);
        if (!seen.contains(login.toLower())) {
            seen.insert(login.toLower());
            logins << login;
        }
    }
    return logins;
}

} // namespace ForgeDb

} // namespace Switchyard
