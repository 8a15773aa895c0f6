// StoredNotifyLoader (forgedata.h): the relations the notify bus loads before it broadcasts, read
// from the store. Called on the thread of whoever broadcasts (an event_ingest worker), each load
// in a read transaction of its own.

#include "forgedata.h"

#include "engine/store/store.h"

namespace Switchyard {

Status StoredNotifyLoader::loadPullIssue(ForgePullRequest &pr)
{
    Result<ForgeIssue> issue = m_store.readValue<ForgeIssue>([&](SqlTransaction &tx) -> Result<ForgeIssue> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, repo_id, number, poster_id, title, content, is_pull, is_closed, html_url, "
                                                     "external_id FROM issue WHERE id = ?"),
                                      {pr.id});
        if (!q)
            return q.status();
        if (!q->next())
            return Status::notFound(QStringLiteral("pull request %1 is not in the store").arg(pr.id));
        ForgeIssue i;
        i.id = q->value(0).toLongLong();
        i.repoId = q->value(1).toLongLong();
        i.index = q->value(2).toLongLong();
        i.title = q->value(4).toString();
        i.content = q->value(5).toString();
        i.isPull = q->value(6).toBool();
        i.isClosed = q->value(7).toBool();
        i.htmlUrl = q->value(8).toString();
        i.externalId = q->value(9).toLongLong();
        Result<ForgeUser> poster = ForgeDb::user(tx, q->value(3).toLongLong());
        if (!poster)
            return poster.status();
        i.poster = *poster;
        return i;
    });
    if (!issue)
        return issue.status();
    pr.issue = *issue;
    return Status::ok();
}

Status StoredNotifyLoader::loadReviewer(ForgeReview &review)
{
    Result<ForgeUser> reviewer = m_store.readValue<ForgeUser>([&](SqlTransaction &tx) -> Result<ForgeUser> {
        Result<qint64> id = tx.scalar(QStringLiteral("SELECT reviewer_id FROM review WHERE id = ?"), {review.id});
        if (!id)
            return id.status();
        return ForgeDb::user(tx, *id);
    });
    if (!reviewer)
        return reviewer.status();
    review.reviewer = *reviewer;
    return Status::ok();
}

Status StoredNotifyLoader::loadCommentPoster(ForgeComment &comment)
{
    Result<ForgeUser> poster = m_store.readValue<ForgeUser>([&](SqlTransaction &tx) -> Result<ForgeUser> {
        Result<qint64> id = tx.scalar(QStringLiteral("SELECT poster_id FROM comment WHERE id = ?"), {comment.id});
        if (!id)
            return id.status();
        return ForgeDb::user(tx, *id);
    });
    if (!poster)
        return poster.status();
    comment.poster = *poster;
    return Status::ok();
}

Status StoredNotifyLoader::loadCommentReview(ForgeComment &comment)
{
    Result<ForgeReview> review = m_store.readValue<ForgeReview>([&](SqlTransaction &tx) -> Result<ForgeReview> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, type, content, issue_id, external_id FROM review WHERE id = ?"), {comment.reviewId});
        if (!q)
            return q.status();
        if (!q->next())
            return Status::notFound(QStringLiteral("review %1 is not in the store").arg(comment.reviewId));
        ForgeReview r;
        r.id = q->value(0).toLongLong();
        r.type = ReviewType(q->value(1).toInt());
        r.content = q->value(2).toString();
        r.issueId = q->value(3).toLongLong();
        r.externalId = q->value(4).toLongLong();
        return r;
    });
    if (!review)
        return review.status();
    comment.review = *review;
    return Status::ok();
}

Status StoredNotifyLoader::loadReleaseAttributes(ForgeRelease &release)
{
    struct Loaded
    {
        ForgeUser publisher;
        ForgeRepo repo;
    };
    Result<Loaded> loaded = m_store.readValue<Loaded>([&](SqlTransaction &tx) -> Result<Loaded> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT r.publisher_id, p.id, p.owner_id, p.name, p.is_private, p.html_url, p.external_id "
                                                     "FROM forge_release r JOIN repo p ON p.id = r.repo_id WHERE r.id = ?"),
                                      {release.id});
        if (!q)
            return q.status();
        if (!q->next())
            return Status::notFound(QStringLiteral("release %1 is not in the store").arg(release.id));
        Loaded l;
        l.repo.id = q->value(1).toLongLong();
        l.repo.name = q->value(3).toString();
        l.repo.isPrivate = q->value(4).toBool();
        l.repo.htmlUrl = q->value(5).toString();
        l.repo.externalId = q->value(6).toLongLong();
        const qint64 publisherId = q->value(0).toLongLong();
        const qint64 ownerId = q->value(2).toLongLong();
        Result<ForgeUser> publisher = ForgeDb::user(tx, publisherId);
        if (!publisher)
            return publisher.status();
        Result<ForgeUser> owner = ForgeDb::user(tx, ownerId);
        if (!owner)
            return owner.status();
        l.publisher = *publisher;
        l.repo.owner = *owner;
        return l;
    });
    if (!loaded)
        return loaded.status();
    if (!release.publisher)
        release.publisher = loaded->publisher;
    if (!release.repo)
        release.repo = loaded->repo;
    return Status::ok();
}

} // namespace Switchyard
