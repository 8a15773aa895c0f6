#pragma once

// The webhook subsystem's inside: WebhookService::Impl and what its files share. Not for other
// subsystems (they use webhook.h).
//
// A task's way, and the thread that owns each step:
//   - any caller's thread (the admin API, cron, the notify bus): the public API writes hooks and
//     tasks in the store and pushes task ids on webhook_sender (hookstore.cpp, tasksearch.cpp);
//   - a worker of webhook_sender: deliver() reserves room in the delivery loop, claims its tasks
//     in the store, builds each request (egress.cpp, DNS included) and hands it to the loop; what
//     fails before the wire it records itself (deliveryloop.cpp);
//   - the delivery loop thread: owns the HttpClient and every Flight it was handed until the
//     flight ends, then gives it to the recorder (deliveryloop.cpp);
//   - the recorder thread: writes what ended and gives its room in the loop back (recorder.cpp);
//   - the retry timer thread: holds retries until they are due, then pushes them on the queue
//     (RetryTimer, recorder.cpp).
// start() (webhook.cpp) starts those threads in the order that lets the lifecycle stop them safely.
//
// The store, the queue, the secret box and the atomics are thread-safe. Everything else two
// threads share is behind one of three mutexes: Loop::mutex, Recorder::mutex, RetryTimer's.

#include "webhook.h"

#include "httpclient.h"

#include "engine/core/cancellation.h"
#include "engine/core/latency.h"
#include "engine/core/retry.h"
#include "engine/settings/config.h"

#include <QAbstractEventDispatcher>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSqlQuery>
#include <QString>
#include <QUrl>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcWebhook)

namespace Switchyard {
class Lifecycle;
class ProcessRegistry;
class SqlTransaction;
enum class StoreBackend;
template<typename T>
class WorkerPoolQueue;
}

namespace Switchyard::Webhook {

// The columns hookFrom() and taskFrom() read, in their order.
inline const QString kHookColumns = QStringLiteral(
    "id, repo_id, owner_id, is_system, url, name, http_method, content_type, secret, events, "
    "is_active, type, meta, last_status, header_authorization <> '', created_unix, updated_unix");
inline const QString kTaskColumns = QStringLiteral(
    "id, hook_id, uuid, payload, payload_version, event_type, is_delivered, delivered_ns, "
    "is_succeed, outcome, request, response, duration_ms, created_ms, redelivery_of, trace_id, "
    "attempt, deliver_after_ms, claimed_by, interrupted");

inline qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// A row of kHookColumns; Corruption when its stored events do not read.
Result<Hook> hookFrom(const QSqlQuery &q);
// A row of kTaskColumns.
HookTask taskFrom(const QSqlQuery &q);

// The `interrupted` column: the JSON array of a task's interruptions, and back.
QString interruptionsJson(const std::vector<Interruption> &interruptions);
std::vector<Interruption> interruptionsFrom(const QString &json);

// The WHERE clause of a search and its values (tasksearch.cpp).
struct TaskWhere
{
    QString sql;
    QVariantList values;
};
TaskWhere whereOf(const TaskFilter &filter, StoreBackend backend);

// At shutdown, how long a task given back or a result may still wait for an unavailable store
// (then it is left claimed: the next start takes it over).
constexpr std::chrono::seconds kStopPatience{2};

// Holds scheduled retries until they are due, then hands them to `due` (the queue). Runs on a
// thread its owner starts (run()) and stops by cancelling the token; schedule() from any thread.
class RetryTimer
{
public:
    void schedule(qint64 id, qint64 dueMs);
    void run(const CancelToken &cancel, const std::function<void(qint64)> &due);

private:
    std::mutex m_mutex;  // guards m_due and m_held
    std::condition_variable m_changed;
    std::multimap<qint64, qint64> m_due;  // due (ms since the epoch) → task id
    std::set<qint64> m_held;              // the ids in m_due
};

// One delivery: claimed and prepared by a worker, sent and read by the delivery loop. Owned by
// one thread at a time, moved from one to the next: the worker until handOff() (or until it
// records a failure before the wire), the loop until the exchange ends, then the recorder.
struct Flight
{
    HookTask task;
    Hook hook;
    HttpDestination destination;  // the vetted address (or the proxy)
    HttpExchange exchange;        // the request as sent, then its answer
    QElapsedTimer clock;          // from the send
    qint64 sentMs = 0;            // the send, on the wall clock (the hook's oldest one tells its pace)
    QDeadlineTimer due;           // the send + DELIVER_TIMEOUT
    QJsonObject request;
    QString error;  // set when it failed before or instead of an answer (by us: the answer's own is in exchange.error)
    bool ownerIsOrganization = false;  // read with the claim
    QString sealedAuthorization;       // read with the claim
    bool landed = false;               // its exchange finished (the loop records it)
    bool interrupted = false;          // cut by a stop: it may have arrived (recorded as an interruption)
    // The request of the current hop (the first, then each redirect's): what aim() connects.
    QUrl url;
    QByteArray method;
    QList<QPair<QByteArray, QByteArray>> headers; // Gitea's, Content-Type, Authorization; not Host
    QByteArray body;
    int redirects = 0;  // redirects followed (the requests sent, less one: at most kMaxRequests)
    int lookupId = -1;  // a redirect's host being resolved (QHostInfo), on the loop thread
};

// Go's http.Client, which Gitea delivers with, sends at most 10 requests for one delivery (its
// defaultCheckRedirect stops "after 10 redirects" when 10 requests went: 9 redirects followed).
constexpr int kMaxRequests = 10;

struct Written; // a delivery's row as record() writes it (recorder.cpp)

// A delivery's end, to be recorded (by the worker that claimed it, or by the recorder).
struct Ended
{
    Flight flight;
    TaskOutcome outcome = TaskOutcome::Failed;
    QJsonObject response;
};

struct WebhookService::Impl
{
    Impl(const EngineConfig &c, Store &s, const SecretBox &b, InstanceRegistry &i, WebhookOptions o)
        : config(c), store(s), secrets(b), instances(i), options(std::move(o))
    {}

