#include "noticemodel.h"

#include "widgets/format.h"

namespace Switchyard::Console {

NoticeModel::NoticeModel(QObject *parent) : RowTableModel(parent)
{
    m_batch.setSingleShot(true);
    m_batch.setInterval(100);
    connect(&m_batch, &QTimer::timeout, this, &NoticeModel::flushPending);
}

int NoticeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NoticeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Id: return tr("ID");
        case Time: return tr("Time");
        case Type: return tr("Type");
        case Description: return tr("Description");
    }
    return {};
}

QVariant NoticeModel::data(const QModelIndex &index, int role) const
{
    const Admin::NoticeRow *row = rowAt(index.row());
    if (!row)
        return {};
    switch (role) {
        case KeyRole: return row->id;
        case Qt::TextAlignmentRole:
            return index.column() == Id ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ToolTipRole: return index.column() == Description ? row->description : QVariant();
        case RawRole:
            switch (index.column()) {
                case Id: return row->id;
                case Time: return row->createdAt.toMSecsSinceEpoch();
                case Type: return row->type;
                case Description: return row->description;
            }
            return {};
        case Qt::DisplayRole:
            switch (index.column()) {
                case Id: return row->id;
                case Time: return formatTime(row->createdAt);
                case Type: return row->type;
                case Description: return row->description.section(QLatin1Char('\n'), 0, 0);
            }
            return {};
    }
    return {};
}

void NoticeModel::enqueue(Admin::NoticeRow notice)
{
    m_pending.push_back(std::move(notice));
    if (!m_batch.isActive())
        m_batch.start();
}

void NoticeModel::flushPending()
{
    m_batch.stop();
    std::vector<Admin::NoticeRow> fresh;
    fresh.reserve(m_pending.size());
    for (Admin::NoticeRow &notice : m_pending) {
        if (indexOfKey(notice.id) < 0)
            fresh.push_back(std::move(notice));
    }
    m_pending.clear();
    appendRows(std::move(fresh));
}

} // namespace Switchyard::Console
