#pragma once

// The cache's figures, as values (the admin layer and the console use them without the cache).

#include <QString>

#include <optional>

namespace Switchyard {

struct TwoQueueOccupancy
{
    qint64 recent = 0;   // seen once (A1in)
    qint64 frequent = 0; // seen again (Am)
    qint64 ghost = 0;    // keys recently evicted from recent (A1out)
    qint64 capacity = 0;

    bool operator==(const TwoQueueOccupancy &) const = default; // models diff rows with it
};

// GET /cache/stats.
struct CacheStats
{
    QString adapter;
    qint64 hits = 0;
    qint64 misses = 0;
    qint64 evictions = 0; // removed to make room or by expiry
    qint64 errors = 0;    // backend failures (counted as misses for readers)
    double latencyP50Ms = 0;
    double latencyP99Ms = 0;
    qint64 items = -1; // -1: the backend cannot count cheaply
    std::optional<TwoQueueOccupancy> twoQueue;

    bool operator==(const CacheStats &) const = default; // models diff rows with it
};

} // namespace Switchyard
