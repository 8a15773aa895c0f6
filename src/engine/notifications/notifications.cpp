#include "notifications.h"

#include "engine/core/retry.h"

#include "engine/forge/forgedata.h"

#include "engine/core/logging.h"
#include "engine/pubsub/pubsub.h"
#include "engine/store/store.h"

#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <map>
#include <optional>

namespace Switchyard {

namespace {

qint64 nowUnix()
{
    return QDateTime::currentSecsSinceEpoch();
}

using ForgeDb::IssueFacts;

// Who may read the repository (Gitea's CheckRepoUnitUser in services/uinotification): anyone
// for a public one (nullopt); for a private one its owner, collaborators, and the owning
// organisation's owners and members with team access (ForgeDb::privateReaders()).
Result<std::optional<QSet<qint64>>> readers(SqlTransaction &tx, const IssueFacts &f)
{
    if (!f.repoPrivate)
        return std::optional<QSet<qint64>>();
    Result<QSet<qint64>> found = ForgeDb::privateReaders(tx, f.repoId, f.ownerId);
    if (!found)
        return found.status();
    return std::optional<QSet<qint64>>(std::move(found).value());
}

Result<qint64> unreadOf(SqlTransaction &tx, qint64 userId)
{
    return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM notification WHERE user_id = ? AND status = 1"), {userId});
}

const QString kRowSelect = QStringLiteral(
    "SELECT n.id, n.user_id, n.repo_id, n.issue_id, n.comment_id, n.status, n.source, n.updated_by, n.created_unix, n.updated_unix, "
    "n.trace_id, COALESCE(u.login, ''), COALESCE(o.login || '/' || r.name, ''), COALESCE(i.number, 0), COALESCE(i.title, '') "
    "FROM notification n LEFT JOIN forge_user u ON u.id = n.user_id LEFT JOIN repo r ON r.id = n.repo_id "
    "LEFT JOIN forge_user o ON o.id = r.owner_id LEFT JOIN issue i ON i.id = n.issue_id");

NotificationRow rowFrom(const QSqlQuery &q)
{
    NotificationRow r;
    r.id = q.value(0).toLongLong();
    r.userId = q.value(1).toLongLong();
    r.repoId = q.value(2).toLongLong();
    r.issueId = q.value(3).toLongLong();
    r.commentId = q.value(4).toLongLong();
    r.status = NotificationStatus(q.value(5).toInt());
    r.source = NotificationSource(q.value(6).toInt());
    r.updatedBy = q.value(7).toLongLong();
    r.createdAt = QDateTime::fromSecsSinceEpoch(q.value(8).toLongLong(), Qt::UTC);
    r.updatedAt = QDateTime::fromSecsSinceEpoch(q.value(9).toLongLong(), Qt::UTC);
    r.traceId = q.value(10).toString();
    r.user = q.value(11).toString();
    r.repo = q.value(12).toString();
    r.issueNumber = q.value(13).toLongLong();
    r.issueTitle = q.value(14).toString();
    return r;
}

} // namespace

QString notificationStatusName(NotificationStatus status)
{
    switch (status) {
    case NotificationStatus::Unread: return QStringLiteral("unread");
    case NotificationStatus::Read: return QStringLiteral("read");
    case NotificationStatus::Pinned: return QStringLiteral("pinned");
    }
    return QStringLiteral("unread");
}

std::optional<NotificationStatus> notificationStatusFromName(const QString &name)
{
    for (NotificationStatus s : {NotificationStatus::Unread, NotificationStatus::Read, NotificationStatus::Pinned})
        if (notificationStatusName(s) == name)
            return s;
    return std::nullopt;
}

QString notificationSourceName(NotificationSource source)
{
    switch (source) {
    case NotificationSource::Issue: return QStringLiteral("issue");
    case NotificationSource::Pull: return QStringLiteral("pull");
    case NotificationSource::Commit: return QStringLiteral("commit");
    case NotificationSource::Repository: return QStringLiteral("repository");
    }
    return QStringLiteral("issue");
}

QJsonObject NotificationItem::toJson() const
{
    return {{QStringLiteral("issue"), issueId},
            {QStringLiteral("comment"), commentId},
            {QStringLiteral("author"), authorId},
            {QStringLiteral("receiver"), receiverId},
            {QStringLiteral("trace_id"), traceId}};
}

std::optional<NotificationItem> NotificationItem::fromJson(const QJsonObject &json)
{
    if (!json.value(QStringLiteral("issue")).isDouble())
        return std::nullopt;
    NotificationItem item;
    item.issueId = json.value(QStringLiteral("issue")).toInteger();
    item.commentId = json.value(QStringLiteral("comment")).toInteger();
    item.authorId = json.value(QStringLiteral("author")).toInteger();
    item.receiverId = json.value(QStringLiteral("receiver")).toInteger();
    item.traceId = json.value(QStringLiteral("trace_id")).toString();
    return item;
}

// ---- NotificationService -------------------------------------------------------------------------

NotificationService::NotificationService(Store &store, Notifier &bus) : m_store(store), m_bus(bus) {}

void NotificationService::countChanged(const std::vector<qint64> &users)
{
    for (qint64 user : users)
        m_bus.notificationCountChange(user);
}

Result<int> NotificationService::deliver(const NotificationItem &item)
{
    struct Written
    {
        int rows = 0;
        std::vector<qint64> changed; // users whose unread count changed
    };
    Result<Written> written = m_store.writeValue<Written>([&](SqlTransaction &tx) -> Result<Written> {
        Result<IssueFacts> facts = ForgeDb::issueFacts(tx, item.issueId);
        if (!facts)
            return facts.status();
        const IssueFacts &f = *facts;
        QSet<qint64> to;
        if (item.receiverId > 0) {
            to.insert(item.receiverId);
        } else {
            const QString kind = f.isPull ? QStringLiteral("pulls") : QStringLiteral("issues");
            std::vector<std::pair<QString, QVariantList>> sources{
                {QStringLiteral("SELECT user_id FROM issue_watch WHERE issue_id = ? AND is_watching = 1"), {f.id}},
                {QStringLiteral("SELECT user_id FROM issue_participant WHERE issue_id = ?"), {f.id}},
                {QStringLiteral("SELECT user_id FROM issue_assignee WHERE issue_id = ?"), {f.id}},
                {QStringLiteral("SELECT user_id FROM review_request WHERE issue_id = ?"), {f.id}},
            };
            // Repository watchers hear of a work-in-progress pull only when it is ready.
            if (!(f.isPull && f.isWip))
                sources.push_back({QStringLiteral("SELECT user_id FROM watch WHERE repo_id = ? AND mode IN (1, 3) AND %1 = 1").arg(kind), {f.repoId}});
            for (const auto &[sql, values] : sources) {
                Result<QSet<qint64>> found = ForgeDb::idSet(tx, sql, values);
                if (!found)
                    return found.status();
                to.unite(*found);
            }
            to.remove(item.authorId);
            Result<QSet<qint64>> unwatchers = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM issue_watch WHERE issue_id = ? AND is_watching = 0"), {f.id});
            if (!unwatchers)
                return unwatchers.status();
            to.subtract(*unwatchers);
        }
        Result<QSet<qint64>> muters = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM repo_ignore WHERE repo_id = ?"), {f.repoId});
        if (!muters)
            return muters.status();
        to.subtract(*muters);

        std::vector<qint64> recipients(to.begin(), to.end());
        std::sort(recipients.begin(), recipients.end()); // a stable order: locks taken alike on PostgreSQL
        // What is known of them, in two reads rather than two per recipient: the bots, and the
        // rows they have for this issue already.
        QSet<qint64> bots;
        for (std::size_t first = 0; first < recipients.size(); first += 500) { // within every database's parameter limit
            QStringList marks;
            QVariantList chunk;
            for (std::size_t i = first; i < std::min(recipients.size(), first + 500); ++i) {
                marks << QStringLiteral("?");
                chunk << recipients[i];
            }
            Result<QSet<qint64>> found =
                ForgeDb::idSet(tx, QStringLiteral("SELECT id FROM forge_user WHERE is_bot = 1 AND id IN (%1)").arg(marks.join(u',')), chunk);
            if (!found)
                return found.status();
            bots.unite(*found);
        }
        std::map<qint64, std::pair<qint64, NotificationStatus>> existing; // user → (row id, status)
        {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT user_id, id, status FROM notification WHERE issue_id = ? ORDER BY id DESC"), {f.id});
            if (!q)
                return q.status();
            while (q->next()) // the oldest row of a user wins (ordered newest first, overwritten)
                existing[q->value(0).toLongLong()] = {q->value(1).toLongLong(), NotificationStatus(q->value(2).toInt())};
        }
        Result<std::optional<QSet<qint64>>> canRead = readers(tx, f);
        if (!canRead)
            return canRead.status();
        Written w;
        const qint64 now = nowUnix();
        const int source = int(f.isPull ? NotificationSource::Pull : NotificationSource::Issue);
        for (qint64 userId : recipients) {
            if (bots.contains(userId))
                continue;
            if (*canRead && !(*canRead)->contains(userId))
                continue;
            if (const auto row = existing.find(userId); row != existing.end()) {
                const qint64 id = row->second.first;
                const NotificationStatus status = row->second.second;
                // The comment moves only when the row was read: an unread row still points at the
                // first comment the user has not seen.
                Status updated = status == NotificationStatus::Read
                                     ? tx.exec(QStringLiteral("UPDATE notification SET status = 1, comment_id = ?, updated_by = ?, "
                                                              "updated_unix = ?, trace_id = ? WHERE id = ?"),
                                               {item.commentId, item.authorId, now, item.traceId, id})
                                           .status()
                                     : tx.exec(QStringLiteral("UPDATE notification SET status = 1, updated_by = ?, updated_unix = ?, "
                                                              "trace_id = ? WHERE id = ?"),
                                               {item.authorId, now, item.traceId, id})
                                           .status();
                if (!updated)
                    return updated;
                if (status != NotificationStatus::Unread)
                    w.changed.push_back(userId);
            } else {
                Result<QSqlQuery> inserted = tx.exec(
                    QStringLiteral("INSERT INTO notification (user_id, repo_id, issue_id, comment_id, status, source, updated_by, "
                                   "created_unix, updated_unix, trace_id) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)"),
                    {userId, f.repoId, f.id, item.commentId, source, item.authorId, now, now, item.traceId});
                if (!inserted)
                    return inserted.status();
                w.changed.push_back(userId);
            }
            ++w.rows;
        }
        return w;
    });
    if (!written)
        return written.status();
    countChanged(written->changed);
    return written->rows;
}

Status NotificationService::notifyTransfer(const NotifyContext &context, const ForgeUser &newOwner, const ForgeRepo &repo)
{
    Result<std::vector<qint64>> changed = m_store.writeValue<std::vector<qint64>>([&](SqlTransaction &tx) -> Result<std::vector<qint64>> {
        QSet<qint64> to;
        if (newOwner.isOrganization) {
            Result<QSet<qint64>> members = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM org_member WHERE org_id = ?"), {newOwner.id});
            if (!members)
                return members.status();
            to = *members;
        } else {
            to.insert(newOwner.id);
        }
        to.remove(context.doer.id);
        std::vector<qint64> users(to.begin(), to.end());
        std::sort(users.begin(), users.end());
        const qint64 now = nowUnix();
        for (qint64 userId : users) {
            Result<QSqlQuery> inserted = tx.exec(
                QStringLiteral("INSERT INTO notification (user_id, repo_id, issue_id, status, source, updated_by, created_unix, "
                               "updated_unix, trace_id) VALUES (?, ?, 0, 1, 4, ?, ?, ?, ?)"),
                {userId, repo.id, context.doer.id, now, now, context.traceId});
            if (!inserted)
                return inserted.status();
        }
        return users;
    });
    if (!changed)
        return changed.status();
    countChanged(*changed);
    return Status::ok();
}

Result<std::vector<qint64>> NotificationService::pullRequestWatchers(const ForgeIssue &issue)
{
    return m_store.readValue<std::vector<qint64>>([&](SqlTransaction &tx) -> Result<std::vector<qint64>> {
        Result<QSet<qint64>> watchers =
            ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM watch WHERE repo_id = ? AND mode IN (1, 3) AND pulls = 1"), {issue.repoId});
        if (!watchers)
            return watchers.status();
        Result<QSet<qint64>> participants = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM issue_participant WHERE issue_id = ?"), {issue.id});
        if (!participants)
            return participants.status();
        QSet<qint64> all = *watchers;
        all.unite(*participants);
        if (issue.poster)
            all.remove(issue.poster->id);
        std::vector<qint64> sorted(all.begin(), all.end());
        std::sort(sorted.begin(), sorted.end());
        return sorted;
    });
}

Result<NotificationPage> NotificationService::list(const NotificationFilter &filter)
{
    return m_store.readValue<NotificationPage>([&](SqlTransaction &tx) -> Result<NotificationPage> {
        QStringList where;
        QVariantList values;
        if (filter.userId > 0) {
            where << QStringLiteral("n.user_id = ?");
            values << filter.userId;
        }
        if (!filter.statuses.empty()) {
            QStringList marks;
            for (NotificationStatus s : filter.statuses) {
                marks << QStringLiteral("?");
                values << int(s);
            }
            where << QStringLiteral("n.status IN (%1)").arg(marks.join(QStringLiteral(", ")));
        }
        const QString clause = where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
        Result<qint64> total = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM notification n") + clause, values);
        if (!total)
            return total.status();
        QVariantList paged = values;
        paged << filter.limit << filter.offset;
        Result<QSqlQuery> q = tx.exec(kRowSelect + clause + QStringLiteral(" ORDER BY n.updated_unix DESC, n.id DESC LIMIT ? OFFSET ?"), paged);
        if (!q)
            return q.status();
        NotificationPage page;
        page.total = *total;
        while (q->next())
            page.rows.push_back(rowFrom(*q));
        return page;
    });
}

Result<qint64> NotificationService::countUnread(qint64 userId)
{
    return m_store.readValue<qint64>([&](SqlTransaction &tx) { return unreadOf(tx, userId); });
}

Result<NotificationRow> NotificationService::setStatus(qint64 id, NotificationStatus status)
{
    struct Changed
    {
        NotificationRow row;
        bool countChanged = false;
    };
    Result<Changed> changed = m_store.writeValue<Changed>([&](SqlTransaction &tx) -> Result<Changed> {
        Result<QSqlQuery> before = tx.exec(QStringLiteral("SELECT status FROM notification WHERE id = ?"), {id});
        if (!before)
            return before.status();
        if (!before->next())
            return Status::notFound(QStringLiteral("no notification %1").arg(id)).withField(QStringLiteral("id"));
        const auto old = NotificationStatus(before->value(0).toInt());
        if (old != status)
            if (Status s = tx.exec(QStringLiteral("UPDATE notification SET status = ?, updated_unix = ? WHERE id = ?"), {int(status), nowUnix(), id})
                               .status();
                !s)
                return s;
        Result<QSqlQuery> q = tx.exec(kRowSelect + QStringLiteral(" WHERE n.id = ?"), {id});
        if (!q)
            return q.status();
        if (!q->next())
            return Status::notFound(QStringLiteral("no notification %1").arg(id));
        return Changed{rowFrom(*q), (old == NotificationStatus::Unread) != (status == NotificationStatus::Unread)};
    });
    if (!changed)
        return changed.status();
    if (changed->countChanged)
        countChanged({changed->row.userId});
    return changed->row;
}

Result<qint64> NotificationService::markAllRead(qint64 userId)
{
    Result<qint64> marked = m_store.writeValue<qint64>([&](SqlTransaction &tx) -> Result<qint64> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("UPDATE notification SET status = 2, updated_unix = ? WHERE user_id = ? AND status = 1"),
                                      {nowUnix(), userId});
        if (!q)
            return q.status();
        return qint64(q->numRowsAffected());
    });
    if (marked && *marked > 0)
        countChanged({userId});
    return marked;
}

