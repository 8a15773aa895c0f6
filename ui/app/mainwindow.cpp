#include "mainwindow.h"

#include "pages/cachepage.h"
#include "pages/cronpage.h"
#include "pages/lockspage.h"
#include "pages/noticespage.h"
#include "pages/overviewpage.h"
#include "pages/processespage.h"
#include "pages/queuespage.h"
#include "widgets/format.h"
#include "widgets/icons.h"
#include "widgets/sidebardelegate.h"

#include <QAction>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace Switchyard::Console {

MainWindow::MainWindow(Admin::AdminBackend &backend, QWidget *parent) : QMainWindow(parent), m_backend(backend)
{
    setWindowTitle(tr("Switchyard"));
    setObjectName(QStringLiteral("mainWindow"));

    auto *central = new QWidget(this);
    auto *outer = new QHBoxLayout(central);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);

    m_sidebar = new QListWidget(central);
    m_sidebar->setObjectName(QStringLiteral("sidebar"));
    m_sidebar->setAccessibleName(tr("Pages"));
    m_sidebar->setIconSize(QSize(22, 22));
    m_sidebar->setFixedWidth(190);
    m_sidebar->setFrameShape(QFrame::NoFrame);
    m_sidebar->setItemDelegate(new SidebarDelegate(m_sidebar));
    m_sidebar->setUniformItemSizes(true);
    QPalette sidebarPalette = m_sidebar->palette();
    sidebarPalette.setColor(QPalette::Base, sidebarPalette.color(QPalette::Window).darker(106));
    m_sidebar->setPalette(sidebarPalette);
    outer->addWidget(m_sidebar);

    auto *right = new QVBoxLayout;
    right->setContentsMargins(0, 0, 0, 0);
    right->setSpacing(0);
    m_header = new QLabel(central);
    m_header->setObjectName(QStringLiteral("instanceHeader"));
    m_header->setTextFormat(Qt::RichText);
    m_header->setContentsMargins(12, 8, 12, 8);
    m_header->setAutoFillBackground(true);
    QPalette headerPalette = m_header->palette();
    headerPalette.setColor(QPalette::Window, QColor(0x26, 0x32, 0x38));
    headerPalette.setColor(QPalette::WindowText, QColor(0xec, 0xef, 0xf1));
    m_header->setPalette(headerPalette);
    right->addWidget(m_header);
    m_stack = new QStackedWidget(central);
    right->addWidget(m_stack, 1);
    outer->addLayout(right, 1);
    setCentralWidget(central);

    m_overview = new OverviewPage(backend, this);
    m_queues = new QueuesPage(backend, this);
    m_cron = new CronPage(backend, this);
    m_locks = new LocksPage(backend, this);
    m_cache = new CachePage(backend, this);
    m_processes = new ProcessesPage(backend, this);
    m_notices = new NoticesPage(backend, this);
    for (Page *page : std::initializer_list<Page *>{m_overview, m_queues, m_cron, m_locks, m_cache, m_processes, m_notices})
        addPage(page);
    connect(m_overview, &OverviewPage::instanceChanged, this, [this](const Admin::InstanceInfo &info) {
        m_instance = info;
        m_locks->setLocalInstance(info.instanceId);
        updateHeader();
    });

    connect(m_sidebar, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= m_pages.size())
            return;
        for (Page *page : std::as_const(m_pages))
            if (page != m_pages[row] && page->isActive())
                page->setActive(false);
        m_stack->setCurrentWidget(m_pages[row]);
        m_pages[row]->setActive(true);
    });

    // Status bar: operation · error + Details… · live indicator.
    m_operation = new QLabel(this);
    m_operation->setObjectName(QStringLiteral("lastOperation"));
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("lastError"));
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_error->setPalette(errorPalette);
    m_details = new QToolButton(this);
    m_details->setObjectName(QStringLiteral("errorDetailsButton"));
    m_details->setText(tr("Details…"));
    m_details->setAutoRaise(true);
    m_details->setVisible(false);
    connect(m_details, &QToolButton::clicked, this, [this] {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Error details"), m_error->text(), QMessageBox::Close, this);
        box->setObjectName(QStringLiteral("errorDetails"));
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

    connect(&backend, &Admin::AdminBackend::stateChanged, this, &MainWindow::onStateChanged);
    connect(&backend, &Admin::AdminBackend::event, this, [this](const Admin::AdminEvent &event) {
        if (event.type == Admin::AdminEvent::Type::QueueStats)
            m_lastEvent = QDateTime::currentDateTimeUtc();
    });
    connect(&backend, &Admin::AdminBackend::closed, this, [this] {
        m_closed = true;
        close();
    });

    // Shortcuts: F5 refresh, Ctrl+1…9 pages, Ctrl+F filter, Ctrl+Q quit.
    auto *refreshAction = new QAction(tr("Refresh"), this);
    refreshAction->setShortcut(QKeySequence::Refresh);
    connect(refreshAction, &QAction::triggered, this, [this] {
        if (Page *page = currentPage())
            page->refresh();
    });
    addAction(refreshAction);
    auto *filterAction = new QAction(tr("Filter"), this);
    filterAction->setShortcut(QKeySequence::Find);
    connect(filterAction, &QAction::triggered, this, [this] {
        if (Page *page = currentPage())
            page->focusFilter();
    });
    addAction(filterAction);
    for (int i = 0; i < m_pages.size() && i < 9; ++i) {
        auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)), this);
        connect(shortcut, &QShortcut::activated, this, [this, i] { m_sidebar->setCurrentRow(i); });
    }
    auto *quit = new QShortcut(QKeySequence::Quit, this);
    connect(quit, &QShortcut::activated, this, &QWidget::close);

    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, [this] {
        updateHeader();
        updateLive();
    });
    m_clock.start();

    resize(1280, 800);
    restoreSettings();
    onStateChanged(backend.state(), backend.stateMessage());
}

