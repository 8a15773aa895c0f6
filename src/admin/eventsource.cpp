#include "eventsource.h"


#include "admin/ops/webhookops.h"
#include "admin/streamevents.h"

#include "engine/engine.h"

#include "engine/webhook/webhook.h"

#include <QJsonObject>

#include <mutex>

namespace Switchyard::Admin {

// Shared with the notice listener, which may still be running when stop() has removed it.
struct AdminEventSource::SinkState
{
    std::mutex mutex;
    Sink sink; // guarded by mutex; empty once stopped

    void emit(AdminEvent event)
    {
        std::lock_guard lock(mutex);
        if (sink)
            sink(std::move(event));
    }
};

AdminEventSource::AdminEventSource(Engine &engine, Sink sink, std::chrono::milliseconds interval)
    : m_engine(engine), m_sink(std::make_shared<SinkState>()), m_interval(interval)
{
    m_sink->sink = std::move(sink);
}

AdminEventSource::~AdminEventSource()
{
    stop();
}

void AdminEventSource::start()
{
    if (m_thread.joinable())
        return;
    std::weak_ptr<SinkState> weak = m_sink;
    m_noticeListener = m_engine.notices().listen([weak](const NoticeChange &change) {
        if (const std::shared_ptr<SinkState> state = weak.lock()) {
            AdminEvent event;
            event.type = change.kind == NoticeChange::Kind::Added ? AdminEvent::Type::Notice : AdminEvent::Type::NoticeRemoved;
            event.notice = change.notice;
            state->emit(std::move(event));
        }
    });
    m_thread = std::thread([this, token = m_stop.token()] { run(token); });
    m_topicThread = std::thread([this, token = m_stop.token()] { listen(token); });
}

void AdminEventSource::stop()
{
    if (m_noticeListener) {
        m_engine.notices().removeListener(m_noticeListener);
        m_noticeListener = 0;
    }
    m_stop.cancel(QStringLiteral("event source stopping"));
    if (m_thread.joinable())
        m_thread.join();
    if (m_topicThread.joinable())
        m_topicThread.join();
    std::lock_guard lock(m_sink->mutex);
    m_sink->sink = nullptr;
}

void AdminEventSource::run(const CancelToken &cancel)
{
    while (!cancel.isCancelled()) {
        sample(cancel);
        cancel.sleepFor(m_interval);
    }
}

void AdminEventSource::listen(const CancelToken &cancel)
{
    while (!cancel.isCancelled()) {
        const std::unique_ptr<Subscription> subscription = m_engine.broker().subscribe(adminTopic());
        while (std::optional<QByteArray> message = subscription->next(cancel)) {
            const qsizetype newline = message->indexOf('\n');
            const QByteArray kind = message->left(newline);
            const QByteArray body = message->mid(newline + 1);
            if (kind == "event") {
                Result<EventRow> row = m_engine.events().get(body.toLongLong());
                if (!row)
                    continue; // gone, or the store is busy: the next change tells again
                AdminEvent event;
                event.type = AdminEvent::Type::Event;
                event.event = std::move(row).value();
                event.event.payload.clear();
                m_sink->emit(std::move(event));
            } else if (kind == "hook-task") {
                Result<Webhook::HookTask> task = m_engine.webhooks().task(body.toLongLong());
                if (!task)
                    continue; // gone (cleanup, a deleted hook): nothing to show
                AdminEvent event;
                event.type = AdminEvent::Type::HookTask;
                event.hookTask = hookTaskRow(*task);
                // Frames stay small: the request and response without their bodies.
                for (QJsonValue *side : {&event.hookTask.request, &event.hookTask.response}) {
                    if (!side->isObject())
                        continue;
                    QJsonObject o = side->toObject();
                    o.remove(QStringLiteral("body"));
                    *side = o;
                }
                m_sink->emit(std::move(event));
            } else if (kind == "notification-count") {
                Result<AdminEvent> event = Stream::eventFromFrame(*message);
                if (event)
                    m_sink->emit(std::move(event).value());
            }
        }
        // Closed by the broker (Redis lost its connection): subscribe again, once a second.
        if (!cancel.isCancelled())
            cancel.sleepFor(std::chrono::seconds(1));
    }
}

void AdminEventSource::sample(const CancelToken &cancel)
{
    {
        AdminEvent event;
        event.type = AdminEvent::Type::QueueStats;
        event.queues = m_engine.queues().list();
        m_sink->emit(std::move(event));
    }

    for (CronRow &row : m_engine.cron().list()) {
        auto [it, inserted] = m_cron.try_emplace(row.name, row);
        if (!inserted && it->second == row)
            continue;
        it->second = row;
        AdminEvent event;
        event.type = AdminEvent::Type::CronStatus;
        event.cron = std::move(row);
        m_sink->emit(std::move(event));
    }

    Result<std::vector<LockRow>> locks = m_engine.locker().list(cancel);
    if (!locks)
        return; // the locker is unreachable: no event rather than a false "released"
    std::map<QString, LockRow> now;
    for (LockRow &row : *locks)
        now.emplace(row.key, std::move(row));
    const auto emitLock = [this](const QString &key, const QString &action, const LockRow &row) {
        AdminEvent event;
        event.type = AdminEvent::Type::Lock;
        event.lock = {key, action};
        event.lockRow = row;
        m_sink->emit(std::move(event));
    };
    for (const auto &[key, row] : now) {
        const auto before = m_locks.find(key);
        if (before == m_locks.end() || before->second.tokenPrefix != row.tokenPrefix
            || before->second.fencingToken != row.fencingToken) {
            if (m_locksRead)
                emitLock(key, QStringLiteral("acquired"), row);
        } else if (before->second.extensions != row.extensions) {
            emitLock(key, QStringLiteral("extended"), row);
        }
    }
    for (const auto &[key, row] : m_locks) {
        if (now.count(key))
            continue;
        // A lease that had less than one interval left ran out; otherwise its holder let go.
        const bool expired = row.ttlMs >= 0 && row.ttlMs <= m_interval.count();
        emitLock(key, expired ? QStringLiteral("expired") : QStringLiteral("released"), row);
    }
    m_locks = std::move(now);
    m_locksRead = true;
}

} // namespace Switchyard::Admin
