#pragma once

// Every admin operation, implemented once over the engine (SPEC §12): the console's local backend
// calls these on its worker threads, and the admin API's handlers will call the same functions.
// Calls are synchronous; the ones that may wait on the network or on workers take a cancellation
// token first. Thread-safe: any thread, concurrently, while the engine runs.

#include "admintypes.h"

#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <chrono>

namespace Switchyard {
class Engine;
}

namespace Switchyard::Admin {

class AdminOperations
{
public:
    explicit AdminOperations(Engine &engine); // Not owned; must outlive this object.

    // Instance
    InstanceInfo instance() const;
    // cache (Delete → Put → Get, slow above 30 ms), locks (the locker answers), queues (every
    // queue's backend answers, paused ones named) and disk (free space of the data directory).
    std::vector<SelfCheckItem> selfCheck(const CancelToken &cancel);
    std::vector<ProcessRow> processes() const;
    // NotFound for an unknown pid; Conflict when the process cannot be cancelled.
    Status cancelProcess(qint64 pid);
    std::vector<NoticeRow> notices() const; // newest first
    Status deleteNotice(qint64 id);

    // Queues
    std::vector<QueueRow> queues() const;
    Result<QueueRow> queue(qint64 qid) const;
    Result<QueueSettingsInfo> queueSettings(qint64 qid) const;
    // Drains the queue through its handler within `timeout` (DeadlineExceeded leaves what is left
    // queued); a negative timeout discards instead.
    Status flushQueue(const CancelToken &cancel, qint64 qid, std::chrono::milliseconds timeout);
    Status flushAll(const CancelToken &cancel, std::chrono::milliseconds timeout);
    // The dry run of removeAll: how many items wait now.
    Result<qint64> removeAllCount(qint64 qid) const;
    Result<qint64> removeAll(const CancelToken &cancel, qint64 qid);
    Status setMaxWorkers(qint64 qid, int maxWorkers); // InvalidArgument below 1 (names the field)
    Status pauseQueue(const CancelToken &cancel, qint64 qid);
    Status resumeQueue(qint64 qid);

    // Cron
    std::vector<CronRow> cronTasks() const;
    // Conflict ("already running") when a run is in progress; NotFound for an unknown task.
    Status runCron(const QString &name, const QString &doer);
    Status pauseCron(const QString &name);
    Status resumeCron(const QString &name);
    Result<std::vector<CronRun>> cronRuns(const QString &name) const; // newest first

    // Locks
    Result<std::vector<LockRow>> locks(const CancelToken &cancel) const;
    // NotFound ("… is not held; it was released meanwhile") when nobody holds the key.
    Status forceReleaseLock(const CancelToken &cancel, const QString &key, const QString &actor);

    // Cache and QoS
    CacheInfo cacheInfo() const;
    CacheStats cacheStats() const;
    CacheTest cacheTest();
    QosStats qos() const;

    Engine &engine() const { return m_engine; }

private:
    Engine &m_engine;
};

} // namespace Switchyard::Admin
