#pragma once

// How the console writes numbers, times and schedules (one place, so every page agrees).

#include <QDateTime>
#include <QString>

#include <chrono>

namespace Switchyard::Console {

// 12 043 with the locale's group separator; "—" for a negative (unknown) value.
QString formatCount(qint64 value);
// "4 min 12 s", "2 h 5 min", "850 ms".
QString formatDuration(qint64 milliseconds);
// "in 4 min 12 s", "now", "4 min ago".
QString formatRelative(const QDateTime &when, const QDateTime &now);
// Local time, "yyyy-MM-dd HH:mm:ss"; "—" when invalid.
QString formatTime(const QDateTime &when);
// A cron schedule in words: "At 03:00 every day", "Every 10 minutes", "Every 30 s"; the empty
// string when it has no simple description (the schedule itself is then shown alone).
QString describeSchedule(const QString &schedule);
// A key that sorts `text` as an operator reads it: runs of digits by their value, so "repo:9"
// comes before "repo:10" (plain text order puts it after). Compare keys as plain strings.
QString naturalSortKey(const QString &text);

} // namespace Switchyard::Console
