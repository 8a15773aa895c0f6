#include "testutil.h"

#include <csignal>
#include <thread>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>

namespace Switchyard::Test {

QString argumentValue(const QStringList &arguments, const char *name)
{
    const qsizetype at = arguments.indexOf(QLatin1String(name));
    return at >= 0 && at + 1 < arguments.size() ? arguments.at(at + 1) : QString();
}

void isolateSettings(const QString &dir, const QString &application)
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
    QCoreApplication::setOrganizationName(QStringLiteral("switchyard-test"));
    QCoreApplication::setApplicationName(application);
}

bool waitForOutput(ChildProcess &process, QByteArray &output, const QByteArray &marker, int boundMs)
{
    QDeadlineTimer deadline(boundMs);
    while (!output.contains(marker)) {
        if (process.finished() || deadline.hasExpired()) {
            output += process.read(0);
            return output.contains(marker);
        }
        output += process.read(int(std::min<qint64>(50, std::max<qint64>(1, deadline.remainingTime()))));
    }
    return true;
}

Ran runProgram(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment, int boundMs)
{
    ChildProcess process;
    ChildProcess::Options options;
    options.environment = environment;
    Ran ran;
    if (Status started = process.start(program, arguments, options); !started) {
        ran.output = started.message().toUtf8();
        return ran;
    }
    if (!process.waitForFinished(boundMs, &ran.output)) {
        process.kill();
        return ran;
    }
    ran.exitCode = process.crashed() ? -1 : process.exitCode();
    return ran;
}

QString writeFile(const QString &dir, const QString &name, const QByteArray &content)
{
    const QString path = QDir(dir).filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

EngineConfig configFrom(const QByteArray &ini, const QString &dataDir)
{
    Result<IniFile> parsed = IniFile::parse(QStringLiteral("app.ini"), ini);
    if (!parsed)
        qFatal("%s", qPrintable(parsed.status().message()));
    Result<EngineConfig> config = EngineConfig::load(Settings(std::move(parsed).value()), dataDir, QString());
    if (!config)
        qFatal("%s", qPrintable(config.status().message()));
    return std::move(config).value();
}

Status launchOnFreePort(quint16 &port, const std::function<Status()> &launch)
{
    Status last;
    for (int attempt = 0; attempt < 5; ++attempt) {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return Status::unavailable(QStringLiteral("no free loopback port"));
        port = probe.serverPort();
        probe.close(); // the server binds it a moment later (retried on a race)
        last = launch();
        if (last)
            return last;
    }
    return last;
}

} // namespace Switchyard::Test

namespace Switchyard::Test {

void stopProcess(qint64 pid)
{
    ::kill(pid_t(pid), SIGSTOP);
    const QString stat = QStringLiteral("/proc/%1/stat").arg(pid);
    for (int i = 0; i < 5000; ++i) {
        QFile file(stat);
        if (!file.open(QIODevice::ReadOnly))
            return;
        const QByteArray line = file.readAll();
        const qsizetype afterName = line.lastIndexOf(')'); // the name may hold spaces and parentheses
        if (afterName >= 0 && line.size() > afterName + 2 && line.at(afterName + 2) == 'T')
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1)); // the kernel's state: nothing announces it
    }
}

} // namespace Switchyard::Test
