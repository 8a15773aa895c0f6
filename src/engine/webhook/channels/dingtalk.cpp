// DingTalk's robot webhooks, as Gitea's services/webhook/dingtalk.go (dingtalkConvertor) builds
// them: an actionCard {title, text (markdown), hideAvatar, singleTitle, singleURL} with one button,
// whose URL opens the page in the browser (dingtalk://dingtalkclient/page/link?…&url=<escaped>);
// a deleted repository is a plain text message, as in Gitea. DingTalk's signing (a timestamp and
// sign in the URL) is the URL the operator pastes.

#include "channels.h"
#include "summary.h"

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

struct Card
{
    QString title, text, singleTitle, singleUrl;
};

QJsonObject actionCard(const Card &c)
{
    const QJsonObject card{{u"title"_s, c.title.trimmed()},
                           {u"text"_s, c.text.trimmed()},
                           {u"hideAvatar"_s, u"0"_s},
                           {u"singleTitle"_s, c.singleTitle},
                           {u"singleURL"_s, "dingtalk://dingtalkclient/page/link?pc_slide=false&url="_L1 + queryEscaped(c.singleUrl)}};
    return {{u"msgtype"_s, u"actionCard"_s}, {u"actionCard"_s, card}};
}

Card pushCard(const QJsonObject &p)
{
    const bool one = p.value(u"total_commits"_s).toInteger() == 1;
    QStringList lines;
    for (const PushCommit &c : pushCommits(p)) {
        QString message = c.message;
        while (message.endsWith(u'\n') || message.endsWith(u'\r'))
            message.chop(1);
        lines << QStringLiteral("[%1](%2) %3").arg(idPrefix(c.id), c.url, message) + (c.hasAuthor ? " - "_L1 + c.author : QString());
    }
    const QString title = QStringLiteral("[%1:%2] %3").arg(str(p, u"repository.full_name"), shortRef(str(p, u"ref")), commitDescription(p));
    return {title, lines.join("\r\n"_L1), one ? u"view commit"_s : u"view commits"_s, pushTitleLink(p)};
}

Result<Card> reviewCard(HookEventType event, const QJsonObject &p)
{
    QString title, content;
    if (str(p, u"action") == "reviewed"_L1) {
        Result<QString> action = reviewAction(event);
        if (!action)
            return action.status();
        title = QStringLiteral("[%1] Pull request review %2 : #%3 %4").arg(str(p, u"repository.full_name"), *action, str(p, u"number"), str(p, u"pull_request.title"));
        content = str(p, u"review.content");
    }
    return Card{title, title + "\r\n\r\n"_L1 + content, u"view pull request"_s, str(p, u"pull_request.html_url")};
}

Result<Card> cardFor(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repo = str(p, u"repository.full_name");
    const QString repoUrl = str(p, u"repository.html_url");
    const QString ref = shortRef(str(p, u"ref"));
    const auto same = [](const QString &text, const QString &button, const QString &url) { return Card{text, text, button, url}; };
    switch (shape) {
        case Shape::Create:
        case Shape::Delete: {
            const QString title = QStringLiteral("[%1] %2 %3 %4").arg(repo, str(p, u"ref_type"), ref, shape == Shape::Create ? u"created"_s : u"deleted"_s);
            return same(title, "view ref "_L1 + ref, repoUrl + "/src/"_L1 + pathEscapedSegments(ref));
        }
        case Shape::Fork: return same(QStringLiteral("%1 is forked to %2").arg(str(p, u"forkee.full_name"), repo), "view forked repo "_L1 + repo, repoUrl);
        case Shape::Push: return pushCard(p);
        case Shape::Issue: {
            const Info i = issuesInfo(p, noneLink, true);
            return Card{i.title, i.text + "\r\n\r\n"_L1 + i.extra, u"view issue"_s, str(p, u"issue.html_url")};
        }
        case Shape::IssueComment: {
            const Info i = issueCommentInfo(p, noneLink, true);
            return Card{i.title, i.text + "\r\n\r\n"_L1 + str(p, u"comment.body"), u"view issue comment"_s, str(p, u"comment.html_url")};
        }
        case Shape::PullRequest: {
            const Info i = pullRequestInfo(p, noneLink, true);
            return Card{i.title, i.text + "\r\n\r\n"_L1 + i.extra, u"view pull request"_s, str(p, u"pull_request.html_url")};
        }
        case Shape::Review: return reviewCard(event, p);
        case Shape::Repository: return same(QStringLiteral("[%1] Repository created").arg(repo), u"view repository"_s, repoUrl);
        case Shape::Wiki: return same(wikiInfo(p, noneLink, true).text, u"view wiki"_s, repoUrl + "/wiki/"_L1 + pathEscaped(str(p, u"page")));
        case Shape::Release: return same(releaseInfo(p, noneLink, true).text, u"view release"_s, str(p, u"release.html_url"));
        case Shape::Package: return same(packageInfo(p, noneLink, true).text, u"view package"_s, str(p, u"package.html_url"));
        // Status and the workflow events: the button titles of Gitea main's dingtalk.go as we know
        // them ("Status Changed", "Workflow Run", "Workflow Job"); not checked against a stored copy.
        case Shape::Status: return same(statusInfo(p, noneLink, true).text, u"Status Changed"_s, str(p, u"target_url"));
        case Shape::WorkflowRun: return same(workflowRunInfo(p, noneLink, true).text, u"Workflow Run"_s, str(p, u"workflow_run.html_url"));
        case Shape::WorkflowJob: return same(workflowJobInfo(p, noneLink, true).text, u"Workflow Job"_s, str(p, u"workflow_job.html_url"));
    }
    return Card{};
}

} // namespace

Result<Message> dingtalk(HookEventType event, const QJsonObject &p, const QJsonObject &)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    if (*shape == Shape::Repository) {
        const QString action = str(p, u"action");
        if (action == "deleted"_L1) {
            const QString text = QStringLiteral("[%1] Repository deleted").arg(str(p, u"repository.full_name"));
            return Message{QJsonObject{{u"msgtype"_s, u"text"_s}, {u"text"_s, QJsonObject{{u"content"_s, text}}}}, {}, {}};
        }
        if (action != "created"_L1) // dingtalk.go returns an empty payload for other actions
            return Message{QJsonObject{{u"msgtype"_s, QString()}}, {}, {}};
    }
    Result<Card> card = cardFor(*shape, event, p);
    if (!card)
        return card.status();
    return Message{actionCard(*card), {}, {}};
}

} // namespace Switchyard::Webhook::Channels
