#include "cronrunmodel.h"

#include "cronmodel.h"
#include "widgets/format.h"
#include "widgets/icons.h"

#include <QBrush>

namespace Switchyard::Console {

CronRunModel::CronRunModel(QObject *parent) : RowTableModel(parent) {}

int CronRunModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CronRunModel::skipReason(const QString &reason)
{
    if (reason == QLatin1String("lock_held"))
        return tr("skipped: another instance holds the task's lock");
    if (reason == QLatin1String("tick_claimed"))
        return tr("skipped: another instance ran this tick");
    if (reason == QLatin1String("paused"))
        return tr("skipped: the task is paused");
    if (reason == QLatin1String("redis_down"))
        return tr("skipped: Redis could not be reached");
    return tr("skipped: %1").arg(reason);
}

QVariant CronRunModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Started: return tr("Started");
        case Trigger: return tr("Trigger");
        case Doer: return tr("Doer");
        case Instance: return tr("Instance");
        case Duration: return tr("Duration");
        case Status: return tr("Status");
        case Message: return tr("Message");
    }
    return {};
}

QVariant CronRunModel::data(const QModelIndex &index, int role) const
{
    const Admin::CronRun *run = rowAt(index.row());
    if (!run)
        return {};
    const bool skipped = run->status == QLatin1String("skipped");
    CronModel::State state = CronModel::State::Finished;
    if (run->status == QLatin1String("error"))
        state = CronModel::State::Error;
    else if (run->status == QLatin1String("cancelled"))
        state = CronModel::State::Cancelled;
    else if (skipped)
        state = CronModel::State::Paused;
    switch (role) {
        case KeyRole: return run->id;
        case RawRole:
            switch (index.column()) {
                case Started: return run->startedAt.toMSecsSinceEpoch();
                case Duration: return run->durationMs;
                default: return data(index, Qt::DisplayRole);
            }
        case Qt::ForegroundRole: return index.column() == Status ? QVariant(QBrush(CronModel::stateColor(state))) : QVariant();
        case Qt::DecorationRole: return index.column() == Status ? QVariant(Icons::state(CronModel::stateColor(state))) : QVariant();
        case Qt::ToolTipRole: return index.column() == Message ? run->message : QVariant();
        case Qt::DisplayRole:
            switch (index.column()) {
                case Started: return formatTime(run->startedAt);
                case Trigger: return run->trigger;
                case Doer: return run->doer;
                case Instance: return run->instanceId;
                case Duration: return skipped ? QStringLiteral("—") : formatDuration(run->durationMs);
                case Status: return run->status;
                case Message: return skipped ? skipReason(run->message) : run->message.section(QLatin1Char('\n'), 0, 0);
            }
            return {};
    }
    return {};
}

} // namespace Switchyard::Console
