#include "desktopshell.h"

#include "embeddedinstance.h"
#include "instanceview.h"
#include "mainwindow.h"
#include "preferencesdialog.h"
#include "trayicon.h"

#include "pages/intakebox.h"
#include "pages/page.h"
#include "pages/overviewpage.h"

#include "admin/settingsfile.h"

namespace Switchyard::Console {

namespace {

TrayIcon *makeTray(DesktopSink *sink, QObject *parent)
{
    return sink ? nullptr : new TrayIcon(parent);
}

} // namespace

// The tray's notices when the desktop shows the icon; else (no tray, the icon switched off) the
// window's status bar, where an operator looks — a switched-on notice is never dropped.
class DesktopShell::FallbackSink final : public DesktopSink
{
public:
    FallbackSink(DesktopShell &shell) : m_shell(shell) {}
    void show(const DesktopNotice &notice) override
    {
        if (m_shell.m_tray && m_shell.m_tray->isVisible()) {
            m_shell.m_tray->show(notice);
            return;
        }
        m_shell.m_window.showAlert(notice.instance.isEmpty() ? notice.title : QStringLiteral("%1 — %2").arg(notice.title, notice.instance),
                                   notice.body);
    }

private:
    DesktopShell &m_shell;
};

DesktopShell::DesktopShell(MainWindow &window, EmbeddedInstance *embedded, DesktopSink *sink, QObject *parent)
    : QObject(parent), m_window(window), m_embedded(embedded), m_tray(makeTray(sink, this)), m_fallback(std::make_unique<FallbackSink>(*this)),
      m_alerts(sink ? *sink : *m_fallback)
{
    apply(ConsolePreferences::read());
    for (InstanceView *view : window.instances())
        watch(view);
    connect(&window, &MainWindow::instanceAdded, this, &DesktopShell::watch);
    connect(&window, &MainWindow::preferencesRequested, this, &DesktopShell::openPreferences);
    window.setHideOnClose([this] { return m_preferences.keepRunning && m_tray && m_tray->isVisible(); });
    if (m_tray) {
        connect(&m_alerts, &DesktopAlerts::statusChanged, m_tray, &TrayIcon::setStatus);
        connect(m_tray, &TrayIcon::quitRequested, &window, &MainWindow::quit);
        connect(m_tray, &TrayIcon::openRequested, this,
                [this](const QString &instance, const QString &page, const QString &filter, const QVariant &key) {
            m_window.openAt(instance, page.isEmpty() && m_window.currentPage() ? m_window.currentPage()->id() : page, filter, key);
            m_alerts.acknowledge();
        });
    }
    if (m_embedded) {
        connect(&m_embedded->server(), &EmbeddedServer::changed, this, &DesktopShell::suggestPort);
        suggestPort();
        for (const QString &problem : m_embedded->problems())
            window.showAlert(tr("Kept settings"), problem);
    }
}

DesktopShell::~DesktopShell()
{
    m_window.setHideOnClose({}); // it asks this object
}

void DesktopShell::watch(InstanceView *view)
{
    m_alerts.watch(view->backend(), view->backend().displayName());
    if (auto *overview = view->page<OverviewPage>(QStringLiteral("overview")); overview && view->isEmbedded())
        connect(overview, &OverviewPage::usePort, this, [this, overview](quint16 port) {
            if (Status moved = usePort(port); !moved)
                Q_EMIT overview->operationFailed(tr("Could not listen on port %1").arg(port), moved.message());
        });
}

void DesktopShell::apply(const ConsolePreferences &preferences)
{
    m_preferences = preferences;
    for (int i = 0; i < kAlertKinds; ++i)
        m_alerts.setEnabled(AlertKind(i), preferences.alerts[std::size_t(i)]);
    m_alerts.setBacklogThreshold(preferences.backlogThreshold);
    if (m_tray)
        m_tray->setVisible(preferences.trayIcon && TrayIcon::available());
}

// When the embedded API could not listen, the Overview offers the next free port.
void DesktopShell::suggestPort()
{
    for (InstanceView *view : m_window.instances())
        if (view->isEmbedded())
            if (auto *overview = view->page<OverviewPage>(QStringLiteral("overview")))
                overview->intake()->setSuggestedPort(m_embedded->server().isListening()
                                                         ? 0
                                                         : EmbeddedServer::freePort(quint16(m_embedded->backend().config().server.httpPort + 1)));
}

Status DesktopShell::usePort(quint16 port)
{
    if (!m_embedded)
        return Status::invalidArgument(tr("this console runs no engine of its own"));
    // Listened on first: app.ini names a port only once the API has it.
    if (Status moved = m_embedded->server().listenOn(port); !moved)
        return moved;
    Admin::SettingsFile file = Admin::SettingsFile::read(m_embedded->configPath());
    file.set(QStringLiteral("server"), QStringLiteral("HTTP_PORT"), QString::number(port));
    return file.write();
}

PreferencesDialog *DesktopShell::openPreferences()
{
    if (!m_dialog) {
        m_dialog = new PreferencesDialog(m_embedded, &m_window);
        m_dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_dialog, &PreferencesDialog::consoleChanged, this, &DesktopShell::apply);
    }
    m_dialog->show();
    m_dialog->raise();
    m_dialog->activateWindow();
    return m_dialog;
}

} // namespace Switchyard::Console
