#include "engine.h"

#include "engine/core/secretbox.h"

#include "engine/builtintasks.h"
#include "engine/core/instanceid.h"
#include "engine/core/logging.h"
#include "engine/core/version.h"
#include "engine/forge/forgedata.h"
#include "engine/store/journals.h"

#include <QDir>

namespace Switchyard {

Engine::Engine(EngineConfig config) : m_parts(std::make_unique<Parts>())
{
    m_parts->config = std::make_unique<const EngineConfig>(std::move(config));
    m_parts->processes = std::make_unique<ProcessRegistry>();
    m_parts->notices = std::make_unique<NoticeBoard>();
}

Engine::Parts::~Parts()
{
    // Every component thread has finished: joining them is immediate. Then the subsystems go in
    // reverse start-up order.
    lifecycle.reset();
    cron.reset();
    cronRuns.reset();
    cronCoordinator.reset();
    events.reset();
    streamNotifier.reset();
    uiNotifier.reset();
    notifications.reset();
    bus.reset();
    notifyLoader.reset();
    broker.reset();
    qos.reset();
    queues.reset();
    locker.reset();
    cache.reset();
    if (notices)
        notices->attach(nullptr); // memory only from here
    noticeJournal.reset();
    instances.reset();
    store.reset();
}

ShutdownReport Engine::shutdown(const QString &reason)
{
    std::lock_guard lock(m_shutdownMutex);
    if (m_report)
        return *m_report;
    ShutdownReport report;
    if (m_parts->lifecycle) {
        // Producers stop before consumers (LIFO hooks); bounded by hammer + terminate time.
        m_parts->lifecycle->shutdown(reason);
        report = m_parts->lifecycle->waitForTerminated();
    }
    m_report = report;
    return report;
}

Engine::~Engine()
{
    const ShutdownReport report = shutdown(QStringLiteral("engine closing"));
    if (!report.clean()) {
        // Those threads cannot be joined and may still use the parts: leave them allocated.
        qCCritical(lcCore).noquote() << "engine" << m_instanceId << "left running:" << report.unfinished.join(QStringLiteral(", "))
                                     << "- its memory is not freed; end the process";
        m_parts->lifecycle->abandon();
        static std::mutex graveyardMutex;
        static auto *graveyard = new std::vector<std::unique_ptr<Parts>>(); // reachable: not a leak report
        std::lock_guard lock(graveyardMutex);
        graveyard->push_back(std::move(m_parts));
    }
}

Result<std::unique_ptr<Engine>> Engine::start(const CancelToken &cancel, EngineConfig config, EngineOptions options)
{
    std::unique_ptr<Engine> engine(new Engine(std::move(config)));
    engine->m_instanceId = options.instanceId.isEmpty() ? generateInstanceId() : options.instanceId;
    engine->m_startedAt = QDateTime::currentDateTimeUtc();
    Status started = engine->startParts(cancel, std::move(options));
    if (started && cancel.isCancelled())
        started = cancel.cause();
    if (!started) {
        // Shut down what was started, naming why: the caller's cancel reason (a console window
        // closed during start-up, SIGTERM) or the part that failed, not the destructor's default.
        engine->shutdown(cancel.isCancelled() ? cancel.cause().message()
                                              : QStringLiteral("start-up failed: ") + started.message());
        return started;
    }
    Parts &p = *engine->m_parts;
    qCInfo(lcCore).noquote() << "engine" << engine->m_instanceId << "started: store" << p.store->backendName() << p.store->location()
                             << ", cache" << p.cache->adapter() << ", locks"
                             << p.locker->backend() << ", qos" << (p.qos ? "on" : "off") << ", pub/sub" << p.broker->type();
    return engine;
}

Status Engine::startParts(const CancelToken &cancel, EngineOptions options)
{
    Parts &p = *m_parts;
    const EngineConfig &cfg = *p.config;
    options.lifecycle.hammerTimeout = std::chrono::duration_cast<std::chrono::milliseconds>(cfg.server.gracefulHammerTime);
    p.lifecycle = std::make_unique<Lifecycle>(*p.processes, options.lifecycle);
    NoticeBoard *notices = p.notices.get();

    // The store first: everything after it may persist.
    DatabaseSettings database = cfg.database;
    if (database.type == QLatin1String("sqlite3") && database.path.isEmpty())
        database.path = QDir(cfg.dataPath()).filePath(QStringLiteral("data/switchyard.db"));
    Result<std::unique_ptr<Store>> store = Store::open(cancel, database, options.storeOptions);
    if (!store)
        return store.status();
    p.store = std::move(store).value();
    InstanceOptions instanceOptions;
    instanceOptions.heartbeat = cfg.database.instanceHeartbeat;
    instanceOptions.grace = cfg.database.instanceGrace;
    instanceOptions.version = QStringLiteral(SWITCHYARD_VERSION);
    Result<std::unique_ptr<InstanceRegistry>> instances = InstanceRegistry::start(*p.store, m_instanceId, cfg.dataPath(), instanceOptions);
    if (!instances)
        return instances.status();
    p.instances = std::move(instances).value();
    if (Status beating = p.instances->run(*p.lifecycle); !beating)
        return beating;
    p.noticeJournal = makeStoredNotices(*p.store);
    if (Status attached = notices->attach(p.noticeJournal.get()); !attached)
        return attached;

    Result<std::unique_ptr<StringCache>> cache = createCache(cancel, cfg, options.cacheOptions);
    if (!cache)
        return cache.status();
    p.cache = std::move(cache).value();

    options.lockerOptions.instanceId = m_instanceId;
    Result<std::unique_ptr<Locker>> locker = createLocker(cancel, cfg, options.lockerOptions);
    if (!locker)
        return locker.status();
    p.locker = std::move(locker).value();
    p.locker->setForceReleaseObserver([notices](const LockInfo &info, const QString &doer) {
        notices->add(QStringLiteral("lock"), QStringLiteral("Lock %1 (held by %2, fencing token %3) was force-released by %4")
                                                 .arg(info.key, info.owner).arg(info.fencingToken).arg(doer));
    });

    QueueManagerOptions queueOptions;
    queueOptions.timing = options.queueTiming;
    queueOptions.instanceId = m_instanceId;
    queueOptions.reportDamage = [notices](const QString &message) { notices->add(QStringLiteral("queue"), message); };
    p.queues = std::make_unique<QueueManager>(cfg, *p.lifecycle, queueOptions);
    // Before any queue exists: the recorder stops after them (LIFO) and writes their last counts.
    p.queueHistory = makeStoredQueueHistory(*p.store);
    QueueManager *queues = p.queues.get();
    p.queueHistoryRecorder = std::make_unique<QueueHistoryRecorder>(*p.queueHistory, [queues] { return queues->list(); });
    if (Status recording = p.queueHistoryRecorder->start(*p.lifecycle, options.queueHistoryInterval); !recording)
        return recording;

    if (cfg.qos.enabled) {
        QosOptions qos;
        qos.maxInflight = cfg.qos.maxInflight;
        qos.maxWaiting = cfg.qos.maxWaiting;
        qos.targetWaitTime = std::chrono::duration_cast<std::chrono::milliseconds>(cfg.qos.targetWaitTime);
        p.qos = std::make_unique<AdmissionController>(qos);
    }

    // The broker exists before anything publishes to it (seed 001 §12.2.2).
    Result<std::unique_ptr<Broker>> broker = createBroker(cancel, cfg, options.pubsubOptions);
    if (!broker)
        return broker.status();
    p.broker = std::move(broker).value();
    if (cancel.isCancelled())
        return cancel.cause();

    // Webhooks: the key that opens sealed headers, then the service and its webhook_sender queue
    // (before the bus, whose first notifier it will be).
    if (!cfg.security.secretKey.isEmpty()) {
        p.secrets = std::make_unique<SecretBox>(SecretBox::fromPassphrase(cfg.security.secretKey.toUtf8()));
    } else {
        QDir().mkpath(cfg.dataPath());
        Result<SecretBox> box = SecretBox::fromKeyFile(QDir(cfg.dataPath()).filePath(QStringLiteral("secret.key")));
        if (!box)
            return box.status();
        p.secrets = std::make_unique<SecretBox>(std::move(box).value());
    }
    Webhook::WebhookOptions webhookOptions = options.webhookOptions;
    if (!webhookOptions.notice) {
        NoticeBoard *board = p.notices.get();
        webhookOptions.notice = [board](const QString &message) { board->add(QStringLiteral("webhook"), message); };
    }
    if (!webhookOptions.changed) {
        // The admin topic hears which delivery changed; its listeners read the row.
        Broker *topics = p.broker.get();
        webhookOptions.changed = [topics](qint64 id) {
            if (topics->hasTopicSubscribers(adminTopic()))
                topics->publish(adminTopic(), "hook-task\n" + QByteArray::number(id));
        };
    }
    p.webhooks = std::make_unique<Webhook::WebhookService>(cfg, *p.store, *p.secrets, *p.instances, std::move(webhookOptions));
    if (Status started = p.webhooks->start(cancel, *p.queues, *p.lifecycle, *p.processes); !started)
        return started;

    // Mail: its queue (when the mailer is on) before the bus, whose notifier fills it.
    p.mail = std::make_unique<Mail::MailService>(cfg, std::move(options.mailOptions));
    if (Status started = p.mail->start(cancel, *p.queues, p.lifecycle->shutdownToken(), *p.store, *p.instances); !started)
        return started;

    // The notify bus, its notifiers in dispatch order, then the producer that feeds it.
    p.notifyLoader = std::make_unique<StoredNotifyLoader>(*p.store);
    p.bus = std::make_unique<NotifyBus>(p.notifyLoader.get());
    p.notifications = std::make_unique<NotificationService>(*p.store, *p.bus);
    p.auditNotifier = std::make_unique<AuditNotifier>(*p.store);
    p.feed = std::make_unique<FeedNotifier>(*p.store);
    p.uiNotifier = std::make_unique<UINotifier>(*p.notifications, *p.queues, p.lifecycle->shutdownToken());
    p.streamNotifier = std::make_unique<StreamNotifier>(*p.notifications, *p.broker);
    p.webhookNotifier = std::make_unique<Webhook::WebhookNotifier>(*p.webhooks, *p.store);
    if (Status registered = p.bus->registerNotifier(QStringLiteral("webhook"), *p.webhookNotifier); !registered)
        return registered;
    if (Status registered = p.bus->registerNotifier(QStringLiteral("audit"), *p.auditNotifier); !registered)
        return registered;
    if (p.mail->notifying()) {
        p.mailNotifier = std::make_unique<Mail::MailNotifier>(*p.mail, *p.store, cfg);
        if (Status registered = p.bus->registerNotifier(QStringLiteral("mail"), *p.mailNotifier); !registered)
            return registered;
    }
    if (Status registered = p.bus->registerNotifier(QStringLiteral("feed"), *p.feed); !registered)
        return registered;
    if (Status registered = p.bus->registerNotifier(QStringLiteral("uinotification"), *p.uiNotifier); !registered)
        return registered;
    if (Status registered = p.bus->registerNotifier(QStringLiteral("stream"), *p.streamNotifier); !registered)
        return registered;
    p.events = std::make_unique<EventService>(cfg, *p.store, *p.bus, *p.instances);
    // The admin topic hears which event changed; its listeners read the row (one encoding, theirs).
    Broker *topics = p.broker.get();
    p.events->setObserver([topics](const EventRecord &record) {
        if (topics->hasTopicSubscribers(adminTopic()))
            topics->publish(adminTopic(), "event\n" + QByteArray::number(record.id));
    });
    if (Status started = p.events->start(cancel, *p.queues, p.lifecycle->shutdownToken()); !started)
        return started;

    // Cron last: its tasks use everything above.
    if (cfg.globalLock.serviceType == QLatin1String("redis")) {
        const QString first = cfg.globalLock.serviceConnStr.section(QLatin1Char(','), 0, 0).trimmed();
        Result<std::unique_ptr<CronCoordinator>> coordinator =
            createRedisCronCoordinator(first.isEmpty() ? QStringLiteral("redis://127.0.0.1:6379/0") : first, cfg.globalLock.keyPrefix);
        if (!coordinator)
            return coordinator.status();
        p.cronCoordinator = std::move(coordinator).value();
    } else {
        Result<std::unique_ptr<CronCoordinator>> coordinator = makeStoredCronCoordinator(
            *p.store, m_instanceId, QDir(cfg.dataPath()).filePath(QStringLiteral("cron-state.json")),
            [notices](const QString &message) { notices->add(QStringLiteral("cron"), message); });
        if (!coordinator)
            return coordinator.status();
        p.cronCoordinator = std::move(coordinator).value();
    }
    options.cronOptions.instanceId = m_instanceId;
    p.cronRuns = makeStoredCronRuns(*p.store);
    options.cronOptions.journal = p.cronRuns.get();
    p.cron = std::make_unique<CronService>(cfg, *p.locker, *p.cronCoordinator, *notices, *p.processes, options.cronOptions);
    if (Status registered = registerBuiltInCronTasks(*p.cron, {p.cache.get(), p.queues.get(), notices, p.store.get(), p.events.get(), p.webhooks.get()}); !registered)
        return registered;
    if (Status registered = p.cron->registerUserTasks(); !registered)
        return registered;
    if (cancel.isCancelled())
        return cancel.cause();
    return p.cron->start(*p.lifecycle);
}

} // namespace Switchyard
