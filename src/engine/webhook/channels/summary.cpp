// Gitea's services/webhook/general.go, function by function (see summary.h). The sentences,
// their colours and which link each part carries are general.go's; where Gitea reads a field our
// stored payload may lack (a pull's "url", a comment's pull_request_url / issue_url), the html_url
// Gitea would have put there is read instead.
#include "summary.h"

#include <QRegularExpression>
#include <QStringList>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

QString noneLink(const QString &, const QString &text)
{
    return text;
}

QString goHtmlEscaped(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        switch (c.unicode()) {
            case '&': out += "&amp;"_L1; break;
            case '<': out += "&lt;"_L1; break;
            case '>': out += "&gt;"_L1; break;
            case '\'': out += "&#39;"_L1; break;
            case '"': out += "&#34;"_L1; break;
            default: out += c;
        }
    }
    return out;
}

QString htmlLink(const QString &url, const QString &text)
{
    return QStringLiteral("<a href=\"%1\">%2</a>").arg(goHtmlEscaped(url), goHtmlEscaped(text));
}

QString pathEscaped(const QString &segment)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(segment, "$&+:=@"));
}

QString pathEscapedSegments(const QString &path)
{
    QStringList parts = path.split(u'/');
    for (QString &part : parts)
        part = pathEscaped(part);
    return parts.join(u'/');
}

QString queryEscaped(const QString &text)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(text)).replace("%20"_L1, "+"_L1);
}

QString shortSha(const QString &sha)
{
    return sha.left(10);
}

QString shortRef(const QString &ref)
{
    for (QLatin1StringView prefix : {"refs/heads/"_L1, "refs/tags/"_L1, "refs/for/"_L1})
        if (ref.startsWith(prefix))
            return ref.mid(prefix.size());
    if (ref.startsWith("refs/pull/"_L1) && ref.endsWith("/head"_L1))
        return ref.mid(10, ref.size() - 15);
    return ref;
}

QString refUrl(const QString &repoUrl, const QString &ref)
{
    const QString name = pathEscapedSegments(shortRef(ref));
    if (ref.startsWith("refs/heads/"_L1))
        return repoUrl + "/src/branch/"_L1 + name;
    if (ref.startsWith("refs/tags/"_L1))
        return repoUrl + "/src/tag/"_L1 + name;
    static const QRegularExpression sha1(QStringLiteral("^[0-9a-fA-F]{40}$"));
    if (!sha1.match(ref).hasMatch())
        return repoUrl + "/src/branch/"_L1 + name; // "assume they mean a branch"
    return repoUrl + "/src/commit/"_L1 + name;
}

QString idPrefix(const QString &id, int n)
{
    return id.left(n);
}

QString hexColour(int colour)
{
    return QString::number(colour, 16);
}

Result<Shape> shapeOf(HookEventType type)
{
    switch (type) {
        case HookEventType::Create: return Shape::Create;
        case HookEventType::Delete: return Shape::Delete;
        case HookEventType::Fork: return Shape::Fork;
        case HookEventType::Push: return Shape::Push;
        case HookEventType::Issues:
        case HookEventType::IssueAssign:
        case HookEventType::IssueLabel:
        case HookEventType::IssueMilestone: return Shape::Issue;
        case HookEventType::IssueComment:
        case HookEventType::PullRequestComment: return Shape::IssueComment;
        case HookEventType::PullRequest:
        case HookEventType::PullRequestAssign:
        case HookEventType::PullRequestLabel:
        case HookEventType::PullRequestMilestone:
        case HookEventType::PullRequestSync:
        case HookEventType::PullRequestReviewRequest: return Shape::PullRequest;
        case HookEventType::PullRequestReviewApproved:
        case HookEventType::PullRequestReviewRejected:
        case HookEventType::PullRequestReviewComment: return Shape::Review;
        case HookEventType::Repository: return Shape::Repository;
        case HookEventType::Release: return Shape::Release;
        case HookEventType::Wiki: return Shape::Wiki;
        case HookEventType::Package: return Shape::Package;
        case HookEventType::Status: return Shape::Status;
        case HookEventType::WorkflowRun: return Shape::WorkflowRun;
        case HookEventType::WorkflowJob: return Shape::WorkflowJob;
        case HookEventType::PullRequestReview:
        case HookEventType::Schedule: break;
    }
    return Status::invalidArgument(QStringLiteral("unsupported event: %1 is never sent to a hook").arg(name(type)));
}

