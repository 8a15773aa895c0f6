// The shared sentences of Gitea's services/webhook/general.go: getIssuesPayloadInfo,
// getPullRequestPayloadInfo, getIssueCommentPayloadInfo, getReleasePayloadInfo,
// getWikiPayloadInfo, getPackagePayloadInfo, getStatusPayloadInfo, getWorkflowRunPayloadInfo,
// getWorkflowJobPayloadInfo, and the getIssuesInfo family Feishu uses. An action general.go has
// no case for leaves the sentence empty (only " by …" follows), as in Gitea.
#include "summary.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

QString by(const QJsonObject &p, const LinkFormatter &link, bool withSender, bool escaped = true)
{
    if (!withSender)
        return {};
    const QString login = str(p, u"sender.login");
    return " by "_L1 + link(userUrl(p, login, escaped), login);
}

QString repoLink(const QJsonObject &p, const LinkFormatter &link)
{
    return link(str(p, u"repository.html_url"), str(p, u"repository.full_name"));
}

QStringList logins(const QJsonObject &item)
{
    QStringList out;
    for (const QJsonValue &u : item.value(QStringLiteral("assignees")).toArray())
        out << u.toObject().value(QStringLiteral("login")).toString();
    return out;
}

// The part of the issue and pull sentences after "Issue " / "Pull request ": the verb, and the
// colour when it is not yellow. `escapedAssignees`: the issue sentence path-escapes assignee
// logins in their links, the pull sentence does not.
struct Verb
{
    QString words;
    int colour = Colour::Yellow;
};

Verb verbFor(const QJsonObject &p, const QJsonObject &item, const LinkFormatter &link, bool escapedAssignees)
{
    const QString action = str(p, u"action");
    if (action == "opened"_L1)
        return {u"opened"_s, Colour::Orange};
    if (action == "closed"_L1)
        return {u"closed"_s, Colour::Red};
    if (action == "reopened"_L1)
        return {u"re-opened"_s};
    if (action == "edited"_L1)
        return {u"edited"_s};
    if (action == "assigned"_L1) {
        QStringList links;
        for (const QString &login : logins(item))
            links << link(userUrl(p, login, escapedAssignees), login);
        return {"assigned to "_L1 + links.join(", "_L1), Colour::Green};
    }
    if (action == "unassigned"_L1)
        return {u"unassigned"_s};
    if (action == "label_updated"_L1)
        return {u"labels updated"_s};
    if (action == "label_cleared"_L1)
        return {u"labels cleared"_s};
    if (action == "synchronized"_L1)
        return {u"synchronized"_s};
    if (action == "milestoned"_L1) {
        const QString url = str(p, u"repository.html_url") + "/milestone/"_L1 + str(item, u"milestone.id");
        return {"milestoned to "_L1 + link(url, str(item, u"milestone.title"))};
    }
    if (action == "demilestoned"_L1)
        return {u"milestone cleared"_s};
    return {};
}

} // namespace

Info issuesInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    const QJsonObject issue = obj(p, u"issue");
    const QString action = str(p, u"action");
    Info info;
    info.title = QStringLiteral("#%1 %2").arg(str(p, u"number"), issue.value(QStringLiteral("title")).toString());
    const QString titleLink = link(str(p, u"repository.html_url") + "/issues/"_L1 + str(p, u"number"), info.title);
    const Verb verb = verbFor(p, issue, link, true);
    if (!verb.words.isEmpty())
        info.text = QStringLiteral("[%1] Issue %2: %3").arg(repoLink(p, link), verb.words, titleLink);
    info.colour = verb.colour;
    info.text += by(p, link, withSender);
    if (action == "opened"_L1 || action == "edited"_L1)
        info.extra = issue.value(QStringLiteral("body")).toString();
    return info;
}

Info pullRequestInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    const QJsonObject pull = obj(p, u"pull_request");
    const QString action = str(p, u"action");
    Info info;
    info.title = QStringLiteral("#%1 %2").arg(str(p, u"number"), pull.value(QStringLiteral("title")).toString());
    // Gitea's pull "url" is its page; the html_url stands in where a payload lacks it.
    const QString url = str(pull, u"url").isEmpty() ? str(pull, u"html_url") : str(pull, u"url");
    const QString titleLink = link(url, info.title);
    QString words;
    info.colour = Colour::Yellow;
    if (action == "opened"_L1) {
        words = u"opened"_s;
        info.extra = str(pull, u"body");
        info.colour = Colour::Green;
    } else if (action == "closed"_L1) {
        const bool merged = pull.value(QStringLiteral("merged")).toBool();
        words = merged ? u"merged"_s : u"closed"_s;
        info.colour = merged ? Colour::Purple : Colour::Red;
    } else if (action == "edited"_L1) {
        words = u"edited"_s;
        info.extra = str(pull, u"body");
    } else if (action == "reviewed"_L1) {
        words = u"reviewed"_s;
        info.extra = str(p, u"review.content");
    } else if (action == "review_requested"_L1) {
        words = u"review requested"_s;
    } else if (action == "review_request_removed"_L1) {
        words = u"review request removed"_s;
    } else {
        const Verb verb = verbFor(p, pull, link, false);
        words = verb.words;
        info.colour = verb.colour;
    }
    if (!words.isEmpty())
        info.text = QStringLiteral("[%1] Pull request %2: %3").arg(repoLink(p, link), words, titleLink);
    info.text += by(p, link, withSender, false);
    return info;
}

