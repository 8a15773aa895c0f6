#pragma once

#include "rowtablemodel.h"

#include "admin/ops/webhookops.h"

namespace Switchyard::Console {

// The webhooks: where each is installed, where it delivers, what it wants and how its last
// delivery went (a failed one asks for attention).
class HookModel final : public RowTableModel<Admin::HookRow, qint64>
{
    Q_OBJECT
public:
    enum Column { Id, Scope, Target, Type, Url, Events, Active, Last, ColumnCount };

    explicit HookModel(QObject *parent = nullptr) : RowTableModel(parent) {}

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // "push only", "everything", or the chosen events; with the branch filter.
    static QString eventsSummary(const QJsonValue &events);

protected:
    qint64 keyOf(const Admin::HookRow &row) const override { return row.id; }
};

// One hook's deliveries, newest first (sorted by id); read a page at a time as it scrolls.
class HookTaskModel final : public RowTableModel<Admin::HookTaskRow, qint64>
{
    Q_OBJECT
public:
    enum Column { Id, Hook, Created, Event, Status, Duration, Delivery, ColumnCount };

    explicit HookTaskModel(QObject *parent = nullptr) : RowTableModel(parent) {}

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    // One sentence per attempt that ended with its instance, and what came of it.
    static QString interruptedSummary(const Admin::HookTaskRow &row);

protected:
    qint64 keyOf(const Admin::HookTaskRow &row) const override { return row.id; }
};

} // namespace Switchyard::Console
