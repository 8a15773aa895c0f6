#include "mainwindow.h"

#include "pages/page.h"
#include "pages/tablepage.h"
#include "widgets/statuscolors.h"
#include "widgets/theme.h"

#include "aboutdialog.h"
#include "commandpalette.h"
#include "connectdialog.h"
#include "instanceview.h"
#include "secretstore.h"

#include "widgets/icons.h"
#include "widgets/sidebardelegate.h"

#include <QApplication>
#include <QEvent>
#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QShortcut>
#include <QSslCertificate>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTime>
#include <QToolButton>

namespace Switchyard::Console {

MainWindow::MainWindow(Admin::AdminBackend *embedded, QWidget *parent) : QMainWindow(parent), m_secrets(new SecretStore(this))
{
    setWindowTitle(tr("Switchyard"));
    setObjectName(QStringLiteral("mainWindow"));

    auto *central = new QWidget(this);
    auto *outer = new QHBoxLayout(central);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    m_sidebar = new QListWidget(central);
    m_sidebar->setObjectName(QStringLiteral("sidebar"));
    m_sidebar->setAccessibleName(tr("Instances and pages"));
    m_sidebar->setIconSize(QSize(22, 22));
    m_sidebar->setFixedWidth(220);
    m_sidebar->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_sidebar->setTextElideMode(Qt::ElideRight);
    m_sidebar->setFrameShape(QFrame::NoFrame);
    m_sidebar->setItemDelegate(new SidebarDelegate(m_sidebar));
    applySidebarColours();
    outer->addWidget(m_sidebar);
    m_stack = new QStackedWidget(central);
    outer->addWidget(m_stack, 1);
    setCentralWidget(central);
    connect(m_sidebar, &QListWidget::currentRowChanged, this, &MainWindow::onSidebarRow);

    // Status bar: operation · error + Details… · live indicator.
    // Both quote what a backend said (a hook's URL, a payload's title): shown as text, never markup.
    m_operation = new QLabel(this);
    m_operation->setObjectName(QStringLiteral("lastOperation"));
    m_operation->setTextFormat(Qt::PlainText);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("lastError"));
    m_error->setTextFormat(Qt::PlainText);
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, statusColor(StatusColor::Error));
    m_error->setPalette(errorPalette);
    m_details = new QToolButton(this);
    m_details->setObjectName(QStringLiteral("errorDetailsButton"));
    m_details->setText(tr("Details…"));
    m_details->setAutoRaise(true);
    m_details->setVisible(false);
    connect(m_details, &QToolButton::clicked, this, [this] {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Error details"), m_error->text(), QMessageBox::Close, this);
        box->setObjectName(QStringLiteral("errorDetails"));
        box->setTextFormat(Qt::PlainText);
        box->setDetailedText(m_errorDetail);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
    });
    m_live = new QLabel(this);
    m_live->setObjectName(QStringLiteral("liveIndicator"));
    statusBar()->addWidget(m_operation, 2);
    statusBar()->addWidget(m_error, 2);
    statusBar()->addWidget(m_details);
    statusBar()->addPermanentWidget(m_live);

    buildMenus();

    // Shortcuts: F5 refresh, Ctrl+1…9 pages of the current instance, Ctrl+F filter, Ctrl+Q quit.
    auto *refreshAction = new QAction(Icons::symbolic(QStringLiteral("view-refresh")), tr("Refresh"), this);
    refreshAction->setShortcut(QKeySequence::Refresh);
    connect(refreshAction, &QAction::triggered, this, [this] {
        if (Page *page = currentPage())
            page->refresh();
    });
    addAction(refreshAction);
    auto *filterAction = new QAction(Icons::symbolic(QStringLiteral("edit-find")), tr("Filter"), this);
    filterAction->setShortcut(QKeySequence::Find);
    connect(filterAction, &QAction::triggered, this, [this] {
        if (Page *page = currentPage())
            page->focusFilter();
    });
    addAction(filterAction);
    for (int i = 0; i < 9; ++i) {
        auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)), this);
        connect(shortcut, &QShortcut::activated, this, [this, i] {
            if (m_current && i < m_current->pages().size())
                showPage(m_current->pages().at(i)->id());
        });
    }
    // Past the ninth page (and from any page): the next and previous ones, wrapping.
    for (const auto &[key, step] : {std::pair{Qt::Key_PageDown, 1}, std::pair{Qt::Key_PageUp, -1}}) {
        auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | key), this);
        connect(shortcut, &QShortcut::activated, this, [this, step = step] {
            if (!m_current || m_current->pages().isEmpty())
                return;
            const QList<Page *> pages = m_current->pages();
            const qsizetype at = pages.indexOf(m_current->currentPage());
            showPage(pages.at((at + step + pages.size()) % pages.size())->id());
        });
    }
    auto *quit = new QShortcut(QKeySequence::Quit, this);
    connect(quit, &QShortcut::activated, this, &MainWindow::quit);

    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, [this] {
        updateLive();
        updateSidebarHealth();
    });
    m_clock.start();

    if (embedded)
        addInstance(*embedded, nullptr);
    resize(1280, 800);
    restoreSettings();
}

