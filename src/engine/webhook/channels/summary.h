#pragma once

// The texts every chat channel shares: Gitea's services/webhook/general.go (its get…PayloadInfo
// and get…Info functions), the link formatters, the colours, and the readers of the stored
// payload (Gitea's API JSON). Each channel file (slack.cpp …) follows its own Gitea converter
// method by method and takes its sentences from here, so one sentence is written once, as
// general.go writes it. Pure functions: called on the delivery worker, no state.

#include "engine/core/status.h"
#include "engine/webhook/hookevents.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <vector>

namespace Switchyard::Webhook::Channels {

// (url, text) → the link in a channel's syntax, exactly as Gitea's formatters (an empty url is
// formatted all the same: Gitea does not special-case it).
using LinkFormatter = std::function<QString(const QString &url, const QString &text)>;
QString noneLink(const QString &url, const QString &text); // the text
QString htmlLink(const QString &url, const QString &text); // <a href="url">text</a>, both escaped
// Go's html.EscapeString: & < > ' " → &amp; &lt; &gt; &#39; &#34;.
QString goHtmlEscaped(const QString &text);
// Go's url.PathEscape (one segment: / is escaped) and Gitea's util.PathEscapeSegments (each
// segment of a path escaped, the slashes kept).
QString pathEscaped(const QString &segment);
QString pathEscapedSegments(const QString &path);
// Go's url.QueryEscape (spaces as +).
QString queryEscaped(const QString &text);
// base.ShortSha: the first 10 characters.
QString shortSha(const QString &sha);
// git.RefName(ref).ShortName(): refs/heads/x → x, refs/tags/v1 → v1, anything else as it is.
QString shortRef(const QString &ref);
// git.RefURL: a branch or tag page; a name that is not a full SHA-1 is taken for a branch.
QString refUrl(const QString &repoUrl, const QString &ref);
// The first `n` characters of a commit id (Gitea's commit.ID[:7]).
QString idPrefix(const QString &id, int n = 7);

// Gitea's colours (services/webhook/discord.go), as integers.
namespace Colour {
inline constexpr int Green = 0x1ac600;
inline constexpr int GreenLight = 0xbfe5bf;
inline constexpr int Yellow = 0xffd930;
inline constexpr int Grey = 0x4f545c;
inline constexpr int Purple = 0x7289da;
inline constexpr int Orange = 0xeb6420;
inline constexpr int OrangeLight = 0xe68d60;
inline constexpr int Red = 0xff3232;
} // namespace Colour
// fmt.Sprintf("%x", colour): lower-case hex, no "#".
QString hexColour(int colour);

// Which converter method newPayload calls for an event type (payloader.go).
enum class Shape { Create, Delete, Fork, Push, Issue, IssueComment, PullRequest, Review, Repository, Release, Wiki, Package, Status, WorkflowRun, WorkflowJob };
// InvalidArgument for the two types never sent (schedule, pull_request_review): Gitea's
// newPayload answers "unsupported event" for them.
Result<Shape> shapeOf(HookEventType type);
// parseHookPullRequestEventType: approved, rejected or comment.
Result<QString> reviewAction(HookEventType type);
// Discord's and MS Teams' review heading, "[repo] Pull request review <action>: #n title", and its
// colour: approved green, rejected red, a comment grey.
QString reviewTitle(const QJsonObject &p, const QString &action);
int reviewColour(HookEventType type);

// Reading the payload. str() follows a dotted path; numbers come back as decimal text.
QString str(const QJsonObject &o, QStringView path);
QJsonObject obj(const QJsonObject &o, QStringView key);
// Gitea's setting.AppURL (with its trailing /) as the payload shows it: from the sender's
// html_url, else the repository's html_url less its full name, else a package's html_url.
QString appUrl(const QJsonObject &payload);
// AppURL + url.PathEscape(login) (escaped) or AppURL + login (not: some Gitea sentences do not).
QString userUrl(const QJsonObject &payload, const QString &login, bool escaped = true);

// A pushed commit as the converters read it.
struct PushCommit
{
    QString id;
    QString url;
    QString message; // whole, as sent
    QString author;  // author.name
    bool hasAuthor = false;
    QJsonObject json; // the commit object (matrix sends them on)
};
std::vector<PushCommit> pushCommits(const QJsonObject &payload);
// "1 new commit" / "N new commits" from total_commits.
QString commitDescription(const QJsonObject &payload);
// Discord's, DingTalk's, Telegram's and MS Teams' title link of a push: the commit (one), the
// compare page (more), else the branch's /src/ page.
QString pushTitleLink(const QJsonObject &payload);

// What a get…PayloadInfo function returns.
struct Info
{
    QString text;
    QString title;  // issueTitle ("#2 crash") where there is one
    QString extra;  // extraMarkdown (an issue's or pull's body, a review), or wiki's page link
    int colour = Colour::Grey;
};
Info issuesInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info pullRequestInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info issueCommentInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info releaseInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info wikiInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info packageInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info statusInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info workflowRunInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
Info workflowJobInfo(const QJsonObject &p, const LinkFormatter &link, bool withSender);
// The one-line text of the shapes general.go covers (Issue, PullRequest, IssueComment, Release,
// Wiki, Package, Status, WorkflowRun, WorkflowJob) — what the converters that only send a text
// use; an empty Info for the other shapes.
Info sharedInfo(Shape shape, const QJsonObject &p, const LinkFormatter &link, bool withSender);

// getIssuesInfo, getPullRequestInfo, getIssuesCommentInfo (Feishu's multi-line texts).
struct Operation
{
    QString title, link, by, operatorLine, result, assignees;
};
Operation issuesOperation(const QJsonObject &p);
Operation pullRequestOperation(const QJsonObject &p);
Operation commentOperation(const QJsonObject &p);

} // namespace Switchyard::Webhook::Channels