MainWindow::~MainWindow() = default;

void MainWindow::addPage(Page *page)
{
    m_pages << page;
    m_stack->addWidget(page);
    auto *item = new QListWidgetItem(page->icon(), page->title(), m_sidebar);
    item->setData(SidebarDelegate::BadgeRole, 0);
    item->setToolTip(tr("%1 (Ctrl+%2)").arg(page->title()).arg(m_pages.size()));
    connect(page, &Page::badgeChanged, this, [this, page](int count) { updateBadge(page, count); });
    connect(page, &Page::operationSucceeded, this, [this](const QString &message) { showOperation(message); });
    connect(page, &Page::operationInfo, this, [this](const QString &message) { showOperation(message); });
    connect(page, &Page::operationFailed, this,
            [this](const QString &summary, const QString &detail) { showOperation(summary, true, detail); });
    connect(page, &Page::navigate, this, [this](const QString &id, const QString &filter) { showPage(id, filter); });
}

void MainWindow::updateBadge(Page *page, int count)
{
    const int row = int(m_pages.indexOf(page));
    if (QListWidgetItem *item = m_sidebar->item(row))
        item->setData(SidebarDelegate::BadgeRole, count);
}

Page *MainWindow::currentPage() const
{
    return qobject_cast<Page *>(m_stack->currentWidget());
}

void MainWindow::showPage(const QString &id, const QString &filter)
{
    for (int i = 0; i < m_pages.size(); ++i) {
        if (m_pages[i]->id() == id) {
            m_sidebar->setCurrentRow(i);
            m_pages[i]->setFilterText(filter);
            return;
        }
    }
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
    for (Page *page : std::as_const(m_pages))
        page->refresh();
}

void MainWindow::onStateChanged(Admin::AdminBackend::State state, const QString &message)
{
    using State = Admin::AdminBackend::State;
    if (state == State::Connected) {
        m_stack->setEnabled(true);
        refreshAll();
    } else if (state == State::Failed) {
        showOperation(tr("Not connected"), true, message);
        m_error->setText(message);
    } else if (state == State::Closing) {
        m_stack->setEnabled(false);
        for (Page *page : std::as_const(m_pages))
            page->setActive(false); // no more reads: the backend refuses them while closing
        showOperation(tr("Shutting down the engine…"));
    }
    updateHeader();
    updateLive();
}

