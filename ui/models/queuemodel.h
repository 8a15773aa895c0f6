#pragma once

#include "rowtablemodel.h"

#include "admin/admintypes.h"

#include <QDateTime>

#include <deque>

namespace Switchyard::Console {

// One point of a queue's recent history (one per queue-stats frame).
struct QueueSample
{
    QDateTime at;
    qint64 length = 0;
    double handledPerSecond = 0;
};

// The Queues table. Keeps the last 10 minutes of length and throughput per queue for the
// sparkline column and the detail chart. GUI thread only.
class QueueModel final : public RowTableModel<Admin::QueueRow, qint64>
{
    Q_OBJECT
public:
    enum Column { Name, Type, Unique, Length, Workers, Pushed, Handled, Failed, State, Throughput, ColumnCount };
    static constexpr int kHistorySeconds = 600;

    explicit QueueModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // A queue-stats frame: the table diff plus one history sample per queue.
    void applyStats(std::vector<Admin::QueueRow> rows, const QDateTime &at = QDateTime::currentDateTimeUtc());
    const std::deque<QueueSample> &history(qint64 qid) const;
    double currentRate(qint64 qid) const;
    static bool needsAttention(const Admin::QueueRow &row); // paused, or ≥ 90 % full

protected:
    qint64 keyOf(const Admin::QueueRow &row) const override { return row.qid; }

private:
    QHash<qint64, std::deque<QueueSample>> m_history;
    QHash<qint64, std::pair<QDateTime, qint64>> m_lastHandled; // qid → (time, handled_total)
};

} // namespace Switchyard::Console
