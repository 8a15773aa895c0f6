#pragma once

// The desktop around the main window: the tray icon and the desktop notices (DesktopAlerts over
// every instance's stream), "keep running in the tray", the Preferences dialog, and the embedded
// API's port when another program holds it (the Overview's "Use port N": the API moves, app.ini
// remembers it). main.cpp makes one; the tests make one with their own sink.
//
// Threads: GUI thread.

#include "consoleprefs.h"
#include "desktopalerts.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace Switchyard::Console {

class EmbeddedInstance;
class InstanceView;
class MainWindow;
class PreferencesDialog;
class TrayIcon;

class DesktopShell final : public QObject
{
    Q_OBJECT
public:
    // `embedded` may be null (--connect only). `sink`: where notices go; null: the tray icon.
    DesktopShell(MainWindow &window, EmbeddedInstance *embedded, DesktopSink *sink = nullptr, QObject *parent = nullptr);
    ~DesktopShell() override;

    DesktopAlerts &alerts() { return m_alerts; }
    TrayIcon *tray() const { return m_tray; } // null when the desktop has no tray, or with a test sink
    PreferencesDialog *openPreferences();
    void apply(const ConsolePreferences &preferences);
    // The Overview's "Use port N": the API listens there now and app.ini says so from now on.
    Status usePort(quint16 port);

private:
    class FallbackSink;
    void watch(InstanceView *view);
    void suggestPort();

    MainWindow &m_window;
    EmbeddedInstance *m_embedded;
    TrayIcon *m_tray = nullptr;
    std::unique_ptr<FallbackSink> m_fallback;
    DesktopAlerts m_alerts;
    ConsolePreferences m_preferences;
    QPointer<PreferencesDialog> m_dialog;
};

} // namespace Switchyard::Console
