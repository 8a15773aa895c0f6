#include "redisqueue.h"

#include "queuewaits.h"
#include "queuelogging.h"

namespace Switchyard {

namespace {

const RedisScript &pushScript()
{
    // KEYS: list, set. ARGV: item, capacity, unique. Returns 1 pushed, 0 already queued, -1 full.
    static const RedisScript script(R"lua(
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
if ARGV[3] == '1' and redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
return 1
)lua");
    return script;
}

const RedisScript &popScript()
{
    // KEYS: list, set, in-flight. ARGV: max, unique. Moves up to max items into the in-flight list.
    static const RedisScript script(R"lua(
local out = {}
for i = 1, tonumber(ARGV[1]) do
  local v = redis.call('LMOVE', KEYS[1], KEYS[3], 'LEFT', 'RIGHT')
  if not v then break end
  if ARGV[2] == '1' then redis.call('SREM', KEYS[2], v) end
  out[#out + 1] = v
end
return out
)lua");
    return script;
}

const RedisScript &ackScript()
{
    // KEYS: in-flight. ARGV: items.
    static const RedisScript script(R"lua(
for i = 1, #ARGV do redis.call('LREM', KEYS[1], 1, ARGV[i]) end
return #ARGV
)lua");
    return script;
}

const RedisScript &releaseScript()
{
    // KEYS: list, set, in-flight. ARGV: unique, items... Puts the items back at the front, in order.
    static const RedisScript script(R"lua(
for i = #ARGV, 2, -1 do
  local v = ARGV[i]
  redis.call('LREM', KEYS[3], 1, v)
  if ARGV[1] ~= '1' or redis.call('SADD', KEYS[2], v) == 1 then redis.call('LPUSH', KEYS[1], v) end
end
return #ARGV - 1
)lua");
    return script;
}

const RedisScript &reclaimScript()
{
    // KEYS: list, set, instances. ARGV: in-flight prefix, heartbeat prefix, unique, own id.
    static const RedisScript script(R"lua(
local moved = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  if id ~= ARGV[4] and redis.call('EXISTS', ARGV[2] .. id) == 0 then
    local key = ARGV[1] .. id
    local items = redis.call('LRANGE', key, 0, -1)
    for i = #items, 1, -1 do
      local v = items[i]
      if ARGV[3] ~= '1' or redis.call('SADD', KEYS[2], v) == 1 then
        redis.call('LPUSH', KEYS[1], v)
        moved = moved + 1
      end
    end
    redis.call('DEL', key)
    redis.call('SREM', KEYS[3], id)
  end
end
return moved
)lua");
    return script;
}

const RedisScript &leaveScript()
{
    // KEYS: in-flight, heartbeat, instances. ARGV: own id. Unregisters when nothing is in flight.
    static const RedisScript script(R"lua(
if redis.call('LLEN', KEYS[1]) > 0 then return 0 end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return 1
)lua");
    return script;
}

bool retryable(const Status &status)
{
    return status.code() == Status::Code::Unavailable;
}

} // namespace

RedisQueue::RedisQueue(QString name, RedisAddress address, Keys keys, int capacity, bool unique, QString instanceId,
                       QueueTiming timing)
    : m_name(std::move(name)), m_keys(std::move(keys)), m_capacity(std::max(1, capacity)),
      m_unique(unique), m_instanceId(std::move(instanceId)), m_timing(timing), m_pool(std::move(address))
{
}

Result<std::unique_ptr<RedisQueue>> RedisQueue::open(const CancelToken &cancel, QString name, const RedisAddress &address,
                                                     const QString &queueFullName, const QString &setFullName,
                                                     int capacity, bool unique, QString instanceId, QueueTiming timing)
{
    Keys keys;
    keys.list = queueFullName.toUtf8();
    keys.set = setFullName.toUtf8();
    keys.inFlightPrefix = keys.list + ":inflight:";
    keys.heartbeatPrefix = keys.list + ":heartbeat:";
    keys.instances = keys.list + ":instances";
    std::unique_ptr<RedisQueue> queue(
        new RedisQueue(std::move(name), address, std::move(keys), capacity, unique, std::move(instanceId), timing));

    auto connection = std::make_unique<RedisConnection>(address);
    if (Status ping = pingWithRetries(cancel, *connection, timing.connectAttempts, timing.connectInterval); !ping)
        return Status::unavailable(QStringLiteral("queue %1: %2").arg(queue->m_name, ping.message()));
    queue->m_pool.giveBack(std::move(connection));
    if (Status registered = queue->heartbeat(cancel); !registered)
        return registered;
    if (Result<qint64> reclaimed = queue->reclaimDeadInstances(cancel); !reclaimed)
        return reclaimed.status();
    queue->m_heartbeat = std::thread([raw = queue.get()] { raw->heartbeatLoop(); });
    return queue;
}

RedisQueue::~RedisQueue()
{
    close();
}

QByteArray RedisQueue::inFlightKey() const
{
    return m_keys.inFlightPrefix + m_instanceId.toUtf8();
}

template<typename Fn>
auto RedisQueue::withRetry(const CancelToken &cancel, std::optional<SteadyClock::time_point> giveUpAt, const char *what,
                           Fn fn) -> decltype(fn(std::declval<RedisConnection &>()))
{
    auto delay = m_timing.backoffBegin;
    bool logged = false;
    while (true) {
        auto result = m_pool.with(fn);
        if (result || !retryable(result.status()))
            return result;
        if (cancel.isCancelled())
            return cancel.cause();
        {
            std::lock_guard lock(m_mutex);
            if (m_closed)
                return queueClosedStatus(m_name);
        }
        auto sleep = delay;
        if (giveUpAt) {
            const auto now = SteadyClock::now();
            if (now >= *giveUpAt)
                return result;
            sleep = std::min(sleep, std::chrono::duration_cast<std::chrono::milliseconds>(*giveUpAt - now) + std::chrono::milliseconds(1));
        }
        if (!logged) {
            qCWarning(lcQueue).noquote() << "queue" << m_name << ":" << what << "failed, retrying:" << result.status().message();
            logged = true;
        }
        CancelSource wait(cancel);
        const CancelCallback stopWaiting = m_stop.token().onCancel([&wait] { wait.cancel(QStringLiteral("queue closed")); });
        wait.token().sleepFor(sleep);
        delay = std::min(delay * 2, m_timing.backoffUpper);
    }
}

Status RedisQueue::pushItem(const CancelToken &cancel, const QByteArray &data)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_closed)
            return queueClosedStatus(m_name);
    }
    const auto giveUpAt = SteadyClock::now() + m_timing.pushBlockTime;
    // Bounds each command too: a hung server must not hold the caller past the push block time.
    const CancelSource bounded(cancel, giveUpAt);
    auto delay = m_timing.backoffBegin;
    bool full = false;
    while (true) {
        if (full && SteadyClock::now() >= giveUpAt)
            return queueFullStatus(m_name, m_capacity, m_timing.pushBlockTime);
        const Result<RedisValue> reply = withRetry(cancel, giveUpAt, "push", [&](RedisConnection &c) {
            return c.eval(bounded.token(), pushScript(), {m_keys.list, m_keys.set},
                          {data, QByteArray::number(m_capacity), m_unique ? "1" : "0"});
        });
        if (!reply) {
            // The block time ran out while a retry of a full queue was on the wire: still full.
            if (full && reply.status().code() == Status::Code::DeadlineExceeded && !cancel.isCancelled())
                return queueFullStatus(m_name, m_capacity, m_timing.pushBlockTime);
            if (reply.status().code() == Status::Code::DeadlineExceeded && !cancel.isCancelled())
                return Status::unavailable(QStringLiteral("queue %1: Redis at %2 did not answer within %3 ms")
                                               .arg(m_name, m_pool.address().display()).arg(m_timing.pushBlockTime.count()));
            return reply.status();
        }
        if (reply->integer == 1) {
            std::lock_guard lock(m_mutex);
            ++m_pushCount;
            m_pushed.notify_all();
            return Status::ok();
        }
        if (reply->integer == 0)
            return Status::alreadyExists(QStringLiteral("item already in queue %1").arg(m_name));
        // Full: back off until the push block time is used up.
        full = true;
        const auto now = SteadyClock::now();
        if (now < giveUpAt && !cancel.sleepFor(std::min<SteadyClock::duration>(delay, giveUpAt - now)))
            return cancel.cause();
        delay = std::min(delay * 2, m_timing.backoffUpper);
    }
}

