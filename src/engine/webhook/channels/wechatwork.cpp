// WeCom (WeChat Work) group robots, as Gitea's services/webhook/wechatwork.go
// (wechatworkConvertor) builds them: {msgtype: markdown, text: {content, mentioned_list,
// mentioned_mobile_list} (unused, sent empty as Gitea does), markdown: {content}} with WeCom's
// <font color="info|comment|warning"> markup. As in Gitea, a push's heading carries no commit
// count (wechatwork.go never fills it in). Unlike Gitea, content over WeCom's 4 096 bytes is cut
// to fit (WeCom refuses it whole).

#include "channels.h"
#include "summary.h"

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

QString pushContent(const QJsonObject &p)
{
    const QString title = QStringLiteral("# %1:%2 <font color=\"warning\">    </font>").arg(str(p, u"repository.full_name"), shortRef(str(p, u"ref")));
    QStringList lines;
    for (const PushCommit &c : pushCommits(p)) {
        const QString author = c.hasAuthor ? "Author: "_L1 + c.author : QString();
        const QString message = QString(c.message).replace("\n\n"_L1, "\r\n"_L1);
        lines << QStringLiteral(" > [%1](%2) \r\n ><font color=\"info\">%3</font> \n ><font color=\"warning\">%4</font>").arg(idPrefix(c.id), c.url, message, author);
    }
    return title + "\r\n\r\n"_L1 + lines.join(u'\n');
}

Result<QString> contentFor(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repo = str(p, u"repository.full_name");
    const QString ref = shortRef(str(p, u"ref"));
    switch (shape) {
        case Shape::Create: return QStringLiteral("[%1] %2 %3 created").arg(repo, str(p, u"ref_type"), ref);
        case Shape::Delete: return QStringLiteral("[%1] %2 %3 deleted").arg(repo, str(p, u"ref_type"), ref);
        case Shape::Fork: return QStringLiteral("%1 is forked to %2").arg(str(p, u"forkee.full_name"), repo);
        case Shape::Push: return pushContent(p);
        case Shape::Issue: {
            const Info i = issuesInfo(p, noneLink, true);
            const QString url = str(p, u"issue.html_url");
            return QStringLiteral(" ><font color=\"info\">%1</font>\n >%2 \n ><font color=\"warning\"> %3</font> \n [%4](%4)").arg(i.text, i.extra, i.title, url);
        }
        case Shape::IssueComment: {
            const Info i = issueCommentInfo(p, noneLink, true);
            const QString url = str(p, u"comment.html_url");
            return QStringLiteral(" ><font color=\"info\">%1</font>\n >%2 \n ><font color=\"warning\">%3</font> \n [%4](%4)").arg(i.text, str(p, u"comment.body"), i.title, url);
        }
        case Shape::PullRequest: {
            const Info i = pullRequestInfo(p, noneLink, true);
            return QStringLiteral("> <font color=\"info\"> %1 </font> \r\n > <font color=\"comment\">%2 </font> \r\n > <font color=\"comment\">%3 </font> \r\n")
                .arg(i.text, i.title, i.extra);
        }
        case Shape::Review: {
            QString title, content;
            if (str(p, u"action") == "reviewed"_L1) {
                Result<QString> action = reviewAction(event);
                if (!action)
                    return action.status();
                title = QStringLiteral("[%1] Pull request review %2 : #%3 %4").arg(repo, *action, str(p, u"number"), str(p, u"pull_request.title"));
                content = str(p, u"review.content");
            }
            return "# "_L1 + title + "\r\n\r\n >"_L1 + content;
        }
        case Shape::Repository: {
            const QString action = str(p, u"action");
            return action == "created"_L1 || action == "deleted"_L1 ? QStringLiteral("[%1] Repository %2").arg(repo, action) : QString();
        }
        default: return sharedInfo(shape, p, noneLink, true).text;
    }
}

} // namespace

Result<Message> wechatwork(HookEventType event, const QJsonObject &p, const QJsonObject &)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    Result<QString> content = contentFor(*shape, event, p);
    if (!content)
        return content.status();
    // 4 096 bytes of UTF-8, not characters: cut characters until it fits.
    QString cut = *content;
    while (cut.toUtf8().size() > 4096)
        cut = cut.left(cut.size() - qMax<qsizetype>(64, (cut.toUtf8().size() - 4096) / 3) - 1) + QChar(0x2026);
    const bool empty = *shape == Shape::Repository && content->isEmpty(); // Gitea's empty payload
    const QJsonObject text{{u"content"_s, QString()}, {u"mentioned_list"_s, QJsonValue::Null}, {u"mentioned_mobile_list"_s, QJsonValue::Null}};
    return Message{QJsonObject{{u"msgtype"_s, empty ? QString() : u"markdown"_s}, {u"text"_s, text}, {u"markdown"_s, QJsonObject{{u"content"_s, cut}}}}, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
