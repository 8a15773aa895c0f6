// Slack's incoming webhooks, as Gitea's services/webhook/slack.go (slackConvertor) builds them:
// {channel, text, username, icon_url, unfurl_links, link_names, attachments}. Links are
// <url|text>; &, < and > are escaped as Slack's message format asks. The hook's meta carries
// channel (required), username, icon_url and color (the push attachment's colour, as Gitea: the
// other attachments take the event's colour as bare hex).

#include "channels.h"
#include "summary.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

// SlackTextFormatter.
QString escaped(const QString &text)
{
    QString out = text;
    out.replace(u'&', "&amp;"_L1).replace(u'<', "&lt;"_L1).replace(u'>', "&gt;"_L1);
    return out;
}

// SlackShortTextFormatter: the first line, escaped.
QString shortEscaped(const QString &text)
{
    return escaped(text.section(u'\n', 0, 0));
}

QString slackLink(const QString &url, const QString &text)
{
    return QStringLiteral("<%1|%2>").arg(url, escaped(text));
}

QJsonObject attachment(const QString &colour, const QString &title, const QString &titleLink, const QString &text)
{
    return {{u"fallback"_s, QString()}, {u"color"_s, colour}, {u"title"_s, title}, {u"title_link"_s, titleLink}, {u"text"_s, text}};
}

QString pushText(const QJsonObject &p, QJsonArray &attachments, const QString &metaColour)
{
    const QString repoUrl = str(p, u"repository.html_url");
    const QString compare = str(p, u"compare_url");
    const QString desc = commitDescription(p);
    const QString commitString = compare.isEmpty() ? desc : slackLink(compare, desc);
    const QString text = QStringLiteral("[%1:%2] %3 pushed by %4")
                             .arg(slackLink(repoUrl, str(p, u"repository.full_name")), slackLink(refUrl(repoUrl, str(p, u"ref")), shortRef(str(p, u"ref"))),
                                  commitString, str(p, u"pusher.login"));
    QStringList lines;
    for (const PushCommit &c : pushCommits(p))
        lines << QStringLiteral("%1: %2 - %3").arg(slackLink(c.url, idPrefix(c.id)), shortEscaped(c.message), escaped(c.author));
    attachments.append(attachment(metaColour, repoUrl, repoUrl, lines.join(u'\n')));
    return text;
}

// Create, Delete, Fork, Review and Repository: slack.go's own sentences.
Result<QString> ownText(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repoUrl = str(p, u"repository.html_url");
    const QString repoLink = slackLink(repoUrl, str(p, u"repository.full_name"));
    const QString sender = str(p, u"sender.login");
    const QString ref = str(p, u"ref");
    switch (shape) {
        case Shape::Create:
            return QStringLiteral("[%1:%2] %3 created by %4").arg(repoLink, slackLink(refUrl(repoUrl, ref), shortRef(ref)), str(p, u"ref_type"), sender);
        case Shape::Delete: return QStringLiteral("[%1:%2] %3 deleted by %4").arg(repoLink, shortRef(ref), str(p, u"ref_type"), sender);
        case Shape::Fork:
            return QStringLiteral("%1 is forked to %2").arg(slackLink(str(p, u"forkee.html_url"), str(p, u"forkee.full_name")), repoLink);
        case Shape::Review: {
            if (str(p, u"action") != "reviewed"_L1)
                return QString();
            Result<QString> action = reviewAction(event);
            if (!action)
                return action.status();
            // The title is a markdown link in Slack's text, as slack.go writes it.
            return QStringLiteral("[%1] Pull request review %2: [#%3 %4](%5/pulls/%3) by %6")
                .arg(repoLink, *action, str(p, u"number"), str(p, u"pull_request.title"), repoUrl, slackLink(userUrl(p, sender, false), sender));
        }
        case Shape::Repository: {
            const QString action = str(p, u"action");
            const QString verb = action == "created"_L1 ? u"created"_s : action == "deleted"_L1 ? u"deleted"_s : QString();
            if (verb.isEmpty())
                return QString();
            return QStringLiteral("[%1] Repository %2 by %3").arg(repoLink, verb, slackLink(userUrl(p, sender, false), sender));
        }
        default: return QString();
    }
}

} // namespace

Result<Message> slack(HookEventType event, const QJsonObject &p, const QJsonObject &meta)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    QString text;
    QJsonArray attachments;
    switch (*shape) {
        case Shape::Push: text = pushText(p, attachments, meta.value(u"color"_s).toString()); break;
        case Shape::Issue:
        case Shape::PullRequest: {
            const bool pull = *shape == Shape::PullRequest;
            const Info info = sharedInfo(*shape, p, slackLink, true);
            text = info.text;
            // slack.go's pull attachment shows the pull's body, whatever the extra text was.
            if (!info.extra.isEmpty())
                attachments.append(attachment(hexColour(info.colour), escaped(info.title), str(p, pull ? u"pull_request.html_url" : u"issue.html_url"),
                                              escaped(pull ? str(p, u"pull_request.body") : info.extra)));
            break;
        }
        case Shape::IssueComment: {
            const Info info = issueCommentInfo(p, slackLink, true);
            text = info.text;
            attachments.append(attachment(hexColour(info.colour), info.title, str(p, u"comment.html_url"), escaped(str(p, u"comment.body"))));
            break;
        }
        case Shape::Release:
        case Shape::Wiki:
        case Shape::Package:
        case Shape::Status:
        case Shape::WorkflowRun:
        case Shape::WorkflowJob: text = sharedInfo(*shape, p, slackLink, true).text; break;
        default: {
            Result<QString> own = ownText(*shape, event, p);
            if (!own)
                return own.status();
            text = *own;
        }
    }
    QJsonObject body{{u"channel"_s, meta.value(u"channel"_s).toString().trimmed()},
                     {u"text"_s, text},
                     {u"username"_s, meta.value(u"username"_s).toString()},
                     {u"icon_url"_s, meta.value(u"icon_url"_s).toString()},
                     {u"unfurl_links"_s, 0},
                     {u"link_names"_s, 0},
                     {u"attachments"_s, attachments.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(attachments)}};
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
