#include "payloads.h"

#include <QUrl>

namespace Switchyard::Webhook::Payload {

using namespace Qt::StringLiterals;

namespace {

QString state(bool closed)
{
    return closed ? u"closed"_s : u"open"_s;
}

// repo.APIURL(): AppURL + "api/v1/repos/" + owner/name.
QString apiUrl(const ForgeRepo &r)
{
    const QString root = appUrl(r);
    return root.isEmpty() ? QString() : root + u"api/v1/repos/"_s + r.fullName();
}

// An optional user: Gitea's *User, null when absent.
void addUser(OrderedObject &o, const QString &key, const std::optional<ForgeUser> &u, const QString &root)
{
    if (u)
        o.add(key, user(*u, root));
    else
        o.addNull(key);
}

// Gitea appends to a nil slice, so a list with nothing in it is null, not [].
void addUsers(OrderedObject &o, const QString &key, const std::vector<ForgeUser> &list, const QString &root)
{
    if (list.empty()) {
        o.addNull(key);
        return;
    }
    OrderedArray array;
    for (const ForgeUser &u : list)
        array.append(user(u, root));
    o.add(key, array);
}

// api.Milestone: the forge told us its title only.
OrderedObject milestone(const QString &title)
{
    OrderedObject m;
    m.add(u"id"_s, 0).add(u"title"_s, title).add(u"description"_s, QString()).add(u"state"_s, u"open"_s);
    m.add(u"open_issues"_s, 0).add(u"closed_issues"_s, 0).add(u"created_at"_s, QString(kZeroTime));
    m.addNull(u"updated_at"_s).addNull(u"closed_at"_s).addNull(u"due_on"_s);
    return m;
}

// The fields api.Issue and api.PullRequest share up to the state, in their common order.
void addLabelsAndPeople(OrderedObject &o, const ForgeIssue &i, const QString &root, bool isPull, const ForgePullRequest *pr)
{
    o.add(u"labels"_s, OrderedArray()); // Switchyard keeps no label set
    if (i.milestone.isEmpty())
        o.addNull(u"milestone"_s);
    else
        o.add(u"milestone"_s, milestone(i.milestone));
    addUser(o, u"assignee"_s, i.assignees.empty() ? std::nullopt : std::optional<ForgeUser>(i.assignees.front()), root);
    addUsers(o, u"assignees"_s, i.assignees, root);
    if (isPull) {
        o.addNull(u"requested_reviewers"_s).addNull(u"requested_reviewers_teams"_s);
        o.add(u"state"_s, state(i.isClosed)).add(u"draft"_s, pr && pr->isWorkInProgress);
    } else {
        o.add(u"state"_s, state(i.isClosed));
    }
    o.add(u"is_locked"_s, false).add(u"comments"_s, 0);
}

OrderedObject payloadUser(const QString &name, const QString &email)
{
    OrderedObject u;
    u.add(u"name"_s, name).add(u"email"_s, email).add(u"username"_s, QString());
    return u;
}

OrderedObject branch(const QString &ref, const ForgeRepo &r)
{
    OrderedObject b;
    b.add(u"label"_s, ref).add(u"ref"_s, ref).add(u"sha"_s, QString()).add(u"repo_id"_s, r.externalId);
    b.add(u"repo"_s, repository(r));
    return b;
}

QString escapedPath(const QString &segment)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(segment, "/")); // util.PathEscapeSegments
}

} // namespace

QString appUrl(const ForgeRepo &r)
{
    const QString suffix = u'/' + r.fullName();
    QString url = r.htmlUrl;
    while (url.endsWith(u'/'))
        url.chop(1);
    if (url.isEmpty() || !url.endsWith(suffix))
        return QString();
    return url.left(url.size() - suffix.size() + 1);
}

