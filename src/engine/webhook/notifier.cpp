#include "notifier.h"

#include "payloads.h"
#include "webhook.h"

#include "engine/core/cancellation.h"
#include "engine/forge/forgedata.h"
#include "engine/store/store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcWebhook) // webhook.cpp

namespace Switchyard::Webhook {

using namespace Qt::StringLiterals;

namespace {

// api.ChangesPayload with one field changed: {"<field>": {"from": …}}.
OrderedObject changedFrom(const char *field, const QString &from)
{
    OrderedObject o;
    o.add(QString::fromLatin1(field), OrderedObject().add(u"from"_s, from));
    return o;
}

// The doer as api.User, html_url under the forge of `repo`.
OrderedObject sender(const NotifyContext &c, const ForgeRepo &repo)
{
    return Payload::user(c.doer, Payload::appUrl(repo));
}

EventSource sourceOf(const ForgeRepo &repo)
{
    return {repo.id, repo.owner.id};
}

QString refTypeName(RefType type)
{
    return type == RefType::Tag ? u"tag"_s : u"branch"_s;
}

} // namespace

struct WebhookNotifier::IssueContext
{
    ForgeIssue issue;
    ForgeRepo repo;
    std::optional<ForgePullRequest> pull; // when issue.isPull
};

WebhookNotifier::WebhookNotifier(WebhookService &service, Store &store) : m_service(service), m_store(store) {}

void WebhookNotifier::failed(const char *method, const NotifyContext &c, const Status &why)
{
    if (c.scope && why.code() == Status::Code::Unavailable) {
        // The store or the queue, not the event: it is dispatched to this notifier again.
        qCInfo(lcWebhook).noquote() << "webhook notifier:" << method << "waits:" << why.message();
        c.retryLater(why);
        return;
    }
    ++m_failed;
    qCWarning(lcWebhook).noquote() << "webhook notifier:" << method << "sends nothing:" << why.message();
}

bool WebhookNotifier::loadRepo(const char *method, const NotifyContext &c, qint64 repoId, ForgeRepo &out)
{
    Result<ForgeRepo> repo = m_store.readValue<ForgeRepo>([&](SqlTransaction &tx) { return ForgeDb::repo(tx, repoId); });
    if (!repo) {
        failed(method, c, repo.status());
        return false;
    }
    out = std::move(repo).value();
    return true;
}

// The stored issue completes the given one: what the event carried wins, the store fills the rest
// (poster, assignees, the pull's branches) and gives the repository.
bool WebhookNotifier::load(const char *method, const NotifyContext &c, const ForgeIssue &given, IssueContext &out)
{
    struct Loaded
    {
        ForgeIssue issue;
        ForgePullRequest pull;
        ForgeRepo repo;
    };
    Result<Loaded> loaded = m_store.readValue<Loaded>([&](SqlTransaction &tx) -> Result<Loaded> {
        Loaded l;
        Result<ForgeIssue> issue = ForgeDb::issue(tx, given.id, &l.pull);
        if (!issue)
            return issue.status();
        l.issue = std::move(issue).value();
        Result<ForgeRepo> repo = ForgeDb::repo(tx, l.issue.repoId);
        if (!repo)
            return repo.status();
        l.repo = std::move(repo).value();
        return l;
    });
    if (!loaded) {
        failed(method, c, loaded.status());
        return false;
    }
    out.issue = given;
    if (!out.issue.poster)
        out.issue.poster = loaded->issue.poster;
    if (out.issue.assignees.empty())
        out.issue.assignees = loaded->issue.assignees;
    if (out.issue.htmlUrl.isEmpty())
        out.issue.htmlUrl = loaded->issue.htmlUrl;
    if (out.issue.repoId == 0)
        out.issue.repoId = loaded->issue.repoId;
    out.issue.isPull = out.issue.isPull || loaded->issue.isPull;
    out.repo = std::move(loaded->repo);
    if (out.issue.isPull) {
        ForgePullRequest pull = loaded->pull;
        pull.issue = out.issue;
        out.pull = std::move(pull);
    }
    return true;
}

bool WebhookNotifier::loadPull(const char *method, const NotifyContext &c, const ForgePullRequest &given, IssueContext &out)
{
    ForgeIssue issue = given.issue.value_or(ForgeIssue{});
    if (issue.id == 0)
        issue.id = given.id;
    issue.isPull = true;
    if (!load(method, c, issue, out))
        return false;
    // The event's own view of the pull (merged, the merge commit, its branches) wins.
    ForgePullRequest pull = given;
    pull.issue = out.issue;
    if (pull.headBranch.isEmpty())
        pull.headBranch = out.pull->headBranch;
    if (pull.baseBranch.isEmpty())
        pull.baseBranch = out.pull->baseBranch;
    pull.hasMerged = pull.hasMerged || out.pull->hasMerged;
    out.pull = std::move(pull);
    return true;
}

bool WebhookNotifier::loadComment(const char *method, const NotifyContext &c, const ForgeComment &given, IssueContext &out)
{
    ForgeIssue issue;
    issue.id = given.issueId;
    return load(method, c, issue, out);
}

void WebhookNotifier::send(const char *method, const EventSource &source, HookEventType type, const OrderedObject &payload,
                           const NotifyContext &c, const QString &ref)
{
    const QByteArray body = payload.toJson();
    // Keyed by the call and the event type (a call sends each type once, or in a fixed order).
    Result<int> prepared = m_service.prepare(CancelToken(), source, type, body, ref, c.traceId, c.keyFor(name(type)));
    if (!prepared) {
        failed(method, c, prepared.status());
        return;
    }
    ++m_prepared;
}

void WebhookNotifier::sendIssueChange(const char *method, const NotifyContext &c, const IssueContext &ctx, HookEventType issueType,
                                      HookEventType pullType, const QString &action, const ChangeExtras &extra)
{
    // api.IssuePayload and api.PullRequestPayload, field for field.
    OrderedObject payload;
    payload.add(u"action"_s, action).add(u"number"_s, ctx.issue.index);
    if (!extra.changes.isEmpty())
        payload.add(u"changes"_s, extra.changes);
    if (ctx.pull) {
        payload.add(u"pull_request"_s, Payload::pullRequest(*ctx.pull, ctx.repo, extra.mergedByDoer ? &c.doer : nullptr));
        if (extra.requestedReviewer)
            payload.add(u"requested_reviewer"_s, Payload::user(*extra.requestedReviewer, Payload::appUrl(ctx.repo)));
        else
            payload.addNull(u"requested_reviewer"_s);
    } else {
        payload.add(u"issue"_s, Payload::issue(ctx.issue, ctx.repo));
    }
    payload.add(u"repository"_s, Payload::repository(ctx.repo)).add(u"sender"_s, sender(c, ctx.repo)).add(u"commit_id"_s, QString());
    if (ctx.pull) {
        if (extra.review.isEmpty())
            payload.addNull(u"review"_s);
        else
            payload.add(u"review"_s, extra.review);
    }
    send(method, sourceOf(ctx.repo), ctx.pull ? pullType : issueType, payload, c);
}

// ---- repositories ---------------------------------------------------------------------------------

void WebhookNotifier::sendRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &action)
{
    OrderedObject payload;
    payload.add(u"action"_s, action).add(u"repository"_s, Payload::repository(repo));
    payload.add(u"organization"_s, Payload::user(repo.owner, Payload::appUrl(repo))).add(u"sender"_s, sender(c, repo));
    EventSource source = sourceOf(repo);
    // A new repository gets the default hooks first, in the same transaction (Gitea's
    // CopyDefaultWebhooksToRepo runs when it creates one, before it notifies).
    source.newRepository = action == u"created"_s;
    send("repository", source, HookEventType::Repository, payload, c);
}

