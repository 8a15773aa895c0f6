// The pub/sub broker on memory and on Redis ($SWITCHYARD_PUBSUB): delivery in order per topic,
// a subscriber that stalls loses messages but never holds the publisher, idempotent cancel, and
// (Redis) a restarted server closes the subscriptions, which subscribe again.
#include "admin/eventsource.h"
#include "engine/engine.h"
#include "engine/events/events.h"
#include "engine/pubsub/pubsub.h"
#include "engine/settings/inifile.h"
#include "engine/settings/settings.h"

#include "support/redisserver.h"
#include "support/testutil.h"
#include "support/wait.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

class tst_PubSub : public QObject
{
    Q_OBJECT

    bool redis() const { return qgetenv("SWITCHYARD_PUBSUB") == "redis"; }

    std::unique_ptr<Broker> makeBroker()
    {
        if (!redis())
            return createMemoryBroker();
        PubSubOptions options;
        options.pingAttempts = 2;
        options.pingInterval = 10ms;
        Result<std::unique_ptr<Broker>> broker = createRedisBroker(CancelToken(), m_server->url(), options);
        if (!broker)
            qFatal("%s", qPrintable(broker.status().message()));
        return std::move(broker).value();
    }

    // Redis confirms a SUBSCRIBE after subscribe() returned: wait until the server counts the
    // topic's connection (memory delivers from the first moment).
    bool subscribed(const QString &topic, int connections = 1)
    {
        if (!redis())
            return true;
        return Test::eventually([&] {
            const Result<QByteArray> n = m_server->command({QStringLiteral("PUBSUB"), QStringLiteral("NUMSUB"),
                                                            QStringLiteral("gitea-ws-topic:") + topic});
            return n && n->endsWith("\n" + QByteArray::number(connections)); // "<channel>\n<count>"
        });
    }

    static QByteArray receive(Subscription &subscription)
    {
        const CancelSource deadline = CancelSource::withTimeout(CancelToken(), 20s); // only matters when the broker is broken
        return subscription.next(deadline.token()).value_or(QByteArray("(nothing)"));
    }

    std::unique_ptr<Test::RedisServer> m_server;

private Q_SLOTS:
    void init()
    {
        if (!redis())
            return;
        m_server = std::make_unique<Test::RedisServer>();
        const Status started = m_server->start();
        QVERIFY2(started, qPrintable(started.message()));
    }
    void cleanup() { m_server.reset(); }

    void deliversInOrderToTheTopicsSubscribers()
    {
        std::unique_ptr<Broker> broker = makeBroker();
        QCOMPARE(broker->type(), redis() ? QStringLiteral("redis") : QStringLiteral("memory"));
        std::unique_ptr<Subscription> a = broker->subscribe(userTopic(1));
        std::unique_ptr<Subscription> b = broker->subscribe(userTopic(1));
        std::unique_ptr<Subscription> other = broker->subscribe(userTopic(2));
        QCOMPARE(a->topic(), QStringLiteral("user-1"));
        QVERIFY(subscribed(QStringLiteral("user-1")) && subscribed(QStringLiteral("user-2")));
        broker->publish(userTopic(1), "one");
        broker->publish(userTopic(1), "two");
        broker->publish(userTopic(2), "for 2");
        QCOMPARE(receive(*a), QByteArray("one"));
        QCOMPARE(receive(*a), QByteArray("two"));
        QCOMPARE(receive(*b), QByteArray("one"));
        QCOMPARE(receive(*b), QByteArray("two"));
        QCOMPARE(receive(*other), QByteArray("for 2"));
        QVERIFY(!other->tryNext());
        QCOMPARE(a->dropped(), qint64(0));
    }

    // Buffer of 8: the stalled subscriber keeps the first 8 and loses the rest; the publisher and
    // the subscriber that reads are not held back by it.
    void aStalledSubscriberLosesMessagesNotThePublisher()
    {
        std::unique_ptr<Broker> broker = makeBroker();
        std::unique_ptr<Subscription> stalled = broker->subscribe(adminTopic());
        std::unique_ptr<Subscription> reader = broker->subscribe(adminTopic());
        QVERIFY(subscribed(adminTopic()));
        constexpr int kMessages = 20;
        for (int i = 0; i < kMessages; ++i) {
            broker->publish(adminTopic(), QByteArray::number(i));
            QCOMPARE(receive(*reader), QByteArray::number(i)); // every one, in order
        }
        for (int i = 0; i < int(kSubscriberBuffer); ++i)
            QCOMPARE(stalled->tryNext().value_or("(none)"), QByteArray::number(i));
        QVERIFY(!stalled->tryNext());
        QCOMPARE(stalled->dropped(), qint64(kMessages - int(kSubscriberBuffer)));
        QCOMPARE(reader->dropped(), qint64(0));
    }