OrderedObject user(const ForgeUser &u, const QString &root)
{
    OrderedObject o;
    o.add(u"id"_s, u.externalId).add(u"login"_s, u.login).add(u"login_name"_s, QString()).add(u"source_id"_s, 0);
    o.add(u"full_name"_s, u.fullName).add(u"email"_s, u.email).add(u"avatar_url"_s, u.avatarUrl);
    o.add(u"html_url"_s, root.isEmpty() || u.login.isEmpty() ? QString() : root + escapedPath(u.login));
    o.add(u"language"_s, QString()).add(u"is_admin"_s, false);
    o.add(u"last_login"_s, QString(kZeroTime)).add(u"created"_s, QString(kZeroTime));
    o.add(u"restricted"_s, false).add(u"active"_s, false).add(u"prohibit_login"_s, false);
    o.add(u"location"_s, QString()).add(u"website"_s, QString()).add(u"description"_s, QString());
    o.add(u"visibility"_s, u"public"_s);
    o.add(u"followers_count"_s, 0).add(u"following_count"_s, 0).add(u"starred_repos_count"_s, 0);
    o.add(u"username"_s, u.login); // Gitea's MarshalJSON adds it after the struct's fields
    o.add(u"type"_s, u.isOrganization ? u"Organization"_s : u.isBot ? u"Bot"_s : u"User"_s);
    return o;
}

OrderedObject repository(const ForgeRepo &r)
{
    const QString root = appUrl(r);
    const QString api = apiUrl(r);
    OrderedObject o;
    o.add(u"id"_s, r.externalId).add(u"owner"_s, user(r.owner, root)).add(u"name"_s, r.name).add(u"full_name"_s, r.fullName());
    o.add(u"description"_s, QString()).add(u"empty"_s, false).add(u"private"_s, r.isPrivate).add(u"fork"_s, r.isFork);
    o.add(u"template"_s, false).add(u"mirror"_s, false).add(u"size"_s, 0).add(u"language"_s, QString());
    o.add(u"languages_url"_s, api.isEmpty() ? QString() : api + u"/languages"_s);
    o.add(u"html_url"_s, r.htmlUrl).add(u"url"_s, api).add(u"link"_s, QString()).add(u"ssh_url"_s, QString());
    o.add(u"clone_url"_s, r.htmlUrl.isEmpty() ? QString() : r.htmlUrl + u".git"_s);
    o.add(u"original_url"_s, QString()).add(u"website"_s, QString());
    o.add(u"stars_count"_s, 0).add(u"forks_count"_s, 0).add(u"watchers_count"_s, 0).add(u"open_issues_count"_s, 0);
    o.add(u"open_pr_counter"_s, 0).add(u"release_counter"_s, 0).add(u"default_branch"_s, r.defaultBranch);
    o.add(u"archived"_s, false).add(u"created_at"_s, QString(kZeroTime)).add(u"updated_at"_s, QString(kZeroTime));
    o.add(u"archived_at"_s, QString(kZeroTime));
    // Gitea's notifier converts with the owner's access mode.
    OrderedObject permissions;
    permissions.add(u"admin"_s, true).add(u"push"_s, true).add(u"pull"_s, true);
    o.add(u"permissions"_s, permissions).add(u"has_issues"_s, false);
    OrderedObject tracker;
    tracker.add(u"enable_time_tracker"_s, false).add(u"allow_only_contributors_to_track_time"_s, false);
    tracker.add(u"enable_issue_dependencies"_s, false);
    o.add(u"internal_tracker"_s, tracker);
    for (const QString &flag : {u"has_wiki"_s, u"has_pull_requests"_s, u"has_projects"_s})
        o.add(flag, false);
    o.add(u"projects_mode"_s, QString());
    for (const QString &flag : {u"has_releases"_s, u"has_packages"_s, u"has_actions"_s, u"ignore_whitespace_conflicts"_s,
                                u"allow_merge_commits"_s, u"allow_rebase"_s, u"allow_rebase_explicit"_s, u"allow_squash_merge"_s,
                                u"allow_fast_forward_only_merge"_s, u"allow_rebase_update"_s, u"allow_manual_merge"_s,
                                u"autodetect_manual_merge"_s, u"default_delete_branch_after_merge"_s})
        o.add(flag, false);
    o.add(u"default_merge_style"_s, u"merge"_s); // convert's default when the pull unit says nothing
    o.add(u"default_allow_maintainer_edit"_s, false).add(u"avatar_url"_s, QString()).add(u"internal"_s, false);
    o.add(u"mirror_interval"_s, QString()).add(u"object_format_name"_s, QString());
    o.add(u"mirror_updated"_s, QString(kZeroTime)).add(u"topics"_s, OrderedArray()).add(u"licenses"_s, OrderedArray());
    return o;
}

