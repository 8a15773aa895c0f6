#include "engine/settings/inifile.h"

#include <QTest>

using namespace Switchyard;

namespace {

IniFile parseOk(const QByteArray &text)
{
    Result<IniFile> ini = IniFile::parse(QStringLiteral("app.ini"), text);
    if (!ini)
        qFatal("unexpected parse error: %s", qPrintable(ini.status().message()));
    return std::move(ini).value();
}

QString valueOf(const IniFile &ini, const QString &section, const QString &key)
{
    const IniSection *s = ini.section(section);
    const IniEntry *e = s ? s->find(key) : nullptr;
    return e ? e->value : QStringLiteral("<missing>");
}

} // namespace

class TestIniFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void values_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QByteArray("KEY = value") << QStringLiteral("value");
        QTest::newRow("no spaces") << QByteArray("KEY=value") << QStringLiteral("value");
        QTest::newRow("empty") << QByteArray("KEY =") << QString();
        QTest::newRow("inline ; comment") << QByteArray("KEY = value ; note") << QStringLiteral("value");
        QTest::newRow("inline # comment") << QByteArray("KEY = value # note") << QStringLiteral("value");
        QTest::newRow("hash inside value") << QByteArray("KEY = pass#word") << QStringLiteral("pass#word");
        QTest::newRow("url fragment") << QByteArray("KEY = http://h/p#frag") << QStringLiteral("http://h/p#frag");
        QTest::newRow("double quoted") << QByteArray("KEY = \"a ; b # c\"") << QStringLiteral("a ; b # c");
        QTest::newRow("backticks") << QByteArray("KEY = `x \"y\" ;z`") << QStringLiteral("x \"y\" ;z");
        QTest::newRow("quoted then comment") << QByteArray("KEY = \"v\" ; note") << QStringLiteral("v");
        QTest::newRow("commas kept") << QByteArray("KEY = a, b,c") << QStringLiteral("a, b,c");
        QTest::newRow("percent and backslash kept") << QByteArray("KEY = 100%\\d") << QStringLiteral("100%\\d");
        QTest::newRow("equals in value") << QByteArray("KEY = redis://h:1/0?pool=2") << QStringLiteral("redis://h:1/0?pool=2");
        QTest::newRow("utf8") << QByteArray("KEY = 队列") << QStringLiteral("队列");
        QTest::newRow("crlf") << QByteArray("KEY = v\r") << QStringLiteral("v");
    }

    void values()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, expected);
        const IniFile ini = parseOk("[s]\n" + line + "\n");
        QCOMPARE(valueOf(ini, QStringLiteral("s"), QStringLiteral("KEY")), expected);
    }

    void sectionsKeysAndLines()
    {
        const IniFile ini = parseOk("\xEF\xBB\xBF" // BOM
                                    "APP_NAME = top\n"
                                    "; comment\n"
                                    "# comment\n"
                                    "\n"
                                    "[Queue]\n"
                                    "TYPE = level\n"
                                    "[queue.mail] ; named queue\n"
                                    "type = redis\n"
                                    "[queue]\n"
                                    "LENGTH = 5\n");
        QCOMPARE(valueOf(ini, QString(), QStringLiteral("APP_NAME")), QStringLiteral("top"));
        QCOMPARE(valueOf(ini, QStringLiteral("queue"), QStringLiteral("TYPE")), QStringLiteral("level"));
        QCOMPARE(valueOf(ini, QStringLiteral("QUEUE"), QStringLiteral("length")), QStringLiteral("5"));
        QCOMPARE(valueOf(ini, QStringLiteral("queue.mail"), QStringLiteral("TYPE")), QStringLiteral("redis"));
        QCOMPARE(ini.section(QStringLiteral("queue"))->find(QStringLiteral("LENGTH"))->line, 10);
        QCOMPARE(ini.section(QStringLiteral("queue"))->line, 5);
        QCOMPARE(ini.sections().size(), 3); // "", queue (merged), queue.mail
    }

    void repeatedKeyLastWinsWithAWarning()
    {
        const IniFile ini = parseOk("[cache]\nADAPTER = memory\nADAPTER = redis\n");
        QCOMPARE(valueOf(ini, QStringLiteral("cache"), QStringLiteral("ADAPTER")), QStringLiteral("redis"));
        QCOMPARE(ini.warnings().size(), 1);
        QCOMPARE(ini.warnings().front(), QStringLiteral("app.ini:3: [cache] ADAPTER repeats line 2; the later value wins"));
    }

    void multiLineValue()
    {
        const IniFile ini = parseOk("[s]\nKEY = \"\"\"first\nsecond\"\"\"\nNEXT = 1\n");
        QCOMPARE(valueOf(ini, QStringLiteral("s"), QStringLiteral("KEY")), QStringLiteral("first\nsecond"));
        QCOMPARE(ini.section(QStringLiteral("s"))->find(QStringLiteral("NEXT"))->line, 4);
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no equals") << QByteArray("[s]\nKEY = 1\nnonsense\n")
                                   << QStringLiteral("app.ini:3: malformed line (expected KEY = VALUE or [section]): nonsense");
        QTest::newRow("unclosed header") << QByteArray("[queue\n") << QStringLiteral("app.ini:1: malformed section header [queue: missing ']'");
        QTest::newRow("empty header") << QByteArray("\n[ ]\n") << QStringLiteral("app.ini:2: empty section name");
        QTest::newRow("text after header") << QByteArray("[a] b\n") << QStringLiteral("app.ini:1: unexpected text after section header: b");
        QTest::newRow("missing key") << QByteArray("[s]\n = v\n") << QStringLiteral("app.ini:2: missing key before '='");
        QTest::newRow("unterminated quote") << QByteArray("[s]\nK = \"abc\n") << QStringLiteral("app.ini:2: unterminated quoted value of key K");
        QTest::newRow("unterminated multi-line") << QByteArray("[s]\nK = \"\"\"abc\nmore\n")
                                                 << QStringLiteral("app.ini:2: unterminated \"\"\" value of key K");
    }

    void malformed()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const Result<IniFile> ini = IniFile::parse(QStringLiteral("app.ini"), text);
        QVERIFY(!ini);
        QCOMPARE(ini.status().code(), Status::Code::InvalidArgument);
        QCOMPARE(ini.status().message(), expected);
    }

    void everyMalformedLineIsReported()
    {
        const Result<IniFile> ini = IniFile::parse(QStringLiteral("/etc/app.ini"), "bad one\n[ok]\nbad two\n");
        QVERIFY(!ini);
        const QStringList lines = ini.status().message().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(QLatin1String("/etc/app.ini:1:")));
        QVERIFY(lines[1].startsWith(QLatin1String("/etc/app.ini:3:")));
    }

    void missingFile()
    {
        const Result<IniFile> ini = IniFile::load(QStringLiteral("/nonexistent/app.ini"));
        QCOMPARE(ini.status().code(), Status::Code::NotFound);
        QVERIFY(ini.status().message().contains(QLatin1String("/nonexistent/app.ini")));
    }
};

QTEST_GUILESS_MAIN(TestIniFile)
#include "tst_inifile.moc"
