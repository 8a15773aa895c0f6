#pragma once

// Latency quantiles from logarithmic buckets (1 µs … ~17 s, ~41 % apart): all time
// (LatencyHistogram, lock-free to record) or recent (RecentLatency, the last one to two spans).

#include <QtGlobal>

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>

namespace Switchyard {

namespace Latency {
inline constexpr int kBuckets = 48; // half-powers of two from 1 µs
int bucketOf(std::chrono::nanoseconds elapsed);
// The q-quantile (0..1) of `counts` in milliseconds, as the upper edge of its bucket; 0 when empty.
double quantileMs(const std::array<qint64, kBuckets> &counts, double q);
} // namespace Latency

class LatencyHistogram
{
public:
    void record(std::chrono::nanoseconds elapsed);
    double quantileMs(double q) const;
    qint64 count() const;

private:
    std::atomic<qint64> m_buckets[Latency::kBuckets] = {};
};

// What was recorded in the current span and the one before it: quantiles that follow a change
// within a span or two, where an all-time histogram would barely move. Thread-safe.
class RecentLatency
{
public:
    using Clock = std::function<qint64()>; // milliseconds, monotonic
    explicit RecentLatency(std::chrono::milliseconds span = std::chrono::minutes(1), Clock now = {});

    void record(std::chrono::nanoseconds elapsed);
    double quantileMs(double q) const;
    qint64 count() const;

private:
    void rotate(qint64 now) const; // under m_mutex

    const qint64 m_spanMs;
    const Clock m_now;
    mutable std::mutex m_mutex;
    mutable std::array<qint64, Latency::kBuckets> m_current{};  // guarded by m_mutex
    mutable std::array<qint64, Latency::kBuckets> m_previous{}; // guarded by m_mutex
    mutable qint64 m_currentStart = 0;                          // guarded by m_mutex
};

} // namespace Switchyard
