#pragma once

// What the benchmarks share: their command-line numbers, percentiles and the process's memory.

#include <QFile>
#include <QStringList>

#include <sys/resource.h>

#include <algorithm>
#include <vector>

namespace Switchyard::Bench {

// The number after `name` ("--seconds 10"), or `fallback`.
inline int option(const QStringList &args, const char *name, int fallback)
{
    const qsizetype at = args.indexOf(QLatin1String(name));
    return at >= 0 && at + 1 < args.size() ? args.at(at + 1).toInt() : fallback;
}

// The q-quantile (0..1) of `values`; 0 for none.
inline double percentile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, std::size_t(q * double(values.size())))];
}

// This process's resident memory (VmRSS) in KiB; -1 when it cannot be read.
inline qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

// The CPU time this process (every thread) has used so far, user and system, in microseconds:
// beside a rate, it tells a run bound by the machine's cores from one that waits.
inline qint64 cpuMicros()
{
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    const auto us = [](const timeval &t) { return qint64(t.tv_sec) * 1'000'000 + t.tv_usec; };
    return us(usage.ru_utime) + us(usage.ru_stime);
}

} // namespace Switchyard::Bench
