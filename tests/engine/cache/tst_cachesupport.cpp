// Cache helpers and adapter specifics: safeCacheKey, read-through helpers, the request cache,
// the self-check's slow flag, 2Q behaviour, start-up refusal.
#include "engine/cache/cache.h"
#include "engine/settings/config.h"

#include "support/redisserver.h"
#include "support/testutil.h"
#include "support/wait.h"

#include <QCryptographicHash>
#include <QTcpServer>
#include <QTest>

#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

// A real memory cache behind a deliberate delay: only the self-check's timing is under test.
class DelayedCache final : public StringCache
{
public:
    explicit DelayedCache(std::chrono::milliseconds delay) : m_inner(createMemoryCache(60s)), m_delay(delay) {}
    QString adapter() const override { return QStringLiteral("delayed"); }
    Status ping(const CancelToken &cancel) override { return m_inner->ping(cancel); }

protected:
    Result<std::optional<QString>> doGet(const QString &key) override
    {
        std::this_thread::sleep_for(m_delay);
        return m_inner->get(key);
    }
    Status doPut(const QString &key, const QString &value, std::chrono::seconds ttl) override { return m_inner->put(key, value, ttl); }
    Result<bool> doPutIfAbsent(const QString &key, const QString &value, std::chrono::seconds ttl) override
    {
        return m_inner->putIfAbsent(key, value, ttl);
    }
    Status doRemove(const QString &key) override { return m_inner->remove(key); }

private:
    std::unique_ptr<StringCache> m_inner;
    std::chrono::milliseconds m_delay;
};

EngineConfig configFrom(const QByteArray &text)
{
    return Test::configFrom(text, QDir::tempPath());
}

} // namespace

