#pragma once

// The payloads a hook receives, field for field and in field order as Gitea's API structs
// (modules/structs: user.go, repo.go, issue.go, pull.go, issue_comment.go, release.go,
// issue_label.go, issue_milestone.go, hook.go) and as services/convert fills them for webhooks:
// what the webhook notifier stores as a task's v2 payload and what gitea and gogs hooks receive as
// is. Pure functions of the forge's values, so the golden files of the tests pin them down. Ids are
// the forge's own (externalId: Switchyard's row ids never reach a receiver), URLs the forge's or
// derived from them as Gitea derives them; what the forge did not tell us goes out as Gitea's zero
// value ("", 0, false, null, Go's zero time) — docs/webhooks.md lists those fields.

#include "orderedjson.h"

#include "engine/forge/forgetypes.h"

#include <QString>

#include <vector>

namespace Switchyard::Webhook::Payload {

// Go's zero time.Time as encoding/json writes it: the value of every time the forge did not send.
inline constexpr QLatin1StringView kZeroTime{"0001-01-01T00:00:00Z"};

// The forge's root URL with its trailing slash (Gitea's setting.AppURL), worked out from a
// repository's html_url ("https://git.example.com/alice/engine" → "https://git.example.com/");
// empty when the repository has no html_url.
QString appUrl(const ForgeRepo &r);

// api.User as convert.ToUser with no doer fills it for webhooks (nothing private: login_name,
// language, is_admin, last_login, active as for an anonymous reader); html_url is appUrl + login
// when appUrl is known. Gitea has no `type`; Switchyard adds it last (User/Organization/Bot).
OrderedObject user(const ForgeUser &u, const QString &appUrl);
// api.Repository as convert.ToRepo with the owner's access (permissions all true).
OrderedObject repository(const ForgeRepo &r);
// api.Issue; `pull` fills pull_request (merged, draft, html_url) as for an issue that is a pull.
OrderedObject issue(const ForgeIssue &i, const ForgeRepo &r, const ForgePullRequest *pull = nullptr);
// api.PullRequest with head and base (PRBranchInfo, both in the repository: the forge does not say
// where the head lives). `mergedBy` is the user who merged it, when it is merged.
OrderedObject pullRequest(const ForgePullRequest &pr, const ForgeRepo &r, const ForgeUser *mergedBy = nullptr);
OrderedObject comment(const ForgeComment &c, const ForgeIssue &i, const ForgeRepo &r);
OrderedObject release(const ForgeRelease &release, const ForgeRepo &r);
OrderedArray labels(const std::vector<ForgeLabel> &list, const ForgeRepo &r);
// api.PayloadCommit: the commit page as url, author and committer as PayloadUser, an unverified
// verification, the file lists empty.
OrderedObject commit(const PushCommit &c, const ForgeRepo &r);

// api.PushPayload.
OrderedObject push(const PushUpdate &push, const ForgeRepo &r, const ForgeUser &pusher, const ForgeUser &sender);

// "refs/heads/feature/x" → "feature/x", "refs/tags/v1" → "v1"; anything else as is. Gitea's
// create and delete events carry the short name (its FIXME in notifier.go keeps old receivers).
QString shortRefName(const QString &ref);
// A target URL made absolute against the forge's address (the scheme and host of `base`, a
// repository's html_url): Gitea's MakeAbsoluteURL for commit statuses. An absolute URL, or one
// that cannot be resolved (no base), stays as it is.
QString absoluteUrl(const QString &url, const QString &base);

} // namespace Switchyard::Webhook::Payload
