#include "inifile.h"

#include <QFile>

namespace Switchyard {

const IniEntry *IniSection::find(const QString &key) const
{
    for (auto it = entries.crbegin(); it != entries.crend(); ++it) {
        if (it->key.compare(key, Qt::CaseInsensitive) == 0)
            return &*it;
    }
    return nullptr;
}

const IniSection *IniFile::section(const QString &name) const
{
    const QString wanted = name.toLower();
    for (const IniSection &s : m_sections) {
        if (s.name == wanted)
            return &s;
    }
    return nullptr;
}

IniSection &IniFile::sectionFor(const QString &name, int line)
{
    for (IniSection &s : m_sections) {
        if (s.name == name)
            return s;
    }
    m_sections.append(IniSection{name, line, {}});
    return m_sections.last();
}

namespace {

bool isCommentStart(QChar c)
{
    return c == QLatin1Char(';') || c == QLatin1Char('#');
}

// Removes an inline comment: a ';' or '#' preceded by whitespace.
QString stripInlineComment(const QString &value)
{
    for (qsizetype i = 1; i < value.size(); ++i) {
        if (isCommentStart(value.at(i)) && value.at(i - 1).isSpace())
            return value.left(i).trimmed();
    }
    return value;
}

} // namespace

Result<IniFile> IniFile::parse(const QString &fileName, const QByteArray &text)
{
    IniFile ini;
    ini.m_fileName = fileName;
    QStringList errors;

    QString content = QString::fromUtf8(text);
    if (content.startsWith(QChar(0xFEFF)))
        content.remove(0, 1);
    const QStringList lines = content.split(QLatin1Char('\n'));

    auto fail = [&](int line, const QString &reason) {
        errors.append(QStringLiteral("%1:%2: %3").arg(fileName).arg(line).arg(reason));
    };

    QString currentSection; // "" = keys before any header
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int lineNo = int(i) + 1;
        QString line = lines.at(i);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty() || isCommentStart(trimmed.front()))
            continue;

        if (trimmed.startsWith(QLatin1Char('['))) {
            const qsizetype close = trimmed.indexOf(QLatin1Char(']'));
            if (close < 0) {
                fail(lineNo, QStringLiteral("malformed section header %1: missing ']'").arg(trimmed));
                continue;
            }
            const QString rest = trimmed.mid(close + 1).trimmed();
            if (!rest.isEmpty() && !isCommentStart(rest.front())) {
                fail(lineNo, QStringLiteral("unexpected text after section header: %1").arg(rest));
                continue;
            }
            const QString name = trimmed.mid(1, close - 1).trimmed().toLower();
            if (name.isEmpty()) {
                fail(lineNo, QStringLiteral("empty section name"));
                continue;
            }
            currentSection = name;
            ini.sectionFor(name, lineNo);
            continue;
        }

        const qsizetype eq = trimmed.indexOf(QLatin1Char('='));
        if (eq < 0) {
            fail(lineNo, QStringLiteral("malformed line (expected KEY = VALUE or [section]): %1").arg(trimmed));
            continue;
        }
        const QString key = trimmed.left(eq).trimmed();
        if (key.isEmpty()) {
            fail(lineNo, QStringLiteral("missing key before '='"));
            continue;
        }
        QString value = trimmed.mid(eq + 1).trimmed();

        if (value.startsWith(QLatin1String("\"\"\""))) {
            // Multi-line value: up to the closing """ on this or a later line.
            QString collected = value.mid(3);
            qsizetype end = collected.indexOf(QLatin1String("\"\"\""));
            qsizetype j = i;
            while (end < 0 && ++j < lines.size()) {
                QString next = lines.at(j);
                if (next.endsWith(QLatin1Char('\r')))
                    next.chop(1);
                collected += QLatin1Char('\n') + next;
                end = collected.indexOf(QLatin1String("\"\"\""));
            }
            if (end < 0) {
                fail(lineNo, QStringLiteral("unterminated \"\"\" value of key %1").arg(key));
                break;
            }
            value = collected.left(end);
            i = j;
        } else if (value.size() >= 2
                   && ((value.front() == QLatin1Char('"') && value.back() == QLatin1Char('"'))
                       || (value.front() == QLatin1Char('`') && value.back() == QLatin1Char('`')))) {
            value = value.mid(1, value.size() - 2);
        } else if (!value.isEmpty() && (value.front() == QLatin1Char('"') || value.front() == QLatin1Char('`'))) {
            const qsizetype close = value.indexOf(value.front(), 1);
            const QString after = close < 0 ? QString() : value.mid(close + 1).trimmed();
            if (close < 0 || after.isEmpty() || !isCommentStart(after.front())) {
                fail(lineNo, QStringLiteral("unterminated quoted value of key %1").arg(key));
                continue;
            }
            value = value.mid(1, close - 1);
        } else {
            value = stripInlineComment(value);
        }

        IniSection &section = ini.sectionFor(currentSection, lineNo);
        if (const IniEntry *earlier = section.find(key)) {
            ini.m_warnings.append(QStringLiteral("%1:%2: [%3] %4 repeats line %5; the later value wins")
                                      .arg(fileName).arg(lineNo).arg(currentSection, key.toUpper())
                                      .arg(earlier->line));
        }
        section.entries.append(IniEntry{key, value, lineNo});
    }

    if (!errors.isEmpty())
        return Status::invalidArgument(errors.join(QLatin1Char('\n')));
    return ini;
}

void IniFile::set(const QString &section, const QString &key, const QString &value)
{
    sectionFor(section.toLower(), 0).entries.append(IniEntry{key, value, 0});
}

Result<IniFile> IniFile::load(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return Status::notFound(QStringLiteral("config file %1 does not exist").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return Status::unavailable(QStringLiteral("cannot read config file %1: %2").arg(path, file.errorString()));
    return parse(path, file.readAll());
}

} // namespace Switchyard
