#include "lockmodel.h"

#include "widgets/statuscolors.h"

#include "widgets/format.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace Switchyard::Console {

LockModel::LockModel(QObject *parent) : RowTableModel(parent)
{
    m_sampled.start();
}

int LockModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LockModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Key: return tr("Key");
        case Backend: return tr("Backend");
        case Holder: return tr("Holder instance");
        case Token: return tr("Token");
        case Fencing: return tr("Fencing token");
        case Acquired: return tr("Acquired");
        case Ttl: return tr("TTL");
        case Extensions: return tr("Extensions");
        case Waiters: return tr("Waiters");
    }
    return {};
}

qint64 LockModel::remainingMs(const Admin::LockRow &row) const
{
    if (row.ttlMs < 0)
        return -1;
    return std::max<qint64>(0, row.ttlMs - m_sampled.elapsed());
}

QVariant LockModel::data(const QModelIndex &index, int role) const
{
    const Admin::LockRow *row = rowAt(index.row());
    if (!row)
        return {};
    const int column = index.column();
    const bool ours = !m_localInstance.isEmpty() && row->owner == m_localInstance;
    const qint64 remaining = remainingMs(*row);
    switch (role) {
        case KeyRole: return row->key;
        case AttentionRole: return remaining >= 0 && remaining < kNearExpiryMs;
        case Qt::TextAlignmentRole:
            return (column == Fencing || column == Extensions || column == Waiters) ? int(Qt::AlignRight | Qt::AlignVCenter)
                                                                                    : int(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::FontRole:
            if (column == Holder && ours) {
                QFont font;
                font.setBold(true);
                return font;
            }
            return {};
        case Qt::ForegroundRole:
            if (column == Holder && ours)
                return QBrush(statusColor(StatusColor::Info));
            if (column == Ttl && remaining >= 0 && remaining < kNearExpiryMs)
                return QBrush(statusColor(StatusColor::Error));
            return {};
        case Qt::ToolTipRole:
            if (column == Holder)
                return ours ? tr("This instance holds the lock") : tr("Held by another instance");
            if (column == Fencing)
                return tr("Strictly increasing with every acquisition: resources refuse writes carrying an older token.");
            return {};
        case RawRole:
            switch (column) {
                case Key: return naturalSortKey(row->key);
                case Backend: return row->backend;
                case Holder: return row->owner;
                case Token: return row->tokenPrefix;
                case Fencing: return row->fencingToken;
                case Acquired: return row->acquiredAt.toMSecsSinceEpoch();
                case Ttl: return remaining;
                case Extensions: return row->extensions;
                case Waiters: return row->waiters;
            }
            return {};
        case Qt::DisplayRole:
            switch (column) {
                case Key: return row->key;
                case Backend: return row->backend;
                case Holder: return ours ? tr("%1 (this instance)").arg(row->owner) : row->owner;
                case Token: return row->tokenPrefix;
                case Fencing: return formatCount(row->fencingToken);
                case Acquired: return formatRelative(row->acquiredAt, QDateTime::currentDateTimeUtc());
                case Ttl: return remaining < 0 ? tr("no lease") : formatDuration((remaining / 1000) * 1000);
                case Extensions: return row->extensions;
                case Waiters: return row->waiters;
            }
            return {};
    }
    return {};
}

void LockModel::applyLocks(std::vector<Admin::LockRow> rows)
{
    for (const Admin::LockRow &row : rows)
        m_leaseMs = std::max(m_leaseMs, row.ttlMs);
    m_sampled.restart();
    applySnapshot(std::move(rows));
    touchColumn(Ttl);
}

void LockModel::tick()
{
    touchColumn(Ttl);
    touchColumn(Acquired);
}

} // namespace Switchyard::Console
