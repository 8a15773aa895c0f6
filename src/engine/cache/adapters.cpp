#include "cache.h"

#include "engine/redis/redisconnection.h"

#include <QHash>

#include <list>
#include <thread>

namespace Switchyard {

namespace {

struct Stored
{
    QString value;
    SteadyClock::time_point expiresAt = SteadyClock::time_point::max();
    bool expired(SteadyClock::time_point now) const { return now >= expiresAt; }
};

SteadyClock::time_point expiryFor(std::chrono::seconds ttl)
{
    return ttl.count() > 0 ? SteadyClock::now() + ttl : SteadyClock::time_point::max();
}

// The memory adapter: a hash with per-item expiry; a thread it owns drops expired items every
// GC interval ([cache] INTERVAL), and reads ignore expired ones in between.
class MemoryCache final : public StringCache
{
public:
    explicit MemoryCache(std::chrono::seconds gcInterval)
        : m_gc([this, gcInterval](std::stop_token stop) { collectLoop(stop, gcInterval); })
    {
    }
    ~MemoryCache() override
    {
        m_stop.cancel(QStringLiteral("cache closed"));
        m_gc.join();
    }

    QString adapter() const override { return QStringLiteral("memory"); }
    Status ping(const CancelToken &) override { return Status::ok(); }

protected:
    Result<std::optional<QString>> doGet(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_items.constFind(key);
        if (it == m_items.cend() || it->expired(SteadyClock::now()))
            return std::optional<QString>();
        return std::optional<QString>(it->value);
    }
    Status doPut(const QString &key, const QString &value, std::chrono::seconds ttl) override
    {
        std::lock_guard lock(m_mutex);
        m_items.insert(key, Stored{value, expiryFor(ttl)});
        return Status::ok();
    }
    Result<bool> doPutIfAbsent(const QString &key, const QString &value, std::chrono::seconds ttl) override
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_items.find(key);
        if (it != m_items.end() && !it->expired(SteadyClock::now()))
            return false;
        m_items.insert(key, Stored{value, expiryFor(ttl)});
        return true;
    }
    Status doRemove(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        m_items.remove(key);
        return Status::ok();
    }
    qint64 itemCount() const override
    {
        std::lock_guard lock(m_mutex);
        return m_items.size();
    }

private:
    void collectLoop(std::stop_token, std::chrono::seconds interval)
    {
        const CancelToken stop = m_stop.token();
        while (stop.sleepFor(interval)) {
            qint64 removed = 0;
            std::lock_guard lock(m_mutex);
            const auto now = SteadyClock::now();
            for (auto it = m_items.begin(); it != m_items.end();) {
                if (it->expired(now)) {
                    it = m_items.erase(it);
                    ++removed;
                } else {
                    ++it;
                }
            }
            countEvictions(removed);
        }
    }

    mutable std::mutex m_mutex;
    QHash<QString, Stored> m_items; // guarded by m_mutex
    CancelSource m_stop;
    std::jthread m_gc; // joined by the destructor
};

// 2Q (Johnson & Shasha), as hashicorp/golang-lru's TwoQueueCache that Gitea uses: new keys enter
// "recent" (FIFO, 25 % of the capacity); a key used again moves to "frequent" (LRU); keys evicted
// from recent are remembered in "ghost" (50 %), and a ghost key that comes back goes straight to
// frequent. One scan of cold keys therefore cannot flush the hot ones.
class TwoQueueCache final : public StringCache
{
public:
    explicit TwoQueueCache(int capacity)
        : m_capacity(std::max(1, capacity)), m_recentTarget(std::max<qsizetype>(1, m_capacity / 4)),
          m_ghostLimit(std::max<qsizetype>(1, m_capacity / 2))
    {
    }

    QString adapter() const override { return QStringLiteral("twoqueue"); }
    Status ping(const CancelToken &) override { return Status::ok(); }

protected:
    Result<std::optional<QString>> doGet(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_index.find(key);
        if (it == m_index.end())
            return std::optional<QString>();
        if (it->node->stored.expired(SteadyClock::now())) {
            eraseLocked(it);
            countEvictions(1);
            return std::optional<QString>();
        }
        promoteLocked(*it);
        return std::optional<QString>(it->node->stored.value);
    }
    Status doPut(const QString &key, const QString &value, std::chrono::seconds ttl) override
    {
        std::lock_guard lock(m_mutex);
        addLocked(key, Stored{value, expiryFor(ttl)});
        return Status::ok();
    }
    Result<bool> doPutIfAbsent(const QString &key, const QString &value, std::chrono::seconds ttl) override
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_index.find(key);
        if (it != m_index.end() && !it->node->stored.expired(SteadyClock::now()))
            return false;
        addLocked(key, Stored{value, expiryFor(ttl)});
        return true;
    }
    Status doRemove(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_index.find(key);
        if (it != m_index.end())
            eraseLocked(it);
        return Status::ok();
    }
    qint64 itemCount() const override
    {
        std::lock_guard lock(m_mutex);
        return qint64(m_recent.size() + m_frequent.size());
    }
    std::optional<TwoQueueOccupancy> occupancy() const override
    {
        std::lock_guard lock(m_mutex);
        return TwoQueueOccupancy{qint64(m_recent.size()), qint64(m_frequent.size()), qint64(m_ghost.size()), m_capacity};
    }

private:
    struct Node
    {
        QString key;
        Stored stored;
    };
    using List = std::list<Node>;
    struct Where
    {
        List::iterator node;
        bool frequent = false;
    };

