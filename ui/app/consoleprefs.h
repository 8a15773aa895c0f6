#pragma once

// The console's own preferences (not the engine's): kept in the console's QSettings under
// "desktop/", read at start and written by the Preferences dialog.
//
// Threads: a value type; read() and write() on the GUI thread (QSettings of the application).

#include "desktopalerts.h"

#include <QString>

#include <array>

namespace Switchyard::Console {

struct ConsolePreferences
{
    bool trayIcon = true;     // show the tray icon (when the desktop has a tray)
    bool keepRunning = false; // closing the window leaves the engine running in the tray
    std::array<bool, kAlertKinds> alerts{true, true, true, true, true};
    qint64 backlogThreshold = 1000; // items waiting in one queue before the desktop is told
    QString language = QStringLiteral("system"); // "system", "en", "zh_CN"

    static ConsolePreferences read();
    void write() const;
    // The catalogue to load: "" for English, else the locale name ("zh_CN").
    QString catalogueLocale() const;
};

} // namespace Switchyard::Console
