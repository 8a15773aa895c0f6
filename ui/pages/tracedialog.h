#pragma once

// A trace (GET /traces/{id}): what one cause produced — an event or a cron run, then the
// notifications, feed rows, deliveries and mail that followed — with when each happened and the
// engine instance that handled it where the store knows. Two views of the same items:
//
//   - Tree: the root (the cause) on top; an item under the one it repeats where the trace says so
//     (a redelivery under its first delivery), the others grouped by kind under the root.
//   - Timeline: every item in the trace's order (oldest first, the cause first within a second),
//     with its offset from the root ("+120 ms"); forge rows keep whole seconds, so their offsets
//     are approximate and say so.
//
// Double-click or Enter on an item asks to go to the page that lists it (openItem); the page that
// opened the dialog turns that into a link (Page::goTo).
//
// Threads: GUI thread only. The trace is read through AdminBackend, whose reply arrives on this
// thread; an answer to an earlier request (another trace asked for meanwhile) is dropped.

#include "admin/ops/eventops.h"

#include <QDialog>
#include <QPointer>

#include <optional>

class QLabel;
class QRadioButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace Switchyard::Admin {
class AdminBackend;
}

namespace Switchyard::Console {

class Page;

class TraceDialog final : public QDialog
{
    Q_OBJECT
public:
    enum class Mode { Tree, Timeline };
    enum Column { Item, Id, At, Offset, Instance, Status, Summary, ColumnCount };
    // Item data (column Item): the item's kind and id; empty for a group row.
    enum Role { KindRole = Qt::UserRole + 1, IdRole, SummaryRole };

    TraceDialog(Admin::AdminBackend &backend, QWidget *parent); // backend: not owned, outlives the dialog

    // Shows the dialog (non-modal) and reads `traceId`; "Reading…" until the answer arrives.
    void showTrace(const QString &traceId);
    QString traceId() const { return m_traceId; }
    // The trace as last read; nullopt while reading or after a failure.
    const std::optional<Admin::Trace> &trace() const { return m_trace; }

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    QTreeWidget *items() const { return m_items; }
    QLabel *heading() const { return m_heading; }

    // The page that lists items of `kind` ("notifications" for an event, …); empty when none does.
    static QString pageFor(const QString &kind);
    // A kind as people read it: "Delivery" for hook-task; `plural` for a group's heading.
    static QString kindLabel(const QString &kind, int count = 0);
    // An offset from the root: "+120 ms", "+1.4 s", "−2 s"; `coarse` (a time kept to the second):
    // "within 1 s", "≈ +3 s".
    static QString offsetText(qint64 ms, bool coarse);

Q_SIGNALS:
    // The trace was read (or failed: trace() is empty then).
    void loaded();
    // An item was chosen (double-click, Enter): the page that lists it, and the item.
    void openItem(const QString &pageId, const QString &kind, qint64 id, const QString &summary);

private:
    void rebuild();
    void fillTree();
    void fillTimeline();
    QTreeWidgetItem *makeItem(const Admin::TraceItem &item) const;
    void activate(QTreeWidgetItem *item);

    Admin::AdminBackend &m_backend;
    QLabel *m_heading;
    QLabel *m_hint; // what Enter does; why an item has no page
    QRadioButton *m_treeButton;
    QRadioButton *m_timelineButton;
    QTreeWidget *m_items;
    QString m_traceId;
    std::optional<Admin::Trace> m_trace;
    Mode m_mode = Mode::Tree;
    quint64 m_generation = 0; // each request's number: an older answer is dropped
};

// Opens the page's trace dialog on `traceId` — made on first use, parented to `page`, its items
// linked to the page's siblings (Page::goTo) — and returns it.
TraceDialog *openTrace(Page &page, QPointer<TraceDialog> &dialog, const QString &traceId);

} // namespace Switchyard::Console
