// Cron expressions (src/engine/cron/schedule.h) as an operator writes them in app.ini or the admin
// API: the parser, then the next firings in UTC and in zones with daylight-saving changes,
// starting just before a change. Properties: a refusal says "invalid schedule"; firings strictly
// increase and lie after the start.

#include "fuzzcheck.h"

#include "engine/cron/schedule.h"

#include <QTimeZone>

#include <cstddef>
#include <cstdint>

using namespace Switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 200) // a schedule is one short line; longer inputs only slow the search down
        return -1;
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const Result<Schedule> schedule = Schedule::parse(text);
    if (!schedule) {
        FUZZ_CHECK(schedule.status().message().startsWith(QLatin1String("invalid schedule")), schedule.status().message());
        return 0;
    }
    static const QTimeZone zones[] = {QTimeZone::utc(), QTimeZone("Europe/Berlin"), QTimeZone("Australia/Lord_Howe")};
    // 30 minutes before Berlin's clocks go forward and before they go back (Lord Howe shifts by 30 min).
    static const QDateTime starts[] = {QDateTime(QDate(2026, 3, 29), QTime(0, 30), Qt::UTC),
                                       QDateTime(QDate(2026, 10, 25), QTime(0, 30), Qt::UTC)};
    for (const QTimeZone &zone : zones) {
        for (const QDateTime &start : starts) {
            QDateTime previous = start;
            for (const QDateTime &firing : schedule->nextFirings(start, zone, 3)) {
                FUZZ_CHECK(firing > previous, QStringLiteral("%1 in %2: %3 does not come after %4")
                                                  .arg(schedule->text(), QString::fromUtf8(zone.id()),
                                                       firing.toString(Qt::ISODate), previous.toString(Qt::ISODate)));
                previous = firing;
            }
        }
    }
    return 0;
}
