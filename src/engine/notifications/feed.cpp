#include "feed.h"

#include "engine/forge/forgedata.h"
#include "engine/store/store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <algorithm>
#include <QSet>

Q_DECLARE_LOGGING_CATEGORY(lcNotify) // notify.cpp

namespace Switchyard {


namespace {

// Gitea keeps the first 200 characters of a comment or review in the feed.
QString excerpt(const QString &text)
{
    return text.left(200);
}

// Gitea's PushCommits (repository.PushCommits) as the feed stores it.
QString pushContent(const PushUpdate &push)
{
    QJsonArray commits;
    for (const PushCommit &commit : push.commits)
        commits.append(QJsonObject{{QStringLiteral("Sha1"), commit.sha},
                                   {QStringLiteral("Message"), commit.message},
                                   {QStringLiteral("AuthorEmail"), commit.authorEmail},
                                   {QStringLiteral("AuthorName"), commit.authorName},
                                   {QStringLiteral("Timestamp"), commit.timestamp.toString(Qt::ISODate)}});
    QJsonObject head;
    if (!commits.isEmpty())
        head = commits.first().toObject();
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("Commits"), commits},
                                                       {QStringLiteral("HeadCommit"), head},
                                                       {QStringLiteral("CompareURL"), push.compareUrl},
                                                       {QStringLiteral("Len"), push.totalCommits > 0 ? push.totalCommits
                                                                                                     : qsizetype(push.commits.size())}})
                                 .toJson(QJsonDocument::Compact));
}

} // namespace

FeedNotifier::FeedNotifier(Store &store) : m_store(store) {}

QString FeedNotifier::bounded(const QString &content, bool isJson)
{
    QByteArray utf8 = content.toUtf8();
    if (utf8.size() <= kMaxContentBytes)
        return content;
    if (isJson)
        return QStringLiteral("{}"); // cut JSON is no JSON
    qsizetype cut = kMaxContentBytes;
    while (cut > 0 && (quint8(utf8.at(cut)) & 0xC0) == 0x80)
        --cut; // not inside a character
    utf8.truncate(cut);
    return QString::fromUtf8(utf8);
}

void FeedNotifier::record(const NotifyContext &c, const Action &action)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const Status written = m_store.write([&](SqlTransaction &tx) -> Status {
        qint64 repoId = action.repoId;
        QString content = action.content;
        if (action.issueId != 0) {
            Result<QSqlQuery> issue = tx.exec(QStringLiteral("SELECT repo_id, number FROM issue WHERE id = ?"), {action.issueId});
            if (!issue)
                return issue.status();
            if (!issue->next())
                return Status::notFound(QStringLiteral("issue %1 is not in the store").arg(action.issueId));
            repoId = issue->value(0).toLongLong();
            content = QString::number(issue->value(1).toLongLong()) + u'|' + content;
        }
        Result<QSqlQuery> repo = tx.exec(QStringLiteral("SELECT owner_id, is_private FROM repo WHERE id = ?"), {repoId});
        if (!repo)
            return repo.status();
        if (!repo->next())
            return Status::notFound(QStringLiteral("repository %1 is not in the store").arg(repoId));
        const qint64 ownerId = repo->value(0).toLongLong();
        const bool isPrivate = repo->value(1).toBool();

        // The doer, the owner (an organisation's feed), and the watchers who may read the
        // repository, in that order; the watchers in one statement, whatever their number.
        const QString stored = bounded(content, action.isJson);
        const QString columns = QStringLiteral("INSERT INTO action (user_id, op_type, act_user_id, repo_id, comment_id, ref_name, is_private, "
                                               "content, created_unix, trace_id) ");
        const QVariantList row{int(action.type), c.doer.id, repoId, action.commentId, action.refName, isPrivate ? 1 : 0, stored, now,
                               c.traceId};
        QList<qint64> firsts;
        for (qint64 id : {c.doer.id, ownerId})
            if (id != 0 && !firsts.contains(id))
                firsts.append(id);
        for (qint64 id : firsts)
            if (Status s = tx.exec(columns + QStringLiteral("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"), QVariantList{id} + row).status(); !s)
                return s;
        // Typed casts: PostgreSQL gives an untyped parameter in a select list the type text.
        return tx.exec(columns + QStringLiteral("SELECT w.user_id, CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
                                                "CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT) "
                                                "FROM watch w WHERE w.repo_id = ? AND w.mode IN (1, 3) AND w.user_id NOT IN (?, ?) "
                                                "AND (? = 0 OR w.user_id IN (") + ForgeDb::privateReadersSql() + QStringLiteral(")) ORDER BY w.user_id"),
                       row + QVariantList{repoId, c.doer.id, ownerId, isPrivate ? 1 : 0} + ForgeDb::privateReadersValues(repoId, ownerId))
            .status();
    });
    if (!written && c.scope && written.code() == Status::Code::Unavailable) {
        c.retryLater(written); // recorded when the event is dispatched to this notifier again
    } else if (!written) {
        ++m_failures;
        qCWarning(lcNotify).noquote() << "feed: cannot record action type" << int(action.type) << "by" << c.doer.login << ":"
                                             << written.message();
    }
}

