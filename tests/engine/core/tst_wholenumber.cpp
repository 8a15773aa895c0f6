// wholeNumber (engine/core/wholenumber.h, #48): JSON numbers as integers, range-checked before
// any cast — at the edges of each width, beyond 2^53, and for what is not a whole number.

#include "engine/core/wholenumber.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>

using namespace Switchyard;

namespace {

// The number as a JSON parser gives it (an integer Qt keeps exactly, or a double).
QJsonValue parsed(const char *number)
{
    return QJsonDocument::fromJson(QByteArray("{\"n\":") + number + '}').object().value(QStringLiteral("n"));
}

} // namespace

class TestWholeNumber : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fromJson_data()
    {
        QTest::addColumn<QByteArray>("number");
        QTest::addColumn<bool>("fitsInt64");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<bool>("fitsInt");
        QTest::newRow("0") << QByteArray("0") << true << qint64(0) << true;
        QTest::newRow("-0") << QByteArray("-0") << true << qint64(0) << true;
        QTest::newRow("0.0") << QByteArray("0.0") << true << qint64(0) << true;
        QTest::newRow("whole with exponent") << QByteArray("2.5e1") << true << qint64(25) << true;
        QTest::newRow("a fraction") << QByteArray("0.5") << false << qint64(0) << false;
        QTest::newRow("int max") << QByteArray("2147483647") << true << qint64(2147483647) << true;
        QTest::newRow("int max + 1") << QByteArray("2147483648") << true << qint64(2147483648) << false;
        QTest::newRow("int min") << QByteArray("-2147483648") << true << qint64(-2147483648LL) << true;
        QTest::newRow("int min - 1") << QByteArray("-2147483649") << true << qint64(-2147483649LL) << false;
        QTest::newRow("2^53 + 1, exactly") << QByteArray("9007199254740993") << true << (qint64(1) << 53) + 1 << false;
        QTest::newRow("qint64 max") << QByteArray("9223372036854775807") << true << std::numeric_limits<qint64>::max() << false;
        QTest::newRow("qint64 min") << QByteArray("-9223372036854775808") << true << std::numeric_limits<qint64>::min() << false;
        QTest::newRow("2^63") << QByteArray("9223372036854775808") << false << qint64(0) << false;
        QTest::newRow("1e30") << QByteArray("1e30") << false << qint64(0) << false;
        QTest::newRow("-1e19") << QByteArray("-1e19") << false << qint64(0) << false;
        QTest::newRow("1e308") << QByteArray("1e308") << false << qint64(0) << false;
    }
    void fromJson()
    {
        QFETCH(QByteArray, number);
        QFETCH(bool, fitsInt64);
        QFETCH(qint64, value);
        QFETCH(bool, fitsInt);
        const QJsonValue json = parsed(number.constData());
        QVERIFY(json.isDouble());
        QCOMPARE(wholeNumber<qint64>(json).has_value(), fitsInt64);
        if (fitsInt64)
            QCOMPARE(*wholeNumber<qint64>(json), value);
        QCOMPARE(wholeNumber<int>(json).has_value(), fitsInt);
        if (fitsInt)
            QCOMPARE(qint64(*wholeNumber<int>(json)), value);
    }

    void fromDouble()
    {
        QCOMPARE(wholeNumber<qint64>(-9223372036854775808.0), std::optional<qint64>(std::numeric_limits<qint64>::min()));
        QCOMPARE(wholeNumber<qint64>(9223372036854775808.0), std::nullopt); // 2^63: the double nearest qint64's max
        QCOMPARE(wholeNumber<qint64>(9223372036854774784.0), std::optional<qint64>(9223372036854774784)); // the largest below
        QCOMPARE(wholeNumber<int>(2147483647.0), std::optional<int>(2147483647));
        QCOMPARE(wholeNumber<int>(2147483647.5), std::nullopt);
        QCOMPARE(wholeNumber<int>(2147483648.0), std::nullopt);
        QCOMPARE(wholeNumber<quint16>(65535.0), std::optional<quint16>(65535));
        QCOMPARE(wholeNumber<quint16>(-1.0), std::nullopt);
        QCOMPARE(wholeNumber<qint64>(std::nan("")), std::nullopt);
        QCOMPARE(wholeNumber<qint64>(std::numeric_limits<double>::infinity()), std::nullopt);
        QCOMPARE(wholeNumber<qint64>(-std::numeric_limits<double>::infinity()), std::nullopt);
    }

    void notANumber()
    {
        QCOMPARE(wholeNumber<qint64>(QJsonValue(QStringLiteral("4"))), std::nullopt);
        QCOMPARE(wholeNumber<qint64>(QJsonValue(true)), std::nullopt);
        QCOMPARE(wholeNumber<qint64>(QJsonValue()), std::nullopt);
        QCOMPARE(wholeNumber<qint64>(QJsonValue(QJsonValue::Undefined)), std::nullopt);
    }

    void theErrorNamesTheFieldAndTheRange()
    {
        const Status status = wholeNumberError<int>(QStringLiteral("push.total_commits"), parsed("1e30"));
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(status.field(), QStringLiteral("push.total_commits"));
        QCOMPARE(status.message(), QStringLiteral("push.total_commits: 1e+30 is not a whole number from -2147483648 to 2147483647"));
    }
};

QTEST_GUILESS_MAIN(TestWholeNumber)
#include "tst_wholenumber.moc"
