#include "translate_p.h"

#include "engine/core/escape.h"
#include "engine/core/mailaddress.h"
#include "engine/core/wholenumber.h"
#include "engine/forge/forgedata.h"
#include "engine/store/store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <optional>

namespace Switchyard {

namespace {

const QString kZeroSha = QStringLiteral("0000000000000000000000000000000000000000");

QJsonObject object(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toObject();
}
QString text(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}
// 0 when absent; checkNumbers() refused a payload whose number there is not whole or out of range.
qint64 number(const QJsonObject &o, const char *key)
{
    return wholeNumber<qint64>(o.value(QLatin1String(key))).value_or(0);
}

bool flag(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toBool();
}
// changes.<field>.from, as both forges send for edits.
QString changedFrom(const QJsonObject &payload, const char *field)
{
    return object(object(payload, "changes"), field).value(QStringLiteral("from")).toString();
}
bool changed(const QJsonObject &payload, const char *field)
{
    return object(payload, "changes").contains(QLatin1String(field));
}

class Translator
{
public:
    Translator(SqlTransaction &tx, QString source, bool autoWatch, NotifyContext context)
        : m_tx(tx), m_source(std::move(source)), m_autoWatch(autoWatch), m_context(std::move(context))
    {
    }

    Result<Translation> run(const QString &event, const QJsonObject &payload);

private:
    Result<ForgeUser> user(const QJsonObject &json)
    {
        ForgeUser seen;
        seen.login = text(json, "login");
        if (seen.login.isEmpty())
            seen.login = text(json, "username");
        seen.fullName = text(json, "full_name");
        if (seen.fullName.isEmpty())
            seen.fullName = text(json, "name");
        seen.language = text(json, "language");
        seen.avatarUrl = text(json, "avatar_url");
        const QString type = text(json, "type");
        seen.isBot = type == QLatin1String("Bot") || seen.login.endsWith(QLatin1String("[bot]"));
        seen.isOrganization = type == QLatin1String("Organization");
        const qint64 externalId = number(json, "id");
        if (externalId <= 0 || seen.login.isEmpty())
            return missingField(QStringLiteral("user.id"));
        const std::optional<QString> email =
            mailbox(text(json, "email"), QStringLiteral("user \"%1\" (id %2): email").arg(escapeControl(seen.login, 64), QString::number(externalId)));
        seen.email = email.value_or(QString());
        Result<ForgeUser> stored = ForgeDb::upsertUser(m_tx, m_source, externalId, seen);
        if (stored && !email) { // refused: the address stored before is forgotten too
            if (Status forgot = ForgeDb::forgetEmail(m_tx, stored->id); !forgot)
                return forgot;
            stored->email.clear();
        }
        return stored;
    }

    // An email from the payload as it may go on the wire: "" stays "", a Mailbox is kept (its
    // domain in ACE form), anything else is noted (`what` names the field) and nullopt.
    std::optional<QString> mailbox(const QString &email, const QString &what)
    {
        if (email.isEmpty())
            return email;
        Result<QString> parsed = parseMailbox(email);
        if (parsed)
            return *parsed;
        const QString note = QStringLiteral("%1 dropped: %2").arg(what, parsed.status().message());
        if (!m_out.notes.contains(note)) // the same user comes as sender, owner, poster …
            m_out.notes << note;
        return std::nullopt;
    }

    Result<ForgeRepo> repo(const QJsonObject &json)
    {
        if (json.isEmpty())
            return missingField(QStringLiteral("repository"));
        Result<ForgeUser> owner = user(object(json, "owner"));
        if (!owner)
            return owner.status();
        ForgeRepo seen;
        seen.owner = *owner;
        seen.name = text(json, "name");
        seen.isPrivate = flag(json, "private");
        seen.isFork = flag(json, "fork");
        seen.defaultBranch = text(json, "default_branch");
        seen.htmlUrl = text(json, "html_url");
        const QJsonObject parent = object(json, "parent");
        if (!parent.isEmpty() && !object(parent, "owner").isEmpty()) {
            Result<ForgeRepo> of = repo(parent);
            if (!of)
                return of.status();
            seen.forkOfId = of->id;
        }
        const qint64 externalId = number(json, "id");
        if (externalId <= 0)
            return missingField(QStringLiteral("repository.id"));
        return ForgeDb::upsertRepo(m_tx, m_source, externalId, seen);
    }