MainWindow::~MainWindow()
{
    // Views own remote backends and their pages; they go before the window's other parts.
    qDeleteAll(m_instances);
    m_instances.clear();
}

// ---- Instances ----------------------------------------------------------------------------------

InstanceView *MainWindow::addInstance(Admin::AdminBackend &backend, std::unique_ptr<Admin::AdminBackend> owned)
{
    auto *view = new InstanceView(backend, std::move(owned), m_stack);
    m_instances << view;
    m_stack->addWidget(view);
    for (Page *page : view->pages()) {
        connect(page, &Page::badgeChanged, this, [this, view, page](int count) { updateBadge(view, page, count); });
        connect(page, &Page::operationSucceeded, this, [this](const QString &message) { showOperation(message); });
        connect(page, &Page::operationInfo, this, [this](const QString &message) { showOperation(message); });
        connect(page, &Page::operationFailed, this,
                [this](const QString &summary, const QString &detail) { showOperation(summary, true, detail); });
        connect(page, &Page::navigate, this, [this, view](const QString &id, const QString &filter) {
            setCurrentInstance(view);
            showPage(id, filter);
        });
    }
    connect(view, &InstanceView::healthChanged, this, [this, view] {
        updateSidebarHealth();
        updateLive();
        if (view->backend().state() == Admin::AdminBackend::State::Failed)
            showOperation(tr("%1: not connected").arg(view->backend().displayName()), true, view->backend().stateMessage());
        else if (view->backend().state() == Admin::AdminBackend::State::Connected && !view->isEmbedded())
            showOperation(tr("Connected to %1%2").arg(view->backend().displayName(),
                                                      view->backend().canMutate() ? QString() : tr(" (read-only)")));
    });
    connect(&backend, &Admin::AdminBackend::closed, this, [this, view] {
        if (m_closing) {
            finishClosing();
            return;
        }
        // A remote instance the operator closed: its view goes.
        if (!view->isEmbedded()) {
            const bool wasCurrent = m_current == view;
            m_instances.removeOne(view);
            m_stack->removeWidget(view);
            view->deleteLater();
            if (wasCurrent)
                m_current = nullptr;
            rebuildSidebar();
            if (wasCurrent && !m_instances.isEmpty())
                setCurrentInstance(m_instances.first());
        }
    });
    rebuildSidebar();
    if (!m_current)
        setCurrentInstance(view);
    Q_EMIT instanceAdded(view);
    return view;
}

InstanceView *MainWindow::openRemote(const Admin::RemoteBackendOptions &options)
{
    auto backend = std::make_unique<Admin::RemoteBackend>(options);
    Admin::RemoteBackend *remote = backend.get();
    InstanceView *view = addInstance(*remote, std::move(backend));
    setCurrentInstance(view);
    // Said before starting, so whatever start() reports (even at once) comes after it.
    showOperation(tr("Connecting to %1 (%2)").arg(remote->displayName(), remote->url().toString()));
    remote->start();
    return view;
}

