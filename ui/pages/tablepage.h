#pragma once

// The common shape of a list page (CONSOLE.md "page = table + detail"): a filter line, the page's
// actions in a toolbar and in the rows' context menu, the table, and a detail pane in a splitter.
// When the table is empty an explanation of what would fill it takes its place.

#include "page.h"

#include <QSortFilterProxyModel>

#include <functional>

class QAbstractItemModel;
class QAbstractItemView;
class QAction;
class QToolBar;
class QTreeView;

namespace Ui {
class TablePage;
}

namespace Switchyard::Console {

// The table's proxy: sorting and filtering, and the full text as a tooltip for a cell the model
// gives none (a narrow column elides it).
class TableProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant data(const QModelIndex &index, int role) const override;
};

// Selects the row whose KeyRole is `key` in a second table of a page (and scrolls to it).
bool selectKeyIn(QTreeView *view, const QVariant &key);
// True while `view` is shown and scrolled to its end (or holds fewer rows than it can show): when
// a paged table reads its next page (RowTableModel::setPaging).
std::function<bool()> scrolledToEnd(QAbstractItemView *view);
// A second table of a page (the lower lists): sortable, alternating rows, extended selection,
// the accessible name given.
QTreeView *makeTable(QWidget *parent, QAbstractItemModel *model, const QString &name);

class TablePage : public Page
{
    Q_OBJECT
public:
    TablePage(Admin::AdminBackend &backend, QWidget *parent);
    ~TablePage() override;

    void focusFilter() override;
    void setFilterText(const QString &text) override;
    void saveState(QSettings &settings) const override;
    void restoreState(QSettings &settings) override;

    QTreeView *view() const;
    QSortFilterProxyModel *proxy() { return &m_proxy; }
    QToolBar *toolBar() const { return m_toolBar; }
    // Keys (KeyRole) of the selected rows, in view order; the current row's key.
    QVariantList selectedKeys() const;
    QVariant currentKey() const;
    // Selects the row with `key` (tests, links).
    bool selectKey(const QVariant &key);
    // The same, now or — when the row is not listed yet (the page is still reading) — when it is.
    void selectKeyWhenListed(const QVariant &key);

protected:
    void setSourceModel(QAbstractItemModel *model);
    // Columns fit the view: `descriptive` takes the width left (and gives it back first), the
    // others keep the widths the page set and elide their text. Call after setting the widths.
    void fitColumns(int descriptive);
    // Rich text shown instead of the table while it has no rows.
    void setEmptyText(const QString &html);
    QWidget *detailArea() const;
    // Adds to the toolbar and to the rows' context menu.
    void addPageAction(QAction *action);
    // Show or hide a toolbar widget through the returned action, never the widget itself (a toolbar
    // disables a widget hidden directly, and keeps it disabled).
    QAction *addToolBarWidget(QWidget *widget);
    // Beside the filter, outside the toolbar (never folded into its overflow menu): progress.
    void addRowWidget(QWidget *widget);
    // Called when the selection changes (enable actions, fill the detail pane).
    virtual void selectionChanged() {}
    void updateEmptyState();

private:
    Ui::TablePage *m_ui;
    QToolBar *m_toolBar;
    TableProxy m_proxy;
    QVariant m_pendingKey; // selectKeyWhenListed() waiting for its row
};

} // namespace Switchyard::Console
