#include "events.h"

#include "translate_p.h"

#include "engine/core/logging.h"
#include "engine/notify/notify.h"
#include "engine/settings/config.h"
#include "engine/store/store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QUuid>

namespace Switchyard {

namespace {

const QString kColumns = QStringLiteral("id, source, delivery_id, event, action, repo, sender, received_ms, status, error, attempts, trace_id");

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
    return r;
}

// Constant time in the length of `expected`.
bool sameBytes(const QByteArray &expected, const QByteArray &given)
{
    unsigned char difference = expected.size() == given.size() ? 0 : 1;
    for (qsizetype i = 0; i < expected.size(); ++i)
        difference |= static_cast<unsigned char>(expected.at(i) ^ (i < given.size() ? given.at(i) : 0));
    return difference == 0;
}

} // namespace

QByteArray eventSignature(const QByteArray &secret, const QByteArray &payload)
{
    return QMessageAuthenticationCode::hash(payload, secret, QCryptographicHash::Sha256).toHex();
}

const QStringList &EventService::supportedEvents()
{
    static const QStringList events{
        QStringLiteral("ping"), QStringLiteral("push"), QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("issues"),
        QStringLiteral("issue_assign"), QStringLiteral("issue_label"), QStringLiteral("issue_milestone"), QStringLiteral("issue_comment"),
        QStringLiteral("pull_request"), QStringLiteral("pull_request_assign"), QStringLiteral("pull_request_label"),
        QStringLiteral("pull_request_milestone"), QStringLiteral("pull_request_sync"), QStringLiteral("pull_request_review_request"),
        QStringLiteral("pull_request_comment"), QStringLiteral("pull_request_review"), QStringLiteral("pull_request_review_approved"),
        QStringLiteral("pull_request_review_rejected"), QStringLiteral("pull_request_review_comment"), QStringLiteral("release"),
        QStringLiteral("repository"), QStringLiteral("fork"), QStringLiteral("wiki"), QStringLiteral("gollum"), QStringLiteral("status"),
        QStringLiteral("package"), QStringLiteral("workflow_run"), QStringLiteral("workflow_job")};
    return events;
}

struct EventService::Impl
{
    Impl(const EngineConfig &c, Store &s, Notifier &b, EventServiceOptions o) : config(c), store(s), bus(b), options(o) {}

    const EngineConfig &config;
    Store &store;
    Notifier &bus;
    const EventServiceOptions options;
    std::shared_ptr<WorkerPoolQueue<qint64>> queue;
    std::mutex observerMutex;
    Observer observer; // set before start()

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
                r.payload = q->value(12).toByteArray();
            return r;
        });
    }
    void finish(qint64 id, const QString &status, const QString &error)
    {
        const Status saved = store.write([&](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("UPDATE event SET status = ?, error = ? WHERE id = ?"), {status, error.left(2000), id}).status();
        });
        if (!saved)
            qCWarning(lcCore).noquote() << "event" << id << "could not be marked" << status << ":" << saved.message();
        if (Result<EventRecord> r = row(id, false))
            tell(*r);
    }
};

EventService::EventService(const EngineConfig &config, Store &store, Notifier &bus, EventServiceOptions options)
    : d(std::make_unique<Impl>(config, store, bus, options))
{
}

EventService::~EventService() = default;

void EventService::setObserver(Observer observer)
{
    std::lock_guard lock(d->observerMutex);
    d->observer = std::move(observer);
}

Status EventService::start(const CancelToken &cancel, QueueManager &queues)
{
    Result<std::shared_ptr<WorkerPoolQueue<qint64>>> queue =
        queues.createUniqueQueue<qint64>(cancel, QStringLiteral("event_ingest"), [this](std::vector<qint64> ids) {
            std::sort(ids.begin(), ids.end()); // in arrival order: a push before the create it caused
            std::vector<qint64> retry;
            for (qint64 id : ids)
                if (!process(id))
                    retry.push_back(id);
            return retry;
        });
    if (!queue)
        return queue.status();
    d->queue = std::move(queue).value();
    Result<qint64> requeued = requeueUnfinished(cancel);
    if (!requeued)
        return requeued.status();
    if (*requeued > 0)
        qCInfo(lcCore).noquote() << *requeued << "ingested events left unfinished by an earlier run are queued again";
    return Status::ok();
}

