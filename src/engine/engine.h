#pragma once

// The engine: every subsystem wired together in start-up order, owned in one place. The daemon
// and the desktop console's embedded mode create one Engine each.

#include "engine/cache/cache.h"
#include "engine/core/lifecycle.h"
#include "engine/core/notices.h"
#include "engine/core/processregistry.h"
#include "engine/cron/cron.h"
#include "engine/events/events.h"
#include "engine/globallock/globallock.h"
#include "engine/notifications/auditnotifier.h"
#include "engine/notifications/feed.h"
#include "engine/notifications/notifications.h"
#include "engine/notify/notify.h"
#include "engine/pubsub/pubsub.h"
#include "engine/qos/qos.h"
#include "engine/queue/queue.h"
#include "engine/queue/queuehistory.h"
#include "engine/settings/config.h"
#include "engine/store/instances.h"
#include "engine/store/store.h"
#include "engine/mail/mail.h"
#include "engine/webhook/notifier.h"
#include "engine/webhook/webhook.h"

#include <QDateTime>

#include <memory>

namespace Switchyard {

struct EngineOptions
{
    LifecycleOptions lifecycle;   // hammer time is taken from [server] GRACEFUL_HAMMER_TIME
    QueueTiming queueTiming;
    LockerOptions lockerOptions;  // instance id, prefix and hold cap are filled in from the config
    CacheOptions cacheOptions;
    CronOptions cronOptions;      // instance id filled in
    StoreOptions storeOptions;
    PubSubOptions pubsubOptions;
    Webhook::WebhookOptions webhookOptions;
    Mail::MailOptions mailOptions;
    QString instanceId;           // generated when empty: host-pid-random
    // How often the queue history records the queues' processed/failed totals (queuehistory.h).
    std::chrono::milliseconds queueHistoryInterval{std::chrono::seconds(10)};
};

// Start-up order: the store (opened and migrated; system notices persist there from then on),
// this instance's registration and heartbeat (store/instances.h: started first, so it stops
// last, once nothing of this instance holds a claim any more), cache (PINGed; an unreachable adapter refuses start-up), global locker (Redis
// PINGed likewise), queue manager (and its history recorder), QoS, the pub/sub broker (Redis PINGed
// likewise), webhooks (the sealing key, the webhook_sender queue), mail (the mail queue, when
// [mailer] ENABLED), the notify bus with its notifiers in dispatch order (webhook, audit, mail
// when [service] ENABLE_NOTIFY_MAIL, feed, uinotification, stream), event ingestion (its queue,
// unfinished events queued again), and cron last (built-in and user-defined tasks registered, RUN_AT_START tasks
// started).
//
// Start-up is interruptible: every wait in it (Redis PINGs, LevelDB opens) watches `cancel`, so
// a cancelled start returns its cause within a few milliseconds and undoes what it started.
//
// Shutdown never hangs: shutdown() runs the lifecycle's phases (graceful, hammer after
// [server] GRACEFUL_HAMMER_TIME, terminate after LifecycleOptions::terminateTimeout) and returns
// the report. The destructor calls it when needed. A component that ignores even the terminate
// phase cannot be joined; the engine's parts are then deliberately left allocated (logged as
// critical) so that its thread never touches freed memory, and the destructor returns — the
// owner should end the process soon after.
// Thread-safety: the accessors may be used from any thread once start() returned, until
// shutdown() returns.
class Engine
{
public:
    static Result<std::unique_ptr<Engine>> start(const CancelToken &cancel, EngineConfig config, EngineOptions options = {});
    ~Engine();

    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    // Idempotent; later calls return the first report. Blocks for at most the hammer time plus
    // the terminate timeout.
    ShutdownReport shutdown(const QString &reason = QStringLiteral("engine closing"));

    const EngineConfig &config() const { return *m_parts->config; }
    const QString &instanceId() const { return m_instanceId; }
    QDateTime startedAt() const { return m_startedAt; }

