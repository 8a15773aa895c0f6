#pragma once

// What the benchmarks share: their command-line numbers and percentiles.

#include <QStringList>

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

} // namespace Switchyard::Bench
