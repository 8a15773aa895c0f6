#include "lifecycle.h"

#include "logging.h"
#include "threadname.h"

#include <algorithm>
#include <exception>
#include <optional>

namespace Switchyard {

namespace {

QString describeException(std::exception_ptr error)
{
    try {
        std::rethrow_exception(error);
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    } catch (...) {
        return QStringLiteral("unknown exception");
    }
}

template<typename Fn>
void runGuarded(const QString &what, Fn &&fn)
{
    try {
        fn();
    } catch (...) {
        qCCritical(lcCore).noquote() << what << "threw:" << describeException(std::current_exception());
    }
}

} // namespace

Lifecycle::Lifecycle(ProcessRegistry &processes, LifecycleOptions options)
    : m_processes(processes), m_options(options)
{
}

Lifecycle::~Lifecycle()
{
    shutdown(QStringLiteral("lifecycle destroyed"));
    waitForTerminated();
    {
        // A component that ignored every phase was detached; it touches this object until it
        // sets `finished`. Destroying the lifecycle waits for that (the documented contract: an
        // owner that cannot wait keeps the lifecycle allocated, see abandon()).
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return allComponentsFinished(); });
    }
    std::thread supervisor;
    std::list<Component> components;
    {
        std::lock_guard lock(m_mutex);
        supervisor = std::move(m_supervisor);
        components = std::move(m_componentThreads);
    }
    if (supervisor.joinable())
        supervisor.join();
    for (Component &component : components) {
        if (component.thread.joinable())
            component.thread.join();
    }
}

Lifecycle::Phase Lifecycle::phase() const
{
    std::lock_guard lock(m_mutex);
    return m_phase;
}

QString Lifecycle::phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Running: return QStringLiteral("running");
    case Phase::ShuttingDown: return QStringLiteral("shutting down");
    case Phase::Hammer: return QStringLiteral("hammer");
    case Phase::Terminated: return QStringLiteral("terminated");
    }
    return QString();
}

void Lifecycle::runAtShutdown(const QString &name, std::function<void()> hook)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_phase == Phase::Running) {
            m_shutdownHooks.push_back({name, std::move(hook)});
            return;
        }
    }
    runGuarded(QStringLiteral("shutdown hook \"%1\"").arg(name), hook);
}

void Lifecycle::runAtTerminate(const QString &name, std::function<void()> hook)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_phase != Phase::Terminated) {
            m_terminateHooks.push_back({name, std::move(hook)});
            return;
        }
    }
    runGuarded(QStringLiteral("terminate hook \"%1\"").arg(name), hook);
}

Status Lifecycle::runWithCancel(const QString &name, std::function<void(const CancelToken &)> run)
{
    std::lock_guard lock(m_mutex);
    if (m_phase != Phase::Running)
        return Status::cancelled(QStringLiteral("cannot start %1: the engine is %2")
                                     .arg(name, phaseName(m_phase)));

    // The shutdown hook cancels `source`; an administrator cancels the registry's child of it.
    auto source = std::make_shared<CancelSource>(m_components.token());
    auto process = std::make_shared<ProcessRegistry::Handle>(
        m_processes.addCancellable(source->token(), ProcessType::System, name));
    m_componentThreads.push_back(Component{name, {}, false});
    Component *component = &m_componentThreads.back(); // std::list: stable address

    m_shutdownHooks.push_back({QStringLiteral("stop ") + name, [this, source, component] {
        source->cancel(Status::cancelled(QStringLiteral("shutdown")));
        std::unique_lock waitLock(m_mutex);
        m_hammer.token().wait(m_changed, waitLock, [component] { return component->finished; });
    }});

    // The thread cannot observe `finished` before this function releases m_mutex.
    component->thread = std::thread([this, name, source, process, component, run = std::move(run)] {
        nameThisThread(name);
        runGuarded(QStringLiteral("component \"%1\"").arg(name), [&] { run(process->token()); });
        process->reset();
        std::lock_guard doneLock(m_mutex);
        component->finished = true;
        m_changed.notify_all();
    });
    return Status::ok();
}

void Lifecycle::shutdown(const QString &reason)
{
    std::lock_guard lock(m_mutex);
    if (m_phase != Phase::Running)
        return;
    m_phase = Phase::ShuttingDown;
    m_supervisor = std::thread([this, reason] { superviseShutdown(reason); });
}

void Lifecycle::hammer(const QString &reason)
{
    shutdown(reason);
    {
        std::lock_guard lock(m_mutex);
        if (m_phase != Phase::ShuttingDown)
            return;
        m_phase = Phase::Hammer;
        m_report.hammered = true;
    }
    qCWarning(lcCore).noquote() << "hammer:" << reason;
    m_hammer.cancel(Status::cancelled(QStringLiteral("hammer: ") + reason));
}

