#pragma once

#include "rowtablemodel.h"

#include "admin/admintypes.h"

#include <QTimer>

namespace Switchyard::Console {

// System notices, newest first in the view (sorted by id), keyed by id. Notices from the stream
// are appended in batches on a short timer — one insert per batch, never one per event. GUI
// thread only.
class NoticeModel final : public RowTableModel<Admin::NoticeRow, qint64>
{
    Q_OBJECT
public:
    enum Column { Id, Time, Type, Description, ColumnCount };

    explicit NoticeModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // Queues a notice from the stream; it is inserted with the others of the next 100 ms.
    void enqueue(Admin::NoticeRow notice);
    // Inserts what is queued now (tests).
    void flushPending();

protected:
    qint64 keyOf(const Admin::NoticeRow &row) const override { return row.id; }

private:
    std::vector<Admin::NoticeRow> m_pending;
    QTimer m_batch;
};

} // namespace Switchyard::Console
