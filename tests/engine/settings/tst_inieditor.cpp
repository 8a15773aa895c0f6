// IniEditor: an app.ini edited keeps what a person wrote (comments, order, spelling, inline
// comments, line ends), and what it writes reads back through IniFile as the value given.

#include "engine/settings/inieditor.h"
#include "engine/settings/inifile.h"

#include <QTest>

using namespace Switchyard;

namespace {

QString valueOf(const QByteArray &text, const QString &section, const QString &key)
{
    Result<IniFile> ini = IniFile::parse(QStringLiteral("app.ini"), text);
    if (!ini)
        return QStringLiteral("<parse error: %1>").arg(ini.status().message());
    const IniSection *s = ini->section(section);
    const IniEntry *e = s ? s->find(key) : nullptr;
    return e ? e->value : QStringLiteral("<missing>");
}

const QByteArray kFile = "; Switchyard\n"
                         "APP_NAME = Forge\n"
                         "\n"
                         "[server]\n"
                         "# where the API listens\n"
                         "  http_port = 3300 ; the default\n"
                         "HTTP_ADDR=127.0.0.1\n"
                         "\n"
                         "[mailer]\n"
                         "ENABLED = false\n";

} // namespace

class TestIniEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unchangedIsByteForByte()
    {
        QCOMPARE(IniEditor(kFile).text(), kFile);
        const QByteArray crlf = QByteArray(kFile).replace("\n", "\r\n");
        QCOMPARE(IniEditor(crlf).text(), crlf);
        QCOMPARE(IniEditor("A = 1").text(), QByteArray("A = 1")); // no line end at the end stays so
    }

    void aKeySetAgainChangesOnItsLine()
    {
        IniEditor editor(kFile);
        QVERIFY(editor.set(QStringLiteral("SERVER"), QStringLiteral("HTTP_PORT"), QStringLiteral("3301")));
        const QByteArray text = editor.text();
        // Its indentation, its spelling and its inline comment stay; nothing else moves.
        QCOMPARE(text, QByteArray(kFile).replace("  http_port = 3300 ; the default", "  http_port = 3301 ; the default"));
        QCOMPARE(valueOf(text, QStringLiteral("server"), QStringLiteral("HTTP_PORT")), QStringLiteral("3301"));
    }

    void aNewKeyGoesAfterItsSectionsLastKey()
    {
        IniEditor editor(kFile);
        QVERIFY(editor.set(QStringLiteral("mailer"), QStringLiteral("FROM"), QStringLiteral("ops@example.com")));
        QVERIFY(editor.set(QStringLiteral("server"), QStringLiteral("DOMAIN"), QStringLiteral("git.example.com")));
        QVERIFY(editor.set(QString(), QStringLiteral("RUN_USER"), QStringLiteral("git")));
        QVERIFY(editor.set(QStringLiteral("event_source.gitea"), QStringLiteral("REFUSE_REPLAYS"), QStringLiteral("true")));
        const QByteArray text = editor.text();
        QVERIFY2(text.contains("HTTP_ADDR=127.0.0.1\nDOMAIN = git.example.com\n\n[mailer]"), text.constData());
        QVERIFY2(text.contains("ENABLED = false\nFROM = ops@example.com\n"), text.constData());
        QVERIFY2(text.endsWith("\n\n[event_source.gitea]\nREFUSE_REPLAYS = true\n"), text.constData());
        QVERIFY2(text.startsWith("; Switchyard\nAPP_NAME = Forge\nRUN_USER = git\n"), text.constData());
    }

    void valuesReadBackAsGiven_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("plain") << QStringLiteral("smtp.example.com");
        QTest::newRow("inline comment mark") << QStringLiteral("a ;b");
        QTest::newRow("hash") << QStringLiteral("pass #word");
        QTest::newRow("spaces around") << QStringLiteral("  padded  ");
        QTest::newRow("leading quote") << QStringLiteral("\"Our Forge\" <forge@example.com>");
        QTest::newRow("backtick and quote") << QStringLiteral("`odd` \"name\" here");
        QTest::newRow("empty") << QString();
        QTest::newRow("unicode") << QStringLiteral("Ünïcødé 队列");
    }
    void valuesReadBackAsGiven()
    {
        QFETCH(QString, value);
        IniEditor editor(kFile);
        QVERIFY(editor.set(QStringLiteral("mailer"), QStringLiteral("FROM"), value));
        QCOMPARE(valueOf(editor.text(), QStringLiteral("mailer"), QStringLiteral("FROM")), value);
        QVERIFY(editor.set(QStringLiteral("mailer"), QStringLiteral("FROM"), value)); // again, in place
        QCOMPARE(editor.text().count("FROM ="), 1);
    }

    void aValueTheDialectCannotHoldIsRefused()
    {
        IniEditor editor(kFile);
        const Status refused = editor.set(QStringLiteral("mailer"), QStringLiteral("FROM"), QStringLiteral("a`b\n\"\"\"c"));
        QVERIFY(!refused);
        QCOMPARE(editor.text(), kFile);
    }

    void repeatedKeysBecomeOne()
    {
        IniEditor editor("[server]\nHTTP_PORT = 1\nHTTP_PORT = 2\n");
        QVERIFY(editor.set(QStringLiteral("server"), QStringLiteral("http_port"), QStringLiteral("3")));
        QCOMPARE(editor.text(), QByteArray("[server]\nHTTP_PORT = 3\n"));
    }

    void sectionsAndKeysGo()
    {
        IniEditor editor(QByteArray(kFile) + "\n[event_source.old]\nSECRET = x\n[queue]\nTYPE = level\n");
        QCOMPARE(editor.sections(QStringLiteral("event_source.")), QStringList{QStringLiteral("event_source.old")});
        editor.removeSection(QStringLiteral("event_source.old"));
        editor.remove(QStringLiteral("mailer"), QStringLiteral("ENABLED"));
        editor.addSection(QStringLiteral("event_source.new"));
        editor.addSection(QStringLiteral("event_source.new")); // once
        const QByteArray text = editor.text();
        QVERIFY2(!text.contains("old") && !text.contains("SECRET") && !text.contains("ENABLED"), text.constData());
        QVERIFY2(text.contains("[queue]\nTYPE = level\n") && text.count("[event_source.new]") == 1, text.constData());
        QVERIFY(IniFile::parse(QStringLiteral("app.ini"), text));
    }

    // A comment above the next header is that section's: it stays when the one before goes.
    void removingASectionKeepsTheNextOnesComment()
    {
        IniEditor editor("[event_source.old]\nSECRET = x\n\n; GitHub org hooks\n[event_source.github]\nSECRET = y\n");
        editor.removeSection(QStringLiteral("event_source.old"));
        QCOMPARE(editor.text(), QByteArray("\n; GitHub org hooks\n[event_source.github]\nSECRET = y\n"));
    }

    void anEmptyValueBeforeAnInlineCommentStaysEmpty()
    {
        IniEditor editor(kFile);
        QVERIFY(editor.set(QStringLiteral("server"), QStringLiteral("HTTP_PORT"), QString()));
        QCOMPARE(valueOf(editor.text(), QStringLiteral("server"), QStringLiteral("HTTP_PORT")), QString());
        QVERIFY(editor.text().contains("; the default"));
    }

    void aByteOrderMarkAndCrlfStay()
    {
        const QByteArray text = "\xEF\xBB\xBF[server]\r\nHTTP_PORT = 1\r\n";
        IniEditor editor(text);
        QVERIFY(editor.set(QStringLiteral("server"), QStringLiteral("HTTP_PORT"), QStringLiteral("2")));
        QVERIFY(editor.set(QStringLiteral("server"), QStringLiteral("DOMAIN"), QStringLiteral("d")));
        QCOMPARE(editor.text(), QByteArray("\xEF\xBB\xBF[server]\r\nHTTP_PORT = 2\r\nDOMAIN = d\r\n"));
    }

    void aKeyJoinsASectionWithOnlyItsHeader()
    {
        IniEditor editor("[mailer]\n\n[server]\nA = 1\n");
        QVERIFY(editor.set(QStringLiteral("mailer"), QStringLiteral("FROM"), QStringLiteral("a@b")));
        QCOMPARE(editor.text(), QByteArray("[mailer]\nFROM = a@b\n\n[server]\nA = 1\n"));
    }

    void multiLineValuesAreOneKey()
    {
        IniEditor editor("[mailer]\nBODY = \"\"\"line one\nline two\"\"\"\nFROM = a@b\n");
        QVERIFY(editor.set(QStringLiteral("mailer"), QStringLiteral("BODY"), QStringLiteral("short")));
        QCOMPARE(editor.text(), QByteArray("[mailer]\nBODY = short\nFROM = a@b\n"));
        QVERIFY(editor.set(QStringLiteral("mailer"), QStringLiteral("BODY"), QStringLiteral("two\nlines")));
        QCOMPARE(valueOf(editor.text(), QStringLiteral("mailer"), QStringLiteral("BODY")), QStringLiteral("two\nlines"));
        QCOMPARE(valueOf(editor.text(), QStringLiteral("mailer"), QStringLiteral("FROM")), QStringLiteral("a@b"));
    }
};

QTEST_GUILESS_MAIN(TestIniEditor)
#include "tst_inieditor.moc"