void MainWindow::closeInstance(InstanceView *view)
{
    if (!view || view->isEmbedded())
        return;
    view->deactivate();
    view->backend().close(tr("closed by the operator"));
}

void MainWindow::setCurrentInstance(InstanceView *view)
{
    if (!view || view == m_current)
        return;
    if (m_current)
        m_current->deactivate();
    const QString pageId = m_current && m_current->currentPage() ? m_current->currentPage()->id() : QStringLiteral("overview");
    m_current = view;
    m_stack->setCurrentWidget(view);
    showPage(pageId);
    m_closeConnection->setEnabled(!view->isEmbedded());
    setWindowTitle(tr("Switchyard — %1").arg(view->backend().displayName()));
    updateLive();
}

// ---- Sidebar ------------------------------------------------------------------------------------

void MainWindow::rebuildSidebar()
{
    m_rebuilding = true;
    m_sidebar->clear();
    int shortcut = 0;
    for (InstanceView *view : std::as_const(m_instances)) {
        // The instance's header row: its name and health dot; selecting it shows its overview.
        auto *header = new QListWidgetItem(m_sidebar);
        header->setData(InstanceRole, QVariant::fromValue<QObject *>(view));
        header->setData(PageRole, -1);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        header->setData(SidebarDelegate::BadgeRole, 0);
        const QList<Page *> pages = view->pages();
        for (int i = 0; i < pages.size(); ++i) {
            auto *item = new QListWidgetItem(pages[i]->icon(), pages[i]->title(), m_sidebar);
            item->setData(InstanceRole, QVariant::fromValue<QObject *>(view));
            item->setData(PageRole, i);
            item->setData(SidebarDelegate::BadgeRole, pages[i]->badge());
            item->setToolTip(view == m_current && ++shortcut <= 9 ? tr("%1 (Ctrl+%2)").arg(pages[i]->title()).arg(i + 1)
                                                                  : pages[i]->title());
        }
    }
    m_rebuilding = false;
    updateSidebarHealth();
    if (m_current && m_current->currentPage()) {
        const int index = int(m_current->pages().indexOf(m_current->currentPage()));
        for (int row = 0; row < m_sidebar->count(); ++row) {
            QListWidgetItem *item = m_sidebar->item(row);
            if (item->data(InstanceRole).value<QObject *>() == m_current && item->data(PageRole).toInt() == index) {
                m_sidebar->setCurrentRow(row);
                break;
            }
        }
    }
}

void MainWindow::updateSidebarHealth()
{
    for (int row = 0; row < m_sidebar->count(); ++row) {
        QListWidgetItem *item = m_sidebar->item(row);
        if (item->data(PageRole).toInt() != -1)
            continue;
        auto *view = qobject_cast<InstanceView *>(item->data(InstanceRole).value<QObject *>());
        if (!view)
            continue;
        item->setIcon(Icons::state(view->healthColor()));
        item->setText(view->backend().displayName());
        item->setToolTip(QStringLiteral("%1 — %2%3")
                             .arg(view->backend().displayName(), view->healthText(),
                                  view->backend().state() == Admin::AdminBackend::State::Failed
                                      ? QStringLiteral(": ") + view->backend().stateMessage()
                                      : QString()));
    }
}

void MainWindow::onSidebarRow(int row)
{
    if (m_rebuilding || row < 0)
        return;
    QListWidgetItem *item = m_sidebar->item(row);
    auto *view = qobject_cast<InstanceView *>(item->data(InstanceRole).value<QObject *>());
    if (!view)
        return;
    const int pageIndex = std::max(0, item->data(PageRole).toInt());
    if (view != m_current) {
        if (m_current)
            m_current->deactivate();
        m_current = view;
        m_stack->setCurrentWidget(view);
        m_closeConnection->setEnabled(!view->isEmbedded());
        setWindowTitle(tr("Switchyard — %1").arg(view->backend().displayName()));
    }
    view->setCurrentPage(view->pages().at(pageIndex));
    if (item->data(PageRole).toInt() == -1)
        showPage(view->pages().at(0)->id()); // the header row stands for the overview
    updateLive();
}

