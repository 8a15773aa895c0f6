#include "notify.h"

#include <QLoggingCategory>

#include <exception>
#include <functional>

Q_LOGGING_CATEGORY(lcNotify, "switchyard.notify", QtInfoMsg)

namespace Switchyard {

Status NotifyBus::registerNotifier(const QString &name, Notifier &notifier)
{
    {
        std::lock_guard lock(m_mutex);
        for (const Entry &entry : m_notifiers) {
            if (entry.name == name)
                return Status::invalidArgument(QStringLiteral("a notifier named %1 is registered already").arg(name));
        }
    }
    // Registration starts it (Gitea: `go notifier.Run()`), so nothing registered is idle.
    if (Status started = notifier.run(); !started)
        return Status(started.code(), QStringLiteral("notifier %1 did not start: %2").arg(name, started.message()));
    std::lock_guard lock(m_mutex);
    m_notifiers.push_back({name, &notifier});
    return Status::ok();
}

QStringList NotifyBus::notifierNames() const
{
    std::lock_guard lock(m_mutex);
    QStringList names;
    for (const Entry &entry : m_notifiers)
        names << entry.name;
    return names;
}

NotifyBus::Stats NotifyBus::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

template<typename Call>
void NotifyBus::broadcast(const char *event, const NotifyContext *c, const Call &call)
{
    std::vector<Entry> notifiers;
    {
        std::lock_guard lock(m_mutex);
        notifiers = m_notifiers;
        ++m_stats.delivered;
    }
    NotifyScope *scope = c ? c->scope.get() : nullptr;
    if (scope)
        scope->beginCall();
    for (const Entry &entry : notifiers) {
        if (scope) {
            if (scope->skips(entry.name))
                continue;
            scope->enter(entry.name);
        }
        QString failure;
        try {
            call(*entry.notifier);
        } catch (const std::exception &e) {
            failure = QString::fromUtf8(e.what());
        } catch (...) {
            failure = QStringLiteral("an exception that is not a std::exception");
        }
        if (failure.isNull())
            continue;
        qCCritical(lcNotify).noquote() << "notifier" << entry.name << "threw on" << event << ":" << failure
                                       << "- the other notifiers still got it";
        std::lock_guard lock(m_mutex);
        ++m_stats.failures[entry.name];
    }
    if (scope)
        scope->enter(QString());
}

void NotifyBus::drop(const char *event, const NotifyContext &c, const QString &reason, const QString &detail, const Status &cause)
{
    if (c.scope)
        c.scope->beginCall(); // a dropped call keeps its number too
    if (c.scope && cause.code() == Status::Code::Unavailable) {
        // The store, not the event: the whole dispatch is made again later.
        qCInfo(lcNotify).noquote() << event << "waits:" << detail;
        c.retryLater(cause);
        return;
    }
    if (reason == QLatin1String("pending_review"))
        qCDebug(lcNotify).noquote() << event << "not broadcast:" << detail;
    else
        qCWarning(lcNotify).noquote() << event << "dropped:" << detail;
    std::lock_guard lock(m_mutex);
    ++m_stats.dropped[reason];
}

void NotifyScope::retryLater(const Status &why)
{
    m_failures.emplace(m_current, why.message()); // the first reason of each notifier
}

QString NotifyScope::failures() const
{
    QStringList parts;
    for (const auto &[notifier, why] : m_failures)
        parts << (notifier.isEmpty() ? why : notifier + QStringLiteral(": ") + why);
    return parts.join(QStringLiteral("; "));
}

std::set<QString> NotifyScope::done(const QStringList &all) const
{
    std::set<QString> finished = m_done;
    if (m_failures.count(QString()))
        return finished; // the bus could not load what the event needs: nobody got it
    for (const QString &notifier : all)
        if (!m_failures.count(notifier))
            finished.insert(notifier);
    return finished;
}

QString NotifyScope::callKey() const
{
    return QStringLiteral("%1#%2").arg(m_current).arg(m_call);
}

QString NotifyScope::keyFor(const QString &what)
{
    return QStringLiteral("%1#%2/%3#%4").arg(m_current).arg(m_call).arg(what).arg(m_asked[{m_current, what}]++);
}

namespace {

// What a gate needs, loaded once when missing. False: drop the event (the reason is set, and
// `cause` when loading failed).
bool ensure(bool present, NotifyLoader *loader, const std::function<Status(NotifyLoader &)> &load,
            const std::function<bool()> &presentAfter, const QString &what, QString &reason, QString &detail, Status &cause)
{
    if (present)
        return true;
    if (!loader) {
        reason = QStringLiteral("not_loaded");
        detail = QStringLiteral("%1 is not loaded and there is no loader").arg(what);
        return false;
    }
    if (Status loaded = load(*loader); !loaded) {
        reason = QStringLiteral("load_failed");
        detail = QStringLiteral("loading %1 failed: %2").arg(what, loaded.message());
        cause = loaded;
        return false;
    }
    if (!presentAfter()) {
        reason = QStringLiteral("load_failed");
        detail = QStringLiteral("loading %1 found nothing").arg(what);
        return false;
    }
    return true;
}

} // namespace

bool NotifyBus::isPendingReviewComment(const char *event, const NotifyContext &c, ForgeComment &comment)
{
    QString reason, detail;
    Status cause;
    if (comment.reviewId != 0
        && !ensure(comment.review.has_value(), m_loader, [&](NotifyLoader &l) { return l.loadCommentReview(comment); },
                   [&] { return comment.review.has_value(); }, QStringLiteral("the review of comment %1").arg(comment.id),
                   reason, detail, cause)) {
        drop(event, c, reason, detail, cause);
        return true;
    }
    if (comment.review && comment.review->type == ReviewType::Pending) {
        drop(event, c, QStringLiteral("pending_review"), QStringLiteral("comment %1 belongs to a pending review").arg(comment.id));
        return true;
    }
    return false;
}

// The events without a gate: straight to every notifier.
#define SWITCHYARD_FAN_OUT(name, params, args)                                                                        \
    void NotifyBus::name params                                                                                       \
    {                                                                                                                 \
        broadcast(#name, NotifyDetail::contextOf args, [&](Notifier &n) { n.name args; });                                                       \
    }
#define SWITCHYARD_GATED(name, params, args)
SWITCHYARD_NOTIFY_EVENTS(SWITCHYARD_FAN_OUT, SWITCHYARD_GATED)
#undef SWITCHYARD_FAN_OUT
#undef SWITCHYARD_GATED

void NotifyBus::newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions)
{
    ForgePullRequest loaded = pr;
    QString reason, detail;
    Status cause;
    if (!ensure(loaded.issue && loaded.issue->poster, m_loader, [&](NotifyLoader &l) { return l.loadPullIssue(loaded); },
                [&] { return loaded.issue && loaded.issue->poster; },
                QStringLiteral("the issue and poster of pull request %1").arg(pr.id), reason, detail, cause))
        return drop("newPullRequest", c, reason, detail, cause);
    broadcast("newPullRequest", &c, [&](Notifier &n) { n.newPullRequest(c, loaded, mentions); });
}

void NotifyBus::pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review,
                                  const ForgeComment &comment, const std::vector<ForgeUser> &mentions)
{
    ForgeReview loaded = review;
    QString reason, detail;
    Status cause;
    if (!ensure(loaded.reviewer.has_value(), m_loader, [&](NotifyLoader &l) { return l.loadReviewer(loaded); },
                [&] { return loaded.reviewer.has_value(); }, QStringLiteral("the reviewer of review %1").arg(review.id),
                reason, detail, cause))
        return drop("pullRequestReview", c, reason, detail, cause);
    broadcast("pullRequestReview", &c, [&](Notifier &n) { n.pullRequestReview(c, pr, loaded, comment, mentions); });
}

