#pragma once

// The queues' operations (docs/api.md "Queues") and the JSON description of their values.

#include "admin/catalogue.h"

namespace Switchyard {

template<typename V>
void describe(V &v, QueueStats &q)
{
    using Admin::Json::Optional;
    v("qid", q.qid);
    v("name", q.name);
    v("type", q.type);
    v("unique", q.unique);
    v("length", q.length);
    v("length_sampled_at", q.lengthSampledAt, Optional);
    v("batch_length", q.batchLength);
    v("workers", q.workers);
    v("active_workers", q.activeWorkers);
    v("max_workers", q.maxWorkers);
    v("capacity", q.capacity);
    v("paused", q.paused, Optional);
    v("pushed_total", q.pushedTotal);
    v("handled_total", q.handledTotal);
    v("failed_total", q.failedTotal);
    v("corrupt_total", q.corruptTotal, Optional);
    v("ack_failed_total", q.ackFailedTotal, Optional);
}

// GET /queues/history: one bucket of processed and failed items.
template<typename V>
void describe(V &v, HistoryBucket &b)
{
    v("at", b.at);
    v("processed", b.processed);
    v("failed", b.failed);
}

} // namespace Switchyard

namespace Switchyard::Admin {

template<typename V>
void describe(V &v, QueueSettingsInfo &s)
{
    v("name", s.name);
    v("type", s.type);
    v("length", s.length);
    v("batch_length", s.batchLength);
    v("location", s.location);
}

// GET /queues/{qid}: the row and the queue's settings.
struct QueueDetail
{
    QueueRow row;
    std::optional<QueueSettingsInfo> settings;
};
template<typename V>
void describe(V &v, QueueDetail &d)
{
    describe(v, d.row);
    v("settings", d.settings, Json::Omit);
}

struct RemoveAllResult
{
    qint64 removed = 0;
    qint64 count = -1; // a dry run: how many wait now
    bool dryRun = false;
};
template<typename V>
void describe(V &v, RemoveAllResult &r)
{
    v("removed", r.removed);
    v("count", r.count, Json::Omit);
    v("dry_run", r.dryRun, Json::Omit);
}

// A queue item's bytes as an operator reads them: the payload as JSON when it parses, else a
// printable preview and base64; at most kPreviewBytes of either.
struct ItemBody
{
    static constexpr qint64 kPreviewBytes = 64 * 1024;
    qint64 sizeBytes = 0;
    std::optional<QJsonValue> payload;
    QString preview;
    QString base64;
    bool truncated = false;