Result<qint64> EventService::requeueUnfinished(const CancelToken &cancel)
{
    if (!d->queue)
        return Status::unavailable(QStringLiteral("event ingestion has not started"));
    // Pending rows, and processing rows whose lease ran out.
    const qint64 expired = toStoreMs(QDateTime::currentDateTimeUtc()) - d->options.lease.count();
    Result<std::vector<qint64>> unfinished = d->store.readValue<std::vector<qint64>>([&](SqlTransaction &tx) {
        return tx.numbers(QStringLiteral("SELECT id FROM event WHERE status = 'pending' OR (status = 'processing' AND claimed_ms < ?) ORDER BY id"),
                          {expired});
    });
    if (!unfinished)
        return unfinished.status();
    qint64 pushedCount = 0;
    for (qint64 id : *unfinished) {
        const Status pushed = d->queue->push(cancel, id);
        if (pushed)
            ++pushedCount;
        else if (pushed.code() != Status::Code::AlreadyExists) // already queued: nothing to do
            return pushed;
    }
    return pushedCount;
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
    // The signature, when the source has a secret: checked whenever one is sent; without one only
    // a token lets the event in.
    const bool signedBy256 = !in.hubSignature256.isEmpty();
    const bool signedByGitea = !in.giteaSignature.isEmpty();
    if (!source->secret.isEmpty() && (signedBy256 || signedByGitea)) {
        const QByteArray expected = eventSignature(source->secret.toUtf8(), in.payload);
        const QByteArray given = signedBy256 ? in.hubSignature256.trimmed() : in.giteaSignature.trimmed();
        const bool valid = signedBy256 ? sameBytes("sha256=" + expected, given.toLower()) : sameBytes(expected, given.toLower());
        if (!valid)
            return Status::unauthenticated(QStringLiteral("the %1 header does not match the payload signed with [event_source.%2] SECRET")
                                               .arg(signedBy256 ? QStringLiteral("X-Hub-Signature-256") : QStringLiteral("X-Gitea-Signature"),
                                                    source->name));
    } else if (!in.byToken) {
        return Status::unauthenticated(source->secret.isEmpty()
                                           ? QStringLiteral("event source \"%1\" has no secret: send an admin or ingest token").arg(source->name)
                                           : QStringLiteral("no signature: send X-Hub-Signature-256 or X-Gitea-Signature, or a token"));
    }
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(in.payload, &error);
    if (error.error != QJsonParseError::NoError)
        return Status::invalidArgument(QStringLiteral("body: malformed JSON at offset %1: %2").arg(error.offset).arg(error.errorString()))
            .withField(QStringLiteral("body"));
    if (!doc.isObject())
        return Status::invalidArgument(QStringLiteral("body: expected a JSON object")).withField(QStringLiteral("body"));
    const QJsonObject payload = doc.object();
    if (Status valid = checkPayload(in.event, payload); !valid)
        return valid;
    if (cancel.isCancelled())
        return cancel.cause();

    const QString deliveryId = in.deliveryId.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces) : in.deliveryId.left(200);
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

    Result<EventAccepted> stored = d->store.writeValue<EventAccepted>([&](SqlTransaction &tx) -> Result<EventAccepted> {
        Result<QSqlQuery> inserted = tx.exec(
            QStringLiteral("INSERT INTO event (source, delivery_id, event, action, repo, sender, payload, received_ms, status, trace_id) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, delivery_id) DO NOTHING RETURNING id"),
            {source->name, deliveryId, in.event, action, repo.left(300), senderLogin.left(200), in.payload, now,
             ping ? QStringLiteral("ignored") : QStringLiteral("pending"), traceId});
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
    if (!ping && d->queue) {
        // Stored first: were the push lost, the next start queues the row again.
        const Status pushed = d->queue->push(cancel, stored->id);
        if (!pushed && pushed.code() != Status::Code::AlreadyExists)
            qCWarning(lcCore).noquote() << "event" << stored->id << "is stored but not queued (" << pushed.message()
                                        << "); it is processed at the next start";
    }
    return stored;
}

bool EventService::process(qint64 id)
{
    // The claim: pending, or processing with its lease run out (the instance that claimed it died).
    const qint64 now = toStoreMs(QDateTime::currentDateTimeUtc());
    Result<bool> claimed = d->store.writeValue<bool>([&](SqlTransaction &tx) -> Result<bool> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("UPDATE event SET status = 'processing', claimed_ms = ?, attempts = attempts + 1 "
                                                     "WHERE id = ? AND (status = 'pending' OR (status = 'processing' AND claimed_ms < ?))"),
                                      {now, id, now - d->options.lease.count()});
        if (!q)
            return q.status();
        return q->numRowsAffected() > 0;
    });
    if (!claimed) {
        qCWarning(lcCore).noquote() << "event" << id << "could not be claimed:" << claimed.status().message();
        return false;
    }
    if (!*claimed)
        return true; // done already, or another instance holds it
    Result<EventRecord> record = d->row(id, true);
    if (!record)
        return false;
    d->tell(*record);
    const QJsonObject payload = QJsonDocument::fromJson(record->payload).object();
    const bool autoWatch = d->config.service.autoWatchOnChanges;
    Result<Translation> translated = d->store.writeValue<Translation>([&](SqlTransaction &tx) {
        return translateEvent(tx, record->source, record->event, payload, autoWatch, record->traceId);
    });
    if (!translated) {
        if (translated.status().code() == Status::Code::Unavailable) {
            // The database, not the event: give the claim back and let the queue try again.
            d->store.write([&](SqlTransaction &tx) {
                return tx.exec(QStringLiteral("UPDATE event SET status = 'pending' WHERE id = ?"), {id}).status();
            });
            return false;
        }
        qCWarning(lcCore).noquote() << "event" << id << record->event << "failed:" << translated.status().message();
        d->finish(id, QStringLiteral("failed"), translated.status().message());
        return true;
    }
    QStringList failures;
    for (const auto &call : translated->calls) {
        try {
            call(d->bus);
        } catch (const std::exception &e) {
            failures << QString::fromLocal8Bit(e.what());
        }
    }
    d->finish(id, failures.isEmpty() ? QStringLiteral("done") : QStringLiteral("failed"), failures.join(QStringLiteral("; ")));
    return true;
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
