#pragma once

// A system notice and a change to the board, as values (the admin layer and the console use them
// without the board).

#include <QDateTime>
#include <QString>

namespace Switchyard {

// A system notice (Gitea's system_model.Notice): something an operator should see on the console
// — a failed cron run, a forced lock release. Persisted in the store; the board keeps the newest
// in memory, bounded so a flood cannot exhaust memory.
struct SystemNotice
{
    qint64 id = 0;
    QString type; // "cron", "lock", ...
    QString description;
    QDateTime createdAt; // UTC

    bool operator==(const SystemNotice &) const = default; // models diff rows with it
};

// What listeners hear: a notice added, or one removed (by an operator or by age).
struct NoticeChange
{
    enum class Kind { Added, Removed };
    Kind kind = Kind::Added;
    SystemNotice notice; // Removed: the notice as it was
};

} // namespace Switchyard
