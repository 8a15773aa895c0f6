#include "hookevents.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QStringList>

#include <array>

namespace Switchyard::Webhook {

namespace {

struct EventInfo
{
    HookEventType type;
    const char *name;
    const char *event; // the grouped name (Event())
};

// type.go's table, in its order.
constexpr std::array<EventInfo, kHookEventTypeCount> kEvents{{
    {HookEventType::Create, "create", "create"},
    {HookEventType::Delete, "delete", "delete"},
    {HookEventType::Fork, "fork", "fork"},
    {HookEventType::Push, "push", "push"},
    {HookEventType::Issues, "issues", "issues"},
    {HookEventType::IssueAssign, "issue_assign", "issues"},
    {HookEventType::IssueLabel, "issue_label", "issues"},
    {HookEventType::IssueMilestone, "issue_milestone", "issues"},
    {HookEventType::IssueComment, "issue_comment", "issue_comment"},
    {HookEventType::PullRequest, "pull_request", "pull_request"},
    {HookEventType::PullRequestAssign, "pull_request_assign", "pull_request"},
    {HookEventType::PullRequestLabel, "pull_request_label", "pull_request"},
    {HookEventType::PullRequestMilestone, "pull_request_milestone", "pull_request"},
    {HookEventType::PullRequestComment, "pull_request_comment", "issue_comment"},
    {HookEventType::PullRequestReviewApproved, "pull_request_review_approved", "pull_request_approved"},
    {HookEventType::PullRequestReviewRejected, "pull_request_review_rejected", "pull_request_rejected"},
    {HookEventType::PullRequestReviewComment, "pull_request_review_comment", "pull_request_comment"},
    {HookEventType::PullRequestSync, "pull_request_sync", "pull_request"},
    {HookEventType::PullRequestReviewRequest, "pull_request_review_request", "pull_request"},
    {HookEventType::Wiki, "wiki", "wiki"},
    {HookEventType::Repository, "repository", "repository"},
    {HookEventType::Release, "release", "release"},
    {HookEventType::Package, "package", "package"},
    {HookEventType::Status, "status", "status"},
    {HookEventType::PullRequestReview, "pull_request_review", "pull_request_review"},
    {HookEventType::Schedule, "schedule", "schedule"},
    {HookEventType::WorkflowRun, "workflow_run", "workflow_run"},
    {HookEventType::WorkflowJob, "workflow_job", "workflow_job"},
}};

const EventInfo &info(HookEventType type)
{
    return kEvents[std::size_t(type)];
}

constexpr std::array<const char *, 11> kHookTypes{"gitea",   "gogs",   "slack",  "discord",    "dingtalk", "telegram",
                                                  "msteams", "feishu", "matrix", "wechatwork", "packagist"};

QString eventNames()
{
    QStringList names;
    for (const EventInfo &e : kEvents)
        names << QLatin1String(e.name);
    return names.join(QStringLiteral(", "));
}

// The glob as a regular expression, or the reason it does not compile.
Result<QRegularExpression> translateGlob(const QString &glob)
{
    QString pattern;
    int braces = 0;
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const QChar c = glob.at(i);
        if (c == u'\\') {
            if (i + 1 >= glob.size())
                return Status::invalidArgument(QStringLiteral("a trailing \\ escapes nothing"));
            pattern += QRegularExpression::escape(glob.mid(++i, 1));
        } else if (c == u'*') {
            while (i + 1 < glob.size() && glob.at(i + 1) == u'*')
                ++i; // ** is * without separators
            pattern += QStringLiteral(".*");
        } else if (c == u'?') {
            pattern += u'.';
        } else if (c == u'[') {
            const qsizetype close = glob.indexOf(u']', i + 1);
            if (close < 0 || close == i + 1 || (close == i + 2 && glob.at(i + 1) == u'!'))
                return Status::invalidArgument(QStringLiteral("the class opened at character %1 is not closed").arg(i + 1));
            QString cls = glob.mid(i + 1, close - i - 1);
            const bool negated = cls.startsWith(u'!');
            if (negated)
                cls.remove(0, 1);
            QString body;
            for (qsizetype k = 0; k < cls.size(); ++k) {
                if (cls.at(k) == u'-' && k > 0 && k + 1 < cls.size()) {
                    if (cls.at(k - 1) > cls.at(k + 1))
                        return Status::invalidArgument(QStringLiteral("the range %1-%2 runs backwards").arg(cls.at(k - 1)).arg(cls.at(k + 1)));
                    body += u'-';
                } else {
                    body += QRegularExpression::escape(cls.mid(k, 1));
                }
            }
            pattern += (negated ? QStringLiteral("[^") : QStringLiteral("[")) + body + u']';
            i = close;
        } else if (c == u'{') {
            ++braces;
            pattern += QStringLiteral("(?:");
        } else if (c == u'}' && braces > 0) {
            --braces;
            pattern += u')';
        } else if (c == u',' && braces > 0) {
            pattern += u'|';
        } else {
            pattern += QRegularExpression::escape(QString(c));
        }
    }
    if (braces > 0)
        return Status::invalidArgument(QStringLiteral("a { is not closed"));
    QRegularExpression re(QRegularExpression::anchoredPattern(pattern));
    if (!re.isValid())
        return Status::invalidArgument(re.errorString());
    return re;
}

// translateGlob(), kept: compiling a pattern (and PCRE's JIT at its first match) costs tens of
// µs, and every event, claim and egress check reads the same few globs again. One cache per
// thread, so a compiled expression is never shared across threads; bounded (a full one starts
// again).
Result<QRegularExpression> compileGlob(const QString &glob)
{
    thread_local QHash<QString, Result<QRegularExpression>> compiled;
    if (const auto it = compiled.constFind(glob); it != compiled.cend())
        return *it;
    if (compiled.size() >= 256)
        compiled.clear();
    return *compiled.insert(glob, translateGlob(glob));
}

} // namespace

