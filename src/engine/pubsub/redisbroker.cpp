// Several instances: PUBLISH / SUBSCRIBE on channels gitea-ws-topic:<topic> (Gitea's names).
// Each topic with local subscribers has one connection in SUBSCRIBE mode, read by a thread the
// broker owns; the last subscriber's cancel() stops and joins it. When the read fails (Redis
// restarted, the network broke) the topic's subscribers are closed with the reason: they
// subscribe again, which makes a new connection. subscribe() does not wait for Redis to confirm
// the SUBSCRIBE (Gitea: that would put a round trip into every stream handshake to close a
// sub-millisecond window).
#include "pubsub.h"

#include "pubsub_p.h"

#include "engine/redis/redisconnection.h"

#include <QLoggingCategory>

#include <map>
#include <thread>
#include <vector>

Q_LOGGING_CATEGORY(lcPubSub, "switchyard.pubsub", QtInfoMsg)

namespace Switchyard {

namespace {

const QByteArray kChannelPrefix = "gitea-ws-topic:";

struct RedisTopic
{
    std::vector<std::shared_ptr<PubSubDetail::Channel>> subscribers; // guarded by RedisState::mutex
    CancelSource stop;
    std::thread reader;
};

struct RedisState
{
    RedisAddress address;
    PubSubOptions options;
    std::mutex mutex;
    std::map<QString, std::shared_ptr<RedisTopic>> topics; // guarded by mutex
    std::vector<std::shared_ptr<RedisTopic>> stopped;      // guarded by mutex; readers to join
};

class RedisBroker final : public Broker
{
public:
    RedisBroker(RedisAddress address, PubSubOptions options)
        : m_state(std::make_shared<RedisState>()), m_pool(address)
    {
        m_state->address = std::move(address);
        m_state->options = options;
    }

    ~RedisBroker() override
    {
        {
            std::lock_guard lock(m_state->mutex);
            for (auto &[name, topic] : m_state->topics) {
                topic->stop.cancel(QStringLiteral("the broker stopped"));
                for (const auto &channel : topic->subscribers)
                    close(*channel, QStringLiteral("the broker stopped"));
                m_state->stopped.push_back(topic);
            }
            m_state->topics.clear();
        }
        joinStopped(*m_state);
    }

    QString type() const override { return QStringLiteral("redis"); }

    std::unique_ptr<Subscription> subscribe(const QString &name) override
    {
        joinStopped(*m_state);
        std::shared_ptr<PubSubDetail::Channel> channel = makeChannel(name);
        {
            std::lock_guard lock(m_state->mutex);
            std::shared_ptr<RedisTopic> &topic = m_state->topics[name];
            if (!topic) {
                topic = std::make_shared<RedisTopic>();
                topic->reader = std::thread([state = m_state, topic = topic, name] { readLoop(state, topic, name); });
            }
            topic->subscribers.push_back(channel);
        }
        std::weak_ptr<RedisState> weak = m_state;
        PubSubDetail::Channel *raw = channel.get();
        return makeSubscription(std::move(channel), [weak, name, raw] {
            const std::shared_ptr<RedisState> state = weak.lock();
            if (!state)
                return;
            {
                std::lock_guard lock(state->mutex);
                const auto it = state->topics.find(name);
                if (it == state->topics.end())
                    return;
                std::erase_if(it->second->subscribers, [raw](const auto &c) { return c.get() == raw; });
                if (!it->second->subscribers.empty())
                    return;
                it->second->stop.cancel(QStringLiteral("no subscriber left")); // shuts its socket down
                state->stopped.push_back(it->second);
                state->topics.erase(it);
            }
            joinStopped(*state);
        });
    }

    void publish(const QString &topic, const QByteArray &message) override
    {
        const Result<RedisValue> sent =
            m_pool.commandWithin(m_state->options.publishTimeout, {"PUBLISH", kChannelPrefix + topic.toUtf8(), message});
        if (!sent)
            qCWarning(lcPubSub).noquote() << "a push to" << topic << "was lost (a reminder: readers recompute from the store):"
                                          << sent.status().message();
    }

