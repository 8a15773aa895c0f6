#pragma once

// The live stream's producer (GET /stream, the console's live updates): samples the engine on a
// thread it owns and turns what changed into AdminEvents — queue-stats every interval, a
// cron-status for each task row that changed, lock acquired/extended/released/expired from the
// difference between two lists, and notice / notice-removed the moment the engine's notice board
// changes (whoever changed it: an operator, the API, the age limit). A second thread listens to
// the broker's admin topic: notification-count as published, and an `event` row for each
// ingested event that changed (read from the store, so it is encoded in one place).

#include "admintypes.h"

#include "engine/core/cancellation.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <thread>

namespace Switchyard {
class Engine;
}

namespace Switchyard::Admin {

// Thread-safety: start() and stop() from the owner's thread. The sink runs on the sampling thread
// (and, for notices, on the thread that added the notice); it must be quick and thread-safe.
// Owns two threads (sampling, admin topic), joined by stop() or the destructor.
class AdminEventSource
{
public:
    using Sink = std::function<void(AdminEvent)>;

    AdminEventSource(Engine &engine, Sink sink, std::chrono::milliseconds interval); // engine: Not owned.
    ~AdminEventSource();

    void start(); // once
    // Stops sampling and unsubscribes from notices; once it returns the sink is not called again.
    void stop();

private:
    struct SinkState;
    void run(const CancelToken &cancel);
    void sample(const CancelToken &cancel);
    void listen(const CancelToken &cancel); // the admin topic's thread

    Engine &m_engine;
    const std::shared_ptr<SinkState> m_sink;
    const std::chrono::milliseconds m_interval;
    CancelSource m_stop;
    std::thread m_thread;
    std::thread m_topicThread;
    qint64 m_noticeListener = 0;

    // The sampling thread's own state: what the previous sample saw.
    std::map<QString, CronRow> m_cron;
    std::map<QString, LockRow> m_locks;
    bool m_locksRead = false;
};

} // namespace Switchyard::Admin
