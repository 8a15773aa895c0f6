// The subscriber's end and what both brokers share: topics and the engine's choice of broker.
#include "pubsub.h"

#include "pubsub_p.h"

#include "engine/settings/config.h"

namespace Switchyard {

QString userTopic(qint64 userId)
{
    return QStringLiteral("user-%1").arg(userId);
}

QString adminTopic()
{
    return QStringLiteral("admin");
}

Subscription::Subscription(std::shared_ptr<PubSubDetail::Channel> channel, std::function<void()> detach)
    : m_channel(std::move(channel)), m_detach(std::move(detach))
{
}

Subscription::~Subscription()
{
    cancel();
}

const QString &Subscription::topic() const
{
    return m_channel->topic;
}

std::optional<QByteArray> Subscription::next(const CancelToken &cancel)
{
    PubSubDetail::Channel &c = *m_channel;
    std::unique_lock lock(c.mutex);
    cancel.wait(c.changed, lock, [&] { return !c.queue.empty() || c.closed; });
    if (c.queue.empty())
        return std::nullopt; // closed, or cancelled
    QByteArray message = std::move(c.queue.front());
    c.queue.pop_front();
    return message;
}

std::optional<QByteArray> Subscription::tryNext()
{
    PubSubDetail::Channel &c = *m_channel;
    std::lock_guard lock(c.mutex);
    if (c.queue.empty())
        return std::nullopt;
    QByteArray message = std::move(c.queue.front());
    c.queue.pop_front();
    return message;
}

bool Subscription::isClosed() const
{
    std::lock_guard lock(m_channel->mutex);
    return m_channel->closed;
}

QString Subscription::closeReason() const
{
    std::lock_guard lock(m_channel->mutex);
    return m_channel->reason;
}

qint64 Subscription::dropped() const
{
    std::lock_guard lock(m_channel->mutex);
    return m_channel->dropped;
}

void Subscription::setWakeup(std::function<void()> wakeup)
{
    std::lock_guard lock(m_channel->mutex);
    m_channel->wakeup = std::move(wakeup);
}

void Subscription::cancel()
{
    if (m_cancelled.exchange(true))
        return;
    // The broker forgets the channel first (under its lock, so no fan-out is halfway through
    // it), then the channel closes: nothing is queued after this returns.
    if (m_detach)
        m_detach();
    Broker::close(*m_channel, QString());
}

std::unique_ptr<Subscription> Broker::makeSubscription(std::shared_ptr<PubSubDetail::Channel> channel,
                                                       std::function<void()> detach)
{
    return std::unique_ptr<Subscription>(new Subscription(std::move(channel), std::move(detach)));
}

std::shared_ptr<PubSubDetail::Channel> Broker::makeChannel(const QString &topic)
{
    auto channel = std::make_shared<PubSubDetail::Channel>();
    channel->topic = topic;
    return channel;
}

bool Broker::offer(PubSubDetail::Channel &c, const QByteArray &message)
{
    std::function<void()> wakeup;
    {
        std::lock_guard lock(c.mutex);
        if (c.closed)
            return false;
        if (c.queue.size() >= kSubscriberBuffer) {
            ++c.dropped;
            return false;
        }
        c.queue.push_back(message);
        wakeup = c.wakeup;
    }
    c.changed.notify_all();
    if (wakeup)
        wakeup();
    return true;
}

void Broker::close(PubSubDetail::Channel &c, const QString &reason)
{
    std::function<void()> wakeup;
    {
        std::lock_guard lock(c.mutex);
        if (c.closed)
            return;
        c.closed = true;
        c.reason = reason;
        wakeup = c.wakeup;
    }
    c.changed.notify_all();
    if (wakeup)
        wakeup();
}

Result<std::unique_ptr<Broker>> createBroker(const CancelToken &cancel, const EngineConfig &config, PubSubOptions options)
{
    if (config.websocket.pubsubType == QLatin1String("memory"))
        return createMemoryBroker();
    if (config.websocket.pubsubType == QLatin1String("redis"))
        return createRedisBroker(cancel, config.websocket.connStr, options);
    // The settings refuse other values; a caller that built a config by hand gets the same words.
    return Status::invalidArgument(QStringLiteral("[websocket] PUBSUB_TYPE = %1 is not one of memory, redis")
                                       .arg(config.websocket.pubsubType));
}

} // namespace Switchyard
