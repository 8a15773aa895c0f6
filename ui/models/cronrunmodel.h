#pragma once

#include "rowtablemodel.h"

#include "admin/admintypes.h"

namespace Switchyard::Console {

// One task's run history (newest first), skipped firings with their reason. GUI thread only.
class CronRunModel final : public RowTableModel<Admin::CronRun, qint64>
{
    Q_OBJECT
public:
    enum Column { Started, Trigger, Doer, Instance, Duration, Status, Message, ColumnCount };
    explicit CronRunModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    static QString skipReason(const QString &reason);

protected:
    qint64 keyOf(const Admin::CronRun &row) const override { return row.id; }
};

} // namespace Switchyard::Console