Result<std::vector<ForgeUserRow>> NotificationService::users(qint64 offset, qint64 limit, qint64 *total)
{
    return m_store.readValue<std::vector<ForgeUserRow>>([&](SqlTransaction &tx) -> Result<std::vector<ForgeUserRow>> {
        Result<qint64> count = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM forge_user"));
        if (!count)
            return count.status();
        *total = *count;
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT u.id, u.source, u.external_id, u.login, u.full_name, u.is_bot, u.is_org, "
                                                     "u.email_notifications, (SELECT COUNT(*) FROM notification n WHERE n.user_id = u.id "
                                                     "AND n.status = 1) FROM forge_user u ORDER BY u.id LIMIT ? OFFSET ?"),
                                      {limit, offset});
        if (!q)
            return q.status();
        std::vector<ForgeUserRow> rows;
        while (q->next())
            rows.push_back({q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toLongLong(), q->value(3).toString(),
                            q->value(4).toString(), q->value(5).toBool(), q->value(6).toBool(), q->value(7).toString(),
                            q->value(8).toLongLong()});
        return rows;
    });
}

// ---- UINotifier -----------------------------------------------------------------------------------

UINotifier::UINotifier(NotificationService &service, QueueManager &queues, CancelToken stop)
    : m_service(service), m_queues(queues), m_stop(std::move(stop))
{
}

