#include "cronmodel.h"

#include "widgets/statuscolors.h"

#include "widgets/format.h"
#include "widgets/icons.h"

#include <QBrush>
#include <QColor>

namespace Switchyard::Console {

CronModel::CronModel(QObject *parent) : RowTableModel(parent) {}

int CronModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

CronModel::State CronModel::stateOf(const Admin::CronRow &row)
{
    if (row.running)
        return State::Running;
    if (!row.enabled)
        return State::Disabled;
    if (row.paused)
        return State::Paused;
    if (row.status == QLatin1String("error"))
        return State::Error;
    if (row.status == QLatin1String("cancelled"))
        return State::Cancelled;
    if (row.status == QLatin1String("finished"))
        return State::Finished;
    return State::NeverRun;
}

QString CronModel::stateText(State state)
{
    switch (state) {
        case State::Running: return tr("Running");
        case State::Paused: return tr("Paused");
        case State::Disabled: return tr("Disabled");
        case State::Error: return tr("Error");
        case State::Cancelled: return tr("Cancelled");
        case State::Finished: return tr("Finished");
        case State::NeverRun: return tr("Not run yet");
    }
    return {};
}

QColor CronModel::stateColor(State state)
{
    switch (state) {
        case State::Running: return statusColor(StatusColor::Info);
        case State::Paused: return statusColor(StatusColor::Paused);
        case State::Disabled: return statusColor(StatusColor::Muted);
        case State::Error: return statusColor(StatusColor::Error);
        case State::Cancelled: return statusColor(StatusColor::Cancelled);
        case State::Finished: return statusColor(StatusColor::Ok);
        case State::NeverRun: return statusColor(StatusColor::Muted);
    }
    return {};
}

QVariant CronModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return section == Runs ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Task: return tr("Task");
        case Schedule: return tr("Schedule");
        case Next: return tr("Next run");
        case Previous: return tr("Previous run");
        case Status: return tr("Status");
        case Runs: return tr("Runs");
        case Message: return tr("Last message");
    }
    return {};
}

QVariant CronModel::data(const QModelIndex &index, int role) const
{
    const Admin::CronRow *row = rowAt(index.row());
    if (!row)
        return {};
    const int column = index.column();
    const State state = stateOf(*row);
    switch (role) {
        case KeyRole: return row->name;
        case AttentionRole: return state == State::Error;
        case Qt::TextAlignmentRole:
            return column == Runs ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            return column == Status ? QVariant(QBrush(stateColor(state))) : QVariant();
        case Qt::DecorationRole:
            return column == Status ? QVariant(Icons::state(stateColor(state))) : QVariant();
        case RawRole:
            switch (column) {
                case Task: return row->title.isEmpty() ? row->name : row->title;
                case Schedule: return row->schedule;
                case Next: return row->next.isValid() ? row->next.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
                case Previous: return row->prev.isValid() ? row->prev.toMSecsSinceEpoch() : 0;
                case Status: return int(state);
                case Runs: return row->execTimes;
                case Message: return row->message;
            }
            return {};
        case Qt::ToolTipRole:
            switch (column) {
                case Task: return tr("%1 (%2)").arg(row->title, row->name);
                case Schedule: return describeSchedule(row->schedule);
                case Next: return formatTime(row->next);
                case Previous: return row->lastDoer.isEmpty() ? formatTime(row->prev) : tr("%1 by %2").arg(formatTime(row->prev), row->lastDoer);
                case Message: return row->message;
            }
            return {};
        case Qt::DisplayRole:
            switch (column) {
                case Task: return row->title.isEmpty() ? row->name : row->title;
                case Schedule: {
                    // "@every 30s" says it already; a cron expression gets its words beside it.
                    const QString words = row->schedule.startsWith(QLatin1Char('@')) ? QString() : describeSchedule(row->schedule);
                    return words.isEmpty() ? row->schedule : QStringLiteral("%1 — %2").arg(row->schedule, words);
                }
                case Next:
                    if (state == State::Disabled)
                        return tr("disabled");
                    if (state == State::Paused)
                        return tr("paused");
                    return row->next.isValid() ? formatRelative(row->next, m_now) : QStringLiteral("—");
                case Previous: return row->prev.isValid() ? formatRelative(row->prev, m_now) : tr("never");
                case Status: return stateText(state);
                case Runs: return formatCount(row->execTimes);
                case Message: return row->message.section(QLatin1Char('\n'), 0, 0);
            }
            return {};
    }
    return {};
}

void CronModel::tick(const QDateTime &now)
{
    m_now = now;
    touchColumn(Next);
    touchColumn(Previous);
}

} // namespace Switchyard::Console