Result<QString> reviewAction(HookEventType type)
{
    switch (type) {
        case HookEventType::PullRequestReviewApproved: return QStringLiteral("approved");
        case HookEventType::PullRequestReviewRejected: return QStringLiteral("rejected");
        case HookEventType::PullRequestReviewComment: return QStringLiteral("comment");
        default: break;
    }
    return Status::invalidArgument(QStringLiteral("unknown event type %1 for a review").arg(name(type)));
}

QString reviewTitle(const QJsonObject &p, const QString &action)
{
    return QStringLiteral("[%1] Pull request review %2: #%3 %4")
        .arg(str(p, u"repository.full_name"), action, str(p, u"number"), str(p, u"pull_request.title"));
}

int reviewColour(HookEventType type)
{
    return type == HookEventType::PullRequestReviewApproved   ? Colour::Green
           : type == HookEventType::PullRequestReviewRejected ? Colour::Red
                                                              : Colour::Grey;
}

QString str(const QJsonObject &o, QStringView path)
{
    QJsonValue v(o);
    for (QStringView key : path.split(u'.'))
        v = v.toObject().value(key);
    if (v.isDouble())
        return QString::number(v.toInteger());
    return v.toString();
}

QJsonObject obj(const QJsonObject &o, QStringView key)
{
    return o.value(key).toObject();
}

QString appUrl(const QJsonObject &p)
{
    const QString login = str(p, u"sender.login");
    const QString senderPage = str(p, u"sender.html_url");
    const QString tail = u'/' + pathEscaped(login);
    if (!login.isEmpty() && senderPage.endsWith(tail))
        return senderPage.left(senderPage.size() - tail.size() + 1);
    const QString repoPage = str(p, u"repository.html_url");
    const QString fullName = str(p, u"repository.full_name");
    if (!fullName.isEmpty() && repoPage.endsWith(u'/' + fullName))
        return repoPage.left(repoPage.size() - fullName.size());
    const QString packagePage = str(p, u"package.html_url");
    const qsizetype at = packagePage.indexOf("/-/packages/"_L1);
    if (at > 0)
        return packagePage.left(packagePage.lastIndexOf(u'/', at - 1) + 1);
    return {};
}

QString userUrl(const QJsonObject &p, const QString &login, bool escaped)
{
    return appUrl(p) + (escaped ? pathEscaped(login) : login);
}

std::vector<PushCommit> pushCommits(const QJsonObject &p)
{
    std::vector<PushCommit> out;
    for (const QJsonValue &v : p.value(QStringLiteral("commits")).toArray()) {
        const QJsonObject c = v.toObject();
        out.push_back({c.value(QStringLiteral("id")).toString(), c.value(QStringLiteral("url")).toString(),
                       c.value(QStringLiteral("message")).toString(), str(c, u"author.name"), c.value(QStringLiteral("author")).isObject(), c});
    }
    return out;
}

QString commitDescription(const QJsonObject &p)
{
    const qint64 total = p.value(QStringLiteral("total_commits")).toInteger();
    return total == 1 ? QStringLiteral("1 new commit") : QStringLiteral("%1 new commits").arg(total);
}

QString pushTitleLink(const QJsonObject &p)
{
    const std::vector<PushCommit> commits = pushCommits(p);
    QString link = p.value(QStringLiteral("total_commits")).toInteger() == 1 ? (commits.empty() ? QString() : commits.front().url) : str(p, u"compare_url");
    if (link.isEmpty())
        link = str(p, u"repository.html_url") + "/src/"_L1 + pathEscapedSegments(shortRef(str(p, u"ref")));
    return link;
}

} // namespace Switchyard::Webhook::Channels