Status UINotifier::run()
{
    Result<std::shared_ptr<WorkerPoolQueue<NotificationItem>>> queue = m_queues.createSimpleQueue<NotificationItem>(
        CancelToken(), QStringLiteral("notification-service"), [this](std::vector<NotificationItem> items) {
            std::vector<NotificationItem> later;
            for (const NotificationItem &item : items) {
                // The store unavailable is waited out, holding the item; at shutdown what waits
                // goes back to the queue. Any other failure is logged, as Gitea does (no retry:
                // the next event brings the row up to date).
                bool told = false;
                Result<int> done = untilAvailable(m_stop, RetryDelays{}, [&] { return m_service.deliver(item); }, [&](const Status &why) {
                    if (!std::exchange(told, true))
                        qCWarning(lcCore).noquote() << "notification for issue" << item.issueId << "waits:" << why.message();
                });
                if (!done && done.status().code() == Status::Code::Unavailable)
                    later.push_back(item);
                else if (!done)
                    qCWarning(lcCore).noquote() << "notification for issue" << item.issueId << "not written:" << done.status().message();
            }
            return later;
        });
    if (!queue)
        return queue.status();
    m_queue = std::move(queue).value();
    return Status::ok();
}

void UINotifier::push(const NotifyContext &c, const NotificationItem &item)
{
    if (!m_queue)
        return;
    if (Status pushed = m_queue->push(CancelToken(), item); !pushed) {
        // A queue that is full or cannot write passes; anything else would fail again.
        if (c.scope && (pushed.code() == Status::Code::Unavailable || pushed.code() == Status::Code::DeadlineExceeded)) {
            c.retryLater(pushed); // the event comes back to this notifier (items queued before may go twice)
            return;
        }
        qCWarning(lcCore).noquote() << "notification-service: item for issue" << item.issueId << "not queued:" << pushed.message();
    }
}

