#pragma once

#include "engine/core/status.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace Switchyard {

struct IniEntry
{
    QString key;   // as written
    QString value; // unquoted, inline comment removed
    int line = 0;  // 1-based line of the key in the file
};

struct IniSection
{
    QString name; // lower-cased; "" for keys before the first section header
    int line = 0; // line of the first header of this section
    QList<IniEntry> entries;

    // Keys are matched case-insensitively; a repeated key: the last one wins.
    const IniEntry *find(const QString &key) const;
};

// Gitea's app.ini dialect (go-ini as Gitea loads it), written by hand because it has to report the
// line of every key (inih as packaged by Debian does not) and QSettings rewrites values (`;`, `,`,
// `%`, backslashes) and section names.
//
// - `[section]` headers; names are case-insensitive (stored lower-cased); repeated headers merge.
// - `KEY = VALUE` (only `=` separates); keys are case-insensitive; a repeated key overrides the
//   earlier one and is reported in warnings().
// - Full-line comments start with `;` or `#`. An inline comment starts at ` ;` or ` #` (whitespace
//   before the mark), so `a#b` and URLs with fragments keep their `#`.
// - A value wrapped in "double quotes" or `backticks` is taken verbatim (no escapes); `"""` starts
//   a value spanning lines up to the closing `"""`. No backslash line continuation.
// - A UTF-8 byte-order mark is skipped; CRLF line ends are accepted.
class IniFile
{
public:
    // Parses `text`; `fileName` only labels messages. Every malformed line is reported as
    // "<fileName>:<line>: <reason>" in one InvalidArgument status, one line each.
    static Result<IniFile> parse(const QString &fileName, const QByteArray &text);
    // Reads and parses a file; NotFound / Unavailable when it cannot be read.
    static Result<IniFile> load(const QString &path);

    const QString &fileName() const { return m_fileName; }
    const IniSection *section(const QString &name) const;
    const QList<IniSection> &sections() const { return m_sections; }
    // Sets `key` in `section` after the file was read, for a value kept elsewhere (the console's
    // keychain holds secrets the file leaves out): it wins over the file's, with line 0.
    void set(const QString &section, const QString &key, const QString &value);

    // Non-fatal findings ("<file>:<line>: ..."), e.g. repeated keys.
    const QStringList &warnings() const { return m_warnings; }

private:
    IniSection &sectionFor(const QString &name, int line);

    QString m_fileName;
    QList<IniSection> m_sections;
    QStringList m_warnings;
};

} // namespace Switchyard