    void cancelIsIdempotentAndCloses()
    {
        std::unique_ptr<Broker> broker = makeBroker();
        std::unique_ptr<Subscription> s = broker->subscribe(userTopic(7));
        QVERIFY(subscribed(userTopic(7)));
        QVERIFY(broker->hasTopicSubscribers(userTopic(7)));
        s->cancel();
        s->cancel();
        QVERIFY(s->isClosed());
        QVERIFY(s->closeReason().isEmpty()); // cancelled, not lost
        QVERIFY(!s->next(CancelToken())); // closed: returns at once
        broker->publish(userTopic(7), "after");
        QVERIFY(!s->tryNext());
        if (redis()) {
            QVERIFY(broker->hasTopicSubscribers(userTopic(7))); // Redis cannot tell: always true
            QVERIFY(subscribed(userTopic(7), 0)); // the topic's connection is gone, its reader joined
        } else {
            QVERIFY(!broker->hasTopicSubscribers(userTopic(7)));
            QVERIFY(!broker->hasTopicSubscribers(userTopic(8)));
        }
    }

    void aWaitingNextReturnsWhenItsTokenIsCancelled()
    {
        std::unique_ptr<Broker> broker = makeBroker();
        std::unique_ptr<Subscription> s = broker->subscribe(userTopic(3));
        CancelSource cancel;
        std::optional<QByteArray> got = QByteArray("not returned");
        std::thread waiter([&] { got = s->next(cancel.token()); });
        cancel.cancel(QStringLiteral("the stream closed"));
        waiter.join();
        QVERIFY(!got);
        QVERIFY(!s->isClosed()); // the token ended the wait, not the subscription
    }

    // The wakeup lets an event loop (the admin stream) be told without a thread that waits.
    void theWakeupRunsForEachMessageAndAtClose()
    {
        std::unique_ptr<Broker> broker = makeBroker();
        std::unique_ptr<Subscription> s = broker->subscribe(adminTopic());
        std::mutex mutex;
        std::condition_variable woken;
        int wakeups = 0;
        s->setWakeup([&] {
            std::lock_guard lock(mutex);
            ++wakeups;
            woken.notify_all();
        });
        QVERIFY(subscribed(adminTopic()));
        broker->publish(adminTopic(), "ping");
        {
            std::unique_lock lock(mutex);
            QVERIFY(woken.wait_for(lock, 20s, [&] { return wakeups == 1; }));
        }
        QCOMPARE(s->tryNext().value_or(""), QByteArray("ping"));
        s->cancel();
        std::lock_guard lock(mutex);
        QCOMPARE(wakeups, 2);
    }

    void aSubscriptionOutlivesItsBroker()
    {
        std::unique_ptr<Broker> broker = makeBroker();
        std::unique_ptr<Subscription> s = broker->subscribe(userTopic(9));
        QVERIFY(subscribed(userTopic(9)));
        broker.reset();
        QVERIFY(s->isClosed());
        QCOMPARE(s->closeReason(), QStringLiteral("the broker stopped"));
        s->cancel(); // safe: the broker is gone
    }

    void aRestartedRedisClosesSubscriptionsThatSubscribeAgain()
    {
        if (!redis())
            QSKIP("memory has no server to lose");
        std::unique_ptr<Broker> broker = makeBroker();
        std::unique_ptr<Subscription> s = broker->subscribe(userTopic(4));
        QVERIFY(subscribed(userTopic(4)));
        QVERIFY(m_server->restart());
        QVERIFY(Test::eventually([&] { return s->isClosed(); }));
        QVERIFY2(s->closeReason().contains(QLatin1String("gitea-ws-topic:user-4")), qPrintable(s->closeReason()));
        std::unique_ptr<Subscription> again = broker->subscribe(userTopic(4));
        QVERIFY(subscribed(userTopic(4)));
        broker->publish(userTopic(4), "after the restart");
        QCOMPARE(receive(*again), QByteArray("after the restart"));
    }