void WebhookNotifier::adoptRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    sendRepository(c, repo, u"created"_s); // Gitea: AdoptRepository is CreateRepository
}

void WebhookNotifier::createRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    sendRepository(c, repo, u"created"_s);
}

void WebhookNotifier::migrateRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    sendRepository(c, repo, u"created"_s);
}

void WebhookNotifier::deleteRepository(const NotifyContext &c, const ForgeRepo &repo)
{
    sendRepository(c, repo, u"deleted"_s);
}

void WebhookNotifier::forkRepository(const NotifyContext &c, const ForgeRepo &oldRepo, const ForgeRepo &repo)
{
    OrderedObject payload;
    payload.add(u"forkee"_s, Payload::repository(oldRepo)).add(u"repository"_s, Payload::repository(repo));
    payload.add(u"sender"_s, sender(c, oldRepo));
    send("forkRepository", sourceOf(oldRepo), HookEventType::Fork, payload, c);
    if (repo.owner.isOrganization) {
        sendRepository(c, repo, u"created"_s);
        return;
    }
    // A user's fork hears no repository event, but Gitea creates it as any repository: it gets
    // the default hooks too.
    if (Result<int> copied = m_service.copyDefaultHooks(repo.id); !copied)
        failed("forkRepository", c, copied.status());
}

