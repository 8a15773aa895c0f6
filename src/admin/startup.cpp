#include "startup.h"

#include "engine/core/logging.h"
#include "engine/settings/settings.h"

#include <QDir>
#include <QLockFile>
#include <QStandardPaths>

#include <QFileInfo>

#include <cerrno>
#include <sys/stat.h>

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

bool makePrivateDirectory(const QString &path)
{
    if (QFileInfo(path).isDir())
        return true;
    const QString parent = QFileInfo(path).absolutePath();
    if (parent != path && !QFileInfo(parent).isDir() && !QDir().mkpath(parent))
        return false;
    // 0700 from the start (the mode is only ever narrowed by the umask).
    return ::mkdir(QFile::encodeName(path).constData(), 0700) == 0 || errno == EEXIST;
}

Status lockDataDirectory(const QString &dataPath, QLockFile &lock)
{
    if (!makePrivateDirectory(dataPath))
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