void UINotifier::pushWithMentions(const NotifyContext &c, const NotificationItem &item, const std::vector<ForgeUser> &mentions)
{
    push(c, item);
    for (const ForgeUser &mention : mentions) {
        NotificationItem one = item;
        one.receiverId = mention.id;
        push(c, one);
    }
}

void UINotifier::newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &mentions)
{
    pushWithMentions(c, {issue.id, 0, issue.poster ? issue.poster->id : c.doer.id, 0, c.traceId}, mentions);
}

void UINotifier::issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool)
{
    push(c, {issue.id, comment.id, c.doer.id, 0, c.traceId});
}

void UINotifier::issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle)
{
    // Only a pull that leaves work in progress is news: its watchers were spared until now.
    if (issue.isPull && isWorkInProgressTitle(oldTitle) && !isWorkInProgressTitle(issue.title))
        push(c, {issue.id, 0, c.doer.id, 0, c.traceId});
}

void UINotifier::issueChangeAssignee(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &assignee, bool removed,
                                     const ForgeComment &comment)
{
    if (!removed && c.doer.id != assignee.id)
        push(c, {issue.id, comment.id, c.doer.id, assignee.id, c.traceId});
}

void UINotifier::pullRequestReviewRequest(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &reviewer, bool isRequest,
                                          const ForgeComment &comment)
{
    if (isRequest && c.doer.id != reviewer.id)
        push(c, {issue.id, comment.id, c.doer.id, reviewer.id, c.traceId});
}