// ---- issues ---------------------------------------------------------------------------------------

void WebhookNotifier::newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &)
{
    IssueContext ctx;
    if (load("newIssue", c, issue, ctx))
        sendIssueChange("newIssue", c, ctx, HookEventType::Issues, HookEventType::PullRequest, u"opened"_s);
}

void WebhookNotifier::issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &, bool closed)
{
    IssueContext ctx;
    if (!load("issueChangeStatus", c, issue, ctx))
        return;
    ctx.issue.isClosed = closed;
    if (ctx.pull)
        ctx.pull->issue->isClosed = closed;
    sendIssueChange("issueChangeStatus", c, ctx, HookEventType::Issues, HookEventType::PullRequest,
                    closed ? u"closed"_s : u"reopened"_s);
}

void WebhookNotifier::deleteIssue(const NotifyContext &c, const ForgeIssue &issue)
{
    IssueContext ctx;
    if (load("deleteIssue", c, issue, ctx))
        sendIssueChange("deleteIssue", c, ctx, HookEventType::Issues, HookEventType::PullRequest, u"deleted"_s);
}

void WebhookNotifier::issueChangeMilestone(const NotifyContext &c, const ForgeIssue &issue, const QString &)
{
    IssueContext ctx;
    if (load("issueChangeMilestone", c, issue, ctx))
        sendIssueChange("issueChangeMilestone", c, ctx, HookEventType::IssueMilestone, HookEventType::PullRequestMilestone,
                        issue.milestone.isEmpty() ? u"demilestoned"_s : u"milestoned"_s);
}

void WebhookNotifier::issueChangeAssignee(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &, bool removed,
                                          const ForgeComment &)
{
    IssueContext ctx;
    if (load("issueChangeAssignee", c, issue, ctx))
        sendIssueChange("issueChangeAssignee", c, ctx, HookEventType::IssueAssign, HookEventType::PullRequestAssign,
                        removed ? u"unassigned"_s : u"assigned"_s);
}

void WebhookNotifier::pullRequestReviewRequest(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &reviewer,
                                               bool isRequest, const ForgeComment &)
{
    IssueContext ctx;
    if (!load("pullRequestReviewRequest", c, issue, ctx) || !ctx.pull)
        return; // Gitea: only a pull has reviewers
    sendIssueChange("pullRequestReviewRequest", c, ctx, HookEventType::PullRequestReviewRequest,
                    HookEventType::PullRequestReviewRequest, isRequest ? u"review_requested"_s : u"review_request_removed"_s,
                    {.requestedReviewer = reviewer});
}

void WebhookNotifier::issueChangeContent(const NotifyContext &c, const ForgeIssue &issue, const QString &oldContent)
{
    IssueContext ctx;
    if (load("issueChangeContent", c, issue, ctx))
        sendIssueChange("issueChangeContent", c, ctx, HookEventType::Issues, HookEventType::PullRequest, u"edited"_s,
                        {.changes = changedFrom("body", oldContent)});
}

