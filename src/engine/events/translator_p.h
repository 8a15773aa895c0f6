#pragma once

// The translation of one forge event (translate.cpp: pushes, issues, pulls and comments;
// translatemore.cpp: reviews, releases, repositories, wikis and GitHub's access facts): the
// Translator, which upserts what the payload names and queues the bus calls, and the payload
// readers it shares. Private to event ingestion; one Translator per event, on the thread of the
// event_ingest worker that processes it, inside that event's write transaction.

#include "translate_p.h"

#include "engine/core/escape.h"
#include "engine/core/mailaddress.h"
#include "engine/core/wholenumber.h"
#include "engine/forge/forgedata.h"
#include "engine/store/store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <optional>

namespace Switchyard::Translate {

inline const QString kZeroSha = QStringLiteral("0000000000000000000000000000000000000000");

inline QJsonObject object(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toObject();
}
inline QString text(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}
// 0 when absent; checkNumbers() refused a payload whose number there is not whole or out of range.
inline qint64 number(const QJsonObject &o, const char *key)
{
    return wholeNumber<qint64>(o.value(QLatin1String(key))).value_or(0);
}

inline bool flag(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toBool();
}
// changes.<field>.from, as both forges send for edits.
inline QString changedFrom(const QJsonObject &payload, const char *field)
{
    return object(object(payload, "changes"), field).value(QStringLiteral("from")).toString();
}
inline bool changed(const QJsonObject &payload, const char *field)
{
    return object(payload, "changes").contains(QLatin1String(field));
}

class Translator
{
public:
    Translator(SqlTransaction &tx, QString source, bool autoWatch, NotifyContext context)
        : m_tx(tx), m_source(std::move(source)), m_autoWatch(autoWatch), m_context(std::move(context))
    {
    }

    Result<Translation> run(const QString &event, const QJsonObject &payload);

private:
    Result<ForgeUser> user(const QJsonObject &json)
    {
        ForgeUser seen;
        seen.login = text(json, "login");
        if (seen.login.isEmpty())
            seen.login = text(json, "username");
        seen.fullName = text(json, "full_name");
        if (seen.fullName.isEmpty())
            seen.fullName = text(json, "name");
        seen.language = text(json, "language");
        seen.avatarUrl = text(json, "avatar_url");
        const QString type = text(json, "type");
        seen.isBot = type == QLatin1String("Bot") || seen.login.endsWith(QLatin1String("[bot]"));
        seen.isOrganization = type == QLatin1String("Organization");
        const qint64 externalId = number(json, "id");
        if (externalId <= 0 || seen.login.isEmpty())
            return missingField(QStringLiteral("user.id"));
        const std::optional<QString> email =
            mailbox(text(json, "email"), QStringLiteral("user \"%1\" (id %2): email").arg(escapeControl(seen.login, 64), QString::number(externalId)));
        seen.email = email.value_or(QString());
        Result<ForgeUser> stored = ForgeDb::upsertUser(m_tx, m_source, externalId, seen);
        if (stored && !email) { // refused: the address stored before is forgotten too
            if (Status forgot = ForgeDb::forgetEmail(m_tx, stored->id); !forgot)
                return forgot;
            stored->email.clear();
        }
        return stored;
    }

    // An email from the payload as it may go on the wire: "" stays "", a Mailbox is kept (its
    // domain in ACE form), anything else is noted (`what` names the field) and nullopt.
    std::optional<QString> mailbox(const QString &email, const QString &what)
    {
        if (email.isEmpty())
            return email;
        Result<QString> parsed = parseMailbox(email);
        if (parsed)
            return *parsed;
        const QString note = QStringLiteral("%1 dropped: %2").arg(what, parsed.status().message());
        if (!m_out.notes.contains(note)) // the same user comes as sender, owner, poster …
            m_out.notes << note;
        return std::nullopt;
    }

    Result<ForgeRepo> repo(const QJsonObject &json)
    {
        if (json.isEmpty())
            return missingField(QStringLiteral("repository"));
        Result<ForgeUser> owner = user(object(json, "owner"));
        if (!owner)
            return owner.status();
        ForgeRepo seen;
        seen.owner = *owner;
        seen.name = text(json, "name");
        seen.isPrivate = flag(json, "private");
        seen.isFork = flag(json, "fork");
        seen.defaultBranch = text(json, "default_branch");
        seen.htmlUrl = text(json, "html_url");
        const QJsonObject parent = object(json, "parent");
        if (!parent.isEmpty() && !object(parent, "owner").isEmpty()) {
            Result<ForgeRepo> of = repo(parent);
            if (!of)
                return of.status();
            seen.forkOfId = of->id;
        }
        const qint64 externalId = number(json, "id");
        if (externalId <= 0)
            return missingField(QStringLiteral("repository.id"));
        return ForgeDb::upsertRepo(m_tx, m_source, externalId, seen);
    }

    Result<std::vector<ForgeUser>> users(const QJsonArray &array)
    {
        std::vector<ForgeUser> found;
        for (const QJsonValue &value : array) {
            Result<ForgeUser> u = user(value.toObject());
            if (!u)
                return u.status();
            found.push_back(*u);
        }
        return found;
    }

