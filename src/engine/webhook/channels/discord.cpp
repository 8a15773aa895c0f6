// Discord's webhooks, as Gitea's services/webhook/discord.go (discordConvertor) builds them:
// {wait, content, username, avatar_url?, tts, embeds: [{title, description, url, color, footer,
// author: {name, url, icon_url}, fields}]}. The title is the plain sentence (Discord links it to
// url); the description is markdown. The hook's meta carries username and icon_url (the avatar).
// Unlike Gitea, the title is cut at Discord's 256 characters and the description at 4 096 (Discord
// refuses a longer embed with 400, so Gitea's delivery would fail).

#include "channels.h"
#include "summary.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

struct Embed
{
    QString title, description, url;
    int colour = 0;
};

QString truncatedTo(const QString &text, qsizetype max)
{
    return text.size() <= max ? text : text.left(max - 1) + QChar(0x2026);
}

Embed pushEmbed(const QJsonObject &p)
{
    QStringList lines;
    for (const PushCommit &c : pushCommits(p)) {
        // The summary line only, cut at 50 characters as GitHub does.
        QString message = c.message.section(u'\n', 0, 0);
        while (message.endsWith(u'\r'))
            message.chop(1);
        if (message.size() > 50)
            message = message.left(47) + "..."_L1;
        lines << QStringLiteral("[%1](%2) %3 - %4").arg(idPrefix(c.id), c.url, message, c.author);
    }
    return {QStringLiteral("[%1:%2] %3").arg(str(p, u"repository.full_name"), shortRef(str(p, u"ref")), commitDescription(p)), lines.join(u'\n'),
            pushTitleLink(p), Colour::Green};
}

Result<Embed> reviewEmbed(HookEventType event, const QJsonObject &p)
{
    Embed e{{}, {}, str(p, u"pull_request.html_url"), 0};
    if (str(p, u"action") != "reviewed"_L1)
        return e;
    Result<QString> action = reviewAction(event);
    if (!action)
        return action.status();
    e.title = reviewTitle(p, *action);
    e.description = str(p, u"review.content");
    e.colour = reviewColour(event);
    return e;
}

Result<Embed> embedFor(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repo = str(p, u"repository.full_name");
    const QString repoUrl = str(p, u"repository.html_url");
    const QString ref = shortRef(str(p, u"ref"));
    switch (shape) {
        case Shape::Create:
        case Shape::Delete: {
            const bool created = shape == Shape::Create;
            return Embed{QStringLiteral("[%1] %2 %3 %4").arg(repo, str(p, u"ref_type"), ref, created ? u"created"_s : u"deleted"_s), {},
                         repoUrl + "/src/"_L1 + pathEscapedSegments(ref), created ? Colour::Green : Colour::Red};
        }
        case Shape::Fork: return Embed{QStringLiteral("%1 is forked to %2").arg(str(p, u"forkee.full_name"), repo), {}, repoUrl, Colour::Green};
        case Shape::Push: return pushEmbed(p);
        case Shape::Issue: {
            const Info i = issuesInfo(p, noneLink, false);
            return Embed{i.text, i.extra, str(p, u"issue.html_url"), i.colour};
        }
        case Shape::IssueComment: {
            const Info i = issueCommentInfo(p, noneLink, false);
            return Embed{i.text, str(p, u"comment.body"), str(p, u"comment.html_url"), i.colour};
        }
        case Shape::PullRequest: {
            const Info i = pullRequestInfo(p, noneLink, false);
            return Embed{i.text, i.extra, str(p, u"pull_request.html_url"), i.colour};
        }
        case Shape::Review: return reviewEmbed(event, p);
        case Shape::Repository: {
            const QString action = str(p, u"action");
            if (action == "created"_L1)
                return Embed{QStringLiteral("[%1] Repository created").arg(repo), {}, repoUrl, Colour::Green};
            if (action == "deleted"_L1)
                return Embed{QStringLiteral("[%1] Repository deleted").arg(repo), {}, {}, Colour::Red};
            return Embed{};
        }
        case Shape::Wiki: {
            const Info i = wikiInfo(p, noneLink, false);
            return Embed{i.text, str(p, u"action") != "deleted"_L1 ? str(p, u"comment") : QString(), repoUrl + "/wiki/"_L1 + pathEscaped(str(p, u"page")), i.colour};
        }
        case Shape::Release: {
            const Info i = releaseInfo(p, noneLink, false);
            return Embed{i.text, str(p, u"release.body"), str(p, u"release.html_url"), i.colour};
        }
        case Shape::Package: {
            const Info i = packageInfo(p, noneLink, false);
            return Embed{i.text, {}, str(p, u"package.html_url"), i.colour};
        }
        case Shape::Status: {
            const Info i = statusInfo(p, noneLink, false);
            return Embed{i.text, {}, str(p, u"target_url"), i.colour};
        }
        case Shape::WorkflowRun:
        case Shape::WorkflowJob: {
            const Info i = sharedInfo(shape, p, noneLink, false);
            return Embed{i.text, {}, str(p, shape == Shape::WorkflowRun ? u"workflow_run.html_url" : u"workflow_job.html_url"), i.colour};
        }
    }
    return Embed{};
}

} // namespace

Result<Message> discord(HookEventType event, const QJsonObject &p, const QJsonObject &meta)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    Result<Embed> e = embedFor(*shape, event, p);
    if (!e)
        return e.status();
    const QString login = str(p, u"sender.login");
    const QJsonObject embed{{u"title"_s, truncatedTo(e->title, 256)},
                            {u"description"_s, truncatedTo(e->description, 4096)},
                            {u"url"_s, e->url},
                            {u"color"_s, e->colour},
                            {u"footer"_s, QJsonObject{{u"text"_s, QString()}}},
                            {u"author"_s, QJsonObject{{u"name"_s, login}, {u"url"_s, userUrl(p, login, false)}, {u"icon_url"_s, str(p, u"sender.avatar_url")}}},
                            {u"fields"_s, QJsonValue::Null}};
    QJsonObject body{{u"wait"_s, false},
                     {u"content"_s, QString()},
                     {u"username"_s, meta.value(u"username"_s).toString()},
                     {u"tts"_s, false},
                     {u"embeds"_s, QJsonArray{embed}}};
    if (!meta.value(u"icon_url"_s).toString().isEmpty())
        body.insert(u"avatar_url"_s, meta.value(u"icon_url"_s).toString());
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
