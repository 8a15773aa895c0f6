// The mailbox grammar (RFC 5321 Mailbox) every address goes through, and the display-name form
// operators write: a table of addresses that pass (with the form they go on the wire in) and of
// addresses refused (with a word of the reason, and never a raw control character in it).
#include "engine/core/mailaddress.h"

#include <QTest>

using namespace Switchyard;

class tst_MailAddress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void valid_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("wire");
        const auto same = [](const char *name, const QString &address) { QTest::newRow(name) << address << address; };
        same("plain", QStringLiteral("alice@example.com"));
        same("dots and atext", QStringLiteral("a.b+tag!#$%&'*/=?^_`{|}~-x@mail.example.com"));
        same("single-label domain", QStringLiteral("root@localhost"));
        same("digits and hyphens", QStringLiteral("x@1-2.example-host.org"));
        same("quoted with a space", QStringLiteral("\"grace smith\"@example.com"));
        same("quoted with @ and quoted pairs", QStringLiteral("\"a@b \\\" \\\\ c\"@example.com"));
        same("quoted dots", QStringLiteral("\"a..b.\"@example.com"));
        same("64-octet local part", QString(64, u'a') + QStringLiteral("@example.com"));
        same("63-octet label", QStringLiteral("a@") + QString(63, u'b') + QStringLiteral(".com"));
        same("254 octets", QString(64, u'a') + u'@' + QString(63, u'b') + u'.' + QString(63, u'c') + u'.' + QString(61, u'd'));
        same("IPv4 literal", QStringLiteral("ops@[192.0.2.1]"));
        same("IPv6 literal", QStringLiteral("ops@[IPv6:2001:db8::1]"));
        same("IPv6 literal with IPv4 tail", QStringLiteral("ops@[IPv6:::ffff:192.0.2.1]"));
        QTest::newRow("IDN domain in ACE form") << QStringLiteral("zoe@bücher.example")
                                                << QStringLiteral("zoe@xn--bcher-kva.example");
    }
    void valid()
    {
        QFETCH(QString, input);
        QFETCH(QString, wire);
        const Result<QString> parsed = parseMailbox(input);
        QVERIFY2(parsed, qPrintable(parsed.status().message()));
        QCOMPARE(*parsed, wire);
        // The display-name form takes the same address.
        const Result<MailAddress> named = parseMailAddress(QStringLiteral("Some One <%1>").arg(input));
        QVERIFY2(named, qPrintable(named.status().message()));
        QCOMPARE(named->address, wire);
        QCOMPARE(named->name, QStringLiteral("Some One"));
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("reason"); // a part of the message
        QTest::newRow("empty") << QString() << QStringLiteral("empty");
        QTest::newRow("CR/LF injection") << QStringLiteral("mallory@example.com\r\nRCPT TO:<victim@evil.test>")
                                         << QStringLiteral("a control character (\\r) at character 20");
        QTest::newRow("LF alone") << QStringLiteral("a@example.com\nBcc: b@example.com") << QStringLiteral("(\\n)");
        QTest::newRow("NUL") << QStringLiteral("a@example.com") + QChar(0) + QStringLiteral("x") << QStringLiteral("(\\x00)");
        QTest::newRow("NUL in quotes") << QStringLiteral("\"a") + QChar(0) + QStringLiteral("\"@example.com") << QStringLiteral("(\\x00)");
        QTest::newRow("DEL") << QStringLiteral("a\x7f@example.com") << QStringLiteral("(\\x7f)");
        QTest::newRow("tab") << QStringLiteral("a\t@example.com") << QStringLiteral("(\\t)");
        QTest::newRow("space") << QStringLiteral("grace smith@example.com") << QStringLiteral("white space before @ (character 6)");
        QTest::newRow("leading space") << QStringLiteral(" a@example.com") << QStringLiteral("white space");
        QTest::newRow("trailing space") << QStringLiteral("a@example.com ") << QStringLiteral("a space may not appear in the domain");
        QTest::newRow("trailing dot in local part") << QStringLiteral("alice.@example.com") << QStringLiteral("ends with a dot");
        QTest::newRow("leading dot") << QStringLiteral(".alice@example.com") << QStringLiteral("starts with a dot");
        QTest::newRow("double dot") << QStringLiteral("al..ice@example.com") << QStringLiteral("two dots in a row");
        QTest::newRow("trailing dot in domain") << QStringLiteral("alice@example.com.") << QStringLiteral("empty label");
        QTest::newRow("double dot in domain") << QStringLiteral("alice@example..com") << QStringLiteral("empty label");
        QTest::newRow("65-octet local part") << QString(65, u'a') + QStringLiteral("@example.com") << QStringLiteral("65 characters long; at most 64");
        QTest::newRow("255 octets") << QString(64, u'a') + u'@' + QString(63, u'b') + u'.' + QString(63, u'c') + u'.' + QString(62, u'd')
                                    << QStringLiteral("255 characters long; at most 254");
        QTest::newRow("64-octet label") << QStringLiteral("a@") + QString(64, u'b') + QStringLiteral(".com") << QStringLiteral("longer than 63");
        QTest::newRow("no @") << QStringLiteral("alice.example.com") << QStringLiteral("expected local-part@domain");
        QTest::newRow("@ only in quotes") << QStringLiteral("\"alice@example.com\"") << QStringLiteral("expected local-part@domain");
        QTest::newRow("two @") << QStringLiteral("a@b@example.com") << QStringLiteral("'@' may not appear in the domain");
        QTest::newRow("nothing before @") << QStringLiteral("@example.com") << QStringLiteral("nothing before @");
        QTest::newRow("nothing after @") << QStringLiteral("alice@") << QStringLiteral("nothing after @");
        QTest::newRow("angle brackets") << QStringLiteral("<alice@example.com>") << QStringLiteral("'<' may not appear");
        QTest::newRow("comma") << QStringLiteral("a@example.com,b@example.com") << QStringLiteral("',' may not appear in the domain");
        QTest::newRow("closing bracket injection") << QStringLiteral("a@example.com>") << QStringLiteral("'>' may not appear");
        QTest::newRow("underscore in domain") << QStringLiteral("a@ex_ample.com") << QStringLiteral("'_' may not appear");
        QTest::newRow("hyphen at label end") << QStringLiteral("a@example-.com") << QStringLiteral("hyphen");
        QTest::newRow("unclosed quote") << QStringLiteral("\"alice@example.com") << QStringLiteral("not closed");
        QTest::newRow("quote then text") << QStringLiteral("\"a\"b@example.com") << QStringLiteral("'b' may not appear in the local part");
        QTest::newRow("non-ASCII local part") << QStringLiteral("zoë@example.com") << QStringLiteral("only ASCII local parts");
        QTest::newRow("bidi override") << QStringLiteral("a\u202e@example.com") << QStringLiteral("\\u202e");
        QTest::newRow("unclosed literal") << QStringLiteral("a@[192.0.2.1") << QStringLiteral("not closed");
        QTest::newRow("IPv4 literal out of range") << QStringLiteral("a@[192.0.2.256]") << QStringLiteral("not an address literal");
        QTest::newRow("IPv4 literal short form") << QStringLiteral("a@[127.1]") << QStringLiteral("not an address literal");
        QTest::newRow("IPv6 literal with a scope") << QStringLiteral("a@[IPv6:fe80::1%eth0]") << QStringLiteral("'%' may not appear");
        QTest::newRow("IPv6 literal broken") << QStringLiteral("a@[IPv6:1:2:3]") << QStringLiteral("not an IPv6 address");
        QTest::newRow("general literal") << QStringLiteral("a@[x-tag:stuff]") << QStringLiteral("not an address literal");
    }
    void invalid()
    {
        QFETCH(QString, input);
        QFETCH(QString, reason);
        const Result<QString> parsed = parseMailbox(input);
        QVERIFY2(!parsed, qPrintable(parsed ? *parsed : QString()));
        QCOMPARE(parsed.status().code(), Status::Code::InvalidArgument);
        const QString message = parsed.status().message();
        QVERIFY2(message.contains(reason), qPrintable(message));
        // Never a raw control character in the message (it goes to logs and answers).
        for (QChar c : message)
            QVERIFY2(c.unicode() >= 0x20 && c.unicode() != 0x7f && c.category() != QChar::Other_Format, qPrintable(message));
        QVERIFY(!parseMailAddress(QStringLiteral("Name <%1>").arg(input)));
    }

    void displayNameForm_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("address");
        QTest::newRow("bare") << QStringLiteral("  ops@example.com ") << QString() << QStringLiteral("ops@example.com");
        QTest::newRow("angle brackets") << QStringLiteral("<ops@example.com>") << QString() << QStringLiteral("ops@example.com");
        QTest::newRow("name") << QStringLiteral("Gitea <gitea@example.com>") << QStringLiteral("Gitea") << QStringLiteral("gitea@example.com");
        QTest::newRow("quoted name with < and \"") << QStringLiteral("\"Ops <team> \\\"A\\\"\" <ops@example.com>")
                                                  << QStringLiteral("Ops <team> \"A\"") << QStringLiteral("ops@example.com");
        QTest::newRow("quoted local part") << QStringLiteral("Grace <\"grace smith\"@example.com>") << QStringLiteral("Grace")
                                           << QStringLiteral("\"grace smith\"@example.com");
    }
    void displayNameForm()
    {
        QFETCH(QString, input);
        QFETCH(QString, name);
        QFETCH(QString, address);
        const Result<MailAddress> parsed = parseMailAddress(input);
        QVERIFY2(parsed, qPrintable(parsed.status().message()));
        QCOMPARE(parsed->name, name);
        QCOMPARE(parsed->address, address);
    }

    void displayNameFormRefusals_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("reason");
        QTest::newRow("line break in the name") << QStringLiteral("Ops\r\nBcc: x@evil.test <ops@example.com>") << QStringLiteral("(\\r)");
        QTest::newRow("two addresses") << QStringLiteral("A <a@example.com> <b@example.com>") << QStringLiteral("more than one address");
        QTest::newRow("> without <") << QStringLiteral("ops@example.com>") << QStringLiteral("'>' without '<'");
        QTest::newRow("< without >") << QStringLiteral("Ops <ops@example.com") << QStringLiteral("'<' without '>'");
        QTest::newRow("text after the quoted name") << QStringLiteral("\"Ops\" x <ops@example.com>") << QStringLiteral("after the quoted name");
        QTest::newRow("a space in the address") << QStringLiteral("Grace <grace smith@example.com>") << QStringLiteral("white space before @");
    }
    void displayNameFormRefusals()
    {
        QFETCH(QString, input);
        QFETCH(QString, reason);
        const Result<MailAddress> parsed = parseMailAddress(input);
        QVERIFY(!parsed);
        QVERIFY2(parsed.status().message().contains(reason), qPrintable(parsed.status().message()));
        QVERIFY(!parsed.status().message().contains(u'\r'));
    }
};

QTEST_GUILESS_MAIN(tst_MailAddress)
#include "tst_mailaddress.moc"
