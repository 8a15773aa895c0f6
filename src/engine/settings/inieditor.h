#pragma once

// Edits an app.ini as text, the way a person would: the file keeps its comments, blank lines, key
// spellings and order; a key that is set again changes on its own line (its inline comment stays),
// a new key goes after the last key of its section, a new section at the end. The console's
// Preferences dialog writes app.ini through it. The dialect is IniFile's (inifile.h).
//
// Not thread-safe: one editor per edit.

#include "engine/core/status.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace Switchyard {

class IniEditor
{
public:
    explicit IniEditor(const QByteArray &text = {});

    // Sets `key` in `section` ("" for keys before the first header; case-insensitive both). Every
    // earlier line setting the same key is removed, so the file says it once. InvalidArgument
    // when the value cannot be written in the dialect (it holds a backtick, a double quote and
    // a line break at once, or """).
    Status set(const QString &section, const QString &key, const QString &value);
    // Removes every line setting `key` in `section`; the section's header and comments stay.
    void remove(const QString &section, const QString &key);
    bool has(const QString &section, const QString &key) const;
    // Adds an empty `[section]` at the end when the file has none of that name.
    void addSection(const QString &section);
    // Removes the section's header(s), keys and the comments between them.
    void removeSection(const QString &section);
    // The names of the sections that start with `prefix` ("event_source."), lower-cased, once each.
    QStringList sections(const QString &prefix) const;

    QByteArray text() const;

    // How `value` is written after "KEY = ": as it is, in `backticks` (leading or trailing spaces,
    // an inline-comment mark, a leading quote), or in """ (line breaks).
    static Result<QString> quoted(const QString &value);

private:
    struct Line
    {
        QString text;    // without the line end
        QString section; // lower-cased section the line belongs to
        QString key;     // the key a KEY = VALUE line sets (as written); empty otherwise
        int extra = 0;   // continuation lines of a """ value that follow this one
    };
    void scan(const QStringList &raw);
    QList<int> linesSetting(const QString &section, const QString &key) const;

    QList<Line> m_lines;
    QString m_eol = QStringLiteral("\n");
    bool m_endsWithEol = true;
    bool m_bom = false; // a UTF-8 byte-order mark, kept
};

} // namespace Switchyard
