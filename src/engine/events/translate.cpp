// Event translation, part one (translator_p.h): the run of one event, and what pushes, issues,
// pull requests and comments become.

#include "translator_p.h"

namespace Switchyard {

namespace Translate {

Result<QJsonObject> Translator::pushedCommits(const QJsonObject &payload, const ForgePullRequest &pr, const ForgeRepo &repo)
{
    const QJsonObject head = object(object(payload, "pull_request"), "head");
    const QString after = !text(payload, "after").isEmpty() ? text(payload, "after") : text(head, "sha");
    const QString ref = QStringLiteral("refs/heads/") + pr.headBranch;
    // A pull from a fork is pushed to the fork: the head's repository.
    const QString pushedTo = text(object(head, "repo"), "full_name").isEmpty() ? repo.fullName() : text(object(head, "repo"), "full_name");
    // The latest pushes of this source to that repository (index event_repo_kind); the one that
    // left the head at `after`.
    Result<QSqlQuery> q = m_tx.exec(QStringLiteral("SELECT payload FROM event WHERE source = ? AND repo = ? AND event = 'push' "
                                                   "ORDER BY id DESC LIMIT 50"),
                                    {m_source, pushedTo});
    if (!q)
        return q.status();
    QJsonArray ids;
    bool forced = false;
    qint64 total = 0;
    while (q->next()) {
        const QJsonObject push = QJsonDocument::fromJson(q->value(0).toByteArray()).object();
        if (text(push, "ref") != ref || (!after.isEmpty() && text(push, "after") != after))
            continue;
        forced = flag(push, "forced");
        if (forced) {
            ids = {text(push, "before"), text(push, "after")}; // Gitea's force push: [old, new]
            break;
        }
        // Gitea's comment lists them oldest first. Gitea's push payload has the newest first,
        // GitHub's the oldest: the end that is `after` tells which.
        const QJsonArray commits = push.value(QStringLiteral("commits")).toArray();
        const bool newestFirst = commits.isEmpty() || text(commits.last().toObject(), "id") != text(push, "after");
        for (const QJsonValue &commit : commits) {
            if (newestFirst)
                ids.prepend(text(commit.toObject(), "id"));
            else
                ids.append(text(commit.toObject(), "id"));
        }
        total = number(push, "total_commits");
        break;
    }
    if (ids.isEmpty() && !after.isEmpty()) {
        ids = {after};
        note(QStringLiteral("pull request #%1 synchronized: the push to %2 was not seen, so only its head commit is known")
                 .arg(pr.issue ? pr.issue->index : 0)
                 .arg(escapeControl(pr.headBranch, 100)));
    } else if (total > ids.size()) {
        note(QStringLiteral("pull request #%1 synchronized: the push carried %2 of its %3 commits (the forge cuts the list)")
                 .arg(pr.issue ? pr.issue->index : 0)
                 .arg(ids.size())
                 .arg(total));
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

} // namespace Translate

Result<Translation> translateEvent(SqlTransaction &tx, const QString &source, const QString &event, const QJsonObject &payload,
                                   bool autoWatch, const QString &traceId, std::shared_ptr<NotifyScope> scope)
{
    QString fine = event;
    if (eventGroup(event) == QLatin1String("pull_request_review_comment") && payload.contains(QStringLiteral("review")))
        fine = QStringLiteral("pull_request_review_comment_gitea"); // a review of type comment, not a line comment
    NotifyContext context;
    context.traceId = traceId;
    context.scope = std::move(scope);
    Translate::Translator translator(tx, source, autoWatch, context);
    if (fine == QLatin1String("pull_request_review_comment_gitea"))
        return translator.run(QStringLiteral("pull_request_review"), payload);
    return translator.run(event, payload);
}

} // namespace Switchyard
