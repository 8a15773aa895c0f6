#pragma once

// An app.ini (or another file in its dialect) to read and edit the way a person would: comments,
// order and every untouched key stay (IniEditor). For the console, which may not reach the
// engine's settings classes itself (cmake/CheckLayering.cmake): its Preferences, the port it
// remembers, the values it keeps outside app.ini.
//
// Not thread-safe: one object per edit.

#include "engine/core/status.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>

namespace Switchyard {
class IniEditor;
}

namespace Switchyard::Admin {

class SettingsFile
{
public:
    // The file at `path`; a missing one reads as empty (written when saved).
    static SettingsFile read(const QString &path);
    SettingsFile(SettingsFile &&) noexcept;
    SettingsFile &operator=(SettingsFile &&) noexcept;
    ~SettingsFile();

    QString path() const { return m_path; }
    // The value as the edited text has it (unquoted), else `fallback`.
    QString value(const QString &section, const QString &key, const QString &fallback = {}) const;
    // The keys of `section`, as written.
    QStringList keys(const QString &section) const;
    Status set(const QString &section, const QString &key, const QString &value);
    void remove(const QString &section, const QString &key);
    void addSection(const QString &section);
    void removeSection(const QString &section);
    QStringList sections(const QString &prefix) const;

    QByteArray original() const { return m_original; }
    QByteArray text() const;
    bool changed() const { return text() != m_original; }
    // Atomically (a temporary file renamed over it), creating the folder; `privateFile`: mode 0600.
    Status write(bool privateFile = false);

private:
    SettingsFile(QString path, QByteArray text);

    QString m_path;
    QByteArray m_original;
    std::unique_ptr<IniEditor> m_editor;
};

} // namespace Switchyard::Admin
