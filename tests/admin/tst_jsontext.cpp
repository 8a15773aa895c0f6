// Json::encodeText (#22) against Qt's writer: for every kind of leaf and for real answer types,
// the text is byte for byte QJsonDocument(Json::encode(value)).toJson(Compact) — so the API's
// answers did not change when lists stopped going through QJsonObject.

#include "admin/jsoncodec.h"
#include "admin/ops/cronops.h"

#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <limits>

using namespace Switchyard;
using namespace Switchyard::Admin;

namespace Sample {

enum class Colour { Red, Green, Unnamed };

struct Leaves
{
    QString text;
    qint64 big = 0;
    int small = 0;
    bool flag = false;
    double ratio = 0;
    QDateTime at;
    std::optional<QString> maybe;
    std::vector<qint64> list;
    QJsonValue payload;
    QMap<QString, QString> labels;
    std::map<QString, qint64> counts;
    Colour colour = Colour::Red;
    QString omitted;
    qint64 first = 0;
    qint64 second = 0;
};

template<typename V>
void describe(V &v, Leaves &l)
{
    v("text", l.text);
    v("big", l.big);
    v("small", l.small);
    v("flag", l.flag);
    v("ratio", l.ratio);
    v("at", l.at);
    v("maybe", l.maybe);
    v("list", l.list);
    v("payload", l.payload);
    v("labels", l.labels);
    v("counts", l.counts);
    v("colour", l.colour);
    v("omitted", l.omitted, Json::Omit);
    v.group("nested", [&](auto &g) {
        g("zeta", l.big);
        g("alpha", l.text);
        g("Upper", l.flag);
    });
    v("dup", l.first);
    v("dup", l.second); // QJsonObject::insert: the last one wins
}

} // namespace Sample

template<>
struct Admin::Json::EnumNames<Sample::Colour>
{
    static constexpr std::pair<Sample::Colour, const char *> names[] = {{Sample::Colour::Red, "red"}, {Sample::Colour::Green, "green"}};
};

namespace {

template<typename T>
QByteArray viaQt(const T &value)
{
    const QJsonValue json = Json::encode(value);
    return json.isArray() ? QJsonDocument(json.toArray()).toJson(QJsonDocument::Compact)
                          : QJsonDocument(json.toObject()).toJson(QJsonDocument::Compact);
}

} // namespace

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
        QCOMPARE(Json::encodeText(leaves), viaQt(leaves));
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
            QCOMPARE(Json::encodeText(leaves), viaQt(leaves));
        }
        for (double ratio : doubles) {
            Sample::Leaves leaves;
            leaves.ratio = ratio;
            QCOMPARE(Json::encodeText(leaves), viaQt(leaves));
        }
        for (qint64 big : integers) {
            Sample::Leaves leaves;
            leaves.big = big;
            leaves.small = int(big);
            leaves.list = integers;
            QCOMPARE(Json::encodeText(leaves), viaQt(leaves));
        }
        for (const QJsonValue &payload : payloads) {
            Sample::Leaves leaves;
            leaves.payload = payload;
            QCOMPARE(Json::encodeText(leaves), viaQt(leaves));
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
        QCOMPARE(Json::encodeText(full), viaQt(full));
        QVERIFY(Json::encodeText(full).contains("\"dup\":2"));
        const std::vector<Sample::Leaves> list{full, Sample::Leaves(), full};
        QCOMPARE(Json::encodeText(list), viaQt(list));
        QCOMPARE(Json::encodeText(std::vector<Sample::Leaves>()), QByteArray("[]"));
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
        QCOMPARE(Json::encodeText(tasks), viaQt(tasks));
    }
};

QTEST_GUILESS_MAIN(TestJsonText)
#include "tst_jsontext.moc"