    // The live stream's admin-topic thread (AdminEventSource) outlives a Redis restart: its
    // subscription is closed, it subscribes again, and the next ingested event reaches the sink.
    void theAdminTopicListenerSubscribesAgainAfterARestart()
    {
        if (!redis())
            QSKIP("memory has no server to lose");
        QTemporaryDir dir;
        const QByteArray ini = "[websocket]\nPUBSUB_TYPE = redis\nCONN_STR = " + m_server->url().toUtf8() + "\n";
        Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
        QVERIFY2(started, qPrintable(started.status().message()));
        Engine &engine = **started;

        std::mutex mutex;
        std::vector<qint64> seen; // ids of the event rows the sink received
        Admin::AdminEventSource source(
            engine,
            [&](Admin::AdminEvent event) {
                if (event.type != Admin::AdminEvent::Type::Event)
                    return;
                std::lock_guard lock(mutex);
                seen.push_back(event.event.id);
            },
            std::chrono::hours(1));
        source.start();
        const auto received = [&](qint64 id) {
            return Test::eventually([&] {
                std::lock_guard lock(mutex);
                return std::find(seen.begin(), seen.end(), id) != seen.end();
            });
        };
        const auto ingest = [&](const QString &delivery) -> qint64 {
            QFile file(QStringLiteral(SWITCHYARD_TEST_DATA "/events/gitea-push.json"));
            if (!file.open(QIODevice::ReadOnly))
                return -1;
            IncomingEvent in;
            in.event = QStringLiteral("push");
            in.payload = file.readAll();
            in.deliveryId = delivery;
            in.byToken = true;
            const Result<EventAccepted> accepted = engine.events().accept(CancelToken(), in);
            return accepted ? accepted->id : -1;
        };

        QVERIFY(subscribed(adminTopic()));
        const qint64 before = ingest(QStringLiteral("before-restart"));
        QVERIFY(before > 0);
        QVERIFY(received(before));

        QVERIFY(m_server->restart());
        QVERIFY(subscribed(adminTopic())); // a new server counts only a new SUBSCRIBE
        const qint64 after = ingest(QStringLiteral("after-restart"));
        QVERIFY(after > 0);
        QVERIFY(received(after));
        source.stop();
        QVERIFY(engine.shutdown().clean());
    }

    void anUnreachableRedisIsNamed()
    {
        if (!redis())
            QSKIP("memory needs no server");
        PubSubOptions options;
        options.pingAttempts = 2;
        options.pingInterval = 10ms;
        const Result<std::unique_ptr<Broker>> broker = createRedisBroker(CancelToken(), QStringLiteral("redis://127.0.0.1:1/0"), options);
        QVERIFY(!broker);
        QCOMPARE(broker.status().code(), Status::Code::Unavailable);
        QVERIFY2(broker.status().message().contains(QLatin1String("127.0.0.1:1")), qPrintable(broker.status().message()));
    }

    // [websocket] chooses the engine's broker; an unknown type stops start-up naming the key.
    void theEngineUsesTheConfiguredBroker()
    {
        QTemporaryDir dir;
        const QByteArray ini = redis() ? "[websocket]\nPUBSUB_TYPE = redis\nCONN_STR = " + m_server->url().toUtf8() + "\n" : QByteArray();
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
        QVERIFY2(engine, qPrintable(engine.status().message()));
        QCOMPARE((*engine)->broker().type(), redis() ? QStringLiteral("redis") : QStringLiteral("memory"));
        QVERIFY((*engine)->shutdown().clean());

        // CONN_STR falls back to [redis] CONN_STR, then to the local default.
        QCOMPARE(Test::configFrom("[redis]\nCONN_STR = redis://cache.internal:6380/2\n[websocket]\nPUBSUB_TYPE = redis\n", dir.path())
                     .websocket.connStr,
                 QStringLiteral("redis://cache.internal:6380/2"));
        QCOMPARE(Test::configFrom("[websocket]\nPUBSUB_TYPE = redis\n", dir.path()).websocket.connStr,
                 QStringLiteral("redis://127.0.0.1:6379/0"));

        Result<IniFile> ini2 = IniFile::parse(QStringLiteral("app.ini"), "[websocket]\nPUBSUB_TYPE = carrier-pigeon\n");
        QVERIFY(ini2);
        const Result<EngineConfig> bad = EngineConfig::load(Settings(std::move(ini2).value()), dir.path(), QString());
        QVERIFY(!bad);
        QVERIFY2(bad.status().message().contains(QLatin1String("PUBSUB_TYPE")) && bad.status().message().contains(QLatin1String("memory")),
                 qPrintable(bad.status().message()));
    }
};

QTEST_GUILESS_MAIN(tst_PubSub)
#include "tst_pubsub.moc"
