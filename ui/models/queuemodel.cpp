#include "queuemodel.h"

#include "widgets/statuscolors.h"

#include "widgets/format.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace Switchyard::Console {

QueueModel::QueueModel(QObject *parent) : RowTableModel(parent) {}

int QueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool QueueModel::needsAttention(const Admin::QueueRow &row)
{
    return row.paused || (row.capacity > 0 && row.length >= qint64(row.capacity) * 9 / 10);
}

QVariant QueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return (section >= Length && section <= Failed) ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (section) {
        case Name: return tr("Queue");
        case Type: return tr("Type");
        case Unique: return tr("Unique");
        case Length: return tr("Length");
        case Workers: return role == Qt::ToolTipRole ? tr("Workers handling a batch / running / maximum") : tr("Workers");
        case Pushed: return tr("Pushed");
        case Handled: return tr("Handled");
        case Failed: return tr("Failed");
        case State: return tr("State");
        case Throughput: return role == Qt::ToolTipRole ? tr("Items handled per second, last 10 minutes") : tr("Throughput");
    }
    return {};
}

QVariant QueueModel::data(const QModelIndex &index, int role) const
{
    const Admin::QueueRow *row = rowAt(index.row());
    if (!row)
        return {};
    const int column = index.column();
    if (role == KeyRole)
        return row->qid;
    if (role == AttentionRole)
        return needsAttention(*row);
    if (role == Qt::TextAlignmentRole)
        return (column >= Length && column <= Failed) ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole) {
        if (column == State && row->paused)
            return QBrush(statusColor(StatusColor::Paused));
        if (column == Failed && row->failedTotal > 0)
            return QBrush(statusColor(StatusColor::Error));
        if (column == Length && row->capacity > 0 && row->length >= qint64(row->capacity) * 9 / 10)
            return QBrush(statusColor(StatusColor::Error));
        return {};
    }
    if (role == Qt::FontRole && column == State && row->paused) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == RawRole) {
        switch (column) {
            case Name: return row->name;
            case Type: return row->type;
            case Unique: return row->unique;
            case Length: return row->length;
            case Workers: return row->activeWorkers * 10000 + row->workers;
            case Pushed: return row->pushedTotal;
            case Handled: return row->handledTotal;
            case Failed: return row->failedTotal;
            case State: return row->paused;
            case Throughput: return currentRate(row->qid);
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (column == Length && row->capacity > 0)
            return tr("%1 of %2 items (LENGTH)").arg(formatCount(row->length), formatCount(row->capacity));
        if (column == State && row->paused)
            return tr("Paused: items are accepted and kept, no worker takes them until you resume.");
        if (column == Failed)
            return tr("%1 failed, %2 undecodable, %3 acknowledgements failed")
                .arg(formatCount(row->failedTotal), formatCount(row->corruptTotal), formatCount(row->ackFailedTotal));
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
        case Name: return row->name;
        case Type: return row->type;
        case Unique: return row->unique ? tr("yes") : tr("no");
        case Length: return formatCount(row->length);
        case Workers:
            return QStringLiteral("%1 / %2 / %3").arg(row->activeWorkers).arg(row->workers)
                .arg(row->maxWorkers <= 0 ? QStringLiteral("∞") : QString::number(row->maxWorkers));
        case Pushed: return formatCount(row->pushedTotal);
        case Handled: return formatCount(row->handledTotal);
        case Failed: return formatCount(row->failedTotal);
        case State: return row->paused ? tr("Paused") : (row->activeWorkers > 0 ? tr("Working") : tr("Idle"));
        case Throughput: return tr("%1/s").arg(QLocale().toString(currentRate(row->qid), 'f', 0));
    }
    return {};
}

void QueueModel::applyStats(std::vector<Admin::QueueRow> rows, const QDateTime &at)
{
    QHash<qint64, bool> present;
    for (const Admin::QueueRow &row : rows) {
        present.insert(row.qid, true);
        double rate = 0;
        auto last = m_lastHandled.find(row.qid);
        if (last != m_lastHandled.end()) {
            const qint64 ms = last->first.msecsTo(at);
            if (ms > 0)
                rate = std::max<double>(0, double(row.handledTotal - last->second) * 1000.0 / double(ms));
        }
        m_lastHandled.insert(row.qid, {at, row.handledTotal});
        std::deque<QueueSample> &history = m_history[row.qid];
        history.push_back({at, std::max<qint64>(row.length, 0), rate});
        while (!history.empty() && history.front().at.secsTo(at) > kHistorySeconds)
            history.pop_front();
    }
    for (auto it = m_history.begin(); it != m_history.end();) {
        if (!present.contains(it.key())) {
            m_lastHandled.remove(it.key());
            it = m_history.erase(it);
        } else {
            ++it;
        }
    }
    applySnapshot(std::move(rows));
    // The throughput column moves even when the row's counters did not.
    touchColumn(Throughput);
}

const std::deque<QueueSample> &QueueModel::history(qint64 qid) const
{
    static const std::deque<QueueSample> empty;
    const auto it = m_history.constFind(qid);
    return it == m_history.constEnd() ? empty : *it;
}

double QueueModel::currentRate(qint64 qid) const
{
    const std::deque<QueueSample> &samples = history(qid);
    return samples.empty() ? 0 : samples.back().handledPerSecond;
}

} // namespace Switchyard::Console
