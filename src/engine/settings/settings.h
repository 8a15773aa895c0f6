#pragma once

#include "inifile.h"

#include "engine/core/status.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <chrono>

namespace Switchyard {

// Typed, located access to app.ini. Every getter takes the sections to look in, most specific
// first (`{"queue.mail", "queue"}`): the first section that has the key wins. A missing key gives
// the default; a present but invalid value gives an InvalidArgument whose message names the file,
// line, section, key, the value and what would be valid:
//   app.ini:12: [queue.mail] TYPE = "fifo" is not valid; valid values: dummy, immediate, ...
// Without a file (embedded defaults) every getter returns its default.
// Thread-safety: immutable after construction; safe to share between threads.
class Settings
{
public:
    Settings() = default; // embedded defaults
    explicit Settings(IniFile ini) : m_ini(std::move(ini)), m_fromFile(true) {}
    // Reads and parses `path`; the errors of IniFile::load.
    static Result<Settings> load(const QString &path);

    bool fromFile() const { return m_fromFile; }
    QString fileName() const { return m_ini.fileName(); }
    const IniFile &ini() const { return m_ini; }

    // Names of the sections called `prefix` + something, without the prefix ("queue." → "mail").
    QStringList subsectionNames(const QString &prefix) const;
    bool has(const QStringList &sections, const QString &key) const;

    Result<QString> string(const QStringList &sections, const QString &key, const QString &fallback) const;
    // go-ini's booleans: 1/t/true/y/yes/on and 0/f/false/n/no/off, any case.
    Result<bool> boolean(const QStringList &sections, const QString &key, bool fallback) const;
    Result<qint64> integer(const QStringList &sections, const QString &key, qint64 fallback) const;
    // Go duration syntax (see parseDuration).
    Result<std::chrono::nanoseconds> duration(const QStringList &sections, const QString &key,
                                              std::chrono::nanoseconds fallback) const;
    // Comma-separated; items trimmed, empty items dropped.
    Result<QStringList> list(const QStringList &sections, const QString &key, const QStringList &fallback) const;
    // One of `valid` (case-insensitive, returned in the spelling of `valid`); `aliases` maps other
    // accepted spellings to a valid value (e.g. "leveldb" → "level").
    Result<QString> choice(const QStringList &sections, const QString &key, const QString &fallback,
                           const QStringList &valid, const QHash<QString, QString> &aliases = {}) const;

    // "app.ini:12: [queue.mail] TYPE" for the entry that provides `key`, or "[queue] TYPE" when
    // the value is a default.
    QString location(const QStringList &sections, const QString &key) const;

private:
    struct Found
    {
        const IniEntry *entry = nullptr;
        QString section;
    };
    Found find(const QStringList &sections, const QString &key) const;
    Status invalid(const Found &found, const QString &key, const QString &why) const;

    IniFile m_ini;
    bool m_fromFile = false;
};

} // namespace Switchyard
