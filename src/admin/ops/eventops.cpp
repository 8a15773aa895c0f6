#include "eventops.h"

#include "engine/engine.h"
#include "engine/forge/forgedata.h"

#include <QJsonDocument>

namespace Switchyard::Admin::Ops {

namespace {

// Statuses named in ?status=unread,pinned.
Result<std::vector<NotificationStatus>> statusesOf(const QString &list)
{
    std::vector<NotificationStatus> statuses;
    for (const QString &name : list.split(u',', Qt::SkipEmptyParts)) {
        const std::optional<NotificationStatus> status = notificationStatusFromName(name.trimmed());
        if (!status)
            return Status::invalidArgument(QStringLiteral("status: \"%1\" is not one of unread, read, pinned").arg(name.left(64)))
                .withField(QStringLiteral("status"));
        statuses.push_back(*status);
    }
    return statuses;
}

} // namespace

const Op<EventPost, EventAcceptedRow> eventIngest{
    {.action = "event.ingest", .method = HttpMethod::Post, .path = "/events", .flags = Ingest | MayWait,
     .summary = "post a Gitea or GitHub webhook payload (stored, then processed)", .cli = "events send",
     .done = "accepted as event {id}", .maxBody = 10 << 20, .okStatus = 202},
    [](OpContext &c, const EventPost &a) -> Result<EventAcceptedRow> {
        if (!c.tokenName.isEmpty() && c.role == QLatin1String("read-only"))
            return Status::permissionDenied(QStringLiteral("forbidden: the token \"%1\" is read-only").arg(c.tokenName));
        IncomingEvent in;
        in.source = a.source.isEmpty() ? QStringLiteral("default") : a.source;
        // The forge's own headers first: the fine type, the group, GitHub's, then ?event=.
        for (const QString &candidate : {a.giteaEventType, a.giteaEvent, a.githubEvent, a.event})
            if (in.event.isEmpty())
                in.event = candidate.trimmed();
        in.deliveryId = !a.giteaDelivery.isEmpty() ? a.giteaDelivery : a.githubDelivery;
        in.payload = a.payload;
        in.hubSignature256 = a.hubSignature256.toUtf8();
        in.giteaSignature = a.giteaSignature.toUtf8();
        in.webhookId = a.webhookId.toUtf8();
        in.webhookTimestamp = a.webhookTimestamp.toUtf8();
        in.webhookSignature = a.webhookSignature.toUtf8();
        if (in.deliveryId.isEmpty())
            in.deliveryId = a.webhookId;
        in.byToken = !c.tokenName.isEmpty() || !c.viaApi; // the console's own engine is its operator's
        Result<EventAccepted> accepted = c.engine.events().accept(c.cancel, in);
        if (!accepted)
            return accepted.status();
        return EventAcceptedRow{accepted->id, accepted->duplicate, accepted->traceId, accepted->ignored};
    }};

const Op<EventListArgs, Page<EventRecord>> eventList{
    {.action = "event.list", .method = HttpMethod::Get, .path = "/events",
     .summary = "ingested events, newest first", .cli = "events list", .cliAliases = {"events"},
     .columns = {{"id", "id"}, {"received", "received_at"}, {"source", "source"}, {"event", "event"}, {"action", "action"},
                 {"repo", "repo"}, {"sender", "sender"}, {"status", "status"}, {"error", "error"}}},
    [](OpContext &c, const EventListArgs &a) -> Result<Page<EventRecord>> {
        EventFilter filter;
        filter.event = a.type;
        filter.repo = a.repo;
        filter.status = a.status;
        filter.since = a.since;
        filter.offset = (a.page - 1) * a.limit;
        filter.limit = a.limit;
        Result<EventPage> page = c.engine.events().list(filter);
        if (!page)
            return page.status();
        return Page<EventRecord>{std::move(page->rows), page->total};
    }};

const Op<EventRef, EventDetail> eventGet{
    {.action = "event.get", .method = HttpMethod::Get, .path = "/events/{id}",
     .summary = "one ingested event with its payload", .cli = "events show"},
    [](OpContext &c, const EventRef &a) -> Result<EventDetail> {
        Result<EventRecord> event = c.engine.events().get(a.id);
        if (!event)
            return event.status();
        EventDetail detail;
        const QJsonDocument doc = QJsonDocument::fromJson(event->payload);
        detail.payload = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(QString::fromUtf8(event->payload));
        event->payload.clear();
        detail.event = std::move(event).value();
        return detail;
    }};

const Op<NotificationListArgs, Page<NotificationRow>> notificationList{
    {.action = "notification.list", .method = HttpMethod::Get, .path = "/notifications",
     .summary = "in-app notifications, most recently updated first", .cli = "notifications list", .cliAliases = {"notifications"},
     .columns = {{"id", "id"}, {"user", "user"}, {"repo", "repo"}, {"issue", "issue_number"}, {"title", "issue_title"},
                 {"status", "status"}, {"source", "source"}, {"updated", "updated_at"}}},
    [](OpContext &c, const NotificationListArgs &a) -> Result<Page<NotificationRow>> {
        Result<std::vector<NotificationStatus>> statuses = statusesOf(a.status);
        if (!statuses)
            return statuses.status();
        NotificationFilter filter;
        filter.userId = a.user;
        filter.statuses = *statuses;
        filter.offset = (a.page - 1) * a.limit;
        filter.limit = a.limit;
        Result<NotificationPage> page = c.engine.notifications().list(filter);
        if (!page)
            return page.status();
        return Page<NotificationRow>{std::move(page->rows), page->total};
    }};

const Op<UserRef, UnreadCount> notificationNew{
    {.action = "notification.new", .method = HttpMethod::Get, .path = "/notifications/new",
     .summary = "how many unread notifications a user has", .cli = "notifications new"},
    [](OpContext &c, const UserRef &a) -> Result<UnreadCount> {
        Result<qint64> count = c.engine.notifications().countUnread(a.user);
        if (!count)
            return count.status();
        return UnreadCount{*count};
    }};

const Op<NotificationChange, NotificationRow> notificationUpdate{
    {.action = "notification.update", .method = HttpMethod::Patch, .path = "/notifications/{id}", .flags = Mutating,
     .summary = "mark a notification read, unread or pinned", .cli = "notifications mark", .done = "notification {id} is {status}"},
    [](OpContext &c, const NotificationChange &a) -> Result<NotificationRow> {
        const std::optional<NotificationStatus> status = notificationStatusFromName(a.status);
        if (!status)
            return Status::invalidArgument(QStringLiteral("status: \"%1\" is not one of read, unread, pinned").arg(a.status.left(64)))
                .withField(QStringLiteral("status"));
        return c.engine.notifications().setStatus(a.id, *status);
    }};

const Op<UserRef, NoContent> notificationReadAll{
    {.action = "notification.read-all", .method = HttpMethod::Post, .path = "/notifications/read-all", .flags = Mutating,
     .summary = "mark every unread notification of a user read", .cli = "notifications read-all",
     .done = "marked the user's notifications read", .okStatus = 205},
    [](OpContext &c, const UserRef &a) -> Result<NoContent> {
        if (Result<qint64> marked = c.engine.notifications().markAllRead(a.user); !marked)
            return marked.status();
        return NoContent{};
    }};

const Op<FeedArgs, Page<ActionRow>> feedList{
    {.action = "feed.list", .method = HttpMethod::Get, .path = "/feed",
     .summary = "the activity feed: what happened, in whose feed, newest first", .cli = "feed",
     .columns = {{"id", "id"}, {"user", "user"}, {"actor", "actor"}, {"op", "op_type"}, {"repo", "repo"}, {"ref", "ref_name"},
                 {"content", "content"}, {"created", "created_at"}}},
    [](OpContext &c, const FeedArgs &a) -> Result<Page<ActionRow>> {
        ActionFilter filter;
        filter.userId = a.user;
        filter.repoId = a.repo;
        filter.offset = (a.page - 1) * a.limit;
        filter.limit = a.limit;
        qint64 total = 0;
        Result<std::vector<ActionRow>> rows = c.engine.feed().list(filter, &total);
        if (!rows)
            return rows.status();
        return Page<ActionRow>{std::move(rows).value(), total};
    }};

const Op<TraceRef, Trace> traceGet{
    {.action = "trace.get", .method = HttpMethod::Get, .path = "/traces/{trace_id}",
     .summary = "what one cause produced: its event or cron run, notifications, feed rows, deliveries and mail", .cli = "traces show",
     .columns = {{"kind", "kind"}, {"id", "id"}, {"at", "at"}, {"status", "status"}, {"instance", "instance"}, {"summary", "summary"}}},
    [](OpContext &c, const TraceRef &a) -> Result<Trace> {
        if (a.traceId.isEmpty() || a.traceId.size() > 128)
            return Status::invalidArgument(QStringLiteral("trace_id: give the id of a trace (at most 128 characters)"))
                .withField(QStringLiteral("trace_id"));
        // Each work table by its trace index: (kind, SELECT id, at in ms, status, summary, the
        // instance that handled it, the delivery a hook-task sends again). Mail names its recipient
        // by login (when the forge told us the address), never by address.
        static const std::pair<const char *, QString> sources[] = {
            {"event", QStringLiteral("SELECT id, received_ms, status, event || ' ' || repo, claimed_by, 0 FROM event WHERE trace_id = ? ORDER BY id")},
            {"cron-run", QStringLiteral("SELECT id, started_ms, status, task || ' (' || trigger_kind || ')', instance_id, 0 FROM cron_run "
                                        "WHERE trace_id = ? ORDER BY id")},
            {"notification",
             QStringLiteral("SELECT n.id, n.updated_unix * 1000, n.status, COALESCE(u.login, '') || ': ' || COALESCE(o.login || '/' || r.name, '') "
                            "|| '#' || COALESCE(i.number, 0), '', 0 FROM notification n LEFT JOIN forge_user u ON u.id = n.user_id "
                            "LEFT JOIN repo r ON r.id = n.repo_id LEFT JOIN forge_user o ON o.id = r.owner_id "
                            "LEFT JOIN issue i ON i.id = n.issue_id WHERE n.trace_id = ? ORDER BY n.id")},
            {"feed", QStringLiteral("SELECT a.id, a.created_unix * 1000, a.op_type, COALESCE(u.login, ''), '', 0 FROM action a "
                                    "LEFT JOIN forge_user u ON u.id = a.user_id WHERE a.trace_id = ? ORDER BY a.id")},
            {"hook-task", QStringLiteral("SELECT id, created_ms, CASE WHEN outcome = '' THEN 'pending' ELSE outcome END, "
                                         "'hook ' || hook_id || ': ' || event_type, claimed_by, redelivery_of FROM hook_task "
                                         "WHERE trace_id = ? ORDER BY id")},
            {"mail", QStringLiteral("SELECT m.id, m.created_ms, CASE WHEN m.outcome <> '' THEN m.outcome WHEN m.is_claimed = 1 THEN 'sending' "
                                    "ELSE 'pending' END, m.info || COALESCE(' to ' || (SELECT MIN(u.login) FROM forge_user u "
                                    "WHERE u.email = m.to_address AND m.to_address <> ''), ''), m.claimed_by, 0 FROM mail_outbox m "
                                    "WHERE m.trace_id = ? ORDER BY m.id")},
        };
        Result<std::vector<TraceItem>> items = c.engine.store().readValue<std::vector<TraceItem>>(
            [&](SqlTransaction &tx) -> Result<std::vector<TraceItem>> {
                std::vector<TraceItem> found;
                for (const auto &[kind, sql] : sources) {
                    Result<QSqlQuery> q = tx.exec(sql, {a.traceId});
                    if (!q)
                        return q.status();
                    while (q->next()) {
                        TraceItem item{QLatin1String(kind), q->value(0).toLongLong(), fromStoreMs(q->value(1).toLongLong()),
                                       q->value(2).toString(), q->value(3).toString(), q->value(4).toString(), std::nullopt};
                        if (item.kind == QLatin1String("notification"))
                            item.status = notificationStatusName(NotificationStatus(q->value(2).toInt()));
                        else if (item.kind == QLatin1String("feed"))
                            item.status = Json::encode(ActionType(q->value(2).toInt())).toString();
                        if (const qint64 first = q->value(5).toLongLong(); first > 0)
                            item.redeliveryOf = first;
                        found.push_back(std::move(item));
                    }
                }
                return found;
            });
        if (!items)
            return items.status();
        if (items->empty())
            return Status::notFound(QStringLiteral("nothing has trace id %1").arg(a.traceId.left(128))).withField(QStringLiteral("trace_id"));
        // Oldest first. Forge rows keep seconds, engine rows milliseconds: within one second the
        // cause (event, cron run) comes before what it produced, in the order of the sources.
        const auto rank = [](const TraceItem &t) {
            for (std::size_t i = 0; i < std::size(sources); ++i)
                if (t.kind == QLatin1String(sources[i].first))
                    return int(i);
            return int(std::size(sources));
        };
        std::stable_sort(items->begin(), items->end(), [&](const TraceItem &x, const TraceItem &y) {
            const qint64 xs = x.at.toSecsSinceEpoch(), ys = y.at.toSecsSinceEpoch();
            if (xs != ys)
                return xs < ys;
            return rank(x) < rank(y);
        });
        Trace trace;
        trace.root = items->front();
        for (const TraceItem &item : *items)
            if (item.kind == QLatin1String("event") || item.kind == QLatin1String("cron-run")) {
                trace.root = item;
                break;
            }
        trace.items = std::move(items).value();
        return trace;
    }};

const Op<PageArgs, Page<ForgeUserRow>> userList{
    {.action = "user.list", .method = HttpMethod::Get, .path = "/users",
     .summary = "the forge's users seen in events, with their unread counts", .cli = "users list", .cliAliases = {"users"},
     .columns = {{"id", "id"}, {"login", "login"}, {"source", "source"}, {"unread", "unread"}, {"bot", "is_bot"}}},
    [](OpContext &c, const PageArgs &a) -> Result<Page<ForgeUserRow>> {
        qint64 total = 0;
        Result<std::vector<ForgeUserRow>> rows = c.engine.notifications().users((a.page - 1) * a.limit, a.limit, &total);
        if (!rows)
            return rows.status();
        return Page<ForgeUserRow>{std::move(rows).value(), total};
    }};

const Op<PageArgs, Page<RepoRow>> repoList{
    {.action = "repo.list", .method = HttpMethod::Get, .path = "/repos",
     .summary = "the repositories seen in events, with their watcher counts", .cli = "repos list", .cliAliases = {"repos"},
     .columns = {{"id", "id"}, {"repository", "full_name"}, {"source", "source"}, {"private", "private"}, {"watchers", "watchers"}}},
    [](OpContext &c, const PageArgs &a) -> Result<Page<RepoRow>> {
        qint64 total = 0;
        Result<std::vector<RepoRow>> rows = c.engine.store().readValue<std::vector<RepoRow>>(
            [&](SqlTransaction &tx) { return ForgeDb::repos(tx, (a.page - 1) * a.limit, a.limit, &total); });
        if (!rows)
            return rows.status();
        return Page<RepoRow>{std::move(rows).value(), total};
    }};

const Op<RepoRef, std::vector<RepoPersonRow>> repoPeople{
    {.action = "repo.watchers", .method = HttpMethod::Get, .path = "/repos/{id}/watchers", .flags = Paged,
     .summary = "who watches a repository (mode, kinds), who muted it, who may read it", .cli = "repos watchers",
     .columns = {{"user", "login"}, {"mode", "mode"}, {"issues", "issues"}, {"pulls", "pulls"}, {"releases", "releases"},
                 {"muted", "muted"}, {"access", "access"}}},
    [](OpContext &c, const RepoRef &a) -> Result<std::vector<RepoPersonRow>> {
        return c.engine.store().readValue<std::vector<RepoPersonRow>>([&](SqlTransaction &tx) -> Result<std::vector<RepoPersonRow>> {
            if (Status s = ForgeDb::checkRepo(tx, a.id); !s)
                return s;
            return ForgeDb::repoPeople(tx, a.id);
        });
    }};

namespace {

// The repository and the user exist, then `change` — one transaction.
Result<Done> changeRepoPerson(OpContext &c, qint64 repo, qint64 user, const std::function<Status(SqlTransaction &)> &change)
{
    const Status done = c.engine.store().write([&](SqlTransaction &tx) -> Status {
        if (Status s = ForgeDb::checkRepo(tx, repo); !s)
            return s;
        if (Status s = ForgeDb::checkUser(tx, user); !s)
            return s;
        return change(tx);
    });
    if (!done)
        return done;
    return Done{};
}

} // namespace

const Op<WatchChange, Done> repoWatch{
    {.action = "repo.watch", .method = HttpMethod::Put, .path = "/repos/{id}/watchers/{user}", .flags = Mutating,
     .summary = "set how a user watches a repository (none removes the watch)", .cli = "repos watch",
     .done = "user {user} watches repository {id}: {mode}"},
    [](OpContext &c, const WatchChange &a) -> Result<Done> {
        WatchMode mode = WatchMode::None;
        if (Status s = Json::decode(QJsonValue(a.mode), mode, QStringLiteral("mode")); !s)
            return Status::invalidArgument(QStringLiteral("mode: \"%1\" is not one of none, normal, dont, auto").arg(a.mode.left(64)))
                .withField(QStringLiteral("mode"));
        WatchKinds kinds{false, false, false};
        for (const QString &kind : a.kinds.split(u',', Qt::SkipEmptyParts)) {
            const QString k = kind.trimmed();
            if (k == QLatin1String("issues"))
                kinds.issues = true;
            else if (k == QLatin1String("pulls"))
                kinds.pulls = true;
            else if (k == QLatin1String("releases"))
                kinds.releases = true;
            else
                return Status::invalidArgument(QStringLiteral("kinds: \"%1\" is not one of issues, pulls, releases").arg(k.left(64)))
                    .withField(QStringLiteral("kinds"));
        }
        return changeRepoPerson(c, a.id, a.user, [&](SqlTransaction &tx) { return ForgeDb::setWatch(tx, a.user, a.id, mode, kinds); });
    }};

// Gitea's EmailNotificationsPreference, which webhook payloads do not carry: set by operators.
const Op<MailPreferenceChange, Done> userMail{
    {.action = "user.mail", .method = HttpMethod::Put, .path = "/users/{id}/mail", .flags = Mutating,
     .summary = "set which mail a user gets: enabled, onmention, disabled or andyourown", .cli = "users mail",
     .done = "user {id} gets mail: {email_notifications}"},
    [](OpContext &c, const MailPreferenceChange &a) -> Result<Done> {
        const Status done = c.engine.store().write([&](SqlTransaction &tx) -> Status {
            if (Status s = ForgeDb::checkUser(tx, a.id); !s)
                return s;
            return ForgeDb::setMailPreference(tx, a.id, a.preference);
        });
        if (!done)
            return done;
        return Done{};
    }};

const Op<RepoUser, Done> repoMute{
    {.action = "repo.mute", .method = HttpMethod::Put, .path = "/repos/{id}/mutes/{user}", .flags = Mutating,
     .summary = "mute a repository for a user: no notification from it, mentions included", .cli = "repos mute",
     .done = "user {user} muted repository {id}"},
    [](OpContext &c, const RepoUser &a) -> Result<Done> {
        return changeRepoPerson(c, a.id, a.user, [&](SqlTransaction &tx) { return ForgeDb::setMute(tx, a.user, a.id, true); });
    }};

const Op<RepoUser, Done> repoUnmute{
    {.action = "repo.unmute", .method = HttpMethod::Delete, .path = "/repos/{id}/mutes/{user}", .flags = Mutating,
     .summary = "lift a user's mute of a repository", .cli = "repos unmute", .done = "user {user} hears repository {id} again"},
    [](OpContext &c, const RepoUser &a) -> Result<Done> {
        return changeRepoPerson(c, a.id, a.user, [&](SqlTransaction &tx) { return ForgeDb::setMute(tx, a.user, a.id, false); });
    }};

const Op<AccessChange, Done> repoCollaborator{
    {.action = "repo.collaborator", .method = HttpMethod::Put, .path = "/repos/{id}/collaborators/{user}", .flags = Mutating,
     .summary = "a user's access to a private repository (0 removes)", .cli = "repos collaborator",
     .done = "user {user} has access {access} to repository {id}"},
    [](OpContext &c, const AccessChange &a) -> Result<Done> {
        return changeRepoPerson(c, a.id, a.user, [&](SqlTransaction &tx) { return ForgeDb::setCollaborator(tx, a.id, a.user, int(a.access)); });
    }};

// What the organisation's teams give a member on one of its repositories (Gitea's team_repo ×
// team_user): read access to a private repository for notifications and mail.
const Op<AccessChange, Done> repoTeamAccess{
    {.action = "repo.team-access", .method = HttpMethod::Put, .path = "/repos/{id}/team-access/{user}", .flags = Mutating,
     .summary = "the access an organisation member's teams give to its repository (0 removes)", .cli = "repos team-access",
     .done = "user {user} has team access {access} to repository {id}"},
    [](OpContext &c, const AccessChange &a) -> Result<Done> {
        return changeRepoPerson(c, a.id, a.user, [&](SqlTransaction &tx) -> Status {
            if (a.access > 0) { // a team's member is the organisation's member
                Result<qint64> owner = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(r.owner_id), 0) FROM repo r "
                                                                "JOIN forge_user o ON o.id = r.owner_id WHERE r.id = ? AND o.is_org = 1"),
                                                 {a.id});
                if (!owner)
                    return owner.status();
                if (*owner == 0)
                    return Status::invalidArgument(QStringLiteral("id: repository %1 is not an organisation's").arg(a.id))
                        .withField(QStringLiteral("id"));
                Result<qint64> member = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM org_member WHERE org_id = ? AND user_id = ?"),
                                                  {*owner, a.user});
                if (!member)
                    return member.status();
                if (*member == 0)
                    if (Status s = ForgeDb::setOrgMember(tx, *owner, a.user, true); !s)
                        return s;
            }
            return ForgeDb::setTeamAccess(tx, a.id, a.user, int(a.access));
        });
    }};

