#include "settings.h"

#include "duration.h"

namespace Switchyard {

Result<Settings> Settings::load(const QString &path)
{
    Result<IniFile> ini = IniFile::load(path);
    if (!ini)
        return ini.status();
    return Settings(std::move(ini).value());
}

QStringList Settings::subsectionNames(const QString &prefix) const
{
    QStringList names;
    const QString lowered = prefix.toLower();
    for (const IniSection &section : m_ini.sections()) {
        if (section.name.startsWith(lowered) && section.name.size() > lowered.size())
            names.append(section.name.mid(lowered.size()));
    }
    return names;
}

Settings::Found Settings::find(const QStringList &sections, const QString &key) const
{
    for (const QString &name : sections) {
        if (const IniSection *section = m_ini.section(name)) {
            if (const IniEntry *entry = section->find(key))
                return Found{entry, section->name};
        }
    }
    return {};
}

bool Settings::has(const QStringList &sections, const QString &key) const
{
    return find(sections, key).entry != nullptr;
}

QString Settings::location(const QStringList &sections, const QString &key) const
{
    const Found found = find(sections, key);
    if (!found.entry)
        return QStringLiteral("[%1] %2").arg(sections.value(0), key);
    if (found.entry->line == 0) // set after reading (IniFile::set): the console's keychain
        return QStringLiteral("[%1] %2 (from the keychain)").arg(found.section, key);
    return QStringLiteral("%1:%2: [%3] %4").arg(m_ini.fileName()).arg(found.entry->line).arg(found.section, key);
}

Status Settings::invalid(const Found &found, const QString &key, const QString &why) const
{
    if (found.entry->line == 0)
        return Status::invalidArgument(QStringLiteral("[%1] %2 from the keychain is not valid; %3").arg(found.section, key, why));
    return Status::invalidArgument(QStringLiteral("%1:%2: [%3] %4 = \"%5\" is not valid; %6")
                                       .arg(m_ini.fileName())
                                       .arg(found.entry->line)
                                       .arg(found.section, key, found.entry->value, why));
}

Result<QString> Settings::string(const QStringList &sections, const QString &key, const QString &fallback) const
{
    const Found found = find(sections, key);
    return found.entry ? found.entry->value : fallback;
}

Result<bool> Settings::boolean(const QStringList &sections, const QString &key, bool fallback) const
{
    const Found found = find(sections, key);
    if (!found.entry)
        return fallback;
    static const QStringList truths{QStringLiteral("1"), QStringLiteral("t"), QStringLiteral("true"),
                                    QStringLiteral("y"), QStringLiteral("yes"), QStringLiteral("on")};
    static const QStringList falsehoods{QStringLiteral("0"), QStringLiteral("f"), QStringLiteral("false"),
                                        QStringLiteral("n"), QStringLiteral("no"), QStringLiteral("off")};
    const QString value = found.entry->value.trimmed().toLower();
    if (truths.contains(value))
        return true;
    if (falsehoods.contains(value))
        return false;
    return invalid(found, key, QStringLiteral("expected a boolean: true or false (also 1/0, yes/no, on/off)"));
}

Result<qint64> Settings::integer(const QStringList &sections, const QString &key, qint64 fallback) const
{
    const Found found = find(sections, key);
    if (!found.entry)
        return fallback;
    bool ok = false;
    const qint64 value = found.entry->value.trimmed().toLongLong(&ok, 10);
    if (!ok)
        return invalid(found, key, QStringLiteral("expected a whole number"));
    return value;
}

Result<std::chrono::nanoseconds> Settings::duration(const QStringList &sections, const QString &key,
                                                    std::chrono::nanoseconds fallback) const
{
    const Found found = find(sections, key);
    if (!found.entry)
        return fallback;
    Result<std::chrono::nanoseconds> parsed = parseDuration(found.entry->value);
    if (!parsed)
        return invalid(found, key, parsed.status().message() + QStringLiteral(" (examples: 250ms, 30s, 16h, 1h30m)"));
    return parsed;
}

Result<QStringList> Settings::list(const QStringList &sections, const QString &key, const QStringList &fallback) const
{
    const Found found = find(sections, key);
    if (!found.entry)
        return fallback;
    QStringList items;
    for (const QString &item : found.entry->value.split(QLatin1Char(','))) {
        const QString trimmed = item.trimmed();
        if (!trimmed.isEmpty())
            items.append(trimmed);
    }
    return items;
}

Result<QString> Settings::choice(const QStringList &sections, const QString &key, const QString &fallback,
                                 const QStringList &valid, const QHash<QString, QString> &aliases) const
{
    const Found found = find(sections, key);
    if (!found.entry)
        return fallback;
    const QString value = found.entry->value.trimmed();
    for (const QString &candidate : valid) {
        if (candidate.compare(value, Qt::CaseInsensitive) == 0)
            return candidate;
    }
    for (auto it = aliases.cbegin(); it != aliases.cend(); ++it) {
        if (it.key().compare(value, Qt::CaseInsensitive) == 0)
            return it.value();
    }
    QString why = QStringLiteral("valid values: ") + valid.join(QStringLiteral(", "));
    if (!aliases.isEmpty()) {
        QStringList names = aliases.keys();
        names.sort();
        why += QStringLiteral(" (also accepted: ") + names.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    return invalid(found, key, why);
}

} // namespace Switchyard
