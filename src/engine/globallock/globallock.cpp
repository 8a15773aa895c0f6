#include "globallock_p.h"

#include "engine/settings/config.h"

#include <QRandomGenerator>

Q_LOGGING_CATEGORY(lcLock, "switchyard.globallock", QtInfoMsg)

namespace Switchyard {

namespace Detail {

QString randomLockToken()
{
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(words), sizeof(words)).toHex());
}

} // namespace Detail

LockGuard::LockGuard(std::shared_ptr<Detail::HeldLock> held) : m_held(std::move(held)) {}

LockGuard &LockGuard::operator=(LockGuard &&other) noexcept
{
    if (this != &other) {
        release();
        m_held = std::move(other.m_held);
    }
    return *this;
}

LockGuard::~LockGuard()
{
    release();
}

QString LockGuard::key() const
{
    return m_held ? m_held->key : QString();
}

qint64 LockGuard::fencingToken() const
{
    return m_held ? m_held->fencing : 0;
}

CancelToken LockGuard::token() const
{
    return m_held ? m_held->lost.token() : CancelToken();
}

bool LockGuard::isHeld() const
{
    return m_held && !m_held->released && !m_held->lost.isCancelled();
}

void LockGuard::release()
{
    if (m_held)
        m_held->release();
}

void Locker::setForceReleaseObserver(ForceReleaseObserver observer)
{
    std::lock_guard lock(m_observerMutex);
    m_observer = std::move(observer);
}

void Locker::notifyForceRelease(const LockInfo &info, const QString &doer)
{
    ForceReleaseObserver observer;
    {
        std::lock_guard lock(m_observerMutex);
        observer = m_observer;
    }
    qCWarning(lcLock).noquote() << "lock" << info.key << "force-released by" << doer << "(holder" << info.owner
                                << ", fencing token" << info.fencingToken << ")";
    if (observer)
        observer(info, doer);
}

// `fn` sees one token: cancelled when the caller's is, or when the lock is lost.
static Status runLocked(const LockGuard &guard, const CancelToken &cancel,
                        const std::function<Status(const CancelToken &, qint64)> &fn)
{
    CancelSource both(cancel);
    const CancelToken lockToken = guard.token();
    const CancelCallback forward = lockToken.onCancel([&both, lockToken] { both.cancel(lockToken.cause()); });
    return fn(both.token(), guard.fencingToken());
}

Status lockAndDo(Locker &locker, const CancelToken &cancel, const QString &key,
                 const std::function<Status(const CancelToken &, qint64)> &fn)
{
    Result<LockGuard> guard = locker.lock(cancel, key);
    if (!guard)
        return guard.status();
    return runLocked(*guard, cancel, fn); // the guard releases on return
}

Result<bool> tryLockAndDo(Locker &locker, const CancelToken &cancel, const QString &key,
                          const std::function<Status(const CancelToken &, qint64)> &fn)
{
    Result<LockGuard> guard = locker.tryLock(cancel, key);
    if (!guard)
        return guard.status();
    if (!guard->acquired())
        return false;
    if (Status done = runLocked(*guard, cancel, fn); !done)
        return done;
    return true;
}

Result<std::unique_ptr<Locker>> createLocker(const CancelToken &cancel, const EngineConfig &config, LockerOptions options)
{
    options.keyPrefix = config.globalLock.keyPrefix;
    options.maxHold = std::chrono::duration_cast<std::chrono::milliseconds>(config.globalLock.maxHoldTime);
    if (config.globalLock.serviceType == QLatin1String("redis")) {
        QStringList addresses;
        for (const QString &address : config.globalLock.serviceConnStr.split(QLatin1Char(','), Qt::SkipEmptyParts))
            addresses.append(address.trimmed());
        if (addresses.isEmpty())
            addresses.append(QStringLiteral("redis://127.0.0.1:6379/0"));
        return createRedisLocker(cancel, addresses, options);
    }
    return createMemoryLocker(options);
}

} // namespace Switchyard
