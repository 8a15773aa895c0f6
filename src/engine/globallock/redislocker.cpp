#include "globallock_p.h"

#include "engine/redis/redisconnection.h"

#include <QRandomGenerator>

#include <condition_variable>
#include <map>
#include <thread>

namespace Switchyard {

namespace {

// KEYS: lock, meta, fencing counter. ARGV: token, ttl ms, owner, now (ms since epoch), counter
// floor. Returns the new fencing token, or 0 when the key is held. A missing counter (first use,
// or a Redis that restarted without persistence) starts at the floor — the current time in
// microseconds — so tokens keep increasing across such a restart.
const RedisScript &acquireScript()
{
    static const RedisScript script(R"lua(
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if redis.call('EXISTS', KEYS[3]) == 0 then redis.call('SET', KEYS[3], ARGV[5]) end
  local fence = redis.call('INCR', KEYS[3])
  redis.call('HSET', KEYS[2], 'owner', ARGV[3], 'acquired_at', ARGV[4], 'fencing', fence, 'extensions', 0)
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return fence
end
return 0
)lua");
    return script;
}

// KEYS: lock, meta. ARGV: token. Compare-and-delete.
const RedisScript &unlockScript()
{
    static const RedisScript script(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2])
  return 1
end
return 0
)lua");
    return script;
}

// KEYS: lock, meta. ARGV: token, ttl ms. Compare-and-pexpire.
const RedisScript &extendScript()
{
    static const RedisScript script(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  redis.call('HINCRBY', KEYS[2], 'extensions', 1)
  return 1
end
return 0
)lua");
    return script;
}

// KEYS: fencing counter. ARGV: floor. Redlock: later acquisitions start above this one's token.
const RedisScript &raiseFenceScript()
{
    static const RedisScript script(R"lua(
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
)lua");
    return script;
}

class RedisLocker final : public Locker
{
public:
    struct Lease
    {
        QString key;
        QByteArray token;
        qint64 fencing = 0;
        SteadyClock::time_point acquiredAt;
        SteadyClock::time_point validUntil;
        SteadyClock::time_point nextExtendAt;
        bool capped = false;
        std::weak_ptr<Detail::HeldLock> holder;
    };

    struct State
    {
        LockerOptions options;
        std::vector<std::unique_ptr<RedisPool>> nodes;
        size_t quorum = 1;
        QString backend;

        std::mutex mutex;
        std::condition_variable_any extenderWake; // a lease needs attention sooner than planned
        std::condition_variable_any released;     // a lock of this process was released
        std::map<quint64, Lease> leases; // guarded by mutex
        quint64 nextLeaseId = 0;         // guarded by mutex
        quint64 releases = 0;            // guarded by mutex
        int localWaiters = 0;            // guarded by mutex; lock() calls waiting for a release
        std::map<QString, int> waitersByKey; // guarded by mutex; lock() calls of this process per key
        quint64 generation = 0;          // guarded by mutex; bumped when the extender must re-plan
        SteadyClock::time_point extenderWakeAt = SteadyClock::time_point::max(); // guarded by mutex
        CancelSource stop;

        QByteArray lockKey(const QString &key) const { return (options.keyPrefix + key).toUtf8(); }
        QByteArray metaKey(const QString &key) const { return (options.keyPrefix + QStringLiteral("{meta}:") + key).toUtf8(); }
        QByteArray fenceKey() const { return (options.keyPrefix + QStringLiteral("{fencing}")).toUtf8(); }
        std::chrono::milliseconds drift() const
        {
            return std::chrono::milliseconds(qint64(double(options.ttl.count()) * options.driftFactor) + 2);
        }
        // Redlock: each node gets a short time, so one slow node cannot eat the lease.
        std::chrono::milliseconds nodeTimeout() const
        {
            if (nodes.size() == 1)
                return std::max(options.ttl / 2, std::chrono::milliseconds(10));
            return std::clamp(options.ttl / 20, std::chrono::milliseconds(10), std::chrono::milliseconds(500));
        }

        Result<RedisValue> onNode(size_t node, const CancelToken &cancel, const RedisScript &script,
                                  const QList<QByteArray> &keys, const QList<QByteArray> &args)
        {
            const CancelSource bounded(cancel, SteadyClock::now() + nodeTimeout());
            return nodes[node]->with([&](RedisConnection &c) { return c.eval(bounded.token(), script, keys, args); });
        }

