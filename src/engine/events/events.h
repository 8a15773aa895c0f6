#pragma once

// Event ingestion (SPEC §7; docs/notifications.md): Gitea and GitHub webhook payloads posted to
// POST /api/v1/events become the forge's domain in the store and calls on the notify bus.
//
// accept() checks the source, the event type, the signature and the payload's required fields,
// stores the event (status pending) and pushes its id to the `event_ingest` queue; it answers
// only once the row is committed, so an accepted event survives a crash. A delivery id seen
// before (per source) answers the first event's id and is not processed again. The queue's
// handler claims the row with a lease (status processing, claimed_ms), upserts what the payload
// names in one transaction, commits, then calls the bus; the row ends done, failed (with the
// error) or ignored (ping). At start every pending row, and every processing row whose lease ran
// out (an instance died mid-way), is pushed again, and the cron task resume_unfinished_events does
// the same every minute (for an instance that restarted within the lease) — so processing is at least once: after a crash
// between the commit and the bus's last notifier an event may be notified twice.

#include "engine/core/cancellation.h"
#include "engine/events/eventtypes.h"
#include "engine/core/status.h"
#include "engine/queue/queue.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace Switchyard {

class EngineConfig;
class Notifier;
class QueueManager;
class Store;

struct EventServiceOptions
{
    // A processing row older than this belongs to an instance that died: it is processed again.
    std::chrono::milliseconds lease = std::chrono::minutes(5);
    qint64 maxPayload = 10 << 20;
};

// Thread-safe. The queue's workers call process(); the admin API calls the rest.
class EventService
{
public:
    using Observer = std::function<void(const EventRecord &)>; // a row was added or changed (no payload)

    EventService(const EngineConfig &config, Store &store, Notifier &bus, EventServiceOptions options = {}); // Not owned
    ~EventService();

    // Creates the event_ingest queue and re-enqueues unfinished events.
    Status start(const CancelToken &cancel, QueueManager &queues);
    // Pushes every pending event, and every processing one whose lease ran out, to the queue again
    // (at start, and from the cron task resume_unfinished_events): how many.
    Result<qint64> requeueUnfinished(const CancelToken &cancel);

    // 400 (invalid argument, naming the field), 401 (unauthenticated: a bad or missing signature),
    // 503 (the store is unavailable); nothing is written unless it answers ok.
    Result<EventAccepted> accept(const CancelToken &cancel, const IncomingEvent &event);
    Result<EventPage> list(const EventFilter &filter);
    Result<EventRecord> get(qint64 id);
    // The queue's handler: false when the store was unavailable (the id is pushed again).
    bool process(qint64 id);
    // Once, before start(): told of every change (the admin stream's `event` frames).
    void setObserver(Observer observer);

    // The event types accepted (Gitea's fine types and GitHub's names).
    static const QStringList &supportedEvents();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// The HMAC-SHA256 of `payload` with `secret` in lowercase hex, as Gitea and GitHub sign.
QByteArray eventSignature(const QByteArray &secret, const QByteArray &payload);

} // namespace Switchyard