void NotifyBus::pullRequestCodeComment(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment,
                                       const std::vector<ForgeUser> &mentions)
{
    ForgeComment loaded = comment;
    QString reason, detail;
    Status cause;
    if (!ensure(loaded.poster.has_value(), m_loader, [&](NotifyLoader &l) { return l.loadCommentPoster(loaded); },
                [&] { return loaded.poster.has_value(); }, QStringLiteral("the poster of comment %1").arg(comment.id),
                reason, detail, cause))
        return drop("pullRequestCodeComment", c, reason, detail, cause);
    broadcast("pullRequestCodeComment", &c, [&](Notifier &n) { n.pullRequestCodeComment(c, pr, loaded, mentions); });
}

void NotifyBus::createIssueComment(const NotifyContext &c, const ForgeRepo &repo, const ForgeIssue &issue,
                                   const ForgeComment &comment, const std::vector<ForgeUser> &mentions)
{
    ForgeComment loaded = comment;
    if (isPendingReviewComment("createIssueComment", c, loaded))
        return;
    broadcast("createIssueComment", &c, [&](Notifier &n) { n.createIssueComment(c, repo, issue, loaded, mentions); });
}

void NotifyBus::updateComment(const NotifyContext &c, const ForgeComment &comment, const QString &oldContent)
{
    ForgeComment loaded = comment;
    if (isPendingReviewComment("updateComment", c, loaded))
        return;
    broadcast("updateComment", &c, [&](Notifier &n) { n.updateComment(c, loaded, oldContent); });
}

void NotifyBus::deleteComment(const NotifyContext &c, const ForgeComment &comment)
{
    ForgeComment loaded = comment;
    if (isPendingReviewComment("deleteComment", c, loaded))
        return;
    broadcast("deleteComment", &c, [&](Notifier &n) { n.deleteComment(c, loaded); });
}

void NotifyBus::newRelease(const NotifyContext &c, const ForgeRelease &release)
{
    ForgeRelease loaded = release;
    QString reason, detail;
    Status cause;
    if (!ensure(loaded.publisher && loaded.repo, m_loader, [&](NotifyLoader &l) { return l.loadReleaseAttributes(loaded); },
                [&] { return loaded.publisher && loaded.repo; },
                QStringLiteral("the publisher and repository of release %1").arg(release.id), reason, detail, cause))
        return drop("newRelease", c, reason, detail, cause);
    broadcast("newRelease", &c, [&](Notifier &n) { n.newRelease(c, loaded); });
}

} // namespace Switchyard