    // ---- Shared by every thread: set at construction (the queue by start(), before any task
    // can be pushed), thread-safe or atomic after.
    const EngineConfig &config;
    Store &store;
    const SecretBox &secrets;
    InstanceRegistry &instances; // who holds a claim (store/instances.h)
    // The tasks this instance holds: claimed (or being claimed) by a worker, in the loop, or with
    // the recorder, until they ended or went back. A claim of this instance's that is not in here
    // was left by a write that failed for good, and is taken over (interruptOwnOrphans()).
    std::mutex handMutex; // guards inHand
    std::multiset<qint64> inHand;
    void hold(const std::vector<qint64> &ids);
    void letGo(const std::vector<qint64> &ids);
    // This instance's claims nobody here holds, interrupted (in `tx`): those to queue again.
    Result<std::vector<qint64>> interruptOwnOrphans(SqlTransaction &tx);
    WebhookOptions options;
    std::atomic<bool> resync{false}; // a stored task was not queued: the next recovery round requeues
    std::shared_ptr<WorkerPoolQueue<qint64>> queue;
    // DeliveryStats, by TaskOutcome (pending unused).
    std::array<std::atomic<qint64>, 5> outcomes{};
    std::atomic<qint64> durationUs{0};
    RecentLatency recentLatency;      // of the deliveries that were sent (succeeded or failed)
    std::atomic<qint64> inFlight{0};  // Loop::held, for stats() without the loop's mutex
    std::mutex jobsMutex;            // guards runningJobs
    std::set<qint64> runningJobs;    // the bulk jobs this instance runs now (bulkjobs.cpp)
    Lifecycle *lifecycle = nullptr;     // set by start(): runs bulk jobs
    ProcessRegistry *processes = nullptr; // set by start(): lists them
    RetryTimer retries;

    void announce(const std::vector<qint64> &ids) const
    {
        if (options.changed)
            for (qint64 id : ids)
                options.changed(id);
    }

    const std::vector<std::chrono::milliseconds> &retrySchedule() const
    {
        return options.retrySchedule.empty() ? config.webhook.retrySchedule : options.retrySchedule;
    }

    std::chrono::milliseconds timeout() const { return std::chrono::seconds(config.webhook.deliverTimeoutSeconds); }

    // Queues `ids` on webhook_sender; one already queued goes out once. Unavailable before start().
    Status push(const CancelToken &cancel, const std::vector<qint64> &ids);
    // push() for tasks already in the store: when the queue does not take them, the next
    // recovery round queues them (logged, not an error).
    void pushStored(const CancelToken &cancel, const std::vector<qint64> &ids, const char *what);
    // A write that must not be lost (a result, a task given back): an unavailable store is
    // waited out until `stop`, and then for kStopPatience more (logging the first failure).
    Status patiently(const CancelToken &stop, const char *what, const std::function<Status()> &attempt) const;

