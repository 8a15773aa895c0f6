#include "processmodel.h"

#include "rowtablemodel.h"
#include "widgets/format.h"

#include <QSet>

namespace Switchyard::Console {

ProcessModel::ProcessModel(QObject *parent) : QStandardItemModel(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels({tr("Process"), tr("PID"), tr("Type"), tr("Started"), tr("Cancellable")});
}

qint64 ProcessModel::pidAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return 0;
    return index.sibling(index.row(), Description).data(KeyRole).toLongLong();
}

bool ProcessModel::isCancellable(qint64 pid) const
{
    const auto it = m_rows.constFind(pid);
    return it != m_rows.constEnd() && it->cancellable;
}

QList<QStandardItem *> ProcessModel::makeRow() const
{
    QList<QStandardItem *> items;
    for (int c = 0; c < ColumnCount; ++c) {
        auto *item = new QStandardItem;
        item->setEditable(false);
        items << item;
    }
    return items;
}

void ProcessModel::fillRow(QStandardItem *first, const Admin::ProcessRow &row)
{
    QStandardItem *parent = first->parent() ? first->parent() : invisibleRootItem();
    const int r = first->row();
    const auto set = [&](int column, const QVariant &display, const QVariant &raw) {
        QStandardItem *item = parent->child(r, column);
        if (item->data(Qt::DisplayRole) != display)
            item->setData(display, Qt::DisplayRole);
        if (item->data(RawRole) != raw)
            item->setData(raw, RawRole);
        item->setData(row.pid, KeyRole);
    };
    set(Description, row.description, row.description);
    set(Pid, row.pid, row.pid);
    set(Type, processTypeName(row.type), processTypeName(row.type));
    set(Started, row.startedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss")), row.startedAt.toMSecsSinceEpoch());
    parent->child(r, Started)->setToolTip(formatTime(row.startedAt));
    set(Cancellable, row.cancellable ? tr("yes") : tr("no"), row.cancellable);
}

bool ProcessModel::applyProcesses(const std::vector<Admin::ProcessRow> &rows)
{
    QHash<qint64, const Admin::ProcessRow *> incoming;
    for (const Admin::ProcessRow &row : rows)
        incoming.insert(row.pid, &row);

    // Removals: children of a removed process that live on move to the top level first.
    const QList<qint64> known = m_items.keys();
    for (qint64 pid : known) {
        if (incoming.contains(pid))
            continue;
        QStandardItem *item = m_items.value(pid);
        while (item->rowCount() > 0)
            invisibleRootItem()->appendRow(item->takeRow(0));
        QStandardItem *parent = item->parent() ? item->parent() : invisibleRootItem();
        parent->removeRow(item->row());
        m_items.remove(pid);
        m_rows.remove(pid);
    }

    // Insertions (parents first: pids increase with creation) and updates.
    std::vector<const Admin::ProcessRow *> ordered;
    for (const Admin::ProcessRow &row : rows)
        ordered.push_back(&row);
    std::sort(ordered.begin(), ordered.end(), [](auto *a, auto *b) { return a->pid < b->pid; });
    bool added = false;
    for (const Admin::ProcessRow *row : ordered) {
        QStandardItem *item = m_items.value(row->pid);
        if (!item) {
            QStandardItem *parent = m_items.value(row->parentPid, invisibleRootItem());
            const QList<QStandardItem *> items = makeRow();
            parent->appendRow(items);
            item = items.first();
            m_items.insert(row->pid, item);
            added = true;
        }
        if (!(m_rows.value(row->pid) == *row)) {
            fillRow(item, *row);
            m_rows.insert(row->pid, *row);
        }
    }
    return added;
}

} // namespace Switchyard::Console
