#pragma once

// Cron's rows, as values (the admin layer and the console use them without the service).

#include <QDateTime>
#include <QString>

#include <map>

namespace Switchyard {

// One row of the Cron page and of GET /cron.
struct CronTaskInfo
{
    QString name;
    QString title;
    QString schedule;
    bool enabled = false;
    bool runAtStart = false;
    bool noticeOnSuccess = false;
    bool running = false;
    bool paused = false;
    QDateTime next; // invalid when not scheduled
    QDateTime prev; // the later of the last scheduled and the last manual run
    QString status; // "", "finished", "cancelled", "error"
    QString message;
    qint64 execTimes = 0;
    QString lastDoer;
    // This instance's runs and skipped firings since start, by status (the metrics' counters).
    std::map<QString, qint64> runsByStatus;

    bool operator==(const CronTaskInfo &) const = default; // models diff rows with it
};

// One entry of GET /cron/{name}/runs: a run, or a firing that was skipped and why.
struct CronRunRecord
{
    qint64 id = 0;
    QString instanceId;
    QString trigger; // "schedule", "manual", "start"
    QString doer;
    QDateTime startedAt;
    qint64 durationMs = 0;
    QString status;  // "finished", "cancelled", "error", "skipped"
    QString message; // for skipped: the reason — lock_held, tick_claimed, paused, redis_down
    QString traceId;

    bool operator==(const CronRunRecord &) const = default; // models diff rows with it
};

} // namespace Switchyard
