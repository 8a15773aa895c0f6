#include "summary.h"

#include "engine/webhook/payloads.h"

#include <QJsonArray>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Switchyard::Webhook::Channels {

namespace {

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

// The forge's address (scheme, host, port) from a repository's page, for user links.
QString forgeBase(const QString &repoUrl)
{
    const QUrl url(repoUrl);
    if (!url.isValid() || url.host().isEmpty())
        return {};
    return url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
}

QString userUrl(const QString &base, const QString &login)
{
    if (base.isEmpty() || login.isEmpty())
        return {};
    return base + u'/' + QString::fromUtf8(QUrl::toPercentEncoding(login));
}

QString pathEscaped(const QString &segments)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(segments, "/"));
}

int stateColour(const QString &state)
{
    if (state == QLatin1String("success"))
        return Colour::Green;
    if (state == QLatin1String("pending") || state == QLatin1String("running") || state == QLatin1String("waiting") ||
        state == QLatin1String("queued") || state == QLatin1String("in_progress"))
        return Colour::Yellow;
    if (state == QLatin1String("warning") || state == QLatin1String("cancelled") || state == QLatin1String("skipped"))
        return Colour::Orange;
    if (state == QLatin1String("failure") || state == QLatin1String("error"))
        return Colour::Red;
    return Colour::Grey;
}

QString commitsPhrase(qsizetype n)
{
    return n == 1 ? QStringLiteral("1 new commit") : QStringLiteral("%1 new commits").arg(n);
}

// The sentence for an issue or pull request action, and its colour (general.go's switch).
struct Action
{
    QString phrase; // "opened", "assigned to bob", "labels updated"
    int colour = Colour::Yellow;
};

Action issueAction(const QString &action, const QJsonObject &item, bool merged, const QString &base, const LinkFormatter &link)
{
    if (action == QLatin1String("opened"))
        return {QStringLiteral("opened"), Colour::Orange};
    if (action == QLatin1String("closed"))
        return merged ? Action{QStringLiteral("merged"), Colour::Purple} : Action{QStringLiteral("closed"), Colour::Red};
    if (action == QLatin1String("reopened"))
        return {QStringLiteral("re-opened")};
    if (action == QLatin1String("edited"))
        return {QStringLiteral("edited")};
    if (action == QLatin1String("assigned")) {
        QStringList names;
        for (const QJsonValue &u : item.value(QStringLiteral("assignees")).toArray()) {
            const QString login = u.toObject().value(QStringLiteral("login")).toString();
            names << link(userUrl(base, login), login);
        }
        return {names.isEmpty() ? QStringLiteral("assigned") : QStringLiteral("assigned to %1").arg(names.join(QStringLiteral(", "))), Colour::Green};
    }
    if (action == QLatin1String("unassigned"))
        return {QStringLiteral("unassigned")};
    if (action == QLatin1String("label_updated"))
        return {QStringLiteral("labels updated")};
    if (action == QLatin1String("label_cleared"))
        return {QStringLiteral("labels cleared")};
    if (action == QLatin1String("synchronized"))
        return {QStringLiteral("synchronized")};
    if (action == QLatin1String("milestoned")) {
        const QString title = item.value(QStringLiteral("milestone")).toObject().value(QStringLiteral("title")).toString();
        return {title.isEmpty() ? QStringLiteral("milestoned") : QStringLiteral("milestoned to %1").arg(title)};
    }
    if (action == QLatin1String("demilestoned"))
        return {QStringLiteral("milestone cleared")};
    if (action == QLatin1String("review_requested"))
        return {QStringLiteral("review requested")};
    if (action == QLatin1String("review_request_removed"))
        return {QStringLiteral("review request removed")};
    return {action.isEmpty() ? QStringLiteral("changed") : action};
}

QString reviewWord(HookEventType type)
{
    switch (type) {
        case HookEventType::PullRequestReviewApproved: return QStringLiteral("approved");
        case HookEventType::PullRequestReviewRejected: return QStringLiteral("rejected");
        default: return QStringLiteral("commented");
    }
}

} // namespace