void MainWindow::showOperation(const QString &message, bool error, const QString &detail)
{
    const QString stamped = QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), message);
    if (error) {
        m_error->setText(stamped);
        m_errorDetail = detail;
        m_details->setVisible(!detail.isEmpty());
    } else {
        m_operation->setText(stamped);
    }
}

void MainWindow::updateHeader()
{
    using State = Admin::AdminBackend::State;
    QString state;
    QString color;
    switch (m_backend.state()) {
        case State::Connecting: state = tr("starting…"); color = QStringLiteral("#ffb74d"); break;
        case State::Connected: state = tr("connected"); color = QStringLiteral("#81c784"); break;
        case State::Failed: state = tr("not connected"); color = QStringLiteral("#e57373"); break;
        case State::Closing: state = tr("shutting down…"); color = QStringLiteral("#ffb74d"); break;
        case State::Closed: state = tr("closed"); color = QStringLiteral("#b0bec5"); break;
    }
    QString text = QStringLiteral("<span style='color:%1'>●</span> <b>%2</b>").arg(color, m_backend.displayName().toHtmlEscaped());
    if (!m_instance.instanceId.isEmpty()) {
        const qint64 uptime = m_instance.startedAt.msecsTo(QDateTime::currentDateTimeUtc());
        const QString common = m_instance.queueTypes.value(QStringLiteral("common"));
        text += tr(" &nbsp;·&nbsp; %1 &nbsp;·&nbsp; v%2 &nbsp;·&nbsp; up %3 &nbsp;·&nbsp; queues %4 · cache %5 · locks %6")
                    .arg(m_instance.instanceId.toHtmlEscaped(), m_instance.version, formatDuration((uptime / 1000) * 1000),
                         common, m_instance.cacheAdapter, m_instance.lockService);
    }
    text += QStringLiteral(" &nbsp;·&nbsp; %1").arg(state);
    if (m_backend.state() == State::Failed)
        text += QStringLiteral(": %1").arg(m_backend.stateMessage().toHtmlEscaped());
    m_header->setText(text);
    setWindowTitle(m_instance.instanceId.isEmpty() ? tr("Switchyard") : tr("Switchyard — %1").arg(m_instance.instanceId));
}

void MainWindow::updateLive()
{
    if (m_backend.state() != Admin::AdminBackend::State::Connected) {
        m_live->setText(tr("○ not live"));
        return;
    }
    if (!m_lastEvent.isValid()) {
        m_live->setText(tr("○ waiting for updates"));
        return;
    }
    const qint64 age = m_lastEvent.msecsTo(QDateTime::currentDateTimeUtc());
    m_live->setText(age < 3000 ? tr("● live") : tr("◌ stale since %1").arg(m_lastEvent.toLocalTime().toString(QStringLiteral("HH:mm:ss"))));
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    if (Page *page = currentPage())
        settings.setValue(QStringLiteral("window/page"), page->id());
    settings.beginGroup(QStringLiteral("pages"));
    for (Page *page : m_pages)
        page->saveState(settings);
    settings.endGroup();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    settings.beginGroup(QStringLiteral("pages"));
    for (Page *page : std::as_const(m_pages))
        page->restoreState(settings);
    settings.endGroup();
    const QString last = settings.value(QStringLiteral("window/page"), QStringLiteral("overview")).toString();
    m_sidebar->setCurrentRow(0);
    showPage(last);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_closed || m_backend.state() == Admin::AdminBackend::State::Closed) {
        event->accept();
        return;
    }
    // Close the backend first (a flush in progress is cancelled, the engine shuts down as on
    // SIGTERM); the window closes when closed() arrives.
    event->ignore();
    if (!m_closing) {
        m_closing = true;
        saveSettings();
        m_backend.close(tr("console window closed"));
    }
}

} // namespace Switchyard::Console
