#include "inieditor.h"

#include <algorithm>

namespace Switchyard {

namespace {

bool isCommentStart(QChar c)
{
    return c == QLatin1Char(';') || c == QLatin1Char('#');
}

// Where an inline comment of an unquoted value starts (whitespace, then ';' or '#'), or -1.
qsizetype inlineComment(const QString &value)
{
    for (qsizetype i = 1; i < value.size(); ++i)
        if (isCommentStart(value.at(i)) && value.at(i - 1).isSpace())
            return i - 1;
    return -1;
}

} // namespace

IniEditor::IniEditor(const QByteArray &text)
{
    m_bom = text.startsWith("\xEF\xBB\xBF");
    QString content = QString::fromUtf8(m_bom ? text.mid(3) : text);
    if (content.contains(QLatin1String("\r\n")))
        m_eol = QStringLiteral("\r\n");
    m_endsWithEol = content.isEmpty() || content.endsWith(QLatin1Char('\n'));
    QStringList raw = content.split(QLatin1Char('\n'));
    if (m_endsWithEol)
        raw.removeLast(); // the empty piece after the last line end
    for (QString &line : raw)
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
    scan(raw);
}

void IniEditor::scan(const QStringList &raw)
{
    QString section;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        Line line{raw.at(i), section, {}, 0};
        const QString trimmed = line.text.trimmed();
        if (trimmed.startsWith(QLatin1Char('[')) && trimmed.indexOf(QLatin1Char(']')) > 0) {
            section = trimmed.mid(1, trimmed.indexOf(QLatin1Char(']')) - 1).trimmed().toLower();
            line.section = section;
        } else if (!trimmed.isEmpty() && !isCommentStart(trimmed.front()) && trimmed.indexOf(QLatin1Char('=')) > 0) {
            line.key = trimmed.left(trimmed.indexOf(QLatin1Char('='))).trimmed();
            const QString value = trimmed.mid(trimmed.indexOf(QLatin1Char('=')) + 1).trimmed();
            if (value.startsWith(QLatin1String("\"\"\"")) && value.indexOf(QLatin1String("\"\"\""), 3) < 0) {
                // The continuation lines up to the closing """ belong to this key.
                qsizetype j = i;
                while (++j < raw.size() && !raw.at(j).contains(QLatin1String("\"\"\""))) {}
                line.extra = int(qMin(j, raw.size() - 1) - i);
                for (qsizetype k = i + 1; k <= i + line.extra; ++k)
                    line.text += QLatin1Char('\n') + raw.at(k);
                i += line.extra;
            }
        }
        m_lines.append(line);
    }
}

QList<int> IniEditor::linesSetting(const QString &section, const QString &key) const
{
    QList<int> found;
    for (int i = 0; i < m_lines.size(); ++i)
        if (m_lines.at(i).section == section.toLower() && !m_lines.at(i).key.isEmpty()
            && m_lines.at(i).key.compare(key, Qt::CaseInsensitive) == 0)
            found.append(i);
    return found;
}

bool IniEditor::has(const QString &section, const QString &key) const
{
    return !linesSetting(section, key).isEmpty();
}

Result<QString> IniEditor::quoted(const QString &value)
{
    const bool plain = value == value.trimmed() && inlineComment(value) < 0 && !value.contains(QLatin1Char('\n'))
                       && !value.startsWith(QLatin1Char('"')) && !value.startsWith(QLatin1Char('`'));
    if (plain)
        return value;
    if (!value.contains(QLatin1Char('`')) && !value.contains(QLatin1Char('\n')))
        return QStringLiteral("`%1`").arg(value);
    if (!value.contains(QLatin1String("\"\"\"")) && !value.endsWith(QLatin1Char('"')))
        return QStringLiteral("\"\"\"%1\"\"\"").arg(value);
    return Status::invalidArgument(QStringLiteral("the value cannot be written in app.ini: it holds a backtick and a line break, or \"\"\""));
}