QString htmlEscaped(const QString &text)
{
    return text.toHtmlEscaped();
}

QString noLink(const QString &, const QString &text)
{
    return text;
}

QString htmlLink(const QString &url, const QString &text)
{
    if (url.isEmpty())
        return text.toHtmlEscaped();
    return QStringLiteral("<a href=\"%1\">%2</a>").arg(url.toHtmlEscaped(), text.toHtmlEscaped());
}

QString markdownLink(const QString &url, const QString &text)
{
    if (url.isEmpty())
        return text;
    return QStringLiteral("[%1](%2)").arg(text, url);
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
    return Status::invalidArgument(QStringLiteral("event %1 is never sent to a hook").arg(name(type)));
}

QString truncated(const QString &text, qsizetype max)
{
    if (text.size() <= max)
        return text;
    return text.left(max - 1) + QChar(0x2026);
}

QString hexColour(int colour)
{
    return QStringLiteral("#%1").arg(colour, 6, 16, QLatin1Char('0'));
}

QString htmlCommitLines(const Summary &s, const QString &separator)
{
    QStringList lines;
    for (const Commit &c : s.commits)
        lines << QStringLiteral("%1: %2 - %3").arg(htmlLink(c.url, c.shortId), c.subject.toHtmlEscaped(), c.author.toHtmlEscaped());
    return lines.join(separator);
}

QString commitLines(const Summary &s, const LinkFormatter &link)
{
    QStringList lines;
    for (const Commit &c : s.commits)
        lines << QStringLiteral("%1: %2 - %3").arg(link(c.url, c.shortId), c.subject, c.author);
    return lines.join(u'\n');
}

