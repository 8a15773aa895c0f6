#include "cacheops.h"

#include "instanceops.h"

#include "engine/engine.h"

#include <QUrl>

namespace Switchyard::Admin::Ops {

QosStats qosOf(Engine &engine)
{
    if (AdmissionController *qos = engine.qos()) {
        QosStats stats = qos->stats();
        stats.enabled = true;
        return stats;
    }
    const QosSettings &settings = engine.config().qos;
    QosStats stats;
    stats.enabled = false;
    stats.maxInflight = settings.maxInflight;
    stats.maxWaiting = settings.maxWaiting;
    stats.targetWaitMs = std::chrono::duration_cast<std::chrono::milliseconds>(settings.targetWaitTime).count();
    return stats;
}

const Op<NoArgs, CacheInfo> cacheInfo{
    {.action = "cache.info", .method = HttpMethod::Get, .path = "/cache",
     .summary = "the cache adapter, its host (password hidden), item TTL and size", .cli = "cache info", .cliAliases = {"cache"}},
    [](OpContext &c, const NoArgs &) -> Result<CacheInfo> {
        const EngineConfig &config = c.engine.config();
        CacheInfo info;
        info.adapter = c.engine.cache().adapter();
        if (info.adapter == QLatin1String("redis")) {
            QUrl url(config.cache.host.isEmpty() ? config.redis.connStr : config.cache.host);
            if (url.isValid() && !url.password().isEmpty())
                url.setPassword(QStringLiteral("***"));
            info.host = url.toString();
        } else if (info.adapter == QLatin1String("twoqueue")) {
            info.host = config.cache.host.isEmpty() ? QStringLiteral("50000") : config.cache.host;
        }
        info.ttlMs = std::chrono::duration_cast<std::chrono::milliseconds>(c.engine.cache().itemTtl()).count();
        info.items = c.engine.cache().stats().items;
        return info;
    }};

const Op<NoArgs, CacheStats> cacheStats{
    {.action = "cache.stats", .method = HttpMethod::Get, .path = "/cache/stats",
     .summary = "hits, misses, evictions, errors and latency quantiles", .cli = "cache stats"},
    [](OpContext &c, const NoArgs &) -> Result<CacheStats> { return c.engine.cache().stats(); }};

// A diagnostic (writes and deletes its own test key), so read-only tokens may run it.
const Op<NoArgs, CacheTest> cacheCheck{
    {.action = "cache.test", .method = HttpMethod::Post, .path = "/cache/test", .flags = MayWait,
     .summary = "Delete → Put → Get of a test key; slow above 30 ms (exit 1 when failed or slow)", .cli = "cache test",
     .succeeded = [](const QJsonValue &answer) { return answer[QStringLiteral("ok")].toBool() && !answer[QStringLiteral("slow")].toBool(); }},
    [](OpContext &c, const NoArgs &) -> Result<CacheTest> { return cacheTest(c.engine); }};

const Op<NoArgs, QosStats> qos{
    {.action = "qos.stats", .method = HttpMethod::Get, .path = "/qos", .summary = "admission control figures", .cli = "qos"},
    [](OpContext &c, const NoArgs &) -> Result<QosStats> { return qosOf(c.engine); }};

std::vector<const OpBase *> cacheOps()
{
    return {&cacheInfo, &cacheStats, &cacheCheck, &qos};
}

} // namespace Switchyard::Admin::Ops