const Op<OrgMemberChange, Done> orgMember{
    {.action = "org.member", .method = HttpMethod::Put, .path = "/orgs/{id}/members/{user}", .flags = Mutating,
     .summary = "a user's membership of an organisation: none, member or owner (owners read every repository of it)",
     .cli = "orgs member", .done = "user {user} is {role} of organisation {id}"},
    [](OpContext &c, const OrgMemberChange &a) -> Result<Done> {
        if (a.role != QLatin1String("none") && a.role != QLatin1String("member") && a.role != QLatin1String("owner"))
            return Status::invalidArgument(QStringLiteral("role: \"%1\" is not one of none, member, owner").arg(a.role.left(64)))
                .withField(QStringLiteral("role"));
        const Status done = c.engine.store().write([&](SqlTransaction &tx) -> Status {
            Result<qint64> isOrg = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(is_org), -1) FROM forge_user WHERE id = ?"), {a.id});
            if (!isOrg)
                return isOrg.status();
            if (*isOrg != 1)
                return (*isOrg < 0 ? Status::notFound(QStringLiteral("no organisation %1").arg(a.id))
                                   : Status::invalidArgument(QStringLiteral("id: user %1 is not an organisation").arg(a.id)))
                    .withField(QStringLiteral("id"));
            if (Status s = ForgeDb::checkUser(tx, a.user); !s)
                return s;
            if (a.role == QLatin1String("none")) // leaving ends every team membership (Gitea's RemoveOrgUser)
                if (Status s = tx.exec(QStringLiteral("DELETE FROM team_access WHERE user_id = ? AND repo_id IN "
                                                      "(SELECT id FROM repo WHERE owner_id = ?)"),
                                       {a.user, a.id})
                                   .status();
                    !s)
                    return s;
            return ForgeDb::setOrgMember(tx, a.id, a.user, a.role != QLatin1String("none"), a.role == QLatin1String("owner"));
        });
        if (!done)
            return done;
        return Done{};
    }};

std::vector<const OpBase *> eventOps()
{
    return {&eventIngest, &eventList,  &eventGet,  &notificationList, &notificationNew, &notificationUpdate, &notificationReadAll,
            &feedList,    &traceGet,   &userList,  &repoList,         &repoPeople,      &repoWatch,          &userMail,          &repoMute,
            &repoUnmute,  &repoCollaborator, &repoTeamAccess, &orgMember};
}

} // namespace Switchyard::Admin::Ops
