#pragma once

// The tray icon: Switchyard's mark with a dot in the status colour (green: nothing new; amber: a
// backlog or a reconnect; red: a failure since the window was last opened), a menu (Open, Quit),
// and the desktop notices (QSystemTrayIcon::showMessage, which reaches the freedesktop
// notification service). Clicking a notice opens the console on what it is about.
//
// Threads: GUI thread.

#include "desktopalerts.h"

#include <QSystemTrayIcon>

namespace Switchyard::Console {

class TrayIcon final : public QObject, public DesktopSink
{
    Q_OBJECT
public:
    explicit TrayIcon(QObject *parent = nullptr);

    static bool available() { return QSystemTrayIcon::isSystemTrayAvailable(); }
    void setVisible(bool visible) { m_tray.setVisible(visible); }
    bool isVisible() const { return m_tray.isVisible(); }
    void setStatus(StatusColor status);
    void show(const DesktopNotice &notice) override;
    // The picture for `status` (tests, the About dialog).
    static QIcon iconFor(StatusColor status);

Q_SIGNALS:
    void openRequested(const QString &instance, const QString &pageId, const QString &filter, const QVariant &key);
    void quitRequested();

private:
    QSystemTrayIcon m_tray;
    DesktopNotice m_last; // what a click on the latest notice opens
};

} // namespace Switchyard::Console
