#include "globallock_p.h"

#include <condition_variable>
#include <map>

namespace Switchyard {

namespace {

// In-process locks. Waiters sleep on a condition variable (Gitea polls every 100 ms); a release
// wakes them, cancellation wakes the one cancelled. The state is shared with the guards, so a
// guard that outlives the locker releases harmlessly.
class MemoryLocker final : public Locker
{
public:
    explicit MemoryLocker(const LockerOptions &options) : m_state(std::make_shared<State>(options)) {}

    QString backend() const override { return QStringLiteral("memory"); }

    Result<LockGuard> lock(const CancelToken &cancel, const QString &key) override { return acquire(cancel, key, true); }
    Result<LockGuard> tryLock(const CancelToken &cancel, const QString &key) override { return acquire(cancel, key, false); }

    Result<std::vector<LockInfo>> list(const CancelToken &) override
    {
        std::lock_guard lock(m_state->mutex);
        std::vector<LockInfo> infos;
        for (const auto &[key, entry] : m_state->entries) {
            if (entry.held)
                infos.push_back(m_state->info(key, entry));
        }
        return infos;
    }

    Status forceRelease(const CancelToken &, const QString &key, const QString &doer) override
    {
        std::shared_ptr<Detail::HeldLock> holder;
        LockInfo info;
        {
            std::lock_guard lock(m_state->mutex);
            const auto it = m_state->entries.find(key);
            if (it == m_state->entries.end() || !it->second.held)
                return Status::notFound(QStringLiteral("lock %1 is not held").arg(key));
            info = m_state->info(key, it->second);
            holder = it->second.holder.lock();
            m_state->unlockLocked(it);
        }
        if (holder)
            holder->markLost(QStringLiteral("force-released by %1").arg(doer));
        notifyForceRelease(info, doer);
        return Status::ok();
    }

private:
    struct Entry
    {
        bool held = false;
        quint64 holdId = 0;
        std::weak_ptr<Detail::HeldLock> holder;
        qint64 fencing = 0;
        QString token;
        QDateTime acquiredAt;
        int waiters = 0;
    };

    struct State
    {
        explicit State(LockerOptions options) : options(std::move(options)) {}

        LockInfo info(const QString &key, const Entry &entry) const
        {
            LockInfo info;
            info.key = key;
            info.backend = QStringLiteral("memory");
            info.owner = options.instanceId;
            info.tokenPrefix = entry.token.left(8);
            info.acquiredAt = entry.acquiredAt;
            info.ttlMs = -1;
            info.fencingToken = entry.fencing;
            info.waiters = entry.waiters;
            return info;
        }

        // Requires mutex.
        void unlockLocked(std::map<QString, Entry>::iterator it)
        {
            it->second.held = false;
            it->second.holder.reset();
            if (it->second.waiters == 0)
                entries.erase(it);
            released.notify_all();
        }

        void unlock(const QString &key, quint64 holdId)
        {
            std::lock_guard lock(mutex);
            const auto it = entries.find(key);
            if (it != entries.end() && it->second.held && it->second.holdId == holdId)
                unlockLocked(it);
        }

        const LockerOptions options;
        std::mutex mutex;
        std::condition_variable_any released;
        std::map<QString, Entry> entries; // guarded by mutex; an entry lives while held or awaited
        quint64 nextHoldId = 0;           // guarded by mutex
        qint64 nextFencing = 0;           // guarded by mutex
    };

    Result<LockGuard> acquire(const CancelToken &cancel, const QString &key, bool wait)
    {
        const std::shared_ptr<State> state = m_state;
        std::unique_lock lock(state->mutex);
        if (cancel.isCancelled())
            return cancel.cause();
        Entry *entry = &state->entries[key];
        if (entry->held) {
            if (!wait)
                return LockGuard();
            ++entry->waiters;
            const bool free = cancel.wait(state->released, lock, [&] { return !state->entries[key].held; });
            entry = &state->entries[key]; // std::map: stable while waiters > 0
            --entry->waiters;
            if (!free) {
                if (!entry->held && entry->waiters == 0)
                    state->entries.erase(key);
                return cancel.cause();
            }
        }
        entry->held = true;
        entry->holdId = ++state->nextHoldId;
        entry->fencing = ++state->nextFencing;
        entry->token = Detail::randomLockToken();
        entry->acquiredAt = QDateTime::currentDateTimeUtc();
        const quint64 holdId = entry->holdId;
        std::weak_ptr<State> weakState = state;
        auto held = std::make_shared<Detail::HeldLock>(key, entry->fencing, [weakState, key, holdId] {
            if (auto alive = weakState.lock())
                alive->unlock(key, holdId);
        });
        entry->holder = held;
        return LockGuard(std::move(held));
    }

    std::shared_ptr<State> m_state;
};

} // namespace

std::unique_ptr<Locker> createMemoryLocker(const LockerOptions &options)
{
    return std::make_unique<MemoryLocker>(options);
}

} // namespace Switchyard