void WebhookNotifier::issueClearLabels(const NotifyContext &c, const ForgeIssue &issue)
{
    IssueContext ctx;
    if (load("issueClearLabels", c, issue, ctx))
        sendIssueChange("issueClearLabels", c, ctx, HookEventType::IssueLabel, HookEventType::PullRequestLabel, u"label_cleared"_s);
}

void WebhookNotifier::issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle)
{
    IssueContext ctx;
    if (load("issueChangeTitle", c, issue, ctx))
        sendIssueChange("issueChangeTitle", c, ctx, HookEventType::Issues, HookEventType::PullRequest, u"edited"_s,
                        {.changes = changedFrom("title", oldTitle)});
}

void WebhookNotifier::issueChangeRef(const NotifyContext &c, const ForgeIssue &issue, const QString &oldRef)
{
    IssueContext ctx;
    if (load("issueChangeRef", c, issue, ctx))
        sendIssueChange("issueChangeRef", c, ctx, HookEventType::Issues, HookEventType::PullRequest, u"edited"_s,
                        {.changes = changedFrom("ref", oldRef)});
}

void WebhookNotifier::issueChangeLabels(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeLabel> &added,
                                        const std::vector<ForgeLabel> &removed)
{
    // Switchyard keeps no label set, so the issue's labels stay empty; what changed goes in
    // changes.added_labels / removed_labels, as Gitea's ChangesPayload has them.
    IssueContext ctx;
    if (!load("issueChangeLabels", c, issue, ctx))
        return;
    OrderedObject changes;
    changes.add(u"added_labels"_s, Payload::labels(added, ctx.repo)).add(u"removed_labels"_s, Payload::labels(removed, ctx.repo));
    sendIssueChange("issueChangeLabels", c, ctx, HookEventType::IssueLabel, HookEventType::PullRequestLabel, u"label_updated"_s,
                    {.changes = changes});
}

// ---- pull requests ----------------------------------------------------------------------------------

void WebhookNotifier::newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &)
{
    IssueContext ctx;
    if (loadPull("newPullRequest", c, pr, ctx))
        sendIssueChange("newPullRequest", c, ctx, HookEventType::PullRequest, HookEventType::PullRequest, u"opened"_s);
}

void WebhookNotifier::sendMerged(const char *method, const NotifyContext &c, const ForgePullRequest &pr)
{
    IssueContext ctx;
    if (!loadPull(method, c, pr, ctx))
        return;
    ctx.pull->hasMerged = true;
    ctx.issue.isClosed = true;
    ctx.pull->issue->isClosed = true;
    sendIssueChange(method, c, ctx, HookEventType::PullRequest, HookEventType::PullRequest, u"closed"_s, {.mergedByDoer = true});
}

void WebhookNotifier::mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    sendMerged("mergePullRequest", c, pr);
}

void WebhookNotifier::autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    sendMerged("autoMergePullRequest", c, pr); // Gitea: AutoMergePullRequest is MergePullRequest
}

void WebhookNotifier::pullRequestSynchronized(const NotifyContext &c, const ForgePullRequest &pr)
{
    IssueContext ctx;
    if (loadPull("pullRequestSynchronized", c, pr, ctx))
        sendIssueChange("pullRequestSynchronized", c, ctx, HookEventType::PullRequestSync, HookEventType::PullRequestSync,
                        u"synchronized"_s);
}

void WebhookNotifier::pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review,
                                        const ForgeComment &, const std::vector<ForgeUser> &)
{
    HookEventType type;
    switch (review.type) {
    case ReviewType::Approve:
        type = HookEventType::PullRequestReviewApproved;
        break;
    case ReviewType::Reject:
        type = HookEventType::PullRequestReviewRejected;
        break;
    case ReviewType::Comment:
        type = HookEventType::PullRequestReviewComment;
        break;
    default:
        return; // Gitea: a pending review or a request has no review event
    }
    IssueContext ctx;
    if (loadPull("pullRequestReview", c, pr, ctx))
        sendIssueChange("pullRequestReview", c, ctx, type, type, u"reviewed"_s,
                        {.review = OrderedObject().add(u"type"_s, name(type)).add(u"content"_s, review.content)});
}