    Result<std::vector<ForgeUser>> users(const QJsonArray &array)
    {
        std::vector<ForgeUser> found;
        for (const QJsonValue &value : array) {
            Result<ForgeUser> u = user(value.toObject());
            if (!u)
                return u.status();
            found.push_back(*u);
        }
        return found;
    }

    // An issue, or a pull request's issue (`pull` then describes the pull).
    Result<ForgeIssue> issue(const QJsonObject &json, const ForgeRepo &repo, bool isPull, ForgePullRequest *pull)
    {
        Result<ForgeUser> poster = user(object(json, "user"));
        if (!poster)
            return poster.status();
        ForgeIssue seen;
        seen.repoId = repo.id;
        seen.index = number(json, "number");
        seen.title = text(json, "title");
        seen.content = text(json, "body");
        seen.isPull = isPull;
        seen.isClosed = text(json, "state") == QLatin1String("closed");
        seen.poster = *poster;
        seen.htmlUrl = text(json, "html_url");
        const QJsonObject milestone = object(json, "milestone");
        seen.milestone = text(milestone, "title");
        std::optional<std::vector<ForgeUser>> assignees;
        Result<QSet<qint64>> before = ForgeDb::idSet(m_tx, QStringLiteral("SELECT a.user_id FROM issue_assignee a JOIN issue i ON i.id = a.issue_id "
                                                                          "WHERE i.repo_id = ? AND i.number = ?"),
                                                     {repo.id, seen.index});
        if (!before)
            return before.status();
        m_assigneesBefore = *before;
        if (json.value(QStringLiteral("assignees")).isArray()) {
            Result<std::vector<ForgeUser>> found = users(json.value(QStringLiteral("assignees")).toArray());
            if (!found)
                return found.status();
            assignees = *found;
        }
        if (pull) {
            pull->headBranch = text(object(json, "head"), "ref");
            pull->baseBranch = text(object(json, "base"), "ref");
            pull->hasMerged = flag(json, "merged");
            pull->mergedCommitId = text(json, "merge_commit_sha");
            pull->isWorkInProgress = isWorkInProgressTitle(seen.title) || flag(json, "draft");
            pull->externalId = number(json, "id");
        }
        // An issue's own id; a pull request payload carries the pull's (not stored as the issue's).
        Result<ForgeIssue> stored = ForgeDb::upsertIssue(m_tx, pull ? 0 : number(json, "id"), seen, pull, assignees ? &*assignees : nullptr);
        if (!stored)
            return stored.status();
        if (pull) {
            pull->id = stored->id;
            pull->issue = *stored;
            for (const QJsonValue &reviewer : json.value(QStringLiteral("requested_reviewers")).toArray()) {
                Result<ForgeUser> r = user(reviewer.toObject());
                if (!r)
                    return r.status();
                if (Status s = ForgeDb::setReviewRequest(m_tx, stored->id, r->id, true); !s)
                    return s;
            }
        }
        return stored;
    }

    // A comment on issue `issueId` (an issue comment, or a pull's line comment with its path and line).
    Result<ForgeComment> comment(const QJsonObject &json, qint64 issueId)
    {
        Result<ForgeUser> poster = user(object(json, "user"));
        if (!poster)
            return poster.status();
        ForgeComment seen;
        seen.issueId = issueId;
        seen.poster = *poster;
        seen.content = text(json, "body");
        seen.treePath = text(json, "path");
        seen.line = number(json, "line");
        seen.htmlUrl = text(json, "html_url");
        return ForgeDb::upsertComment(m_tx, m_source, number(json, "id"), seen);
    }

    Result<std::vector<ForgeUser>> mentions(const QString &content)
    {
        return ForgeDb::usersByLogin(m_tx, m_source, ForgeDb::mentionedLogins(content));
    }

