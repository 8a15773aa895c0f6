#include "cache.h"

#include "engine/core/logging.h"

#include "engine/settings/config.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>

#include <bit>
#include <cmath>

Q_LOGGING_CATEGORY(lcCache, "switchyard.cache", QtInfoMsg)

namespace Switchyard {

namespace {

class Timed
{
public:
    explicit Timed(LatencyHistogram &histogram) : m_histogram(histogram), m_started(SteadyClock::now()) {}
    ~Timed() { m_histogram.record(SteadyClock::now() - m_started); }

private:
    LatencyHistogram &m_histogram;
    SteadyClock::time_point m_started;
};

} // namespace

std::optional<QString> StringCache::get(const QString &key)
{
    Timed timed(m_latency);
    Result<std::optional<QString>> value = doGet(key);
    if (!value) {
        ++m_errors;
        ++m_misses;
        qCWarning(lcCache).noquote() << adapter() << "cache: get failed (treated as a miss):" << value.status().message();
        return std::nullopt;
    }
    if (*value)
        ++m_hits;
    else
        ++m_misses;
    return std::move(value).value();
}

Status StringCache::put(const QString &key, const QString &value, std::chrono::seconds ttl)
{
    Timed timed(m_latency);
    Status stored = doPut(key, value, ttl);
    if (!stored)
        ++m_errors;
    return stored;
}

Result<bool> StringCache::putIfAbsent(const QString &key, const QString &value, std::chrono::seconds ttl)
{
    Timed timed(m_latency);
    Result<bool> stored = doPutIfAbsent(key, value, ttl);
    if (!stored)
        ++m_errors;
    return stored;
}

Status StringCache::remove(const QString &key)
{
    Timed timed(m_latency);
    Status removed = doRemove(key);
    if (!removed)
        ++m_errors;
    return removed;
}

bool StringCache::isExist(const QString &key)
{
    return get(key).has_value();
}

Status StringCache::putJSON(const QString &key, const QJsonValue &value, std::chrono::seconds ttl)
{
    const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return put(key, QString::fromUtf8(text.mid(1, text.size() - 2)), ttl);
}

Status StringCache::putError(const QString &key, const QString &message, std::chrono::seconds ttl)
{
    return put(key, QLatin1String(kCachedErrorPrefix) + message, ttl);
}

Result<std::optional<QJsonValue>> StringCache::getJSON(const QString &key)
{
    const std::optional<QString> text = get(key);
    if (!text)
        return std::optional<QJsonValue>();
    if (text->startsWith(QLatin1String(kCachedErrorPrefix)))
        return Status::internal(text->mid(int(sizeof(kCachedErrorPrefix)) - 1));
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson("[" + text->toUtf8() + "]", &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1) {
        qCWarning(lcCache).noquote() << adapter() << "cache: the value of" << key << "is not valid JSON; treated as a miss";
        return std::optional<QJsonValue>();
    }
    return std::optional<QJsonValue>(doc.array().at(0));
}

CacheStats StringCache::stats() const
{
    CacheStats stats;
    stats.adapter = adapter();
    stats.hits = m_hits.load();
    stats.misses = m_misses.load();
    stats.evictions = m_evictions.load();
    stats.errors = m_errors.load();
    stats.latencyP50Ms = m_latency.quantileMs(0.50);
    stats.latencyP99Ms = m_latency.quantileMs(0.99);
    stats.items = itemCount();
    stats.twoQueue = occupancy();
    return stats;
}

Result<QString> getString(StringCache &cache, const QString &key, std::chrono::seconds ttl,
                          const std::function<Result<QString>()> &fetch)
{
    if (ttl.count() == 0)
        return fetch();
    if (std::optional<QString> cached = cache.get(key))
        return *cached;
    Result<QString> value = fetch();
    if (!value)
        return value;
    if (Status stored = cache.put(key, *value, ttl); !stored)
        qCWarning(lcCache).noquote() << "cache: could not store" << key << ":" << stored.message();
    return value;
}

Result<qint64> getInt64(StringCache &cache, const QString &key, std::chrono::seconds ttl,
                        const std::function<Result<qint64>()> &fetch)
{
    const Result<QString> text = getString(cache, key, ttl, [&]() -> Result<QString> {
        const Result<qint64> value = fetch();
        if (!value)
            return value.status();
        return QString::number(*value);
    });
    if (!text)
        return text.status();
    if (text->isEmpty())
        return qint64(0);
    bool ok = false;
    const qint64 value = text->toLongLong(&ok);
    if (!ok)
        return Status::corruption(QStringLiteral("cached value of %1 is not a number: %2").arg(key, text->left(40)));
    return value;
}

QString safeCacheKey(const QString &prefix, const QString &input, int limit)
{
    bool safe = prefix.size() + input.size() + 3 <= limit;
    for (qsizetype i = 0; safe && i < input.size(); ++i) {
        const char16_t c = input.at(i).unicode();
        safe = c > u' ' && c < 127;
    }
    if (safe)
        return prefix + QStringLiteral(":s-") + input;
    return prefix + QStringLiteral(":h-")
           + QString::fromLatin1(QCryptographicHash::hash(input.toUtf8(), QCryptographicHash::Sha256).toHex());
}

CacheCheckResult selfCheck(StringCache &cache)
{
    static const QString key = QStringLiteral("DefaultCache.TestKey");
    quint32 random[63];
    QRandomGenerator::global()->fillRange(random);
    const QString value = QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(random), 250).toHex()); // 500 bytes

    CacheCheckResult result;
    const auto started = SteadyClock::now();
    if (Status removed = cache.remove(key); !removed)
        result.error = QStringLiteral("delete: ") + removed.message();
    else if (Status stored = cache.put(key, value, std::chrono::seconds(10)); !stored)
        result.error = QStringLiteral("put: ") + stored.message();
    else if (const std::optional<QString> read = cache.get(key); !read)
        result.error = QStringLiteral("get: the value just stored is missing");
    else if (*read != value)
        result.error = QStringLiteral("get: the value read differs from the value stored");
    result.elapsed = SteadyClock::now() - started;
    result.ok = result.error.isEmpty();
    result.slow = result.elapsed > kSlowCacheThreshold;
    if (result.slow)
        qCWarning(lcCache).noquote() << cache.adapter() << "cache self-check took" << result.elapsed.count() / 1e6
                                     << "ms, over the" << kSlowCacheThreshold.count() << "ms threshold";
    return result;
}

