#include "events.h"

#include "authenticity_p.h"
#include "translate_p.h"

#include "engine/core/crashpoint.h"
#include "engine/core/logging.h"
#include "engine/notify/notify.h"
#include "engine/settings/config.h"
#include "engine/store/instances.h"
#include "engine/store/store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QUuid>

#include <atomic>
#include <set>

namespace Switchyard {

namespace {

constexpr std::chrono::seconds kGiveBackBound{2}; // at shutdown, how long a give-back may wait for the store

const QString kColumns = QStringLiteral("id, source, delivery_id, event, action, repo, sender, received_ms, status, error, attempts, trace_id, "
                                        "claimed_by");

EventRecord recordFrom(const QSqlQuery &q)
{
    EventRecord r;
    r.id = q.value(0).toLongLong();
    r.source = q.value(1).toString();
    r.deliveryId = q.value(2).toString();
    r.event = q.value(3).toString();
    r.action = q.value(4).toString();
    r.repo = q.value(5).toString();
    r.sender = q.value(6).toString();
    r.receivedAt = fromStoreMs(q.value(7).toLongLong());
    r.status = q.value(8).toString();
    r.error = q.value(9).toString();
    r.attempts = q.value(10).toInt();
    r.traceId = q.value(11).toString();
    r.claimedBy = q.value(12).toString();
    return r;
}

} // namespace

QByteArray eventSignature(const QByteArray &secret, const QByteArray &payload)
{
    return QMessageAuthenticationCode::hash(payload, secret, QCryptographicHash::Sha256).toHex();
}

struct EventService::Impl
{
    Impl(const EngineConfig &c, Store &s, NotifyBus &b, InstanceRegistry &i, EventServiceOptions o)
        : config(c), store(s), bus(b), instances(i), options(o)
    {
    }

    const EngineConfig &config;
    Store &store;
    NotifyBus &bus;
    InstanceRegistry &instances;
    const EventServiceOptions options;
    std::shared_ptr<WorkerPoolQueue<qint64>> queue;
    std::atomic<bool> resync{false}; // a push failed: the next recovery round queues pending rows again
    std::mutex observerMutex; // guards observer: set by the console's thread, read by workers
    Observer observer;        // guarded by observerMutex
    mutable std::mutex ignoredMutex;
    std::map<QString, qint64> ignored; // guarded by ignoredMutex: events answered 202 and ignored, by name
    std::mutex workingMutex;
    std::set<qint64> working; // guarded by workingMutex: the events this instance's workers hold

    // Marks `id` held by this worker for its scope; held() is false when another worker of this
    // instance has it already (then it is left to that one).
    class Held
    {
    public:
        Held(Impl &d, qint64 id) : m_d(d), m_id(id)
        {
            std::lock_guard lock(m_d.workingMutex);
            m_held = m_d.working.insert(id).second;
        }
        ~Held()
        {
            if (!m_held)
                return;
            std::lock_guard lock(m_d.workingMutex);
            m_d.working.erase(m_id);
        }
        bool held() const { return m_held; }

    private:
        Impl &m_d;
        const qint64 m_id;
        bool m_held = false;
    };

    void tell(const EventRecord &record)
    {
        Observer copy;
        {
            std::lock_guard lock(observerMutex);
            copy = observer;
        }
        if (copy)
            copy(record);
    }
    void tell(qint64 id)
    {
        if (Result<EventRecord> r = row(id, false))
            tell(*r);
    }
    Result<EventRecord> row(qint64 id, bool withPayload)
    {
        return store.readValue<EventRecord>([&](SqlTransaction &tx) -> Result<EventRecord> {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT %1, payload FROM event WHERE id = ?").arg(kColumns), {id});
            if (!q)
                return q.status();
            if (!q->next())
                return Status::notFound(QStringLiteral("no event %1").arg(id)).withField(QStringLiteral("id"));
            EventRecord r = recordFrom(*q);
            if (withPayload)
                r.payload = q->value(13).toByteArray();
            return r;
        });
    }

    // Waits out an unavailable store, logging the first failure of each wait.
    template<typename Attempt>
    auto patiently(const CancelToken &stop, qint64 id, const char *what, Attempt &&attempt)
    {
        bool told = false;
        return untilAvailable(stop, options.retry, std::forward<Attempt>(attempt), [&](const Status &why) {
            if (!std::exchange(told, true))
                qCWarning(lcCore).noquote() << "event" << id << ": cannot" << what << "yet, waiting:" << why.message();
        });
    }

