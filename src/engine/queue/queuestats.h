#pragma once

// A queue's figures, as a value (the admin layer and the console use it without the queue classes).

#include <QDateTime>
#include <QString>

#include <optional>

namespace Switchyard {

// One row of the Queues page and of GET /queues.
struct QueueStats
{
    qint64 qid = 0;
    QString name;
    QString type;
    bool unique = false;
    qint64 length = 0; // waiting in the base queue; -1 when the backend could not say
    // When `length` was read: now for local backends; Redis lengths come from a background
    // sampler (QueueTiming::statsInterval), so listing never waits on the network.
    QDateTime lengthSampledAt;
    int batchLength = 0;
    int workers = 0;
    int activeWorkers = 0;
    int maxWorkers = 0; // ≤ 0: unbounded
    int capacity = 0;   // LENGTH
    bool paused = false;
    qint64 pushedTotal = 0;
    qint64 handledTotal = 0;
    qint64 failedTotal = 0;  // returned unhandled, or in a batch whose handler threw
    qint64 corruptTotal = 0; // undecodable stored items, skipped, and items the backend lost to damage
    qint64 ackFailedTotal = 0; // handled items whose acknowledgement failed: they may be delivered again

    bool operator==(const QueueStats &) const = default; // models diff rows with it
};

// Processed and failed items over time (queuehistory.h records them).
enum class HistoryResolution { Minute, Hour, Day };

struct HistoryWindow
{
    qint64 bucketMs; // the length of one bucket
    int buckets;     // how many are kept (and listed)
};
HistoryWindow historyWindow(HistoryResolution resolution); // minute: 60 × 1 min, hour: 168 × 1 h, day: 90 × 1 d
// "minute" | "hour" | "day"
QString historyResolutionName(HistoryResolution resolution);
std::optional<HistoryResolution> historyResolutionFromName(const QString &name);

struct HistoryBucket
{
    QDateTime at; // the bucket's start (UTC)
    qint64 processed = 0;
    qint64 failed = 0;

    bool operator==(const HistoryBucket &) const = default;
};

} // namespace Switchyard
