#include "duration.h"

#include <array>
#include <cmath>
#include <limits>

namespace Switchyard {

namespace {

struct Unit
{
    const char16_t *name;
    qint64 nanos;
};

// Longest names first so "ms" is not read as "m".
constexpr std::array<Unit, 8> kUnits{{
    {u"ns", 1},
    {u"us", 1000},
    {u"\u00b5s", 1000},
    {u"\u03bcs", 1000},
    {u"ms", 1000 * 1000},
    {u"s", 1000LL * 1000 * 1000},
    {u"m", 60LL * 1000 * 1000 * 1000},
    {u"h", 3600LL * 1000 * 1000 * 1000},
}};

} // namespace

Result<std::chrono::nanoseconds> parseDuration(const QString &input)
{
    const QString text = input.trimmed();
    auto invalid = [&](const QString &why) {
        return Status::invalidArgument(QStringLiteral("invalid duration \"%1\": %2").arg(input, why));
    };
    if (text.isEmpty())
        return invalid(QStringLiteral("empty"));

    qsizetype pos = 0;
    bool negative = false;
    if (text.at(0) == QLatin1Char('-') || text.at(0) == QLatin1Char('+')) {
        negative = text.at(0) == QLatin1Char('-');
        ++pos;
    }
    if (text.mid(pos) == QLatin1String("0"))
        return std::chrono::nanoseconds(0);
    if (pos >= text.size())
        return invalid(QStringLiteral("missing number"));

    long double total = 0;
    while (pos < text.size()) {
        const qsizetype numberStart = pos;
        while (pos < text.size() && (text.at(pos).isDigit() || text.at(pos) == QLatin1Char('.')))
            ++pos;
        const QString number = text.mid(numberStart, pos - numberStart);
        bool ok = false;
        const double value = number.toDouble(&ok);
        if (number.isEmpty() || !ok || number.count(QLatin1Char('.')) > 1 || number == QLatin1String("."))
            return invalid(QStringLiteral("expected a number at position %1").arg(numberStart + 1));

        const qsizetype unitStart = pos;
        while (pos < text.size() && !text.at(pos).isDigit() && text.at(pos) != QLatin1Char('.'))
            ++pos;
        const QString unit = text.mid(unitStart, pos - unitStart);
        if (unit.isEmpty())
            return invalid(QStringLiteral("missing unit after %1 (valid units: ns, us, ms, s, m, h)").arg(number));
        const Unit *found = nullptr;
        for (const Unit &u : kUnits) {
            if (unit == QString::fromUtf16(u.name))
                found = &u;
        }
        if (!found)
            return invalid(QStringLiteral("unknown unit \"%1\" (valid units: ns, us, ms, s, m, h)").arg(unit));
        total += static_cast<long double>(value) * found->nanos;
        if (total > static_cast<long double>(std::numeric_limits<qint64>::max()))
            return invalid(QStringLiteral("out of range"));
    }
    const auto nanos = static_cast<qint64>(std::llround(total));
    return std::chrono::nanoseconds(negative ? -nanos : nanos);
}

QString formatDuration(std::chrono::nanoseconds duration)
{
    qint64 n = duration.count();
    if (n == 0)
        return QStringLiteral("0s");
    QString sign;
    if (n < 0) {
        sign = QStringLiteral("-");
        n = -n;
    }
    constexpr qint64 kMs = 1000 * 1000;
    constexpr qint64 kS = 1000 * kMs;
    if (n < kS) {
        if (n % kMs == 0)
            return sign + QString::number(n / kMs) + QStringLiteral("ms");
        if (n % 1000 == 0)
            return sign + QString::number(n / 1000) + QStringLiteral("us");
        return sign + QString::number(n) + QStringLiteral("ns");
    }
    QString out = sign;
    const qint64 hours = n / (3600 * kS);
    n %= 3600 * kS;
    const qint64 minutes = n / (60 * kS);
    n %= 60 * kS;
    if (hours)
        out += QString::number(hours) + QStringLiteral("h");
    if (minutes)
        out += QString::number(minutes) + QStringLiteral("m");
    if (n) {
        if (n % kS == 0)
            out += QString::number(n / kS) + QStringLiteral("s");
        else
            out += QString::number(static_cast<double>(n) / kS, 'g', 12) + QStringLiteral("s");
    }
    return out;
}

} // namespace Switchyard
