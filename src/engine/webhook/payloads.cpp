#include "payloads.h"

#include <QJsonArray>
#include <QUrl>

namespace Switchyard::Webhook::Payload {

namespace {

QString state(bool closed)
{
    return closed ? QStringLiteral("closed") : QStringLiteral("open");
}

QJsonArray users(const std::vector<ForgeUser> &list)
{
    QJsonArray array;
    for (const ForgeUser &u : list)
        array.append(user(u));
    return array;
}

// The fields an issue and a pull request share (api.Issue, api.PullRequest).
QJsonObject issueFields(const ForgeIssue &i)
{
    QJsonObject o{{QStringLiteral("id"), i.id},
                  {QStringLiteral("number"), i.index},
                  {QStringLiteral("title"), i.title},
                  {QStringLiteral("body"), i.content},
                  {QStringLiteral("state"), state(i.isClosed)},
                  {QStringLiteral("html_url"), i.htmlUrl},
                  {QStringLiteral("user"), i.poster ? QJsonValue(user(*i.poster)) : QJsonValue()},
                  {QStringLiteral("assignees"), users(i.assignees)},
                  {QStringLiteral("assignee"), i.assignees.empty() ? QJsonValue() : QJsonValue(user(i.assignees.front()))}};
    o.insert(QStringLiteral("milestone"),
             i.milestone.isEmpty() ? QJsonValue() : QJsonValue(QJsonObject{{QStringLiteral("title"), i.milestone}}));
    if (!i.ref.isEmpty())
        o.insert(QStringLiteral("ref"), i.ref);
    return o;
}

QJsonObject branch(const QString &ref, const ForgeRepo &r)
{
    return {{QStringLiteral("ref"), ref},
            {QStringLiteral("label"), ref},
            {QStringLiteral("repo_id"), r.id},
            {QStringLiteral("repo"), repository(r)}};
}

} // namespace

QJsonObject user(const ForgeUser &u)
{
    const QString type = u.isOrganization ? QStringLiteral("Organization") : u.isBot ? QStringLiteral("Bot") : QStringLiteral("User");
    return {{QStringLiteral("id"), u.id},         {QStringLiteral("login"), u.login},    {QStringLiteral("username"), u.login},
            {QStringLiteral("full_name"), u.fullName}, {QStringLiteral("email"), u.email}, {QStringLiteral("type"), type}};
}

QJsonObject repository(const ForgeRepo &r)
{
    return {{QStringLiteral("id"), r.id},
            {QStringLiteral("owner"), user(r.owner)},
            {QStringLiteral("name"), r.name},
            {QStringLiteral("full_name"), r.fullName()},
            {QStringLiteral("private"), r.isPrivate},
            {QStringLiteral("fork"), r.isFork},
            {QStringLiteral("html_url"), r.htmlUrl},
            {QStringLiteral("default_branch"), r.defaultBranch}};
}

QJsonObject issue(const ForgeIssue &i, const ForgeRepo &r, const ForgePullRequest *pull)
{
    QJsonObject o = issueFields(i);
    o.insert(QStringLiteral("repository"), QJsonObject{{QStringLiteral("id"), r.id},
                                                       {QStringLiteral("name"), r.name},
                                                       {QStringLiteral("owner"), r.owner.login},
                                                       {QStringLiteral("full_name"), r.fullName()}});
    if (pull)
        o.insert(QStringLiteral("pull_request"),
                 QJsonObject{{QStringLiteral("merged"), pull->hasMerged}, {QStringLiteral("html_url"), i.htmlUrl}});
    return o;
}

QJsonObject pullRequest(const ForgePullRequest &pr, const ForgeRepo &r)
{
    QJsonObject o = pr.issue ? issueFields(*pr.issue) : QJsonObject{{QStringLiteral("id"), pr.id}};
    const QString html = pr.issue ? pr.issue->htmlUrl : QString();
    o.insert(QStringLiteral("diff_url"), html.isEmpty() ? QString() : html + QStringLiteral(".diff"));
    o.insert(QStringLiteral("patch_url"), html.isEmpty() ? QString() : html + QStringLiteral(".patch"));
    o.insert(QStringLiteral("merged"), pr.hasMerged);
    o.insert(QStringLiteral("merge_commit_sha"), pr.mergedCommitId.isEmpty() ? QJsonValue() : QJsonValue(pr.mergedCommitId));
    o.insert(QStringLiteral("draft"), pr.isWorkInProgress);
    o.insert(QStringLiteral("head"), branch(pr.headBranch, r));
    o.insert(QStringLiteral("base"), branch(pr.baseBranch, r));
    return o;
}

QJsonObject comment(const ForgeComment &c, const ForgeIssue &i)
{
    QJsonObject o{{QStringLiteral("id"), c.id},
                  {QStringLiteral("html_url"), c.htmlUrl},
                  {QStringLiteral("issue_url"), i.htmlUrl},
                  {QStringLiteral("user"), c.poster ? QJsonValue(user(*c.poster)) : QJsonValue()},
                  {QStringLiteral("body"), c.content}};
    if (!c.treePath.isEmpty()) {
        o.insert(QStringLiteral("path"), c.treePath);
        o.insert(QStringLiteral("line"), c.line);
    }
    return o;
}

QJsonObject release(const ForgeRelease &rel, const ForgeRepo &r)
{
    const QString base = r.htmlUrl.isEmpty() ? QString() : r.htmlUrl + QStringLiteral("/releases/tag/") + rel.tagName;
    return {{QStringLiteral("id"), rel.id},
            {QStringLiteral("tag_name"), rel.tagName},
            {QStringLiteral("name"), rel.title},
            {QStringLiteral("body"), rel.note},
            {QStringLiteral("draft"), rel.isDraft},
            {QStringLiteral("prerelease"), rel.isPrerelease},
            {QStringLiteral("html_url"), base},
            {QStringLiteral("author"), rel.publisher ? QJsonValue(user(*rel.publisher)) : QJsonValue()}};
}

QJsonObject commit(const PushCommit &c, const ForgeRepo &r)
{
    const QString url = r.htmlUrl.isEmpty() ? QString() : r.htmlUrl + QStringLiteral("/commit/") + c.sha;
    const QJsonObject person{{QStringLiteral("name"), c.authorName}, {QStringLiteral("email"), c.authorEmail}};
    return {{QStringLiteral("id"), c.sha},
            {QStringLiteral("message"), c.message},
            {QStringLiteral("url"), url},
            {QStringLiteral("author"), person},
            {QStringLiteral("committer"), person},
            {QStringLiteral("timestamp"), c.timestamp.isValid() ? c.timestamp.toUTC().toString(Qt::ISODate) : QString()}};
}

QJsonObject push(const PushUpdate &p, const ForgeRepo &r, const ForgeUser &pusher)
{
    QJsonArray commits;
    for (const PushCommit &c : p.commits)
        commits.append(commit(c, r));
    return {{QStringLiteral("ref"), p.refFullName},
            {QStringLiteral("before"), p.oldCommitId},
            {QStringLiteral("after"), p.newCommitId},
            {QStringLiteral("compare_url"), p.compareUrl},
            {QStringLiteral("commits"), commits},
            {QStringLiteral("total_commits"), qMax<qint64>(p.totalCommits, qint64(p.commits.size()))},
            {QStringLiteral("head_commit"), p.commits.empty() ? QJsonValue() : QJsonValue(commit(p.commits.front(), r))},
            {QStringLiteral("repository"), repository(r)},
            {QStringLiteral("pusher"), user(pusher)},
            {QStringLiteral("sender"), user(pusher)}};
}

QString shortRefName(const QString &ref)
{
    for (const QLatin1String prefix : {QLatin1String("refs/heads/"), QLatin1String("refs/tags/")})
        if (ref.startsWith(prefix))
            return ref.mid(prefix.size());
    return ref;
}

QString absoluteUrl(const QString &url, const QString &base)
{
    const QUrl target(url);
    if (url.isEmpty() || !target.isRelative())
        return url;
    const QUrl forge(base);
    if (!forge.isValid() || forge.scheme().isEmpty() || forge.host().isEmpty())
        return url;
    QUrl root;
    root.setScheme(forge.scheme());
    root.setHost(forge.host());
    root.setPort(forge.port());
    root.setPath(QStringLiteral("/"));
    return root.resolved(target).toString();
}

} // namespace Switchyard::Webhook::Payload
