#pragma once

// The console's main window (CONSOLE.md "Layout"): a sidebar of pages with attention badges, a
// header naming the instance and its backends, the pages in a stack, and a status bar with the
// latest operation, the latest error (Details…) and the live-update indicator.

#include "admin/adminbackend.h"

#include <QDateTime>
#include <QMainWindow>
#include <QTimer>

class QLabel;
class QListWidget;
class QStackedWidget;
class QToolButton;

namespace Switchyard::Console {

class Page;
class OverviewPage;
class QueuesPage;
class CronPage;
class LocksPage;
class CachePage;
class ProcessesPage;
class NoticesPage;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(Admin::AdminBackend &backend, QWidget *parent = nullptr); // backend: Not owned.
    ~MainWindow() override;

    void showPage(const QString &id, const QString &filter = QString());
    Page *currentPage() const;
    QList<Page *> pages() const { return m_pages; }
    OverviewPage *overviewPage() const { return m_overview; }
    QueuesPage *queuesPage() const { return m_queues; }
    CronPage *cronPage() const { return m_cron; }
    LocksPage *locksPage() const { return m_locks; }
    CachePage *cachePage() const { return m_cache; }
    ProcessesPage *processesPage() const { return m_processes; }
    NoticesPage *noticesPage() const { return m_notices; }

    QString lastOperation() const;
    QString lastError() const;
    void refreshAll();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void addPage(Page *page);
    void onStateChanged(Admin::AdminBackend::State state, const QString &message);
    void showOperation(const QString &message, bool error = false, const QString &detail = QString());
    void updateHeader();
    void updateLive();
    void updateBadge(Page *page, int count);
    void saveSettings() const;
    void restoreSettings();

    Admin::AdminBackend &m_backend;
    QListWidget *m_sidebar;
    QStackedWidget *m_stack;
    QLabel *m_header;
    QLabel *m_operation;
    QLabel *m_error;
    QToolButton *m_details;
    QLabel *m_live;
    QString m_errorDetail;
    QList<Page *> m_pages;
    OverviewPage *m_overview;
    QueuesPage *m_queues;
    CronPage *m_cron;
    LocksPage *m_locks;
    CachePage *m_cache;
    ProcessesPage *m_processes;
    NoticesPage *m_notices;
    Admin::InstanceInfo m_instance;
    QDateTime m_lastEvent;
    QTimer m_clock;
    bool m_closing = false;
    bool m_closed = false;
};

} // namespace Switchyard::Console
