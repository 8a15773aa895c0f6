#pragma once

// Processed and failed items over time, per queue and in total (the Overview's charts, GET
// /queues/history): what every queue dashboard shows (Sidekiq's, Hangfire's, asynqmon's).
//
// The recorder samples the queues' running totals (QueueStats::handledTotal and failedTotal) every
// `interval` and adds what changed since the previous sample to three buckets of the journal: the
// minute, the hour and the day that hold the sample's time. Buckets older than their window (1 h
// of minutes, 7 days of hours, 90 days of days) are dropped as new ones are written, so the table
// stays bounded (queues × (60 + 168 + 90) rows). Several instances sharing a PostgreSQL store each
// add their own counts, so the sums are the cluster's. A crash loses at most the last interval's
// counts (the last sample of a clean shutdown is written as the recorder stops).

#include "queuestats.h"

#include "engine/core/status.h"

#include <QDateTime>
#include <QHash>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace Switchyard {

class CancelToken;
class Lifecycle;

struct QueueCounts
{
    QString queue; // the queue's name (stable across restarts, unlike its qid)
    qint64 processed = 0;
    qint64 failed = 0;
};

// Where the buckets are kept (the store implements it: journals.h).
class QueueHistoryJournal
{
public:
    virtual ~QueueHistoryJournal() = default;
    // Adds `counts` to the buckets holding `at` at each resolution and drops buckets that fell
    // out of their windows, in one transaction.
    virtual Status add(const QDateTime &at, const std::vector<QueueCounts> &counts) = 0;
    // The window ending with the bucket that holds `now`, oldest first, every bucket present
    // (zero when nothing happened); `queue` empty: all queues summed.
    virtual Result<std::vector<HistoryBucket>> read(const QString &queue, HistoryResolution resolution,
                                                    const QDateTime &now) = 0;
};

// Samples a set of queues' totals and writes the differences. sample() is public so tests drive
// it with their own clock; start() runs it every `interval` on a lifecycle component.
class QueueHistoryRecorder
{
public:
    using Source = std::function<std::vector<QueueStats>()>; // QueueManager::list
    using Clock = std::function<QDateTime()>;

    QueueHistoryRecorder(QueueHistoryJournal &journal, Source source, Clock clock = &QDateTime::currentDateTimeUtc);

    // Reads the totals and adds what changed since the previous call (the first call after
    // construction counts from zero: a queue's totals start with the process). A total lower
    // than before means the queue was created anew: it counts from zero again. A failed write
    // keeps the difference for the next call.
    Status sample();
    // Samples every `interval` until shutdown, then once more.
    Status start(Lifecycle &lifecycle, std::chrono::milliseconds interval);

private:
    QueueHistoryJournal &m_journal;
    const Source m_source;
    const Clock m_clock;
    std::mutex m_mutex;                                 // one sample at a time
    QHash<QString, std::pair<qint64, qint64>> m_written; // guarded by m_mutex: totals already written
};

} // namespace Switchyard
