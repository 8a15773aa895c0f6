#pragma once

#include "cancellation.h"
#include "processregistry.h"

#include <QString>
#include <QStringList>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace Switchyard {

struct LifecycleOptions
{
    // Shutdown → hammer: how long hooks and components get to finish normally
    // ([server] GRACEFUL_HAMMER_TIME, Gitea's default 60 s).
    std::chrono::milliseconds hammerTimeout{std::chrono::seconds(60)};
    // Hammer → terminate: how long components get to finish fast once hammered.
    std::chrono::milliseconds terminateTimeout{std::chrono::seconds(10)};
};

// The outcome of a shutdown, for the owner's exit code.
struct ShutdownReport
{
    bool hammered = false;  // the hammer phase was reached (timeout or second signal)
    QStringList unfinished; // components still running at terminate; empty on a clean shutdown
    bool clean() const { return unfinished.isEmpty(); }
};

// The engine's graceful manager (Gitea modules/graceful): three phases, shutdown → hammer →
// terminate, each with a cancellation token that components watch.
//
// - shutdown: the shutdown token is cancelled, then runAtShutdown hooks run one after another in
//   LIFO order (producers are started after their consumers, so they stop first). A component
//   started with runWithCancel() has a hook that cancels it and waits for its thread to end.
// - hammer: when the shutdown phase outlives hammerTimeout, or hammer() is called (a second
//   signal), the hammer token is cancelled: finish fast.
// - terminate: when every component has finished, or terminateTimeout after the hammer, the
//   terminate token is cancelled and runAtTerminate hooks run (LIFO).
//
// Threads: the lifecycle owns one supervisor thread (during shutdown) and one thread per
// runWithCancel() component, and joins them all. Thread-safe. Destruction shuts down and waits for
// the terminate phase. A component that ignores even the terminate phase cannot be joined: its
// name is in ShutdownReport::unfinished and its thread is detached; it still touches the lifecycle
// when it ends, so destroying the lifecycle waits for it to end. An owner that cannot wait keeps
// the lifecycle allocated (abandon(); the Engine does) or ends the process (std::_Exit).
class Lifecycle
{
public:
    enum class Phase { Running, ShuttingDown, Hammer, Terminated };

    explicit Lifecycle(ProcessRegistry &processes, LifecycleOptions options = {});
    ~Lifecycle();

    Lifecycle(const Lifecycle &) = delete;
    Lifecycle &operator=(const Lifecycle &) = delete;

    Phase phase() const;
    static QString phaseName(Phase phase);

    CancelToken shutdownToken() const { return m_shutdown.token(); }
    CancelToken hammerToken() const { return m_hammer.token(); }
    CancelToken terminateToken() const { return m_terminate.token(); }

    // Hooks run on the supervisor thread, in LIFO order; exceptions are caught and logged. A hook
    // registered after shutdown began runs at once, on the caller's thread.
    void runAtShutdown(const QString &name, std::function<void()> hook);
    void runAtTerminate(const QString &name, std::function<void()> hook);

    // Starts `run` on a thread owned by the lifecycle, listed in the process registry as a system
    // process. Its token is cancelled by a shutdown hook registered now (so in LIFO order with the
    // other hooks), which then waits for the thread to end or for the hammer. Refused (Cancelled)
    // once shutdown has begun.
    Status runWithCancel(const QString &name, std::function<void(const CancelToken &)> run);

    // Begins the shutdown and returns at once. Idempotent.
    void shutdown(const QString &reason = QStringLiteral("shutdown requested"));
    // Begins the shutdown if needed and skips to the hammer phase at once (a second signal).
    void hammer(const QString &reason = QStringLiteral("hammer requested"));

    // Blocks until the terminate phase has completed.
    ShutdownReport waitForTerminated();
    // For an owner that keeps the lifecycle allocated after an unclean shutdown instead of
    // destroying it: waits for the terminate phase and joins the supervisor thread (unfinished
    // components are detached already).
    void abandon();
    // `fn` runs once, on the supervisor thread, after the terminate phase (at once if it already
    // happened). For a Qt owner: queue a call to QCoreApplication::quit().
    void onTerminated(std::function<void()> fn);

private:
    struct Hook
    {
        QString name;
        std::function<void()> fn;
    };
    struct Component
    {
        QString name;
        std::thread thread;
        bool finished = false;
    };

    void superviseShutdown(QString reason);
    void runHooks(std::vector<Hook> hooks, const char *phase);
    bool allComponentsFinished() const; // requires m_mutex

    ProcessRegistry &m_processes;
    const LifecycleOptions m_options;

    CancelSource m_shutdown;
    CancelSource m_hammer;
    CancelSource m_terminate;
    CancelSource m_components; // parent of every component's token; cancelled at terminate

    mutable std::mutex m_mutex;
    std::condition_variable_any m_changed;
    Phase m_phase = Phase::Running;              // guarded by m_mutex
    std::vector<Hook> m_shutdownHooks;           // guarded by m_mutex
    std::vector<Hook> m_terminateHooks;          // guarded by m_mutex
    std::list<Component> m_componentThreads;     // guarded by m_mutex
    std::vector<std::function<void()>> m_terminatedCallbacks; // guarded by m_mutex
    ShutdownReport m_report;                     // guarded by m_mutex
    std::thread m_supervisor;                    // started under m_mutex by shutdown()
};

} // namespace Switchyard
