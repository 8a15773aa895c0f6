#pragma once

// What the daemon and the console's embedded mode do before the engine starts, written once:
// read the settings (--config, --data-dir) and claim the data directory.

#include "engine/core/status.h"
#include "engine/settings/config.h"

#include <vector>

class QLockFile;

namespace Switchyard::Admin {

// Loads `configPath` (empty: the embedded defaults) and validates it; the data path is
// `dataDirOverride` when given, else [server] APP_DATA_PATH, else the user's data directory
// (~/.local/share/switchyard). The
// error lists every problem (file, line, key, valid values). Warnings are logged.
//
// `kept`: values held outside the file (the console's keychain: event source secrets, the mail
// password), set over the file's before it is validated.
struct KeptSetting
{
    QString section; // "event_source.default"
    QString key;     // "SECRET"
    QString value;
};
Result<EngineConfig> loadEngineConfig(const QString &configPath, const QString &dataDirOverride,
                                      const std::vector<KeptSetting> &kept = {});

// The same for settings not yet written: `text` as the file `fileName` would hold it (the
// Preferences dialog checks what it is about to write; nothing is logged).
Result<EngineConfig> loadEngineConfigText(const QString &fileName, const QByteArray &text, const QString &dataDirOverride,
                                          const std::vector<KeptSetting> &kept = {});

// Creates the directory `path` with mode 0700 when it is missing (parents as QDir::mkpath does).
bool makePrivateDirectory(const QString &path);

// Sets the umask to 077 for the rest of the process, and closes an existing data directory that
// every user may enter (its "other" bits); 1 when it did, else 0.
int makeDataPrivate(const QString &dataPath);
// makeDataPrivate, then creates the data directory (0700) and takes its lock. One engine per data
// directory: queues and the store are not safe to share between processes. `lock` must stay alive
// as long as the engine runs. Unavailable names the other holder.
Status lockDataDirectory(const QString &dataPath, QLockFile &lock);

} // namespace Switchyard::Admin
