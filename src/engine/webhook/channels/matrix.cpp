// Matrix rooms, as Gitea's services/webhook/matrix.go (matrixConvertor) builds the message: an
// m.room.message {body, msgtype, format: org.matrix.custom.html, formatted_body,
// io.gitea.commits?}. formatted_body is the HTML sentence; body is the same with each
// <a href="u">t</a> made [t](u) and <br> made a newline (getMessageBody). A push lists its commits
// under io.gitea.commits. Unlike Gitea (a SHA-1 of the body), the transaction id in the URL is the
// delivery id (see channels.cpp): a retry is dropped by the homeserver, a redelivery posts again.
// The access token is the hook's Authorization header ("Bearer …"). meta.message_type: m.notice
// (1, the default) or m.text (2).

#include "channels.h"
#include "summary.h"

#include <QJsonArray>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

// MatrixLinkToRef: unlike git.RefURL, a name that is neither a branch nor a tag is a commit.
QString refLink(const QString &repoUrl, const QString &ref)
{
    const QString name = shortRef(ref);
    const QString kind = ref.startsWith("refs/heads/"_L1) ? u"branch"_s : ref.startsWith("refs/tags/"_L1) ? u"tag"_s : u"commit"_s;
    return htmlLink(repoUrl + "/src/"_L1 + kind + u'/' + pathEscapedSegments(name), name);
}

QString messageBody(QString html)
{
    static const QRegularExpression link(QStringLiteral("<a [^>]*?href=\"([^\">]*?)\">(.*?)</a>"));
    html.replace(link, QStringLiteral("[\\2](\\1)"));
    return html.replace("<br>"_L1, "\n"_L1);
}

QString pushHtml(const QJsonObject &p)
{
    const qint64 total = p.value(u"total_commits"_s).toInteger();
    const QString desc = total == 1 ? u"1 commit"_s : QStringLiteral("%1 commits").arg(total);
    const QString repoUrl = str(p, u"repository.html_url");
    QString text = QStringLiteral("[%1] %2 pushed %3 to %4:<br>")
                       .arg(htmlLink(repoUrl, str(p, u"repository.full_name")), str(p, u"pusher.login"), desc, refLink(repoUrl, str(p, u"ref")));
    QStringList lines;
    for (const PushCommit &c : pushCommits(p))
        lines << QStringLiteral("%1: %2 - %3").arg(htmlLink(c.url, idPrefix(c.id)), c.message, c.author);
    return text + lines.join("<br>"_L1);
}

Result<QString> htmlFor(Shape shape, HookEventType event, const QJsonObject &p)
{
    const QString repoUrl = str(p, u"repository.html_url");
    const QString repoLink = htmlLink(repoUrl, str(p, u"repository.full_name"));
    const QString sender = str(p, u"sender.login");
    switch (shape) {
        case Shape::Create:
            return QStringLiteral("[%1:%2] %3 created by %4").arg(repoLink, refLink(repoUrl, str(p, u"ref")), str(p, u"ref_type"), sender);
        case Shape::Delete: return QStringLiteral("[%1:%2] %3 deleted by %4").arg(repoLink, shortRef(str(p, u"ref")), str(p, u"ref_type"), sender);
        case Shape::Fork: return QStringLiteral("%1 is forked to %2").arg(htmlLink(str(p, u"forkee.html_url"), str(p, u"forkee.full_name")), repoLink);
        case Shape::Push: return pushHtml(p);
        case Shape::Review: {
            if (str(p, u"action") != "reviewed"_L1)
                return QString();
            Result<QString> action = reviewAction(event);
            if (!action)
                return action.status();
            const QString title = QStringLiteral("#%1 %2").arg(str(p, u"number"), str(p, u"pull_request.title"));
            return QStringLiteral("[%1] Pull request review %2: %3 by %4")
                .arg(repoLink, *action, htmlLink(str(p, u"pull_request.html_url"), title), htmlLink(userUrl(p, sender), sender));
        }
        case Shape::Repository:
        case Shape::Package: {
            const QString action = str(p, u"action");
            const QString senderLink = htmlLink(userUrl(p, sender, false), sender);
            if (shape == Shape::Repository)
                return action == "created"_L1 || action == "deleted"_L1 ? QStringLiteral("[%1] Repository %2 by %3").arg(repoLink, action, senderLink) : QString();
            const QString packageLink = htmlLink(str(p, u"package.html_url"), str(p, u"package.name"));
            if (action == "created"_L1)
                return QStringLiteral("[%1] Package published by %2").arg(packageLink, senderLink);
            return action == "deleted"_L1 ? QStringLiteral("[%1] Package deleted by %2").arg(packageLink, senderLink) : QString();
        }
        case Shape::Status: {
            // matrix.go's own sentence: no sender.
            const QString link = htmlLink(str(p, u"target_url"), QStringLiteral("%1 [%2]").arg(str(p, u"context"), shortSha(str(p, u"sha"))));
            return QStringLiteral("Commit Status changed: %1 - %2").arg(link, str(p, u"description"));
        }
        default: return sharedInfo(shape, p, htmlLink, true).text;
    }
}

} // namespace

Result<Message> matrix(HookEventType event, const QJsonObject &p, const QJsonObject &meta)
{
    Result<Shape> shape = shapeOf(event);
    if (!shape)
        return shape.status();
    Result<QString> html = htmlFor(*shape, event, p);
    if (!html)
        return html.status();
    const QJsonValue type = meta.value(u"message_type"_s);
    const QString msgtype = type == QJsonValue(2) || type == QJsonValue(u"m.text"_s) ? u"m.text"_s : u"m.notice"_s;
    QJsonObject body{{u"body"_s, messageBody(*html)}, {u"msgtype"_s, msgtype}, {u"format"_s, u"org.matrix.custom.html"_s}, {u"formatted_body"_s, *html}};
    const QJsonArray commits = p.value(u"commits"_s).toArray();
    if (*shape == Shape::Push && !commits.isEmpty())
        body.insert(u"io.gitea.commits"_s, commits);
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
