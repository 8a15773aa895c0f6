#pragma once

#include "admin/admintypes.h"

#include <QHash>
#include <QStandardItemModel>

namespace Switchyard::Console {

// The process tree (pid → children), updated in place from snapshots: vanished processes are
// removed, new ones inserted under their parent, changed rows rewritten. GUI thread only.
class ProcessModel final : public QStandardItemModel
{
    Q_OBJECT
public:
    enum Column { Description, Pid, Type, Started, Cancellable, ColumnCount };
    explicit ProcessModel(QObject *parent = nullptr);

    // Returns whether rows were added (the view expands them once, not once per row).
    bool applyProcesses(const std::vector<Admin::ProcessRow> &rows);
    qint64 pidAt(const QModelIndex &index) const;
    bool isCancellable(qint64 pid) const;
    int processCount() const { return int(m_items.size()); }

private:
    QList<QStandardItem *> makeRow() const; // one row of empty, read-only items
    void fillRow(QStandardItem *first, const Admin::ProcessRow &row);

    QHash<qint64, QStandardItem *> m_items; // pid → the row's first item; Not owned (the model owns items)
    QHash<qint64, Admin::ProcessRow> m_rows;
};

} // namespace Switchyard::Console
