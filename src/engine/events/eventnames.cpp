// The event names Switchyard takes at POST /events: Gitea's fine types and GitHub's names,
// grouped by the payload they carry; the ones GitHub documents that have no Gitea counterpart
// (answered 202, ignored, counted); and the fields each payload must have.
//
// Pure functions: safe from any thread.

#include "translate_p.h"

#include "engine/core/wholenumber.h"

#include <QJsonArray>
#include <QSet>

#include <map>

namespace Switchyard {

namespace {

// The numbers number() reads, wherever they are in the payload, are whole and fit what they go
// into (#48): a forge's 1e30 is refused naming its path, not read as 0 ("no user.id") or cut.
Status checkNumbers(const QJsonValue &json, const QString &path)
{
    if (json.isArray()) {
        const QJsonArray array = json.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            if (Status s = checkNumbers(array.at(i), QStringLiteral("%1[%2]").arg(path).arg(i)); !s)
                return s;
        return Status::ok();
    }
    const QJsonObject o = json.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString field = path.isEmpty() ? it.key() : path + u'.' + it.key();
        if (it->isDouble()) {
            static const QStringList counters{QStringLiteral("id"), QStringLiteral("number"), QStringLiteral("line"),
                                              QStringLiteral("run_id"), QStringLiteral("run_number")};
            if (it.key() == QLatin1String("total_commits") && !wholeNumber<int>(*it)) // an int in PushInfo
                return wholeNumberError<int>(field, *it);
            if (counters.contains(it.key()) && !wholeNumber<qint64>(*it))
                return wholeNumberError<qint64>(field, *it);
        } else if (Status s = checkNumbers(*it, field); !s) {
            return s;
        }
    }
    return Status::ok();
}

} // namespace

Status missingField(const QString &field)
{
    return Status::invalidArgument(QStringLiteral("the payload has no \"%1\"").arg(field)).withField(field);
}

QString eventGroup(const QString &event)
{
    static const std::map<QString, QString> groups = [] {
        std::map<QString, QString> g;
        for (const char *same : {"ping", "push", "create", "delete", "issues", "issue_comment", "pull_request", "pull_request_review",
                                 "pull_request_review_comment", "release", "repository", "fork", "wiki", "status", "package",
                                 "workflow_run", "workflow_job", "member", "organization"})
            g[QLatin1String(same)] = QLatin1String(same);
        for (const char *issue : {"issue_assign", "issue_label", "issue_milestone"})
            g[QLatin1String(issue)] = QStringLiteral("issues");
        for (const char *pull : {"pull_request_assign", "pull_request_label", "pull_request_milestone", "pull_request_sync",
                                 "pull_request_review_request"})
            g[QLatin1String(pull)] = QStringLiteral("pull_request");
        g[QStringLiteral("pull_request_comment")] = QStringLiteral("issue_comment");
        for (const char *review : {"pull_request_review_approved", "pull_request_review_rejected", "pull_request_approved",
                                   "pull_request_rejected"})
            g[QLatin1String(review)] = QStringLiteral("pull_request_review");
        g[QStringLiteral("gollum")] = QStringLiteral("wiki");
        return g;
    }();
    const auto it = groups.find(event);
    return it == groups.end() ? QString() : it->second;
}

Status checkPayload(const QString &event, const QJsonObject &payload)
{
    QString group = eventGroup(event);
    if (group.isEmpty())
        return Status::invalidArgument(QStringLiteral("unknown event \"%1\"").arg(event.left(64))).withField(QStringLiteral("event"));
    if (group == QLatin1String("ping"))
        return Status::ok();
    std::vector<const char *> required{"sender"};
    if (group != QLatin1String("package") && group != QLatin1String("organization"))
        required.push_back("repository");
    if (group == QLatin1String("pull_request_review_comment") && payload.contains(QStringLiteral("review")))
        group = QStringLiteral("pull_request_review"); // Gitea's review of type comment
    static const std::map<QString, std::vector<const char *>> specific{
        {QStringLiteral("push"), {"ref", "after"}},
        {QStringLiteral("create"), {"ref", "ref_type"}},
        {QStringLiteral("delete"), {"ref", "ref_type"}},
        {QStringLiteral("issues"), {"action", "issue"}},
        {QStringLiteral("issue_comment"), {"action", "issue", "comment"}},
        {QStringLiteral("pull_request"), {"action", "pull_request"}},
        {QStringLiteral("pull_request_review"), {"pull_request", "review"}},
        {QStringLiteral("pull_request_review_comment"), {"action", "pull_request", "comment"}},
        {QStringLiteral("release"), {"action", "release"}},
        {QStringLiteral("repository"), {"action"}},
        {QStringLiteral("fork"), {"forkee"}},
        {QStringLiteral("status"), {"sha", "state"}},
        {QStringLiteral("package"), {"action", "package"}},
        {QStringLiteral("workflow_run"), {"workflow_run"}},
        {QStringLiteral("workflow_job"), {"workflow_job"}},
        {QStringLiteral("member"), {"action", "member"}},
        {QStringLiteral("organization"), {"action", "organization"}},
    };
    if (const auto it = specific.find(group); it != specific.end())
        required.insert(required.end(), it->second.begin(), it->second.end());
    for (const char *field : required) {
        const QJsonValue value = payload.value(QLatin1String(field));
        if (value.isUndefined() || value.isNull())
            return missingField(QLatin1String(field));
    }
    return checkNumbers(payload, QString());
}

bool isForgeEventWithoutCounterpart(const QString &event)
{
    // Every event GitHub documents (docs.github.com, "Webhook events and payloads") that Gitea's
    // notifier has no event for: a GitHub hook set to "send me everything" is answered 202 for
    // them, never marked failing. A name no forge documents stays a 400.
    static const QSet<QString> documented = [] {
        QSet<QString> names;
        for (const char *name :
             {"branch_protection_configuration", "branch_protection_rule", "check_run", "check_suite", "code_scanning_alert",
              "commit_comment", "custom_property", "custom_property_values", "dependabot_alert", "deploy_key", "deployment",
              "deployment_protection_rule", "deployment_review", "deployment_status", "discussion", "discussion_comment",
              "github_app_authorization", "installation", "installation_repositories", "installation_target", "label",
              "marketplace_purchase", "membership", "merge_group", "meta", "milestone", "org_block",
              "page_build", "personal_access_token_request", "project", "project_card", "project_column", "projects_v2",
              "projects_v2_item", "projects_v2_status_update", "public", "pull_request_review_thread", "registry_package",
              "repository_advisory", "repository_dispatch", "repository_import", "repository_ruleset",
              "repository_vulnerability_alert", "secret_scanning_alert", "secret_scanning_alert_location",
              "secret_scanning_scan", "security_advisory", "security_and_analysis", "sponsorship", "star", "sub_issues",
              "team", "team_add", "watch", "workflow_dispatch"})
            names.insert(QLatin1String(name));
        return names;
    }();
    return documented.contains(event);
}

} // namespace Switchyard