    // ---- egress.cpp: the request, built on the worker's thread.
    // Whether a delivery to `host` goes through [webhook] PROXY_URL (it matches PROXY_HOSTS).
    bool proxied(const QString &host) const;
    // The proxy as recorded in a delivery's request (never its password).
    QString proxyForHistory() const;
    // Builds the request (the channel's conversion, the egress check with its DNS lookup, the
    // signatures), on the worker's thread; on failure sets f.error. transmit() sends it.
    void prepare(Flight &f);
    // Points f's exchange at f.url (the current hop) through `addresses`, vetted already: the
    // proxy for a host PROXY_HOSTS names, else the first address. Resets the exchange.
    void aim(Flight &f, const QList<QHostAddress> &addresses) const;
    // `addresses` of `host` when the egress policy allows every one; else empty, with `error` set.
    QList<QHostAddress> vetted(const QString &host, const QList<QHostAddress> &addresses, QString &error) const;
    // A redirect answer of f's current hop turned into the next hop's request (Go's rules: 301,
    // 302 and 303 become a GET without a body, 307 and 308 keep both; Authorization only to the
    // same host or its subdomains); false when the answer is not one to follow, with f.error
    // set when it must not be (too many hops, a scheme other than http(s)).
    bool nextHop(Flight &f) const;

    // ---- deliveryloop.cpp. The delivery loop: a thread of the lifecycle's that sends what the
    // workers hand it and records each answer when it ends, so a worker never waits for a
    // receiver. Started before the queue, so the lifecycle stops the queue (its producer) first.
    static constexpr int kConnectionsPerHook = 6;  // as browsers and Qt per host; more wait here, off the clock

    // What the workers, the delivery loop, the recorder and the shutdown share.
    struct Loop
    {
        std::mutex mutex;                                // guards the fields below
        std::condition_variable_any changed;             // room, settled, started, stopped
        std::vector<Flight> inbox;                       // handed over, not yet seen by the loop
        qint64 held = 0;                                 // room taken: reserved or handed over, and not yet recorded
        std::map<qint64, qint64> heldPerHook;            // handed over and not yet recorded, per hook
        std::map<qint64, qint64> oldestSentMs;           // per hook with deliveries on the wire: the oldest one's send
        QAbstractEventDispatcher *dispatcher = nullptr;  // the loop thread's, while it runs
        bool running = false;
        bool stopped = false;              // the loop stopped taking flights: handOff() gives them back
        bool closing = false;              // the shutdown began: workers stop waiting for room
        std::vector<qint64> removedHooks;  // deleted since the loop last looked
    } loop;

    int maxInFlight() const { return std::max(1, options.maxInFlight); }
    int maxHeldPerHook() const { return std::max(kConnectionsPerHook, options.maxHeldPerHook); }

    // Room for `n` more deliveries in the loop, taken before they are claimed (a worker that
    // waits for room holds no claim a crash would turn into `unknown`): waits, cancellably, while
    // maxInFlight are held. False when cancelled or the loop has stopped.
    bool reserve(const CancelToken &cancel, qint64 n);
    void unreserve(qint64 n);
    // Claims `ids` for this instance (compare-and-set, one transaction): the tasks with their
    // hooks, leaving out those another worker has, gone or already delivered. A retry that is not
    // due yet is not claimed: it goes back to the retry timer. An unavailable store is waited out
    // until `stop` (then Unavailable: nothing was claimed).
    Result<std::vector<Flight>> claim(const CancelToken &stop, const std::vector<qint64> &ids);
    // How long a hook holding `held` deliveries needs to send them (the loop's mutex held): its
    // rounds of six, each as long as its oldest delivery on the wire has taken so far (a receiver
    // that hangs looks slower the longer it hangs), at most DELIVER_TIMEOUT a round; with none on
    // the wire, WebhookOptions::keepingUp a round.
    qint64 drainMs(qint64 hook, qint64 held) const;
    // The hook's receiver keeps up: its oldest delivery on the wire is younger than
    // WebhookOptions::keepingUp, or it has none on the wire (what it holds has ended and waits
    // for the recorder, or has just been handed over) (the loop's mutex held).
    bool keepsUp(qint64 hook) const;
    // Hands a prepared flight to the loop, in room reserved for it; false when it was not taken
    // (the caller gives its room back). A hook that holds maxHeldPerHook already waits for room
    // (up to busyHookWait) while its receiver keeps up; otherwise (slow or hanging) the task goes
    // back to the store, due when that backlog should have been sent. A stopped loop gives it
    // back as undelivered (queued at the next start).
    bool handOff(const CancelToken &cancel, Flight &&f);
    // A hook was deleted: the loop drops what of it waits and cuts what is on the wire.
    void forget(qint64 hookId);
    // Until nothing handed over is unrecorded, or `until`.
    Status settle(const CancelToken &cancel, SteadyClock::time_point until);