    // The claim: pending, held by an instance that is not live, or by this one (whose workers do
    // not hold it: see Held). The notifiers that finished it before, or nullopt when it is done
    // or held by a live instance.
    Result<std::optional<std::set<QString>>> claim(const CancelToken &stop, qint64 id)
    {
        const QString self = instances.instanceId();
        return patiently(stop, id, "claim it", [&] {
            return store.writeValue<std::optional<std::set<QString>>>([&](SqlTransaction &tx) -> Result<std::optional<std::set<QString>>> {
                Result<QSqlQuery> q = tx.exec(QStringLiteral("UPDATE event SET status = 'processing', claimed_ms = ?, claimed_by = ?, "
                                                             "attempts = attempts + 1 WHERE id = ? AND (status = 'pending' OR "
                                                             "(status = 'processing' AND (claimed_by = ? OR %1))) RETURNING notified")
                                                  .arg(instances.notLive(QStringLiteral("claimed_by"))),
                                              {toStoreMs(QDateTime::currentDateTimeUtc()), self, id, self});
                if (!q)
                    return q.status();
                if (!q->next())
                    return std::optional<std::set<QString>>();
                std::set<QString> done;
                for (const QString &name : q->value(0).toString().split(u',', Qt::SkipEmptyParts))
                    done.insert(name);
                return std::optional<std::set<QString>>(std::move(done));
            });
        });
    }

    // Ends the claim with `status` (done, failed, or pending to give it back with `notified`),
    // fenced by the claim: when another instance took it over meanwhile, nothing is written.
    Status end(const CancelToken &stop, qint64 id, const QString &status, const QString &error, const QString &notified = {})
    {
        bool fenced = false;
        const Status written = patiently(stop, id, "record its end", [&] {
            return store.write([&](SqlTransaction &tx) -> Status {
                Result<QSqlQuery> q = tx.exec(QStringLiteral("UPDATE event SET status = ?, error = ?, notified = ?, claimed_by = CASE WHEN ? = "
                                                             "'pending' THEN '' ELSE claimed_by END WHERE id = ? AND claimed_by = ?"),
                                              {status, error.left(2000), notified, status, id, instances.instanceId()});
                if (!q)
                    return q.status();
                fenced = q->numRowsAffected() == 0;
                return Status::ok();
            });
        });
        if (!written)
            qCWarning(lcCore).noquote() << "event" << id << "could not be marked" << status << "(it is taken up again after a restart):"
                                        << written.message();
        else if (fenced)
            qCWarning(lcCore).noquote() << "event" << id << "was taken over by another instance (this one was declared lost); its"
                                        << status << "is not recorded here";
        tell(id);
        return written;
    }

    // The instance stops while the event waits: back to pending, with the notifiers that have
    // finished it, within a bound (failing that, the next start takes it over).
    void giveBack(qint64 id, const QString &why, const std::set<QString> &done)
    {
        const CancelSource bound = CancelSource::withTimeout(CancelToken(), kGiveBackBound);
        end(bound.token(), id, QStringLiteral("pending"), why, QStringList(done.begin(), done.end()).join(u','));
    }