Result<Summary> summarize(HookEventType type, const QJsonObject &p, const LinkFormatter &link, bool withSender)
{
    Result<Shape> shape = shapeOf(type);
    if (!shape)
        return shape.status();
    Summary s;
    s.shape = *shape;
    const QJsonObject repo = obj(p, u"repository");
    s.repoName = repo.value(QStringLiteral("full_name")).toString();
    s.repoUrl = repo.value(QStringLiteral("html_url")).toString();
    s.sender = str(p, u"sender.login");
    const QString base = forgeBase(s.repoUrl);
    s.senderUrl = userUrl(base, s.sender);
    const QString repoLink = link(s.repoUrl, s.repoName);
    const QString prefix = s.repoName.isEmpty() ? QString() : QStringLiteral("[%1] ").arg(repoLink);
    const QString plainPrefix = s.repoName.isEmpty() ? QString() : QStringLiteral("[%1] ").arg(s.repoName);
    const QString by = withSender && !s.sender.isEmpty() ? QStringLiteral(" by %1").arg(link(s.senderUrl, s.sender)) : QString();
    if (!s.repoName.isEmpty())
        s.facts.emplace_back(QStringLiteral("Repository:"), s.repoName);
    s.url = s.repoUrl;
    s.button = QStringLiteral("view repository");

    switch (s.shape) {
        case Shape::Create:
        case Shape::Delete: {
            const QString ref = Payload::shortRefName(str(p, u"ref"));
            const QString refType = str(p, u"ref_type").isEmpty() ? QStringLiteral("branch") : str(p, u"ref_type");
            const bool created = s.shape == Shape::Create;
            const QString refUrl = created && !s.repoUrl.isEmpty()
                                       ? s.repoUrl + (refType == QLatin1String("tag") ? u"/src/tag/"_s : u"/src/branch/"_s) + pathEscaped(ref)
                                       : QString();
            s.text = QStringLiteral("[%1:%2] %3 %4%5")
                         .arg(repoLink, created ? link(refUrl, ref) : ref, refType, created ? u"created"_s : u"deleted"_s, by);
            s.title = QStringLiteral("[%1:%2] %3 %4").arg(s.repoName, ref, refType, created ? u"created"_s : u"deleted"_s);
            s.colour = created ? Colour::Green : Colour::Red;
            if (created)
                s.url = refUrl;
            s.facts.emplace_back(refType == QLatin1String("tag") ? u"Tag:"_s : u"Branch:"_s, ref);
            break;
        }
        case Shape::Fork: {
            const QJsonObject forkee = obj(p, u"forkee");
            const QString forkeeName = forkee.value(QStringLiteral("full_name")).toString();
            const QString forkeeUrl = forkee.value(QStringLiteral("html_url")).toString();
            s.text = QStringLiteral("%1 is forked to %2%3").arg(link(forkeeUrl, forkeeName), repoLink, by);
            s.title = QStringLiteral("%1 is forked to %2").arg(forkeeName, s.repoName);
            s.colour = Colour::Green;
            s.facts.emplace_back(QStringLiteral("Forkee:"), forkeeName);
            break;
        }
        case Shape::Push: {
            s.branch = Payload::shortRefName(str(p, u"ref"));
            s.branchUrl = s.repoUrl.isEmpty() ? QString() : s.repoUrl + u"/src/branch/"_s + pathEscaped(s.branch);
            for (const QJsonValue &v : p.value(QStringLiteral("commits")).toArray()) {
                const QJsonObject c = v.toObject();
                const QString id = c.value(QStringLiteral("id")).toString();
                s.commits.push_back({id, id.left(10), c.value(QStringLiteral("url")).toString(),
                                     c.value(QStringLiteral("message")).toString().section(u'\n', 0, 0).trimmed(),
                                     str(c, u"author.name")});
            }
            const QString phrase = commitsPhrase(qsizetype(s.commits.size()));
            const QString compare = str(p, u"compare_url");
            s.url = s.commits.size() == 1 ? s.commits.front().url : (compare.isEmpty() ? s.branchUrl : compare);
            const QString pusher = str(p, u"pusher.login").isEmpty() ? s.sender : str(p, u"pusher.login");
            s.text = QStringLiteral("[%1:%2] %3 pushed by %4")
                         .arg(repoLink, link(s.branchUrl, s.branch), link(compare.isEmpty() ? s.url : compare, phrase),
                              link(userUrl(base, pusher), pusher));
            s.title = QStringLiteral("[%1:%2] %3").arg(s.repoName, s.branch, phrase);
            s.extra = commitLines(s, link);
            s.colour = Colour::Green;
            s.button = s.commits.size() == 1 ? QStringLiteral("view commit") : QStringLiteral("view commits");
            s.facts.emplace_back(QStringLiteral("Branch:"), s.branch);
            s.facts.emplace_back(QStringLiteral("Commit count:"), QString::number(s.commits.size()));
            break;
        }
        case Shape::Issue:
        case Shape::PullRequest: {
            const bool pull = s.shape == Shape::PullRequest;
            const QJsonObject item = obj(p, pull ? u"pull_request" : u"issue");
            const QString number = str(item, u"number");
            const QString action = str(p, u"action");
            const Action a = issueAction(action, item, pull && item.value(QStringLiteral("merged")).toBool(), base, link);
            s.title = QStringLiteral("#%1 %2").arg(number, item.value(QStringLiteral("title")).toString());
            s.url = item.value(QStringLiteral("html_url")).toString();
            s.text = QStringLiteral("%1%2 %3: %4%5").arg(prefix, pull ? u"Pull request"_s : u"Issue"_s, a.phrase, link(s.url, s.title), by);
            s.colour = pull && action == QLatin1String("opened") ? Colour::Green : a.colour;
            if (action == QLatin1String("opened") || action == QLatin1String("edited"))
                s.extra = item.value(QStringLiteral("body")).toString();
            s.button = pull ? QStringLiteral("view pull request") : QStringLiteral("view issue");
            s.facts.emplace_back(pull ? u"Pull request #:"_s : u"Issue #:"_s, number);
            break;
        }
        case Shape::Review: {
            const QJsonObject item = obj(p, u"pull_request");
            const QString number = str(item, u"number");
            s.title = QStringLiteral("#%1 %2").arg(number, item.value(QStringLiteral("title")).toString());
            s.url = item.value(QStringLiteral("html_url")).toString();
            const QString word = reviewWord(type);
            s.text = QStringLiteral("%1Pull request review %2: %3%4").arg(prefix, word, link(s.url, s.title), by);
            s.extra = str(p, u"review.content");
            s.colour = word == QLatin1String("approved") ? Colour::Green : word == QLatin1String("rejected") ? Colour::Red : Colour::Yellow;
            s.button = QStringLiteral("view pull request");
            s.facts.emplace_back(QStringLiteral("Pull request #:"), number);
            s.facts.emplace_back(QStringLiteral("Review:"), word);
            break;
        }
        case Shape::IssueComment: {
            const QJsonObject issue = obj(p, u"issue");
            const bool pull = p.value(QStringLiteral("is_pull")).toBool();
            const QString number = str(issue, u"number");
            const QString action = str(p, u"action");
            const QString what = pull ? QStringLiteral("pull request") : QStringLiteral("issue");
            s.title = QStringLiteral("#%1 %2").arg(number, issue.value(QStringLiteral("title")).toString());
            s.url = str(p, u"comment.html_url").isEmpty() ? issue.value(QStringLiteral("html_url")).toString() : str(p, u"comment.html_url");
            QString phrase = QStringLiteral("New comment on %1").arg(what);
            s.colour = Colour::GreenLight;
            if (action == QLatin1String("edited")) {
                phrase = QStringLiteral("Comment edited on %1").arg(what);
                s.colour = Colour::Yellow;
            } else if (action == QLatin1String("deleted")) {
                phrase = QStringLiteral("Comment deleted on %1").arg(what);
                s.colour = Colour::Red;
            }
            s.text = QStringLiteral("%1%2 %3%4").arg(prefix, phrase, link(s.url, s.title), by);
            s.extra = str(p, u"comment.body");
            s.button = QStringLiteral("view comment");
            s.facts.emplace_back(pull ? u"Pull request #:"_s : u"Issue #:"_s, number);
            break;
        }
        case Shape::Repository: {
            const bool deleted = str(p, u"action") == QLatin1String("deleted");
            s.text = deleted ? QStringLiteral("[%1] Repository deleted%2").arg(s.repoName, by)
                             : QStringLiteral("[%1] Repository created%2").arg(repoLink, by);
            s.title = QStringLiteral("[%1] Repository %2").arg(s.repoName, deleted ? u"deleted"_s : u"created"_s);
            s.colour = deleted ? Colour::Red : Colour::Green;
            break;
        }
        case Shape::Release: {
            const QJsonObject release = obj(p, u"release");
            const QString action = str(p, u"action");
            const QString tag = release.value(QStringLiteral("tag_name")).toString();
            s.url = release.value(QStringLiteral("html_url")).toString();
            QString verb = QStringLiteral("created");
            s.colour = Colour::Green;
            if (action == QLatin1String("updated")) {
                verb = QStringLiteral("updated");
                s.colour = Colour::Yellow;
            } else if (action == QLatin1String("deleted")) {
                verb = QStringLiteral("deleted");
                s.colour = Colour::Red;
            }
            s.text = QStringLiteral("%1Release %2: %3%4").arg(prefix, verb, link(s.url, tag), by);
            s.title = QStringLiteral("%1Release %2: %3").arg(plainPrefix, verb, tag);
            if (action != QLatin1String("deleted"))
                s.extra = release.value(QStringLiteral("body")).toString();
            s.button = QStringLiteral("view release");
            s.facts.emplace_back(QStringLiteral("Tag:"), tag);
            break;
        }
        case Shape::Wiki: {
            const QString page = str(p, u"page");
            const QString action = str(p, u"action");
            const QString comment = str(p, u"comment");
            s.url = s.repoUrl.isEmpty() ? QString() : s.repoUrl + u"/wiki/"_s + pathEscaped(page);
            const QString pageLink = link(s.url, page);
            const QString note = comment.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(comment);
            if (action == QLatin1String("edited")) {
                s.text = QStringLiteral("%1Wiki page '%2' edited%3%4").arg(prefix, pageLink, note, by);
                s.title = QStringLiteral("%1Wiki page '%2' edited").arg(plainPrefix, page);
                s.colour = Colour::Yellow;
            } else if (action == QLatin1String("deleted")) {
                s.text = QStringLiteral("%1Wiki page '%2' deleted%3").arg(prefix, pageLink, by);
                s.title = QStringLiteral("%1Wiki page '%2' deleted").arg(plainPrefix, page);
                s.colour = Colour::Red;
            } else {
                s.text = QStringLiteral("%1New wiki page '%2'%3%4").arg(prefix, pageLink, note, by);
                s.title = QStringLiteral("%1New wiki page '%2'").arg(plainPrefix, page);
                s.colour = Colour::Green;
            }
            s.button = QStringLiteral("view wiki");
            s.facts.emplace_back(QStringLiteral("Wiki page:"), page);
            break;
        }
        case Shape::Package: {
            const QJsonObject package = obj(p, u"package");
            const QString label = QStringLiteral("%1:%2").arg(package.value(QStringLiteral("name")).toString(), package.value(QStringLiteral("version")).toString());
            const bool deleted = str(p, u"action") == QLatin1String("deleted");
            s.url = package.value(QStringLiteral("html_url")).toString();
            s.text = QStringLiteral("%1Package %2: %3%4").arg(prefix, deleted ? u"deleted"_s : u"created"_s, link(s.url, label), by);
            s.title = QStringLiteral("%1Package %2: %3").arg(plainPrefix, deleted ? u"deleted"_s : u"created"_s, label);
            s.colour = deleted ? Colour::Red : Colour::Green;
            s.button = QStringLiteral("view package");
            s.facts.emplace_back(QStringLiteral("Package:"), label);
            break;
        }
        case Shape::Status: {
            const QString state = str(p, u"state");
            const QString context = str(p, u"context");
            const QString sha = str(p, u"sha");
            const QString description = str(p, u"description");
            const QString target = str(p, u"target_url");
            const QString commitUrl = str(p, u"commit.url");
            s.url = target.isEmpty() ? commitUrl : target;
            s.text = QStringLiteral("%1Commit status changed: %2 %3 %4%5")
                         .arg(prefix, link(target, QStringLiteral("[%1]").arg(context)), link(commitUrl, sha.left(10)), state,
                              description.isEmpty() ? QString() : QStringLiteral(" - %1").arg(description));
            s.title = QStringLiteral("%1Commit status changed: [%2] %3 %4").arg(plainPrefix, context, sha.left(10), state);
            s.colour = stateColour(state);
            s.button = QStringLiteral("view status");
            s.facts.emplace_back(QStringLiteral("Context:"), context);
            s.facts.emplace_back(QStringLiteral("State:"), state);
            break;
        }
        case Shape::WorkflowRun:
        case Shape::WorkflowJob: {
            const bool run = s.shape == Shape::WorkflowRun;
            const QJsonObject o = obj(p, run ? u"workflow_run" : u"workflow_job");
            const QString status = o.value(QStringLiteral("status")).toString();
            const QString conclusion = o.value(QStringLiteral("conclusion")).toString();
            const QString outcome = conclusion.isEmpty() ? status : conclusion;
            const QString what = run ? QStringLiteral("Workflow run %1 #%2").arg(o.value(QStringLiteral("name")).toString(), str(o, u"run_number"))
                                     : QStringLiteral("Workflow job %1").arg(o.value(QStringLiteral("name")).toString());
            s.url = o.value(QStringLiteral("html_url")).toString();
            if (s.url.isEmpty())
                s.url = s.repoUrl;
            s.text = QStringLiteral("%1%2 %3: %4%5").arg(prefix, link(s.url, what), str(p, u"action"), outcome, by);
            s.title = QStringLiteral("%1%2 %3: %4").arg(plainPrefix, what, str(p, u"action"), outcome);
            s.colour = stateColour(outcome);
            s.button = run ? QStringLiteral("view run") : QStringLiteral("view job");
            s.facts.emplace_back(run ? u"Workflow run:"_s : u"Workflow job:"_s, what);
            s.facts.emplace_back(QStringLiteral("Result:"), outcome);
            break;
        }
    }
    if (s.title.isEmpty())
        s.title = s.text;
    return s;
}

} // namespace Switchyard::Webhook::Channels
