#pragma once

// The payloads a hook receives, in the shape of Gitea's API structs (modules/structs/hook.go,
// seed 001 §12.7.1): what the webhook notifier stores as a task's v2 payload and what gitea and
// gogs hooks receive as is. Pure functions of the forge's values, so the golden files of the tests
// pin them down; ids are Switchyard's own (the store's), URLs the forge's.

#include "engine/forge/forgetypes.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Switchyard::Webhook::Payload {

// api.User: id, login, username (Gogs's name), full_name, email, type (User/Organization/Bot,
// GitHub's spelling, so receivers of either kind tell them apart).
QJsonObject user(const ForgeUser &u);
// api.Repository with its owner: id, owner, name, full_name, private, fork, html_url,
// default_branch.
QJsonObject repository(const ForgeRepo &r);
// api.Issue; `pull` adds pull_request {merged}, as Gitea marks an issue that is a pull.
QJsonObject issue(const ForgeIssue &i, const ForgeRepo &r, const ForgePullRequest *pull = nullptr);
// api.PullRequest: the issue's fields plus head/base {ref, label}, merged, merge_commit_sha.
QJsonObject pullRequest(const ForgePullRequest &pr, const ForgeRepo &r);
QJsonObject comment(const ForgeComment &c, const ForgeIssue &i);
QJsonObject release(const ForgeRelease &release, const ForgeRepo &r);
// api.PayloadCommit: id, message, url (the repository's commit page), author {name, email}, timestamp.
QJsonObject commit(const PushCommit &c, const ForgeRepo &r);

// api.PushPayload: ref, before, after, compare_url, commits, total_commits, head_commit,
// repository, pusher, sender.
QJsonObject push(const PushUpdate &push, const ForgeRepo &r, const ForgeUser &pusher);

// "refs/heads/feature/x" → "feature/x", "refs/tags/v1" → "v1"; anything else as is. Gitea's
// create and delete events carry the short name (its FIXME in notifier.go keeps old receivers).
QString shortRefName(const QString &ref);
// A target URL made absolute against the forge's address (the scheme and host of `base`, a
// repository's html_url): Gitea's MakeAbsoluteURL for commit statuses. An absolute URL, or one
// that cannot be resolved (no base), stays as it is.
QString absoluteUrl(const QString &url, const QString &base);

} // namespace Switchyard::Webhook::Payload
