// Cron schedules: parsing, nextAfter against hand-checked cases (incl. daylight saving), property
// tests over generated expressions, and a fuzz run of the parser.
#include "engine/cron/schedule.h"

#include <QRandomGenerator>
#include <QTest>

using namespace Switchyard;

namespace {

QDateTime at(const QString &iso, const QTimeZone &zone)
{
    const QDateTime local = QDateTime::fromString(iso, Qt::ISODate);
    if (iso.endsWith(QLatin1Char('Z')) || iso.contains(QLatin1Char('+')) || iso.lastIndexOf(QLatin1Char('-')) > 10)
        return local.toTimeZone(zone);
    return QDateTime(local.date(), local.time(), zone);
}

// Whether `t` matches the fields of a 5-field expression, checked independently of Schedule.
bool matchesByHand(const QString &expression, const QDateTime &t)
{
    const QStringList f = expression.split(QLatin1Char(' '));
    auto in = [](const QString &field, int value, int min, int max) {
        for (const QString &part : field.split(QLatin1Char(','))) {
            QString base = part;
            int step = 1;
            if (part.contains(QLatin1Char('/'))) {
                base = part.section(QLatin1Char('/'), 0, 0);
                step = part.section(QLatin1Char('/'), 1, 1).toInt();
            }
            int low = min, high = max;
            if (base != QLatin1String("*")) {
                if (base.contains(QLatin1Char('-'))) {
                    low = base.section(QLatin1Char('-'), 0, 0).toInt();
                    high = base.section(QLatin1Char('-'), 1, 1).toInt();
                } else {
                    low = base.toInt();
                    high = part.contains(QLatin1Char('/')) ? max : low;
                }
            }
            for (int v = low; v <= high; v += step) {
                if (v == value)
                    return true;
            }
        }
        return false;
    };
    const int dow = t.date().dayOfWeek() % 7;
    const bool domStar = f[2] == QLatin1String("*");
    const bool dowStar = f[4] == QLatin1String("*");
    const bool dom = in(f[2], t.date().day(), 1, 31);
    const bool dowMatch = in(f[4], dow, 0, 6);
    const bool day = (domStar || dowStar) ? (dom && dowMatch) : (dom || dowMatch);
    return t.time().second() == 0 && in(f[0], t.time().minute(), 0, 59) && in(f[1], t.time().hour(), 0, 23)
           && in(f[3], t.date().month(), 1, 12) && day;
}

QString randomField(QRandomGenerator &random, int min, int max)
{
    switch (random.bounded(6)) {
    case 0: return QStringLiteral("*");
    case 1: return QString::number(random.bounded(min, max + 1));
    case 2: {
        const int a = random.bounded(min, max + 1);
        const int b = random.bounded(a, max + 1);
        return QStringLiteral("%1-%2").arg(a).arg(b);
    }
    case 3: return QStringLiteral("*/%1").arg(random.bounded(1, max - min + 2));
    case 4: {
        const int a = random.bounded(min, max + 1);
        return QStringLiteral("%1/%2").arg(a).arg(random.bounded(1, 10));
    }
    default: return QStringLiteral("%1,%2").arg(random.bounded(min, max + 1)).arg(random.bounded(min, max + 1));
    }
}

} // namespace

