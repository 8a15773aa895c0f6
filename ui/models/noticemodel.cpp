#include "noticemodel.h"

#include "widgets/format.h"

#include <QSet>

#include <algorithm>

namespace Switchyard::Console {

NoticeModel::NoticeModel(QObject *parent) : RowTableModel(parent)
{
    m_batch.setSingleShot(true);
    connect(&m_batch, &QTimer::timeout, this, [this] { insertPending(kChunkRows); });
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

void NoticeModel::applyNotices(std::vector<Admin::NoticeRow> notices)
{
    // What is shown is updated (and what vanished removed) now; the rest waits for its chunk.
    std::vector<Admin::NoticeRow> shown;
    // The stream's notices not inserted yet: those newer than the list were added after it was
    // read and stay; the others are in it, or were deleted.
    qint64 newestListed = 0;
    for (const Admin::NoticeRow &notice : notices)
        newestListed = std::max(newestListed, notice.id);
    std::erase_if(m_pending, [newestListed](const Admin::NoticeRow &notice) { return notice.id <= newestListed; });
    for (Admin::NoticeRow &notice : notices) {
        if (indexOfKey(notice.id) >= 0)
            shown.push_back(std::move(notice));
        else
            m_pending.push_back(std::move(notice));
    }
    applySnapshot(std::move(shown));
    // The newest first: they are the ones the view shows at its top.
    std::sort(m_pending.begin(), m_pending.end(), [](const Admin::NoticeRow &a, const Admin::NoticeRow &b) { return a.id > b.id; });
    if (m_pending.empty()) {
        m_batch.stop();
        return;
    }
    insertPending(kChunkRows);
}

void NoticeModel::enqueue(Admin::NoticeRow notice)
{
    m_pending.push_back(std::move(notice));
    if (!m_batch.isActive())
        m_batch.start(100);
}

void NoticeModel::removeNotice(qint64 id)
{
    std::erase_if(m_pending, [id](const Admin::NoticeRow &notice) { return notice.id == id; });
    removeKey(id);
}

void NoticeModel::flushPending()
{
    insertPending(m_pending.size());
}

void NoticeModel::insertPending(std::size_t limit)
{
    m_batch.stop();
    const std::size_t count = std::min(limit, m_pending.size());
    std::vector<Admin::NoticeRow> fresh;
    fresh.reserve(count);
    QSet<qint64> taken; // the stream may repeat a notice a list also holds
    for (std::size_t i = 0; i < count; ++i) {
        Admin::NoticeRow &notice = m_pending[i];
        if (indexOfKey(notice.id) < 0 && !taken.contains(notice.id)) {
            taken.insert(notice.id);
            fresh.push_back(std::move(notice));
        }
    }
    m_pending.erase(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(count));
    appendRows(std::move(fresh));
    if (!m_pending.empty())
        m_batch.start(0); // the next chunk after the loop has painted and run its timers
}

} // namespace Switchyard::Console
