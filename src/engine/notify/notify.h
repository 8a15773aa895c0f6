#pragma once

// The notify bus (SPEC §7, seed 001 §12.1–12.3): one method per forge event; notifiers (webhook,
// audit, mail, feed, uinotification, stream) each consume the ones they care about. The bus is a
// Notifier too, so a producer (event ingestion) talks to one Notifier and never knows who listens.

#include "engine/core/status.h"
#include "engine/forge/forgetypes.h"
#include "notifymethods.h"

#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace Switchyard {

// One dispatch of a cause's events (an ingested event's bus calls), notifier by notifier. A
// notifier that cannot finish for a reason that passes — the store busy, full or unreachable, a
// queue that cannot take its item — says so (NotifyContext::retryLater); the producer dispatches
// the cause again later to the notifiers that did not finish, and leaves out those that did, so a
// failure in one costs no duplicates in the others. Not thread-safe: the bus is synchronous on
// the producer's thread.
class NotifyScope
{
public:
    // `done`: the notifiers that finished this cause in an earlier dispatch (left out).
    explicit NotifyScope(std::set<QString> done = {}) : m_done(std::move(done)) {}

    // The bus: a bus call begins (every call of the dispatch, broadcast or dropped, counts, so a
    // call keeps its number in every dispatch of the cause); whether `notifier` is left out, and
    // which one runs now ("" between notifiers).
    void beginCall()
    {
        ++m_call;
        m_asked.clear();
    }
    bool skips(const QString &notifier) const { return m_done.count(notifier) > 0; }
    void enter(const QString &notifier) { m_current = notifier; }
    // The notifier running now could not finish; outside a notifier (the bus's own loading)
    // none of those it would have reached could.
    void retryLater(const Status &why);
    bool failed() const { return !m_failures.empty(); }
    // "notifier: why; …", for the event's error and the log.
    QString failures() const;
    // After a dispatch: of `all`, the notifiers that have finished, in this dispatch or before.
    std::set<QString> done(const QStringList &all) const;
    // A name for what the running notifier makes of the current call,
    // "<notifier>#<call>/<what>#<n>" (`what`: the notifier's own words for it — the hook event
    // type; n: how often it asked for that `what` in this call before): the same in every
    // dispatch of the same cause, whose calls come in the same order, so what a notifier makes
    // can be keyed by it (webhook delivery ids, the mail outbox) and is not made twice when the
    // cause is dispatched again after a crash. Named by what, not by how many things came before
    // it, so a call that failed part-way does not shift the names of the rest.
    QString keyFor(const QString &what);
    // "<notifier>#<call>": for a notifier that names what it makes by its content (the mail
    // outbox: recipient, message id, subject).
    QString callKey() const;

private:
    std::set<QString> m_done;
    QString m_current;
    int m_call = -1;                       // the bus call under way, from 0
    std::map<std::pair<QString, QString>, int> m_asked; // (notifier, what) → keys given in this call
    std::map<QString, QString> m_failures; // notifier ("" for the bus) → why
};

// Who caused an event and the cause it belongs to (SPEC §1 trace ids); the dispatch it is part
// of, when its producer wants to hear of failures (event ingestion).
struct NotifyContext
{
    ForgeUser doer;
    QString traceId;
    std::shared_ptr<NotifyScope> scope; // may be null: failures are only logged, nothing is dispatched again

    // The notifier could not finish this event for a reason that passes; it is asked again later.
    void retryLater(const Status &why) const
    {
        if (scope)
            scope->retryLater(why);
    }
    // NotifyScope::keyFor(); "" without a scope.
    QString keyFor(const QString &what) const { return scope ? scope->keyFor(what) : QString(); }
};

class Notifier
{
public:
    virtual ~Notifier() = default;
    // Called once, by registration, before any event: starts what the notifier runs (its queue).
    // An error refuses the registration.
    virtual Status run() = 0;
#define SWITCHYARD_DECLARE(name, params, args) virtual void name params = 0;
    SWITCHYARD_NOTIFY_EVENTS(SWITCHYARD_DECLARE, SWITCHYARD_DECLARE)
#undef SWITCHYARD_DECLARE
};