        // Compare-and-delete on every node — also those whose acquire reply was lost or timed out
        // after they applied SET NX — within releaseTimeout in total, never on the caller's token.
        void unlockEverywhere(const QString &key, const QByteArray &token)
        {
            // Each node gets its share, so one hung node cannot starve the others.
            const CancelSource bounded = CancelSource::withTimeout(CancelToken(), options.releaseTimeout);
            for (size_t node = 0; node < nodes.size(); ++node) {
                std::optional<CancelSource> perNode; // one node: the overall bound is its share
                if (nodes.size() > 1)
                    perNode.emplace(bounded.token(), SteadyClock::now() + nodeTimeout());
                const CancelToken within = perNode ? perNode->token() : bounded.token();
                const Result<RedisValue> done = nodes[node]->with([&](RedisConnection &c) {
                    return c.eval(within, unlockScript(), {lockKey(key), metaKey(key)}, {token});
                });
                if (!done)
                    qCDebug(lcLock).noquote() << "lock" << key << ": release on" << nodes[node]->address().display()
                                              << "failed (the lease expires by itself):" << done.status().message();
            }
        }

        void release(quint64 leaseId, const QString &key, const QByteArray &token)
        {
            {
                std::lock_guard lock(mutex);
                leases.erase(leaseId);
            }
            unlockEverywhere(key, token);
            std::lock_guard lock(mutex);
            ++releases;
            if (localWaiters > 0)
                released.notify_all();
        }
    };

    explicit RedisLocker(std::shared_ptr<State> state) : m_state(std::move(state))
    {
        m_extender = std::thread([state = m_state] { extendLoop(state); });
    }

    ~RedisLocker() override
    {
        m_state->stop.cancel(QStringLiteral("locker closed")); // wakes the extender
        m_extender.join();
    }

    QString backend() const override { return m_state->backend; }

    Result<LockGuard> tryLock(const CancelToken &cancel, const QString &key) override
    {
        Result<std::optional<LockGuard>> attempt = tryAcquire(cancel, key);
        if (!attempt)
            return attempt.status();
        if (!*attempt)
            return LockGuard();
        return std::move(**attempt);
    }

    Result<LockGuard> lock(const CancelToken &cancel, const QString &key) override
    {
        auto delay = m_state->options.retryMin;
        bool waiting = false; // counted in waitersByKey (the Locks page's "waiters")
        struct Uncount
        {
            State &state;
            const QString &key;
            bool &waiting;
            ~Uncount()
            {
                if (!waiting)
                    return;
                std::lock_guard lock(state.mutex);
                if (--state.waitersByKey[key] <= 0)
                    state.waitersByKey.erase(key);
            }
        } uncount{*m_state, key, waiting};
        while (true) {
            quint64 releasesBefore = 0;
            {
                std::lock_guard lock(m_state->mutex);
                releasesBefore = m_state->releases;
            }
            Result<std::optional<LockGuard>> attempt = tryAcquire(cancel, key);
            if (!attempt)
                return attempt.status();
            if (*attempt)
                return std::move(**attempt);
            // Held: sleep a random while (Redlock: desynchronise competitors), or until a holder
            // in this process releases.
            const auto jitter = std::chrono::milliseconds(
                QRandomGenerator::global()->bounded(qint64(m_state->options.retryMin.count()), qint64(delay.count()) + 1));
            std::unique_lock lock(m_state->mutex);
            if (!waiting) {
                waiting = true;
                ++m_state->waitersByKey[key];
            }
            ++m_state->localWaiters;
            cancel.waitUntil(m_state->released, lock, SteadyClock::now() + jitter,
                             [&] { return m_state->releases != releasesBefore; });
            --m_state->localWaiters;
            if (cancel.isCancelled())
                return cancel.cause();
            delay = std::min(delay * 2, m_state->options.retryMax);
        }
    }

    Result<std::vector<LockInfo>> list(const CancelToken &cancel) override
    {
        Status last;
        for (const std::unique_ptr<RedisPool> &node : m_state->nodes) {
            Result<std::vector<LockInfo>> infos = node->with([&](RedisConnection &c) { return listOn(cancel, c); });
            if (!infos) {
                last = infos.status();
                continue;
            }
            std::lock_guard lock(m_state->mutex); // waiters: the ones this process knows of
            for (LockInfo &info : *infos) {
                const auto it = m_state->waitersByKey.find(info.key);
                info.waiters = it == m_state->waitersByKey.end() ? 0 : it->second;
            }
            return infos;
        }
        return last;
    }