void FeedNotifier::createRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    record(c, {ActionType::CreateRepo, repo.id});
}

void FeedNotifier::migrateRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    record(c, {ActionType::CreateRepo, repo.id}); // Gitea records a migration as a creation
}

void FeedNotifier::forkRepository(const NotifyContext &c, const ForgeRepo &, const ForgeRepo &repo)
{
    record(c, {ActionType::CreateRepo, repo.id});
}

void FeedNotifier::renameRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldName)
{
    record(c, {ActionType::RenameRepo, repo.id, 0, 0, {}, oldName});
}

void FeedNotifier::transferRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldOwnerName)
{
    record(c, {ActionType::TransferRepo, repo.id, 0, 0, {}, oldOwnerName + u'/' + repo.name});
}

void FeedNotifier::newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &)
{
    record(c, {ActionType::CreateIssue, 0, issue.id, 0, {}, issue.title});
}

void FeedNotifier::issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool closed)
{
    const ActionType type = issue.isPull ? (closed ? ActionType::ClosePullRequest : ActionType::ReopenPullRequest)
                                         : (closed ? ActionType::CloseIssue : ActionType::ReopenIssue);
    record(c, {type, 0, issue.id, comment.id, {}, issue.title});
}

void FeedNotifier::issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle)
{
    // Only a pull leaving work in progress is news for the feed.
    if (issue.isPull && isWorkInProgressTitle(oldTitle) && !isWorkInProgressTitle(issue.title))
        record(c, {ActionType::PullRequestReadyForReview, 0, issue.id, 0, {}, issue.title});
}

void FeedNotifier::createIssueComment(const NotifyContext &c, const ForgeRepo &, const ForgeIssue &issue, const ForgeComment &comment,
                                      const std::vector<ForgeUser> &)
{
    record(c, {issue.isPull ? ActionType::CommentPull : ActionType::CommentIssue, 0, issue.id, comment.id, {}, excerpt(comment.content)});
}

void FeedNotifier::newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &)
{
    if (pr.issue)
        record(c, {ActionType::CreatePullRequest, 0, pr.issue->id, 0, {}, pr.issue->title});
}

void FeedNotifier::pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review,
                                     const ForgeComment &comment, const std::vector<ForgeUser> &)
{
    ActionType type;
    switch (review.type) {
    case ReviewType::Approve: type = ActionType::ApprovePullRequest; break;
    case ReviewType::Reject: type = ActionType::RejectPullRequest; break;
    case ReviewType::Comment: type = ActionType::CommentPull; break;
    default: return; // pending (a draft) and requests are not activity
    }
    const qint64 issueId = review.issueId != 0 ? review.issueId : (pr.issue ? pr.issue->id : 0);
    if (issueId != 0)
        record(c, {type, 0, issueId, comment.id, {}, excerpt(review.content.isEmpty() ? comment.content : review.content)});
}

void FeedNotifier::pullReviewDismiss(const NotifyContext &c, const ForgeReview &review, const ForgeComment &comment)
{
    if (review.issueId != 0)
        record(c, {ActionType::PullReviewDismissed, 0, review.issueId, comment.id, {}, excerpt(comment.content)});
}

void FeedNotifier::mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    if (pr.issue)
        record(c, {ActionType::MergePullRequest, 0, pr.issue->id, 0, {}, pr.issue->title});
}