QString name(HookEventType type)
{
    return QLatin1String(info(type).name);
}

std::optional<HookEventType> hookEventFromName(QStringView name)
{
    for (const EventInfo &e : kEvents)
        if (name == QLatin1String(e.name))
            return e.type;
    return std::nullopt;
}

const std::vector<HookEventType> &everyHookEventType()
{
    static const std::vector<HookEventType> every = [] {
        std::vector<HookEventType> v;
        for (const EventInfo &e : kEvents)
            v.push_back(e.type);
        return v;
    }();
    return every;
}

QString event(HookEventType type)
{
    return QLatin1String(info(type).event);
}

bool isPullRequestReview(HookEventType type)
{
    return type == HookEventType::PullRequestReviewApproved || type == HookEventType::PullRequestReviewRejected ||
           type == HookEventType::PullRequestReviewComment;
}

const std::vector<HookEventType> &allEvents()
{
    static const std::vector<HookEventType> all = [] {
        std::vector<HookEventType> v;
        for (const EventInfo &e : kEvents)
            if (e.type != HookEventType::PullRequestReview && e.type != HookEventType::Schedule)
                v.push_back(e.type);
        return v;
    }();
    return all;
}

bool HookEvents::has(HookEventType type) const
{
    if (sendEverything)
        return true;
    if (pushOnly)
        return type == HookEventType::Push;
    return events.count(isPullRequestReview(type) ? HookEventType::PullRequestReview : type) > 0;
}

std::vector<HookEventType> HookEvents::subscribed() const
{
    if (sendEverything)
        return allEvents();
    if (pushOnly)
        return {HookEventType::Push};
    return {events.begin(), events.end()};
}

bool HookEvents::passesBranchFilter(const QString &ref) const
{
    if (branchFilter.isEmpty() || branchFilter == QLatin1String("*") || branchFilter == QLatin1String("**"))
        return true;
    QString branch = ref;
    for (const QLatin1String prefix : {QLatin1String("refs/heads/"), QLatin1String("refs/tags/")})
        if (branch.startsWith(prefix))
            branch = branch.mid(prefix.size());
    return globMatches(branchFilter, branch) || globMatches(branchFilter, ref);
}

QJsonObject HookEvents::toJson() const
{
    QJsonObject map;
    for (HookEventType type : events)
        map.insert(name(type), true);
    return {{QStringLiteral("push_only"), pushOnly},
            {QStringLiteral("send_everything"), sendEverything},
            {QStringLiteral("choose_events"), chooseEvents},
            {QStringLiteral("branch_filter"), branchFilter},
            {QStringLiteral("events"), map}};
}