void MainWindow::updateBadge(InstanceView *view, Page *page, int count)
{
    const int index = int(view->pages().indexOf(page));
    for (int row = 0; row < m_sidebar->count(); ++row) {
        QListWidgetItem *item = m_sidebar->item(row);
        if (item->data(InstanceRole).value<QObject *>() == view && item->data(PageRole).toInt() == index)
            item->setData(SidebarDelegate::BadgeRole, count);
    }
}

// ---- Pages of the current instance --------------------------------------------------------------

void MainWindow::showPage(const QString &id, const QString &filter)
{
    if (!m_current)
        return;
    Page *page = m_current->page(id);
    if (!page)
        return;
    const int index = int(m_current->pages().indexOf(page));
    for (int row = 0; row < m_sidebar->count(); ++row) {
        QListWidgetItem *item = m_sidebar->item(row);
        if (item->data(InstanceRole).value<QObject *>() == m_current && item->data(PageRole).toInt() == index) {
            if (m_sidebar->currentRow() == row)
                m_current->setCurrentPage(page);
            else
                m_sidebar->setCurrentRow(row);
            break;
        }
    }
    page->setFilterText(filter);
}

Page *MainWindow::pageOf(const QString &id) const
{
    return m_current ? m_current->page(id) : nullptr;
}

Page *MainWindow::currentPage() const
{
    return m_current ? m_current->currentPage() : nullptr;
}

QList<Page *> MainWindow::pages() const
{
    return m_current ? m_current->pages() : QList<Page *>();
}


QString MainWindow::lastOperation() const
{
    return m_operation->text();
}

QString MainWindow::lastError() const
{
    return m_error->text();
}

void MainWindow::refreshAll()
{
    if (m_current)
        m_current->refreshAll();
}

void MainWindow::showOperation(const QString &message, bool error, const QString &detail)
{
    const QString stamped = QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), message);
    m_history << stamped;
    if (m_history.size() > 100)
        m_history.removeFirst();
    m_operation->setToolTip(m_history.mid(std::max<qsizetype>(0, m_history.size() - 15)).join(u'\n'));
    if (error) {
        m_error->setText(stamped);
        m_errorDetail = detail;
        m_details->setVisible(!detail.isEmpty());
    } else {
        m_operation->setText(stamped);
    }
}

void MainWindow::updateLive()
{
    m_live->setText(m_current ? m_current->liveText() : tr("○ not live"));
}

// ---- Connections --------------------------------------------------------------------------------

// The sidebar a shade off the window, whichever theme is in use (and when it changes).
void MainWindow::applySidebarColours()
{
    QPalette sidebar = QApplication::palette();
    const QColor window = sidebar.color(QPalette::Window);
    sidebar.setColor(QPalette::Base, isDark(sidebar) ? window.lighter(115) : window.darker(106));
    m_sidebar->setPalette(sidebar);
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_sidebar)
        applySidebarColours();
}

