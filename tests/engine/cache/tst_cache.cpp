// One conformance suite for every StringCache adapter: SWITCHYARD_CACHE_ADAPTER = memory,
// twoqueue or redis (a private redis-server). ctest runs it once per adapter.
#include "engine/cache/cache.h"
#include "engine/settings/config.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QJsonObject>
#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;

class TestCache : public QObject
{
    Q_OBJECT

    QString m_adapter;
    Test::RedisServer m_redis;
    std::unique_ptr<StringCache> m_cache;

    std::unique_ptr<StringCache> make()
    {
        if (m_adapter == QLatin1String("memory"))
            return createMemoryCache(1s);
        if (m_adapter == QLatin1String("twoqueue"))
            return createTwoQueueCache(1000);
        return std::move(createRedisCache(m_redis.url(), QStringLiteral("cache:")).value());
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_adapter = qEnvironmentVariable("SWITCHYARD_CACHE_ADAPTER", QStringLiteral("memory"));
        qInfo("adapter: %s", qPrintable(m_adapter));
        if (m_adapter == QLatin1String("redis"))
            QVERIFY(m_redis.start());
    }
    void init() { m_cache = make(); }
    void cleanup() { m_cache.reset(); }

    void pingAndAdapterName()
    {
        QVERIFY(m_cache->ping(CancelToken()));
        QCOMPARE(m_cache->adapter(), m_adapter);
    }

    void putGetOverwriteDelete()
    {
        QVERIFY(!m_cache->get(QStringLiteral("k")));
        QVERIFY(!m_cache->isExist(QStringLiteral("k")));
        QVERIFY(m_cache->put(QStringLiteral("k"), QStringLiteral("v1"), 60s));
        QCOMPARE(*m_cache->get(QStringLiteral("k")), QStringLiteral("v1"));
        QVERIFY(m_cache->put(QStringLiteral("k"), QStringLiteral("v2 — ünïcode"), 60s));
        QCOMPARE(*m_cache->get(QStringLiteral("k")), QStringLiteral("v2 — ünïcode"));
        QVERIFY(m_cache->isExist(QStringLiteral("k")));
        QVERIFY(m_cache->remove(QStringLiteral("k")));
        QVERIFY(!m_cache->get(QStringLiteral("k")));
        QVERIFY(m_cache->remove(QStringLiteral("never-there"))); // deleting nothing is fine
    }

    void itemsExpireAfterTheirTtl()
    {
        QVERIFY(m_cache->put(QStringLiteral("short"), QStringLiteral("v"), 1s));
        QVERIFY(m_cache->put(QStringLiteral("forever"), QStringLiteral("v"), 0s));
        QVERIFY(m_cache->isExist(QStringLiteral("short")));
        QVERIFY(Test::eventually([&] { return !m_cache->isExist(QStringLiteral("short")); }, 5s));
        QVERIFY(m_cache->isExist(QStringLiteral("forever")));
    }

    void putIfAbsentIsAtomic()
    {
        QVERIFY(*m_cache->putIfAbsent(QStringLiteral("once"), QStringLiteral("first"), 60s));
        QVERIFY(!*m_cache->putIfAbsent(QStringLiteral("once"), QStringLiteral("second"), 60s));
        QCOMPARE(*m_cache->get(QStringLiteral("once")), QStringLiteral("first"));
    }

    void jsonRoundTrip()
    {
        const QJsonObject object{{QStringLiteral("commits"), 42}, {QStringLiteral("name"), QStringLiteral("gitea")}};
        QVERIFY(m_cache->putJSON(QStringLiteral("graph"), object, 60s));
        const Result<std::optional<QJsonValue>> back = m_cache->getJSON(QStringLiteral("graph"));
        QVERIFY(back && *back);
        QCOMPARE((*back)->toObject(), object);
        QVERIFY(m_cache->putJSON(QStringLiteral("number"), 7, 60s));
        QCOMPARE((*m_cache->getJSON(QStringLiteral("number")))->toInt(), 7);
        QVERIFY(!*m_cache->getJSON(QStringLiteral("missing")));
    }

    void cachedErrorsComeBackAsErrors()
    {
        QVERIFY(m_cache->putError(QStringLiteral("contributors"), QStringLiteral("repository is empty"), 60s));
        QCOMPARE(*m_cache->get(QStringLiteral("contributors")), QStringLiteral("<CACHED-ERROR>:repository is empty"));
        const Result<std::optional<QJsonValue>> back = m_cache->getJSON(QStringLiteral("contributors"));
        QVERIFY(!back);
        QCOMPARE(back.status().message(), QStringLiteral("repository is empty"));
    }

    void corruptedJsonIsAMiss()
    {
        QVERIFY(m_cache->put(QStringLiteral("broken"), QStringLiteral("{\"a\":"), 60s));
        const Result<std::optional<QJsonValue>> back = m_cache->getJSON(QStringLiteral("broken"));
        QVERIFY(back);
        QVERIFY(!*back);
    }

    void statsCountHitsMissesAndLatency()
    {
        QVERIFY(m_cache->put(QStringLiteral("a"), QStringLiteral("1"), 60s));
        m_cache->get(QStringLiteral("a"));
        m_cache->get(QStringLiteral("a"));
        m_cache->get(QStringLiteral("b"));
        const CacheStats stats = m_cache->stats();
        QCOMPARE(stats.adapter, m_adapter);
        QCOMPARE(stats.hits, qint64(2));
        QCOMPARE(stats.misses, qint64(1));
        QCOMPARE(stats.errors, qint64(0));
        QVERIFY(stats.latencyP50Ms > 0);
        QVERIFY(stats.latencyP99Ms >= stats.latencyP50Ms);
    }

    void selfCheckPasses()
    {
        const CacheCheckResult result = selfCheck(*m_cache);
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(result.elapsed.count() > 0);
        QCOMPARE(result.slow, result.elapsed > kSlowCacheThreshold);
        QVERIFY(m_cache->isExist(QStringLiteral("DefaultCache.TestKey")));
    }
};

QTEST_GUILESS_MAIN(TestCache)
#include "tst_cache.moc"