Info issueCommentInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    const bool pull = p.value(QStringLiteral("is_pull")).toBool();
    Info info;
    info.title = QStringLiteral("#%1 %2").arg(str(p, u"issue.number"), str(p, u"issue.title"));
    QString url = str(p, pull ? u"comment.pull_request_url" : u"comment.issue_url");
    if (url.isEmpty())
        url = str(p, u"issue.html_url");
    const QString titleLink = link(url, info.title);
    const QString what = pull ? u"pull request"_s : u"issue"_s;
    const QString action = str(p, u"action");
    info.colour = Colour::Yellow;
    if (action == "created"_L1) {
        info.text = QStringLiteral("[%1] New comment on %2 %3").arg(repoLink(p, link), what, titleLink);
        info.colour = pull ? Colour::GreenLight : Colour::OrangeLight;
    } else if (action == "edited"_L1) {
        info.text = QStringLiteral("[%1] Comment edited on %2 %3").arg(repoLink(p, link), what, titleLink);
    } else if (action == "deleted"_L1) {
        info.text = QStringLiteral("[%1] Comment deleted on %2 %3").arg(repoLink(p, link), what, titleLink);
        info.colour = Colour::Red;
    }
    info.text += by(p, link, withSender);
    return info;
}

Info releaseInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    const QString tag = str(p, u"release.tag_name");
    const QString refLink = link(str(p, u"repository.html_url") + "/releases/tag/"_L1 + pathEscapedSegments(tag), tag);
    const QString action = str(p, u"action");
    Info info;
    info.colour = 0; // general.go leaves it unset for an action it has no case for
    const auto sentence = [&](QLatin1StringView verb, int colour) {
        info.text = QStringLiteral("[%1] Release %2: %3").arg(repoLink(p, link), verb, refLink);
        info.colour = colour;
    };
    if (action == "published"_L1)
        sentence("created"_L1, Colour::Green);
    else if (action == "updated"_L1)
        sentence("updated"_L1, Colour::Yellow);
    else if (action == "deleted"_L1)
        sentence("deleted"_L1, Colour::Red);
    info.text += by(p, link, withSender);
    return info;
}

Info wikiInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    const QString page = str(p, u"page");
    const QString action = str(p, u"action");
    Info info;
    info.extra = link(str(p, u"repository.html_url") + "/wiki/"_L1 + pathEscaped(page), page);
    info.colour = Colour::Green;
    if (action == "created"_L1) {
        info.text = QStringLiteral("[%1] New wiki page '%2'").arg(repoLink(p, link), info.extra);
    } else if (action == "edited"_L1) {
        info.text = QStringLiteral("[%1] Wiki page '%2' edited").arg(repoLink(p, link), info.extra);
        info.colour = Colour::Yellow;
    } else if (action == "deleted"_L1) {
        info.text = QStringLiteral("[%1] Wiki page '%2' deleted").arg(repoLink(p, link), info.extra);
        info.colour = Colour::Red;
    }
    if (action != "deleted"_L1 && !str(p, u"comment").isEmpty())
        info.text += QStringLiteral(" (%1)").arg(str(p, u"comment"));
    info.text += by(p, link, withSender);
    return info;
}

Info packageInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    const QString refLink = link(str(p, u"package.html_url"), str(p, u"package.name") + u':' + str(p, u"package.version"));
    const QString action = str(p, u"action");
    Info info;
    info.colour = 0;
    if (action == "created"_L1) {
        info.text = "Package created: "_L1 + refLink;
        info.colour = Colour::Green;
    } else if (action == "deleted"_L1) {
        info.text = "Package deleted: "_L1 + refLink;
        info.colour = Colour::Red;
    }
    info.text += by(p, link, withSender);
    return info;
}

Info statusInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    const QString refLink = link(str(p, u"target_url"), QStringLiteral("%1 [%2]").arg(str(p, u"context"), shortSha(str(p, u"sha"))));
    Info info;
    info.text = QStringLiteral("Commit Status changed: %1 - %2").arg(refLink, str(p, u"description"));
    info.colour = Colour::Green;
    if (withSender) {
        // Gitea's system users (the ghost, gitea-actions) have no page: their full name, unlinked.
        const QString login = str(p, u"sender.login");
        if (login.compare("ghost"_L1, Qt::CaseInsensitive) == 0 || login.compare("gitea-actions"_L1, Qt::CaseInsensitive) == 0)
            info.text += " by "_L1 + str(p, u"sender.full_name");
        else
            info.text += by(p, link, true);
    }
    return info;
}