void RedisQueue::forgetHeld(const std::vector<PoppedItem> &items)
{
    for (const PoppedItem &item : items) {
        auto it = m_held.find(item.data);
        if (it != m_held.end() && --it.value() <= 0)
            m_held.erase(it);
    }
}

Status RedisQueue::retryUnacked(const CancelToken &cancel)
{
    QList<QByteArray> items;
    {
        std::lock_guard lock(m_mutex);
        items = m_unacked;
    }
    if (items.isEmpty())
        return Status::ok();
    const Result<RedisValue> acked = m_pool.with([&](RedisConnection &c) { return c.eval(cancel, ackScript(), {inFlightKey()}, items); });
    if (!acked)
        return acked.status();
    std::lock_guard lock(m_mutex);
    for (const QByteArray &item : items) {
        m_unacked.removeOne(item);
        auto it = m_held.find(item);
        if (it != m_held.end() && --it.value() <= 0)
            m_held.erase(it);
    }
    qCInfo(lcQueue).noquote() << "queue" << m_name << ":" << items.size() << "late acknowledgement(s) went through";
    return Status::ok();
}

Status RedisQueue::reconcileInFlight(const CancelToken &cancel)
{
    // Handled items whose ack failed are held until their ack lands: never re-queued from here.
    if (Status retried = retryUnacked(cancel); !retried)
        return retried;
    const Result<RedisValue> listed = m_pool.with([&](RedisConnection &c) {
        return c.command(cancel, {"LRANGE", inFlightKey(), "0", "-1"});
    });
    if (!listed)
        return listed.status();
    QList<QByteArray> orphans{m_unique ? "1" : "0"};
    {
        std::lock_guard lock(m_mutex);
        QHash<QByteArray, int> held = m_held;
        for (const RedisValue &value : listed->elements) {
            auto it = held.find(value.string);
            if (it != held.end() && it.value() > 0)
                --it.value();
            else
                orphans.append(value.string);
        }
    }
    if (orphans.size() > 1) {
        const Result<RedisValue> released = m_pool.with([&](RedisConnection &c) {
            return c.eval(cancel, releaseScript(), {m_keys.list, m_keys.set, inFlightKey()}, orphans);
        });
        if (!released)
            return released.status();
        qCInfo(lcQueue).noquote() << "queue" << m_name << ":" << (orphans.size() - 1)
                                  << "item(s) moved by a pop whose reply was lost are back in the queue";
    }
    std::lock_guard lock(m_mutex);
    m_reconcile = false;
    return Status::ok();
}

