// Feishu (Lark) custom bots, as Gitea's services/webhook/feishu.go (feishuConvertor) builds them:
// a text message {msg_type: text, content: {text}}, the text trimmed. Issues, pulls and comments
// are general.go's multi-line texts (getIssuesInfo …: "[Issue-o/r #1]: opened\nTitle", the link,
// who opened it, the operator, the assignees, the body). As in Gitea, a push's first line carries
// no commit count ("[o/r:main] ", feishu.go never fills it in).

#include "channels.h"
#include "summary.h"

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

// feishu.go's Issue and PullRequest layout of an Operation and the item's body.
QString operationText(const Operation &op, const QString &action, const QString &body)
{
    if (op.assignees.isEmpty())
        return QStringList{op.title, op.link, op.by, op.operatorLine}.join(u'\n') + "\n\n"_L1 + body;
    if (action == "assigned"_L1 || action == "unassigned"_L1 || action == "milestoned"_L1)
        return QStringList{op.title, op.link, op.by, op.operatorLine, op.result, op.assignees}.join(u'\n') + "\n\n"_L1 + body;
    return QStringList{op.title, op.link, op.by, op.operatorLine, op.assignees}.join(u'\n') + "\n\n"_L1 + body;
}

QString pushText(const QJsonObject &p)
{
    QStringList lines;
    for (const PushCommit &c : pushCommits(p)) {
        QString message = c.message;
        while (message.endsWith(u'\n') || message.endsWith(u'\r'))
            message.chop(1);
        lines << QStringLiteral("[%1](%2) %3").arg(idPrefix(c.id), c.url, message) + (c.hasAuthor ? " - "_L1 + c.author : QString());
    }
    return QStringLiteral("[%1:%2] \r\n").arg(str(p, u"repository.full_name"), shortRef(str(p, u"ref"))) + lines.join("\r\n"_L1);
}

Result<QString> textFor(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repo = str(p, u"repository.full_name");
    const QString ref = shortRef(str(p, u"ref"));
    switch (shape) {
        case Shape::Create: return QStringLiteral("[%1] %2 %3 created").arg(repo, str(p, u"ref_type"), ref);
        case Shape::Delete: return QStringLiteral("[%1] %2 %3 deleted").arg(repo, str(p, u"ref_type"), ref);
        case Shape::Fork: return QStringLiteral("%1 is forked to %2").arg(str(p, u"forkee.full_name"), repo);
        case Shape::Push: return pushText(p);
        case Shape::Issue: return operationText(issuesOperation(p), str(p, u"action"), str(p, u"issue.body"));
        case Shape::PullRequest: {
            const QString action = p.value(u"pull_request"_s).toObject().value(u"merged"_s).toBool() ? u"merged"_s : str(p, u"action");
            return operationText(pullRequestOperation(p), action, str(p, u"pull_request.body"));
        }
        case Shape::IssueComment: {
            const Operation op = commentOperation(p);
            return QStringList{op.title, op.link, op.by, op.operatorLine}.join(u'\n') + "\n\n"_L1 + str(p, u"comment.body");
        }
        case Shape::Review: {
            // feishu.go checks the event before the action: a wrong event is an error.
            Result<QString> action = reviewAction(event);
            if (!action)
                return action.status();
            return QStringLiteral("[%1] Pull request review %2 : #%3 %4").arg(repo, *action, str(p, u"number"), str(p, u"pull_request.title")) + "\r\n\r\n"_L1 +
                   str(p, u"review.content");
        }
        case Shape::Repository: {
            const QString action = str(p, u"action");
            if (action == "created"_L1 || action == "deleted"_L1)
                return QStringLiteral("[%1] Repository %2").arg(repo, action);
            return QString();
        }
        default: return sharedInfo(shape, p, noneLink, true).text;
    }
}

} // namespace

Result<Message> feishu(HookEventType event, const QJsonObject &p, const QJsonObject &)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    Result<QString> text = textFor(*shape, event, p);
    if (!text)
        return text.status();
    // feishu.go returns an empty payload (msg_type "") for a repository action it does not know.
    const bool empty = *shape == Shape::Repository && text->isEmpty();
    return Message{QJsonObject{{u"msg_type"_s, empty ? QString() : u"text"_s}, {u"content"_s, QJsonObject{{u"text"_s, text->trimmed()}}}}, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
