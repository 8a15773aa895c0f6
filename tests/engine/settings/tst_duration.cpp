#include "engine/settings/duration.h"

#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(std::chrono::nanoseconds)

class TestDuration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::chrono::nanoseconds>("expected");
        QTest::newRow("250ms") << QStringLiteral("250ms") << std::chrono::nanoseconds(250ms);
        QTest::newRow("16h") << QStringLiteral("16h") << std::chrono::nanoseconds(16h);
        QTest::newRow("168h") << QStringLiteral("168h") << std::chrono::nanoseconds(168h);
        QTest::newRow("8760h") << QStringLiteral("8760h") << std::chrono::nanoseconds(8760h);
        QTest::newRow("compound") << QStringLiteral("1h30m15s") << std::chrono::nanoseconds(1h + 30min + 15s);
        QTest::newRow("fraction") << QStringLiteral("1.5s") << std::chrono::nanoseconds(1500ms);
        QTest::newRow("fraction hour") << QStringLiteral("0.5h") << std::chrono::nanoseconds(30min);
        QTest::newRow("micro us") << QStringLiteral("300us") << std::chrono::nanoseconds(300us);
        QTest::newRow("micro µs") << QStringLiteral("300µs") << std::chrono::nanoseconds(300us);
        QTest::newRow("nanos") << QStringLiteral("7ns") << std::chrono::nanoseconds(7);
        QTest::newRow("zero") << QStringLiteral("0") << std::chrono::nanoseconds(0);
        QTest::newRow("zero with unit") << QStringLiteral("0s") << std::chrono::nanoseconds(0);
        QTest::newRow("negative") << QStringLiteral("-2s") << std::chrono::nanoseconds(-2s);
        QTest::newRow("plus") << QStringLiteral("+5m") << std::chrono::nanoseconds(5min);
        QTest::newRow("spaces around") << QStringLiteral("  10s ") << std::chrono::nanoseconds(10s);
    }

    void parses()
    {
        QFETCH(QString, text);
        QFETCH(std::chrono::nanoseconds, expected);
        const Result<std::chrono::nanoseconds> parsed = parseDuration(text);
        QVERIFY2(parsed, qPrintable(parsed.status().message()));
        QCOMPARE(parsed->count(), expected.count());
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << QString() << QStringLiteral("empty");
        QTest::newRow("no unit") << QStringLiteral("60") << QStringLiteral("missing unit after 60");
        QTest::newRow("unknown unit") << QStringLiteral("3d") << QStringLiteral("unknown unit \"d\"");
        QTest::newRow("words") << QStringLiteral("soon") << QStringLiteral("expected a number at position 1");
        QTest::newRow("sign only") << QStringLiteral("-") << QStringLiteral("missing number");
        QTest::newRow("two dots") << QStringLiteral("1.2.3s") << QStringLiteral("expected a number");
        QTest::newRow("trailing number") << QStringLiteral("1h30") << QStringLiteral("missing unit after 30");
        QTest::newRow("overflow") << QStringLiteral("9999999999h") << QStringLiteral("out of range");
    }

    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        const Result<std::chrono::nanoseconds> parsed = parseDuration(text);
        QVERIFY(!parsed);
        QCOMPARE(parsed.status().code(), Status::Code::InvalidArgument);
        QVERIFY2(parsed.status().message().contains(reason), qPrintable(parsed.status().message()));
        QVERIFY(parsed.status().message().contains(QStringLiteral("\"%1\"").arg(text)));
    }

    void formats_data()
    {
        QTest::addColumn<std::chrono::nanoseconds>("duration");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << std::chrono::nanoseconds(0) << QStringLiteral("0s");
        QTest::newRow("ms") << std::chrono::nanoseconds(250ms) << QStringLiteral("250ms");
        QTest::newRow("hours") << std::chrono::nanoseconds(16h) << QStringLiteral("16h");
        QTest::newRow("compound") << std::chrono::nanoseconds(1h + 30min) << QStringLiteral("1h30m");
        QTest::newRow("seconds") << std::chrono::nanoseconds(90s) << QStringLiteral("1m30s");
        QTest::newRow("fraction") << std::chrono::nanoseconds(1500ms) << QStringLiteral("1.5s");
        QTest::newRow("negative") << std::chrono::nanoseconds(-2s) << QStringLiteral("-2s");
        QTest::newRow("micro") << std::chrono::nanoseconds(300us) << QStringLiteral("300us");
    }

    void formats()
    {
        QFETCH(std::chrono::nanoseconds, duration);
        QFETCH(QString, expected);
        QCOMPARE(formatDuration(duration), expected);
        QCOMPARE(parseDuration(expected)->count(), duration.count()); // round trip
    }
};

QTEST_GUILESS_MAIN(TestDuration)
#include "tst_duration.moc"
