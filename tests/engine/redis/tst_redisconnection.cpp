// The hiredis connection against a private redis-server: error replies classified so callers can
// retry the transient ones, AUTH and SELECT on every (re)connection, scripts surviving SCRIPT
// FLUSH, and a socket interrupted by its token never reused.
#include "engine/queue/queue.h"
#include "engine/settings/config.h"
#include "engine/redis/redisconnection.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QTest>

#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

RedisAddress addressOf(const QString &url)
{
    return *RedisAddress::parse(url);
}

// Keeps the server inside one Lua script for `ms` milliseconds (the script spins on TIME).
std::thread busyScript(const QString &url, int ms)
{
    return std::thread([url, ms] {
        RedisConnection c(addressOf(url));
        const QByteArray script = "local t = redis.call('TIME') local stop = t[1] * 1000000 + t[2] + ARGV[1] * 1000 "
                                  "repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] >= stop return 1";
        c.command(CancelToken(), {"EVAL", script, "0", QByteArray::number(ms)});
    });
}

} // namespace

class TestRedisConnection : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void errorRepliesAreClassified()
    {
        for (const char *transient : {"LOADING Redis is loading the dataset in memory", "BUSY Redis is busy running a script",
                                      "READONLY You can't write against a read only replica.", "MASTERDOWN Link with MASTER is down",
                                      "TRYAGAIN Multiple keys request during rehashing", "CLUSTERDOWN The cluster is down",
                                      "NOREPLICAS Not enough good replicas to write."}) {
            const Status status = redisErrorStatus(transient);
            QCOMPARE(status.code(), Status::Code::Unavailable);
            QCOMPARE(status.message(), QString::fromLatin1(transient));
        }
        for (const char *permanent : {"WRONGTYPE Operation against a key holding the wrong kind of value",
                                      "NOSCRIPT No matching script", "ERR unknown command", "BUSYKEY Target key name already exists."}) {
            QCOMPARE(redisErrorStatus(permanent).code(), Status::Code::Internal);
        }
    }

    void aBusyServerIsTransientAndAPushRetriesThroughIt()
    {
        Test::RedisServer server;
        QVERIFY(server.start({false, {QStringLiteral("--busy-reply-threshold"), QStringLiteral("20")}}));
        QueueSettings settings;
        settings.name = QStringLiteral("busy");
        settings.type = QStringLiteral("redis");
        settings.connStr = server.url();
        settings.length = 100;
        BaseQueueOptions options;
        options.instanceId = QStringLiteral("test");
        options.timing.backoffBegin = 5ms;
        options.timing.backoffUpper = 20ms;
        options.timing.pushBlockTime = 10s;
        Result<std::unique_ptr<BaseQueue>> queue = createBaseQueue(CancelToken(), settings, false, options);
        QVERIFY(queue);

        std::thread busy = busyScript(server.url(), 700);
        RedisConnection probe(addressOf(server.url()));
        Status seen;
        QVERIFY(Test::eventually([&] {
            const Result<RedisValue> reply = probe.command(CancelToken(), {"SET", "k", "v"});
            seen = reply.status();
            return !reply && reply.status().message().startsWith(QLatin1String("BUSY"));
        }));
        QCOMPARE(seen.code(), Status::Code::Unavailable);
        // While the script still runs, a push backs off and goes through once it ends.
        QVERIFY((*queue)->pushItem(CancelToken(), "item"));
        QVERIFY((*queue)->pushItems(CancelToken(), {"a", "b"}));
        busy.join();
        QCOMPARE(*(*queue)->len(CancelToken()), qint64(3));
    }

    void aReplicaAnswersReadOnlyAndTheConnectionIsDropped()
    {
        Test::RedisServer primary;
        Test::RedisServer replica;
        QVERIFY(primary.start());
        QVERIFY(replica.start());
        QVERIFY(replica.command({QStringLiteral("REPLICAOF"), primary.host(), QString::number(primary.port())}));
        RedisConnection c(addressOf(replica.url()));
        const Result<RedisValue> write = c.command(CancelToken(), {"SET", "k", "v"});
        QVERIFY(!write);
        QCOMPARE(write.status().code(), Status::Code::Unavailable);
        QVERIFY(write.status().message().startsWith(QLatin1String("READONLY")));
        QVERIFY(!c.isConnected()); // a failover may have moved the master: reconnect next time
    }

    void authAndSelectApplyToEveryConnectionAndScriptsSurviveAFlush()
    {
        Test::RedisServer server;
        QVERIFY(server.start());
        QVERIFY(server.command({QStringLiteral("CONFIG"), QStringLiteral("SET"), QStringLiteral("requirepass"), QStringLiteral("s3cret")}));
        const QString url = QStringLiteral("redis://:s3cret@127.0.0.1:%1/3").arg(server.port());
        RedisConnection c(addressOf(url));
        const RedisScript script("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])");
        QCOMPARE(c.eval(CancelToken(), script, {"k"}, {"one"})->string, QByteArray("one"));
        QVERIFY(c.command(CancelToken(), {"SCRIPT", "FLUSH"}));
        QCOMPARE(c.eval(CancelToken(), script, {"k"}, {"two"})->string, QByteArray("two")); // NOSCRIPT → EVAL

        // The server drops us; the next connection authenticates and selects database 3 again.
        RedisConnection admin(addressOf(url));
        QVERIFY(admin.command(CancelToken(), {"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}));
        Result<RedisValue> value = c.command(CancelToken(), {"GET", "k"});
        if (!value) {
            QCOMPARE(value.status().code(), Status::Code::Unavailable); // the dead socket, noticed once
            value = c.command(CancelToken(), {"GET", "k"});
        }
        QVERIFY2(value, qPrintable(value.status().message()));
        QCOMPARE(value->string, QByteArray("two"));
        QVERIFY(c.command(CancelToken(), {"CLIENT", "INFO"})->string.contains(" db=3 "));

        RedisConnection wrong(addressOf(QStringLiteral("redis://:nope@127.0.0.1:%1/0").arg(server.port())));
        const Result<RedisValue> refused = wrong.command(CancelToken(), {"PING"});
        QVERIFY(!refused);
        QVERIFY(refused.status().message().contains(QLatin1String("AUTH")));
    }

    void aCallInterruptedByItsTokenIsNotReused()
    {
        Test::RedisServer server;
        QVERIFY(server.start());
        RedisPool pool(addressOf(server.url()));
        CancelSource cancel;
        std::thread canceller([&] {
            RedisConnection probe(addressOf(server.url()));
            QVERIFY(Test::eventually([&] {
                const Result<RedisValue> clients = probe.command(CancelToken(), {"CLIENT", "LIST"});
                return clients && clients->string.contains("cmd=blpop");
            }));
            cancel.cancel(QStringLiteral("operator pressed Cancel"));
        });
        const Result<RedisValue> blocked = pool.with([&](RedisConnection &c) {
            const Result<RedisValue> reply = c.command(cancel.token(), {"BLPOP", "nothing", "30"});
            [&] { QVERIFY(!c.isConnected()); }();
            return reply;
        });
        canceller.join();
        QCOMPARE(blocked.status().code(), Status::Code::Cancelled);
        QCOMPARE(blocked.status().message(), QStringLiteral("operator pressed Cancel"));
        // The pooled connection reconnects instead of reading from the shut-down socket.
        QCOMPARE(pool.with([](RedisConnection &c) { return c.command(CancelToken(), {"PING"}); })->string, QByteArray("PONG"));
    }
};

QTEST_GUILESS_MAIN(TestRedisConnection)
#include "tst_redisconnection.moc"
