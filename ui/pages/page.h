#pragma once

// A page of the console: one resource of the admin API shown and driven through AdminBackend
// only. Pages report what their actions did as signals; the main window shows them in the status
// bar (never a modal for something routine).

#include "admin/adminbackend.h"

#include <QIcon>
#include <QTimer>
#include <QWidget>

#include <chrono>

#include <functional>
#include <map>

class QSettings;

namespace Switchyard::Console {

struct PageEntry;

class Page : public QWidget
{
    Q_OBJECT
public:
    Page(Admin::AdminBackend &backend, QWidget *parent); // backend: Not owned; outlives the page.

    // From the page's registry entry (pageregistry.h).
    QString id() const; // stable, for settings and links: "queues"
    QString title() const;
    QIcon icon() const;
    const PageEntry &entry() const { return *m_entry; }
    // Called by the registry's owner right after making the page: its entry, and its polling.
    void attach(const PageEntry &entry);
    // The instance's identity, read by one page (Overview) and given to all.
    virtual void setInstance(const Admin::InstanceInfo &info) { Q_UNUSED(info) }
    // Re-reads everything the page shows (F5; after a reconnect).
    virtual void refresh() = 0;
    virtual void focusFilter() {}
    virtual void setFilterText(const QString &text) { Q_UNUSED(text) }
    virtual void saveState(QSettings &settings) const { Q_UNUSED(settings) }
    virtual void restoreState(QSettings &settings) { Q_UNUSED(settings) }
    // Called when the page is shown / hidden (pages poll what the stream does not carry only while
    // visible: see pollWhileActive()).
    virtual void setActive(bool active);
    bool isActive() const { return m_active; }

    int badge() const { return m_badge; }
    Admin::AdminBackend &backend() const { return m_backend; }

    // Links to a row (a trace's items): shows the row of `kind` and `id` when this page lists it —
    // selected, or selected once the read it needs arrives — and says whether it will. `summary`
    // is the trace's words for it ("bob: alice/engine#1"). Called after the page was shown.
    virtual bool reveal(const QString &kind, qint64 id, const QString &summary);
    // Goes to page `pageId` of this page's instance (navigate()) and reveals the row there; false
    // when that page cannot show it.
    bool goTo(const QString &pageId, const QString &kind, qint64 id, const QString &summary);

Q_SIGNALS:
    void badgeChanged(int count);
    void operationSucceeded(const QString &message);
    // Routine refusals explained in words ("already running") — information, not an error.
    void operationInfo(const QString &message);
    void operationFailed(const QString &summary, const QString &detail);
    // A link to another page with a filter applied (Overview cards).
    void navigate(const QString &pageId, const QString &filter);
    // The page read the instance's identity (GET /instance).
    void instanceChanged(const Switchyard::Admin::InstanceInfo &info);

protected:
    using Done = std::function<void()>;
    // One outstanding read per kind: runs `call` now, or — when a call of `kind` is still waiting
    // for its answer — once more after that answer (the newest `call` given meanwhile). `call`
    // starts the backend call and must run `done` first thing in its reply. So polls never pile up
    // behind a slow instance (in the local pool or as parallel requests), and answers apply in the
    // order they were asked for: an older answer never overwrites a newer one.
    void single(const QString &kind, std::function<void(const Done &done)> call);
    // While the page is shown: refresh() at once, then every `interval`.
    void pollWhileActive(std::chrono::milliseconds interval);
    void setBadge(int count);
    // Asks before a destructive action without blocking (a window-modal box opened with open()):
    // `accepted` runs when the operator confirms. The box's object name is "confirmation".
    void confirm(const QString &title, const QString &text, const QString &acceptText, std::function<void()> accepted);
    // Reports a failed call: the summary names the action, the detail carries the engine's message.
    void reportFailure(const QString &action, const Status &status);

private:
    Admin::AdminBackend &m_backend;
    const PageEntry *m_entry = nullptr;
    int m_badge = 0;
    bool m_active = false;
    QTimer *m_poll = nullptr;
    struct Slot
    {
        bool busy = false;
        std::function<void(const Done &)> again; // asked for while busy
    };
    std::map<QString, Slot> m_slots;
};

} // namespace Switchyard::Console
