#pragma once

// A registered process, as a value (the admin layer and the console use it without the registry).

#include <QDateTime>
#include <QString>

namespace Switchyard {

// What a registered process is (Gitea's process manager types).
enum class ProcessType {
    System,  // a long-running component: a queue's worker pool, the cron scheduler
    Normal,  // a unit of work: a cron run, a flush, a delivery, an admin job
    Request, // an admin API request
};

QString processTypeName(ProcessType type);

struct ProcessInfo
{
    qint64 pid = 0;
    qint64 parentPid = 0; // 0: no parent
    ProcessType type = ProcessType::Normal;
    QString description;
    QDateTime startedAt; // UTC
    bool cancellable = false;
    // A job's progress (a bulk redelivery): items done of total; -1 when the process has none.
    qint64 done = -1;
    qint64 total = -1;

    bool operator==(const ProcessInfo &) const = default; // models diff rows with it
};

} // namespace Switchyard