Status IniEditor::set(const QString &section, const QString &key, const QString &value)
{
    Result<QString> written = quoted(value);
    if (!written)
        return written.status();
    const QList<int> existing = linesSetting(section, key);
    if (!existing.isEmpty()) {
        Line &line = m_lines[existing.last()];
        const qsizetype eq = line.text.indexOf(QLatin1Char('='));
        const QString old = line.text.mid(eq + 1).trimmed();
        // An unquoted one-line value's inline comment stays with the key.
        QString comment;
        if (line.extra == 0 && !old.startsWith(QLatin1Char('"')) && !old.startsWith(QLatin1Char('`')) && inlineComment(old) >= 0)
            comment = old.mid(inlineComment(old));
        qsizetype indent = 0;
        while (indent < eq && line.text.at(indent).isSpace())
            ++indent;
        // An empty value before a kept comment is written "" (else the comment would be the value).
        const QString shown = written->isEmpty() && !comment.isEmpty() ? QStringLiteral("\"\"") : *written;
        line.text = line.text.left(indent) + line.key + QStringLiteral(" = ") + shown + comment;
        line.extra = int(written->count(QLatin1Char('\n')));
        for (qsizetype i = existing.size() - 2; i >= 0; --i)
            m_lines.removeAt(existing.at(i));
        return Status::ok();
    }
    Line added{QStringLiteral("%1 = %2").arg(key, *written), section.toLower(), key, int(written->count(QLatin1Char('\n')))};
    int after = -1; // the section's last key, else its header
    for (int i = 0; i < m_lines.size(); ++i) {
        if (m_lines.at(i).section != section.toLower())
            continue;
        if (!m_lines.at(i).key.isEmpty() || (after < 0 && m_lines.at(i).text.trimmed().startsWith(QLatin1Char('['))))
            after = i;
    }
    if (after < 0 && section.isEmpty()) {
        m_lines.prepend(added); // before the first header
        return Status::ok();
    }
    if (after < 0) {
        if (!m_lines.isEmpty() && !m_lines.last().text.trimmed().isEmpty())
            m_lines.append(Line{QString(), m_lines.last().section, {}, 0});
        m_lines.append(Line{QStringLiteral("[%1]").arg(section), section.toLower(), {}, 0});
        m_lines.append(added);
        return Status::ok();
    }
    m_lines.insert(after + 1, added);
    return Status::ok();
}

void IniEditor::remove(const QString &section, const QString &key)
{
    const QList<int> existing = linesSetting(section, key);
    for (qsizetype i = existing.size() - 1; i >= 0; --i)
        m_lines.removeAt(existing.at(i));
}

void IniEditor::addSection(const QString &section)
{
    const bool present = std::any_of(m_lines.begin(), m_lines.end(), [&](const Line &line) { return line.section == section.toLower(); });
    if (!present && !section.isEmpty()) {
        if (!m_lines.isEmpty() && !m_lines.last().text.trimmed().isEmpty())
            m_lines.append(Line{QString(), m_lines.last().section, {}, 0});
        m_lines.append(Line{QStringLiteral("[%1]").arg(section), section.toLower(), {}, 0});
    }
}

void IniEditor::removeSection(const QString &section)
{
    if (section.isEmpty())
        return;
    // From each header through its last key: the comments and blank lines after that belong to
    // what follows (a comment written above the next header).
    const QString name = section.toLower();
    for (int i = 0; i < m_lines.size(); ++i) {
        if (m_lines.at(i).section != name || !m_lines.at(i).text.trimmed().startsWith(QLatin1Char('[')))
            continue;
        int last = i;
        for (int j = i + 1; j < m_lines.size() && m_lines.at(j).section == name && !m_lines.at(j).text.trimmed().startsWith(QLatin1Char('['));
             ++j)
            if (!m_lines.at(j).key.isEmpty())
                last = j;
        const QString before = i > 0 ? m_lines.at(i - 1).section : QString();
        m_lines.remove(i, last - i + 1);
        for (int j = i; j < m_lines.size() && m_lines.at(j).section == name && !m_lines.at(j).text.trimmed().startsWith(QLatin1Char('['));
             ++j)
            m_lines[j].section = before;
        --i;
    }
}

QStringList IniEditor::sections(const QString &prefix) const
{
    QStringList names;
    for (const Line &line : m_lines)
        if (line.section.startsWith(prefix.toLower()) && !names.contains(line.section) && !line.section.isEmpty())
            names.append(line.section);
    return names;
}

QByteArray IniEditor::text() const
{
    QStringList out;
    for (const Line &line : m_lines)
        out.append(QString(line.text).replace(QLatin1Char('\n'), m_eol));
    QString joined = out.join(m_eol);
    if (m_endsWithEol && !m_lines.isEmpty())
        joined += m_eol;
    return m_bom ? "\xEF\xBB\xBF" + joined.toUtf8() : joined.toUtf8();
}

} // namespace Switchyard
