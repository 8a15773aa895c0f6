#include "auditmodel.h"

#include "widgets/statuscolors.h"

#include "widgets/format.h"

#include <QColor>

namespace Switchyard::Console {

int AuditModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Time: return tr("Time");
        case Doer: return tr("Who");
        case From: return tr("From");
        case Action: return tr("Action");
        case Target: return tr("Target");
        case Outcome: return tr("Result");
    }
    return {};
}

QVariant AuditModel::data(const QModelIndex &index, int role) const
{
    const Admin::AuditEntry *row = rowAt(index.row());
    if (!row)
        return {};
    const bool ok = row->result == QLatin1String("ok");
    switch (role) {
        case KeyRole: return row->id;
        case Qt::ForegroundRole:
            return index.column() == Outcome && !ok ? QVariant(statusColor(StatusColor::Error)) : QVariant();
        case Qt::ToolTipRole: return index.column() == Outcome ? row->result : QVariant();
        case RawRole:
            switch (index.column()) {
                case Time: return row->id; // ids grow with time and break ties
                case Doer: return row->doer;
                case From: return row->remoteAddr;
                case Action: return row->action;
                case Target: return row->target;
                case Outcome: return row->result;
            }
            return {};
        case Qt::DisplayRole:
            switch (index.column()) {
                case Time: return formatTime(row->at);
                case Doer: return row->doer;
                case From: return row->remoteAddr;
                case Action: return row->action;
                case Target: return row->target;
                case Outcome: return ok ? tr("ok") : row->result;
            }
            return {};
    }
    return {};
}

} // namespace Switchyard::Console
