// Event translation, part two (translator_p.h): what reviews, releases, repositories, wikis and
// GitHub's access facts (member, organization) become.

#include "translator_p.h"

namespace Switchyard::Translate {

Status Translator::review(const QString &event, const QJsonObject &payload, const ForgeRepo &repo)
{
    ForgePullRequest pr;
    Result<ForgeIssue> stored = issue(object(payload, "pull_request"), repo, true, &pr);
    if (!stored)
        return stored.status();
    const QJsonObject json = object(payload, "review");
    ForgeReview seen;
    seen.issueId = stored->id;
    seen.reviewer = m_context.doer;
    if (!object(json, "user").isEmpty()) {
        Result<ForgeUser> reviewer = user(object(json, "user"));
        if (!reviewer)
            return reviewer.status();
        seen.reviewer = *reviewer;
    }
    // GitHub: review.state; Gitea: the event type (…_approved, …_rejected, …_comment).
    const QString state = text(json, "state").toLower();
    if (event.endsWith(QLatin1String("_approved")) || state == QLatin1String("approved"))
        seen.type = ReviewType::Approve;
    else if (event.endsWith(QLatin1String("_rejected")) || state == QLatin1String("changes_requested"))
        seen.type = ReviewType::Reject;
    else
        seen.type = ReviewType::Comment;
    seen.content = json.contains(QStringLiteral("body")) ? text(json, "body") : text(json, "content");
    // Gitea's review has no id: one review row per (pull, reviewer, content) would be a guess, so
    // the event's own delivery is the review.
    const qint64 externalId = number(json, "id");
    Result<ForgeReview> saved = externalId > 0 ? ForgeDb::upsertReview(m_tx, m_source, externalId, seen) : Result<ForgeReview>(seen);
    if (!saved)
        return saved.status();
    if (externalId <= 0)
        if (Status s = ForgeDb::addParticipant(m_tx, stored->id, seen.reviewer->id); !s)
            return s;
    const NotifyContext c = m_context;
    const ForgeReview review = *saved;
    if (m_out.action == QLatin1String("dismissed")) {
        call([c, review](Notifier &n) { n.pullReviewDismiss(c, review, ForgeComment{}); });
        return Status::ok();
    }
    Result<std::vector<ForgeUser>> mentioned = mentions(review.content);
    if (!mentioned)
        return mentioned.status();
    ForgeComment comment;
    comment.issueId = stored->id;
    comment.poster = review.reviewer;
    comment.content = review.content;
    comment.reviewId = review.id;
    comment.review = review; // a submitted review: the pending-review gate lets it through
    call([c, pr, review, comment, m = *mentioned](Notifier &n) { n.pullRequestReview(c, pr, review, comment, m); });
    return Status::ok();
}

Status Translator::reviewComment(const QJsonObject &payload, const ForgeRepo &repo)
{
    ForgePullRequest pr;
    Result<ForgeIssue> stored = issue(object(payload, "pull_request"), repo, true, &pr);
    if (!stored)
        return stored.status();
    Result<ForgeComment> comment = this->comment(object(payload, "comment"), stored->id);
    if (!comment)
        return comment.status();
    if (m_out.action != QLatin1String("created"))
        return Status::ok(); // edits and deletions of line comments have no bus event of their own
    Result<std::vector<ForgeUser>> mentioned = mentions(comment->content);
    if (!mentioned)
        return mentioned.status();
    const NotifyContext c = m_context;
    call([c, pr, saved = *comment, m = *mentioned](Notifier &n) { n.pullRequestCodeComment(c, pr, saved, m); });
    return Status::ok();
}

Status Translator::release(const QJsonObject &payload, const ForgeRepo &repo)
{
    const QJsonObject json = object(payload, "release");
    ForgeRelease seen;
    seen.repoId = repo.id;
    seen.tagName = text(json, "tag_name");
    seen.title = text(json, "name");
    seen.note = text(json, "body");
    seen.isDraft = flag(json, "draft");
    seen.isPrerelease = flag(json, "prerelease");
    seen.repo = repo;
    Result<ForgeUser> publisher = json.contains(QStringLiteral("author")) ? user(object(json, "author")) : Result<ForgeUser>(m_context.doer);
    if (!publisher)
        return publisher.status();
    seen.publisher = *publisher;
    Result<ForgeRelease> saved = ForgeDb::upsertRelease(m_tx, m_source, number(json, "id"), seen);
    if (!saved)
        return saved.status();
    const NotifyContext c = m_context;
    const ForgeRelease r = *saved;
    const QString action = m_out.action;
    // Gitea announces a release once, `published`, and never a draft. GitHub sends `created`
    // (a draft saved, or a release published at once), `published`, and `released` /
    // `prereleased` for the same release: only `published` is the new release here, so one
    // release gives one notification and one hook delivery.
    if (action == QLatin1String("published") && !seen.isDraft)
        call([c, r](Notifier &n) { n.newRelease(c, r); });
    else if (action == QLatin1String("created") || action == QLatin1String("released") || action == QLatin1String("prereleased") ||
             action == QLatin1String("unpublished"))
        note(QStringLiteral("release %1: GitHub's \"%2\" is the release Gitea announces once as \"published\"; nothing is sent for it")
                 .arg(escapeControl(seen.tagName, 64), action));
    else if ((action == QLatin1String("updated") || action == QLatin1String("edited")) && !seen.isDraft) // Gitea: a draft's edit tells no one
        call([c, r](Notifier &n) { n.updateRelease(c, r); });
    else if (action == QLatin1String("deleted"))
        call([c, r](Notifier &n) { n.deleteRelease(c, r); });
    return Status::ok();
}

Status Translator::repository(const QJsonObject &payload, const ForgeRepo &repo)
{
    const NotifyContext c = m_context;
    const QString action = m_out.action;
    if (action == QLatin1String("created"))
        call([c, repo](Notifier &n) { n.createRepository(c, repo.owner, repo); });
    else if (action == QLatin1String("deleted"))
        call([c, repo](Notifier &n) { n.deleteRepository(c, repo); });
    else if (action == QLatin1String("renamed")) {
        const QString old = object(object(object(payload, "changes"), "repository"), "name").value(QStringLiteral("from")).toString();
        call([c, repo, old](Notifier &n) { n.renameRepository(c, repo, old); });
    } else if (action == QLatin1String("transferred")) {
        const QJsonObject from = object(object(object(payload, "changes"), "owner"), "from");
        QString old = text(object(from, "user"), "login");
        if (old.isEmpty())
            old = text(object(from, "organization"), "login");
        call([c, repo, old](Notifier &n) { n.transferRepository(c, repo, old); });
    }
    return Status::ok();
}

Status Translator::wiki(const QString &event, const QJsonObject &payload, const ForgeRepo &repo)
{
    const NotifyContext c = m_context;
    auto one = [&](const QString &action, const WikiPage &page, const QString &comment) {
        if (action == QLatin1String("created"))
            call([c, repo, page, comment](Notifier &n) { n.newWikiPage(c, repo, page, comment); });
        else if (action == QLatin1String("edited"))
            call([c, repo, page, comment](Notifier &n) { n.editWikiPage(c, repo, page, comment); });
        else if (action == QLatin1String("deleted"))
            call([c, repo, page](Notifier &n) { n.deleteWikiPage(c, repo, page); });
    };
    if (event == QLatin1String("gollum")) { // GitHub: several pages, each with its action
        for (const QJsonValue &value : payload.value(QStringLiteral("pages")).toArray()) {
            const QJsonObject page = value.toObject();
            one(text(page, "action"), WikiPage{text(page, "page_name"), text(page, "title"), text(page, "sha")}, text(page, "summary"));
        }
        return Status::ok();
    }
    const QString name = payload.value(QStringLiteral("page")).toString();
    one(m_out.action, WikiPage{name, name, QString()}, text(payload, "comment"));
    return Status::ok();
}

Status Translator::member(const QJsonObject &payload, const ForgeRepo &repo)
{
    Result<ForgeUser> who = user(object(payload, "member"));
    if (!who)
        return who.status();
    const QString action = m_out.action;
    int mode = 0;
    if (action != QLatin1String("removed")) {
        // GitHub's role names; a collaborator whose role is not said may at least read.
        const QString role = object(object(payload, "changes"), "permission").value(QStringLiteral("to")).toString();
        mode = role == QLatin1String("admin")                                      ? 3
               : role == QLatin1String("write") || role == QLatin1String("maintain") ? 2
                                                                                     : 1;
    }
    return ForgeDb::setCollaborator(m_tx, repo.id, who->id, mode);
}

Status Translator::organization(const QJsonObject &payload)
{
    const QString action = m_out.action;
    if (action != QLatin1String("member_added") && action != QLatin1String("member_removed")) {
        note(QStringLiteral("organization %1: nothing to keep").arg(escapeControl(action, 64)));
        return Status::ok();
    }
    QJsonObject orgJson = object(payload, "organization");
    orgJson.insert(QStringLiteral("type"), QStringLiteral("Organization")); // GitHub's organization object has no type
    Result<ForgeUser> org = user(orgJson);
    if (!org)
        return org.status();
    const QJsonObject membership = object(payload, "membership");
    Result<ForgeUser> who = user(object(membership, "user"));
    if (!who)
        return who.status();
    const bool added = action == QLatin1String("member_added");
    return ForgeDb::setOrgMember(m_tx, org->id, who->id, added, added && text(membership, "role") == QLatin1String("admin"));
}

} // namespace Switchyard::Translate
