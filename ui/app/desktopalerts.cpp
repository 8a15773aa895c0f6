#include "desktopalerts.h"

namespace Switchyard::Console {

DesktopAlerts::DesktopAlerts(DesktopSink &sink, QObject *parent) : QObject(parent), m_sink(sink)
{
    for (int i = 0; i < kAlertKinds; ++i) {
        m_pending[std::size_t(i)] = std::make_unique<Pending>();
        QTimer &timer = m_pending[std::size_t(i)]->timer;
        timer.setSingleShot(true);
        timer.setInterval(m_window);
        connect(&timer, &QTimer::timeout, this, [this, i] { flush(AlertKind(i)); });
    }
}

void DesktopAlerts::setWindow(std::chrono::milliseconds window)
{
    m_window = window;
    for (auto &pending : m_pending)
        pending->timer.setInterval(window);
}

QString DesktopAlerts::kindKey(AlertKind kind)
{
    switch (kind) {
        case AlertKind::DeliveryFailed: return QStringLiteral("delivery_failed");
        case AlertKind::HookDisabled: return QStringLiteral("hook_disabled");
        case AlertKind::QueueBacklog: return QStringLiteral("queue_backlog");
        case AlertKind::CronFailed: return QStringLiteral("cron_failed");
        case AlertKind::InstanceUnreachable: return QStringLiteral("instance_unreachable");
    }
    return {};
}

QString DesktopAlerts::kindLabel(AlertKind kind)
{
    switch (kind) {
        case AlertKind::DeliveryFailed: return tr("A webhook delivery failed");
        case AlertKind::HookDisabled: return tr("A webhook was made inactive after repeated failures");
        case AlertKind::QueueBacklog: return tr("A queue backed up past the threshold");
        case AlertKind::CronFailed: return tr("A cron task failed");
        case AlertKind::InstanceUnreachable: return tr("An instance became unreachable");
    }
    return {};
}

void DesktopAlerts::watch(Admin::AdminBackend &backend, const QString &instance)
{
    connect(&backend, &Admin::AdminBackend::event, this, [this, instance](const Admin::AdminEvent &event) { onEvent(instance, event); });
    connect(&backend, &Admin::AdminBackend::stateChanged, this,
            [this, instance](Admin::AdminBackend::State state, const QString &message) { onState(instance, state, message); });
}

void DesktopAlerts::onEvent(const QString &instance, const Admin::AdminEvent &event)
{
    using Type = Admin::AdminEvent::Type;
    if (event.type == Type::HookTask && event.hookTask.status == QLatin1String("failed")) {
        const Admin::HookTaskRow &t = event.hookTask;
        raise({AlertKind::DeliveryFailed, tr("Webhook delivery failed"),
               tr("Hook %1: %2 delivery %3 failed").arg(t.hookId).arg(t.eventType, t.uuid.left(8)), instance,
               QStringLiteral("webhooks"), QString(), t.hookId},
              StatusColor::Error);
    } else if (event.type == Type::Notice && event.notice.type == QLatin1String("webhook")
               && event.notice.description.contains(QLatin1String("made inactive"))) {
        raise({AlertKind::HookDisabled, tr("Webhook made inactive"), event.notice.description.left(300), instance,
               QStringLiteral("notices"), QString()},
              StatusColor::Error);
    } else if (event.type == Type::CronStatus && event.cron.status == QLatin1String("error")) {
        raise({AlertKind::CronFailed, tr("Cron task failed"), tr("%1: %2").arg(event.cron.name, event.cron.message.left(200)), instance,
               QStringLiteral("cron"), QString(), event.cron.name},
              StatusColor::Error);
    } else if (event.type == Type::QueueStats) {
        for (const Admin::QueueRow &queue : event.queues) {
            const auto key = std::make_pair(instance, queue.qid);
            if (queue.length > m_backlog && m_backedUp.insert(key).second)
                raise({AlertKind::QueueBacklog, tr("Queue backing up"),
                       tr("%1 holds %2 items (threshold %3)").arg(queue.name).arg(queue.length).arg(m_backlog), instance,
                       QStringLiteral("queues"), QString(), queue.qid},
                      StatusColor::Warning);
            else if (queue.length >= 0 && queue.length <= m_backlog / 2)
                m_backedUp.erase(key); // drained: the next backlog is news again
        }
    }
}

void DesktopAlerts::onState(const QString &instance, Admin::AdminBackend::State state, const QString &message)
{
    using State = Admin::AdminBackend::State;
    if (state == State::Connected) {
        m_wasConnected[instance] = true;
        return;
    }
    // Connecting again after being connected is a lost connection; Failed is one too.
    const bool lost = (state == State::Connecting && m_wasConnected.value(instance)) || state == State::Failed;
    if (!lost)
        return;
    m_wasConnected[instance] = false;
    raise({AlertKind::InstanceUnreachable, tr("Instance unreachable"),
           message.isEmpty() ? tr("%1 cannot be reached").arg(instance) : tr("%1: %2").arg(instance, message.left(200)), instance,
           QStringLiteral("overview"), QString()},
          StatusColor::Error);
}

void DesktopAlerts::raise(DesktopNotice notice, StatusColor severity)
{
    if (severity == StatusColor::Error || (severity == StatusColor::Warning && m_status == StatusColor::Ok)) {
        if (m_status != severity) {
            m_status = severity;
            Q_EMIT statusChanged(m_status);
        }
    }
    if (!isEnabled(notice.kind))
        return;
    Pending &pending = *m_pending[std::size_t(notice.kind)];
    if (pending.timer.isActive()) {
        ++pending.held; // said at the window's end, with the others
        pending.latest = std::move(notice);
        return;
    }
    m_sink.show(notice);
    pending.held = 0;
    pending.timer.start();
}

void DesktopAlerts::flush(AlertKind kind)
{
    Pending &pending = *m_pending[std::size_t(kind)];
    if (pending.held == 0)
        return;
    DesktopNotice summary = pending.latest;
    summary.count = pending.held;
    if (pending.held > 1)
        summary.body = tr("%n more like this; the latest: %1", nullptr, pending.held - 1).arg(summary.body);
    pending.held = 0;
    m_sink.show(summary);
    pending.timer.start(); // the summary opens a window of its own
}

void DesktopAlerts::flushNow()
{
    for (int i = 0; i < kAlertKinds; ++i) {
        m_pending[std::size_t(i)]->timer.stop();
        flush(AlertKind(i));
        m_pending[std::size_t(i)]->timer.stop();
    }
}

void DesktopAlerts::acknowledge()
{
    if (m_status == StatusColor::Ok)
        return;
    m_status = StatusColor::Ok;
    Q_EMIT statusChanged(m_status);
}

} // namespace Switchyard::Console
