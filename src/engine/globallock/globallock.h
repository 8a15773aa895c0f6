#pragma once

// Global locks (SPEC §5, seed 000 §10.10, seed 004): one lock per key across threads (memory) or
// across processes and machines (redis, Redlock).

#include "lockinfo.h"
#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace Switchyard {

class EngineConfig;

namespace Detail {
struct HeldLock;
}

// One acquisition. Move-only; destroying it releases the lock. Releasing (release() or the
// destructor) blocks for at most LockerOptions::releaseTimeout (2 s) on a Redis locker — it never
// waits on the acquirer's token — and not at all on the memory locker.
//
// release() is idempotent: safe on a guard that never acquired anything, safe twice, releases once
// (Gitea's ReleaseFunc contract). token() is cancelled when the lock is released or lost — its
// lease expired, an extension was refused, or an administrator force-released it — so work
// protected by the lock can stop; its cause says why. fencingToken() strictly increases with every
// acquisition of any key: pass it to the resource you write so it can refuse a stale holder.
class LockGuard
{
public:
    LockGuard() = default;
    explicit LockGuard(std::shared_ptr<Detail::HeldLock> held);
    LockGuard(LockGuard &&) noexcept = default;
    LockGuard &operator=(LockGuard &&other) noexcept;
    ~LockGuard();

    bool acquired() const { return m_held != nullptr; }
    explicit operator bool() const { return acquired(); }
    QString key() const;
    qint64 fencingToken() const;
    CancelToken token() const;
    // Whether the lock is still ours: acquired, not released, not lost.
    bool isHeld() const;
    void release();

private:
    std::shared_ptr<Detail::HeldLock> m_held;
};

// Called when an administrator force-releases a lock, so the store can record a system notice.
using ForceReleaseObserver = std::function<void(const LockInfo &released, const QString &doer)>;

// The locking interface (Gitea's globallock.Locker). Thread-safe.
//
// "Already held" is not an error: tryLock() then returns a guard that did not acquire. Errors are
// infrastructure failures (Redis unreachable, no quorum) or cancellation.
class Locker
{
public:
    virtual ~Locker() = default;
    virtual QString backend() const = 0;

    // Blocks until the lock is acquired, or fails (cancelled, infrastructure). Waiters sleep; no
    // busy loop.
    virtual Result<LockGuard> lock(const CancelToken &cancel, const QString &key) = 0;
    // Returns at once: an acquired guard, or a guard with acquired() == false when another holds it.
    virtual Result<LockGuard> tryLock(const CancelToken &cancel, const QString &key) = 0;

    virtual Result<std::vector<LockInfo>> list(const CancelToken &cancel) = 0;
    // Removes the lock whoever holds it; the holder's token is cancelled (at once when it is in
    // this process, at its next extension otherwise). NotFound when the key is not locked.
    virtual Status forceRelease(const CancelToken &cancel, const QString &key, const QString &doer) = 0;

    void setForceReleaseObserver(ForceReleaseObserver observer);

protected:
    void notifyForceRelease(const LockInfo &info, const QString &doer);

private:
    std::mutex m_observerMutex;
    ForceReleaseObserver m_observer; // guarded by m_observerMutex
};

// lock + run + release. `fn` receives a token cancelled when `cancel` is or when the lock is lost,
// and the fencing token. Its Status is returned; lock errors are returned before it runs.
Status lockAndDo(Locker &locker, const CancelToken &cancel, const QString &key,
                 const std::function<Status(const CancelToken &lockToken, qint64 fencingToken)> &fn);
// tryLock + run + release: false (and `fn` not run) when another holder has the key.
Result<bool> tryLockAndDo(Locker &locker, const CancelToken &cancel, const QString &key,
                          const std::function<Status(const CancelToken &lockToken, qint64 fencingToken)> &fn);

struct LockerOptions
{
    QString instanceId;            // shown as the owner of our locks
    QString keyPrefix = QStringLiteral("gitea:globallock:");
    // Lease of a Redis lock and how often it is extended (seed 000 §10.10.3: 30 s, every 15 s).
    std::chrono::milliseconds ttl{30000};
    std::chrono::milliseconds extendInterval{15000};
    // Longest a lock is extended; 0 = as long as the holder keeps it. After the cap the lease runs
    // out and the holder's token is cancelled.
    std::chrono::milliseconds maxHold{0};
    // Redis calls made on behalf of a release never use the caller's (maybe cancelled) token.
    std::chrono::milliseconds releaseTimeout{2000};
    // lock(): random pause between attempts, growing from retryMin to retryMax.
    std::chrono::milliseconds retryMin{20};
    std::chrono::milliseconds retryMax{500};
    // Connecting: PING this often (Gitea: 10 × 1 s).
    int connectAttempts = 10;
    std::chrono::milliseconds connectInterval{1000};
    // Redlock clock-drift allowance: ttl × driftFactor + 2 ms.
    double driftFactor = 0.01;
};

std::unique_ptr<Locker> createMemoryLocker(const LockerOptions &options);
// One address: a single Redis. Several: Redlock over independent masters (majority quorum).
// Fails (Unavailable) when a majority cannot be reached after connectAttempts.
Result<std::unique_ptr<Locker>> createRedisLocker(const CancelToken &cancel, const QStringList &addresses,
                                                  const LockerOptions &options);
// From [global_lock]: SERVICE_TYPE, SERVICE_CONN_STR (comma-separated for Redlock), KEY_PREFIX,
// MAX_HOLD_TIME.
Result<std::unique_ptr<Locker>> createLocker(const CancelToken &cancel, const EngineConfig &config, LockerOptions options);

} // namespace Switchyard