    void promoteLocked(Where &where)
    {
        if (where.frequent) {
            m_frequent.splice(m_frequent.begin(), m_frequent, where.node); // most recently used first
        } else {
            m_frequent.splice(m_frequent.begin(), m_recent, where.node);
            where.frequent = true;
        }
    }

    void eraseLocked(QHash<QString, Where>::iterator it)
    {
        (it->frequent ? m_frequent : m_recent).erase(it->node);
        m_index.erase(it);
    }

    void addLocked(const QString &key, Stored stored)
    {
        const auto it = m_index.find(key);
        if (it != m_index.end()) {
            it->node->stored = std::move(stored);
            promoteLocked(*it);
            return;
        }
        makeRoomLocked(m_ghostIndex.contains(key));
        // Looked up only now: making room inserts into (rehashing) and trims the ghost index.
        const auto ghost = m_ghostIndex.find(key);
        if (ghost != m_ghostIndex.end()) {
            m_ghost.erase(*ghost);
            m_ghostIndex.erase(ghost);
            m_frequent.push_front(Node{key, std::move(stored)});
            m_index.insert(key, Where{m_frequent.begin(), true});
        } else {
            m_recent.push_front(Node{key, std::move(stored)});
            m_index.insert(key, Where{m_recent.begin(), false});
        }
    }

    void makeRoomLocked(bool forGhost)
    {
        if (qsizetype(m_recent.size() + m_frequent.size()) < m_capacity)
            return;
        const qsizetype recent = qsizetype(m_recent.size());
        if (recent > 0 && (recent > m_recentTarget || (recent == m_recentTarget && !forGhost))) {
            Node &oldest = m_recent.back();
            m_index.remove(oldest.key);
            m_ghost.push_front(oldest.key);
            m_ghostIndex.insert(oldest.key, m_ghost.begin());
            if (qsizetype(m_ghost.size()) > m_ghostLimit) {
                m_ghostIndex.remove(m_ghost.back());
                m_ghost.pop_back();
            }
            m_recent.pop_back();
        } else {
            m_index.remove(m_frequent.back().key);
            m_frequent.pop_back();
        }
        countEvictions(1);
    }

    const qsizetype m_capacity;
    const qsizetype m_recentTarget;
    const qsizetype m_ghostLimit;
    mutable std::mutex m_mutex;
    List m_recent;                  // guarded by m_mutex; front = newest
    List m_frequent;                // guarded by m_mutex; front = most recently used
    QHash<QString, Where> m_index;  // guarded by m_mutex
    std::list<QString> m_ghost;     // guarded by m_mutex; front = newest
    QHash<QString, std::list<QString>::iterator> m_ghostIndex; // guarded by m_mutex
};

// The redis adapter: `prefix + key` with a PX expiry. Connections come from a pool.
class RedisCache final : public StringCache
{
public:
    RedisCache(RedisAddress address, QString prefix) : m_pool(std::move(address)), m_prefix(std::move(prefix)) {}

    QString adapter() const override { return QStringLiteral("redis"); }
    Status ping(const CancelToken &cancel) override
    {
        return m_pool.with([&](RedisConnection &c) { return c.command(cancel, {"PING"}); }).status();
    }

protected:
    Result<std::optional<QString>> doGet(const QString &key) override
    {
        const Result<RedisValue> reply = call({"GET", fullKey(key)});
        if (!reply)
            return reply.status();
        if (reply->isNil())
            return std::optional<QString>();
        return std::optional<QString>(QString::fromUtf8(reply->string));
    }
    Status doPut(const QString &key, const QString &value, std::chrono::seconds ttl) override
    {
        QList<QByteArray> args{"SET", fullKey(key), value.toUtf8()};
        if (ttl.count() > 0)
            args << "PX" << QByteArray::number(qint64(ttl.count()) * 1000);
        return call(args).status();
    }
    Result<bool> doPutIfAbsent(const QString &key, const QString &value, std::chrono::seconds ttl) override
    {
        QList<QByteArray> args{"SET", fullKey(key), value.toUtf8(), "NX"};
        if (ttl.count() > 0)
            args << "PX" << QByteArray::number(qint64(ttl.count()) * 1000);
        const Result<RedisValue> reply = call(args);
        if (!reply)
            return reply.status();
        return !reply->isNil();
    }
    Status doRemove(const QString &key) override { return call({"DEL", fullKey(key)}).status(); }

private:
    QByteArray fullKey(const QString &key) const { return (m_prefix + key).toUtf8(); }
    // A cache must answer fast or not at all: no retries, a short deadline.
    Result<RedisValue> call(const QList<QByteArray> &args) { return m_pool.commandWithin(std::chrono::seconds(2), args); }

    RedisPool m_pool;
    const QString m_prefix;
};

} // namespace

std::unique_ptr<StringCache> createMemoryCache(std::chrono::seconds gcInterval)
{
    return std::make_unique<MemoryCache>(std::max(gcInterval, std::chrono::seconds(1)));
}

std::unique_ptr<StringCache> createTwoQueueCache(int capacity)
{
    return std::make_unique<TwoQueueCache>(capacity);
}

Result<std::unique_ptr<StringCache>> createRedisCache(const QString &connStr, const QString &prefix)
{
    Result<RedisAddress> address = RedisAddress::parse(connStr);
    if (!address)
        return Status::invalidArgument(QStringLiteral("[cache] HOST: %1").arg(address.status().message()));
    return std::unique_ptr<StringCache>(std::make_unique<RedisCache>(*address, prefix));
}

} // namespace Switchyard