void WebhookNotifier::pullRequestChangeTargetBranch(const NotifyContext &c, const ForgePullRequest &pr, const QString &oldBranch)
{
    IssueContext ctx;
    if (loadPull("pullRequestChangeTargetBranch", c, pr, ctx))
        sendIssueChange("pullRequestChangeTargetBranch", c, ctx, HookEventType::PullRequest, HookEventType::PullRequest,
                        u"edited"_s, {.changes = changedFrom("ref", oldBranch)});
}

// ---- comments ---------------------------------------------------------------------------------------

namespace {

// api.IssueCommentPayload: action, issue, pull_request (a pull's), comment, changes (an edit's),
// repository, sender, is_pull.
OrderedObject commentPayload(const NotifyContext &c, const QString &action, const ForgeIssue &issue, const ForgeRepo &repo,
                             const ForgeComment &comment, const std::optional<ForgePullRequest> &pull, const OrderedObject &changes = {})
{
    OrderedObject payload;
    payload.add(u"action"_s, action).add(u"issue"_s, Payload::issue(issue, repo, pull ? &*pull : nullptr));
    if (pull)
        payload.add(u"pull_request"_s, Payload::pullRequest(*pull, repo));
    payload.add(u"comment"_s, Payload::comment(comment, issue, repo));
    if (!changes.isEmpty())
        payload.add(u"changes"_s, changes);
    payload.add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo)).add(u"is_pull"_s, pull.has_value());
    return payload;
}

} // namespace

void WebhookNotifier::createIssueComment(const NotifyContext &c, const ForgeRepo &, const ForgeIssue &issue,
                                         const ForgeComment &comment, const std::vector<ForgeUser> &)
{
    IssueContext ctx;
    if (!load("createIssueComment", c, issue, ctx))
        return;
    ForgeComment full = comment;
    if (!full.poster)
        full.poster = c.doer;
    send("createIssueComment", sourceOf(ctx.repo), ctx.pull ? HookEventType::PullRequestComment : HookEventType::IssueComment,
         commentPayload(c, u"created"_s, ctx.issue, ctx.repo, full, ctx.pull), c);
}

void WebhookNotifier::updateComment(const NotifyContext &c, const ForgeComment &comment, const QString &oldContent)
{
    IssueContext ctx;
    if (loadComment("updateComment", c, comment, ctx))
        send("updateComment", sourceOf(ctx.repo), ctx.pull ? HookEventType::PullRequestComment : HookEventType::IssueComment,
             commentPayload(c, u"edited"_s, ctx.issue, ctx.repo, comment, ctx.pull, changedFrom("body", oldContent)), c);
}

void WebhookNotifier::deleteComment(const NotifyContext &c, const ForgeComment &comment)
{
    IssueContext ctx;
    if (loadComment("deleteComment", c, comment, ctx))
        send("deleteComment", sourceOf(ctx.repo), ctx.pull ? HookEventType::PullRequestComment : HookEventType::IssueComment,
             commentPayload(c, u"deleted"_s, ctx.issue, ctx.repo, comment, ctx.pull), c);
}

// ---- wiki -------------------------------------------------------------------------------------------

void WebhookNotifier::sendWiki(const char *method, const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page,
                               const QString &action, const QString &comment)
{
    // api.WikiPayload: the sender before the page, as the struct has it.
    OrderedObject payload;
    payload.add(u"action"_s, action).add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo));
    payload.add(u"page"_s, page.name).add(u"comment"_s, comment);
    send(method, sourceOf(repo), HookEventType::Wiki, payload, c);
}

void WebhookNotifier::newWikiPage(const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page, const QString &comment)
{
    sendWiki("newWikiPage", c, repo, page, u"created"_s, comment);
}

void WebhookNotifier::editWikiPage(const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page, const QString &comment)
{
    sendWiki("editWikiPage", c, repo, page, u"edited"_s, comment);
}