bool Lifecycle::allComponentsFinished() const
{
    return std::all_of(m_componentThreads.begin(), m_componentThreads.end(),
                       [](const Component &c) { return c.finished; });
}

void Lifecycle::runHooks(std::vector<Hook> hooks, const char *phase)
{
    std::reverse(hooks.begin(), hooks.end()); // LIFO
    for (Hook &hook : hooks) {
        qCDebug(lcCore).noquote() << phase << "hook:" << hook.name;
        runGuarded(QStringLiteral("%1 hook \"%2\"").arg(QLatin1String(phase), hook.name), hook.fn);
    }
}

void Lifecycle::superviseShutdown(QString reason)
{
    qCInfo(lcCore).noquote() << "shutdown:" << reason;
    m_shutdown.cancel(Status::cancelled(QStringLiteral("shutdown: ") + reason));

    // Hammer when the shutdown phase takes too long. The callback runs on the deadline watcher's
    // thread; the registration is dropped before the timer source ("scope ended" is not a hammer).
    CancelSource hammerTimer(CancelToken(), SteadyClock::now() + m_options.hammerTimeout);
    std::optional<CancelCallback> hammerAlarm(hammerTimer.token().onCancel([this, token = hammerTimer.token()] {
        if (token.cause().code() == Status::Code::DeadlineExceeded)
            hammer(QStringLiteral("shutdown did not finish within %1 ms").arg(m_options.hammerTimeout.count()));
    }));

    std::vector<Hook> hooks;
    {
        std::lock_guard lock(m_mutex);
        hooks = std::move(m_shutdownHooks);
        m_shutdownHooks.clear();
    }
    runHooks(std::move(hooks), "shutdown");

    {
        std::unique_lock lock(m_mutex);
        if (!m_hammer.token().wait(m_changed, lock, [this] { return allComponentsFinished(); })) {
            lock.unlock();
            hammer(QStringLiteral("components still running"));
            CancelSource terminateTimer(CancelToken(), SteadyClock::now() + m_options.terminateTimeout);
            lock.lock();
            terminateTimer.token().wait(m_changed, lock, [this] { return allComponentsFinished(); });
        }
    }
    hammerAlarm.reset();

    m_terminate.cancel(Status::cancelled(QStringLiteral("terminate")));
    m_components.cancel(Status::cancelled(QStringLiteral("terminate")));

    std::vector<Hook> terminateHooks;
    {
        std::lock_guard lock(m_mutex);
        terminateHooks = std::move(m_terminateHooks);
        m_terminateHooks.clear();
    }
    runHooks(std::move(terminateHooks), "terminate");

    std::vector<std::function<void()>> callbacks;
    {
        std::lock_guard lock(m_mutex);
        for (Component &component : m_componentThreads) {
            if (component.finished && component.thread.joinable()) {
                component.thread.join(); // finished: returns at once
            } else if (!component.finished) {
                // It ignored every phase: it cannot be joined. Detached, it may end on its own
                // later — it then touches this lifecycle, which its owner must keep allocated
                // (the Engine does) or end the process.
                m_report.unfinished.append(component.name);
                component.thread.detach();
            }
        }
        m_phase = Phase::Terminated;
        callbacks = std::move(m_terminatedCallbacks);
        m_terminatedCallbacks.clear();
        m_changed.notify_all();
    }
    if (m_report.clean())
        qCInfo(lcCore) << "terminated cleanly";
    else
        qCCritical(lcCore).noquote() << "terminated with components still running:"
                                     << m_report.unfinished.join(QStringLiteral(", "));
    for (auto &callback : callbacks)
        runGuarded(QStringLiteral("terminated callback"), callback);
}

ShutdownReport Lifecycle::waitForTerminated()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_phase == Phase::Terminated; });
    return m_report;
}

void Lifecycle::abandon()
{
    waitForTerminated();
    std::thread supervisor;
    {
        std::lock_guard lock(m_mutex);
        supervisor = std::move(m_supervisor);
    }
    if (supervisor.joinable() && supervisor.get_id() != std::this_thread::get_id())
        supervisor.join(); // past the terminate phase: it returns at once
}

void Lifecycle::onTerminated(std::function<void()> fn)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_phase != Phase::Terminated) {
            m_terminatedCallbacks.push_back(std::move(fn));
            return;
        }
    }
    runGuarded(QStringLiteral("terminated callback"), fn);
}

} // namespace Switchyard