namespace {

// The run's and the job's colour by their conclusion (else status); the job has no "pending".
int workflowColour(const QString &description, bool run)
{
    if (description == "waiting"_L1 || (run && description == "pending"_L1))
        return Colour::Orange;
    if (description == "queued"_L1)
        return Colour::OrangeLight;
    if (description == "success"_L1)
        return Colour::Green;
    if (description == "failure"_L1)
        return Colour::Red;
    if (description == "cancelled"_L1)
        return Colour::Yellow;
    if (description == "skipped"_L1)
        return Colour::Purple;
    return Colour::Grey;
}

Info workflowInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender, bool run)
{
    const QJsonObject o = obj(p, run ? u"workflow_run" : u"workflow_job");
    QString description = str(o, u"conclusion");
    if (description.isEmpty())
        description = str(o, u"status");
    const QString label = run ? QStringLiteral("%1(#%2)").arg(str(o, u"display_title"), str(o, u"id"))
                              : QStringLiteral("%1(#%2)").arg(str(o, u"name"), str(o, u"run_id"));
    const QString refLink = link(str(o, u"html_url"), label + u'[' + shortSha(str(o, u"head_sha")) + "]:"_L1 + description);
    Info info;
    info.text = QStringLiteral("Workflow %1 %2: %3").arg(run ? u"Run"_s : u"Job"_s, str(p, u"action"), refLink);
    info.colour = workflowColour(description, run);
    info.text += by(p, link, withSender);
    return info;
}

} // namespace

Info workflowRunInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    return workflowInfo(p, link, withSender, true);
}

Info workflowJobInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    return workflowInfo(p, link, withSender, false);
}

Info sharedInfo(Shape shape, const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    switch (shape) {
        case Shape::Issue: return issuesInfo(p, link, withSender);
        case Shape::PullRequest: return pullRequestInfo(p, link, withSender);
        case Shape::IssueComment: return issueCommentInfo(p, link, withSender);
        case Shape::Release: return releaseInfo(p, link, withSender);
        case Shape::Wiki: return wikiInfo(p, link, withSender);
        case Shape::Package: return packageInfo(p, link, withSender);
        case Shape::Status: return statusInfo(p, link, withSender);
        case Shape::WorkflowRun: return workflowRunInfo(p, link, withSender);
        case Shape::WorkflowJob: return workflowJobInfo(p, link, withSender);
        default: return {};
    }
}

namespace {

// What getIssuesInfo and getPullRequestInfo share: the operation line for assigned,
// unassigned and milestoned, and the assignee list.
void fillOperation(Operation &op, const QJsonObject &p, const QJsonObject &item, const QString &action)
{
    const QString sender = str(p, u"sender.login");
    const QStringList names = logins(item);
    if (action == "assigned"_L1 && !names.isEmpty())
        op.result = QStringLiteral("%1 assign this to %2").arg(sender, names.last());
    else if (action == "unassigned"_L1)
        op.result = sender + " unassigned this for someone"_L1;
    else if (action == "milestoned"_L1)
        op.result = str(p, u"repository.html_url") + "/milestone/"_L1 + str(item, u"milestone.id");
    op.link = str(item, u"html_url");
    if (!names.isEmpty())
        op.assignees = "Assignees: "_L1 + names.join(", "_L1);
    op.operatorLine = "Operator: "_L1 + sender;
}

} // namespace

Operation issuesOperation(const QJsonObject &p)
{
    const QJsonObject issue = obj(p, u"issue");
    const QString action = str(p, u"action");
    Operation op;
    op.title = QStringLiteral("[Issue-%1 #%2]: %3\n%4").arg(str(p, u"repository.full_name"), str(issue, u"number"), action, str(issue, u"title"));
    fillOperation(op, p, issue, action);
    op.by = "Issue by "_L1 + str(issue, u"user.login");
    return op;
}

Operation pullRequestOperation(const QJsonObject &p)
{
    const QJsonObject pull = obj(p, u"pull_request");
    const QString action = pull.value(QStringLiteral("merged")).toBool() ? u"merged"_s : str(p, u"action");
    Operation op;
    op.title = QStringLiteral("[PullRequest-%1 #%2]: %3\n%4").arg(str(p, u"repository.full_name"), str(pull, u"number"), action, str(pull, u"title"));
    fillOperation(op, p, pull, action);
    op.by = "PullRequest by "_L1 + str(pull, u"user.login");
    return op;
}

Operation commentOperation(const QJsonObject &p)
{
    const QJsonObject issue = obj(p, u"issue");
    Operation op;
    op.title = QStringLiteral("[Comment-%1 #%2]: %3\n%4").arg(str(p, u"repository.full_name"), str(issue, u"number"), str(p, u"action"), str(issue, u"title"));
    op.link = str(issue, u"html_url");
    op.by = (p.value(QStringLiteral("is_pull")).toBool() ? "PullRequest by "_L1 : "Issue by "_L1) + str(issue, u"user.login");
    op.operatorLine = "Operator: "_L1 + str(p, u"sender.login");
    return op;
}

} // namespace Switchyard::Webhook::Channels