    // PUBSUB NUMSUB answers for one node only; publishers do the work unconditionally.
    bool hasTopicSubscribers(const QString &) override { return true; }

    Status ping(const CancelToken &cancel)
    {
        RedisConnection connection(m_state->address);
        return pingWithRetries(cancel, connection, m_state->options.pingAttempts, m_state->options.pingInterval);
    }

private:
    static void readLoop(const std::shared_ptr<RedisState> &state, const std::shared_ptr<RedisTopic> &topic, const QString &name)
    {
        const CancelToken token = topic->stop.token();
        RedisConnection connection(state->address);
        const QByteArray channel = kChannelPrefix + name.toUtf8();
        Status failure = pingWithRetries(token, connection, state->options.pingAttempts, state->options.pingInterval);
        if (failure)
            failure = connection.command(token, {"SUBSCRIBE", channel}).status();
        while (failure) {
            Result<RedisValue> pushed = connection.receive(token);
            if (!pushed) {
                failure = pushed.status();
                break;
            }
            // ["message", channel, payload]; the subscribe confirmation and others are skipped.
            const RedisValue &v = *pushed;
            if (v.type != RedisValue::Type::Array || v.elements.size() != 3 || v.elements[0].string != "message")
                continue;
            std::lock_guard lock(state->mutex);
            for (const auto &subscriber : topic->subscribers)
                offer(*subscriber, v.elements[2].string);
        }
        if (token.isCancelled())
            return; // stopped by its last cancel() or the broker: whoever stopped it joins it
        const QString reason = QStringLiteral("the Redis subscription to %1 at %2 failed: %3")
                                   .arg(QString::fromUtf8(channel), state->address.display(), failure.message());
        qCWarning(lcPubSub).noquote() << reason << "- its" << "subscribers are closed and subscribe again";
        std::lock_guard lock(state->mutex);
        const auto it = state->topics.find(name);
        if (it != state->topics.end() && it->second == topic) {
            state->topics.erase(it);
            state->stopped.push_back(topic); // joined by the next subscribe, cancel or the broker's end
        }
        for (const auto &subscriber : topic->subscribers)
            close(*subscriber, reason);
        topic->subscribers.clear();
    }

    // Joins the readers of stopped topics, outside the lock (a reader may be delivering). A
    // reader that stops its own topic (a wakeup that cancels) is left for a later call.
    static void joinStopped(RedisState &state)
    {
        std::vector<std::shared_ptr<RedisTopic>> stopped;
        {
            std::lock_guard lock(state.mutex);
            stopped.swap(state.stopped);
        }
        std::vector<std::shared_ptr<RedisTopic>> later;
        for (const std::shared_ptr<RedisTopic> &topic : stopped) {
            if (topic->reader.get_id() == std::this_thread::get_id())
                later.push_back(topic);
            else if (topic->reader.joinable())
                topic->reader.join();
        }
        if (!later.empty()) {
            std::lock_guard lock(state.mutex);
            state.stopped.insert(state.stopped.end(), later.begin(), later.end());
        }
    }

    const std::shared_ptr<RedisState> m_state;
    RedisPool m_pool;
};

} // namespace

Result<std::unique_ptr<Broker>> createRedisBroker(const CancelToken &cancel, const QString &connStr, PubSubOptions options)
{
    Result<RedisAddress> address = RedisAddress::parse(connStr);
    if (!address)
        return Status::invalidArgument(QStringLiteral("[websocket] CONN_STR: %1").arg(address.status().message()));
    auto broker = std::make_unique<RedisBroker>(*address, options);
    if (Status reachable = broker->ping(cancel); !reachable)
        return Status(reachable.code(), QStringLiteral("pub/sub: %1").arg(reachable.message()));
    return std::unique_ptr<Broker>(std::move(broker));
}

} // namespace Switchyard
