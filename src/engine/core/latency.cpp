#include "latency.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>

namespace Switchyard {

// Bucket i holds durations up to 1 µs × 2^(i/2).
int Latency::bucketOf(std::chrono::nanoseconds elapsed)
{
    const double micros = std::max(1.0, double(elapsed.count()) / 1000.0);
    return std::clamp(int(std::ceil(2.0 * std::log2(micros))), 0, kBuckets - 1);
}

double Latency::quantileMs(const std::array<qint64, kBuckets> &counts, double q)
{
    qint64 total = 0;
    for (qint64 n : counts)
        total += n;
    if (total == 0)
        return 0;
    const qint64 rank = std::max<qint64>(1, qint64(std::ceil(q * double(total))));
    qint64 seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
        seen += counts[std::size_t(i)];
        if (seen >= rank)
            return std::pow(2.0, i / 2.0) / 1000.0;
    }
    return std::pow(2.0, (kBuckets - 1) / 2.0) / 1000.0;
}

void LatencyHistogram::record(std::chrono::nanoseconds elapsed)
{
    m_buckets[Latency::bucketOf(elapsed)].fetch_add(1, std::memory_order_relaxed);
}

qint64 LatencyHistogram::count() const
{
    qint64 total = 0;
    for (const auto &bucket : m_buckets)
        total += bucket.load(std::memory_order_relaxed);
    return total;
}

double LatencyHistogram::quantileMs(double q) const
{
    std::array<qint64, Latency::kBuckets> counts{};
    for (int i = 0; i < Latency::kBuckets; ++i)
        counts[std::size_t(i)] = m_buckets[i].load(std::memory_order_relaxed);
    return Latency::quantileMs(counts, q);
}

RecentLatency::RecentLatency(std::chrono::milliseconds span, Clock now)
    : m_spanMs(std::max<qint64>(1, span.count())),
      m_now(now ? std::move(now) : Clock([] {
          static const QElapsedTimer started = [] {
              QElapsedTimer t;
              t.start();
              return t;
          }();
          return started.elapsed();
      }))
{
    m_currentStart = m_now();
}

void RecentLatency::rotate(qint64 now) const
{
    if (now - m_currentStart < m_spanMs)
        return;
    // One span on: the current one becomes the previous; more: both are past.
    m_previous = now - m_currentStart < 2 * m_spanMs ? m_current : std::array<qint64, Latency::kBuckets>{};
    m_current.fill(0);
    m_currentStart = now - (now - m_currentStart) % m_spanMs;
}

void RecentLatency::record(std::chrono::nanoseconds elapsed)
{
    const qint64 now = m_now();
    std::lock_guard lock(m_mutex);
    rotate(now);
    ++m_current[std::size_t(Latency::bucketOf(elapsed))];
}

double RecentLatency::quantileMs(double q) const
{
    const qint64 now = m_now();
    std::lock_guard lock(m_mutex);
    rotate(now);
    std::array<qint64, Latency::kBuckets> both = m_current;
    for (std::size_t i = 0; i < both.size(); ++i)
        both[i] += m_previous[i];
    return Latency::quantileMs(both, q);
}

qint64 RecentLatency::count() const
{
    const qint64 now = m_now();
    std::lock_guard lock(m_mutex);
    rotate(now);
    qint64 total = 0;
    for (std::size_t i = 0; i < m_current.size(); ++i)
        total += m_current[i] + m_previous[i];
    return total;
}

} // namespace Switchyard
