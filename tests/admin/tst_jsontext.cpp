// Json::encodeText (#22) against Qt's writer: for every kind of leaf and for real answer types,
// the text is byte for byte QJsonDocument(Json::encode(value)).toJson(Compact) — so the API's
// answers did not change when lists stopped going through QJsonObject.

#include "jsonsample.h"

#include "admin/jsoncodec.h"
#include "admin/ops/cronops.h"

#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <limits>

using namespace Switchyard;
using namespace Switchyard::Admin;

class TestJsonText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stringsAreEscapedAsQtEscapesThem_data()
    {
        QTest::addColumn<QString>("text");
        QString controls;
        for (char16_t c = 0; c < 0x20; ++c)
            controls.append(QChar(c));
        QTest::newRow("empty") << QString();
        QTest::newRow("ascii") << QStringLiteral("plain words / slashes ~ \x7f");
        QTest::newRow("controls") << controls;
        QTest::newRow("quotes and backslashes") << QStringLiteral("say \"hi\" \\ bye");
        QTest::newRow("latin and cjk") << QStringLiteral("café 中文 ß €");
        QTest::newRow("emoji") << QString::fromUtf8("rocket 🚀 and 🎉");
        QTest::newRow("lone high surrogate at the end") << (QStringLiteral("end ") + QChar(char16_t(0xd83d)));
        QTest::newRow("high surrogate then a letter") << (QStringLiteral("a") + QChar(char16_t(0xd83d)) + QStringLiteral("b"));
        QTest::newRow("lone low surrogate") << (QString(QChar(char16_t(0xdc00))) + QStringLiteral("x"));
        QTest::newRow("noncharacters") << (QString(QChar(char16_t(0xfffe))) + QChar(char16_t(0xffff)) + QChar(char16_t(0xfdd0)));
    }
    void stringsAreEscapedAsQtEscapesThem()
    {
        QFETCH(QString, text);
        Sample::Leaves leaves;
        leaves.text = text;
        QCOMPARE(Json::encodeText(leaves), Sample::viaQt(leaves));
    }

    void numbersTimesAndTheRestAsQtWritesThem()
    {
        const QDateTime ms = QDateTime(QDate(2026, 11, 30), QTime(20, 37, 35, 123), Qt::UTC);
        const std::vector<QDateTime> times{
            QDateTime(),
            ms,
            QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC), // .000
            ms.toOffsetFromUtc(5 * 3600 + 30 * 60),
            ms.toOffsetFromUtc(-8 * 3600),
            ms.toOffsetFromUtc(45), // seconds in the offset: through Qt
            ms.toLocalTime(),
            ms.toTimeZone(QTimeZone("America/New_York")),
            QDateTime(QDate(1969, 12, 31), QTime(23, 59, 59, 999), Qt::UTC),
            QDateTime(QDate(1, 1, 1), QTime(0, 0), Qt::UTC),
            QDateTime(QDate(2000, 2, 29), QTime(12, 0), Qt::UTC),
            QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59, 999), Qt::UTC),
            QDateTime(QDate(10000, 1, 1), QTime(0, 0), Qt::UTC), // past ISO's four digits: through Qt
        };
        const std::vector<double> doubles{0.0, -0.0, 0.1, 1.0 / 3, 3.0, -2.5e-300, 1e300, 9007199254740993.0,
                                          std::numeric_limits<double>::infinity(), std::nan("")};
        const std::vector<qint64> integers{0, -1, 42, std::numeric_limits<qint64>::max(), std::numeric_limits<qint64>::min(),
                                           (qint64(1) << 53) + 1};
        const std::vector<QJsonValue> payloads{QJsonValue(), QJsonValue(QJsonValue::Undefined), QJsonValue(true), QJsonValue(qint64(1) << 60),
                                               QJsonValue(2.5), QJsonValue(QStringLiteral("x\"y")),
                                               QJsonDocument::fromJson(R"({"b":[1,2.5,{"z":null,"a":"é"}],"a":{}})").object(),
                                               QJsonDocument::fromJson(R"([1,"two",[],{}])").array()};
        for (const QDateTime &at : times) {
            Sample::Leaves leaves;
            leaves.at = at;
            QCOMPARE(Json::encodeText(leaves), Sample::viaQt(leaves));
        }
        for (double ratio : doubles) {
            Sample::Leaves leaves;
            leaves.ratio = ratio;
            QCOMPARE(Json::encodeText(leaves), Sample::viaQt(leaves));
        }
        for (qint64 big : integers) {
            Sample::Leaves leaves;
            leaves.big = big;
            leaves.small = int(big);
            leaves.list = integers;
            QCOMPARE(Json::encodeText(leaves), Sample::viaQt(leaves));
        }
        for (const QJsonValue &payload : payloads) {
            Sample::Leaves leaves;
            leaves.payload = payload;
            QCOMPARE(Json::encodeText(leaves), Sample::viaQt(leaves));
        }
        Sample::Leaves full;
        full.text = QStringLiteral("t");
        full.flag = true;
        full.maybe = QStringLiteral("here");
        full.labels = {{QStringLiteral("b"), QStringLiteral("2")}, {QStringLiteral("a"), QStringLiteral("1")}, {QStringLiteral("ä"), QStringLiteral("3")}};
        full.counts = {{QStringLiteral("error"), 2}, {QStringLiteral("done"), 7}};
        full.colour = Sample::Colour::Unnamed; // no name: null
        full.omitted = QStringLiteral("present");
        full.first = 1;
        full.second = 2;
        QCOMPARE(Json::encodeText(full), Sample::viaQt(full));
        QVERIFY(Json::encodeText(full).contains("\"dup\":2"));
        const std::vector<Sample::Leaves> list{full, Sample::Leaves(), full};
        QCOMPARE(Json::encodeText(list), Sample::viaQt(list));
        QCOMPARE(Json::encodeText(std::vector<Sample::Leaves>()), QByteArray("[]"));
    }

    // Whole numbers (#48): a JSON number that fits no field's type is refused naming the field —
    // it used to be cast to qint64 first, undefined behaviour beyond ±2^63 (UBSan:
    // float-cast-overflow) — and integers beyond 2^53 arrive exactly, not through a double.
    void integersAreRangeChecked_data()
    {
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<QString>("field"); // empty: accepted
        QTest::addColumn<qint64>("big");
        QTest::newRow("1e30") << QByteArray(R"({"big":1e30})") << "body.big" << qint64(0);
        QTest::newRow("2^63") << QByteArray(R"({"big":9223372036854775808})") << "body.big" << qint64(0);
        QTest::newRow("-1e19") << QByteArray(R"({"big":-1e19})") << "body.big" << qint64(0);
        QTest::newRow("a fraction") << QByteArray(R"({"big":1.5})") << "body.big" << qint64(0);
        QTest::newRow("int beyond 2^31") << QByteArray(R"({"small":2147483648})") << "body.small" << qint64(0);
        QTest::newRow("int below -2^31") << QByteArray(R"({"small":-2147483649})") << "body.small" << qint64(0);
        QTest::newRow("in a map") << QByteArray(R"({"counts":{"n":1e300}})") << "body.counts.n" << qint64(0);
        QTest::newRow("in a list") << QByteArray(R"({"list":[1,1e20]})") << "body.list[1]" << qint64(0);
        QTest::newRow("qint64's maximum") << QByteArray(R"({"big":9223372036854775807})") << "" << std::numeric_limits<qint64>::max();
        QTest::newRow("qint64's minimum") << QByteArray(R"({"big":-9223372036854775808})") << "" << std::numeric_limits<qint64>::min();
        QTest::newRow("2^53 + 1") << QByteArray(R"({"big":9007199254740993})") << "" << (qint64(1) << 53) + 1;
        QTest::newRow("whole, with an exponent") << QByteArray(R"({"big":1e3})") << "" << qint64(1000);
    }
    void integersAreRangeChecked()
    {
        QFETCH(QByteArray, fields);
        QFETCH(QString, field);
        QFETCH(qint64, big);
        QJsonObject body = Json::encode(Sample::Leaves()).toObject();
        const QJsonObject given = QJsonDocument::fromJson(fields).object();
        QVERIFY(!given.isEmpty());
        for (auto it = given.begin(); it != given.end(); ++it)
            body.insert(it.key(), it.value());
        if (given.contains(QStringLiteral("big"))) { // the sample reads big again from nested.zeta
            QJsonObject nested = body.value(QStringLiteral("nested")).toObject();
            nested.insert(QStringLiteral("zeta"), given.value(QStringLiteral("big")));
            body.insert(QStringLiteral("nested"), nested);
        }
        const Result<Sample::Leaves> decoded = Json::fromJson<Sample::Leaves>(body, QStringLiteral("body"));
        if (field.isEmpty()) {
            QVERIFY2(decoded, qPrintable(decoded.status().message()));
            QCOMPARE(decoded->big, big);
        } else {
            QVERIFY(!decoded);
            QCOMPARE(decoded.status().code(), Status::Code::InvalidArgument);
            QCOMPARE(decoded.status().field(), field);
            QVERIFY2(decoded.status().message().startsWith(field + QStringLiteral(": ")), qPrintable(decoded.status().message()));
        }
    }

    // A real answer: GET /cron's rows, as the API sends them.
    void realAnswerTypes()
    {
        CronTaskInfo task;
        task.name = QStringLiteral("update_mirrors");
        task.title = QStringLiteral("Update mirrors — «nightly»");
        task.schedule = QStringLiteral("@every 10m");
        task.enabled = true;
        task.next = QDateTime::currentDateTimeUtc();
        task.status = QStringLiteral("error");
        task.message = QStringLiteral("exit code 2:\n\tno route to host");
        task.execTimes = 12;
        task.runsByStatus = {{QStringLiteral("finished"), 11}, {QStringLiteral("error"), 1}};
        const std::vector<CronTaskInfo> tasks(50, task);
        QCOMPARE(Json::encodeText(tasks), Sample::viaQt(tasks));
    }
};

QTEST_GUILESS_MAIN(TestJsonText)
#include "tst_jsontext.moc"
