#pragma once

// Instances sharing one store, and whose claims are dead (docs/storage.md "Instances and claims").
//
// Every running engine has a row in `instance` and beats its heartbeat there. Work it claims in
// the store — an event being processed, a delivery on the wire — names it (claimed_by). A claim
// whose instance is not live is taken over by a live instance at once, instead of waiting for a
// lease to run out. An instance is not live when it stopped, when its heartbeat is older than the
// grace ([database] INSTANCE_GRACE), or when it was an earlier run of this data directory.
//
// "An earlier run of this data directory": the node id kept in <data>/node-id, which the engine
// holds with an exclusive lock (flock) for its whole life. The kernel drops the lock when the
// process ends, kill -9 included, so an engine that takes it knows that every earlier instance of
// its node has ended, and releases their claims at once at start. An engine that cannot take it
// (another engine runs on the same data directory, in this process or another) gets a node of its
// own and says so in the log.
//
// One clock: heartbeats are written and their age is judged with the database's clock, so
// instances whose own clocks differ still agree on who is live.
//
// Judging others takes a trusted view: an instance judges others by their heartbeats only once
// it has itself been beating without a break for the grace (InstanceOptions::trustAfter). After
// an outage of the store every heartbeat is old; the first instance back must not declare the
// others dead while they are only reconnecting. Until then only stopped, lost or unknown
// instances are not live to it.
//
// Threads: start() on the caller's. run() adds two threads, components of the lifecycle
// registered before the services they recover, so they stop after them: the heartbeat thread
// beats every INSTANCE_HEARTBEAT and declares instances whose heartbeat is older than the grace
// lost (and marks this instance stopped at its end); the recovery thread runs the recoverers
// after each beat — on its own thread, so a slow round (a queue that is full) never delays a
// heartbeat — until the shutdown begins (the services' queues stop then). Everything else is
// thread-safe.

#include "engine/core/status.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace Switchyard {

class CancelToken;
class Lifecycle;
class Store;
class SqlTransaction;

struct InstanceOptions
{
    std::chrono::milliseconds heartbeat{5000};  // [database] INSTANCE_HEARTBEAT
    std::chrono::milliseconds grace{15000};     // [database] INSTANCE_GRACE
    // How long this instance must have beaten without a break before it judges others by their
    // heartbeats; negative: the grace.
    std::chrono::milliseconds trustAfter{-1};
    QString version;                            // shown in the list
};

// One instance as the store sees it.
struct InstanceRecord
{
    QString id;
    QString node;
    QString host;
    qint64 pid = 0;
    QString version;
    QDateTime startedAt;
    QDateTime heartbeatAt;
    QDateTime stoppedAt;  // invalid while it runs
    // "" while it runs; "stopped" (it stopped itself), "lost" (declared dead: its heartbeat stopped,
    // or its node started again)
    QString ended;
    QString endedBy;  // the instance that declared it lost
    bool live = false;
};

class InstanceRegistry
{
public:
    // Registers `instanceId`, takes (or makes) the node id of `dataPath`, and marks every earlier
    // instance of the node lost. Rows of instances that ended more than a week ago are removed.
    static Result<std::unique_ptr<InstanceRegistry>> start(Store &store, const QString &instanceId,
                                                           const QString &dataPath, InstanceOptions options = {});
    ~InstanceRegistry();  // lets the node lock go

    InstanceRegistry(const InstanceRegistry &) = delete;
    InstanceRegistry &operator=(const InstanceRegistry &) = delete;

    const QString &instanceId() const { return m_instanceId; }
    const QString &node() const { return m_node; }
    const InstanceOptions &options() const { return m_options; }
    // The earlier instances of this node that this start found not stopped (they died).
    const QStringList &lostAtStart() const { return m_lostAtStart; }

    // SQL for the statements of this store: true when the instance named by `column` is not live
    // (stopped, silent for longer than the grace, or empty: a claim made before instances were
    // recorded). Never true for this instance itself, whatever its heartbeat says: its own claims
    // are judged by what it holds in memory.
    QString notLive(const QString &column) const;
    // The database's clock in milliseconds since the epoch, as an SQL expression.
    QString clockSql() const;

    // Run after each beat, in the order added: takes over the claims of instances that are not
    // live. `adopted` is true when an instance ended since the last round (declared lost, or
    // stopped): the recoverer then also queues again what waits in the store, since the ended
    // instance's queues (a LevelDB directory on its own disk) may hold it. Errors are logged.
    using Recoverer = std::function<Status(const CancelToken &cancel, bool adopted)>;
    void addRecoverer(const QString &name, Recoverer recoverer);

    // Starts the heartbeat and recovery threads (see above).
    Status run(Lifecycle &lifecycle);
    // One beat: the heartbeat, then (trusted) instances silent past the grace declared lost.
    // Whether an instance ended since the last beat; the heartbeat thread's loop, and tests.
    Result<bool> beat();
    // One round of the recoverers: the recovery thread's loop, and tests.
    Status recover(const CancelToken &cancel, bool adopted);
    // beat() then recover(): tests.
    Status beatAndRecover(const CancelToken &cancel);
    // Marks this instance stopped (its thread's end; idempotent).
    Status stop();

    // Every instance the store knows, newest start first.
    Result<std::vector<InstanceRecord>> list();

private:
    InstanceRegistry(Store &store, QString instanceId, InstanceOptions options);
    Status registerSelf(bool again);
    Result<QStringList> declareLost(SqlTransaction &tx, const QString &where, const QVariantList &values);
    // This instance has beaten without a break for InstanceOptions::trustAfter.
    bool trusted() const;
    std::chrono::milliseconds trustAfter() const;

    Store &m_store;
    const QString m_instanceId;
    const InstanceOptions m_options;
    QString m_node;
    int m_nodeLock = -1;  // the flock'd node-id file, -1 when this engine has a node of its own
    QStringList m_lostAtStart;
    std::mutex m_mutex;  // guards m_recoverers, m_stopped, m_rounds and m_adopted
    std::condition_variable_any m_beaten; // a beat asks the recovery thread for a round
    std::vector<std::pair<QString, Recoverer>> m_recoverers;
    bool m_stopped = false;
    int m_rounds = 0;       // rounds asked for and not yet run
    bool m_adopted = false; // an instance ended since the last round
    std::atomic<qint64> m_beatingSince{0}; // steady ns of the first beat since the last failure (0: failing)
    bool m_beatFailed = false;  // heartbeat thread only: log an outage once
    qint64 m_lastEndSeen = 0;   // heartbeat thread only: the latest stopped_ms of another instance seen
};

}  // namespace Switchyard