EphemeralCache::EphemeralCache(Clock clock) : m_clock(std::move(clock)), m_created(m_clock()) {}

bool EphemeralCache::expired() const
{
    return m_clock() - m_created > kLifetime;
}

Result<QString> EphemeralCache::get(const QString &group, const QString &key, const std::function<Result<QString>()> &fetch)
{
    if (expired()) {
        ++m_warnings;
        qCWarning(lcCache) << "a request cache was used" << std::chrono::duration_cast<std::chrono::seconds>(m_clock() - m_created).count()
                           << "s after its request began; something keeps the request alive too long";
        m_values.clear();
        m_created = m_clock();
    }
    const QString composite = group + QChar(0x1f) + key;
    const auto it = m_values.constFind(composite);
    if (it != m_values.cend())
        return *it;
    Result<QString> value = fetch();
    if (value)
        m_values.insert(composite, *value);
    return value;
}

Result<std::unique_ptr<StringCache>> createCache(const CancelToken &cancel, const EngineConfig &config, const CacheOptions &options)
{
    const CacheSettings &settings = config.cache;
    std::unique_ptr<StringCache> cache;
    if (settings.adapter == QLatin1String("memory")) {
        cache = createMemoryCache(std::chrono::seconds(settings.intervalSeconds));
    } else if (settings.adapter == QLatin1String("twoqueue")) {
        int capacity = 50000;
        if (!settings.host.isEmpty()) {
            bool ok = false;
            capacity = settings.host.trimmed().toInt(&ok);
            if (!ok || capacity <= 0)
                return Status::invalidArgument(QStringLiteral("[cache] HOST = \"%1\" is not valid for the twoqueue adapter; "
                                                              "expected its capacity, a positive number (default 50000)")
                                                   .arg(settings.host));
        }
        cache = createTwoQueueCache(capacity);
    } else if (settings.adapter == QLatin1String("redis")) {
        Result<std::unique_ptr<StringCache>> redis =
            createRedisCache(settings.host.isEmpty() ? QStringLiteral("redis://127.0.0.1:6379/0") : settings.host, QStringLiteral("cache:"));
        if (!redis)
            return redis.status();
        cache = std::move(redis).value();
    } else {
        return Status::invalidArgument(QStringLiteral("[cache] ADAPTER = \"%1\" is not valid; valid values: memory, redis, twoqueue")
                                           .arg(settings.adapter));
    }
    Status ping;
    for (int attempt = 1; attempt <= std::max(1, options.pingAttempts); ++attempt) {
        ping = cache->ping(cancel);
        if (ping || cancel.isCancelled())
            break;
        if (attempt == 1 && options.pingAttempts > 1)
            qCWarning(lcCore).noquote() << "[cache] ADAPTER =" << settings.adapter << "does not answer yet; retrying"
                                        << options.pingAttempts - 1 << "more time(s):" << ping.message();
        if (attempt < options.pingAttempts && !cancel.sleepFor(options.pingInterval))
            break;
    }
    cache->setItemTtl(std::chrono::duration_cast<std::chrono::seconds>(settings.itemTtl));
    if (cancel.isCancelled())
        return cancel.cause();
    if (!ping)
        return Status::unavailable(QStringLiteral("[cache] ADAPTER = %1 is configured but unreachable after %2 attempts "
                                                  "(refusing to run uncached): %3")
                                       .arg(settings.adapter).arg(options.pingAttempts).arg(ping.message()));
    return cache;
}

} // namespace Switchyard