namespace NotifyDetail {
template<typename... T>
void ignore(const T &...)
{
}
// The context among an event's arguments (its first), or null.
template<typename... T>
const NotifyContext *contextOf(const NotifyContext &c, const T &...)
{
    return &c;
}
template<typename... T>
const NotifyContext *contextOf(const T &...)
{
    return nullptr;
}
} // namespace NotifyDetail

// Every event ignored: a notifier derives from it and overrides what it consumes.
class NullNotifier : public Notifier
{
public:
    Status run() override { return Status::ok(); }
#define SWITCHYARD_IGNORE(name, params, args) \
    void name params override { NotifyDetail::ignore args; }
    SWITCHYARD_NOTIFY_EVENTS(SWITCHYARD_IGNORE, SWITCHYARD_IGNORE)
#undef SWITCHYARD_IGNORE
};

// Loads what the gated events need and the producer did not give (from the store). Each call
// fills the relation in place; an error drops the event.
class NotifyLoader
{
public:
    virtual ~NotifyLoader() = default;
    virtual Status loadPullIssue(ForgePullRequest &pr) = 0;   // pr.issue and its poster
    virtual Status loadReviewer(ForgeReview &review) = 0;
    virtual Status loadCommentPoster(ForgeComment &comment) = 0;
    virtual Status loadCommentReview(ForgeComment &comment) = 0; // comment.review, when reviewId != 0
    virtual Status loadReleaseAttributes(ForgeRelease &release) = 0; // publisher and repo
};

// Synchronous multicast in registration order, on the caller's thread (Gitea's notify.go), with
// its gates:
//   - a comment of a pending review (a draft) is not broadcast: create, update and delete;
//   - NewPullRequest needs the issue and its poster, PullRequestReview the reviewer,
//     PullRequestCodeComment the poster, NewRelease the publisher and repository: loaded once
//     here when missing; when they cannot be loaded the event is dropped and logged (no notifier
//     gets half an event).
// Improving on Gitea: a notifier that throws is logged and counted, and the others still get the
// event. Thread-safe: events may come from several threads; notifiers are registered at start-up.
class NotifyBus final : public Notifier
{
public:
    // `loader` may be null: then a missing relation drops the event. Not owned.
    explicit NotifyBus(NotifyLoader *loader = nullptr) : m_loader(loader) {}

    // Calls notifier.run(), then adds it after the others. `name` labels its failures. Not owned:
    // it must outlive the bus's use.
    Status registerNotifier(const QString &name, Notifier &notifier);
    QStringList notifierNames() const;

    struct Stats
    {
        std::map<QString, qint64> failures; // notifier name → events it threw on
        std::map<QString, qint64> dropped;  // reason → events the gates dropped
        qint64 delivered = 0;               // events that reached the notifiers
    };
    Stats stats() const;

    Status run() override { return Status::ok(); }
#define SWITCHYARD_OVERRIDE(name, params, args) void name params override;
    SWITCHYARD_NOTIFY_EVENTS(SWITCHYARD_OVERRIDE, SWITCHYARD_OVERRIDE)
#undef SWITCHYARD_OVERRIDE

private:
    // `c`: the event's context (null for notificationCountChange), whose scope may leave
    // notifiers out and hears which one runs.
    template<typename Call>
    void broadcast(const char *event, const NotifyContext *c, const Call &call);
    // A gate dropped the event; `cause` is what loading failed with (a passing failure of the
    // store makes the dispatch fail instead: it is made again later).
    void drop(const char *event, const NotifyContext &c, const QString &reason, const QString &detail, const Status &cause = Status::ok());
    bool isPendingReviewComment(const char *event, const NotifyContext &c, ForgeComment &comment);

    NotifyLoader *const m_loader;
    mutable std::mutex m_mutex;
    struct Entry
    {
        QString name;
        Notifier *notifier;
    };
    std::vector<Entry> m_notifiers; // guarded by m_mutex
    Stats m_stats;                  // guarded by m_mutex
};

} // namespace Switchyard