    Status watchIfAuto(const ForgeRepo &repo)
    {
        if (!m_autoWatch)
            return Status::ok();
        return ForgeDb::watchIfAuto(m_tx, m_context.doer.id, repo.id);
    }
    // Something new by the doer: they may start watching, and its text may mention people.
    Result<std::vector<ForgeUser>> opened(const ForgeRepo &repo, const QString &content)
    {
        if (Status s = watchIfAuto(repo); !s)
            return s;
        return mentions(content);
    }

    template<typename F>
    void call(F f)
    {
        m_out.calls.push_back(std::move(f));
    }

    Status issues(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    Status pullRequest(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    Status issueComment(const QJsonObject &payload, const ForgeRepo &repo);
    Status review(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    Status reviewComment(const QJsonObject &payload, const ForgeRepo &repo);
    Status release(const QJsonObject &payload, const ForgeRepo &repo);
    Status repository(const QJsonObject &payload, const ForgeRepo &repo);
    Status wiki(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    // GitHub's access facts (Gitea sends none): a collaborator added, changed or removed
    // (`member`), a member added to or removed from an organisation (`organization`). No bus
    // event: they decide who may read a private repository (ForgeDb::privateReaders).
    Status member(const QJsonObject &payload, const ForgeRepo &repo);
    Status organization(const QJsonObject &payload);
    // The changes shared by issues and pull requests (assignees, labels, milestones, edits).
    // Other actions have no bus event (ignored).
    Status issueChange(const QString &action, const QJsonObject &payload, const ForgeIssue &issue);

    // A note for the event's row (and the log), once.
    void note(const QString &text)
    {
        if (!m_out.notes.contains(text))
            m_out.notes << text;
    }
    // The commits a pull request's synchronize brought: the push to its head branch that the
    // forge sent just before (Gitea and GitHub send the push first), else the head alone.
    Result<QJsonObject> pushedCommits(const QJsonObject &payload, const ForgePullRequest &pr, const ForgeRepo &repo);

    SqlTransaction &m_tx;
    QSet<qint64> m_assigneesBefore; // the issue's assignees before this event (issue() reads them)
    const QString m_source;
    const bool m_autoWatch;
    NotifyContext m_context;
    Translation m_out;
};

Result<QJsonObject> Translator::pushedCommits(const QJsonObject &payload, const ForgePullRequest &pr, const ForgeRepo &repo)
{
    const QJsonObject head = object(object(payload, "pull_request"), "head");
    const QString after = !text(payload, "after").isEmpty() ? text(payload, "after") : text(head, "sha");
    const QString ref = QStringLiteral("refs/heads/") + pr.headBranch;
    // The latest pushes of this source to the repository; the one that left the head at `after`.
    Result<QSqlQuery> q = m_tx.exec(QStringLiteral("SELECT payload FROM event WHERE source = ? AND event = 'push' AND repo = ? "
                                                   "ORDER BY id DESC LIMIT 20"),
                                    {m_source, repo.fullName()});
    if (!q)
        return q.status();
    QJsonArray ids;
    bool forced = false;
    while (q->next()) {
        const QJsonObject push = QJsonDocument::fromJson(q->value(0).toByteArray()).object();
        if (text(push, "ref") != ref || (!after.isEmpty() && text(push, "after") != after))
            continue;
        forced = flag(push, "forced");
        if (forced) {
            ids = {text(push, "before"), text(push, "after")}; // Gitea's force push: [old, new]
        } else {
            for (const QJsonValue &commit : push.value(QStringLiteral("commits")).toArray()) // newest first, as Gitea lists them
                ids.prepend(text(commit.toObject(), "id"));
        }
        break;
    }
    if (ids.isEmpty() && !after.isEmpty()) {
        ids = {after};
        note(QStringLiteral("pull request #%1 synchronized: the push to %2 was not seen, so only its head commit is known")
                 .arg(pr.issue ? pr.issue->index : 0)
                 .arg(escapeControl(pr.headBranch, 100)));
    }
    return QJsonObject{{QStringLiteral("is_force_push"), forced}, {QStringLiteral("commit_ids"), ids}};
}

Status Translator::issueChange(const QString &action, const QJsonObject &payload, const ForgeIssue &issue)
{
    const NotifyContext c = m_context;
    if (action == QLatin1String("closed") || action == QLatin1String("reopened")) {
        const bool closed = action == QLatin1String("closed");
        call([c, issue, closed](Notifier &n) { n.issueChangeStatus(c, issue, ForgeComment{}, closed); });
    } else if (action == QLatin1String("edited")) {
        if (changed(payload, "title")) {
            const QString old = changedFrom(payload, "title");
            call([c, issue, old](Notifier &n) { n.issueChangeTitle(c, issue, old); });
        }
        if (changed(payload, "body")) {
            const QString old = changedFrom(payload, "body");
            call([c, issue, old](Notifier &n) { n.issueChangeContent(c, issue, old); });
        }
    } else if (action == QLatin1String("assigned") || action == QLatin1String("unassigned")) {
        const bool removed = action == QLatin1String("unassigned");
        std::vector<ForgeUser> targets;
        if (payload.contains(QStringLiteral("assignee"))) {
            Result<ForgeUser> assignee = user(object(payload, "assignee"));
            if (!assignee)
                return assignee.status();
            targets.push_back(*assignee);
        } else {
            // Gitea sends the issue with all its assignees, not the one added or removed: the
            // difference with the stored ones names them, so only a new assignee hears (and a
            // redelivered event, the store already up to date, tells no one again).
            QSet<qint64> now;
            for (const ForgeUser &assignee : issue.assignees) {
                now.insert(assignee.id);
                if (!removed && !m_assigneesBefore.contains(assignee.id))
                    targets.push_back(assignee);
            }
            if (removed) {
                for (qint64 id : m_assigneesBefore) {
                    if (now.contains(id))
                        continue;
                    Result<ForgeUser> gone = ForgeDb::user(m_tx, id);
                    if (!gone)
                        return gone.status();
                    targets.push_back(*gone);
                }
            }
        }
        for (const ForgeUser &assignee : targets)
            call([c, issue, assignee, removed](Notifier &n) { n.issueChangeAssignee(c, issue, assignee, removed, ForgeComment{}); });
    } else if (action == QLatin1String("label_updated") || action == QLatin1String("labeled") || action == QLatin1String("unlabeled")) {
        std::vector<ForgeLabel> added, removed;
        const QJsonObject label = object(payload, "label");
        const QJsonArray all = object(payload, issue.isPull ? "pull_request" : "issue").value(QStringLiteral("labels")).toArray();
        auto toLabel = [](const QJsonObject &o) { return ForgeLabel{number(o, "id"), text(o, "name"), text(o, "color")}; };
        if (action == QLatin1String("unlabeled"))
            removed.push_back(toLabel(label));
        else if (!label.isEmpty())
            added.push_back(toLabel(label));
        else
            for (const QJsonValue &l : all)
                added.push_back(toLabel(l.toObject()));
        call([c, issue, added, removed](Notifier &n) { n.issueChangeLabels(c, issue, added, removed); });
    } else if (action == QLatin1String("label_cleared")) {
        call([c, issue](Notifier &n) { n.issueClearLabels(c, issue); });
    } else if (action == QLatin1String("milestoned") || action == QLatin1String("demilestoned")) {
        const QString old = action == QLatin1String("demilestoned") ? text(object(payload, "milestone"), "title") : QString();
        call([c, issue, old](Notifier &n) { n.issueChangeMilestone(c, issue, old); });
    } else if (!action.isEmpty()) {
        // GitHub's pinned, unpinned, locked, unlocked, transferred, typed …: Gitea's notifier has
        // no event for them (pinning an issue notifies no one, sends no hook). The issue is kept
        // up to date; the row says why nothing went out.
        note(QStringLiteral("#%1 %2: Gitea has no notification or webhook event for it; the issue is kept up to date, nothing is sent")
                 .arg(issue.index)
                 .arg(escapeControl(action, 64)));
    }
    return Status::ok();
}

Status Translator::issues(const QString &, const QJsonObject &payload, const ForgeRepo &repo)
{
    Result<ForgeIssue> stored = issue(object(payload, "issue"), repo, false, nullptr);
    if (!stored)
        return stored.status();
    const ForgeIssue issue = *stored;
    const NotifyContext c = m_context;
    const QString action = m_out.action;
    if (action == QLatin1String("opened")) {
        Result<std::vector<ForgeUser>> mentioned = opened(repo, issue.content);
        if (!mentioned)
            return mentioned.status();
        call([c, issue, m = *mentioned](Notifier &n) { n.newIssue(c, issue, m); });
    } else if (action == QLatin1String("deleted")) {
        call([c, issue](Notifier &n) { n.deleteIssue(c, issue); });
    } else {
        return issueChange(action, payload, issue);
    }
    return Status::ok();
}

Status Translator::pullRequest(const QString &, const QJsonObject &payload, const ForgeRepo &repo)
{
    ForgePullRequest pr;
    Result<ForgeIssue> stored = issue(object(payload, "pull_request"), repo, true, &pr);
    if (!stored)
        return stored.status();
    const ForgeIssue issue = *stored;
    const NotifyContext c = m_context;
    const QString action = m_out.action;
    if (action == QLatin1String("opened")) {
        Result<std::vector<ForgeUser>> mentioned = opened(repo, issue.content);
        if (!mentioned)
            return mentioned.status();
        call([c, pr, m = *mentioned](Notifier &n) { n.newPullRequest(c, pr, m); });
    } else if (action == QLatin1String("closed") && pr.hasMerged) {
        call([c, pr](Notifier &n) { n.mergePullRequest(c, pr); });
    } else if (action == QLatin1String("synchronized") || action == QLatin1String("synchronize")) {
        // Gitea: the hook's pull_request_sync, and "pushed N commits" to the participants (a
        // push comment, {"is_force_push", "commit_ids"}) by notification and mail.
        Result<QJsonObject> pushed = pushedCommits(payload, pr, repo);
        if (!pushed)
            return pushed.status();
        ForgeComment push;
        push.issueId = issue.id;
        push.poster = m_context.doer;
        push.content = QString::fromUtf8(QJsonDocument(*pushed).toJson(QJsonDocument::Compact));
        push.htmlUrl = issue.htmlUrl.isEmpty() ? QString() : issue.htmlUrl + QStringLiteral("/files");
        if (Status s = ForgeDb::addParticipant(m_tx, issue.id, m_context.doer.id); !s)
            return s;
        call([c, pr](Notifier &n) { n.pullRequestSynchronized(c, pr); });
        call([c, pr, push](Notifier &n) { n.pullRequestPushCommits(c, pr, push); });
    } else if (action == QLatin1String("review_requested") || action == QLatin1String("review_request_removed")) {
        const bool isRequest = action == QLatin1String("review_requested");
        Result<ForgeUser> reviewer = user(object(payload, "requested_reviewer"));
        if (!reviewer)
            return reviewer.status();
        if (Status s = ForgeDb::setReviewRequest(m_tx, issue.id, reviewer->id, isRequest); !s)
            return s;
        call([c, issue, r = *reviewer, isRequest](Notifier &n) { n.pullRequestReviewRequest(c, issue, r, isRequest, ForgeComment{}); });
    } else if (action == QLatin1String("edited") && changed(payload, "base")) {
        const QString old = object(object(object(payload, "changes"), "base"), "ref").value(QStringLiteral("from")).toString();
        call([c, pr, old](Notifier &n) { n.pullRequestChangeTargetBranch(c, pr, old); });
    } else {
        return issueChange(action, payload, issue);
    }
    return Status::ok();
}

Status Translator::issueComment(const QJsonObject &payload, const ForgeRepo &repo)
{
    const QJsonObject issueJson = object(payload, "issue");
    const bool isPull = flag(payload, "is_pull") ||
                        (issueJson.contains(QStringLiteral("pull_request")) && !issueJson.value(QStringLiteral("pull_request")).isNull());
    Result<ForgeIssue> stored = issue(issueJson, repo, isPull, nullptr);
    if (!stored)
        return stored.status();
    Result<ForgeComment> comment = this->comment(object(payload, "comment"), stored->id);
    if (!comment)
        return comment.status();
    const NotifyContext c = m_context;
    const ForgeIssue issue = *stored;
    const ForgeComment saved = *comment;
    const QString action = m_out.action;
    if (action == QLatin1String("created")) {
        if (Status s = watchIfAuto(repo); !s)
            return s;
        Result<std::vector<ForgeUser>> mentioned = mentions(saved.content);
        if (!mentioned)
            return mentioned.status();
        call([c, repo, issue, saved, m = *mentioned](Notifier &n) { n.createIssueComment(c, repo, issue, saved, m); });
    } else if (action == QLatin1String("edited")) {
        const QString old = changedFrom(payload, "body");
        call([c, saved, old](Notifier &n) { n.updateComment(c, saved, old); });
    } else if (action == QLatin1String("deleted")) {
        call([c, saved](Notifier &n) { n.deleteComment(c, saved); });
    }
    return Status::ok();
}

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
    else if (action == QLatin1String("updated") || action == QLatin1String("edited"))
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

Result<Translation> Translator::run(const QString &event, const QJsonObject &payload)
{
    const QString group = eventGroup(event);
    m_out.action = text(payload, "action");
    if (group == QLatin1String("ping"))
        return m_out;
    Result<ForgeUser> sender = user(object(payload, "sender"));
    if (!sender)
        return sender.status();
    m_context.doer = *sender;
    const NotifyContext c = m_context;

    if (group == QLatin1String("package")) {
        const QJsonObject json = object(payload, "package");
        Result<ForgeUser> owner = json.contains(QStringLiteral("owner")) ? user(object(json, "owner")) : Result<ForgeUser>(*sender);
        if (!owner)
            return owner.status();
        const QJsonValue version = json.value(QStringLiteral("version"));
        ForgePackage package{number(json, "id"), *owner,
                             json.contains(QStringLiteral("type")) ? text(json, "type") : text(json, "package_type"), text(json, "name"),
                             version.isObject() ? text(version.toObject(), "version") : version.toString()};
        if (m_out.action == QLatin1String("created") || m_out.action == QLatin1String("published"))
            call([c, package](Notifier &n) { n.packageCreate(c, package); });
        else if (m_out.action == QLatin1String("deleted"))
            call([c, package](Notifier &n) { n.packageDelete(c, package); });
        return m_out;
    }

    if (group == QLatin1String("organization")) {
        if (Status s = organization(payload); !s)
            return s;
        return m_out;
    }

    Result<ForgeRepo> stored = repo(object(payload, "repository"));
    if (!stored)
        return stored.status();
    const ForgeRepo r = *stored;

    Status status;
    if (group == QLatin1String("push")) {
        PushUpdate push;
        push.refFullName = text(payload, "ref");
        push.oldCommitId = text(payload, "before");
        push.newCommitId = text(payload, "after");
        push.compareUrl = payload.contains(QStringLiteral("compare_url")) ? text(payload, "compare_url") : text(payload, "compare");
        const QJsonArray commits = payload.value(QStringLiteral("commits")).toArray();
        for (qsizetype i = 0; i < commits.size(); ++i) {
            const QJsonObject commit = commits.at(i).toObject();
            const QJsonObject author = object(commit, "author");
            const QString email = mailbox(text(author, "email"), QStringLiteral("commits[%1].author.email").arg(i)).value_or(QString());
            push.commits.push_back({text(commit, "id"), text(commit, "message"), text(author, "name"), email,
                                    QDateTime::fromString(text(commit, "timestamp"), Qt::ISODate)});
        }
        push.totalCommits = payload.contains(QStringLiteral("total_commits")) ? int(number(payload, "total_commits"))
                                                                              : int(push.commits.size());
        // A deletion is told by the delete event; a push that creates a ref is a push here and a
        // create event after it (the forges send both, push first).
        if (push.newCommitId == kZeroSha || flag(payload, "deleted"))
            return m_out;
        status = watchIfAuto(r);
        call([c, r, push](Notifier &n) { n.pushCommits(c, r, push); });
    } else if (group == QLatin1String("create") || group == QLatin1String("delete")) {
        const RefType type = text(payload, "ref_type") == QLatin1String("tag") ? RefType::Tag : RefType::Branch;
        QString ref = text(payload, "ref");
        if (!ref.startsWith(QLatin1String("refs/")))
            ref = (type == RefType::Tag ? QStringLiteral("refs/tags/") : QStringLiteral("refs/heads/")) + ref;
        if (group == QLatin1String("create")) {
            const QString sha = text(payload, "sha");
            call([c, r, type, ref, sha](Notifier &n) { n.createRef(c, r, type, ref, sha); });
        } else {
            call([c, r, type, ref](Notifier &n) { n.deleteRef(c, r, type, ref); });
        }
    } else if (group == QLatin1String("issues")) {
        status = issues(event, payload, r);
    } else if (group == QLatin1String("pull_request")) {
        status = pullRequest(event, payload, r);
    } else if (group == QLatin1String("issue_comment")) {
        status = issueComment(payload, r);
    } else if (group == QLatin1String("pull_request_review")) {
        status = review(event, payload, r);
    } else if (group == QLatin1String("pull_request_review_comment")) {
        status = reviewComment(payload, r);
    } else if (group == QLatin1String("release")) {
        status = release(payload, r);
    } else if (group == QLatin1String("repository")) {
        status = repository(payload, r);
    } else if (group == QLatin1String("fork")) {
        Result<ForgeRepo> forkee = repo(object(payload, "forkee"));
        if (!forkee)
            return forkee.status();
        call([c, r, f = *forkee](Notifier &n) { n.forkRepository(c, r, f); });
    } else if (group == QLatin1String("wiki")) {
        status = wiki(event, payload, r);
    } else if (group == QLatin1String("member")) {
        status = member(payload, r);
    } else if (group == QLatin1String("status")) {
        const CommitStatus commit{text(payload, "sha"), text(payload, "state"), text(payload, "context"), text(payload, "description"),
                                  text(payload, "target_url")};
        call([c, r, commit](Notifier &n) { n.createCommitStatus(c, r, commit); });
    } else if (group == QLatin1String("workflow_run")) {
        const QJsonObject json = object(payload, "workflow_run");
        const WorkflowRun run{number(json, "id"),          text(json, "name"),       text(json, "event"),
                              text(json, "status"),        text(json, "conclusion"), text(json, "head_branch"),
                              number(json, "run_number"),  text(json, "head_sha"),   text(json, "path"),
                              text(json, "html_url")};
        call([c, r, run](Notifier &n) { n.workflowRunStatusUpdate(c, r, run); });
    } else if (group == QLatin1String("workflow_job")) {
        const QJsonObject json = object(payload, "workflow_job");
        const WorkflowJob job{number(json, "id"), number(json, "run_id"), text(json, "name"), text(json, "status"), text(json, "conclusion")};
        call([c, r, job](Notifier &n) { n.workflowJobStatusUpdate(c, r, job); });
    }
    if (!status)
        return status;
    return m_out;
}

} // namespace

Result<Translation> translateEvent(SqlTransaction &tx, const QString &source, const QString &event, const QJsonObject &payload,
                                   bool autoWatch, const QString &traceId, std::shared_ptr<NotifyScope> scope)
{
    QString fine = event;
    if (eventGroup(event) == QLatin1String("pull_request_review_comment") && payload.contains(QStringLiteral("review")))
        fine = QStringLiteral("pull_request_review_comment_gitea"); // a review of type comment, not a line comment
    NotifyContext context;
    context.traceId = traceId;
    context.scope = std::move(scope);
    Translator translator(tx, source, autoWatch, context);
    if (fine == QLatin1String("pull_request_review_comment_gitea"))
        return translator.run(QStringLiteral("pull_request_review"), payload);
    return translator.run(event, payload);
}

} // namespace Switchyard
