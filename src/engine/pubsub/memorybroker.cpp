// One process: subscribers by topic. The lock spans the whole fan-out, so a subscription that
// cancels is either fully offered a message or not at all, and never after cancel() returned.
#include "pubsub.h"

#include "pubsub_p.h"

#include <map>
#include <vector>

namespace Switchyard {

namespace {

struct MemoryTopics
{
    std::mutex mutex;
    std::map<QString, std::vector<std::shared_ptr<PubSubDetail::Channel>>> topics; // guarded by mutex
};

class MemoryBroker final : public Broker
{
public:
    QString type() const override { return QStringLiteral("memory"); }

    std::unique_ptr<Subscription> subscribe(const QString &topic) override
    {
        std::shared_ptr<PubSubDetail::Channel> channel = makeChannel(topic);
        {
            std::lock_guard lock(m_state->mutex);
            m_state->topics[topic].push_back(channel);
        }
        // The subscription may outlive the broker: it detaches through the shared state.
        std::weak_ptr<MemoryTopics> state = m_state;
        PubSubDetail::Channel *raw = channel.get();
        return makeSubscription(std::move(channel), [state, topic, raw] {
            const std::shared_ptr<MemoryTopics> topics = state.lock();
            if (!topics)
                return;
            std::lock_guard lock(topics->mutex);
            const auto it = topics->topics.find(topic);
            if (it == topics->topics.end())
                return;
            std::erase_if(it->second, [raw](const auto &c) { return c.get() == raw; });
            if (it->second.empty())
                topics->topics.erase(it);
        });
    }

    void publish(const QString &topic, const QByteArray &message) override
    {
        std::lock_guard lock(m_state->mutex);
        const auto it = m_state->topics.find(topic);
        if (it == m_state->topics.end())
            return;
        for (const std::shared_ptr<PubSubDetail::Channel> &channel : it->second)
            offer(*channel, message); // a full one loses this message and counts it
    }

    bool hasTopicSubscribers(const QString &topic) override
    {
        std::lock_guard lock(m_state->mutex);
        return m_state->topics.count(topic) > 0;
    }

    ~MemoryBroker() override
    {
        std::lock_guard lock(m_state->mutex);
        for (auto &[topic, channels] : m_state->topics) {
            for (const std::shared_ptr<PubSubDetail::Channel> &channel : channels)
                close(*channel, QStringLiteral("the broker stopped"));
        }
        m_state->topics.clear();
    }

private:
    const std::shared_ptr<MemoryTopics> m_state = std::make_shared<MemoryTopics>();
};

} // namespace

std::unique_ptr<Broker> createMemoryBroker()
{
    return std::make_unique<MemoryBroker>();
}

} // namespace Switchyard