Result<HookEvents> HookEvents::fromJson(const QJsonObject &json, const QString &field)
{
    HookEvents e;
    const auto flag = [&](const char *key, bool &into) -> Status {
        const QJsonValue v = json.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return Status::ok();
        if (!v.isBool())
            return Status::invalidArgument(QStringLiteral("%1.%2 must be true or false").arg(field, QLatin1String(key)))
                .withField(field + u'.' + QLatin1String(key));
        into = v.toBool();
        return Status::ok();
    };
    for (auto [key, into] : {std::pair{"push_only", &e.pushOnly}, std::pair{"send_everything", &e.sendEverything},
                             std::pair{"choose_events", &e.chooseEvents}})
        if (Status s = flag(key, *into); !s)
            return s;
    if (int(e.pushOnly) + int(e.sendEverything) + int(e.chooseEvents) > 1)
        return Status::invalidArgument(QStringLiteral("%1: push_only, send_everything and choose_events exclude each other; set one").arg(field))
            .withField(field);

    const QJsonValue filter = json.value(QStringLiteral("branch_filter"));
    if (!filter.isUndefined() && !filter.isNull() && !filter.isString())
        return Status::invalidArgument(QStringLiteral("%1.branch_filter must be a string").arg(field)).withField(field + QStringLiteral(".branch_filter"));
    e.branchFilter = filter.toString().trimmed();
    if (Status s = validateBranchFilter(e.branchFilter); !s)
        return Status::invalidArgument(QStringLiteral("%1.branch_filter '%2' does not compile: %3").arg(field, e.branchFilter, s.message()))
            .withField(field + QStringLiteral(".branch_filter"));

    // Gitea stores a map of names to true; the API also takes a list of names.
    const QJsonValue events = json.value(QStringLiteral("events"));
    QStringList names;
    if (events.isObject()) {
        const QJsonObject map = events.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it.value().isBool())
                return Status::invalidArgument(QStringLiteral("%1.events.%2 must be true or false").arg(field, it.key()))
                    .withField(field + QStringLiteral(".events"));
            if (it.value().toBool())
                names << it.key();
        }
    } else if (events.isArray()) {
        for (const QJsonValue &v : events.toArray()) {
            if (!v.isString())
                return Status::invalidArgument(QStringLiteral("%1.events must list event names").arg(field)).withField(field + QStringLiteral(".events"));
            names << v.toString();
        }
    } else if (!events.isUndefined() && !events.isNull()) {
        return Status::invalidArgument(QStringLiteral("%1.events must be an object of event names to true, or a list of names").arg(field))
            .withField(field + QStringLiteral(".events"));
    }
    for (const QString &n : names) {
        const std::optional<HookEventType> type = hookEventFromName(n);
        if (!type)
            return Status::invalidArgument(QStringLiteral("%1.events: unknown event '%2'; valid events: %3").arg(field, n, eventNames()))
                .withField(field + QStringLiteral(".events"));
        e.events.insert(*type);
    }
    if (!e.pushOnly && !e.sendEverything && !e.chooseEvents) {
        if (e.events.empty())
            e.pushOnly = true;
        else
            e.chooseEvents = true;
    }
    if (!e.chooseEvents)
        e.events.clear(); // only choose_events reads the map
    return e;
}

Status validateBranchFilter(const QString &glob)
{
    return compileGlob(glob).status();
}

bool globMatches(const QString &glob, const QString &text)
{
    const Result<QRegularExpression> re = compileGlob(glob);
    return re && re->match(text).hasMatch();
}

QString name(HookType type)
{
    return QLatin1String(kHookTypes[std::size_t(type)]);
}

std::optional<HookType> hookTypeFromName(QStringView name)
{
    for (std::size_t i = 0; i < kHookTypes.size(); ++i)
        if (name == QLatin1String(kHookTypes[i]))
            return HookType(i);
    return std::nullopt;
}

const std::vector<HookType> &everyHookType()
{
    static const std::vector<HookType> every = [] {
        std::vector<HookType> v;
        for (std::size_t i = 0; i < kHookTypes.size(); ++i)
            v.push_back(HookType(i));
        return v;
    }();
    return every;
}

QString name(ContentType type)
{
    return type == ContentType::Form ? QStringLiteral("form") : QStringLiteral("json");
}

std::optional<ContentType> contentTypeFromName(QStringView name)
{
    if (name == QLatin1String("json"))
        return ContentType::Json;
    if (name == QLatin1String("form"))
        return ContentType::Form;
    return std::nullopt;
}

QString name(HookStatus status)
{
    switch (status) {
        case HookStatus::Succeed: return QStringLiteral("succeed");
        case HookStatus::Fail: return QStringLiteral("fail");
        case HookStatus::None: break;
    }
    return QStringLiteral("none");
}

TargetType targetType(qint64 repoId, qint64 ownerId, bool isSystem, bool ownerIsOrganization)
{
    if (repoId != 0)
        return TargetType::Repository;
    if (ownerId != 0)
        return ownerIsOrganization ? TargetType::Organization : TargetType::User;
    Q_UNUSED(isSystem); // repo 0 and owner 0: a system hook (Gitea's default hooks are not sent)
    return TargetType::System;
}

QString name(TargetType type)
{
    switch (type) {
        case TargetType::Repository: return QStringLiteral("repository");
        case TargetType::Organization: return QStringLiteral("organization");
        case TargetType::User: return QStringLiteral("user");
        case TargetType::System: break;
    }
    return QStringLiteral("system");
}

Result<QString> checkHttpMethod(const QString &method, HookType type)
{
    const QString m = method.trimmed().toUpper();
    if (m.isEmpty() || m == QLatin1String("POST") || m == QLatin1String("GET"))
        return m.isEmpty() ? QStringLiteral("POST") : m;
    if (m == QLatin1String("PUT")) {
        if (type == HookType::Matrix)
            return m;
        return Status::invalidArgument(QStringLiteral("http_method PUT is for matrix hooks only (this one is %1); use POST or GET").arg(name(type)))
            .withField(QStringLiteral("http_method"));
    }
    return Status::invalidArgument(QStringLiteral("http_method '%1' is not one of POST, GET%2")
                                       .arg(method, type == HookType::Matrix ? QStringLiteral(", PUT") : QString()))
        .withField(QStringLiteral("http_method"));
}

} // namespace Switchyard::Webhook