class TestSchedule : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(QTimeZone(QByteArrayLiteral("Europe/Berlin")).isValid(), "the tzdata package is needed"); }

    void next_data()
    {
        QTest::addColumn<QString>("zone");
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("expected"); // ISO with offset, or "never"
        QTest::newRow("midnight") << "UTC" << "@midnight" << "2026-03-01T10:00:00" << "2026-03-02T00:00:00Z";
        QTest::newRow("daily 5 fields") << "UTC" << "0 0 * * *" << "2026-03-01T00:00:00" << "2026-03-02T00:00:00Z";
        QTest::newRow("quarter hours") << "UTC" << "*/15 * * * *" << "2026-03-01T10:07:00" << "2026-03-01T10:15:00Z";
        QTest::newRow("seconds") << "UTC" << "30 0 0 * * *" << "2026-03-01T00:00:00" << "2026-03-01T00:00:30Z";
        QTest::newRow("hourly") << "UTC" << "@hourly" << "2026-03-01T10:59:59" << "2026-03-01T11:00:00Z";
        QTest::newRow("every 10m") << "UTC" << "@every 10m" << "2026-03-01T10:03:07" << "2026-03-01T10:13:07Z";
        QTest::newRow("weekly is sunday") << "UTC" << "@weekly" << "2026-03-02T00:00:00" << "2026-03-08T00:00:00Z";
        QTest::newRow("yearly") << "UTC" << "@yearly" << "2026-03-01T00:00:00" << "2027-01-01T00:00:00Z";
        QTest::newRow("monthly") << "UTC" << "@monthly" << "2026-01-31T12:00:00" << "2026-02-01T00:00:00Z";
        QTest::newRow("dom or dow") << "UTC" << "0 0 15 * MON" << "2026-03-10T12:00:00" << "2026-03-15T00:00:00Z";
        QTest::newRow("dom or dow, monday first") << "UTC" << "0 0 20 * MON" << "2026-03-10T12:00:00" << "2026-03-16T00:00:00Z";
        QTest::newRow("dow 7 is sunday") << "UTC" << "0 9 * * 7" << "2026-03-02T00:00:00" << "2026-03-08T09:00:00Z";
        QTest::newRow("names") << "UTC" << "0 12 * jan-mar MON-FRI" << "2026-03-31T12:00:00" << "2027-01-01T12:00:00Z";
        QTest::newRow("start/step") << "UTC" << "5/15 * * * *" << "2026-03-01T10:21:00" << "2026-03-01T10:35:00Z";
        QTest::newRow("list") << "UTC" << "0 3,15 * * *" << "2026-03-01T04:00:00" << "2026-03-01T15:00:00Z";
        QTest::newRow("leap day") << "UTC" << "0 0 29 2 *" << "2026-03-01T00:00:00" << "2028-02-29T00:00:00Z";
        QTest::newRow("never") << "UTC" << "0 0 30 2 *" << "2026-03-01T00:00:00" << "never";
        QTest::newRow("question mark") << "UTC" << "0 0 0 ? * ?" << "2026-03-01T10:00:00" << "2026-03-02T00:00:00Z";
        QTest::newRow("local zone") << "Europe/Berlin" << "@midnight" << "2026-07-01T10:00:00" << "2026-07-02T00:00:00+02:00";
        // 2026-03-29: 02:00 → 03:00 in Berlin; 02:30 does not exist that day.
        QTest::newRow("spring forward skips") << "Europe/Berlin" << "30 2 * * *" << "2026-03-28T03:00:00" << "2026-03-30T02:30:00+02:00";
        QTest::newRow("spring forward hourly") << "Europe/Berlin" << "0 * * * *" << "2026-03-29T01:30:00" << "2026-03-29T03:00:00+02:00";
        // 2026-10-25: 03:00 → 02:00; 02:30 happens twice.
        QTest::newRow("fall back first pass") << "Europe/Berlin" << "30 2 * * *" << "2026-10-24T03:00:00" << "2026-10-25T02:30:00+02:00";
        QTest::newRow("fall back once") << "Europe/Berlin" << "30 2 * * *" << "2026-10-25T02:30:00+02:00" << "2026-10-26T02:30:00+01:00";
        QTest::newRow("fall back wildcard hour both passes") << "Europe/Berlin" << "*/30 * * * *" << "2026-10-25T02:45:00+02:00"
                                                            << "2026-10-25T02:00:00+01:00";
        QTest::newRow("new york") << "America/New_York" << "0 9 * * *" << "2026-03-08T08:00:00" << "2026-03-08T09:00:00-04:00";
        // A step beyond the field's range from a start above 0 (#48, found reading the fuzz target's
        // code: the loop's v + step overflowed an int — UB, and a negative bit index that threw).
        QTest::newRow("start/huge step") << "UTC" << "1/2147483647 * * * *" << "2026-03-01T10:21:00" << "2026-03-01T11:01:00Z";
        QTest::newRow("seconds, huge step") << "UTC" << "0 59/2147483647 * * * *" << "2026-03-01T10:21:00" << "2026-03-01T10:59:00Z";
    }

    void next()
    {
        QFETCH(QString, zone);
        QFETCH(QString, expression);
        QFETCH(QString, after);
        QFETCH(QString, expected);
        const QTimeZone tz(zone.toLatin1());
        QVERIFY(tz.isValid());
        const Result<Schedule> schedule = Schedule::parse(expression);
        QVERIFY2(schedule, qPrintable(schedule.status().message()));
        const std::optional<QDateTime> next = schedule->nextAfter(at(after, tz), tz);
        if (expected == QLatin1String("never")) {
            QVERIFY(!next);
            return;
        }
        QVERIFY(next);
        const QDateTime want = QDateTime::fromString(expected, Qt::ISODate);
        QVERIFY2(*next == want, qPrintable(next->toString(Qt::ISODate) + QStringLiteral(" != ") + want.toString(Qt::ISODate)));
        QCOMPARE(next->offsetFromUtc(), want.offsetFromUtc());
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << "" << "empty";
        QTest::newRow("hour range") << "0 25 * * *" << "hour: 25 is out of range 0-23";
        QTest::newRow("minute range") << "60 * * * *" << "minute: 60 is out of range 0-59";
        QTest::newRow("second range") << "61 * * * * *" << "second: 61 is out of range 0-59";
        QTest::newRow("day of week range") << "0 0 * * 8" << "day-of-week: 8 is out of range 0-6";
        QTest::newRow("field count") << "* * *" << "expected 5 fields";
        QTest::newRow("too many fields") << "* * * * * * *" << "found 7";
        QTest::newRow("macro") << "@fortnightly" << "unknown macro @fortnightly";
        QTest::newRow("every zero") << "@every 0s" << "at least 1s";
        QTest::newRow("every missing") << "@every" << "needs a duration";
        QTest::newRow("every unit") << "@every 5x" << "unknown unit";
        QTest::newRow("backwards range") << "5-1 * * * *" << "minute: range 5-1 starts after it ends";
        QTest::newRow("zero step") << "*/0 * * * *" << "minute: step \"0\" must be a positive number";
        QTest::newRow("bad name") << "0 0 * FOO *" << "month: \"FOO\" is not a number or a name";
        QTest::newRow("empty list item") << "0,,5 * * * *" << "minute: empty list item";
    }

    void invalid()
    {
        QFETCH(QString, expression);
        QFETCH(QString, reason);
        const Result<Schedule> schedule = Schedule::parse(expression);
        QVERIFY(!schedule);
        QCOMPARE(schedule.status().code(), Status::Code::InvalidArgument);
        QVERIFY2(schedule.status().message().contains(reason), qPrintable(schedule.status().message()));
        QVERIFY(schedule.status().message().startsWith(QStringLiteral("invalid schedule \"%1\"").arg(expression)));
    }

    void nextFiringsAreIncreasing()
    {
        const QTimeZone tz("Europe/Berlin");
        const Result<Schedule> schedule = Schedule::parse(QStringLiteral("*/20 * * * *"));
        const QList<QDateTime> firings = schedule->nextFirings(QDateTime(QDate(2026, 10, 25), QTime(1, 0), tz), tz, 12);
        QCOMPARE(firings.size(), 12);
        for (qsizetype i = 1; i < firings.size(); ++i)
            QCOMPARE(firings[i - 1].secsTo(firings[i]), qint64(20 * 60)); // real time, across the fall-back hour
    }

    // Generated expressions: every result matches the fields and no earlier minute does.
    void propertyNextIsTheFirstMatch()
    {
        QRandomGenerator random(20261129);
        const QTimeZone utc("UTC");
        int checked = 0;
        for (int i = 0; i < 400; ++i) {
            const QString expression = QStringList{randomField(random, 0, 59), randomField(random, 0, 23), randomField(random, 1, 31),
                                                   randomField(random, 1, 12), randomField(random, 0, 6)}
                                           .join(QLatin1Char(' '));
            const Result<Schedule> schedule = Schedule::parse(expression);
            QVERIFY2(schedule, qPrintable(schedule.status().message()));
            const QDateTime after = QDateTime(QDate(2026, 1, 1), QTime(0, 0), utc).addSecs(qint64(random.bounded(365 * 86400)));
            const std::optional<QDateTime> next = schedule->nextAfter(after, utc);
            if (!next)
                continue; // e.g. 31 February: checked by the "never" case
            QVERIFY2(*next > after, qPrintable(expression));
            QVERIFY2(matchesByHand(expression, *next), qPrintable(expression + QStringLiteral(" -> ") + next->toString(Qt::ISODate)));
            if (after.secsTo(*next) <= 3 * 86400) {
                // Brute force: no matching minute in between.
                QDateTime t = after.addSecs(60 - after.time().second());
                for (; t < *next; t = t.addSecs(60))
                    QVERIFY2(!matchesByHand(expression, t), qPrintable(expression + QStringLiteral(" skipped ") + t.toString(Qt::ISODate)));
                ++checked;
            }
        }
        QVERIFY(checked > 50);
    }

    // Random token soup: the parser never crashes or hangs, and what it accepts has an answer.
    void fuzzParser()
    {
        QRandomGenerator random(42);
        static const QStringList tokens{QStringLiteral("*"),  QStringLiteral("?"),   QStringLiteral("/"),   QStringLiteral("-"),
                                        QStringLiteral(","),  QStringLiteral(" "),   QStringLiteral("0"),   QStringLiteral("7"),
                                        QStringLiteral("59"), QStringLiteral("99"),  QStringLiteral("MON"), QStringLiteral("jan"),
                                        QStringLiteral("@"),  QStringLiteral("every"), QStringLiteral("1h"), QStringLiteral("x"),
                                        QStringLiteral("-5"), QStringLiteral("2147483648"), QStringLiteral("\t"), QStringLiteral("é")};
        const QTimeZone zone("Europe/Berlin");
        const QDateTime after(QDate(2026, 10, 24), QTime(23, 59), zone);
        int accepted = 0;
        const auto started = std::chrono::steady_clock::now();
        for (int i = 0; i < 20000; ++i) {
            static const QStringList plausible{QStringLiteral("*"), QStringLiteral("0"), QStringLiteral("*/5"),
                                               QStringLiteral("1-5"), QStringLiteral("1,2"), QStringLiteral("?")};
            QStringList fields;
            const int count = random.bounded(4, 8);
            for (int f = 0; f < count; ++f) {
                if (random.bounded(3) != 0) { // mostly plausible fields, so the evaluation runs too
                    fields.append(plausible[random.bounded(int(plausible.size()))]);
                    continue;
                }
                QString field;
                const int length = random.bounded(1, 4);
                for (int t = 0; t < length; ++t)
                    field += tokens[random.bounded(int(tokens.size()))];
                fields.append(field);
            }
            const QString text = fields.join(QLatin1Char(' '));
            const Result<Schedule> schedule = Schedule::parse(text);
            if (!schedule) {
                QVERIFY(!schedule.status().message().isEmpty());
                continue;
            }
            ++accepted;
            schedule->nextAfter(after, zone);
        }
        QVERIFY(accepted > 0);
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));
    }
};

QTEST_GUILESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
