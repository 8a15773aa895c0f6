// Microsoft Teams' incoming webhooks, as Gitea's services/webhook/msteams.go (msteamsConvertor)
// builds them: a legacy MessageCard {@type, @context, themeColor, title, summary, sections:
// [{activityTitle (the sender's full name), activitySubtitle (login), activityImage, facts, text}],
// potentialAction: [OpenUri "View in Gitea"]}. The facts are "Repository:" and one per event
// (createMSTeamsPayload); an issue's and a pull's fact is its id, as Gitea shows it.

#include "channels.h"
#include "summary.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

struct Card
{
    QString title, text, target;
    int colour = 0;
    QString factName, factValue; // empty name: no second fact
};

Card pushCard(const QJsonObject &p)
{
    QStringList lines;
    for (const PushCommit &c : pushCommits(p)) {
        QString message = c.message;
        while (message.endsWith(u'\n') || message.endsWith(u'\r'))
            message.chop(1);
        lines << QStringLiteral("[%1](%2) %3 - %4").arg(idPrefix(c.id), c.url, message, c.author);
    }
    return {QStringLiteral("[%1:%2] %3").arg(str(p, u"repository.full_name"), shortRef(str(p, u"ref")), commitDescription(p)), lines.join("\n\n"_L1),
            pushTitleLink(p), Colour::Green, u"Commit count:"_s, str(p, u"total_commits")};
}

Result<Card> reviewCard(HookEventType event, const QJsonObject &p)
{
    Card c{{}, {}, str(p, u"pull_request.html_url"), 0, u"Pull request #:"_s, str(p, u"pull_request.id")};
    if (str(p, u"action") != "reviewed"_L1)
        return c;
    Result<QString> action = reviewAction(event);
    if (!action)
        return action.status();
    c.title = reviewTitle(p, *action);
    c.text = str(p, u"review.content");
    c.colour = reviewColour(event);
    return c;
}

Result<Card> cardFor(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repo = str(p, u"repository.full_name");
    const QString repoUrl = str(p, u"repository.html_url");
    const QString ref = shortRef(str(p, u"ref"));
    switch (shape) {
        case Shape::Create:
        case Shape::Delete: {
            const bool created = shape == Shape::Create;
            return Card{QStringLiteral("[%1] %2 %3 %4").arg(repo, str(p, u"ref_type"), ref, created ? u"created"_s : u"deleted"_s), {},
                        repoUrl + "/src/"_L1 + pathEscapedSegments(ref), created ? Colour::Green : Colour::Yellow, str(p, u"ref_type") + u':', ref};
        }
        case Shape::Fork:
            return Card{QStringLiteral("%1 is forked to %2").arg(str(p, u"forkee.full_name"), repo), {}, repoUrl, Colour::Green, u"Forkee:"_s, str(p, u"forkee.full_name")};
        case Shape::Push: return pushCard(p);
        case Shape::Issue: {
            const Info i = issuesInfo(p, noneLink, false);
            return Card{i.text, i.extra, str(p, u"issue.html_url"), i.colour, u"Issue #:"_s, str(p, u"issue.id")};
        }
        case Shape::IssueComment: {
            const Info i = issueCommentInfo(p, noneLink, false);
            return Card{i.text, str(p, u"comment.body"), str(p, u"comment.html_url"), i.colour, u"Issue #:"_s, str(p, u"issue.id")};
        }
        case Shape::PullRequest: {
            const Info i = pullRequestInfo(p, noneLink, false);
            return Card{i.text, i.extra, str(p, u"pull_request.html_url"), i.colour, u"Pull request #:"_s, str(p, u"pull_request.id")};
        }
        case Shape::Review: return reviewCard(event, p);
        case Shape::Repository: {
            const QString action = str(p, u"action");
            if (action == "created"_L1)
                return Card{QStringLiteral("[%1] Repository created").arg(repo), {}, repoUrl, Colour::Green, {}, {}};
            if (action == "deleted"_L1)
                return Card{QStringLiteral("[%1] Repository deleted").arg(repo), {}, {}, Colour::Yellow, {}, {}};
            return Card{};
        }
        case Shape::Wiki: {
            const Info i = wikiInfo(p, noneLink, false);
            return Card{i.text, {}, repoUrl + "/wiki/"_L1 + pathEscaped(str(p, u"page")), i.colour, u"Repository:"_s, repo};
        }
        case Shape::Release: {
            const Info i = releaseInfo(p, noneLink, false);
            return Card{i.text, {}, str(p, u"release.html_url"), i.colour, u"Tag:"_s, str(p, u"release.tag_name")};
        }
        case Shape::Package: {
            const Info i = packageInfo(p, noneLink, false);
            return Card{i.text, {}, str(p, u"package.html_url"), i.colour, u"Package:"_s, str(p, u"package.name")};
        }
        case Shape::Status: {
            const Info i = statusInfo(p, noneLink, false);
            return Card{i.text, {}, str(p, u"target_url"), i.colour, u"CommitStatus:"_s, str(p, u"context")};
        }
        case Shape::WorkflowRun: {
            // As WorkflowJob (read in Gitea's msteams.go); the run's fact is its display title.
            const Info i = workflowRunInfo(p, noneLink, false);
            return Card{i.text, {}, str(p, u"workflow_run.html_url"), i.colour, u"WorkflowRun:"_s, str(p, u"workflow_run.display_title")};
        }
        case Shape::WorkflowJob: {
            const Info i = workflowJobInfo(p, noneLink, false);
            return Card{i.text, {}, str(p, u"workflow_job.html_url"), i.colour, u"WorkflowJob:"_s, str(p, u"workflow_job.name")};
        }
    }
    return Card{};
}

} // namespace

Result<Message> msteams(HookEventType event, const QJsonObject &p, const QJsonObject &)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    Result<Card> c = cardFor(*shape, event, p);
    if (!c)
        return c.status();
    QJsonArray facts;
    if (p.value(u"repository"_s).isObject())
        facts.append(QJsonObject{{u"name"_s, u"Repository:"_s}, {u"value"_s, str(p, u"repository.full_name")}});
    if (!c->factName.isEmpty())
        facts.append(QJsonObject{{u"name"_s, c->factName}, {u"value"_s, c->factValue}});
    const QJsonObject section{{u"activityTitle"_s, str(p, u"sender.full_name")},
                              {u"activitySubtitle"_s, str(p, u"sender.login")},
                              {u"activityImage"_s, str(p, u"sender.avatar_url")},
                              {u"facts"_s, facts},
                              {u"text"_s, c->text}};
    const QJsonObject action{{u"@type"_s, u"OpenUri"_s},
                             {u"name"_s, u"View in Gitea"_s},
                             {u"targets"_s, QJsonArray{QJsonObject{{u"os"_s, u"default"_s}, {u"uri"_s, c->target}}}}};
    const QJsonObject body{{u"@type"_s, u"MessageCard"_s},
                           {u"@context"_s, u"https://schema.org/extensions"_s},
                           {u"themeColor"_s, hexColour(c->colour)},
                           {u"title"_s, c->title},
                           {u"summary"_s, c->title},
                           {u"sections"_s, QJsonArray{section}},
                           {u"potentialAction"_s, QJsonArray{action}}};
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
