// The keys of the sections the engine owns, each with its default and what it does: one table
// that the loader's unknown-key check, `switchyardd --sample-config` and the packaged
// /etc/switchyard/app.ini all come from, so none of them can drift from the others.
#pragma once

#include <QString>

#include <span>

namespace Switchyard {

struct SettingKey
{
    const char *section; // the owner: "queue" stands for [queue] and every [queue.<name>]
    const char *key;
    // As it would be written in app.ini; nullptr when the default is computed at start (the help
    // says how) or the key has no value unless set.
    const char *defaultValue;
    const char *help;
    bool obsolete = false; // still recognised (a warning names it) but no longer used
};

// Every key, grouped by section in the order the sample file lists them.
std::span<const SettingKey> settingKeys();

// The section a sample file writes for an owner ("event_source" → "event_source.default").
QString sampleSectionName(const char *section);

// A commented app.ini: every key that is in use, commented out, at its default, under a line that
// says what it does. Uncommenting every line that has a value gives the defaults again.
QString sampleConfig(const QString &version);

} // namespace Switchyard
