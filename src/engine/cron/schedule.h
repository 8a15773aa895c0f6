#pragma once

#include "engine/core/status.h"

#include <QDateTime>
#include <QString>
#include <QTimeZone>

#include <bitset>
#include <chrono>
#include <optional>

namespace Switchyard {

// A cron schedule as Gitea's gocron (robfig/cron syntax) reads it (seed 000 §10.9.3):
//   @every <duration>          fixed interval from the previous run (≥ 1 s)
//   @yearly @annually @monthly @weekly @daily @midnight @hourly
//   5 fields: minute hour day-of-month month day-of-week
//   6 fields: second minute hour day-of-month month day-of-week (seconds when ≥ 6 fields)
// Fields take *, ?, numbers, names (JAN–DEC, SUN–SAT), ranges a-b, steps */n a-b/n a/n, and lists.
// Day-of-week 7 is Sunday too. When both day-of-month and day-of-week are restricted, a day
// matches either (standard cron's OR rule); otherwise both must match.
//
// Times are wall-clock times in a time zone (the server's local zone in production). Around
// daylight-saving changes: a wall time that does not exist (spring forward) is skipped; a wall time
// that occurs twice (fall back) fires once, at its first occurrence — except for schedules whose
// hour field is *, which follow real time and fire in both passes.
class Schedule
{
public:
    // InvalidArgument naming the field and the reason, e.g.
    //   invalid schedule "0 25 * * *": hour: 25 is out of range 0-23
    static Result<Schedule> parse(const QString &text);

    // The first firing strictly after `after`, or nullopt when the schedule never fires (e.g.
    // "0 0 30 2 *"), looking at most 5 years ahead. For @every: after + interval.
    std::optional<QDateTime> nextAfter(const QDateTime &after, const QTimeZone &zone) const;
    // The next `count` firings after `after`.
    QList<QDateTime> nextFirings(const QDateTime &after, const QTimeZone &zone, int count) const;

    const QString &text() const { return m_text; }
    bool isInterval() const { return m_interval.has_value(); }
    std::optional<std::chrono::seconds> interval() const { return m_interval; }
    bool hasSeconds() const { return m_hasSeconds; }

private:
    struct Field
    {
        std::bitset<64> bits;
        bool star = false; // written as * or ?
    };
    bool matchesDay(const QDate &date) const;
    // The first naive wall-clock time ≥ `from` matching the fields (no time zone involved).
    std::optional<QDateTime> nextWallMatch(const QDateTime &from) const;
    std::optional<QDateTime> instantFor(const QDate &date, const QTime &time, const QDateTime &after,
                                        const QTimeZone &zone) const;

    QString m_text;
    std::optional<std::chrono::seconds> m_interval;
    bool m_hasSeconds = false;
    Field m_second, m_minute, m_hour, m_dom, m_month, m_dow;
};

} // namespace Switchyard