OrderedObject issue(const ForgeIssue &i, const ForgeRepo &r, const ForgePullRequest *pull)
{
    const QString root = appUrl(r);
    const QString api = apiUrl(r);
    OrderedObject o;
    o.add(u"id"_s, i.externalId).add(u"url"_s, api.isEmpty() ? QString() : api + u"/issues/"_s + QString::number(i.index));
    o.add(u"html_url"_s, i.htmlUrl).add(u"number"_s, i.index);
    addUser(o, u"user"_s, i.poster, root);
    o.add(u"original_author"_s, QString()).add(u"original_author_id"_s, 0);
    o.add(u"title"_s, i.title).add(u"body"_s, i.content).add(u"ref"_s, i.ref).add(u"assets"_s, OrderedArray());
    addLabelsAndPeople(o, i, root, false, nullptr);
    o.add(u"created_at"_s, QString(kZeroTime)).add(u"updated_at"_s, QString(kZeroTime));
    o.addNull(u"closed_at"_s).addNull(u"due_date"_s).add(u"time_estimate"_s, 0);
    if (pull) {
        OrderedObject meta;
        meta.add(u"merged"_s, pull->hasMerged).addNull(u"merged_at"_s).add(u"draft"_s, pull->isWorkInProgress);
        meta.add(u"html_url"_s, i.htmlUrl);
        o.add(u"pull_request"_s, meta);
    } else {
        o.addNull(u"pull_request"_s);
    }
    OrderedObject meta;
    meta.add(u"id"_s, r.externalId).add(u"name"_s, r.name).add(u"owner"_s, r.owner.login).add(u"full_name"_s, r.fullName());
    o.add(u"repository"_s, meta).add(u"pin_order"_s, 0);
    return o;
}

OrderedObject pullRequest(const ForgePullRequest &pr, const ForgeRepo &r, const ForgeUser *mergedBy)
{
    const QString root = appUrl(r);
    const ForgeIssue i = pr.issue.value_or(ForgeIssue{});
    const QString html = i.htmlUrl;
    OrderedObject o;
    o.add(u"id"_s, pr.externalId).add(u"url"_s, html).add(u"number"_s, i.index); // url: Gitea puts the page there too
    addUser(o, u"user"_s, i.poster, root);
    o.add(u"title"_s, i.title).add(u"body"_s, i.content);
    addLabelsAndPeople(o, i, root, true, &pr);
    o.add(u"html_url"_s, html);
    o.add(u"diff_url"_s, html.isEmpty() ? QString() : html + u".diff"_s);
    o.add(u"patch_url"_s, html.isEmpty() ? QString() : html + u".patch"_s);
    o.add(u"mergeable"_s, false).add(u"merged"_s, pr.hasMerged).addNull(u"merged_at"_s);
    if (pr.hasMerged)
        o.add(u"merge_commit_sha"_s, pr.mergedCommitId); // Gitea: &pr.MergedCommitID once merged
    else
        o.addNull(u"merge_commit_sha"_s);
    addUser(o, u"merged_by"_s, pr.hasMerged && mergedBy ? std::optional<ForgeUser>(*mergedBy) : std::nullopt, root);
    o.add(u"allow_maintainer_edit"_s, false);
    o.add(u"base"_s, branch(pr.baseBranch, r)).add(u"head"_s, branch(pr.headBranch, r)).add(u"merge_base"_s, QString());
    o.addNull(u"due_date"_s).add(u"created_at"_s, QString(kZeroTime)).add(u"updated_at"_s, QString(kZeroTime));
    o.addNull(u"closed_at"_s).add(u"pin_order"_s, 0);
    return o;
}

OrderedObject comment(const ForgeComment &c, const ForgeIssue &i, const ForgeRepo &r)
{
    OrderedObject o;
    o.add(u"id"_s, c.externalId).add(u"html_url"_s, c.htmlUrl);
    // Gitea's Comment.PRURL and IssueURL: the issue's page under the name that fits, "" under the other.
    o.add(u"pull_request_url"_s, i.isPull ? i.htmlUrl : QString()).add(u"issue_url"_s, i.isPull ? QString() : i.htmlUrl);
    addUser(o, u"user"_s, c.poster, appUrl(r));
    o.add(u"original_author"_s, QString()).add(u"original_author_id"_s, 0).add(u"body"_s, c.content);
    o.add(u"assets"_s, OrderedArray()).add(u"created_at"_s, QString(kZeroTime)).add(u"updated_at"_s, QString(kZeroTime));
    return o;
}

