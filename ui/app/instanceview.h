#pragma once

// One instance in the console: its backend (the embedded engine or a remote daemon), its pages in
// a stack, and the header line that names it. The main window shows one view at a time and lists
// every view's pages in the sidebar under the instance's name and health dot.

#include "admin/adminbackend.h"
#include "widgets/statuscolors.h"

#include <QDateTime>
#include <QWidget>

#include <memory>

class QLabel;
class QStackedWidget;

namespace Switchyard::Console {

class Page;

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
    // A page by id, typed (tests, links): null when the id is unknown or of another type.
    template<typename P>
    P *page(const QString &id) const
    {
        return qobject_cast<P *>(page(id));
    }
    Page *currentPage() const;
    void setCurrentPage(Page *page);

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

protected:
    void changeEvent(QEvent *event) override;

private:
    void onStateChanged(Admin::AdminBackend::State state, const QString &message);
    void applyColours();
    void updateHeader();

    Admin::AdminBackend &m_backend;
    std::unique_ptr<Admin::AdminBackend> m_owned;
    QLabel *m_header = nullptr;
    QLabel *m_banner = nullptr;
    StatusColor m_bannerTone = StatusColor::Warning;
    QStackedWidget *m_stack;
    QList<Page *> m_pages;
    Admin::InstanceInfo m_instance;
    QDateTime m_lastEvent;
};

} // namespace Switchyard::Console
