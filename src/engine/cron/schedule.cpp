#include "schedule.h"

#include "engine/settings/duration.h"

#include <QHash>

namespace Switchyard {

namespace {

struct Range
{
    const char *name;
    int min;
    int max;
    const QHash<QString, int> *names;
};

const QHash<QString, int> &monthNames()
{
    static const QHash<QString, int> names{
        {QStringLiteral("jan"), 1}, {QStringLiteral("feb"), 2},  {QStringLiteral("mar"), 3},  {QStringLiteral("apr"), 4},
        {QStringLiteral("may"), 5}, {QStringLiteral("jun"), 6},  {QStringLiteral("jul"), 7},  {QStringLiteral("aug"), 8},
        {QStringLiteral("sep"), 9}, {QStringLiteral("oct"), 10}, {QStringLiteral("nov"), 11}, {QStringLiteral("dec"), 12}};
    return names;
}

const QHash<QString, int> &dayNames()
{
    static const QHash<QString, int> names{{QStringLiteral("sun"), 0}, {QStringLiteral("mon"), 1}, {QStringLiteral("tue"), 2},
                                           {QStringLiteral("wed"), 3}, {QStringLiteral("thu"), 4}, {QStringLiteral("fri"), 5},
                                           {QStringLiteral("sat"), 6}};
    return names;
}

QString macro(const QString &text)
{
    static const QHash<QString, QString> macros{
        {QStringLiteral("@yearly"), QStringLiteral("0 0 0 1 1 *")},  {QStringLiteral("@annually"), QStringLiteral("0 0 0 1 1 *")},
        {QStringLiteral("@monthly"), QStringLiteral("0 0 0 1 * *")}, {QStringLiteral("@weekly"), QStringLiteral("0 0 0 * * 0")},
        {QStringLiteral("@daily"), QStringLiteral("0 0 0 * * *")},   {QStringLiteral("@midnight"), QStringLiteral("0 0 0 * * *")},
        {QStringLiteral("@hourly"), QStringLiteral("0 0 * * * *")}};
    return macros.value(text.toLower());
}

} // namespace

Result<Schedule> Schedule::parse(const QString &input)
{
    Schedule schedule;
    schedule.m_text = input.trimmed();
    const QString text = schedule.m_text;
    auto fail = [&](const QString &why) {
        return Status::invalidArgument(QStringLiteral("invalid schedule \"%1\": %2").arg(input, why));
    };
    if (text.isEmpty())
        return fail(QStringLiteral("empty"));

    if (text.startsWith(QLatin1String("@every"), Qt::CaseInsensitive)) {
        const QString rest = text.mid(6).trimmed();
        if (rest.isEmpty())
            return fail(QStringLiteral("@every needs a duration, e.g. @every 10m"));
        const Result<std::chrono::nanoseconds> duration = parseDuration(rest);
        if (!duration)
            return fail(duration.status().message());
        if (*duration < std::chrono::seconds(1))
            return fail(QStringLiteral("@every needs at least 1s"));
        schedule.m_interval = std::chrono::duration_cast<std::chrono::seconds>(*duration);
        schedule.m_hasSeconds = true;
        return schedule;
    }

    QString expression = text;
    if (text.startsWith(QLatin1Char('@'))) {
        expression = macro(text);
        if (expression.isEmpty())
            return fail(QStringLiteral("unknown macro %1; valid: @yearly, @annually, @monthly, @weekly, @daily, @midnight, "
                                       "@hourly, @every <duration>")
                            .arg(text));
    }
    QStringList fields = expression.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (fields.size() == 5) {
        fields.prepend(QStringLiteral("0"));
    } else if (fields.size() == 6) {
        schedule.m_hasSeconds = true;
    } else {
        return fail(QStringLiteral("expected 5 fields (minute hour day-of-month month day-of-week) or 6 (with seconds first), "
                                   "found %1")
                        .arg(fields.size()));
    }

    static const Range ranges[6] = {{"second", 0, 59, nullptr},         {"minute", 0, 59, nullptr},
                                    {"hour", 0, 23, nullptr},           {"day-of-month", 1, 31, nullptr},
                                    {"month", 1, 12, &monthNames()},    {"day-of-week", 0, 7, &dayNames()}};
    Field *targets[6] = {&schedule.m_second, &schedule.m_minute, &schedule.m_hour,
                         &schedule.m_dom,    &schedule.m_month,  &schedule.m_dow};

    for (int f = 0; f < 6; ++f) {
        const Range &range = ranges[f];
        Field &field = *targets[f];
        const QString name = QLatin1String(range.name);
        auto number = [&](const QString &token, int *out) -> QString {
            bool ok = false;
            const int value = token.toInt(&ok);
            if (ok) {
                *out = value;
            } else if (range.names && range.names->contains(token.toLower())) {
                *out = range.names->value(token.toLower());
            } else {
                return QStringLiteral("%1: \"%2\" is not a number%3").arg(name, token,
                                                                          range.names ? QStringLiteral(" or a name") : QString());
            }
            if (*out < range.min || *out > range.max)
                return QStringLiteral("%1: %2 is out of range %3-%4").arg(name).arg(*out).arg(range.min).arg(range.max == 7 ? 6 : range.max);
            return QString();
        };
        for (const QString &part : fields[f].split(QLatin1Char(','))) {
            if (part.isEmpty())
                return fail(QStringLiteral("%1: empty list item").arg(name));
            QString base = part;
            int step = 1;
            const qsizetype slash = part.indexOf(QLatin1Char('/'));
            if (slash >= 0) {
                base = part.left(slash);
                bool ok = false;
                step = part.mid(slash + 1).toInt(&ok);
                if (!ok || step <= 0)
                    return fail(QStringLiteral("%1: step \"%2\" must be a positive number").arg(name, part.mid(slash + 1)));
            }
            int low = range.min;
            int high = range.max == 7 ? 6 : range.max;
            if (base == QLatin1String("*") || base == QLatin1String("?")) {
                if (slash < 0)
                    field.star = true;
            } else {
                const qsizetype dash = base.indexOf(QLatin1Char('-'), 1);
                if (dash >= 0) {
                    if (QString error = number(base.left(dash), &low); !error.isEmpty())
                        return fail(error);
                    if (QString error = number(base.mid(dash + 1), &high); !error.isEmpty())
                        return fail(error);
                    if (low > high)
                        return fail(QStringLiteral("%1: range %2 starts after it ends").arg(name, base));
                } else {
                    if (QString error = number(base, &low); !error.isEmpty())
                        return fail(error);
                    if (slash < 0)
                        high = low; // a single value; "a/n" means a to the maximum, every n
                }
            }
            if (step > high - low + 1 && slash >= 0 && base != QLatin1String("*") && base.indexOf(QLatin1Char('-'), 1) >= 0)
                return fail(QStringLiteral("%1: step %2 is larger than the range %3").arg(name).arg(step).arg(base));
            // 64 bits: "1/2147483647" steps from 1 past INT_MAX, which an int would overflow.
            for (qint64 v = low; v <= high; v += step)
                field.bits.set(size_t(f == 5 && v == 7 ? 0 : v));
        }
    }
    return schedule;
}

bool Schedule::matchesDay(const QDate &date) const
{
    const bool dom = m_dom.bits.test(size_t(date.day()));
    const bool dow = m_dow.bits.test(size_t(date.dayOfWeek() % 7)); // Qt: Monday 1 … Sunday 7
    if (m_dom.star || m_dow.star)
        return dom && dow;
    return dom || dow;
}

std::optional<QDateTime> Schedule::instantFor(const QDate &date, const QTime &time, const QDateTime &after,
                                              const QTimeZone &zone) const
{
    // Every instant whose wall-clock time in `zone` is date+time: none in a daylight-saving gap,
    // two in an overlap. The zone's offsets around that day give the candidates.
    const QDateTime naive(date, time, Qt::UTC);
    QList<int> offsets;
    for (qint64 delta : {-86400, -10800, 0, 10800, 86400}) {
        const int offset = zone.offsetFromUtc(naive.addSecs(delta));
        if (!offsets.contains(offset))
            offsets.append(offset);
    }
    QList<QDateTime> instants;
    for (int offset : std::as_const(offsets)) {
        const QDateTime candidate = naive.addSecs(-offset);
        const QDateTime local = candidate.toTimeZone(zone);
        if (local.date() == date && local.time() == time && !instants.contains(candidate))
            instants.append(candidate);
    }
    std::sort(instants.begin(), instants.end());
    if (!m_hour.star && instants.size() > 1)
        instants.resize(1); // a specific wall time fires once, at its first occurrence
    for (const QDateTime &instant : std::as_const(instants)) {
        if (instant > after)
            return instant.toTimeZone(zone);
    }
    return std::nullopt;
}

std::optional<QDateTime> Schedule::nextWallMatch(const QDateTime &from) const
{
    // `from` and the result are naive wall-clock times (kept in UTC so arithmetic is plain).
    QDate date = from.date();
    const QDate limit = date.addYears(5);
    bool firstDay = true;
    while (date <= limit) {
        if (!m_month.bits.test(size_t(date.month()))) {
            date = QDate(date.year(), date.month(), 1).addMonths(1);
            firstDay = false;
            continue;
        }
        if (!matchesDay(date)) {
            date = date.addDays(1);
            firstDay = false;
            continue;
        }
        const QTime floor = firstDay ? from.time() : QTime(0, 0, 0);
        for (int h = floor.hour(); h < 24; ++h) {
            if (!m_hour.bits.test(size_t(h)))
                continue;
            for (int m = h == floor.hour() ? floor.minute() : 0; m < 60; ++m) {
                if (!m_minute.bits.test(size_t(m)))
                    continue;
                for (int s = (h == floor.hour() && m == floor.minute()) ? floor.second() : 0; s < 60; ++s) {
                    if (m_second.bits.test(size_t(s)))
                        return QDateTime(date, QTime(h, m, s), Qt::UTC);
                }
            }
        }
        date = date.addDays(1);
        firstDay = false;
    }
    return std::nullopt;
}

std::optional<QDateTime> Schedule::nextAfter(const QDateTime &after, const QTimeZone &zone) const
{
    if (m_interval)
        return after.addSecs(m_interval->count()).toTimeZone(zone);

    // Search wall-clock times from one second after `after`. When the clocks go back within the
    // next hours, wall times before `after`'s come again and a later wall time can be an earlier
    // instant: the search then starts earlier by the shift and keeps the earliest instant found
    // within the shift after the first match.
    const QDateTime wall = after.toTimeZone(zone).addSecs(1);
    QDateTime cursor(wall.date(), QTime(wall.time().hour(), wall.time().minute(), wall.time().second()), Qt::UTC);
    const int offsetNow = zone.offsetFromUtc(after);
    const int offsetSoon = zone.offsetFromUtc(after.addSecs(3 * 3600));
    const qint64 overlap = offsetSoon < offsetNow ? offsetNow - offsetSoon : 0;
    cursor = cursor.addSecs(-overlap);

    std::optional<QDateTime> best;
    std::optional<QDateTime> firstMatch;
    for (int steps = 0; steps < 200000; ++steps) {
        const std::optional<QDateTime> match = nextWallMatch(cursor);
        if (!match || (firstMatch && firstMatch->secsTo(*match) > overlap))
            break;
        if (std::optional<QDateTime> instant = instantFor(match->date(), match->time(), after, zone)) {
            if (!best || *instant < *best)
                best = instant;
            if (!firstMatch)
                firstMatch = match;
            if (overlap == 0)
                break;
        }
        cursor = match->addSecs(1);
    }
    return best;
}

QList<QDateTime> Schedule::nextFirings(const QDateTime &after, const QTimeZone &zone, int count) const
{
    QList<QDateTime> firings;
    QDateTime cursor = after;
    for (int i = 0; i < count; ++i) {
        const std::optional<QDateTime> next = nextAfter(cursor, zone);
        if (!next)
            break;
        firings.append(*next);
        cursor = *next;
    }
    return firings;
}

} // namespace Switchyard
