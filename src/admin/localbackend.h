#pragma once

// AdminBackend over the engine in this process ("This computer (embedded engine)"). Starts the
// engine without blocking its thread, runs every catalogue call on its own small thread pool
// (audited like the API's, as "console (<user>)" from "local"), and forwards the
// AdminEventSource's stream as the event() signal.

#include "adminbackend.h"

#include "engine/core/cancellation.h"
#include "engine/core/lifecycle.h"
#include "engine/engine.h"

#include <QThreadPool>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace Switchyard::Admin {

class AdminEventSource;

struct LocalBackendOptions
{
    EngineOptions engine;
    std::chrono::milliseconds eventInterval{1000};   // queue-stats, cron-status, lock sampling
    std::chrono::milliseconds progressInterval{200}; // how often a flush job reads the queue length
    QString doer;                                    // who runs, force-releases, is audited: "console (<user>)" when empty
    int callThreads = 4;                             // operations running at once
};

// Thread-safety: a QObject of the thread that created it (the GUI thread); all calls from there.
// Threads: the engine's start-up thread, the call pool and the shutdown thread are owned and joined
// by close() / the destructor. The engine is owned.
class LocalBackend final : public AdminBackend
{
    Q_OBJECT
public:
    // Starts `config`'s engine on start().
    explicit LocalBackend(EngineConfig config, LocalBackendOptions options = {}, QObject *parent = nullptr);
    // Adopts an engine that already runs (tests, benchmarks): Connected at once.
    explicit LocalBackend(std::unique_ptr<Engine> engine, LocalBackendOptions options = {}, QObject *parent = nullptr);
    // Closes synchronously when close() was not called (blocks for the engine's shutdown).
    ~LocalBackend() override;

    // Connecting → Connected, or Failed with the start-up error. Returns at once.
    void start();
    // Stops the stream, cancels running calls and jobs (a flush in progress stops), then shuts the
    // engine down gracefully on a thread of its own; closed() follows. Idempotent.
    void close(const QString &reason) override;
    // The engine, once Connected; for tests and benchmarks that seed data, never for pages.
    Engine *engine() const { return m_engine.get(); }

    QString displayName() const override;
    QUrl apiUrl() const override { return m_apiUrl; }
    QString endpointProblem() const override { return m_endpointProblem; }
    QByteArray eventSourceSecret(const QString &source) const override;
    // Set by whoever serves the admin API over this engine (the console's EmbeddedServer).
    void setEndpoint(const QUrl &apiUrl, const QString &problem);
    // The settings the engine was started with, and the data directory's audit log once
    // Connected (null before, or when it could not be opened): for the embedded API server.
    const EngineConfig &config() const { return m_config; }
    AuditLog *audit() const { return m_audit.get(); }

protected:
    // On the call pool, with a token cancelled by close() or the handle; fails at once
    // (Unavailable) when the engine does not run.
    CallHandle dispatch(Invocation invocation) override;

private:
    void connected(std::unique_ptr<Engine> engine);
    static std::unique_ptr<AuditLog> openAudit(Engine &engine);
    void adoptStarted(); // on this object's thread, when the start-up thread is done
    void forward(AdminEvent event);
    void deliverQueueStats();
    void deliverEvents();
    QString doer() const;
    Status notRunning() const;
    void stopCalls(const QString &reason);

    EngineConfig m_config;
    LocalBackendOptions m_options;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<AdminEventSource> m_events;
    std::unique_ptr<AuditLog> m_audit; // the data directory's audit log; null when it cannot be opened
    CancelSource m_startup;
    CancelSource m_calls;
    QThreadPool m_pool;
    std::thread m_starter; // joined by the closing thread, else by the destructor
    std::thread m_closer;
    std::mutex m_startMutex;
    std::unique_ptr<Engine> m_startedEngine; // guarded by m_startMutex; the start-up thread's result
    std::unique_ptr<AuditLog> m_startedAudit; // guarded by m_startMutex
    Status m_startError;                     // guarded by m_startMutex
    bool m_closeRequested = false;
    QUrl m_apiUrl;             // GUI thread only, like the other members without a mutex
    QString m_endpointProblem; // GUI thread only

    // queue-stats frames are coalesced: a newer one replaces one the GUI has not taken yet. Other
    // events wait in order, at most kMaxPendingEvents; past that they are dropped for a resync.
    static constexpr std::size_t kMaxPendingEvents = 10000;
    std::mutex m_pendingMutex;
    std::optional<AdminEvent> m_pendingQueueStats; // guarded by m_pendingMutex
    std::vector<AdminEvent> m_pendingEvents;       // guarded by m_pendingMutex
    bool m_eventsLost = false;                     // guarded by m_pendingMutex
};

} // namespace Switchyard::Admin
