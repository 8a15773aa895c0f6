#pragma once

// A held lock, as a value (the admin layer and the console use it without the locker).

#include <QDateTime>
#include <QString>

namespace Switchyard {

// One held lock, as the Locks page and GET /locks show it.
struct LockInfo
{
    QString key; // without the backend's key prefix
    QString backend; // "memory", "redis", "redlock"
    QString owner;   // instance id of the holder
    QString tokenPrefix; // first 8 hex digits of the holder's random token
    QDateTime acquiredAt; // UTC
    qint64 ttlMs = -1;    // remaining lease; -1 for memory locks (no lease)
    int extensions = 0;
    qint64 fencingToken = 0;
    int waiters = 0; // lock() calls of this process waiting for the key (other instances' are not known)

    bool operator==(const LockInfo &) const = default; // models diff rows with it
};

} // namespace Switchyard
