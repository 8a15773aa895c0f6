#include "queuehistory.h"

#include "queuelogging.h"

#include "engine/core/lifecycle.h"

namespace Switchyard {

HistoryWindow historyWindow(HistoryResolution resolution)
{
    switch (resolution) {
    case HistoryResolution::Minute: return {60'000, 60};
    case HistoryResolution::Hour: return {3'600'000, 168};
    case HistoryResolution::Day: return {86'400'000, 90};
    }
    return {60'000, 60};
}

QString historyResolutionName(HistoryResolution resolution)
{
    switch (resolution) {
    case HistoryResolution::Minute: return QStringLiteral("minute");
    case HistoryResolution::Hour: return QStringLiteral("hour");
    case HistoryResolution::Day: return QStringLiteral("day");
    }
    return {};
}

std::optional<HistoryResolution> historyResolutionFromName(const QString &name)
{
    for (HistoryResolution r : {HistoryResolution::Minute, HistoryResolution::Hour, HistoryResolution::Day})
        if (historyResolutionName(r) == name)
            return r;
    return std::nullopt;
}

QueueHistoryRecorder::QueueHistoryRecorder(QueueHistoryJournal &journal, Source source, Clock clock)
    : m_journal(journal), m_source(std::move(source)), m_clock(std::move(clock))
{
}

Status QueueHistoryRecorder::sample()
{
    std::lock_guard lock(m_mutex);
    const std::vector<QueueStats> queues = m_source();
    std::vector<QueueCounts> counts;
    QHash<QString, std::pair<qint64, qint64>> totals;
    for (const QueueStats &q : queues) {
        const std::pair<qint64, qint64> total{q.handledTotal, q.failedTotal};
        totals.insert(q.name, total);
        std::pair<qint64, qint64> before = m_written.value(q.name, {0, 0});
        if (total.first < before.first || total.second < before.second)
            before = {0, 0}; // created anew since the last sample
        if (total != before)
            counts.push_back({q.name, total.first - before.first, total.second - before.second});
    }
    if (counts.empty())
        return Status::ok();
    if (Status added = m_journal.add(m_clock(), counts); !added)
        return added; // nothing recorded as written: the next sample adds this difference too
    for (auto it = totals.cbegin(); it != totals.cend(); ++it)
        m_written.insert(it.key(), it.value());
    return Status::ok();
}

Status QueueHistoryRecorder::start(Lifecycle &lifecycle, std::chrono::milliseconds interval)
{
    return lifecycle.runWithCancel(QStringLiteral("queue history"), [this, interval](const CancelToken &cancel) {
        Status last = Status::ok();
        auto sampleLogged = [&] {
            const Status sampled = sample();
            if (!sampled && last) // once per outage, not every interval
                qCWarning(lcQueue).noquote() << "queue history: cannot record the counts:" << sampled.message();
            last = sampled;
        };
        while (cancel.sleepFor(interval))
            sampleLogged();
        sampleLogged(); // what the last interval counted
    });
}

} // namespace Switchyard