    bool dispatch(const CancelToken &stop, const EventRecord &record, std::set<QString> done);
};

// Translates the event (its upserts, one transaction), then dispatches its bus calls to every
// notifier that has not finished it; those that could not finish get them again after a wait.
// False when the instance stops first: the event is given back with the notifiers that finished.
bool EventService::Impl::dispatch(const CancelToken &stop, const EventRecord &record, std::set<QString> done)
{
    const QJsonObject payload = QJsonDocument::fromJson(record.payload).object();
    const bool autoWatch = config.service.autoWatchOnChanges;
    const auto scope = std::make_shared<NotifyScope>(done);
    Result<Translation> translated = patiently(stop, record.id, "translate it", [&] {
        return store.writeValue<Translation>([&](SqlTransaction &tx) {
            return translateEvent(tx, record.source, record.event, payload, autoWatch, record.traceId, scope);
        });
    });
    if (!translated && translated.status().code() != Status::Code::Unavailable) {
        qCWarning(lcCore).noquote() << "event" << record.id << record.event << "failed:" << translated.status().message();
        end(stop, record.id, QStringLiteral("failed"), translated.status().message());
        return true;
    }
    if (translated) {
        crashPoint("event.translated");
        for (const QString &note : translated->notes) // escaped by the translation
            qCWarning(lcCore).noquote() << "event" << record.id << record.event << ":" << note;
    }
    const QStringList notifiers = bus.notifierNames();
    std::chrono::milliseconds delay = options.retry.first;
    for (int round = 0; translated; ++round) {
        *scope = NotifyScope(done); // the calls share it
        QStringList thrown;
        for (const auto &call : translated->calls) {
            try {
                call(bus);
            } catch (const std::exception &e) {
                thrown << QString::fromLocal8Bit(e.what());
            }
        }
        done = scope->done(notifiers);
        if (!scope->failed()) {
            crashPoint("event.dispatched");
            // A done event's error column holds its notes (what the payload lost on the way).
            end(stop, record.id, thrown.isEmpty() ? QStringLiteral("done") : QStringLiteral("failed"),
                (thrown + translated->notes).join(QStringLiteral("; ")));
            crashPoint("event.finished");
            return true;
        }
        if (round == 0)
            qCWarning(lcCore).noquote() << "event" << record.id << "waits for" << scope->failures();
        if (!stop.sleepFor(delay))
            break;
        delay = std::min(delay * 2, options.retry.most);
    }
    giveBack(record.id, translated ? scope->failures() : translated.status().message(), done);
    return false;
}

EventService::EventService(const EngineConfig &config, Store &store, NotifyBus &bus, InstanceRegistry &instances, EventServiceOptions options)
    : d(std::make_unique<Impl>(config, store, bus, instances, options))
{
}

EventService::~EventService() = default;

void EventService::setObserver(Observer observer)
{
    std::lock_guard lock(d->observerMutex);
    d->observer = std::move(observer);
}

Status EventService::start(const CancelToken &cancel, QueueManager &queues, const CancelToken &stop)
{
    Result<std::shared_ptr<WorkerPoolQueue<qint64>>> queue =
        queues.createUniqueQueue<qint64>(cancel, QStringLiteral("event_ingest"), [this, stop](std::vector<qint64> ids) {
            std::sort(ids.begin(), ids.end()); // in arrival order: a push before the create it caused
            std::vector<qint64> later;
            for (qint64 id : ids)
                if (!process(stop, id))
                    later.push_back(id);
            return later;
        });
    if (!queue)
        return queue.status();
    d->queue = std::move(queue).value();
    if (Result<qint64> recovered = recoverClaims(cancel); !recovered)
        return recovered.status();
    Result<qint64> requeued = requeueUnfinished(cancel);
    if (!requeued)
        return requeued.status();
    if (*requeued > 0)
        qCInfo(lcCore).noquote() << *requeued << "ingested events left unfinished by an earlier run are queued again";
    d->instances.addRecoverer(QStringLiteral("events"), [this](const CancelToken &c, bool adopted) -> Status {
        if (Result<qint64> recovered = recoverClaims(c); !recovered)
            return recovered.status();
        if (!adopted && !d->resync.exchange(false))
            return Status::ok();
        Result<qint64> requeued = requeueUnfinished(c);
        if (!requeued)
            d->resync = true;
        return requeued.status();
    });
    return Status::ok();
}

Result<qint64> EventService::recoverClaims(const CancelToken &cancel)
{
    // Claims of instances that are not live, and this instance's own that none of its workers
    // holds (a write that failed for good left them): the working set is locked while they are
    // released, so no worker takes one up meanwhile (a worker enters it before it claims).
    const QString self = d->instances.instanceId();
    Result<std::vector<qint64>> released = d->store.writeValue<std::vector<qint64>>([&](SqlTransaction &tx) -> Result<std::vector<qint64>> {
        Result<std::vector<qint64>> gone = tx.numbers(
            QStringLiteral("UPDATE event SET status = 'pending', claimed_by = '' WHERE status = 'processing' AND %1 RETURNING id")
                .arg(d->instances.notLive(QStringLiteral("claimed_by"))));
        if (!gone)
            return gone;
        Result<std::vector<qint64>> mine =
            tx.numbers(QStringLiteral("SELECT id FROM event WHERE status = 'processing' AND claimed_by = ?"), {self});
        if (!mine)
            return mine;
        std::lock_guard lock(d->workingMutex);
        for (qint64 id : *mine) {
            if (d->working.count(id))
                continue;
            Result<QSqlQuery> q = tx.exec(QStringLiteral("UPDATE event SET status = 'pending', claimed_by = '' WHERE id = ? AND status = "
                                                         "'processing' AND claimed_by = ?"),
                                          {id, self});
            if (!q)
                return q.status();
            if (q->numRowsAffected() > 0)
                gone->push_back(id);
        }
        return gone;
    });
    if (!released)
        return released.status();
    if (released->empty())
        return 0;
    qCWarning(lcCore).noquote() << released->size() << "event(s) held by an instance that is no longer live, or left claimed here,"
                                << "go back to pending";
    for (qint64 id : *released) {
        d->tell(id);
        if (Status pushed = d->queue->push(cancel, id); !pushed && pushed.code() != Status::Code::AlreadyExists) {
            d->resync = true; // pending in the store: the next round queues it (and stops pushing now: a full queue is slow)
            break;
        }
    }
    return qint64(released->size());
}

Result<qint64> EventService::requeueUnfinished(const CancelToken &cancel)
{
    if (!d->queue)
        return Status::unavailable(QStringLiteral("event ingestion has not started"));
    qint64 pushedCount = 0;
    qint64 after = 0;
    for (;;) {
        Result<std::vector<qint64>> pending = d->store.readValue<std::vector<qint64>>([&](SqlTransaction &tx) {
            return tx.numbers(QStringLiteral("SELECT id FROM event WHERE status = 'pending' AND id > ? ORDER BY id LIMIT 500"), {after});
        });
        if (!pending)
            return pending.status();
        if (pending->empty())
            return pushedCount;
        for (qint64 id : *pending) {
            const Status pushed = d->queue->push(cancel, id);
            if (pushed)
                ++pushedCount;
            else if (pushed.code() != Status::Code::AlreadyExists) // already queued: nothing to do
                return pushed;
        }
        after = pending->back();
    }
}

Result<EventAccepted> EventService::accept(const CancelToken &cancel, const IncomingEvent &in)
{
    const EventSourceSettings *source = d->config.eventSource(in.source);
    if (!source)
        return Status::invalidArgument(QStringLiteral("unknown event source \"%1\" (configure [event_source.%1] in app.ini)").arg(in.source.left(64)))
            .withField(QStringLiteral("source"));
    if (in.event.isEmpty())
        return Status::invalidArgument(QStringLiteral("no event type: send X-Gitea-Event-Type, X-Gitea-Event or X-GitHub-Event, or ?event="))
            .withField(QStringLiteral("event"));
    if (in.payload.size() > d->options.maxPayload)
        return Status::invalidArgument(QStringLiteral("the payload is larger than %1 bytes").arg(d->options.maxPayload))
            .withField(QStringLiteral("body"));
    if (Status authentic = Events::checkAuthenticity(*source, in, QDateTime::currentDateTimeUtc()); !authentic)
        return authentic;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(in.payload, &error);
    if (error.error != QJsonParseError::NoError)
        return Status::invalidArgument(QStringLiteral("body: malformed JSON at offset %1: %2").arg(error.offset).arg(error.errorString()))
            .withField(QStringLiteral("body"));
    if (!doc.isObject())
        return Status::invalidArgument(QStringLiteral("body: expected a JSON object")).withField(QStringLiteral("body"));
    const QJsonObject payload = doc.object();
    if (eventGroup(in.event).isEmpty() && isForgeEventWithoutCounterpart(in.event)) {
        // Authentic, but nothing in Gitea answers it: 202 so the forge keeps the hook healthy,
        // counted so an operator sees what their forge sends.
        std::lock_guard lock(d->ignoredMutex);
        ++d->ignored[in.event];
        return EventAccepted{0, false, QString(), in.event};
    }
    if (Status valid = checkPayload(in.event, payload); !valid)
        return valid;
    if (cancel.isCancelled())
        return cancel.cause();

    // A Standard Webhooks message is deduplicated by its signed webhook-id, never by an unsigned
    // header a replayer could vary.
    const QString deliveryId = !in.webhookSignature.isEmpty() && !in.webhookId.isEmpty() ? QString::fromUtf8(in.webhookId).left(200)
                               : in.deliveryId.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                                         : in.deliveryId.left(200);
    const QString traceId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QJsonObject repository = payload.value(QStringLiteral("repository")).toObject();
    QString repo = repository.value(QStringLiteral("full_name")).toString();
    const QJsonObject sender = payload.value(QStringLiteral("sender")).toObject();
    QString senderLogin = sender.value(QStringLiteral("login")).toString();
    if (senderLogin.isEmpty())
        senderLogin = sender.value(QStringLiteral("username")).toString();
    const QString action = payload.value(QStringLiteral("action")).toString().left(100);
    const bool ping = eventGroup(in.event) == QLatin1String("ping");
    const qint64 now = toStoreMs(QDateTime::currentDateTimeUtc());

    const QString hash = Events::payloadHash(in.payload);
    std::optional<Events::EarlierDelivery> replayOf;
    Result<EventAccepted> stored = d->store.writeValue<EventAccepted>([&](SqlTransaction &tx) -> Result<EventAccepted> {
        Result<std::optional<Events::EarlierDelivery>> earlier =
            // Twice the window: a timestamp up to a window ahead is accepted, so its replays come
            // up to a window after that.
            Events::findReplay(tx, source->name, hash, now - 2 * qint64(source->replayWindow.count()), deliveryId);
        if (!earlier)
            return earlier.status();
        replayOf = *earlier;
        if (replayOf && source->refuseReplays)
            return Status(Status::Code::Conflict,
                          QStringLiteral("refused as a replay: event %1 (delivery %2) had the same payload %3 s ago or less, under "
                                         "another delivery id ([event_source.%4] REFUSE_REPLAYS)")
                              .arg(replayOf->eventId)
                              .arg(replayOf->deliveryId.left(100))
                              .arg(std::chrono::duration_cast<std::chrono::seconds>(source->replayWindow).count())
                              .arg(source->name));
        Result<QSqlQuery> inserted = tx.exec(
            QStringLiteral("INSERT INTO event (source, delivery_id, event, action, repo, sender, payload, received_ms, status, trace_id, "
                           "payload_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, delivery_id) DO NOTHING RETURNING id"),
            {source->name, deliveryId, in.event, action, repo.left(300), senderLogin.left(200), in.payload, now,
             ping ? QStringLiteral("ignored") : QStringLiteral("pending"), traceId, hash});
        if (!inserted)
            return inserted.status();
        if (inserted->next())
            return EventAccepted{inserted->value(0).toLongLong(), false, traceId};
        Result<QSqlQuery> first = tx.exec(QStringLiteral("SELECT id, trace_id FROM event WHERE source = ? AND delivery_id = ?"),
                                          {source->name, deliveryId});
        if (!first)
            return first.status();
        if (!first->next())
            return Status::internal(QStringLiteral("delivery %1 conflicted but is not stored").arg(deliveryId));
        return EventAccepted{first->value(0).toLongLong(), true, first->value(1).toString()};
    });
    if (!stored)
        return stored.status().code() == Status::Code::Unavailable || stored.status().code() == Status::Code::Internal
                   ? Status::unavailable(QStringLiteral("the event could not be stored: %1").arg(stored.status().message()))
                   : stored.status();
    if (stored->duplicate)
        return stored;
    if (replayOf)
        qCWarning(lcCore).noquote() << QStringLiteral("event %1 from source %2 repeats the payload of event %3 (delivery %4) under another "
                                                      "delivery id within REPLAY_WINDOW: a replay or a resend; processed "
                                                      "([event_source.%2] REFUSE_REPLAYS = true refuses them)")
                                           .arg(stored->id)
                                           .arg(source->name)
                                           .arg(replayOf->eventId)
                                           .arg(replayOf->deliveryId.left(100));
    EventRecord row;
    row.id = stored->id;
    row.source = source->name;
    row.deliveryId = deliveryId;
    row.event = in.event;
    row.action = action;
    row.repo = repo.left(300);
    row.sender = senderLogin.left(200);
    row.receivedAt = fromStoreMs(now);
    row.status = ping ? QStringLiteral("ignored") : QStringLiteral("pending");
    row.traceId = traceId;
    d->tell(row);
    crashPoint("event.stored");
    if (!ping && d->queue) {
        // Stored first: were the push lost, the next recovery round queues the row again.
        const Status pushed = d->queue->push(cancel, stored->id);
        if (!pushed && pushed.code() != Status::Code::AlreadyExists) {
            d->resync = true;
            qCWarning(lcCore).noquote() << "event" << stored->id << "is stored but not queued (" << pushed.message()
                                        << "); the next recovery round queues it";
        }
    }
    return stored;
}

Result<qint64> EventService::cleanupOlderThan(const CancelToken &cancel, std::chrono::milliseconds processed,
                                              std::chrono::milliseconds failed)
{
    // In batches of 1000 rows, one short transaction each: ingestion goes on beside a long cleanup.
    const qint64 now = toStoreMs(QDateTime::currentDateTimeUtc());
    qint64 removed = 0;
    for (const auto &[statuses, age] : {std::pair{QStringLiteral("'done', 'ignored'"), processed}, std::pair{QStringLiteral("'failed'"), failed}}) {
        for (;;) {
            if (cancel.isCancelled())
                return cancel.cause();
            Result<qint64> batch = d->store.writeValue<qint64>([&](SqlTransaction &tx) -> Result<qint64> {
                Result<QSqlQuery> q = tx.exec(QStringLiteral("DELETE FROM event WHERE id IN (SELECT id FROM event WHERE status IN (%1) "
                                                             "AND received_ms < ? ORDER BY id LIMIT 1000)")
                                                  .arg(statuses),
                                              {now - qint64(age.count())});
                if (!q)
                    return q.status();
                return qint64(q->numRowsAffected());
            });
            if (!batch)
                return batch.status();
            removed += *batch;
            if (*batch < 1000)
                break;
        }
    }
    return removed;
}

bool EventService::process(const CancelToken &stop, qint64 id)
{
    const Impl::Held held(*d, id);
    if (!held.held())
        return true; // another worker of this instance has it
    Result<std::optional<std::set<QString>>> claimed = d->claim(stop, id);
    if (!claimed) {
        qCWarning(lcCore).noquote() << "event" << id << "could not be claimed:" << claimed.status().message();
        return claimed.status().code() != Status::Code::Unavailable; // stopping: it comes back later
    }
    if (!*claimed)
        return true; // done already, or a live instance holds it
    crashPoint("event.claimed");
    Result<EventRecord> record = d->patiently(stop, id, "read it", [&] { return d->row(id, true); });
    if (!record) {
        if (record.status().code() == Status::Code::Unavailable)
            d->giveBack(id, record.status().message(), {});
        else // the row does not read: nothing can be made of it
            d->end(stop, id, QStringLiteral("failed"), record.status().message());
        return record.status().code() != Status::Code::Unavailable;
    }
    d->tell(*record);
    return d->dispatch(stop, *record, std::move(**claimed));
}

std::map<QString, qint64> EventService::ignoredCounts() const
{
    std::lock_guard lock(d->ignoredMutex);
    return d->ignored;
}

Result<EventPage> EventService::list(const EventFilter &filter)
{
    return d->store.readValue<EventPage>([&](SqlTransaction &tx) -> Result<EventPage> {
        QStringList where;
        QVariantList values;
        if (!filter.event.isEmpty()) {
            where << QStringLiteral("event = ?");
            values << filter.event;
        }
        if (!filter.repo.isEmpty()) {
            where << QStringLiteral("repo = ?");
            values << filter.repo;
        }
        if (!filter.status.isEmpty()) {
            where << QStringLiteral("status = ?");
            values << filter.status;
        }
        if (filter.since.isValid()) {
            where << QStringLiteral("received_ms >= ?");
            values << toStoreMs(filter.since);
        }
        const QString clause = where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
        Result<qint64> total = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM event") + clause, values);
        if (!total)
            return total.status();
        QVariantList paged = values;
        paged << filter.limit << filter.offset;
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT %1 FROM event%2 ORDER BY id DESC LIMIT ? OFFSET ?").arg(kColumns, clause), paged);
        if (!q)
            return q.status();
        EventPage page;
        page.total = *total;
        while (q->next())
            page.rows.push_back(recordFrom(*q));
        return page;
    });
}

Result<EventRecord> EventService::get(qint64 id)
{
    return d->row(id, true);
}

} // namespace Switchyard
