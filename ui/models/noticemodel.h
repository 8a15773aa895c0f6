#pragma once

#include "rowtablemodel.h"

#include "admin/admintypes.h"

#include <QTimer>

namespace Switchyard::Console {

// System notices, newest first in the view (sorted by id), keyed by id. Notices from the stream
// are appended in batches on a short timer — one insert per batch, never one per event — and a
// long list read at once (10 000 notices at start-up) goes in kChunkRows per pass of the event
// loop, so the sorted view never holds the loop for the whole list. GUI thread only.
class NoticeModel final : public RowTableModel<Admin::NoticeRow, qint64>
{
    Q_OBJECT
public:
    enum Column { Id, Time, Type, Description, ColumnCount };

    explicit NoticeModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static constexpr int kChunkRows = 1000;

    // The list as the instance has it now: shown notices that are not in it go at once, and the
    // new ones are inserted kChunkRows per pass (with the stream's, which it supersedes).
    void applyNotices(std::vector<Admin::NoticeRow> notices);
    // Queues a notice from the stream; it is inserted with the others of the next 100 ms.
    void enqueue(Admin::NoticeRow notice);
    // A notice deleted: gone from the table, or from what waits to be inserted.
    void removeNotice(qint64 id);
    // Inserts everything queued now (tests).
    void flushPending();
    int pendingCount() const { return int(m_pending.size()); }

protected:
    qint64 keyOf(const Admin::NoticeRow &row) const override { return row.id; }

private:
    // Inserts up to `limit` queued notices in one insert; the timer comes back at once for the rest.
    void insertPending(std::size_t limit);

    std::vector<Admin::NoticeRow> m_pending; // in arrival order
    QTimer m_batch;
};

} // namespace Switchyard::Console