void UINotifier::newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions)
{
    if (!pr.issue)
        return;
    const qint64 poster = pr.issue->poster ? pr.issue->poster->id : c.doer.id;
    Result<std::vector<qint64>> watchers = m_service.pullRequestWatchers(*pr.issue);
    if (!watchers && c.scope && watchers.status().code() == Status::Code::Unavailable) {
        c.retryLater(watchers.status());
        return;
    }
    if (!watchers) {
        qCWarning(lcCore).noquote() << "new pull request" << pr.issue->id << ": watchers not read:" << watchers.status().message();
        return;
    }
    std::vector<qint64> to = *watchers;
    for (const ForgeUser &mention : mentions)
        if (std::find(to.begin(), to.end(), mention.id) == to.end())
            to.push_back(mention.id);
    for (qint64 receiver : to)
        push(c, {pr.issue->id, 0, poster, receiver, c.traceId});
}

void UINotifier::mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    push(c, {pr.id, 0, c.doer.id, 0, c.traceId});
}

void UINotifier::autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    push(c, {pr.id, 0, c.doer.id, 0, c.traceId});
}

void UINotifier::pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &, const ForgeComment &comment,
                                   const std::vector<ForgeUser> &mentions)
{
    pushWithMentions(c, {pr.id, comment.id, c.doer.id, 0, c.traceId}, mentions);
}

