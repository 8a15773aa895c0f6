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

// The sink used before the tray exists, or when there is none: the status bar.
TrayIcon *makeTray(DesktopSink *sink, QObject *parent)
{
    return sink ? nullptr : new TrayIcon(parent);
}

} // namespace

DesktopShell::DesktopShell(MainWindow &window, EmbeddedInstance *embedded, DesktopSink *sink, QObject *parent)
    : QObject(parent), m_window(window), m_embedded(embedded), m_tray(makeTray(sink, this)), m_alerts(sink ? *sink : *m_tray)
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
    }
}

DesktopShell::~DesktopShell() = default;

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
    Admin::SettingsFile file = Admin::SettingsFile::read(m_embedded->configPath());
    file.set(QStringLiteral("server"), QStringLiteral("HTTP_PORT"), QString::number(port));
    if (Status written = file.write(); !written)
        return written;
    m_embedded->server().listenOn(port);
    return m_embedded->server().isListening() ? Status::ok() : Status::unavailable(m_embedded->backend().endpointProblem());
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
