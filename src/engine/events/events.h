#pragma once

// Event ingestion (SPEC §7; docs/notifications.md): Gitea and GitHub webhook payloads posted to
// POST /api/v1/events become the forge's domain in the store and calls on the notify bus.
//
// accept() checks the source, the event type, the signature and the payload's required fields,
// stores the event (status pending) and pushes its id to the `event_ingest` queue; it answers
// only once the row is committed, so an accepted event survives a crash. A delivery id seen
// before (per source) answers the first event's id and is not processed again.
//
// The queue's handler claims the row (status processing, claimed_by this instance), upserts what
// the payload names in one transaction, commits, then dispatches the bus calls; the row ends done,
// failed (with the error) or ignored (ping). Nothing accepted is dropped:
//   - the store unavailable (busy, full, unreachable) is waited out in place, holding the item,
//     until it passes or the instance stops (the item then goes back to the queue);
//   - a notifier that could not finish (NotifyContext::retryLater) gets the event again, the
//     notifiers that finished do not; an event given back at shutdown keeps which finished;
//   - a claim whose instance is not live (store/instances.h: it stopped, went silent, or was
//     this data directory's earlier run) is taken over at once: at start, by the heartbeat's
//     recovery, and when the queue brings the event again;
//   - the queue is only a signal: a pending event that fell out of it (a push that failed) is
//     queued again by the next recovery round.
// Processing is at least once: after a crash between the bus's first notifier and the row's end,
// the event is dispatched again; the webhook notifier's tasks are keyed by the event (no second
// delivery), other notifiers may notify twice.

#include "engine/core/cancellation.h"
#include "engine/core/retry.h"
#include "engine/events/eventtypes.h"
#include "engine/core/status.h"
#include "engine/queue/queue.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace Switchyard {

class EngineConfig;
class InstanceRegistry;
class NotifyBus;
class QueueManager;
class Store;

struct EventServiceOptions
{
    qint64 maxPayload = 10 << 20;
    RetryDelays retry; // waiting out an unavailable store, or a notifier that could not finish
};

// Thread-safe. The queue's workers call process(); the admin API calls the rest.
class EventService
{
public:
    using Observer = std::function<void(const EventRecord &)>; // a row was added or changed (no payload)

    // Not owned.
    EventService(const EngineConfig &config, Store &store, NotifyBus &bus, InstanceRegistry &instances, EventServiceOptions options = {});
    ~EventService();

    // Creates the event_ingest queue, takes over the claims of instances that are not live, queues
    // every unfinished event, and joins the heartbeat's recovery rounds. `stop` (the lifecycle's
    // shutdown token) ends the waits of the queue's handler.
    Status start(const CancelToken &cancel, QueueManager &queues, const CancelToken &stop);
    // Pushes every pending event to the queue again (at start, after an instance was declared
    // lost, when a push failed, and from the cron task resume_unfinished_events): how many.
    Result<qint64> requeueUnfinished(const CancelToken &cancel);
    // Events held by instances that are not live go back to pending (and are queued): how many.
    Result<qint64> recoverClaims(const CancelToken &cancel);
    // Removes events processed (done, ignored) longer than `processed` ago and failed ones longer
    // than `failed` ago; pending and processing events are never removed. Returns how many.
    Result<qint64> cleanupOlderThan(const CancelToken &cancel, std::chrono::milliseconds processed, std::chrono::milliseconds failed);

    // 400 (invalid argument, naming the field), 401 (unauthenticated: a bad or missing signature),
    // 503 (the store is unavailable); nothing is written unless it answers ok.
    // An authentic event GitHub documents that Gitea has no counterpart for (check_run, star …)
    // is answered with `ignored` set, nothing stored, and counted in ignoredCounts().
    Result<EventAccepted> accept(const CancelToken &cancel, const IncomingEvent &event);
    // Events ignored since start, by name (the /metrics family switchyard_events_ignored_total).
    std::map<QString, qint64> ignoredCounts() const;
    Result<EventPage> list(const EventFilter &filter);
    Result<EventRecord> get(qint64 id);
    // The queue's handler for one event: false when it must come back later (the instance is
    // stopping while the store or a notifier is unavailable).
    bool process(const CancelToken &stop, qint64 id);
    // Once, before start(): told of every change (the admin stream's `event` frames).
    void setObserver(Observer observer);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// The HMAC-SHA256 of `payload` with `secret` in lowercase hex, as Gitea and GitHub sign.
QByteArray eventSignature(const QByteArray &secret, const QByteArray &payload);

} // namespace Switchyard
