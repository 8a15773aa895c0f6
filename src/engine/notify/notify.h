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
#include <vector>

namespace Switchyard {

// Who caused an event and the cause it belongs to (SPEC §1 trace ids).
struct NotifyContext
{
    ForgeUser doer;
    QString traceId;
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
    template<typename Call>
    void broadcast(const char *event, const Call &call);
    void drop(const char *event, const QString &reason, const QString &detail);
    bool isPendingReviewComment(const char *event, ForgeComment &comment);

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