void FeedNotifier::autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    if (pr.issue)
        record(c, {ActionType::AutoMergePullRequest, 0, pr.issue->id, 0, {}, pr.issue->title});
}

void FeedNotifier::pushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push)
{
    const ActionType type = push.refFullName.startsWith(QLatin1String("refs/tags/")) ? ActionType::PushTag : ActionType::CommitRepo;
    record(c, {type, repo.id, 0, 0, push.refFullName, pushContent(push), true});
}

void FeedNotifier::createRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName, const QString &)
{
    if (type == RefType::Tag)
        return; // its push was recorded as push_tag already
    record(c, {ActionType::CommitRepo, repo.id, 0, 0, refFullName});
}

void FeedNotifier::deleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName)
{
    record(c, {type == RefType::Tag ? ActionType::DeleteTag : ActionType::DeleteBranch, repo.id, 0, 0, refFullName});
}

void FeedNotifier::syncPushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push)
{
    record(c, {ActionType::MirrorSyncPush, repo.id, 0, 0, push.refFullName, pushContent(push), true});
}

void FeedNotifier::syncCreateRef(const NotifyContext &c, const ForgeRepo &repo, RefType, const QString &refFullName, const QString &)
{
    record(c, {ActionType::MirrorSyncCreate, repo.id, 0, 0, refFullName});
}

void FeedNotifier::syncDeleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType, const QString &refFullName)
{
    record(c, {ActionType::MirrorSyncDelete, repo.id, 0, 0, refFullName});
}

void FeedNotifier::newRelease(const NotifyContext &c, const ForgeRelease &release)
{
    if (release.isDraft || release.isTag)
        return;
    record(c, {ActionType::PublishRelease, release.repoId, 0, 0, release.tagName, release.title});
}

Result<std::vector<ActionRow>> FeedNotifier::list(const ActionFilter &filter, qint64 *total)
{
    return m_store.readValue<std::vector<ActionRow>>([&](SqlTransaction &tx) -> Result<std::vector<ActionRow>> {
        QString where = QStringLiteral(" WHERE 1 = 1");
        QVariantList values;
        if (filter.userId != 0) {
            where += QStringLiteral(" AND a.user_id = ?");
            values.append(filter.userId);
        }
        if (filter.repoId != 0) {
            where += QStringLiteral(" AND a.repo_id = ?");
            values.append(filter.repoId);
        }
        Result<qint64> count = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM action a") + where, values);
        if (!count)
            return count.status();
        if (total)
            *total = *count;
        Result<QSqlQuery> q = tx.exec(
            QStringLiteral("SELECT a.id, a.user_id, a.op_type, a.act_user_id, a.repo_id, a.comment_id, a.ref_name, a.is_private, "
                           "a.content, a.created_unix, a.trace_id, COALESCE(u.login, ''), COALESCE(d.login, ''), "
                           "COALESCE(o.login || '/' || r.name, '') FROM action a LEFT JOIN forge_user u ON u.id = a.user_id "
                           "LEFT JOIN forge_user d ON d.id = a.act_user_id LEFT JOIN repo r ON r.id = a.repo_id "
                           "LEFT JOIN forge_user o ON o.id = r.owner_id")
                + where + QStringLiteral(" ORDER BY a.id DESC LIMIT ? OFFSET ?"),
            values + QVariantList{filter.limit, filter.offset});
        if (!q)
            return q.status();
        std::vector<ActionRow> rows;
        while (q->next()) {
            ActionRow r;
            r.id = q->value(0).toLongLong();
            r.userId = q->value(1).toLongLong();
            r.opType = ActionType(q->value(2).toInt());
            r.actUserId = q->value(3).toLongLong();
            r.repoId = q->value(4).toLongLong();
            r.commentId = q->value(5).toLongLong();
            r.refName = q->value(6).toString();
            r.isPrivate = q->value(7).toBool();
            r.content = q->value(8).toString();
            r.createdAt = QDateTime::fromSecsSinceEpoch(q->value(9).toLongLong(), Qt::UTC);
            r.traceId = q->value(10).toString();
            r.user = q->value(11).toString();
            r.actor = q->value(12).toString();
            r.repo = q->value(13).toString();
            rows.push_back(std::move(r));
        }
        return rows;
    });
}

} // namespace Switchyard
