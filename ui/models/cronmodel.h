#pragma once

#include "rowtablemodel.h"

#include "admin/admintypes.h"

namespace Switchyard::Console {

// The Cron table: one row per task, keyed by name; the Next column counts down live (tick()).
// GUI thread only.
class CronModel final : public RowTableModel<Admin::CronRow, QString>
{
    Q_OBJECT
public:
    enum Column { Task, Schedule, Next, Previous, Status, Runs, Message, ColumnCount };
    // Status as the page shows it: running and paused come before the last run's outcome.
    enum class State { Running, Paused, Disabled, Error, Cancelled, Finished, NeverRun };

    explicit CronModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static State stateOf(const Admin::CronRow &row);
    static QString stateText(State state);
    // The colour of a state (also used by the history pane).
    static QColor stateColor(State state);
    // Moves the countdowns on: call every second.
    void tick(const QDateTime &now = QDateTime::currentDateTimeUtc());

protected:
    QString keyOf(const Admin::CronRow &row) const override { return row.name; }

private:
    QDateTime m_now = QDateTime::currentDateTimeUtc();
};

} // namespace Switchyard::Console