    Status forceRelease(const CancelToken &cancel, const QString &key, const QString &doer) override
    {
        std::optional<LockInfo> info;
        size_t deleted = 0;
        for (const std::unique_ptr<RedisPool> &node : m_state->nodes) {
            node->with([&](RedisConnection &c) {
                if (!info) {
                    if (Result<std::vector<LockInfo>> infos = listOn(cancel, c, key); infos && !infos->empty())
                        info = infos->front();
                }
                const Result<RedisValue> reply = c.command(cancel, {"DEL", m_state->lockKey(key), m_state->metaKey(key)});
                if (reply && reply->integer > 0)
                    ++deleted;
                return reply;
            });
        }
        if (deleted == 0)
            return Status::notFound(QStringLiteral("lock %1 is not held").arg(key));
        // A holder in this process learns it now; others at their next extension.
        std::vector<std::shared_ptr<Detail::HeldLock>> local;
        {
            std::lock_guard lock(m_state->mutex);
            for (auto it = m_state->leases.begin(); it != m_state->leases.end();) {
                if (it->second.key == key) {
                    if (auto holder = it->second.holder.lock())
                        local.push_back(holder);
                    it = m_state->leases.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (const auto &holder : local)
            holder->markLost(QStringLiteral("force-released by %1").arg(doer));
        if (!info) {
            info = LockInfo();
            info->key = key;
            info->backend = m_state->backend;
        }
        notifyForceRelease(*info, doer);
        return Status::ok();
    }

private:
    Result<std::vector<LockInfo>> listOn(const CancelToken &cancel, RedisConnection &c, const QString &only = QString())
    {
        const QByteArray prefix = m_state->options.keyPrefix.toUtf8();
        QList<QByteArray> keys;
        if (!only.isEmpty()) {
            keys.append(m_state->lockKey(only));
        } else {
            QByteArray cursor = "0";
            do {
                const Result<RedisValue> page = c.command(cancel, {"SCAN", cursor, "MATCH", prefix + "*", "COUNT", "1000"});
                if (!page)
                    return page.status();
                if (page->elements.size() != 2)
                    return Status::internal(QStringLiteral("unexpected SCAN reply"));
                cursor = page->elements[0].string;
                for (const RedisValue &key : page->elements[1].elements) {
                    if (!key.string.startsWith(prefix + "{"))
                        keys.append(key.string);
                }
            } while (cursor != "0");
        }
        std::vector<LockInfo> infos;
        for (const QByteArray &lockKey : keys) {
            const QString key = QString::fromUtf8(lockKey.mid(prefix.size()));
            const Result<std::vector<RedisValue>> replies =
                c.pipeline(cancel, {{"GET", lockKey}, {"PTTL", lockKey}, {"HGETALL", m_state->metaKey(key)}});
            if (!replies)
                return replies.status();
            if ((*replies)[0].isNil())
                continue; // expired meanwhile
            LockInfo info;
            info.key = key;
            info.backend = m_state->backend;
            info.tokenPrefix = QString::fromLatin1((*replies)[0].string.left(8));
            info.ttlMs = (*replies)[1].integer;
            const std::vector<RedisValue> &fields = (*replies)[2].elements;
            for (size_t i = 0; i + 1 < fields.size(); i += 2) {
                const QByteArray &name = fields[i].string;
                const QByteArray &value = fields[i + 1].string;
                if (name == "owner")
                    info.owner = QString::fromUtf8(value);
                else if (name == "acquired_at")
                    info.acquiredAt = QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
                else if (name == "fencing")
                    info.fencingToken = value.toLongLong();
                else if (name == "extensions")
                    info.extensions = value.toInt();
            }
            infos.push_back(std::move(info));
        }
        return infos;
    }

    Result<std::optional<LockGuard>> tryAcquire(const CancelToken &cancel, const QString &key)
    {
        State &state = *m_state;
        if (cancel.isCancelled())
            return cancel.cause();
        const QByteArray token = Detail::randomLockToken().toLatin1();
        const QByteArray ttl = QByteArray::number(qint64(state.options.ttl.count()));
        const QByteArray owner = state.options.instanceId.toUtf8();
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        const QByteArray now = QByteArray::number(nowMs);
        const QByteArray floor = QByteArray::number(nowMs * 1000);
        const auto started = SteadyClock::now();

        std::vector<size_t> acquired;
        qint64 fencing = 0;
        size_t heldElsewhere = 0;
        QStringList errors;
        for (size_t node = 0; node < state.nodes.size(); ++node) {
            const Result<RedisValue> reply = state.onNode(node, cancel, acquireScript(),
                                                          {state.lockKey(key), state.metaKey(key), state.fenceKey()},
                                                          {token, ttl, owner, now, floor});
            if (cancel.isCancelled()) {
                state.unlockEverywhere(key, token);
                return cancel.cause();
            }
            if (!reply) {
                errors.append(state.nodes[node]->address().display() + QStringLiteral(": ") + reply.status().message());
            } else if (reply->integer > 0) {
                acquired.push_back(node);
                fencing = std::max(fencing, reply->integer);
            } else {
                ++heldElsewhere;
            }
        }
        const auto validUntil = started + state.options.ttl - state.drift();
        if (acquired.size() >= state.quorum && SteadyClock::now() < validUntil) {
            if (state.nodes.size() > 1) {
                // Every later majority overlaps this one, so raising the counter on a majority
                // to our token keeps tokens strictly increasing when the majority changes. Not on
                // the caller's token: a cancel now must not leave a half-raised counter behind.
                const CancelSource raiseWithin(CancelToken(), validUntil);
                size_t raised = 0;
                QStringList raiseErrors;
                for (size_t node : acquired) {
                    const Result<RedisValue> reply = state.onNode(node, raiseWithin.token(), raiseFenceScript(),
                                                                  {state.fenceKey()}, {QByteArray::number(fencing)});
                    if (reply)
                        ++raised;
                    else
                        raiseErrors.append(state.nodes[node]->address().display() + QStringLiteral(": ") + reply.status().message());
                }
                if (raised < state.quorum || SteadyClock::now() >= validUntil) {
                    state.unlockEverywhere(key, token);
                    return Status::unavailable(QStringLiteral("lock %1: the fencing token was recorded on %2 of %3 Redis node(s), %4 needed: %5")
                                                   .arg(key).arg(raised).arg(state.nodes.size()).arg(state.quorum)
                                                   .arg(raiseErrors.join(QStringLiteral("; "))));
                }
                if (cancel.isCancelled()) {
                    state.unlockEverywhere(key, token);
                    return cancel.cause();
                }
            }
            Lease lease;
            lease.key = key;
            lease.token = token;
            lease.fencing = fencing;
            lease.acquiredAt = started;
            lease.validUntil = validUntil;
            lease.nextExtendAt = started + state.options.extendInterval;
            std::weak_ptr<State> weakState = m_state;
            quint64 leaseId = 0;
            {
                std::lock_guard lock(state.mutex);
                leaseId = ++state.nextLeaseId;
            }
            auto held = std::make_shared<Detail::HeldLock>(key, fencing, [weakState, leaseId, key, token] {
                if (auto alive = weakState.lock())
                    alive->release(leaseId, key, token);
            });
            lease.holder = held;
            {
                std::lock_guard lock(state.mutex);
                const auto attention = std::min(lease.nextExtendAt, lease.validUntil);
                state.leases.emplace(leaseId, std::move(lease));
                if (attention < state.extenderWakeAt) { // otherwise the extender wakes early enough
                    ++state.generation;
                    state.extenderWake.notify_all();
                }
            }
            return std::optional<LockGuard>(LockGuard(std::move(held)));
        }
        state.unlockEverywhere(key, token);
        if (acquired.size() + heldElsewhere < state.quorum)
            return Status::unavailable(QStringLiteral("lock %1: reached %2 of %3 Redis node(s), %4 needed: %5")
                                           .arg(key).arg(acquired.size() + heldElsewhere).arg(state.nodes.size())
                                           .arg(state.quorum).arg(errors.join(QStringLiteral("; "))));
        return std::optional<LockGuard>();
    }

    static void extendLoop(const std::shared_ptr<State> &state)
    {
        const CancelToken stop = state->stop.token();
        std::unique_lock lock(state->mutex);
        while (!stop.isCancelled()) {
            const auto now = SteadyClock::now();
            std::optional<std::pair<quint64, Lease>> due;
            auto wakeAt = now + std::chrono::hours(1);
            for (const auto &[id, lease] : state->leases) {
                const auto at = std::min(lease.nextExtendAt, lease.validUntil);
                if (at <= now) {
                    due = std::make_pair(id, lease);
                    break;
                }
                wakeAt = std::min(wakeAt, at);
            }
            if (!due) {
                const quint64 generation = state->generation;
                state->extenderWakeAt = wakeAt;
                stop.waitUntil(state->extenderWake, lock, wakeAt, [&] { return state->generation != generation; });
                state->extenderWakeAt = SteadyClock::time_point::min(); // awake: new leases need no wake-up
                continue;
            }
            const quint64 id = due->first;
            Lease lease = std::move(due->second);
            lock.unlock();

            QString lost;
            if (now >= lease.validUntil) {
                lost = lease.capped ? QStringLiteral("reached the maximum hold time of %1 ms").arg(state->options.maxHold.count())
                                    : QStringLiteral("its lease expired before it could be extended");
            } else if (state->options.maxHold.count() > 0 && !lease.capped
                       && now - lease.acquiredAt + state->options.ttl > state->options.maxHold) {
                lease.capped = true; // no more extensions: the lease runs out
                lease.nextExtendAt = lease.validUntil;
            } else if (!lease.capped) {
                const auto started = SteadyClock::now();
                const CancelSource bounded(stop, lease.validUntil);
                size_t extended = 0;
                size_t refused = 0;
                for (size_t node = 0; node < state->nodes.size(); ++node) { // compare-and-pexpire: harmless where not ours
                    const Result<RedisValue> reply = state->onNode(node, bounded.token(), extendScript(),
                                                                   {state->lockKey(lease.key), state->metaKey(lease.key)},
                                                                   {lease.token, QByteArray::number(qint64(state->options.ttl.count()))});
                    if (reply && reply->integer == 1)
                        ++extended;
                    else if (reply)
                        ++refused;
                }
                if (extended >= state->quorum) {
                    lease.validUntil = started + state->options.ttl - state->drift();
                    lease.nextExtendAt = SteadyClock::now() + state->options.extendInterval;
                } else if (state->nodes.size() - refused < state->quorum) {
                    lost = QStringLiteral("an extension was refused (force-released or taken over after expiry)");
                } else {
                    // Unreachable nodes: try again soon, while the lease is still valid.
                    const auto left = lease.validUntil - SteadyClock::now();
                    lease.nextExtendAt = SteadyClock::now() + std::max<SteadyClock::duration>(left / 4, std::chrono::milliseconds(5));
                }
            }

            lock.lock();
            const auto it = state->leases.find(id);
            if (it == state->leases.end())
                continue; // released meanwhile
            if (lost.isEmpty()) {
                const int extensions = lease.validUntil != it->second.validUntil ? 1 : 0;
                it->second.validUntil = lease.validUntil;
                it->second.nextExtendAt = lease.nextExtendAt;
                it->second.capped = lease.capped;
                if (extensions)
                    qCDebug(lcLock).noquote() << "lock" << lease.key << "extended";
                continue;
            }
            std::shared_ptr<Detail::HeldLock> holder = it->second.holder.lock();
            state->leases.erase(it);
            lock.unlock();
            qCWarning(lcLock).noquote() << "lock" << lease.key << "lost:" << lost;
            if (holder)
                holder->markLost(lost);
            lock.lock();
        }
    }

    std::shared_ptr<State> m_state;
    std::thread m_extender; // joined by the destructor
};

} // namespace

Result<std::unique_ptr<Locker>> createRedisLocker(const CancelToken &cancel, const QStringList &addresses,
                                                  const LockerOptions &options)
{
    if (addresses.isEmpty())
        return Status::invalidArgument(QStringLiteral("[global_lock] SERVICE_CONN_STR: no Redis address"));
    auto state = std::make_shared<RedisLocker::State>();
    state->options = options;
    for (const QString &text : addresses) {
        Result<RedisAddress> address = RedisAddress::parse(text);
        if (!address)
            return Status::invalidArgument(QStringLiteral("[global_lock] SERVICE_CONN_STR: %1").arg(address.status().message()));
        state->nodes.push_back(std::make_unique<RedisPool>(*address));
    }
    state->quorum = state->nodes.size() / 2 + 1;
    state->backend = state->nodes.size() > 1 ? QStringLiteral("redlock") : QStringLiteral("redis");

    QStringList failures;
    size_t reachable = 0;
    for (const std::unique_ptr<RedisPool> &node : state->nodes) {
        const Status ping = node->with([&](RedisConnection &c) {
            return pingWithRetries(cancel, c, options.connectAttempts, options.connectInterval);
        });
        if (ping)
            ++reachable;
        else
            failures.append(ping.message());
    }
    if (reachable < state->quorum)
        return Status::unavailable(QStringLiteral("global lock: %1 of %2 Redis node(s) reachable, %3 needed: %4")
                                       .arg(reachable).arg(state->nodes.size()).arg(state->quorum)
                                       .arg(failures.join(QStringLiteral("; "))));
    if (!failures.isEmpty())
        qCWarning(lcLock).noquote() << "global lock: continuing with" << reachable << "of" << state->nodes.size()
                                    << "nodes:" << failures.join(QStringLiteral("; "));
    return std::unique_ptr<Locker>(std::make_unique<RedisLocker>(std::move(state)));
}

} // namespace Switchyard
