#pragma once

// What every chat channel says about an event (Gitea's services/webhook/general.go, seed 001
// §12.8.3): a one-line text with links in the channel's own syntax, a title, the longer text that
// goes beside it (an issue's body, a comment, the commit list), the link a "view" button opens and
// a colour. The channels (one file each) only lay these out in their message format.

#include "engine/core/status.h"
#include "engine/webhook/hookevents.h"

#include <QJsonObject>
#include <QString>

#include <functional>
#include <vector>

namespace Switchyard::Webhook::Channels {

// (url, text) → the link in a channel's syntax. An empty url gives the text alone.
using LinkFormatter = std::function<QString(const QString &url, const QString &text)>;
QString noLink(const QString &url, const QString &text);        // the text
QString htmlLink(const QString &url, const QString &text);      // <a href="url">text</a>, escaped
QString markdownLink(const QString &url, const QString &text);  // [text](url)
QString htmlEscaped(const QString &text);

// The colours of general.go (hex RGB).
namespace Colour {
inline constexpr int Green = 0x1ac600;
inline constexpr int GreenLight = 0xbfe5bf;
inline constexpr int Yellow = 0xffd930;
inline constexpr int Grey = 0x4f545c;
inline constexpr int Purple = 0x7289da;
inline constexpr int Orange = 0xeb6420;
inline constexpr int OrangeLight = 0xe68d60;
inline constexpr int Red = 0xc4302b;
} // namespace Colour

// What newPayload dispatches on: the fifteen payload shapes.
enum class Shape { Create, Delete, Fork, Push, Issue, IssueComment, PullRequest, Review, Repository, Release, Wiki, Package, Status, WorkflowRun, WorkflowJob };

struct Commit
{
    QString id;
    QString shortId; // 10 characters, as Gitea shows them
    QString url;
    QString subject; // the message's first line
    QString author;
};

struct Summary
{
    Shape shape = Shape::Push;
    QString text;     // "[alice/engine] Issue opened: #1 Queue stalls by bob", links formatted
    QString title;    // "#1 Queue stalls", or the text without links where there is no item
    QString url;      // what the message links to
    QString extra;    // the body beside the text (issue body, comment, release notes); may be empty
    QString button;   // the label of a link button ("view issue")
    int colour = Colour::Grey;
    QString repoName; // "alice/engine" (empty for events without a repository)
    QString repoUrl;
    QString sender;   // login
    QString senderUrl;
    // A push's commits and branch.
    std::vector<Commit> commits;
    QString branch;
    QString branchUrl;
    // What a facts list shows (msteams): label → value, in order.
    std::vector<std::pair<QString, QString>> facts;
};

// The shape of `type`'s payload; InvalidArgument for the two types never sent (schedule,
// pull_request_review).
Result<Shape> shapeOf(HookEventType type);

// The summary of `payload` (a task's v2 payload, Gitea's API JSON) with links made by `link`.
// `withSender` appends " by <sender>" to the text where general.go does.
Result<Summary> summarize(HookEventType type, const QJsonObject &payload, const LinkFormatter &link, bool withSender = true);

// `text` cut to `max` characters (an ellipsis at the end): channels limit their fields.
QString truncated(const QString &text, qsizetype max);
// #rrggbb
QString hexColour(int colour);

// The commit lines of a push: "<link to id>: subject - author", one per line.
QString commitLines(const Summary &s, const LinkFormatter &link);
// The same with the subject and author HTML-escaped, lines joined by `separator`.
QString htmlCommitLines(const Summary &s, const QString &separator);

} // namespace Switchyard::Webhook::Channels