void MainWindow::buildMenus()
{
    QMenu *menu = menuBar()->addMenu(tr("&Connection"));
    QAction *connectAction = menu->addAction(tr("&Connect to an instance…"), this, [this] { connectDialog(); });
    connectAction->setObjectName(QStringLiteral("connectAction"));
    connectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_savedMenu = menu->addMenu(tr("&Saved instances"));
    m_savedMenu->setObjectName(QStringLiteral("savedMenu"));
    m_closeConnection = menu->addAction(tr("C&lose this connection"), this, [this] { closeInstance(m_current); });
    m_closeConnection->setObjectName(QStringLiteral("closeConnectionAction"));
    m_closeConnection->setEnabled(false);
    menu->addSeparator();
    QAction *preferences = menu->addAction(tr("&Preferences…"), this, &MainWindow::preferencesRequested);
    preferences->setObjectName(QStringLiteral("preferencesAction"));
    preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    menu->addSeparator();
    QAction *quitAction = menu->addAction(tr("&Quit"), this, &MainWindow::quit);
    quitAction->setObjectName(QStringLiteral("quitAction"));
    rebuildSavedMenu();

    // View ▸ Theme: the desktop's colour scheme, or light or dark whatever it is; remembered.
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QMenu *theme = view->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("themeMenu"));
    auto *group = new QActionGroup(this);
    for (const auto &[choice, label] : {std::pair{Theme::Choice::System, tr("&System")}, std::pair{Theme::Choice::Light, tr("&Light")},
                                        std::pair{Theme::Choice::Dark, tr("&Dark")}}) {
        QAction *action = theme->addAction(label);
        action->setObjectName(QStringLiteral("theme-") + Theme::name(choice));
        action->setCheckable(true);
        action->setChecked(Theme::current() == choice);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [choice = choice] {
            Theme::apply(choice);
            QSettings().setValue(QStringLiteral("theme"), Theme::name(choice));
        });
    }

    // View ▸ Command palette (Ctrl+K) and Help ▸ About: app/commandpalette.h, app/aboutdialog.h.
    QAction *palette = view->addAction(tr("&Command palette…"), this, [this] { CommandPalette::showFor(*this); });
    palette->setObjectName(QStringLiteral("commandPaletteAction"));
    palette->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    QAction *about = menuBar()->addMenu(tr("&Help"))->addAction(tr("&About Switchyard"), this, [this] {
        auto *dialog = new AboutDialog(m_current ? &m_current->backend() : nullptr, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    about->setObjectName(QStringLiteral("aboutAction"));
}

QStringList MainWindow::savedInstances() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("connections"));
    return settings.childGroups();
}

void MainWindow::rebuildSavedMenu()
{
    m_savedMenu->clear();
    const QStringList names = savedInstances();
    for (const QString &name : names) {
        QMenu *entry = m_savedMenu->addMenu(name);
        entry->addAction(tr("Open"), this, [this, name] { openSaved(name); });
        entry->addAction(tr("Forget"), this, [this, name] { forgetConnection(name); });
    }
    if (names.isEmpty())
        m_savedMenu->addAction(tr("(none yet)"))->setEnabled(false);
}

void MainWindow::connectDialog(const Admin::RemoteBackendOptions &prefill)
{
    auto *dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!prefill.url.isEmpty())
        dialog->setUrl(prefill.url.toString());
    if (!prefill.name.isEmpty())
        dialog->setName(prefill.name);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        Admin::RemoteBackendOptions options;
        options.name = dialog->name();
        options.url = dialog->url();
        options.token = dialog->token();
        if (!dialog->caFile().isEmpty()) {
            QFile pem(dialog->caFile());
            if (pem.open(QIODevice::ReadOnly))
                options.caCertificates = QSslCertificate::fromData(pem.readAll(), QSsl::Pem);
        }
        if (dialog->remember())
            rememberConnection(options, dialog->caFile());
        openRemote(options);
    });
    dialog->open();
}

void MainWindow::rememberConnection(const Admin::RemoteBackendOptions &options, const QString &caFile)
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("connections"));
    settings.beginGroup(options.name);
    settings.setValue(QStringLiteral("url"), options.url.toString());
    settings.setValue(QStringLiteral("caFile"), caFile);
    settings.endGroup();
    settings.endGroup();
    rebuildSavedMenu();
    // The token never goes to the settings file: the keychain, or this session's memory.
    m_secrets->write(options.name, options.token, this, [this, name = options.name, token = options.token](Status stored) {
        if (stored) {
            m_sessionTokens.remove(name);
            showOperation(tr("Saved %1; its token is in the system keychain").arg(name));
            return;
        }
        m_sessionTokens.insert(name, token);
        showOperation(tr("Saved %1, but %2: its token is kept for this session only and will be asked for next time")
                          .arg(name, stored.message()));
    });
}

void MainWindow::forgetConnection(const QString &name)
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("connections"));
    settings.remove(name);
    settings.endGroup();
    m_sessionTokens.remove(name);
    m_secrets->remove(name);
    rebuildSavedMenu();
    showOperation(tr("Forgot %1").arg(name));
}