    // The delivery loop thread's body: its own state is a LoopThread's, on its stack.
    class LoopThread;
    void runLoop(const CancelToken &stop);
    // Sends a prepared flight (on the delivery loop's thread); its clock and deadline start now.
    void transmit(HttpClient &client, Flight &f) const;
    // The answer (or its absence) of a flight whose exchange finished.
    Ended landed(Flight &f) const;

    // ---- recorder.cpp. The recorder: a thread of the lifecycle's that writes what the delivery
    // loop ended, so the loop never waits for the database's write lock. What arrives while it
    // writes is the next transaction (a group commit: the busier the loop, the more deliveries
    // per transaction). Started before the loop, so the lifecycle stops it after the loop, and it
    // writes all that the loop left it before it ends.
    struct Recorder
    {
        std::mutex mutex;  // guards inbox
        std::condition_variable_any arrived;
        std::vector<Ended> inbox;  // ended on the wire, not yet written
    } recorder;

    void toRecorder(std::vector<Ended> &&ended);
    void runRecorder(const CancelToken &stop);
    // Records what happened to each of `ended` and their hooks' last status, in one transaction
    // (a retry is written with the failure it follows; a delivery a stop cut is recorded as an
    // interruption); then announces, schedules and counts. A result is fenced by the claim: one
    // whose task another instance took over meanwhile is not written. An unavailable store is
    // waited out (patiently(): until `stop`, then kStopPatience); what stays unwritten stays
    // claimed, for the next start. From the recorder, or from a worker for what failed before the
    // wire.
    void record(const CancelToken &stop, std::vector<Ended> &ended);
    // What follows a record(): announcements, retries scheduled, interrupted tasks queued, counts.
    void afterRecord(const std::vector<Ended> &ended, const std::vector<Written> &out, const Status &written);
    // A hook made inactive by AUTO_DISABLE_AFTER: logged, and announced as a notice.
    void announceDisabled(const Ended &e);
    // DeliveryStats: `e` took `ms`.
    void tally(const Ended &e, double ms);
    // Gives claimed tasks back unsent (the delivery loop stopped, or their hook has too many
    // deliveries held): undelivered again, due at `dueMs` (0: as they were), so a later start, the
    // resync task or the retry timer queues them. An unavailable store is waited out (patiently()).
    void release(const CancelToken &stop, const std::vector<qint64> &ids, qint64 dueMs);
    // ---- bulkjobs.cpp: bulk redeliveries as jobs of the store.
    // Claims the store's bulk-job slot for `filter` (Conflict naming the job that runs): its id
    // (in runningJobs: the caller runs it, and takes it out when it ends) and how many it
    // redelivers.
    Result<std::pair<qint64, qint64>> beginBulkJob(const TaskFilter &filter, const QString &doer);
    // Runs job `jobId` from where it stopped; the job ends finished, or cancelled / failed (its
    // status), unless the instance is stopping (`stop`): then it stays to be resumed.
    Result<qint64> walkBulkJob(const CancelToken &cancel, const CancelToken &stop, qint64 jobId, const TaskFilter &filter,
                               const std::function<void(qint64 done, qint64 total)> &progress);
    // Starts walkBulkJob() on a thread of the lifecycle's, as a cancellable process: its pid.
    Result<qint64> runBulkJob(qint64 jobId, const TaskFilter &filter, qint64 total, const QString &doer);

    // Takes over `claims` (task id, the holder judged gone), in `tx`: each attempt is appended to
    // the task's interruptions (`reason` "lost" or "stopped"), and the task is made undelivered
    // again (RESEND_INTERRUPTED: returned, to be queued) or `unknown`. A task that ended, or that
    // another instance holds by now, is left alone.
    Result<std::vector<qint64>> interrupt(SqlTransaction &tx, const std::vector<std::pair<qint64, QString>> &claims,
                                          const QString &reason, const QString &error);
};

}  // namespace Switchyard::Webhook
