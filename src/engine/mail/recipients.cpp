// Who gets a mail (seed 001 §12.5.2): Gitea's recipient chain over the store's forge tables.
#include "mail_p.h"

#include "engine/forge/forgedata.h"
#include "engine/forge/forgetypes.h"
#include "engine/store/store.h"

#include <QSet>

#include <algorithm>
#include <map>

namespace Switchyard::Mail {

namespace {

// Users by id, in chunks within every database's parameter limit; unknown ids are left out.
// Organisations are never mailed.
Result<std::map<qint64, MailUser>> loadUsers(SqlTransaction &tx, const std::vector<qint64> &ids)
{
    std::map<qint64, MailUser> out;
    for (std::size_t first = 0; first < ids.size(); first += 500) {
        QStringList marks;
        QVariantList chunk;
        for (std::size_t i = first; i < std::min(ids.size(), first + 500); ++i) {
            marks << QStringLiteral("?");
            chunk << ids[i];
        }
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, login, full_name, email, language, email_notifications, is_active "
                                                     "FROM forge_user WHERE is_org = 0 AND id IN (%1)")
                                          .arg(marks.join(u',')),
                                      chunk);
        if (!q)
            return q.status();
        while (q->next()) {
            MailUser u;
            u.id = q->value(0).toLongLong();
            u.login = q->value(1).toString();
            u.fullName = q->value(2).toString();
            u.email = q->value(3).toString();
            u.language = q->value(4).toString();
            u.preference = q->value(5).toString();
            if (u.preference.isEmpty())
                u.preference = QStringLiteral("enabled");
            u.active = q->value(6).toBool();
            out.emplace(u.id, std::move(u));
        }
    }
    return out;
}

// Who may read a repository's issues (Gitea's access_model.CheckRepoUnitUser in mail_issue.go):
// anyone when it is public (nullopt); else its owner, collaborators, and the owning
// organisation's owners and members whose teams give access (ForgeDb::privateReaders()). A
// member whose access the forge did not tell is left out.
Result<std::optional<QSet<qint64>>> readers(SqlTransaction &tx, qint64 repoId, bool isPrivate, qint64 ownerId)
{
    if (!isPrivate)
        return std::optional<QSet<qint64>>();
    Result<QSet<qint64>> found = ForgeDb::privateReaders(tx, repoId, ownerId);
    if (!found)
        return found.status();
    return std::optional<QSet<qint64>>(std::move(found).value());
}

Result<std::vector<qint64>> ids(SqlTransaction &tx, const QString &sql, const QVariantList &values)
{
    Result<QSet<qint64>> found = ForgeDb::idSet(tx, sql, values);
    if (!found)
        return found.status();
    std::vector<qint64> out(found->begin(), found->end());
    std::sort(out.begin(), out.end());
    return out;
}

// Gitea's mailIssueCommentBatch filter: mailable, wanting it, first time seen, able to read.
std::vector<MailUser> admit(const std::vector<qint64> &candidates, const std::map<qint64, MailUser> &users, QSet<qint64> &visited,
                            const std::optional<QSet<qint64>> &canRead, bool fromMention, const std::map<qint64, QString> &reasons)
{
    std::vector<MailUser> out;
    for (qint64 id : candidates) {
        const auto found = users.find(id);
        if (found == users.end() || !found->second.mailable())
            continue;
        const QString &pref = found->second.preference;
        const bool wants = pref == QLatin1String("enabled") || pref == QLatin1String("andyourown") ||
                           (fromMention && pref == QLatin1String("onmention"));
        if (!wants || visited.contains(id))
            continue;
        visited.insert(id);
        if (canRead && !canRead->contains(id))
            continue;
        MailUser u = found->second;
        if (fromMention)
            u.reason = QStringLiteral("mention");
        else if (const auto r = reasons.find(id); r != reasons.end())
            u.reason = r->second;
        else
            u.reason = QStringLiteral("subscribed");
        out.push_back(std::move(u));
    }
    return out;
}

} // namespace

std::vector<RecipientBatch> batchByLanguage(std::vector<MailUser> users, bool fromMention)
{
    std::map<QString, std::vector<MailUser>> byLanguage; // ordered: the same event mails in the same order
    for (MailUser &u : users)
        byLanguage[catalogueLanguage(u.language)].push_back(std::move(u));
    std::vector<RecipientBatch> batches;
    for (auto &[language, receivers] : byLanguage) {
        // From the tail, as Gitea: ((n - 1) / 100) * 100 first, so the short batch goes first.
        for (qsizetype i = (qsizetype(receivers.size()) - 1) / kMailBatchSize * kMailBatchSize; i >= 0; i -= kMailBatchSize) {
            RecipientBatch batch;
            batch.language = language;
            batch.fromMention = fromMention;
            batch.users.assign(std::make_move_iterator(receivers.begin() + i), std::make_move_iterator(receivers.end()));
            receivers.resize(std::size_t(i));
            batches.push_back(std::move(batch));
        }
    }
    return batches;
}

