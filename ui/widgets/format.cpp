#include "format.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace Switchyard::Console {

namespace {
// The catalogue's context for these strings.
class Format
{
    Q_DECLARE_TR_FUNCTIONS(Format)
};
} // namespace

QString formatCount(qint64 value)
{
    if (value < 0)
        return QStringLiteral("—");
    return QLocale().toString(value);
}

QString formatDuration(qint64 ms)
{
    if (ms < 1000)
        return Format::tr("%1 ms").arg(ms);
    qint64 s = ms / 1000;
    if (s < 60)
        return ms < 10000 ? Format::tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1)) : Format::tr("%1 s").arg(s);
    const qint64 m = s / 60;
    s %= 60;
    if (m < 60)
        return s ? Format::tr("%1 min %2 s").arg(m).arg(s) : Format::tr("%1 min").arg(m);
    const qint64 h = m / 60;
    if (h < 48)
        return (m % 60) ? Format::tr("%1 h %2 min").arg(h).arg(m % 60) : Format::tr("%1 h").arg(h);
    return Format::tr("%1 d %2 h").arg(h / 24).arg(h % 24);
}

QString formatRelative(const QDateTime &when, const QDateTime &now)
{
    if (!when.isValid())
        return QStringLiteral("—");
    const qint64 ms = now.msecsTo(when);
    if (ms > -1000 && ms < 1000)
        return Format::tr("now");
    if (ms > 0)
        return Format::tr("in %1").arg(formatDuration(((ms + 999) / 1000) * 1000));
    return Format::tr("%1 ago").arg(formatDuration((-ms / 1000) * 1000));
}

QString formatTime(const QDateTime &when)
{
    if (!when.isValid())
        return QStringLiteral("—");
    return when.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString describeSchedule(const QString &schedule)
{
    const QString text = schedule.trimmed();
    if (text.isEmpty())
        return Format::tr("not scheduled");
    static const QRegularExpression every(QStringLiteral("^@every\\s+(\\S+)$"));
    if (const QRegularExpressionMatch m = every.match(text); m.hasMatch())
        return Format::tr("Every %1").arg(m.captured(1));
    if (text == QLatin1String("@hourly"))
        return Format::tr("At minute 0 of every hour");
    if (text == QLatin1String("@daily") || text == QLatin1String("@midnight"))
        return Format::tr("At 00:00 every day");
    if (text == QLatin1String("@weekly"))
        return Format::tr("At 00:00 every Sunday");
    if (text == QLatin1String("@monthly"))
        return Format::tr("At 00:00 on day 1 of every month");
    if (text == QLatin1String("@yearly") || text == QLatin1String("@annually"))
        return Format::tr("At 00:00 on 1 January");

    QStringList fields = text.split(QRegularExpression(QStringLiteral("\\s+")));
    QString second = QStringLiteral("0");
    if (fields.size() == 6)
        second = fields.takeFirst();
    if (fields.size() != 5)
        return QString();
    const QString &minute = fields[0], &hour = fields[1], &dom = fields[2], &month = fields[3], &dow = fields[4];
    const auto isStar = [](const QString &f) { return f == QLatin1String("*") || f == QLatin1String("?"); };
    const auto isNumber = [](const QString &f) {
        bool ok = false;
        f.toInt(&ok);
        return ok;
    };
    static const QRegularExpression step(QStringLiteral("^\\*/(\\d+)$"));
    if (!isStar(month))
        return QString();
    QString days;
    if (isStar(dom) && isStar(dow))
        days = Format::tr("every day");
    else if (isStar(dom) && (dow == QLatin1String("1-5") || dow.compare(QLatin1String("MON-FRI"), Qt::CaseInsensitive) == 0))
        days = Format::tr("Monday to Friday");
    else if (isStar(dow) && isNumber(dom))
        days = Format::tr("on day %1 of every month").arg(dom);
    else if (isStar(dom) && isNumber(dow)) {
        const int d = dow.toInt() % 7;
        days = Format::tr("every %1").arg(QLocale().dayName(d == 0 ? 7 : d));
    } else
        return QString();

    const bool secondZero = second == QLatin1String("0");
    if (secondZero && isNumber(minute) && isNumber(hour))
        return Format::tr("At %1:%2 %3").arg(hour.toInt(), 2, 10, QLatin1Char('0')).arg(minute.toInt(), 2, 10, QLatin1Char('0')).arg(days);
    if (days != Format::tr("every day"))
        return QString();
    if (secondZero && isNumber(minute) && isStar(hour))
        return Format::tr("At minute %1 of every hour").arg(minute);
    if (secondZero && isStar(hour)) {
        if (const QRegularExpressionMatch m = step.match(minute); m.hasMatch())
            return Format::tr("Every %1 minutes").arg(m.captured(1));
        if (isStar(minute))
            return Format::tr("Every minute");
    }
    if (isStar(minute) && isStar(hour)) {
        if (const QRegularExpressionMatch m = step.match(second); m.hasMatch())
            return Format::tr("Every %1 seconds").arg(m.captured(1));
        if (isStar(second))
            return Format::tr("Every second");
    }
    if (secondZero && isNumber(minute)) {
        if (const QRegularExpressionMatch m = step.match(hour); m.hasMatch())
            return Format::tr("Every %1 hours, at minute %2").arg(m.captured(1), minute);
    }
    return QString();
}

QString naturalSortKey(const QString &text)
{
    // Each run of ASCII digits becomes its length (one character below every printable one, so
    // numbers sort before letters and punctuation, as digits do in plain text order) followed by
    // the digits without leading zeros: a shorter number is a smaller one, and equal lengths
    // compare digit by digit.
    const auto digit = [&](qsizetype at) { return at < text.size() && text[at] >= u'0' && text[at] <= u'9'; };
    QString key;
    key.reserve(text.size() + 4);
    for (qsizetype at = 0; at < text.size();) {
        if (!digit(at)) {
            key += text[at++];
            continue;
        }
        qsizetype end = at;
        while (digit(end))
            ++end;
        while (at + 1 < end && text[at] == u'0')
            ++at;
        key += QChar(char16_t(1 + std::min<qsizetype>(end - at, 30)));
        key += QStringView(text).sliced(at, end - at);
        at = end;
    }
    return key;
}

} // namespace Switchyard::Console
