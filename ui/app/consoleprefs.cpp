#include "consoleprefs.h"

#include <QLocale>
#include <QSettings>

namespace Switchyard::Console {

ConsolePreferences ConsolePreferences::read()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("desktop"));
    ConsolePreferences p;
    p.trayIcon = settings.value(QStringLiteral("trayIcon"), p.trayIcon).toBool();
    p.keepRunning = settings.value(QStringLiteral("keepRunning"), p.keepRunning).toBool();
    for (int i = 0; i < kAlertKinds; ++i)
        p.alerts[std::size_t(i)] = settings.value(QStringLiteral("alerts/") + DesktopAlerts::kindKey(AlertKind(i)), true).toBool();
    p.backlogThreshold = qMax<qint64>(1, settings.value(QStringLiteral("backlogThreshold"), p.backlogThreshold).toLongLong());
    p.language = settings.value(QStringLiteral("language"), p.language).toString();
    return p;
}

void ConsolePreferences::write() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("desktop"));
    settings.setValue(QStringLiteral("trayIcon"), trayIcon);
    settings.setValue(QStringLiteral("keepRunning"), keepRunning);
    for (int i = 0; i < kAlertKinds; ++i)
        settings.setValue(QStringLiteral("alerts/") + DesktopAlerts::kindKey(AlertKind(i)), alerts[std::size_t(i)]);
    settings.setValue(QStringLiteral("backlogThreshold"), backlogThreshold);
    settings.setValue(QStringLiteral("language"), language);
}

QString ConsolePreferences::catalogueLocale() const
{
    if (language == QLatin1String("en"))
        return {};
    if (language == QLatin1String("system"))
        return QLocale().name();
    return language;
}

} // namespace Switchyard::Console