    // An issue, or a pull request's issue (`pull` then describes the pull).
    Result<ForgeIssue> issue(const QJsonObject &json, const ForgeRepo &repo, bool isPull, ForgePullRequest *pull)
    {
        Result<ForgeUser> poster = user(object(json, "user"));
        if (!poster)
            return poster.status();
        ForgeIssue seen;
        seen.repoId = repo.id;
        seen.index = number(json, "number");
        seen.title = text(json, "title");
        seen.content = text(json, "body");
        seen.isPull = isPull;
        seen.isClosed = text(json, "state") == QLatin1String("closed");
        seen.poster = *poster;
        seen.htmlUrl = text(json, "html_url");
        const QJsonObject milestone = object(json, "milestone");
        seen.milestone = text(milestone, "title");
        std::optional<std::vector<ForgeUser>> assignees;
        Result<QSet<qint64>> before = ForgeDb::idSet(m_tx, QStringLiteral("SELECT a.user_id FROM issue_assignee a JOIN issue i ON i.id = a.issue_id "
                                                                          "WHERE i.repo_id = ? AND i.number = ?"),
                                                     {repo.id, seen.index});
        if (!before)
            return before.status();
        m_assigneesBefore = *before;
        if (json.contains(QStringLiteral("assignees")) && json.value(QStringLiteral("assignees")).isNull()) {
            assignees = std::vector<ForgeUser>{}; // Gitea's ToAPIIssue leaves "assignees" null when there are none
        } else if (json.value(QStringLiteral("assignees")).isArray()) {
            Result<std::vector<ForgeUser>> found = users(json.value(QStringLiteral("assignees")).toArray());
            if (!found)
                return found.status();
            assignees = *found;
        }
        if (pull) {
            pull->headBranch = text(object(json, "head"), "ref");
            pull->baseBranch = text(object(json, "base"), "ref");
            pull->hasMerged = flag(json, "merged");
            pull->mergedCommitId = text(json, "merge_commit_sha");
            pull->isWorkInProgress = isWorkInProgressTitle(seen.title) || flag(json, "draft");
            pull->externalId = number(json, "id");
        }
        // An issue's own id; a pull request payload carries the pull's (not stored as the issue's).
        Result<ForgeIssue> stored = ForgeDb::upsertIssue(m_tx, pull ? 0 : number(json, "id"), seen, pull, assignees ? &*assignees : nullptr);
        if (!stored)
            return stored.status();
        if (pull) {
            pull->id = stored->id;
            pull->issue = *stored;
            for (const QJsonValue &reviewer : json.value(QStringLiteral("requested_reviewers")).toArray()) {
                Result<ForgeUser> r = user(reviewer.toObject());
                if (!r)
                    return r.status();
                if (Status s = ForgeDb::setReviewRequest(m_tx, stored->id, r->id, true); !s)
                    return s;
            }
        }
        return stored;
    }

    // A comment on issue `issueId` (an issue comment, or a pull's line comment with its path and line).
    Result<ForgeComment> comment(const QJsonObject &json, qint64 issueId)
    {
        Result<ForgeUser> poster = user(object(json, "user"));
        if (!poster)
            return poster.status();
        ForgeComment seen;
        seen.issueId = issueId;
        seen.poster = *poster;
        seen.content = text(json, "body");
        seen.treePath = text(json, "path");
        seen.line = number(json, "line");
        seen.htmlUrl = text(json, "html_url");
        return ForgeDb::upsertComment(m_tx, m_source, number(json, "id"), seen);
    }

    Result<std::vector<ForgeUser>> mentions(const QString &content)
    {
        return ForgeDb::usersByLogin(m_tx, m_source, ForgeDb::mentionedLogins(content));
    }

    Status watchIfAuto(const ForgeRepo &repo)
    {
        if (!m_autoWatch)
            return Status::ok();
        return ForgeDb::watchIfAuto(m_tx, m_context.doer.id, repo.id);
    }
    // Something new by the doer: they may start watching, and its text may mention people.
    Result<std::vector<ForgeUser>> opened(const ForgeRepo &repo, const QString &content)
    {
        if (Status s = watchIfAuto(repo); !s)
            return s;
        return mentions(content);
    }

    template<typename F>
    void call(F f)
    {
        m_out.calls.push_back(std::move(f));
    }

    Status issues(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    Status pullRequest(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    Status issueComment(const QJsonObject &payload, const ForgeRepo &repo);
    Status review(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    Status reviewComment(const QJsonObject &payload, const ForgeRepo &repo);
    Status release(const QJsonObject &payload, const ForgeRepo &repo);
    Status repository(const QJsonObject &payload, const ForgeRepo &repo);
    Status wiki(const QString &event, const QJsonObject &payload, const ForgeRepo &repo);
    // GitHub's access facts (Gitea sends none): a collaborator added, changed or removed
    // (`member`), a member added to or removed from an organisation (`organization`). No bus
    // event: they decide who may read a private repository (ForgeDb::privateReaders).
    Status member(const QJsonObject &payload, const ForgeRepo &repo);
    Status organization(const QJsonObject &payload);
    // The changes shared by issues and pull requests (assignees, labels, milestones, edits).
    // Other actions have no bus event (ignored).
    Status issueChange(const QString &action, const QJsonObject &payload, const ForgeIssue &issue);

    // A note for the event's row (and the log), once.
    void note(const QString &text)
    {
        if (!m_out.notes.contains(text))
            m_out.notes << text;
    }
    // The commits a pull request's synchronize brought: the push to its head branch that the
    // forge sent just before (Gitea and GitHub send the push first), else the head alone.
    Result<QJsonObject> pushedCommits(const QJsonObject &payload, const ForgePullRequest &pr, const ForgeRepo &repo);

    SqlTransaction &m_tx;
    QSet<qint64> m_assigneesBefore; // the issue's assignees before this event (issue() reads them)
    const QString m_source;
    const bool m_autoWatch;
    NotifyContext m_context;
    Translation m_out;
};

} // namespace Switchyard::Translate
