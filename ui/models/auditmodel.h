#pragma once

#include "rowtablemodel.h"

#include "admin/auditlog.h"

namespace Switchyard::Console {

// The audit log: who changed what, from where, and how it ended; newest first (sorted by id).
class AuditModel final : public RowTableModel<Admin::AuditEntry, qint64>
{
    Q_OBJECT
public:
    enum Column { Time, Doer, From, Action, Target, Outcome, ColumnCount };

    explicit AuditModel(QObject *parent = nullptr) : RowTableModel(parent) {}

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    qint64 keyOf(const Admin::AuditEntry &row) const override { return row.id; }
};

} // namespace Switchyard::Console
