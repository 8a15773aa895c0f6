#include "testutil.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

namespace Switchyard::Test {

QString argumentValue(const QStringList &arguments, const char *name)
{
    const qsizetype at = arguments.indexOf(QLatin1String(name));
    return at >= 0 && at + 1 < arguments.size() ? arguments.at(at + 1) : QString();
}

bool waitForOutput(QProcess &process, QByteArray &output, const QByteArray &marker, int boundMs)
{
    QDeadlineTimer deadline(boundMs);
    while (!output.contains(marker)) {
        if (process.state() == QProcess::NotRunning || deadline.hasExpired()) {
            output += process.readAll();
            return output.contains(marker);
        }
        process.waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime())));
        output += process.readAll();
    }
    return true;
}

QString writeFile(const QString &dir, const QString &name, const QByteArray &content)
{
    const QString path = QDir(dir).filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
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

} // namespace Switchyard::Test
