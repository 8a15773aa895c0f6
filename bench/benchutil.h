#pragma once

// What the benchmarks share: their command-line numbers, percentiles, the process's memory, and
// driving wrk.

#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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

struct WrkFigures
{
    double requestsPerSecond = 0;
    QString p99;
    QString report;
};

// Runs Debian's wrk with `arguments` (exits when it is not installed). This thread's event loop
// runs meanwhile, so a server living in this process answers it.
inline WrkFigures runWrk(const QStringList &arguments, int seconds)
{
    QProcess wrk;
    wrk.setProcessChannelMode(QProcess::MergedChannels);
    wrk.start(QStringLiteral("wrk"), arguments);
    if (!wrk.waitForStarted(5000)) {
        std::fprintf(stderr, "wrk is not installed (apt-get install wrk)\n");
        std::exit(1);
    }
    QEventLoop loop;
    QObject::connect(&wrk, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot((seconds + 30) * 1000, &loop, &QEventLoop::quit);
    if (wrk.state() != QProcess::NotRunning)
        loop.exec();
    WrkFigures f;
    f.report = QString::fromUtf8(wrk.readAll());
    const QRegularExpressionMatch rate = QRegularExpression(QStringLiteral("Requests/sec:\\s+([0-9.]+)")).match(f.report);
    f.requestsPerSecond = rate.captured(1).toDouble();
    f.p99 = QRegularExpression(QStringLiteral("^\\s+99%\\s+(\\S+)"), QRegularExpression::MultilineOption).match(f.report).captured(1);
    return f;
}

} // namespace Switchyard::Bench