Status RedisQueue::pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_closed)
            return queueClosedStatus(m_name);
    }
    const auto giveUpAt = SteadyClock::now() + m_timing.pushBlockTime;
    const CancelSource bounded(cancel, giveUpAt);
    std::vector<QByteArray> left = items;
    auto delay = m_timing.backoffBegin;
    bool full = false;
    while (!left.empty()) {
        QList<QList<QByteArray>> commands;
        commands.reserve(qsizetype(left.size()) + 1);
        commands.append({"SCRIPT", "LOAD", pushScript().source()}); // so EVALSHA cannot miss
        for (const QByteArray &item : left)
            commands.append({"EVALSHA", pushScript().sha1(), "2", m_keys.list, m_keys.set, item,
                             QByteArray::number(m_capacity), m_unique ? "1" : "0"});
        const Result<std::vector<RedisValue>> replies = withRetry(cancel, giveUpAt, "push", [&](RedisConnection &c) {
            return c.pipeline(bounded.token(), commands);
        });
        const qsizetype accepted = qsizetype(items.size() - left.size());
        // The block time ran out while a retry of a full queue was on the wire: still full.
        if (!replies && full && replies.status().code() == Status::Code::DeadlineExceeded && !cancel.isCancelled())
            return Status::deadlineExceeded(queueFullStatus(m_name, m_capacity, m_timing.pushBlockTime).message()
                                            + QStringLiteral(" (%1 of %2 item(s) accepted)").arg(accepted).arg(items.size()));
        if (!replies)
            return Status(replies.status().code() == Status::Code::DeadlineExceeded && !cancel.isCancelled()
                              ? Status::Code::Unavailable : replies.status().code(),
                          QStringLiteral("queue %1: %2 (%3 of %4 item(s) accepted)")
                              .arg(m_name, replies.status().message()).arg(accepted).arg(items.size()));
        std::vector<QByteArray> notYet;
        Status transient; // a "not now" reply (LOADING, BUSY, …): retried like a full queue
        for (size_t i = 0; i < left.size(); ++i) {
            const RedisValue &reply = (*replies)[i + 1];
            if (reply.isError()) {
                const Status error = redisErrorStatus(reply.string);
                if (!retryable(error))
                    return Status(error.code(), QStringLiteral("queue %1: push script failed: %2 (%3 of %4 item(s) accepted)")
                                                    .arg(m_name, error.message()).arg(items.size() - left.size() + i - notYet.size())
                                                    .arg(items.size()));
                transient = error;
                notYet.push_back(left[i]);
            } else if (reply.integer == -1) {
                notYet.push_back(left[i]);
            }
        }
        if (notYet.size() != left.size()) {
            std::lock_guard lock(m_mutex);
            ++m_pushCount;
            m_pushed.notify_all();
        }
        left = std::move(notYet);
        if (left.empty())
            break;
        full = transient.isOk();
        auto fullStatus = [&] {
            const QString accepted = QStringLiteral(" (%1 of %2 item(s) accepted)").arg(items.size() - left.size()).arg(items.size());
            if (!transient.isOk())
                return Status::unavailable(QStringLiteral("queue %1: Redis kept answering \"%2\" for %3 ms")
                                               .arg(m_name, transient.message()).arg(m_timing.pushBlockTime.count())
                                           + accepted);
            return Status::deadlineExceeded(queueFullStatus(m_name, m_capacity, m_timing.pushBlockTime).message() + accepted);
        };
        const auto now = SteadyClock::now();
        if (now >= giveUpAt)
            return fullStatus();
        if (!cancel.sleepFor(std::min<SteadyClock::duration>(delay, giveUpAt - now)))
            return cancel.cause();
        if (SteadyClock::now() >= giveUpAt)
            return fullStatus();
        delay = std::min(delay * 2, m_timing.backoffUpper);
    }
    return Status::ok();
}