OrderedObject release(const ForgeRelease &rel, const ForgeRepo &r)
{
    const QString api = apiUrl(r);
    const QString url = api.isEmpty() ? QString() : api + u"/releases/"_s + QString::number(rel.externalId);
    const QString tag = escapedPath(rel.tagName);
    const QString page = r.htmlUrl.isEmpty() ? QString() : r.htmlUrl;
    OrderedObject o;
    o.add(u"id"_s, rel.externalId).add(u"tag_name"_s, rel.tagName).add(u"target_commitish"_s, QString());
    o.add(u"name"_s, rel.title).add(u"body"_s, rel.note).add(u"url"_s, url);
    o.add(u"html_url"_s, page.isEmpty() ? QString() : page + u"/releases/tag/"_s + tag);
    o.add(u"tarball_url"_s, page.isEmpty() ? QString() : page + u"/archive/"_s + tag + u".tar.gz"_s);
    o.add(u"zipball_url"_s, page.isEmpty() ? QString() : page + u"/archive/"_s + tag + u".zip"_s);
    o.add(u"upload_url"_s, url.isEmpty() ? QString() : url + u"/assets"_s);
    o.add(u"draft"_s, rel.isDraft).add(u"prerelease"_s, rel.isPrerelease);
    o.add(u"created_at"_s, QString(kZeroTime)).add(u"published_at"_s, QString(kZeroTime));
    addUser(o, u"author"_s, rel.publisher, appUrl(r));
    o.add(u"assets"_s, OrderedArray());
    return o;
}

OrderedArray labels(const std::vector<ForgeLabel> &list, const ForgeRepo &r)
{
    const QString api = apiUrl(r);
    OrderedArray array;
    for (const ForgeLabel &l : list) {
        OrderedObject o;
        o.add(u"id"_s, l.id).add(u"name"_s, l.name).add(u"exclusive"_s, false).add(u"is_archived"_s, false);
        o.add(u"color"_s, QString(l.color).remove(u'#')).add(u"description"_s, QString());
        o.add(u"url"_s, api.isEmpty() ? QString() : api + u"/labels/"_s + QString::number(l.id));
        array.append(o);
    }
    return array;
}

OrderedObject commit(const PushCommit &c, const ForgeRepo &r)
{
    OrderedObject verification;
    verification.add(u"verified"_s, false).add(u"reason"_s, QString()).add(u"signature"_s, QString());
    verification.addNull(u"signer"_s).add(u"payload"_s, QString());
    OrderedObject o;
    o.add(u"id"_s, c.sha).add(u"message"_s, c.message);
    o.add(u"url"_s, r.htmlUrl.isEmpty() ? QString() : r.htmlUrl + u"/commit/"_s + c.sha);
    o.add(u"author"_s, payloadUser(c.authorName, c.authorEmail)).add(u"committer"_s, payloadUser(c.authorName, c.authorEmail));
    o.add(u"verification"_s, verification);
    o.add(u"timestamp"_s, c.timestamp.isValid() ? c.timestamp.toUTC().toString(Qt::ISODate) : QString(kZeroTime));
    o.add(u"added"_s, OrderedArray()).add(u"removed"_s, OrderedArray()).add(u"modified"_s, OrderedArray());
    return o;
}

OrderedObject push(const PushUpdate &p, const ForgeRepo &r, const ForgeUser &pusher, const ForgeUser &sender)
{
    OrderedArray commits;
    for (const PushCommit &c : p.commits)
        commits.append(commit(c, r));
    OrderedObject o;
    o.add(u"ref"_s, p.refFullName).add(u"before"_s, p.oldCommitId).add(u"after"_s, p.newCommitId);
    o.add(u"compare_url"_s, p.compareUrl).add(u"commits"_s, commits);
    o.add(u"total_commits"_s, qMax<qint64>(p.totalCommits, qint64(p.commits.size())));
    if (p.commits.empty())
        o.addNull(u"head_commit"_s);
    else
        o.add(u"head_commit"_s, commit(p.commits.front(), r));
    const QString root = appUrl(r);
    o.add(u"repository"_s, repository(r)).add(u"pusher"_s, user(pusher, root)).add(u"sender"_s, user(sender, root));
    return o;
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