void UINotifier::pullRequestCodeComment(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment,
                                        const std::vector<ForgeUser> &mentions)
{
    for (const ForgeUser &mention : mentions) // the review itself notifies the rest
        push(c, {pr.id, comment.id, c.doer.id, mention.id, c.traceId});
}

void UINotifier::pullRequestPushCommits(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment)
{
    push(c, {pr.id, comment.id, c.doer.id, 0, c.traceId});
}

void UINotifier::pullReviewDismiss(const NotifyContext &c, const ForgeReview &review, const ForgeComment &comment)
{
    push(c, {review.issueId, comment.id, c.doer.id, 0, c.traceId});
}

void UINotifier::createIssueComment(const NotifyContext &c, const ForgeRepo &, const ForgeIssue &issue, const ForgeComment &comment,
                                    const std::vector<ForgeUser> &mentions)
{
    pushWithMentions(c, {issue.id, comment.id, c.doer.id, 0, c.traceId}, mentions);
}

void UINotifier::repoPendingTransfer(const NotifyContext &c, const ForgeUser &newOwner, const ForgeRepo &repo)
{
    // Written at once, as Gitea does: there is no issue for the queue's item.
    if (Status written = m_service.notifyTransfer(c, newOwner, repo); !written && c.scope && written.code() == Status::Code::Unavailable)
        c.retryLater(written);
    else if (!written)
        qCWarning(lcCore).noquote() << "transfer notification for" << repo.fullName() << "not written:" << written.message();
}

// ---- StreamNotifier -------------------------------------------------------------------------------

StreamNotifier::StreamNotifier(NotificationService &service, Broker &broker) : m_service(service), m_broker(broker) {}

void StreamNotifier::notificationCountChange(qint64 userId)
{
    const QString user = userTopic(userId);
    const bool userListens = m_broker.hasTopicSubscribers(user);
    const bool adminListens = m_broker.hasTopicSubscribers(adminTopic());
    if (!userListens && !adminListens)
        return;
    Result<qint64> count = m_service.countUnread(userId);
    if (!count) {
        qCWarning(lcCore).noquote() << "unread count of user" << userId << "not read:" << count.status().message();
        return;
    }
    const QByteArray message = "notification-count\n" + QJsonDocument(QJsonObject{{QStringLiteral("user_id"), userId},
                                                                                   {QStringLiteral("count"), *count}})
                                                            .toJson(QJsonDocument::Compact);
    if (userListens)
        m_broker.publish(user, message);
    if (adminListens)
        m_broker.publish(adminTopic(), message);
}

} // namespace Switchyard
