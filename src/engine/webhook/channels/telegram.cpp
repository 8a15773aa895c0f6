// Telegram's Bot API sendMessage, as Gitea's services/webhook/telegram.go (telegramConvertor)
// builds it: {text, parse_mode: HTML, disable_web_page_preview}. The text passes through Gitea's
// HTML sanitizer (markup.Sanitize), which we reproduce for the HTML these sentences contain: links
// gain rel="nofollow", other tags go, and text is re-escaped (' → &#39;). The bot token is in the
// hook's URL (https://api.telegram.org/bot<token>/sendMessage); beyond Gitea, meta may carry
// chat_id and thread_id, sent as chat_id and message_thread_id. Telegram cuts messages at 4 096
// characters; so do we.

#include "channels.h"
#include "summary.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

QString unescaped(QString text)
{
    text.replace("&lt;"_L1, "<"_L1).replace("&gt;"_L1, ">"_L1).replace("&#39;"_L1, "'"_L1).replace("&#34;"_L1, "\""_L1).replace("&quot;"_L1, "\""_L1);
    return text.replace("&amp;"_L1, "&"_L1);
}

// markup.Sanitize on Gitea-made HTML: keep <a href> (with rel="nofollow") and </a>, drop other
// tags, re-escape the text between them.
QString sanitized(const QString &html)
{
    static const QRegularExpression tag(QStringLiteral("<(/?)([a-zA-Z]+)([^>]*)>"));
    static const QRegularExpression href(QStringLiteral("href=\"([^\"]*)\""));
    QString out;
    qsizetype at = 0;
    for (QRegularExpressionMatchIterator it = tag.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += goHtmlEscaped(unescaped(html.mid(at, m.capturedStart() - at)));
        at = m.capturedEnd();
        if (m.captured(2).compare("a"_L1, Qt::CaseInsensitive) != 0)
            continue;
        if (!m.captured(1).isEmpty()) {
            out += "</a>"_L1;
            continue;
        }
        const QRegularExpressionMatch h = href.match(m.captured(3));
        out += QStringLiteral("<a href=\"%1\" rel=\"nofollow\">").arg(goHtmlEscaped(unescaped(h.captured(1))));
    }
    return out + goHtmlEscaped(unescaped(html.mid(at)));
}

QString pushHtml(const QJsonObject &p)
{
    QString text = QStringLiteral("[%1:%2] %3")
                       .arg(htmlLink(str(p, u"repository.html_url"), str(p, u"repository.full_name")), htmlLink(pushTitleLink(p), shortRef(str(p, u"ref"))),
                            goHtmlEscaped(commitDescription(p)));
    for (const PushCommit &c : pushCommits(p)) {
        QString message = c.message;
        while (message.endsWith(u'\n') || message.endsWith(u'\r'))
            message.chop(1);
        text += QStringLiteral("\n[%1] %2").arg(htmlLink(c.url, idPrefix(c.id)), goHtmlEscaped(message));
        if (c.hasAuthor)
            text += " - "_L1 + goHtmlEscaped(c.author);
    }
    return text;
}

Result<QString> reviewHtml(HookEventType event, const QJsonObject &p)
{
    QString text, content;
    if (str(p, u"action") == "reviewed"_L1) {
        Result<QString> action = reviewAction(event);
        if (!action)
            return action.status();
        text = QStringLiteral("[%1] Pull request review %2: #%3 %4")
                   .arg(goHtmlEscaped(str(p, u"repository.full_name")), goHtmlEscaped(*action), str(p, u"number"), goHtmlEscaped(str(p, u"pull_request.title")));
        content = str(p, u"review.content");
    }
    return text + u'\n' + goHtmlEscaped(content);
}

Result<QString> htmlFor(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repoUrl = str(p, u"repository.html_url");
    const QString repoLink = htmlLink(repoUrl, str(p, u"repository.full_name"));
    const QString ref = shortRef(str(p, u"ref"));
    switch (shape) {
        case Shape::Create:
        case Shape::Delete:
            return QStringLiteral("[%1] %2 %3 %4")
                .arg(repoLink, goHtmlEscaped(str(p, u"ref_type")), htmlLink(repoUrl + "/src/"_L1 + pathEscapedSegments(ref), ref),
                     shape == Shape::Create ? u"created"_s : u"deleted"_s);
        case Shape::Fork: return QStringLiteral("%1 is forked to %2").arg(goHtmlEscaped(str(p, u"forkee.full_name")), repoLink);
        case Shape::Push: return pushHtml(p);
        case Shape::Issue: {
            const Info i = issuesInfo(p, htmlLink, true);
            return i.text + "\n\n"_L1 + goHtmlEscaped(i.extra);
        }
        case Shape::IssueComment: return issueCommentInfo(p, htmlLink, true).text + u'\n' + goHtmlEscaped(str(p, u"comment.body"));
        case Shape::PullRequest: {
            const Info i = pullRequestInfo(p, htmlLink, true);
            return i.text + u'\n' + goHtmlEscaped(i.extra);
        }
        case Shape::Review: return reviewHtml(event, p);
        case Shape::Repository: {
            const QString action = str(p, u"action");
            if (action == "created"_L1)
                return QStringLiteral("[%1] Repository created").arg(repoLink);
            if (action == "deleted"_L1)
                return QStringLiteral("[%1] Repository deleted").arg(goHtmlEscaped(str(p, u"repository.full_name")));
            return QString();
        }
        default: return sharedInfo(shape, p, htmlLink, true).text;
    }
}

} // namespace

Result<Message> telegram(HookEventType event, const QJsonObject &p, const QJsonObject &meta)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    Result<QString> html = htmlFor(*shape, event, p);
    if (!html)
        return html.status();
    QString text = sanitized(*html).trimmed();
    if (text.size() > 4096)
        text = text.left(4095) + QChar(0x2026);
    QJsonObject body{{u"text"_s, text}, {u"parse_mode"_s, u"HTML"_s}, {u"disable_web_page_preview"_s, true}};
    const QJsonValue chat = meta.value(u"chat_id"_s);
    if ((chat.isString() && !chat.toString().isEmpty()) || chat.isDouble())
        body.insert(u"chat_id"_s, chat);
    const QJsonValue thread = meta.value(u"thread_id"_s);
    if ((thread.isString() && !thread.toString().isEmpty()) || thread.isDouble())
        body.insert(u"message_thread_id"_s, thread);
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
