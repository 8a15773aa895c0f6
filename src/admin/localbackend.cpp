#include "localbackend.h"

#include "eventsource.h"
#include "tokens.h"

#include "engine/core/logging.h"

#include <QTimer>

namespace Switchyard::Admin {

LocalBackend::LocalBackend(EngineConfig config, LocalBackendOptions options, QObject *parent)
    : AdminBackend(parent), m_config(std::move(config)), m_options(std::move(options))
{
    m_pool.setMaxThreadCount(m_options.callThreads);
    m_progressInterval = m_options.progressInterval;
}

LocalBackend::LocalBackend(std::unique_ptr<Engine> engine, LocalBackendOptions options, QObject *parent)
    : AdminBackend(parent), m_config(engine->config()), m_options(std::move(options))
{
    m_pool.setMaxThreadCount(m_options.callThreads);
    m_progressInterval = m_options.progressInterval;
    connected(std::move(engine));
}

LocalBackend::~LocalBackend()
{
    m_startup.cancel(QStringLiteral("console closing"));
    if (m_closer.joinable())
        m_closer.join(); // it joins the starter itself
    if (m_starter.joinable())
        m_starter.join();
    if (!m_closeRequested) {
        m_closeRequested = true;
        stopCalls(QStringLiteral("console closing"));
        m_pool.waitForDone();
        if (m_engine)
            m_engine->shutdown(QStringLiteral("console closing"));
    }
    m_pool.waitForDone();
    // An engine started but never adopted is shut down by its destructor (m_startedEngine).
}

QString LocalBackend::displayName() const
{
    return tr("This computer (embedded engine)");
}

void LocalBackend::setEndpoint(const QUrl &apiUrl, const QString &problem)
{
    if (apiUrl == m_apiUrl && problem == m_endpointProblem)
        return;
    m_apiUrl = apiUrl;
    m_endpointProblem = problem;
    Q_EMIT endpointChanged();
}

QByteArray LocalBackend::eventSourceSecret(const QString &source) const
{
    const EventSourceSettings *settings = m_config.eventSource(source);
    return settings ? settings->secret.toUtf8() : QByteArray();
}

void LocalBackend::start()
{
    if (m_engine || m_starter.joinable() || m_closeRequested)
        return;
    setState(State::Connecting, tr("starting the embedded engine"));
    m_starter = std::thread([this, config = m_config, options = m_options.engine, token = m_startup.token()] {
        Result<std::unique_ptr<Engine>> started = Engine::start(token, config, options);
        // The audit log reads its whole file: here, not on the GUI thread.
        std::unique_ptr<AuditLog> audit = started ? openAudit(**started) : nullptr;
        {
            std::lock_guard lock(m_startMutex);
            m_startedAudit = std::move(audit);
            if (started)
                m_startedEngine = std::move(started).value();
            else
                m_startError = started.status();
        }
        QMetaObject::invokeMethod(this, &LocalBackend::adoptStarted, Qt::QueuedConnection);
    });
}

void LocalBackend::adoptStarted()
{
    if (m_closeRequested)
        return; // the closing thread shuts down an engine that was never adopted
    std::unique_ptr<Engine> engine;
    Status error;
    {
        std::lock_guard lock(m_startMutex);
        engine = std::move(m_startedEngine);
        error = m_startError;
        m_audit = std::move(m_startedAudit);
    }
    if (!engine) {
        setState(State::Failed, tr("the engine did not start: %1").arg(error.message()));
        return;
    }
    connected(std::move(engine));
}

// The console's own changes are audited like the API's, in the same table the daemon uses.
std::unique_ptr<AuditLog> LocalBackend::openAudit(Engine &engine)
{
    Result<std::unique_ptr<AuditLog>> audit = AuditLog::open(engine.store(), engine.config().dataPath());
    if (audit)
        return std::move(audit).value();
    qWarning("the console's actions are not audited: %s", qPrintable(audit.status().message()));
    return nullptr;
}

void LocalBackend::connected(std::unique_ptr<Engine> engine)
{
    m_engine = std::move(engine);
    if (!m_audit) // an adopted engine (tests, benchmarks); start() opened it on the start-up thread
        m_audit = openAudit(*m_engine);
    m_events = std::make_unique<AdminEventSource>(
        *m_engine, [this](AdminEvent event) { forward(std::move(event)); }, m_options.eventInterval);
    m_events->start();
    setState(State::Connected);
}

void LocalBackend::forward(AdminEvent event)
{
    // On the sampling thread (or a notice's adding thread): hand over to this object's thread.
    if (event.type == AdminEvent::Type::QueueStats) {
        std::lock_guard lock(m_pendingMutex);
        const bool posted = m_pendingQueueStats.has_value();
        m_pendingQueueStats = std::move(event);
        if (!posted)
            QMetaObject::invokeMethod(this, &LocalBackend::deliverQueueStats, Qt::QueuedConnection);
        return;
    }
    // The rest in order, handed over in batches: one posted call per batch, and a bounded backlog
    // (a burst of notices cannot queue a call each, nor grow without end).
    std::lock_guard lock(m_pendingMutex);
    const bool posted = !m_pendingEvents.empty() || m_eventsLost; // a deliverEvents() is on its way
    if (m_pendingEvents.size() >= kMaxPendingEvents) {
        m_pendingEvents.clear(); // the views re-read instead (resyncNeeded)
        m_eventsLost = true;
    }
    m_pendingEvents.push_back(std::move(event));
    if (!posted)
        QMetaObject::invokeMethod(this, &LocalBackend::deliverEvents, Qt::QueuedConnection);
}

void LocalBackend::deliverEvents()
{
    std::vector<AdminEvent> events;
    bool lost = false;
    {
        std::lock_guard lock(m_pendingMutex);
        events.swap(m_pendingEvents);
        lost = std::exchange(m_eventsLost, false);
    }
    // In order with the replies (handOver): a snapshot read before an event is applied before it.
    handOver([this, events = std::move(events), lost] {
        if (state() != State::Connected)
            return; // closing: nobody is to be told any more
        if (lost) {
            Q_EMIT resyncNeeded();
            return; // the views re-read; these events are older than what they will read
        }
        for (const AdminEvent &event : events)
            Q_EMIT this->event(event);
    });
}

void LocalBackend::deliverQueueStats()
{
    std::optional<AdminEvent> event;
    {
        std::lock_guard lock(m_pendingMutex);
        event.swap(m_pendingQueueStats);
    }
    if (!event)
        return;
    handOver([this, event = std::move(*event)] {
        if (state() == State::Connected)
            Q_EMIT this->event(event);
    });
}

void LocalBackend::stopCalls(const QString &reason)
{
    if (m_events)
        m_events->stop();
    m_calls.cancel(reason);
}

void LocalBackend::close(const QString &reason)
{
    if (m_closeRequested)
        return;
    m_closeRequested = true;
    m_startup.cancel(reason);
    setState(State::Closing, reason);
    stopCalls(reason);
    m_closer = std::thread([this, reason] {
        m_pool.waitForDone();
        // A start-up still under way was cancelled above; an engine it finished anyway is shut
        // down here, never on the GUI thread.
        if (m_starter.joinable())
            m_starter.join();
        std::unique_ptr<Engine> unadopted;
        {
            std::lock_guard lock(m_startMutex);
            unadopted = std::move(m_startedEngine);
        }
        bool clean = true;
        if (unadopted)
            clean = unadopted->shutdown(reason).clean();
        if (m_engine)
            clean = m_engine->shutdown(reason).clean() && clean;
        QMetaObject::invokeMethod(this, [this, clean] {
            setState(State::Closed);
            Q_EMIT closed(clean);
        }, Qt::QueuedConnection);
    });
}

QString LocalBackend::doer() const
{
    if (!m_options.doer.isEmpty())
        return m_options.doer;
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME"));
    return user.isEmpty() ? QStringLiteral("console") : QStringLiteral("console (%1)").arg(user);
}

Status LocalBackend::notRunning() const
{
    if (m_closeRequested)
        return Status::unavailable(tr("the embedded engine is shutting down"));
    if (state() == State::Failed)
        return Status::unavailable(stateMessage());
    return Status::unavailable(tr("the embedded engine is still starting"));
}

CallHandle LocalBackend::dispatch(Invocation invocation)
{
    if (!m_engine || m_closeRequested || state() != State::Connected) {
        invocation.fail(notRunning());
        return {};
    }
    auto source = std::make_shared<CancelSource>(m_calls.token());
    m_pool.start([this, invocation = std::move(invocation), source] {
        OpContext context{*m_engine};
        context.audit = m_audit.get();
        context.doer = doer();
        context.tokenName = context.doer;
        context.role = roleName(Role::Admin);
        context.remoteAddr = QStringLiteral("local");
        context.mayMutate = true;
        context.cancel = source->token();
        context.detach = [this](std::function<void(const CancelToken &)> work) {
            m_pool.start([work = std::move(work), token = m_calls.token()] { work(token); });
        };
        invocation.runLocal(context);
    });
    return CallHandle([source] { source->cancel(QStringLiteral("cancelled by the operator")); });
}

} // namespace Switchyard::Admin