void WebhookNotifier::deleteWikiPage(const NotifyContext &c, const ForgeRepo &repo, const WikiPage &page)
{
    sendWiki("deleteWikiPage", c, repo, page, u"deleted"_s, QString());
}

// ---- releases ---------------------------------------------------------------------------------------

void WebhookNotifier::sendRelease(const char *method, const NotifyContext &c, const ForgeRelease &release, const QString &action)
{
    if (release.isTag)
        return; // a bare tag is not a release (its push and create events tell of it)
    ForgeRelease full = release;
    if (!full.repo || !full.publisher) {
        StoredNotifyLoader loader(m_store);
        if (Status loaded = loader.loadReleaseAttributes(full); !loaded) {
            failed(method, c, loaded);
            return;
        }
    }
    ForgeRepo repo = *full.repo;
    if (repo.owner.login.isEmpty() && !loadRepo(method, c, repo.id, repo))
        return;
    OrderedObject payload;
    payload.add(u"action"_s, action).add(u"release"_s, Payload::release(full, repo));
    payload.add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo));
    send(method, sourceOf(repo), HookEventType::Release, payload, c);
}

void WebhookNotifier::newRelease(const NotifyContext &c, const ForgeRelease &release)
{
    if (release.isDraft)
        return; // Gitea notifies a release when it is published
    sendRelease("newRelease", c, release, u"published"_s);
}

void WebhookNotifier::updateRelease(const NotifyContext &c, const ForgeRelease &release)
{
    sendRelease("updateRelease", c, release, u"updated"_s);
}

void WebhookNotifier::deleteRelease(const NotifyContext &c, const ForgeRelease &release)
{
    sendRelease("deleteRelease", c, release, u"deleted"_s);
}

// ---- git refs ---------------------------------------------------------------------------------------

void WebhookNotifier::sendPush(const char *method, const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push)
{
    send(method, sourceOf(repo), HookEventType::Push, Payload::push(push, repo, c.doer, c.doer), c, push.refFullName);
}

void WebhookNotifier::sendCreateRef(const char *method, const NotifyContext &c, const ForgeRepo &repo, RefType type,
                                    const QString &ref, const QString &sha)
{
    OrderedObject payload;
    payload.add(u"sha"_s, sha).add(u"ref"_s, Payload::shortRefName(ref)).add(u"ref_type"_s, refTypeName(type));
    payload.add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo));
    send(method, sourceOf(repo), HookEventType::Create, payload, c, ref);
}

void WebhookNotifier::sendDeleteRef(const char *method, const NotifyContext &c, const ForgeRepo &repo, RefType type,
                                    const QString &ref)
{
    OrderedObject payload;
    payload.add(u"ref"_s, Payload::shortRefName(ref)).add(u"ref_type"_s, refTypeName(type)).add(u"pusher_type"_s, u"user"_s);
    payload.add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo));
    send(method, sourceOf(repo), HookEventType::Delete, payload, c, ref);
}

void WebhookNotifier::pushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push)
{
    sendPush("pushCommits", c, repo, push);
}

void WebhookNotifier::createRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,
                                const QString &commitId)
{
    sendCreateRef("createRef", c, repo, type, refFullName, commitId);
}

void WebhookNotifier::deleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName)
{
    sendDeleteRef("deleteRef", c, repo, type, refFullName);
}

void WebhookNotifier::syncPushCommits(const NotifyContext &c, const ForgeRepo &repo, const PushUpdate &push)
{
    sendPush("syncPushCommits", c, repo, push);
}

void WebhookNotifier::syncCreateRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName,
                                    const QString &commitId)
{
    sendCreateRef("syncCreateRef", c, repo, type, refFullName, commitId);
}

void WebhookNotifier::syncDeleteRef(const NotifyContext &c, const ForgeRepo &repo, RefType type, const QString &refFullName)
{
    sendDeleteRef("syncDeleteRef", c, repo, type, refFullName);
}

} // namespace Switchyard::Webhook
