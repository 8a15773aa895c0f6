#pragma once

// One instance in the console: its backend (the embedded engine or a remote daemon), its pages in
// a stack, and the header line that names it. The main window shows one view at a time and lists
// every view's pages in the sidebar under the instance's name and health dot.

#include "admin/adminbackend.h"

#include <QDateTime>
#include <QWidget>

#include <memory>

class QLabel;
class QStackedWidget;

namespace Switchyard::Console {

class Page;
class OverviewPage;
class QueuesPage;
class CronPage;
class LocksPage;
class CachePage;
class ProcessesPage;
class NoticesPage;
class AuditPage;

class InstanceView final : public QWidget
{
    Q_OBJECT
public:
    // `owned` when the view owns its backend (remote instances); else `backend` outlives the view.
    InstanceView(Admin::AdminBackend &backend, std::unique_ptr<Admin::AdminBackend> owned, QWidget *parent = nullptr);
    ~InstanceView() override;

    Admin::AdminBackend &backend() const { return m_backend; }
    bool isEmbedded() const { return !m_owned; }
    QList<Page *> pages() const { return m_pages; }
    Page *page(const QString &id) const;
    Page *currentPage() const;
    void setCurrentPage(Page *page);
    OverviewPage *overviewPage() const { return m_overview; }
    QueuesPage *queuesPage() const { return m_queues; }
    CronPage *cronPage() const { return m_cron; }
    LocksPage *locksPage() const { return m_locks; }
    CachePage *cachePage() const { return m_cache; }
    ProcessesPage *processesPage() const { return m_processes; }
    NoticesPage *noticesPage() const { return m_notices; }
    AuditPage *auditPage() const { return m_audit; }

    const Admin::InstanceInfo &instance() const { return m_instance; }
    // The sidebar's health dot: green connected, amber connecting/closing, red failed, grey closed.
    QColor healthColor() const;
    QString healthText() const;
    // "● live", "◌ stale since …", "○ not live".
    QString liveText() const;
    void refreshAll();
    // Deactivates the pages (no more polling) — the view is hidden or closing.
    void deactivate();

Q_SIGNALS:
    void healthChanged();

private:
    void onStateChanged(Admin::AdminBackend::State state, const QString &message);
    void updateHeader();

    Admin::AdminBackend &m_backend;
    std::unique_ptr<Admin::AdminBackend> m_owned;
    QLabel *m_header;
    QLabel *m_banner;
    QStackedWidget *m_stack;
    QList<Page *> m_pages;
    OverviewPage *m_overview;
    QueuesPage *m_queues;
    CronPage *m_cron;
    LocksPage *m_locks;
    CachePage *m_cache;
    ProcessesPage *m_processes;
    NoticesPage *m_notices;
    AuditPage *m_audit;
    Admin::InstanceInfo m_instance;
    QDateTime m_lastEvent;
};

} // namespace Switchyard::Console