Result<std::vector<PoppedItem>> RedisQueue::popItems(const CancelToken &cancel, int max,
                                                     std::optional<SteadyClock::time_point> until, int /*atLeast*/)
{
    auto delay = m_timing.backoffBegin;
    while (true) {
        std::unique_lock popLock(m_popMutex); // not held while waiting for items
        quint64 pushesBefore = 0;
        bool reconcile = false;
        {
            std::lock_guard lock(m_mutex);
            if (m_closed)
                return queueClosedStatus(m_name);
            pushesBefore = m_pushCount;
            reconcile = m_reconcile;
        }
        if (reconcile) {
            if (Status reconciled = reconcileInFlight(cancel); !reconciled && !retryable(reconciled))
                return reconciled;
        }
        int attempts = 0;
        const Result<RedisValue> reply = withRetry(cancel, until, "pop", [&](RedisConnection &c) {
            if (attempts++ > 0) {
                std::lock_guard lock(m_mutex);
                m_reconcile = true; // the failed attempt may have moved items
            }
            return c.eval(cancel, popScript(), {m_keys.list, m_keys.set, inFlightKey()},
                          {QByteArray::number(std::max(1, max)), m_unique ? "1" : "0"});
        });
        if (!reply) {
            if (retryable(reply.status()) || reply.status().code() == Status::Code::Cancelled) {
                std::lock_guard lock(m_mutex);
                m_reconcile = true;
            }
            if (until && SteadyClock::now() >= *until && retryable(reply.status()))
                return std::vector<PoppedItem>();
            return reply.status();
        }
        if (!reply->elements.empty()) {
            std::vector<PoppedItem> popped;
            popped.reserve(reply->elements.size());
            {
                std::lock_guard lock(m_mutex);
                for (const RedisValue &value : reply->elements) {
                    popped.push_back(PoppedItem{value.string, 0});
                    ++m_held[value.string];
                }
                reconcile = m_reconcile;
            }
            if (reconcile)
                reconcileInFlight(cancel); // best effort now; retried on the next pop otherwise
            return popped;
        }
        // Empty: wait for a local push, or poll again after the backoff (pushes of other instances).
        popLock.unlock();
        std::unique_lock lock(m_mutex);
        auto wakeAt = SteadyClock::now() + delay;
        if (until && *until < wakeAt)
            wakeAt = *until;
        const bool pushed = cancel.waitUntil(m_pushed, lock, wakeAt, [&] { return m_closed || m_pushCount != pushesBefore; });
        if (m_closed)
            return queueClosedStatus(m_name);
        if (cancel.isCancelled())
            return cancel.cause();
        if (until && SteadyClock::now() >= *until && !pushed)
            return std::vector<PoppedItem>();
        delay = pushed ? m_timing.backoffBegin : std::min(delay * 2, m_timing.backoffUpper);
    }
}