    ProcessRegistry &processes() { return *m_parts->processes; }
    Store &store() { return *m_parts->store; }
    // This instance among those sharing the store: heartbeats, and who holds a claim.
    InstanceRegistry &instances() { return *m_parts->instances; }
    Lifecycle &lifecycle() { return *m_parts->lifecycle; }
    StringCache &cache() { return *m_parts->cache; }
    Locker &locker() { return *m_parts->locker; }
    QueueManager &queues() { return *m_parts->queues; }
    QueueHistoryJournal &queueHistory() { return *m_parts->queueHistory; }
    // Records the queues' totals now (tests; the recorder also runs every queueHistoryInterval).
    Status sampleQueueHistory() { return m_parts->queueHistoryRecorder->sample(); }
    // Null when [qos] ENABLED = false.
    AdmissionController *qos() { return m_parts->qos.get(); }
    NoticeBoard &notices() { return *m_parts->notices; }
    Broker &broker() { return *m_parts->broker; }
    NotifyBus &notifyBus() { return *m_parts->bus; }
    NotificationService &notifications() { return *m_parts->notifications; }
    FeedNotifier &feed() { return *m_parts->feed; }
    EventService &events() { return *m_parts->events; }
    Webhook::WebhookService &webhooks() { return *m_parts->webhooks; }
    Webhook::WebhookNotifier &webhookNotifier() { return *m_parts->webhookNotifier; }
    Mail::MailService &mail() { return *m_parts->mail; }
    // The bus's mail notifier; null when [service] ENABLE_NOTIFY_MAIL or [mailer] ENABLED is off.
    Mail::MailNotifier *mailNotifier() { return m_parts->mailNotifier.get(); }
    CronService &cron() { return *m_parts->cron; }

private:
    // Everything the engine's threads may touch, in start-up order; torn down in reverse once
    // every thread has been joined.
    struct Parts
    {
        ~Parts();
        std::unique_ptr<const EngineConfig> config;
        std::unique_ptr<ProcessRegistry> processes;
        std::unique_ptr<NoticeBoard> notices;
        std::unique_ptr<Lifecycle> lifecycle;
        std::unique_ptr<Store> store;
        std::unique_ptr<InstanceRegistry> instances;
        std::unique_ptr<NoticeJournal> noticeJournal;
        std::unique_ptr<StringCache> cache;
        std::unique_ptr<Locker> locker;
        std::unique_ptr<QueueManager> queues;
        std::unique_ptr<QueueHistoryJournal> queueHistory;
        std::unique_ptr<QueueHistoryRecorder> queueHistoryRecorder;
        std::unique_ptr<AdmissionController> qos;
        std::unique_ptr<Broker> broker;
        std::unique_ptr<SecretBox> secrets;
        std::unique_ptr<Webhook::WebhookService> webhooks;
        std::unique_ptr<Mail::MailService> mail;
        std::unique_ptr<Mail::MailNotifier> mailNotifier;
        std::unique_ptr<NotifyLoader> notifyLoader;
        std::unique_ptr<NotifyBus> bus;
        std::unique_ptr<Webhook::WebhookNotifier> webhookNotifier;
        std::unique_ptr<NotificationService> notifications;
        std::unique_ptr<AuditNotifier> auditNotifier;
        std::unique_ptr<FeedNotifier> feed;
        std::unique_ptr<UINotifier> uiNotifier;
        std::unique_ptr<StreamNotifier> streamNotifier;
        std::unique_ptr<EventService> events;
        std::unique_ptr<CronCoordinator> cronCoordinator;
        std::unique_ptr<CronRunJournal> cronRuns;
        std::unique_ptr<CronService> cron;
    };

    explicit Engine(EngineConfig config);
    Status startParts(const CancelToken &cancel, EngineOptions options);

    std::unique_ptr<Parts> m_parts;
    QString m_instanceId;
    QDateTime m_startedAt;
    std::mutex m_shutdownMutex;
    std::optional<ShutdownReport> m_report; // guarded by m_shutdownMutex
};

} // namespace Switchyard
