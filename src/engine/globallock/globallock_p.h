#pragma once

// Internal to the globallock folder.

#include "globallock.h"

#include <QLoggingCategory>

#include <atomic>
#include <mutex>

Q_DECLARE_LOGGING_CATEGORY(lcLock)

namespace Switchyard::Detail {

// What a LockGuard points at. The backend's release function runs once; the token is cancelled
// before it, so protected work sees "released" first.
struct HeldLock
{
    HeldLock(QString key, qint64 fencing, std::function<void()> releaseFn)
        : key(std::move(key)), fencing(fencing), releaseFn(std::move(releaseFn))
    {
    }

    void release()
    {
        std::call_once(once, [this] {
            released = true;
            lost.cancel(QStringLiteral("lock %1 released").arg(key));
            if (releaseFn)
                releaseFn();
        });
    }
    // The backend tells the holder its lock is gone.
    void markLost(const QString &why) { lost.cancel(Status::cancelled(QStringLiteral("lock %1 lost: %2").arg(key, why))); }

    const QString key;
    const qint64 fencing;
    CancelSource lost; // a root: only release or loss cancels it, not the acquirer's token
    std::function<void()> releaseFn;
    std::once_flag once;
    std::atomic<bool> released = false;
};

// 128 random bits as 32 hex digits.
QString randomLockToken();

} // namespace Switchyard::Detail