Result<std::vector<RecipientBatch>> issueRecipients(SqlTransaction &tx, const IssueFacts &f, const IssueRecipientRules &rules)
{
    // The sources, each remembered as the reason its users hear of it (the first source wins).
    std::vector<qint64> unfiltered;
    std::map<qint64, QString> reasons;
    const auto add = [&](const std::vector<qint64> &found, const QString &reason) {
        for (qint64 id : found) {
            unfiltered.push_back(id);
            reasons.emplace(id, reason);
        }
    };
    add({f.posterId}, QStringLiteral("author"));
    for (const auto &[sql, reason] : {std::pair{QStringLiteral("SELECT user_id FROM issue_assignee WHERE issue_id = ?"), QStringLiteral("assign")},
                                      std::pair{QStringLiteral("SELECT user_id FROM issue_participant WHERE issue_id = ?"), QStringLiteral("participating")},
                                      std::pair{QStringLiteral("SELECT user_id FROM issue_watch WHERE issue_id = ? AND is_watching = 1"), QStringLiteral("subscribed")}}) {
        Result<std::vector<qint64>> found = ids(tx, sql, {f.id});
        if (!found)
            return found.status();
        add(*found, reason);
    }
    // Repository watchers of issues (or pulls); a work-in-progress pull only when it is created.
    if (!(f.isPull && f.isWip && !rules.creatingPull)) {
        Result<std::vector<qint64>> watchers =
            ids(tx, QStringLiteral("SELECT user_id FROM watch WHERE repo_id = ? AND mode IN (1, 3) AND %1 = 1").arg(f.isPull ? QLatin1String("pulls") : QLatin1String("issues")), {f.repoId});
        if (!watchers)
            return watchers.status();
        add(*watchers, QStringLiteral("subscribed"));
    }

    // Everyone the rules may look at, read once.
    std::vector<qint64> everyone = unfiltered;
    everyone.insert(everyone.end(), rules.mentions.begin(), rules.mentions.end());
    everyone.push_back(rules.doerId);
    std::sort(everyone.begin(), everyone.end());
    everyone.erase(std::unique(everyone.begin(), everyone.end()), everyone.end());
    Result<std::map<qint64, MailUser>> users = loadUsers(tx, everyone);
    if (!users)
        return users.status();
    Result<std::optional<QSet<qint64>>> canRead = readers(tx, f.repoId, f.repoPrivate, f.ownerId);
    if (!canRead)
        return canRead.status();

    // ① muters first: a mute outranks everything, mentions included.
    Result<QSet<qint64>> muters = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM repo_ignore WHERE repo_id = ?"), {f.repoId});
    if (!muters)
        return muters.status();
    QSet<qint64> visited = *muters;
    // ② the doer, unless they want their own or an auto-merge reports to them.
    const auto doer = users->find(rules.doerId);
    const bool doerWantsOwn = doer != users->end() && doer->second.preference == QLatin1String("andyourown");
    if (!doerWantsOwn && !rules.forceDoer)
        visited.insert(rules.doerId);
    // ③ the mentions' batch.
    std::vector<RecipientBatch> batches = batchByLanguage(admit(rules.mentions, *users, visited, *canRead, true, reasons), true);
    // ④ explicit unwatchers: out of the broadcast only (a mention reaches them all the same).
    Result<QSet<qint64>> unwatchers = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM issue_watch WHERE issue_id = ? AND is_watching = 0"), {f.id});
    if (!unwatchers)
        return unwatchers.status();
    visited.unite(*unwatchers);
    // ⑤ the broadcast.
    std::vector<RecipientBatch> broadcast = batchByLanguage(admit(unfiltered, *users, visited, *canRead, false, reasons), false);
    batches.insert(batches.end(), std::make_move_iterator(broadcast.begin()), std::make_move_iterator(broadcast.end()));
    return batches;
}

Result<std::vector<RecipientBatch>> releaseRecipients(SqlTransaction &tx, qint64 repoId, qint64 publisherId)
{
    Result<std::vector<qint64>> watchers =
        ids(tx, QStringLiteral("SELECT user_id FROM watch WHERE repo_id = ? AND mode IN (1, 3) AND releases = 1"), {repoId});
    if (!watchers)
        return watchers.status();
    Result<QSqlQuery> repo = tx.exec(QStringLiteral("SELECT is_private, owner_id FROM repo WHERE id = ?"), {repoId});
    if (!repo)
        return repo.status();
    if (!repo->next())
        return Status::notFound(QStringLiteral("repository %1 is not in the store").arg(repoId));
    const bool isPrivate = repo->value(0).toBool();
    const qint64 ownerId = repo->value(1).toLongLong();
    repo->finish();
    Result<std::map<qint64, MailUser>> users = loadUsers(tx, *watchers);
    if (!users)
        return users.status();
    Result<std::optional<QSet<qint64>>> canRead = readers(tx, repoId, isPrivate, ownerId);
    if (!canRead)
        return canRead.status();
    Result<QSet<qint64>> muters = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM repo_ignore WHERE repo_id = ?"), {repoId});
    if (!muters)
        return muters.status();
    QSet<qint64> visited = *muters;
    visited.insert(publisherId);
    return batchByLanguage(admit(*watchers, *users, visited, *canRead, false, {}), false);
}

Result<std::vector<RecipientBatch>> givenRecipients(SqlTransaction &tx, const std::vector<qint64> &userIds, const QString &reason)
{
    Result<std::map<qint64, MailUser>> users = loadUsers(tx, userIds);
    if (!users)
        return users.status();
    std::vector<MailUser> out;
    QSet<qint64> seen;
    for (qint64 id : userIds) {
        const auto found = users->find(id);
        if (found == users->end() || !found->second.mailable() || found->second.preference == QLatin1String("disabled") || seen.contains(id))
            continue;
        seen.insert(id);
        MailUser u = found->second;
        u.reason = reason;
        out.push_back(std::move(u));
    }
    return batchByLanguage(std::move(out), false);
}

} // namespace Switchyard::Mail