    static ItemBody of(const QByteArray &data);
};
template<typename V>
void describe(V &v, ItemBody &b)
{
    v("size_bytes", b.sizeBytes);
    v("payload", b.payload, Json::Omit);
    v("preview", b.preview, Json::Omit);
    v("base64", b.base64, Json::Omit);
    v("truncated", b.truncated, Json::Omit);
}

// GET /queues/{qid}/items: one waiting item.
struct QueueItem
{
    qint64 position = 0;
    ItemBody body;
    QDateTime enqueuedAt; // where the backend keeps it
};
template<typename V>
void describe(V &v, QueueItem &i)
{
    v("position", i.position);
    describe(v, i.body);
    v("enqueued_at", i.enqueuedAt, Json::Omit);
}

// GET /queues/{qid}/in-flight: one item taken and not yet acknowledged.
struct InFlightRow
{
    ItemBody body;
    QDateTime since;  // when a worker took it (unknown for another instance's)
    QString instance; // the instance holding it
    QString holder;   // "worker 2", "worker 2, gathering a batch"; empty for another instance's
};
template<typename V>
void describe(V &v, InFlightRow &r)
{
    describe(v, r.body);
    v("since", r.since, Json::Omit);
    v("instance", r.instance);
    v("holder", r.holder, Json::Omit);
}

struct ItemsArgs
{
    qint64 qid = 0;
    qint64 limit = 50;
    qint64 offset = 0;
};
template<typename V>
void describe(V &v, ItemsArgs &a)
{
    v(ArgSpec{ArgSpec::Path, "qid", "the queue id", 1}, a.qid);
    v(ArgSpec{ArgSpec::Query, "limit", "items to show (default 50, max 500)", 1, 500, "--limit"}, a.limit);
    v(ArgSpec{ArgSpec::Query, "offset", "skip this many from the head", 0, std::numeric_limits<qint64>::max() / 2, "--offset"}, a.offset);
}

struct QueueRef
{
    qint64 qid = 0;
};
template<typename V>
void describe(V &v, QueueRef &a)
{
    v(ArgSpec{ArgSpec::Path, "qid", "the queue id (queues list)", 1}, a.qid);
}

struct FlushArgs
{
    qint64 qid = 0;
    qint64 timeoutMs = 60000;
};
template<typename V>
void describe(V &v, FlushArgs &a)
{
    v(ArgSpec{ArgSpec::Path, "qid", "the queue id", 1}, a.qid);
    v(ArgSpec{ArgSpec::Query, "timeout_ms", "how long to drain (default 60000; negative: discard instead)", -1,
              24 * 3600 * 1000, "--timeout"},
      a.timeoutMs);
}

struct FlushAllArgs
{
    qint64 timeoutMs = 60000;
    bool nonBlocking = false;
};
template<typename V>
void describe(V &v, FlushAllArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "timeout_ms", "how long to drain each queue (default 60000)", -1, 24 * 3600 * 1000, "--timeout"},
      a.timeoutMs);
    v(ArgSpec{ArgSpec::Query, "non_blocking", "answer 202 at once; the flush goes on", 0, 1, "--non-blocking"}, a.nonBlocking);
}

struct RemoveAllArgs
{
    qint64 qid = 0;
    bool dryRun = false;
};
template<typename V>
void describe(V &v, RemoveAllArgs &a)
{
    v(ArgSpec{ArgSpec::Path, "qid", "the queue id", 1}, a.qid);
    v(ArgSpec{ArgSpec::Query, "dry_run", "only count what would go (a read)", 0, 1, "--dry-run"}, a.dryRun);
}

struct MaxWorkersArgs
{
    qint64 qid = 0;
    qint64 maxWorkers = 0;
};
template<typename V>
void describe(V &v, MaxWorkersArgs &a)
{
    v(ArgSpec{ArgSpec::Path, "qid", "the queue id", 1}, a.qid);
    v(ArgSpec{ArgSpec::Body, "max_workers", "the new worker limit", 1, 1'000'000, "", true}, a.maxWorkers);
}

struct HistoryArgs
{
    qint64 qid = 0; // 0: every queue
    QString resolution = QStringLiteral("minute");
};
template<typename V>
void describe(V &v, HistoryArgs &a)
{
    v(ArgSpec{ArgSpec::Query, "qid", "one queue (queues list); default: every queue summed", 0, std::numeric_limits<qint64>::max(), "--qid"},
      a.qid);
    v(ArgSpec{ArgSpec::Query, "resolution", "minute (the last hour), hour (7 days) or day (90 days); default minute", 0, 0,
              "--resolution"},
      a.resolution);
}

namespace Ops {

extern const Op<NoArgs, std::vector<QueueRow>> queueList;
extern const Op<QueueRef, QueueDetail> queueGet;
extern const Op<FlushArgs, Done> queueFlush;
extern const Op<FlushAllArgs, Done> queueFlushAll;
extern const Op<RemoveAllArgs, RemoveAllResult> queueRemoveAll;
extern const Op<MaxWorkersArgs, Done> queueSetMaxWorkers;
extern const Op<QueueRef, Done> queuePause;
extern const Op<QueueRef, Done> queueResume;
extern const Op<ItemsArgs, std::vector<QueueItem>> queueItems;
extern const Op<ItemsArgs, std::vector<InFlightRow>> queueInFlight;
extern const Op<HistoryArgs, std::vector<HistoryBucket>> queueHistory;

std::vector<const OpBase *> queueOps();

} // namespace Ops

} // namespace Switchyard::Admin