Status RedisQueue::ack(const CancelToken &cancel, const std::vector<PoppedItem> &items)
{
    if (items.empty())
        return Status::ok();
    QList<QByteArray> args;
    args.reserve(qsizetype(items.size()));
    for (const PoppedItem &item : items)
        args.append(item.data);
    const Result<RedisValue> reply = withRetry(cancel, std::nullopt, "ack", [&](RedisConnection &c) {
        return c.eval(cancel, ackScript(), {inFlightKey()}, args);
    });
    std::lock_guard lock(m_mutex);
    if (!reply) {
        // Still held: a reconciliation must not mistake them for items of a lost pop. The next
        // pop retries the ack.
        m_unacked.append(args);
        m_reconcile = true;
        return reply.status();
    }
    forgetHeld(items); // only now: until the LREM landed they are in our in-flight list
    return Status::ok();
}

Status RedisQueue::release(const CancelToken &cancel, const std::vector<PoppedItem> &items)
{
    if (items.empty())
        return Status::ok();
    QList<QByteArray> args{m_unique ? "1" : "0"};
    for (const PoppedItem &item : items)
        args.append(item.data);
    const Result<RedisValue> reply = withRetry(cancel, std::nullopt, "release", [&](RedisConnection &c) {
        return c.eval(cancel, releaseScript(), {m_keys.list, m_keys.set, inFlightKey()}, args);
    });
    std::lock_guard lock(m_mutex);
    forgetHeld(items);
    if (!reply) {
        m_reconcile = true; // not held any more: the next pop puts them back from the in-flight list
        return reply.status();
    }
    ++m_pushCount;
    m_pushed.notify_all();
    return Status::ok();
}

Result<bool> RedisQueue::hasItem(const CancelToken &cancel, const QByteArray &data)
{
    if (!m_unique)
        return false;
    const Result<RedisValue> reply = withRetry(cancel, SteadyClock::now() + m_timing.pushBlockTime, "hasItem",
                                               [&](RedisConnection &c) { return c.command(cancel, {"SISMEMBER", m_keys.set, data}); });
    if (!reply)
        return reply.status();
    return reply->integer == 1;
}

Result<qint64> RedisQueue::len(const CancelToken &cancel)
{
    const Result<RedisValue> reply = withRetry(cancel, SteadyClock::now() + m_timing.pushBlockTime, "len",
                                               [&](RedisConnection &c) { return c.command(cancel, {"LLEN", m_keys.list}); });
    if (!reply)
        return reply.status();
    return reply->integer;
}

Result<std::vector<PeekedItem>> RedisQueue::peek(const CancelToken &cancel, qint64 offset, int limit)
{
    const qint64 first = std::max<qint64>(offset, 0);
    const Result<RedisValue> reply = withRetry(cancel, SteadyClock::now() + m_timing.pushBlockTime, "peek", [&](RedisConnection &c) {
        return c.command(cancel, {"LRANGE", m_keys.list, QByteArray::number(first), QByteArray::number(first + std::max(limit, 1) - 1)});
    });
    if (!reply)
        return reply.status();
    std::vector<PeekedItem> items;
    for (const RedisValue &element : reply->elements)
        items.push_back(PeekedItem{first + qint64(items.size()), element.string, QDateTime()});
    return items;
}

