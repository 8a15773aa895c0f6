// The console's Simplified Chinese catalogue (translations/console_zh_CN.ts) against the sources:
// every message translated, the same placeholders on both sides, every tr() string of the sources
// in the catalogue (lupdate run here over the sources update_translations reads, with its options),
// and the compiled catalogue the console links (:/i18n/console_zh_CN.qm) loads and translates.
//
// A failure names the messages and the command that fixes it: new strings come from
// `cmake --build <build dir> --target update_translations`, then a translation in Qt Linguist.

#include "support/testutil.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include <algorithm>
#include <vector>

using namespace Switchyard;

namespace {

const QString kCatalogue = QStringLiteral(SWITCHYARD_SOURCE_DIR "/translations/console_zh_CN.ts");
const QString kUpdate = QStringLiteral("cmake --build <build dir> --target update_translations");
constexpr int kListed = 40; // messages named in one failure; the rest are counted

struct Message
{
    QString context;
    QString source;
    QString comment; // lupdate's disambiguation
    bool numerus = false;
    QString type;              // unfinished, vanished, obsolete or empty
    QStringList translations;  // the text, or each <numerusform>

    QString key() const { return context + u'\x1f' + source + u'\x1f' + comment; }
    QString describe() const
    {
        QString text = QStringLiteral("  [%1] \"%2\"").arg(context, source);
        if (!comment.isEmpty())
            text += QStringLiteral(" (comment \"%1\")").arg(comment);
        return text.replace(u'\n', QStringLiteral("\\n"));
    }
};

// The messages of a Qt Linguist file; `error` says why it could not be read.
std::vector<Message> readCatalogue(const QString &path, QString *error)
{
    std::vector<Message> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return messages;
    }
    QXmlStreamReader xml(&file);
    QString context;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue; // TS and context are read through
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("message")) {
            Message message;
            message.context = context;
            message.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            while (xml.readNextStartElement()) {
                if (xml.name() == QLatin1String("source")) {
                    message.source = xml.readElementText();
                } else if (xml.name() == QLatin1String("comment")) {
                    message.comment = xml.readElementText();
                } else if (xml.name() == QLatin1String("translation")) {
                    message.type = xml.attributes().value(QLatin1String("type")).toString();
                    if (message.numerus) {
                        while (xml.readNextStartElement()) {
                            if (xml.name() == QLatin1String("numerusform"))
                                message.translations << xml.readElementText();
                            else
                                xml.skipCurrentElement();
                        }
                    } else {
                        message.translations << xml.readElementText();
                    }
                } else {
                    xml.skipCurrentElement(); // location, extracomment, translatorcomment …
                }
            }
            messages.push_back(std::move(message));
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path, QString::number(xml.lineNumber()), xml.errorString());
    return messages;
}

// The arguments QString::arg and tr()'s plural fill in: %1 … %99, %L1 …, %n (sorted, as a multiset).
QStringList placeholders(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("%(?:L?[1-9][0-9]?|n)"));
    QStringList found;
    for (auto it = pattern.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    std::sort(found.begin(), found.end());
    return found;
}

