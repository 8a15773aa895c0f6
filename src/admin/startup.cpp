#include "startup.h"

#include "engine/core/logging.h"
#include "engine/settings/settings.h"

#include <QDir>
#include <QLockFile>
#include <QStandardPaths>

#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace Switchyard::Admin {

namespace {

// A kept secret of an event source the file no longer has is left out: a source removed from
// app.ini must stop taking events, whatever the keychain still holds. "default" always exists.
void applyKept(IniFile &ini, const std::vector<KeptSetting> &kept)
{
    for (const KeptSetting &value : kept) {
        const bool source = value.section.startsWith(QLatin1String("event_source."), Qt::CaseInsensitive);
        if (source && value.section.compare(QLatin1String("event_source.default"), Qt::CaseInsensitive) != 0 && !ini.section(value.section))
            continue;
        ini.set(value.section, value.key, value.value);
    }
}

} // namespace

Result<EngineConfig> loadEngineConfig(const QString &configPath, const QString &dataDirOverride, const std::vector<KeptSetting> &kept)
{
    Settings settings;
    if (!configPath.isEmpty()) {
        Result<Settings> loaded = Settings::load(configPath);
        if (!loaded)
            return loaded.status();
        settings = std::move(loaded).value();
    }
    if (!kept.empty()) {
        IniFile ini = settings.ini();
        applyKept(ini, kept);
        settings = Settings(std::move(ini));
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

Result<EngineConfig> loadEngineConfigText(const QString &fileName, const QByteArray &text, const QString &dataDirOverride,
                                          const std::vector<KeptSetting> &kept)
{
    Result<IniFile> parsed = IniFile::parse(fileName, text);
    if (!parsed)
        return parsed.status();
    applyKept(*parsed, kept);
    const QString defaultData =
        QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)).filePath(QStringLiteral("switchyard"));
    return EngineConfig::load(Settings(std::move(parsed).value()), dataDirOverride, defaultData);
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

int makeDataPrivate(const QString &dataPath)
{
    // Files are created 0600 and folders 0700 from now on, whatever umask the process inherited:
    // the store, its -wal/-shm, the queues and the locks hold forge data and secrets.
    ::umask(077);
    // A data directory from before this rule may be open to every user: closing the directory
    // itself keeps them out of everything in it. Group bits stay (a backup group may rely on them),
    // and files in it keep their modes (a TLS key there may be shared with its group on purpose).
    struct stat info {};
    const QByteArray name = QFile::encodeName(dataPath);
    if (::stat(name.constData(), &info) != 0 || !S_ISDIR(info.st_mode) || (info.st_mode & 007) == 0)
        return 0;
    if (::chmod(name.constData(), info.st_mode & 07770) != 0) {
        qCWarning(lcCore).noquote() << QStringLiteral("the data directory %1 is open to every user of this machine (mode %2) and "
                                                      "could not be closed: %3")
                                           .arg(dataPath)
                                           .arg(info.st_mode & 0777, 0, 8)
                                           .arg(QString::fromLocal8Bit(strerror(errno)));
        return 0;
    }
    qCInfo(lcCore).noquote() << QStringLiteral("the data directory %1 was open to every user of this machine (mode %2); now %3")
                                    .arg(dataPath)
                                    .arg(info.st_mode & 0777, 0, 8)
                                    .arg(info.st_mode & 0770, 0, 8);
    return 1;
}

Status lockDataDirectory(const QString &dataPath, QLockFile &lock)
{
    makeDataPrivate(dataPath);
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
