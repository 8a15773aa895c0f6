// The webhook notifier's packages, commit statuses and Actions workflows (notifier.h has the
// rest and the thread notes: these run on the notify bus's dispatch like every notifier call).
// Payloads as Gitea's hook.go has them: PackagePayload, CommitStatusPayload, WorkflowRunPayload,
// WorkflowJobPayload, each field in its struct's order.
#include "notifier.h"

#include "payloads.h"
#include "webhook.h"

namespace Switchyard::Webhook {

using namespace Qt::StringLiterals;

namespace {

OrderedObject sender(const NotifyContext &c, const ForgeRepo &repo)
{
    return Payload::user(c.doer, Payload::appUrl(repo));
}

// api.Organization (omitempty in the workflow payloads: only an organisation's repository has one).
void addOrganization(OrderedObject &payload, const ForgeRepo &repo)
{
    if (!repo.owner.isOrganization)
        return;
    const ForgeUser &o = repo.owner;
    OrderedObject org;
    org.add(u"id"_s, o.externalId).add(u"name"_s, o.login).add(u"full_name"_s, o.fullName).add(u"email"_s, o.email);
    org.add(u"avatar_url"_s, o.avatarUrl).add(u"description"_s, QString()).add(u"website"_s, QString()).add(u"location"_s, QString());
    org.add(u"visibility"_s, u"public"_s).add(u"repo_admin_change_team_access"_s, false).add(u"username"_s, o.login);
    payload.add(u"organization"_s, org);
}

QString runUrl(const ForgeRepo &repo, qint64 runId)
{
    return repo.htmlUrl.isEmpty() ? QString() : repo.htmlUrl + u"/actions/runs/"_s + QString::number(runId);
}

} // namespace

// ---- packages ---------------------------------------------------------------------------------------

void WebhookNotifier::sendPackage(const char *method, const NotifyContext &c, const ForgePackage &package, const QString &action)
{
    // No repository: the forge's root is unknown, so html_url and the users' pages stay empty.
    OrderedObject body;
    body.add(u"id"_s, package.id).add(u"owner"_s, Payload::user(package.owner, QString())).addNull(u"repository"_s);
    body.add(u"creator"_s, Payload::user(c.doer, QString())).add(u"type"_s, package.type).add(u"name"_s, package.name);
    body.add(u"version"_s, package.version).add(u"html_url"_s, QString()).add(u"created_at"_s, QString(Payload::kZeroTime));
    // Gitea's notifier fills neither repository nor organization for a package.
    OrderedObject payload;
    payload.add(u"action"_s, action).addNull(u"repository"_s).add(u"package"_s, body).addNull(u"organization"_s);
    payload.add(u"sender"_s, Payload::user(c.doer, QString()));
    send(method, EventSource{0, package.owner.id}, HookEventType::Package, payload, c);
}

void WebhookNotifier::packageCreate(const NotifyContext &c, const ForgePackage &package)
{
    sendPackage("packageCreate", c, package, u"created"_s);
}

void WebhookNotifier::packageDelete(const NotifyContext &c, const ForgePackage &package)
{
    sendPackage("packageDelete", c, package, u"deleted"_s);
}

// ---- statuses and workflows ---------------------------------------------------------------------------

void WebhookNotifier::createCommitStatus(const NotifyContext &c, const ForgeRepo &repo, const CommitStatus &status)
{
    PushCommit commit;
    commit.sha = status.sha;
    OrderedObject payload;
    payload.add(u"commit"_s, Payload::commit(commit, repo)).add(u"context"_s, status.context);
    payload.add(u"created_at"_s, QString(Payload::kZeroTime)).add(u"description"_s, status.description).add(u"id"_s, 0);
    payload.add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo)).add(u"sha"_s, status.sha);
    payload.add(u"state"_s, status.state).add(u"target_url"_s, Payload::absoluteUrl(status.targetUrl, repo.htmlUrl));
    payload.addNull(u"updated_at"_s);
    send("createCommitStatus", EventSource{repo.id, repo.owner.id}, HookEventType::Status, payload, c);
}

void WebhookNotifier::workflowRunStatusUpdate(const NotifyContext &c, const ForgeRepo &repo, const WorkflowRun &run)
{
    const QString action = run.status == u"completed"_s ? u"completed"_s
                           : run.status == u"in_progress"_s ? u"in_progress"_s
                                                            : u"requested"_s;
    // What the forge told of the run; api.ActionWorkflowRun has more (docs/webhooks.md).
    OrderedObject body;
    body.add(u"id"_s, run.id).add(u"html_url"_s, runUrl(repo, run.id)).add(u"display_title"_s, run.name);
    body.add(u"event"_s, run.event).add(u"run_number"_s, run.runNumber).add(u"head_branch"_s, run.headBranch);
    body.add(u"status"_s, run.status);
    if (!run.conclusion.isEmpty())
        body.add(u"conclusion"_s, run.conclusion);
    body.add(u"name"_s, run.name);
    OrderedObject payload;
    payload.add(u"action"_s, action).addNull(u"workflow"_s).add(u"workflow_run"_s, body);
    addOrganization(payload, repo);
    payload.add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo));
    send("workflowRunStatusUpdate", EventSource{repo.id, repo.owner.id}, HookEventType::WorkflowRun, payload, c);
}

void WebhookNotifier::workflowJobStatusUpdate(const NotifyContext &c, const ForgeRepo &repo, const WorkflowJob &job)
{
    const QString action = job.status == u"completed"_s     ? u"completed"_s
                           : job.status == u"in_progress"_s ? u"in_progress"_s
                           : job.status == u"waiting"_s     ? u"waiting"_s
                                                            : u"queued"_s;
    // api.ActionWorkflowJob; what the forge did not tell (sha, labels, steps, times) is zero.
    const QString run = runUrl(repo, job.runId);
    OrderedObject body;
    body.add(u"id"_s, job.id).add(u"url"_s, QString()).add(u"html_url"_s, QString()).add(u"run_id"_s, job.runId);
    body.add(u"run_url"_s, run).add(u"name"_s, job.name).add(u"labels"_s, OrderedArray()).add(u"run_attempt"_s, 0);
    body.add(u"head_sha"_s, QString()).add(u"status"_s, job.status);
    if (!job.conclusion.isEmpty())
        body.add(u"conclusion"_s, job.conclusion);
    body.add(u"steps"_s, OrderedArray()).add(u"created_at"_s, QString(Payload::kZeroTime));
    body.add(u"started_at"_s, QString(Payload::kZeroTime)).add(u"completed_at"_s, QString(Payload::kZeroTime));
    OrderedObject payload;
    payload.add(u"action"_s, action).add(u"workflow_job"_s, body);
    addOrganization(payload, repo);
    payload.add(u"repository"_s, Payload::repository(repo)).add(u"sender"_s, sender(c, repo));
    send("workflowJobStatusUpdate", EventSource{repo.id, repo.owner.id}, HookEventType::WorkflowJob, payload, c);
}

} // namespace Switchyard::Webhook
