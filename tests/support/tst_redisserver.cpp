// The private redis-server fixture that queue, lock and cache tests build on.
#include "support/redisserver.h"

#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Test;

class TestRedisServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsOnAPrivatePortAndAnswers()
    {
        RedisServer redis;
        const Status started = redis.start();
        QVERIFY2(started, qPrintable(started.toString()));
        QVERIFY(redis.port() != 6379);
        QCOMPARE(redis.url(), QStringLiteral("redis://127.0.0.1:%1/0").arg(redis.port()));
        QCOMPARE(*redis.command({QStringLiteral("SET"), QStringLiteral("k"), QStringLiteral("v")}), QByteArray("OK"));
        QCOMPARE(*redis.command({QStringLiteral("GET"), QStringLiteral("k")}), QByteArray("v"));
        QCOMPARE(*redis.command({QStringLiteral("INCR"), QStringLiteral("n")}), QByteArray("1"));
    }

    void twoServersAreIndependent()
    {
        RedisServer a, b;
        QVERIFY(a.start());
        QVERIFY(b.start());
        QVERIFY(a.port() != b.port());
        QVERIFY(a.command({QStringLiteral("SET"), QStringLiteral("k"), QStringLiteral("a")}));
        QCOMPARE(*b.command({QStringLiteral("GET"), QStringLiteral("k")}), QByteArray("(nil)"));
    }

    void appendOnlyDataSurvivesRestartAndKill()
    {
        RedisServer redis;
        RedisServer::Options options;
        options.appendOnly = true;
        QVERIFY(redis.start(options));
        QVERIFY(redis.command({QStringLiteral("RPUSH"), QStringLiteral("q"), QStringLiteral("1")}));
        const quint16 port = redis.port();

        const Status restarted = redis.restart();
        QVERIFY2(restarted, qPrintable(restarted.toString()));
        QCOMPARE(redis.port(), port);
        QCOMPARE(*redis.command({QStringLiteral("LLEN"), QStringLiteral("q")}), QByteArray("1"));

        QVERIFY(redis.command({QStringLiteral("RPUSH"), QStringLiteral("q"), QStringLiteral("2")}));
        redis.kill();
        QVERIFY(!redis.isRunning());
        QVERIFY(!redis.command({QStringLiteral("PING")}));
        QVERIFY(redis.restart());
        QCOMPARE(*redis.command({QStringLiteral("LLEN"), QStringLiteral("q")}), QByteArray("2"));
    }

    void withoutPersistenceRestartLosesData()
    {
        RedisServer redis;
        QVERIFY(redis.start());
        QVERIFY(redis.command({QStringLiteral("SET"), QStringLiteral("k"), QStringLiteral("v")}));
        QVERIFY(redis.restart());
        QCOMPARE(*redis.command({QStringLiteral("GET"), QStringLiteral("k")}), QByteArray("(nil)"));
    }

    void pausedServerDoesNotAnswerUntilResumed()
    {
        RedisServer redis;
        QVERIFY(redis.start());
        redis.pause();
        const Result<QByteArray> whilePaused = redis.command({QStringLiteral("PING")});
        QVERIFY(!whilePaused);
        QCOMPARE(whilePaused.status().code(), Status::Code::Unavailable);
        redis.resume();
        QCOMPARE(*redis.command({QStringLiteral("PING")}), QByteArray("PONG"));
    }

    void missingExecutableIsAClearError()
    {
        qputenv("SWITCHYARD_REDIS_SERVER", "/nonexistent/redis-server");
        RedisServer redis;
        const Status started = redis.start();
        qunsetenv("SWITCHYARD_REDIS_SERVER");
        QVERIFY(!started);
        QVERIFY2(started.message().contains(QLatin1String("redis-server")), qPrintable(started.message()));
    }
};

QTEST_GUILESS_MAIN(TestRedisServer)
#include "tst_redisserver.moc"