void MainWindow::openSaved(const QString &name)
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("connections"));
    settings.beginGroup(name);
    Admin::RemoteBackendOptions options;
    options.name = name;
    options.url = QUrl(settings.value(QStringLiteral("url")).toString());
    const QString caFile = settings.value(QStringLiteral("caFile")).toString();
    if (!caFile.isEmpty()) {
        QFile pem(caFile);
        if (pem.open(QIODevice::ReadOnly))
            options.caCertificates = QSslCertificate::fromData(pem.readAll(), QSsl::Pem);
    }
    if (m_sessionTokens.contains(name)) {
        options.token = m_sessionTokens.value(name);
        openRemote(options);
        return;
    }
    m_secrets->read(name, this, [this, options, caFile](Result<QByteArray> token) mutable {
        if (token) {
            options.token = *token;
            openRemote(options);
            return;
        }
        // No token to be had (no keychain service, or none stored): ask for it.
        showOperation(tr("%1: %2").arg(options.name, token.status().message()));
        auto *dialog = new ConnectDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setName(options.name);
        dialog->setUrl(options.url.toString());
        dialog->setCaFile(caFile);
        connect(dialog, &QDialog::accepted, this, [this, dialog, options]() mutable {
            options.token = dialog->token();
            if (dialog->remember())
                rememberConnection(options, dialog->caFile());
            openRemote(options);
        });
        dialog->open();
    });
}

// ---- Settings and closing -----------------------------------------------------------------------

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    if (Page *page = currentPage())
        settings.setValue(QStringLiteral("window/page"), page->id());
    settings.beginGroup(QStringLiteral("pages"));
    if (m_current)
        for (Page *page : m_current->pages())
            page->saveState(settings);
    settings.endGroup();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    settings.beginGroup(QStringLiteral("pages"));
    for (InstanceView *view : std::as_const(m_instances))
        for (Page *page : view->pages())
            page->restoreState(settings);
    settings.endGroup();
    showPage(settings.value(QStringLiteral("window/page"), QStringLiteral("overview")).toString());
}

void MainWindow::finishClosing()
{
    for (InstanceView *view : std::as_const(m_instances))
        if (view->backend().state() != Admin::AdminBackend::State::Closed)
            return;
    m_closed = true;
    close();
}

void MainWindow::quit()
{
    m_quitRequested = true;
    close();
}

void MainWindow::openAt(const QString &instance, const QString &pageId, const QString &filter, const QVariant &key)
{
    for (InstanceView *view : std::as_const(m_instances))
        if (view->backend().displayName() == instance)
            setCurrentInstance(view);
    showPage(pageId, filter);
    if (auto *table = qobject_cast<TablePage *>(currentPage()); table && key.isValid())
        table->selectKeyWhenListed(key);
    showNormal();
    raise();
    activateWindow();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Closing the window with "keep running in the tray": the engine keeps taking events; Quit
    // (the menu, Ctrl+Q, the tray's menu, a signal) still stops it.
    if (!m_quitRequested && !m_closing && m_hideOnClose && m_hideOnClose()) {
        saveSettings();
        hide();
        event->ignore();
        showOperation(tr("Still running in the tray; Quit stops the engine"));
        return;
    }
    const bool allClosed = std::all_of(m_instances.begin(), m_instances.end(), [](InstanceView *view) {
        return view->backend().state() == Admin::AdminBackend::State::Closed;
    });
    if (m_closed || allClosed) {
        event->accept();
        Q_EMIT closedForGood();
        return;
    }
    // Close every backend first (a flush in progress is cancelled, the embedded engine shuts down
    // as on SIGTERM); the window closes when the last closed() arrives.
    event->ignore();
    if (!m_closing) {
        m_closing = true;
        saveSettings();
        for (InstanceView *view : std::as_const(m_instances)) {
            view->deactivate();
            view->backend().close(tr("console window closed"));
        }
        showOperation(tr("Shutting down…"));
    }
}

} // namespace Switchyard::Console