// One failure text: what is wrong, the first kListed lines, how many more, and what to run.
QString report(const QString &what, const QStringList &lines, const QString &fix)
{
    QString text = QStringLiteral("%1 (%2):\n").arg(what, QString::number(lines.size()));
    text += lines.mid(0, kListed).join(u'\n');
    if (lines.size() > kListed)
        text += QStringLiteral("\n  … and %1 more").arg(lines.size() - kListed);
    return text + u'\n' + fix;
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private:
    std::vector<Message> m_catalogue;

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_catalogue = readCatalogue(kCatalogue, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(!m_catalogue.empty(), qPrintable(kCatalogue + QStringLiteral(" holds no message")));
    }

    void everyMessageIsTranslated()
    {
        QStringList unfinished, stale, forms;
        for (const Message &message : m_catalogue) {
            if (message.type == QLatin1String("vanished") || message.type == QLatin1String("obsolete"))
                stale << message.describe();
            else if (message.type == QLatin1String("unfinished") || message.translations.isEmpty()
                     || message.translations.contains(QString())) // an empty text or plural form
                unfinished << message.describe();
            else if (message.numerus && message.translations.size() != 1)
                forms << QStringLiteral("%1: %2 forms").arg(message.describe(), QString::number(message.translations.size()));
        }
        QStringList failures;
        if (!unfinished.isEmpty())
            failures << report(QStringLiteral("Untranslated messages in translations/console_zh_CN.ts"), unfinished,
                               QStringLiteral("Translate them (linguist translations/console_zh_CN.ts, or edit the file) and mark "
                                              "them finished (no type=\"unfinished\")."));
        if (!stale.isEmpty())
            failures << report(QStringLiteral("Vanished or obsolete messages in translations/console_zh_CN.ts"), stale,
                               QStringLiteral("Run `%1` (it passes -no-obsolete) to drop them.").arg(kUpdate));
        if (!forms.isEmpty())
            failures << report(QStringLiteral("Plural messages without exactly one <numerusform> (Chinese has one plural form)"), forms,
                               QStringLiteral("Give each one <numerusform> containing %n."));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n\n"))));
    }

    void placeholdersMatchTheSource()
    {
        QStringList mismatches;
        for (const Message &message : m_catalogue) {
            const QStringList expected = placeholders(message.source);
            for (const QString &translation : message.translations) {
                if (translation.isEmpty())
                    continue; // reported as unfinished
                const QStringList found = placeholders(translation);
                if (found != expected)
                    mismatches << QStringLiteral("%1\n    translation \"%2\": has {%3}, the source has {%4}")
                                      .arg(message.describe(), QString(translation).replace(u'\n', QStringLiteral("\\n")),
                                           found.join(u' '), expected.join(u' '));
            }
        }
        QVERIFY2(mismatches.isEmpty(),
                 qPrintable(report(QStringLiteral("Translations whose placeholders (%1…%99, %L1…, %n) differ from the source"), mismatches,
                                   QStringLiteral("Fix the translations in translations/console_zh_CN.ts: each placeholder of the "
                                                  "source as often as the source has it, in any order."))));
    }

    // lupdate as update_translations runs it (ui/CMakeLists.txt: the same sources, include paths and
    // options, listed by the build in LUPDATE_SOURCES_LIST), into a fresh file: what it finds is what
    // the committed catalogue must hold.
    void catalogueHoldsEveryStringOfTheSources()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fresh = dir.filePath(QStringLiteral("console_zh_CN.ts"));
        QStringList arguments{QStringLiteral("@" LUPDATE_SOURCES_LIST)};
        arguments << QStringLiteral(LUPDATE_OPTIONS).split(u' ', Qt::SkipEmptyParts);
        arguments << QStringLiteral("-ts") << fresh;
        const Test::Ran ran = Test::runProgram(QStringLiteral(LUPDATE_PATH), arguments, {}, 120000);
        QVERIFY2(ran.exitCode == 0, qPrintable(QStringLiteral("lupdate %1 exited %2:\n%3")
                                                   .arg(arguments.join(u' '), QString::number(ran.exitCode), QString::fromUtf8(ran.output))));

        QString error;
        const std::vector<Message> found = readCatalogue(fresh, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(found.size() > 100, qPrintable(QStringLiteral("lupdate found only %1 strings in the sources:\n%2")
                                                    .arg(QString::number(found.size()), QString::fromUtf8(ran.output))));

        QSet<QString> committed;
        for (const Message &message : m_catalogue)
            if (message.type != QLatin1String("vanished") && message.type != QLatin1String("obsolete"))
                committed.insert(message.key());
        QSet<QString> inSources;
        QStringList missing;
        for (const Message &message : found) {
            inSources.insert(message.key());
            if (!committed.contains(message.key()))
                missing << message.describe();
        }
        QStringList gone;
        for (const Message &message : m_catalogue)
            if (committed.contains(message.key()) && !inSources.contains(message.key()))
                gone << message.describe();

        QStringList failures;
        if (!missing.isEmpty())
            failures << report(QStringLiteral("Strings in the sources that translations/console_zh_CN.ts lacks"), missing,
                               QStringLiteral("Run `%1`, then translate the new messages and commit the catalogue.").arg(kUpdate));
        if (!gone.isEmpty())
            failures << report(QStringLiteral("Messages in translations/console_zh_CN.ts that no source has any more"), gone,
                               QStringLiteral("Run `%1` to drop them and commit the catalogue.").arg(kUpdate));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n\n"))));
    }

    // The catalogue the console is built with: main.cpp loads it from :/i18n for a Chinese locale.
    void compiledCatalogueTranslates()
    {
        QTranslator translator;
        QVERIFY2(translator.load(QStringLiteral(":/i18n/console_zh_CN.qm")),
                 "switchyard_console carries no :/i18n/console_zh_CN.qm (qt_add_translations in ui/CMakeLists.txt)");
        QVERIFY(!translator.isEmpty());
        QCOMPARE(translator.language(), QStringLiteral("zh_CN"));

        const auto expected = std::find_if(m_catalogue.cbegin(), m_catalogue.cend(), [](const Message &message) {
            return message.context == QLatin1String("Pages") && message.source == QLatin1String("Queues");
        });
        QVERIFY2(expected != m_catalogue.cend(), "the catalogue has no [Pages] \"Queues\" (the sidebar's page title)");
        QVERIFY(QCoreApplication::installTranslator(&translator));
        const QString shown = QCoreApplication::translate("Pages", "Queues");
        QCoreApplication::removeTranslator(&translator);
        QVERIFY2(shown != QLatin1String("Queues"), "the compiled catalogue leaves [Pages] \"Queues\" untranslated");
        QCOMPARE(shown, expected->translations.value(0));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
