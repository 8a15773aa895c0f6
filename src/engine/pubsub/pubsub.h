#pragma once

// The pub/sub broker (SPEC §8, seed 001 §12.4.4): how live pushes reach subscribers — an unread
// count to a user's open consoles, engine events to the admin stream. `[websocket] PUBSUB_TYPE`
// chooses memory (one process) or redis (several instances).
//
// A push is a reminder, never the truth: each subscriber has a buffer of kSubscriberBuffer
// messages and loses what arrives while it is full, so a slow subscriber never blocks a
// publisher. What a push says can always be read again from the store (counts are recomputed),
// so a dropped push only delays.

#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace Switchyard {

class EngineConfig;

inline constexpr std::size_t kSubscriberBuffer = 8;

// "user-<id>": a user's topic (notification counts); "admin": the engine's events for consoles.
QString userTopic(qint64 userId);
QString adminTopic();

namespace PubSubDetail {
struct Channel;
}

// One subscriber's end: a queue of at most kSubscriberBuffer messages. Thread-safe. Closed by
// cancel() (idempotent; the destructor cancels) or by the broker when it loses the topic (Redis:
// the connection failed) — then subscribe again.
class Subscription
{
public:
    ~Subscription();
    Subscription(const Subscription &) = delete;
    Subscription &operator=(const Subscription &) = delete;

    const QString &topic() const;
    // The next message, oldest first; nullopt when closed (after what was queued is read) or
    // when `cancel` fires.
    std::optional<QByteArray> next(const CancelToken &cancel);
    // The next message if one is queued; never waits.
    std::optional<QByteArray> tryNext();
    bool isClosed() const;
    QString closeReason() const; // why the broker closed it; empty after cancel()
    qint64 dropped() const;      // messages lost because the buffer was full
    // Called after a message is queued and when the subscription closes, on the thread that
    // did it (a publisher, the Redis reader), while the broker holds its lock: post elsewhere,
    // and never call the broker from it (no cancel(), no subscribe()). Set it right after
    // subscribe().
    void setWakeup(std::function<void()> wakeup);
    // Stops delivery and closes; idempotent. After it returns nothing more is queued.
    void cancel();

private:
    friend class Broker;
    Subscription(std::shared_ptr<PubSubDetail::Channel> channel, std::function<void()> detach);
    const std::shared_ptr<PubSubDetail::Channel> m_channel;
    std::function<void()> m_detach;
    std::atomic<bool> m_cancelled{false};
};

class Broker
{
public:
    virtual ~Broker() = default;
    virtual QString type() const = 0; // "memory" | "redis"
    virtual std::unique_ptr<Subscription> subscribe(const QString &topic) = 0;
    // Never blocks on a subscriber. Redis: PUBLISH bounded at 2 s; a failure is logged and the
    // message lost (a reminder, see above).
    virtual void publish(const QString &topic, const QByteArray &message) = 0;
    // false only when nobody listens for sure: a publisher may skip the work of a message. Redis
    // cannot answer cheaply across instances: always true.
    virtual bool hasTopicSubscribers(const QString &topic) = 0;

protected:
    friend class Subscription; // closes its channel on cancel()
    // For the brokers: a subscription over `channel`; `detach` runs once, at cancel().
    static std::unique_ptr<Subscription> makeSubscription(std::shared_ptr<PubSubDetail::Channel> channel,
                                                          std::function<void()> detach);
    static std::shared_ptr<PubSubDetail::Channel> makeChannel(const QString &topic);
    // Queues a copy; false (and counted) when the buffer is full; ignored once closed.
    static bool offer(PubSubDetail::Channel &channel, const QByteArray &message);
    static void close(PubSubDetail::Channel &channel, const QString &reason);
};

struct PubSubOptions
{
    // Redis: PINGs before a topic's SUBSCRIBE and at start-up (Gitea: 10 × 1 s, to ride out
    // services starting in any order).
    int pingAttempts = 10;
    std::chrono::milliseconds pingInterval{1000};
    std::chrono::milliseconds publishTimeout{2000};
};

std::unique_ptr<Broker> createMemoryBroker();
// Channels gitea-ws-topic:<topic> on `connStr`; PINGs it first (Unavailable when it never answers).
Result<std::unique_ptr<Broker>> createRedisBroker(const CancelToken &cancel, const QString &connStr,
                                                  PubSubOptions options = {});
// As `[websocket] PUBSUB_TYPE` and `CONN_STR` say.
Result<std::unique_ptr<Broker>> createBroker(const CancelToken &cancel, const EngineConfig &config,
                                             PubSubOptions options = {});

} // namespace Switchyard
