#pragma once

// The cache subsystem's public header (SPEC §3, seed 000 §10.8).

#include "cachestats.h"
#include "engine/core/cancellation.h"
#include "engine/core/latency.h"
#include "engine/core/status.h"

#include <QHash>
#include <QJsonValue>
#include <QString>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace Switchyard {

class EngineConfig;

// Gitea's StringCache: a key-value cache of strings with per-item TTL (0 or less: no expiry).
//
// Readers never see backend errors: a failing get is a miss (logged, counted in errors). Writers
// get a Status. Thread-safe: every adapter may be used from any thread.
class StringCache
{
public:
    virtual ~StringCache() = default;
    virtual QString adapter() const = 0;

    virtual Status ping(const CancelToken &cancel) = 0;
    std::optional<QString> get(const QString &key);
    Status put(const QString &key, const QString &value, std::chrono::seconds ttl);
    // Stores only when the key is absent (atomic per adapter): true when stored.
    Result<bool> putIfAbsent(const QString &key, const QString &value, std::chrono::seconds ttl);
    Status remove(const QString &key);
    bool isExist(const QString &key);

    // JSON values; an error is stored as "<CACHED-ERROR>:" + message and comes back from getJSON
    // as that error (Internal, with the message) — "negative caching" of stable failures.
    Status putJSON(const QString &key, const QJsonValue &value, std::chrono::seconds ttl);
    Status putError(const QString &key, const QString &message, std::chrono::seconds ttl);
    // nullopt: miss. A stored value that is not valid JSON counts as a miss, with a warning.
    Result<std::optional<QJsonValue>> getJSON(const QString &key);

    CacheStats stats() const;

    // How long the read-through helpers keep what they fetch ([cache] ITEM_TTL, 16 h; 0 disables
    // them). Calls with an explicit TTL are not affected.
    std::chrono::seconds itemTtl() const { return m_itemTtl.load(); }
    void setItemTtl(std::chrono::seconds ttl) { m_itemTtl = ttl; }

protected:
    // Adapters implement these; the public methods add counters and timing.
    virtual Result<std::optional<QString>> doGet(const QString &key) = 0;
    virtual Status doPut(const QString &key, const QString &value, std::chrono::seconds ttl) = 0;
    virtual Result<bool> doPutIfAbsent(const QString &key, const QString &value, std::chrono::seconds ttl) = 0;
    virtual Status doRemove(const QString &key) = 0;
    virtual qint64 itemCount() const { return -1; }
    virtual std::optional<TwoQueueOccupancy> occupancy() const { return std::nullopt; }
    void countEvictions(qint64 n) { m_evictions += n; }

private:
    std::atomic<qint64> m_hits = 0;
    std::atomic<qint64> m_misses = 0;
    std::atomic<qint64> m_evictions = 0;
    std::atomic<qint64> m_errors = 0;
    std::atomic<std::chrono::seconds> m_itemTtl{std::chrono::hours(16)};
    LatencyHistogram m_latency;
};

inline constexpr char kCachedErrorPrefix[] = "<CACHED-ERROR>:";

struct CacheOptions
{
    // Init: PING this often before giving up (Gitea: 10 × 1 s).
    int pingAttempts = 10;
    std::chrono::milliseconds pingInterval{1000};
};

// The memory adapter; expired items are collected every `gcInterval` by a thread the cache owns.
std::unique_ptr<StringCache> createMemoryCache(std::chrono::seconds gcInterval);
// The 2Q adapter (recent 25 %, ghost 50 % of the capacity, as hashicorp's golang-lru).
std::unique_ptr<StringCache> createTwoQueueCache(int capacity);
// The redis adapter: plain keys with PX TTLs under `prefix`.
Result<std::unique_ptr<StringCache>> createRedisCache(const QString &connStr, const QString &prefix);

// From [cache]: ADAPTER, HOST (redis: connection, falling back to [redis]; twoqueue: capacity,
// default 50000), INTERVAL, ITEM_TTL (itemTtl()). PINGs pingAttempts × pingInterval and refuses (Unavailable) when the
// adapter never answers: start-up must not silently run uncached.
Result<std::unique_ptr<StringCache>> createCache(const CancelToken &cancel, const EngineConfig &config,
                                                 const CacheOptions &options = {});

// Read-through helpers (Gitea's cache.GetString / GetInt64): a miss calls `fetch` and stores its
// result for `ttl` — the cache's itemTtl() ([cache] ITEM_TTL) when not given; a failed store is
// ignored (the value is there). A TTL of 0 disables caching in these helpers only, as
// [cache] ITEM_TTL = 0 does in Gitea.
Result<QString> getString(StringCache &cache, const QString &key, std::chrono::seconds ttl,
                          const std::function<Result<QString>()> &fetch);
Result<qint64> getInt64(StringCache &cache, const QString &key, std::chrono::seconds ttl,
                        const std::function<Result<qint64>()> &fetch);
inline Result<QString> getString(StringCache &cache, const QString &key, const std::function<Result<QString>()> &fetch)
{
    return getString(cache, key, cache.itemTtl(), fetch);
}
inline Result<qint64> getInt64(StringCache &cache, const QString &key, const std::function<Result<qint64>()> &fetch)
{
    return getInt64(cache, key, cache.itemTtl(), fetch);
}

// A key that is safe for every backend (memcached's printable-ASCII, 250-byte rule): "prefix:s-input"
// when the input is printable ASCII and short enough, else "prefix:h-<sha256 hex of input>" —
// which also keeps e-mail addresses and the like out of the backend in clear.
QString safeCacheKey(const QString &prefix, const QString &input, int limit = 230);

// Delete → Put → Get of 500 bytes under "DefaultCache.TestKey", timed (SPEC §3).
struct CacheCheckResult
{
    bool ok = false;
    std::chrono::nanoseconds elapsed{0};
    bool slow = false; // over kSlowCacheThreshold
    QString error;
};
inline constexpr std::chrono::milliseconds kSlowCacheThreshold{30}; // gitea#33190
CacheCheckResult selfCheck(StringCache &cache);

// Per-request cache (Gitea's EphemeralCache): values computed once per request. It lives 5 minutes;
// used later it warns — a cache that outlives its request means something kept the request's
// context alive (a leak) — and starts over. Not thread-safe: one request, one thread.
class EphemeralCache
{
public:
    static constexpr std::chrono::minutes kLifetime{5};
    using Clock = std::function<SteadyClock::time_point()>;

    explicit EphemeralCache(Clock clock = [] { return SteadyClock::now(); });

    // The value for (group, key): computed by `fetch` on first use within the lifetime.
    Result<QString> get(const QString &group, const QString &key, const std::function<Result<QString>()> &fetch);
    bool expired() const;
    int warnings() const { return m_warnings; }

private:
    Clock m_clock;
    SteadyClock::time_point m_created;
    QHash<QString, QString> m_values;
    int m_warnings = 0;
};

} // namespace Switchyard