class TestCacheSupport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void safeCacheKeys_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("plain");
        QTest::newRow("printable") << QStringLiteral("user-42") << true;
        QTest::newRow("space") << QStringLiteral("a b") << false;
        QTest::newRow("control") << QStringLiteral("a\nb") << false;
        QTest::newRow("non-ascii") << QStringLiteral("用户") << false;
        QTest::newRow("email") << QStringLiteral("someone@example.com") << true;
        QTest::newRow("too long") << QString(300, QLatin1Char('x')) << false;
        QTest::newRow("at the limit") << QString(230 - 6 - 3, QLatin1Char('x')) << true;
        QTest::newRow("one over") << QString(230 - 6 - 2, QLatin1Char('x')) << false;
    }

    void safeCacheKeys()
    {
        QFETCH(QString, input);
        QFETCH(bool, plain);
        const QString key = safeCacheKey(QStringLiteral("avatar"), input);
        if (plain) {
            QCOMPARE(key, QStringLiteral("avatar:s-") + input);
        } else {
            const QString hash = QString::fromLatin1(QCryptographicHash::hash(input.toUtf8(), QCryptographicHash::Sha256).toHex());
            QCOMPARE(key, QStringLiteral("avatar:h-") + hash);
        }
        QVERIFY(key.size() <= 250);
    }

    void readThroughHelpers()
    {
        auto cache = createMemoryCache(60s);
        int fetches = 0;
        auto fetch = [&]() -> Result<QString> {
            ++fetches;
            return QStringLiteral("computed");
        };
        QCOMPARE(*getString(*cache, QStringLiteral("k"), 60s, fetch), QStringLiteral("computed"));
        QCOMPARE(*getString(*cache, QStringLiteral("k"), 60s, fetch), QStringLiteral("computed"));
        QCOMPARE(fetches, 1);
        // TTL 0 disables the helpers only: every call fetches, nothing is stored.
        QCOMPARE(*getString(*cache, QStringLiteral("off"), 0s, fetch), QStringLiteral("computed"));
        QCOMPARE(*getString(*cache, QStringLiteral("off"), 0s, fetch), QStringLiteral("computed"));
        QCOMPARE(fetches, 3);
        QVERIFY(!cache->isExist(QStringLiteral("off")));
        // Failures are not cached.
        const Result<QString> failed = getString(*cache, QStringLiteral("bad"), 60s, []() -> Result<QString> {
            return Status::unavailable(QStringLiteral("database down"));
        });
        QCOMPARE(failed.status().message(), QStringLiteral("database down"));
        QVERIFY(!cache->isExist(QStringLiteral("bad")));

        int counts = 0;
        QCOMPARE(*getInt64(*cache, QStringLiteral("commits"), 60s, [&]() -> Result<qint64> { ++counts; return qint64(1234); }), qint64(1234));
        QCOMPARE(*getInt64(*cache, QStringLiteral("commits"), 60s, [&]() -> Result<qint64> { ++counts; return qint64(0); }), qint64(1234));
        QCOMPARE(counts, 1);
        QVERIFY(cache->put(QStringLiteral("nan"), QStringLiteral("abc"), 60s));
        QCOMPARE(getInt64(*cache, QStringLiteral("nan"), 60s, [] { return Result<qint64>(qint64(1)); }).status().code(),
                 Status::Code::Corruption);
    }

    void itemTtlFromTheSettingsDrivesTheHelpers()
    {
        auto cached = createCache(CancelToken(), configFrom("[cache]\nITEM_TTL = 1h\n"));
        QVERIFY(cached);
        QCOMPARE((*cached)->itemTtl(), std::chrono::seconds(3600));
        int fetches = 0;
        auto fetch = [&]() -> Result<QString> { ++fetches; return QStringLiteral("v"); };
        QCOMPARE(*getString(**cached, QStringLiteral("k"), fetch), QStringLiteral("v"));
        QCOMPARE(*getString(**cached, QStringLiteral("k"), fetch), QStringLiteral("v"));
        QCOMPARE(fetches, 1);

        auto disabled = createCache(CancelToken(), configFrom("[cache]\nITEM_TTL = 0\n"));
        QVERIFY(disabled);
        QCOMPARE(*getString(**disabled, QStringLiteral("k"), fetch), QStringLiteral("v"));
        QCOMPARE(*getString(**disabled, QStringLiteral("k"), fetch), QStringLiteral("v"));
        QCOMPARE(fetches, 3); // every call fetches
        QVERIFY(!(*disabled)->get(QStringLiteral("k")));
    }

    void requestCacheComputesOncePerRequestAndWarnsWhenOutlived()
    {
        SteadyClock::time_point now = SteadyClock::now();
        EphemeralCache cache([&] { return now; });
        int fetches = 0;
        auto fetch = [&]() -> Result<QString> { return QString::number(++fetches); };
        QCOMPARE(*cache.get(QStringLiteral("perm"), QStringLiteral("repo:1"), fetch), QStringLiteral("1"));
        QCOMPARE(*cache.get(QStringLiteral("perm"), QStringLiteral("repo:1"), fetch), QStringLiteral("1"));
        QCOMPARE(*cache.get(QStringLiteral("perm"), QStringLiteral("repo:2"), fetch), QStringLiteral("2"));
        now += 4min;
        QVERIFY(!cache.expired());
        QCOMPARE(*cache.get(QStringLiteral("perm"), QStringLiteral("repo:1"), fetch), QStringLiteral("1"));
        QCOMPARE(cache.warnings(), 0);
        now += 2min; // 6 minutes: the request should be long gone
        QVERIFY(cache.expired());
        QCOMPARE(*cache.get(QStringLiteral("perm"), QStringLiteral("repo:1"), fetch), QStringLiteral("3")); // starts over
        QCOMPARE(cache.warnings(), 1);
    }

    void slowSelfCheckIsFlagged()
    {
        DelayedCache slow(kSlowCacheThreshold + 10ms);
        const CacheCheckResult result = selfCheck(slow);
        QVERIFY(result.ok);
        QVERIFY(result.slow);
        QVERIFY(result.elapsed > kSlowCacheThreshold);
        auto fast = createMemoryCache(60s);
        QVERIFY(!selfCheck(*fast).slow);
    }

    void twoQueueEvictsAndReportsOccupancy()
    {
        auto cache = createTwoQueueCache(8); // recent target 2, ghost 4
        for (int i = 0; i < 8; ++i)
            QVERIFY(cache->put(QStringLiteral("k%1").arg(i), QStringLiteral("v"), 0s));
        // Use k0..k3 again: they move to "frequent".
        for (int i = 0; i < 4; ++i)
            QVERIFY(cache->get(QStringLiteral("k%1").arg(i)));
        // A scan of new keys only cycles through "recent": the frequent keys survive.
        for (int i = 100; i < 120; ++i)
            QVERIFY(cache->put(QStringLiteral("k%1").arg(i), QStringLiteral("v"), 0s));
        for (int i = 0; i < 4; ++i)
            QVERIFY2(cache->isExist(QStringLiteral("k%1").arg(i)), qPrintable(QString::number(i)));
        const CacheStats stats = cache->stats();
        QVERIFY(stats.twoQueue);
        QCOMPARE(stats.twoQueue->capacity, qint64(8));
        QCOMPARE(stats.twoQueue->frequent, qint64(4));
        QCOMPARE(stats.twoQueue->recent + stats.twoQueue->frequent, qint64(8));
        QCOMPARE(stats.twoQueue->ghost, qint64(4));
        QCOMPARE(stats.items, qint64(8));
        QVERIFY(stats.evictions >= 20);
        // Recent now holds the four newest keys (k116..k119); the four before them are ghosts.
        // A ghost key coming back goes straight to "frequent", where a later scan cannot reach it.
        QVERIFY(!cache->isExist(QStringLiteral("k113")));
        QVERIFY(cache->put(QStringLiteral("k113"), QStringLiteral("again"), 0s));
        QCOMPARE(cache->stats().twoQueue->frequent, qint64(5));
        for (int i = 200; i < 220; ++i)
            QVERIFY(cache->put(QStringLiteral("k%1").arg(i), QStringLiteral("v"), 0s));
        QCOMPARE(*cache->get(QStringLiteral("k113")), QStringLiteral("again"));
        QVERIFY(!cache->isExist(QStringLiteral("k119"))); // only ever recent: scanned out
    }

    void memoryGcCollectsExpiredItems()
    {
        auto cache = createMemoryCache(1s);
        for (int i = 0; i < 10; ++i)
            QVERIFY(cache->put(QStringLiteral("k%1").arg(i), QStringLiteral("v"), 1s));
        QCOMPARE(cache->stats().items, qint64(10));
        QVERIFY(Test::eventually([&] { return cache->stats().items == 0; }, 10s)); // nobody reads them
        QCOMPARE(cache->stats().evictions, qint64(10));
    }

    void createFromSettings()
    {
        auto memory = createCache(CancelToken(), configFrom(""));
        QVERIFY(memory);
        QCOMPARE((*memory)->adapter(), QStringLiteral("memory"));
        auto twoqueue = createCache(CancelToken(), configFrom("[cache]\nADAPTER = twoqueue\nHOST = 100\n"));
        QCOMPARE((*twoqueue)->stats().twoQueue->capacity, qint64(100));
        auto badCapacity = createCache(CancelToken(), configFrom("[cache]\nADAPTER = twoqueue\nHOST = lots\n"));
        QCOMPARE(badCapacity.status().code(), Status::Code::InvalidArgument);
        QVERIFY(badCapacity.status().message().contains(QLatin1String("capacity")));

        Test::RedisServer redis;
        QVERIFY(redis.start());
        auto viaShared = createCache(CancelToken(), configFrom("[redis]\nCONN_STR = " + redis.url().toUtf8() + "\n[cache]\nADAPTER = redis\n"));
        QVERIFY2(viaShared, qPrintable(viaShared.status().message()));
        QVERIFY((*viaShared)->put(QStringLiteral("k"), QStringLiteral("v"), 60s));
        QCOMPARE(*redis.command({QStringLiteral("GET"), QStringLiteral("cache:k")}), QByteArray("v"));
    }

    void unreachableRedisRefusesToStart()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        CacheOptions options;
        options.pingAttempts = 3;
        options.pingInterval = 10ms;
        auto cache = createCache(CancelToken(), configFrom("[cache]\nADAPTER = redis\nHOST = redis://127.0.0.1:" + QByteArray::number(port) + "/0\n"),
                                 options);
        QCOMPARE(cache.status().code(), Status::Code::Unavailable);
        QVERIFY2(cache.status().message().contains(QLatin1String("unreachable after 3 attempts")), qPrintable(cache.status().message()));
    }

    void aRedisOutageMakesReadsMisses()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        auto cache = std::move(createRedisCache(redis.url(), QStringLiteral("c:")).value());
        QVERIFY(cache->put(QStringLiteral("k"), QStringLiteral("v"), 60s));
        redis.stop();
        QVERIFY(!cache->get(QStringLiteral("k")));
        QVERIFY(!cache->put(QStringLiteral("k"), QStringLiteral("v"), 60s));
        QCOMPARE(cache->stats().errors, qint64(2));
        QVERIFY(!selfCheck(*cache).ok);
    }
};

QTEST_GUILESS_MAIN(TestCacheSupport)
#include "tst_cachesupport.moc"
