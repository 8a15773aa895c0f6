#include "settingsfile.h"

#include "engine/settings/inieditor.h"
#include "engine/settings/inifile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace Switchyard::Admin {

SettingsFile::SettingsFile(QString path, QByteArray text)
    : m_path(std::move(path)), m_original(text), m_editor(std::make_unique<IniEditor>(text))
{
}

SettingsFile::SettingsFile(SettingsFile &&) noexcept = default;
SettingsFile &SettingsFile::operator=(SettingsFile &&) noexcept = default;
SettingsFile::~SettingsFile() = default;

SettingsFile SettingsFile::read(const QString &path)
{
    QFile file(path);
    return SettingsFile(path, file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray());
}

QString SettingsFile::value(const QString &section, const QString &key, const QString &fallback) const
{
    Result<IniFile> ini = IniFile::parse(m_path, m_editor->text());
    const IniSection *s = ini ? ini->section(section) : nullptr;
    const IniEntry *e = s ? s->find(key) : nullptr;
    return e ? e->value : fallback;
}

QStringList SettingsFile::keys(const QString &section) const
{
    QStringList keys;
    Result<IniFile> ini = IniFile::parse(m_path, m_editor->text());
    if (const IniSection *s = ini ? ini->section(section) : nullptr)
        for (const IniEntry &entry : s->entries)
            keys.append(entry.key);
    return keys;
}

Status SettingsFile::set(const QString &section, const QString &key, const QString &value)
{
    return m_editor->set(section, key, value);
}

void SettingsFile::remove(const QString &section, const QString &key)
{
    m_editor->remove(section, key);
}

void SettingsFile::addSection(const QString &section)
{
    m_editor->addSection(section);
}

void SettingsFile::removeSection(const QString &section)
{
    m_editor->removeSection(section);
}

QStringList SettingsFile::sections(const QString &prefix) const
{
    return m_editor->sections(prefix);
}

QByteArray SettingsFile::text() const
{
    return m_editor->text();
}

Status SettingsFile::write(bool privateFile)
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile out(m_path);
    out.setDirectWriteFallback(false);
    const QByteArray bytes = text();
    if (!out.open(QIODevice::WriteOnly))
        return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(m_path, out.errorString()));
    if (privateFile)
        out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (out.write(bytes) != bytes.size() || !out.commit())
        return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(m_path, out.errorString()));
    m_original = bytes;
    return Status::ok();
}

} // namespace Switchyard::Admin
