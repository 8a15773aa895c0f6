#include "queueops.h"

#include "engine/engine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace Switchyard::Admin {

ItemBody ItemBody::of(const QByteArray &data)
{
    ItemBody body;
    body.sizeBytes = data.size();
    body.truncated = data.size() > kPreviewBytes;
    if (!body.truncated) {
        // Wrapped in [ ], so a scalar (Gitea's webhook_sender stores a bare task id) parses too.
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson('[' + data + ']', &error);
        if (error.error == QJsonParseError::NoError && doc.array().size() == 1) {
            body.payload = doc.array().at(0);
            return body;
        }
    }
    const QByteArray head = data.left(kPreviewBytes);
    QString preview = QString::fromUtf8(head);
    for (QChar &c : preview) {
        if (c.category() == QChar::Other_Control && c != u'\n' && c != u'\t')
            c = QChar(0xfffd); // printable, whatever the bytes were
    }
    body.preview = preview;
    body.base64 = QString::fromLatin1(head.toBase64());
    return body;
}

namespace Ops {

namespace {

// A connection string for display: the password replaced by "***".
QString withoutPassword(const QString &connStr)
{
    QUrl url(connStr);
    if (!url.isValid() || url.password().isEmpty())
        return connStr;
    url.setPassword(QStringLiteral("***"));
    return url.toString();
}

Result<QueueSettingsInfo> settingsOf(Engine &engine, const QString &name)
{
    Result<QueueSettings> settings = engine.config().queueSettings(name);
    if (!settings)
        return settings.status();
    QueueSettingsInfo info;
    info.name = settings->name;
    info.type = settings->type;
    info.length = settings->length;
    info.batchLength = settings->batchLength;
    if (info.type == QLatin1String("level"))
        info.location = settings->dataDir;
    else if (info.type == QLatin1String("redis"))
        info.location = QStringLiteral("%1, %2 on %3").arg(settings->queueFullName(), settings->setFullName(), withoutPassword(settings->connStr));
    else
        info.location = QStringLiteral("in memory");
    return info;
}

Result<Done> done(const Status &status)
{
    if (!status)
        return status;
    return Done{};
}

} // namespace

const Op<NoArgs, std::vector<QueueRow>> queueList{
    {.action = "queue.list", .method = HttpMethod::Get, .path = "/queues", .flags = Cached | Paged,
     .summary = "queues with lengths, workers and totals", .cli = "queues list", .cliAliases = {"queues"},
     .columns = {{"qid", "qid"}, {"name", "name"}, {"type", "type"}, {"length", "length"}, {"workers", "workers"},
                 {"max", "max_workers"}, {"paused", "paused"}, {"pushed", "pushed_total"}, {"handled", "handled_total"},
                 {"failed", "failed_total"}}},
    [](OpContext &c, const NoArgs &) -> Result<std::vector<QueueRow>> { return c.engine.queues().list(); }};

const Op<QueueRef, QueueDetail> queueGet{
    {.action = "queue.get", .method = HttpMethod::Get, .path = "/queues/{qid}",
     .summary = "one queue's row and settings", .cli = "queues get"},
    [](OpContext &c, const QueueRef &a) -> Result<QueueDetail> {
        Result<QueueRow> row = c.engine.queues().stats(a.qid);
        if (!row)
            return row.status();
        QueueDetail detail{std::move(row).value(), std::nullopt};
        if (Result<QueueSettingsInfo> settings = settingsOf(c.engine, detail.row.name))
            detail.settings = std::move(settings).value();
        return detail;
    }};

const Op<FlushArgs, Done> queueFlush{
    {.action = "queue.flush", .method = HttpMethod::Post, .path = "/queues/{qid}/flush", .flags = Mutating | MayWait | JobOp,
     .summary = "drain one queue through its handler within the timeout (negative: discard)", .cli = "queues flush",
     .done = "flushed queue {qid}"},
    [](OpContext &c, const FlushArgs &a) -> Result<Done> {
        const std::shared_ptr<WorkerPool> pool = c.engine.queues().find(a.qid);
        if (!pool)
            return Status::notFound(QStringLiteral("no queue with qid %1").arg(a.qid));
        return done(pool->flush(c.cancel, std::chrono::milliseconds(a.timeoutMs)));
    }};

const Op<FlushAllArgs, Done> queueFlushAll{
    {.action = "queue.flush-all", .method = HttpMethod::Post, .path = "/queues/flush-all", .flags = Mutating | MayWait,
     .summary = "drain every queue (--non-blocking: answer at once)", .cli = "queues flush-all", .done = "flushed every queue"},
    [](OpContext &c, const FlushAllArgs &a) -> Result<Done> {
        const std::chrono::milliseconds timeout(a.timeoutMs);
        if (a.nonBlocking && c.detach) {
            // Runs on after the answer; the caller's stop cancels it.
            c.detach([&engine = c.engine, timeout](const CancelToken &stop) {
                if (Status flushed = engine.queues().flushAll(stop, timeout); !flushed)
                    qWarning("non-blocking flush-all: %s", qPrintable(flushed.toString()));
            });
            return Done{false, true};
        }
        return done(c.engine.queues().flushAll(c.cancel, timeout));
    }};

const Op<RemoveAllArgs, RemoveAllResult> queueRemoveAll{
    {.action = "queue.remove-all", .method = HttpMethod::Post, .path = "/queues/{qid}/remove-all", .flags = Mutating | MayWait,
     .summary = "delete every waiting item (--dry-run: count them; a read)", .cli = "queues remove-all",
     .done = "removed {removed} items from queue {qid}", .doneDryRun = "would remove {count} items from queue {qid}"},
    [](OpContext &c, const RemoveAllArgs &a) -> Result<RemoveAllResult> {
        if (a.dryRun) {
            Result<QueueRow> row = c.engine.queues().stats(a.qid);
            if (!row)
                return row.status();
            return RemoveAllResult{0, std::max<qint64>(row->length, 0), true};
        }
        Result<qint64> removed = c.engine.queues().removeAll(c.cancel, a.qid);
        if (!removed)
            return removed.status();
        return RemoveAllResult{*removed, -1, false};
    },
    [](const RemoveAllArgs &a) { return a.dryRun; }};

const Op<MaxWorkersArgs, Done> queueSetMaxWorkers{
    {.action = "queue.set-max-workers", .method = HttpMethod::Put, .path = "/queues/{qid}/max-workers", .flags = Mutating,
     .summary = "change a queue's worker limit", .cli = "queues set-workers", .done = "queue {qid} now has at most {max_workers} workers"},
    [](OpContext &c, const MaxWorkersArgs &a) -> Result<Done> { return done(c.engine.queues().setMaxWorkers(a.qid, int(a.maxWorkers))); }};

const Op<QueueRef, Done> queuePause{
    {.action = "queue.pause", .method = HttpMethod::Post, .path = "/queues/{qid}/pause", .flags = Mutating | MayWait,
     .summary = "stop handing items to workers (pushes are still accepted)", .cli = "queues pause", .done = "paused queue {qid}"},
    [](OpContext &c, const QueueRef &a) -> Result<Done> { return done(c.engine.queues().pause(c.cancel, a.qid)); }};

const Op<QueueRef, Done> queueResume{
    {.action = "queue.resume", .method = HttpMethod::Post, .path = "/queues/{qid}/resume", .flags = Mutating,
     .summary = "hand items to workers again", .cli = "queues resume", .done = "resumed queue {qid}"},
    [](OpContext &c, const QueueRef &a) -> Result<Done> { return done(c.engine.queues().resume(a.qid)); }};

const Op<ItemsArgs, std::vector<QueueItem>> queueItems{
    {.action = "queue.items", .method = HttpMethod::Get, .path = "/queues/{qid}/items", .flags = MayWait,
     .summary = "peek at waiting items from the head (consumes nothing)", .cli = "queues items",
     .columns = {{"pos", "position"}, {"bytes", "size_bytes"}, {"payload", "payload"}, {"preview", "preview"}}},
    [](OpContext &c, const ItemsArgs &a) -> Result<std::vector<QueueItem>> {
        const std::shared_ptr<WorkerPool> pool = c.engine.queues().find(a.qid);
        if (!pool)
            return Status::notFound(QStringLiteral("no queue with qid %1").arg(a.qid));
        Result<std::vector<PeekedItem>> peeked = pool->peek(c.cancel, a.offset, int(a.limit));
        if (!peeked)
            return peeked.status();
        std::vector<QueueItem> items;
        items.reserve(peeked->size());
        for (const PeekedItem &item : *peeked)
            items.push_back(QueueItem{item.position, ItemBody::of(item.data), item.enqueuedAt});
        return items;
    }};

const Op<ItemsArgs, std::vector<InFlightRow>> queueInFlight{
    {.action = "queue.in-flight", .method = HttpMethod::Get, .path = "/queues/{qid}/in-flight", .flags = MayWait,
     .summary = "items taken for handling and not yet acknowledged: by which worker or instance, since when",
     .cli = "queues in-flight",
     .columns = {{"instance", "instance"}, {"holder", "holder"}, {"since", "since"}, {"bytes", "size_bytes"}, {"payload", "payload"},
                 {"preview", "preview"}}},
    [](OpContext &c, const ItemsArgs &a) -> Result<std::vector<InFlightRow>> {
        const std::shared_ptr<WorkerPool> pool = c.engine.queues().find(a.qid);
        if (!pool)
            return Status::notFound(QStringLiteral("no queue with qid %1").arg(a.qid));
        Result<std::vector<InFlightItem>> held = pool->inFlight(c.cancel, int(a.offset + a.limit));
        if (!held)
            return held.status();
        std::vector<InFlightRow> rows;
        for (std::size_t i = std::size_t(a.offset); i < held->size(); ++i) {
            const InFlightItem &item = (*held)[i];
            rows.push_back(InFlightRow{ItemBody::of(item.data), item.since,
                                       item.instance.isEmpty() ? c.engine.instanceId() : item.instance, item.holder});
        }
        return rows;
    }};

const Op<HistoryArgs, std::vector<HistoryBucket>> queueHistory{
    {.action = "queue.history", .method = HttpMethod::Get, .path = "/queues/history",
     .summary = "processed and failed items over time, per queue or in total", .cli = "queues history",
     .columns = {{"at", "at"}, {"processed", "processed"}, {"failed", "failed"}}},
    [](OpContext &c, const HistoryArgs &a) -> Result<std::vector<HistoryBucket>> {
        const std::optional<HistoryResolution> resolution = historyResolutionFromName(a.resolution);
        if (!resolution)
            return Status::invalidArgument(
                       QStringLiteral("resolution: \"%1\" is not one of minute, hour, day").arg(a.resolution.left(64)))
                .withField(QStringLiteral("resolution"));
        QString queue;
        if (a.qid != 0) {
            Result<QueueRow> row = c.engine.queues().stats(a.qid);
            if (!row)
                return row.status().withField(QStringLiteral("qid"));
            queue = row->name;
        }
        return c.engine.queueHistory().read(queue, *resolution, QDateTime::currentDateTimeUtc());
    }};

std::vector<const OpBase *> queueOps()
{
    // /queues/history before /queues/{qid}: the first matching route wins.
    return {&queueList,          &queueHistory, &queueGet,    &queueFlush, &queueFlushAll, &queueRemoveAll,
            &queueSetMaxWorkers, &queuePause,   &queueResume, &queueItems, &queueInFlight};
}

} // namespace Ops

} // namespace Switchyard::Admin
