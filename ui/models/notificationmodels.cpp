#include "notificationmodels.h"

#include "widgets/format.h"
#include "widgets/statuscolors.h"

#include <QFont>

namespace Switchyard::Console {

namespace {

QVariant alignment(bool number)
{
    return number ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
}

} // namespace

// ---- EventModel -----------------------------------------------------------------------------------

EventModel::EventModel(QObject *parent) : RowTableModel(parent)
{
    m_batch.setSingleShot(true);
    m_batch.setInterval(100);
    connect(&m_batch, &QTimer::timeout, this, &EventModel::flushPending);
}

int EventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Id: return tr("ID");
        case Received: return tr("Received");
        case Event: return tr("Event");
        case Action: return tr("Action");
        case Repo: return tr("Repository");
        case Sender: return tr("Sender");
        case Status: return tr("Status");
        case Error: return tr("Error");
    }
    return {};
}

QVariant EventModel::data(const QModelIndex &index, int role) const
{
    const Admin::EventRow *row = rowAt(index.row());
    if (!row)
        return {};
    switch (role) {
        case KeyRole: return row->id;
        case AttentionRole: return row->status == QLatin1String("failed");
        case Qt::TextAlignmentRole: return alignment(index.column() == Id);
        case Qt::ForegroundRole:
            if (index.column() != Status)
                return {};
            if (row->status == QLatin1String("failed"))
                return statusColor(StatusColor::Error);
            if (row->status == QLatin1String("done"))
                return statusColor(StatusColor::Ok);
            if (row->status == QLatin1String("ignored"))
                return statusColor(StatusColor::Muted);
            return statusColor(StatusColor::Info);
        case Qt::ToolTipRole:
            if (index.column() == Error && !row->error.isEmpty())
                return row->error;
            if (index.column() == Event)
                return tr("Source %1, delivery %2, trace %3").arg(row->source, row->deliveryId, row->traceId);
            return {};
        case RawRole:
            switch (index.column()) {
                case Id: return row->id;
                case Received: return row->receivedAt.toMSecsSinceEpoch();
                case Event: return row->event;
                case Action: return row->action;
                case Repo: return row->repo;
                case Sender: return row->sender;
                case Status: return row->status;
                case Error: return row->error;
            }
            return {};
        case Qt::DisplayRole:
            switch (index.column()) {
                case Id: return row->id;
                case Received: return formatTime(row->receivedAt);
                case Event: return row->event;
                case Action: return row->action;
                case Repo: return row->repo;
                case Sender: return row->sender;
                case Status: return row->status;
                case Error: return row->error.section(QLatin1Char('\n'), 0, 0);
            }
            return {};
    }
    return {};
}

void EventModel::enqueue(Admin::EventRow row)
{
    m_pending.push_back(std::move(row));
    if (!m_batch.isActive())
        m_batch.start();
}

void EventModel::flushPending()
{
    m_batch.stop();
    std::vector<Admin::EventRow> fresh, changed;
    fresh.reserve(m_pending.size());
    for (Admin::EventRow &row : m_pending) {
        if (indexOfKey(row.id) >= 0) {
            changed.push_back(std::move(row)); // a status change of a row we show
            continue;
        }
        // Two frames of one new event in a batch: the later one wins.
        const auto same = std::find_if(fresh.begin(), fresh.end(), [&](const Admin::EventRow &r) { return r.id == row.id; });
        if (same != fresh.end())
            *same = std::move(row);
        else
            fresh.push_back(std::move(row));
    }
    m_pending.clear();
    // Id and Received never change: a view sorted by them (newest first) keeps its order.
    updateShown(std::move(changed), Event, Error);
    const int added = int(fresh.size());
    appendRows(std::move(fresh));
    if (rowCount() > kMaxRows)
        removeFirst(rowCount() - kMaxRows);
    if (added > 0)
        Q_EMIT rowsArrived(added);
}

// ---- ForgeUserModel -------------------------------------------------------------------------------

int ForgeUserModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ForgeUserModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Login: return tr("User");
        case Source: return tr("Source");
        case Unread: return tr("Unread");
    }
    return {};
}

QVariant ForgeUserModel::data(const QModelIndex &index, int role) const
{
    const ForgeUserRow *row = rowAt(index.row());
    if (!row)
        return {};
    switch (role) {
        case KeyRole: return row->id;
        case Qt::TextAlignmentRole: return alignment(index.column() == Unread);
        case Qt::ToolTipRole:
            return row->fullName.isEmpty() ? QVariant() : QVariant(row->fullName);
        case Qt::FontRole:
            if (row->unread > 0 && index.column() == Unread) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case RawRole:
        case Qt::DisplayRole:
            switch (index.column()) {
                case Login:
                    return role == Qt::DisplayRole && row->isBot ? tr("%1 (bot)").arg(row->login) : QVariant(row->login);
                case Source: return row->source;
                case Unread: return row->unread;
            }
            return {};
    }
    return {};
}

bool ForgeUserModel::setUnread(qint64 userId, qint64 count)
{
    const ForgeUserRow *row = find(userId);
    if (!row)
        return false;
    ForgeUserRow changed = *row;
    changed.unread = count;
    upsert(std::move(changed));
    return true;
}

// ---- NotificationModel ----------------------------------------------------------------------------

int NotificationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NotificationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Status: return tr("Status");
        case Repo: return tr("Repository");
        case Issue: return tr("Number");
        case Title: return tr("Title");
        case Source: return tr("Kind");
        case Updated: return tr("Updated");
    }
    return {};
}

QVariant NotificationModel::data(const QModelIndex &index, int role) const
{
    const NotificationRow *row = rowAt(index.row());
    if (!row)
        return {};
    switch (role) {
        case KeyRole: return row->id;
        case Qt::TextAlignmentRole: return alignment(index.column() == Issue);
        case Qt::FontRole:
            if (row->status == NotificationStatus::Unread) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::ToolTipRole:
            return index.column() == Title ? QVariant(row->issueTitle) : QVariant();
        case RawRole:
            switch (index.column()) {
                case Status: return int(row->status);
                case Issue: return row->issueNumber;
                case Updated: return row->updatedAt.toMSecsSinceEpoch();
                default: break;
            }
            [[fallthrough]];
        case Qt::DisplayRole:
            switch (index.column()) {
                case Status: return notificationStatusName(row->status);
                case Repo: return row->repo;
                case Issue: return row->issueNumber > 0 ? QVariant(QStringLiteral("#%1").arg(row->issueNumber)) : QVariant();
                case Title: return row->issueTitle;
                case Source: return notificationSourceName(row->source);
                case Updated: return formatTime(row->updatedAt);
            }
            return {};
    }
    return {};
}

} // namespace Switchyard::Console