Result<std::vector<InFlightItem>> RedisQueue::heldElsewhere(const CancelToken &cancel, int limit)
{
    const SteadyClock::time_point deadline = SteadyClock::now() + m_timing.pushBlockTime;
    const Result<RedisValue> members = withRetry(cancel, deadline, "in-flight", [&](RedisConnection &c) {
        return c.command(cancel, {"SMEMBERS", m_keys.instances});
    });
    if (!members)
        return members.status();
    std::vector<InFlightItem> items;
    for (const RedisValue &member : members->elements) {
        const QString holder = QString::fromUtf8(member.string);
        if (holder == m_instanceId || qint64(items.size()) >= limit)
            continue;
        const Result<RedisValue> held = withRetry(cancel, deadline, "in-flight", [&](RedisConnection &c) {
            return c.command(cancel, {"LRANGE", m_keys.inFlightPrefix + member.string, "0", QByteArray::number(limit - qint64(items.size()) - 1)});
        });
        if (!held)
            return held.status();
        for (const RedisValue &element : held->elements)
            items.push_back(InFlightItem{element.string, QDateTime(), QString(), holder});
    }
    return items;
}

Result<qint64> RedisQueue::removeAll(const CancelToken &cancel)
{
    // The list before the set: a crash in between leaves duplicates possible, never losses.
    const Result<std::vector<RedisValue>> replies = withRetry(
        cancel, SteadyClock::now() + m_timing.pushBlockTime, "removeAll", [&](RedisConnection &c) {
            return c.pipeline(cancel, {{"LLEN", m_keys.list}, {"DEL", m_keys.list}, {"DEL", m_keys.set}});
        });
    if (!replies)
        return replies.status();
    return replies->front().integer;
}

Status RedisQueue::heartbeat(const CancelToken &cancel)
{
    const QByteArray id = m_instanceId.toUtf8();
    const Result<std::vector<RedisValue>> replies = withRetry(cancel, SteadyClock::now() + m_timing.pushBlockTime, "heartbeat",
                                                             [&](RedisConnection &c) {
        return c.pipeline(cancel, {{"SET", m_keys.heartbeatPrefix + id, "1", "PX", QByteArray::number(qint64(m_timing.heartbeatTtl.count()))},
                                   {"SADD", m_keys.instances, id}});
    });
    return replies.status();
}

Result<qint64> RedisQueue::reclaimDeadInstances(const CancelToken &cancel)
{
    const Result<RedisValue> reply = withRetry(cancel, SteadyClock::now() + m_timing.pushBlockTime, "reclaim", [&](RedisConnection &c) {
        return c.eval(cancel, reclaimScript(), {m_keys.list, m_keys.set, m_keys.instances},
                      {m_keys.inFlightPrefix, m_keys.heartbeatPrefix, m_unique ? "1" : "0", m_instanceId.toUtf8()});
    });
    if (!reply)
        return reply.status();
    if (reply->integer > 0) {
        qCInfo(lcQueue).noquote() << "queue" << m_name << ":" << reply->integer << "in-flight item(s) of dead instances put back";
        std::lock_guard lock(m_mutex);
        ++m_pushCount;
        m_pushed.notify_all();
    }
    return reply->integer;
}

void RedisQueue::heartbeatLoop()
{
    const CancelToken stop = m_stop.token();
    while (stop.sleepFor(m_timing.heartbeatInterval)) {
        if (Status beat = heartbeat(stop); !beat && !stop.isCancelled())
            qCWarning(lcQueue).noquote() << "queue" << m_name << ": heartbeat failed:" << beat.message();
        if (Result<qint64> reclaimed = reclaimDeadInstances(stop); !reclaimed && !stop.isCancelled())
            qCWarning(lcQueue).noquote() << "queue" << m_name << ": reclaim failed:" << reclaimed.status().message();
    }
}

void RedisQueue::close()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_closed)
            return;
        m_closed = true;
        m_pushed.notify_all();
    }
    m_stop.cancel(QStringLiteral("queue closed"));
    if (m_heartbeat.joinable())
        m_heartbeat.join();
    // Unregister when nothing is left in flight; otherwise the heartbeat expires and another
    // instance (or our next start) puts the items back.
    CancelSource shortly = CancelSource::withTimeout(CancelToken(), std::chrono::seconds(1));
    const QByteArray id = m_instanceId.toUtf8();
    m_pool.with([&](RedisConnection &c) {
        return c.eval(shortly.token(), leaveScript(), {inFlightKey(), m_keys.heartbeatPrefix + id, m_keys.instances}, {id});
    });
    m_pool.clear();
}

} // namespace Switchyard
