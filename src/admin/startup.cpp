#include "startup.h"

#include "engine/core/logging.h"
#include "engine/settings/settings.h"

#include <QDir>
#include <QLockFile>
#include <QStandardPaths>

namespace Switchyard::Admin {

Result<EngineConfig> loadEngineConfig(const QString &configPath, const QString &dataDirOverride)
{
    Settings settings;
    if (!configPath.isEmpty()) {
        Result<Settings> loaded = Settings::load(configPath);
        if (!loaded)
            return loaded.status();
        settings = std::move(loaded).value();
    }
    // ~/.local/share/switchyard for the daemon and the console alike, whatever organisation name
    // the program sets for its own settings.
    const QString defaultData =
        QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)).filePath(QStringLiteral("switchyard"));
    Result<EngineConfig> loaded = EngineConfig::load(std::move(settings), dataDirOverride, defaultData);
    if (!loaded)
        return Status(loaded.status().code(), QStringLiteral("refusing to start; fix these settings:\n") + loaded.status().message());
    for (const QString &warning : loaded->warnings())
        qCWarning(lcSettings).noquote() << warning;
    return loaded;
}

Status lockDataDirectory(const QString &dataPath, QLockFile &lock)
{
    if (!QDir().mkpath(dataPath))
        return Status::unavailable(QStringLiteral("cannot create the data directory %1").arg(dataPath));
    lock.setStaleLockTime(0);
    if (!lock.tryLock(0)) {
        qint64 pid = 0;
        QString host, appName;
        lock.getLockInfo(&pid, &host, &appName);
        return Status::unavailable(QStringLiteral("the data directory %1 is in use by another Switchyard process (pid %2 on %3)")
                                       .arg(dataPath)
                                       .arg(pid)
                                       .arg(host.isEmpty() ? QStringLiteral("this host") : host));
    }
    return Status::ok();
}

} // namespace Switchyard::Admin
