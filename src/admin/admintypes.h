#pragma once

// The admin layer's values: what every admin operation answers, shaped after the resources of the
// admin API (docs/console.md lists the mapping). The engine's own row types (QueueStats,
// CronTaskInfo, …) already carry the API's fields and are reused from the engine's value headers
// (never its service classes: pages see values only); what the engine has no type for is defined
// here. Plain values: copy them across threads freely.

#include "engine/cache/cachestats.h"
#include "engine/core/notice.h"
#include "engine/core/processinfo.h"
#include "engine/cron/crontypes.h"
#include "engine/events/eventtypes.h"
#include "engine/globallock/lockinfo.h"
#include "engine/notifications/notificationtypes.h"
#include "engine/qos/qostypes.h"
#include "engine/queue/queuestats.h"

#include <QDateTime>
#include <QJsonValue>
#include <QMap>
#include <QString>

#include <optional>
#include <vector>

namespace Switchyard::Admin {

using QueueRow = QueueStats;
using CronRow = CronTaskInfo;
using CronRun = CronRunRecord;
using LockRow = LockInfo;
using ProcessRow = ProcessInfo;
using NoticeRow = SystemNotice;
using EventRow = EventRecord;

// A user's unread count changed (the stream's notification-count).
struct UnreadChange
{
    qint64 userId = 0;
    qint64 count = 0;
};

// Who is asking (GET /instance): clients disable what a read-only token may not do.
struct Access
{
    QString tokenName;
    QString role; // "admin" or "read-only"
    bool operator==(const Access &) const = default;
};

// GET /instance (+ the uptime of GET /health).
struct InstanceInfo
{
    QString version;
    QString instanceId;
    QDateTime startedAt; // UTC
    QString configPath;  // empty: the embedded defaults
    QString dataPath;
    QString dbType;
    QString dbLocation;      // the SQLite file, or PostgreSQL's host/name
    int dbSchemaVersion = 0; // the store's schema version
    QMap<QString, QString> queueTypes; // configured queue name → type ("common" is [queue])
    QString cacheAdapter;
    QString lockService;
    QString pubsubType;
    std::optional<Access> access;
    bool operator==(const InstanceInfo &) const = default;
};

// One line of GET /self-check.
struct SelfCheckItem
{
    QString name; // database, cache, redis, queues, disk
    bool ok = false;
    QString message;
    qint64 elapsedMs = 0;
};

// GET /cache.
struct CacheInfo
{
    QString adapter;
    QString host; // redis: the connection (password hidden); twoqueue: the capacity; memory: empty
    qint64 ttlMs = 0; // [cache] ITEM_TTL
    qint64 items = -1;
};

// POST /cache/test.
struct CacheTest
{
    bool ok = false;
    double elapsedMs = 0;
    bool slow = false;
    qint64 thresholdMs = 30;
    QString error;
};

// GET /mail: the mailer's settings (never the password) and what it sent since start.
struct MailInfo
{
    bool enabled = false;   // [mailer] ENABLED
    bool notify = false;    // [service] ENABLE_NOTIFY_MAIL (and enabled): the notifier mails forge events
    QString protocol;
    QString host;           // the SMTP server, the socket's path, or the sendmail program
    qint64 port = 0;        // SMTP: the port; 0 otherwise
    QString from;           // [mailer] FROM as written
    QString envelopeFrom;   // MAIL FROM / sendmail -f ("" for <>)
    bool authenticated = false; // [mailer] USER is set
    QString subjectPrefix;
    bool sendAsPlainText = false;
    qint64 queuedTotal = 0;
    qint64 sentTotal = 0;
    qint64 failedTotal = 0;
    QString lastError;
    QDateTime lastErrorAt;
};

// POST /mail/test.
struct MailTestResult
{
    bool ok = false;
    QString error; // the server's (or program's) own words
};

// A queue's settings for the detail pane (from the config; GET /queues/{qid} adds them later).
struct QueueSettingsInfo
{
    QString name;
    QString type;
    int length = 0;
    int batchLength = 0;
    QString location; // level: the data directory; redis: the list key and server
};

// The lock event kinds of the stream.
struct LockEvent
{
    QString key;
    QString action; // acquired, released, extended, expired
};

// One delivery in the history. request {url, method, headers, body}; response {status, headers,
// body} or {error}.
struct HookTaskRow
{
    qint64 id = 0;
    qint64 hookId = 0;
    QString uuid;
    QString eventType;
    QString event; // the grouped name a receiver saw (X-Gitea-Event)
    int payloadVersion = 2;
    bool isDelivered = false;
    bool isSucceed = false;
    QString status; // pending, succeeded, failed, unknown, skipped
    QDateTime createdAt;
    QDateTime delivered;
    double durationMs = 0;
    QJsonValue request;
    QJsonValue response;
    qint64 redeliveryOf = 0;
    QString traceId;
    std::optional<int> attempt; // n: the n-th scheduled retry ([webhook] RETRY_SCHEDULE); none otherwise
    QDateTime deliverAfter;  // a retry is held until then
    QString claimedBy;       // the instance that claimed it last
    // Earlier attempts that ended with their instance (it died, or stopped before the answer):
    // they may or may not have reached the receiver. Oldest first.
    struct Interrupted
    {
        QString instanceId;
        QDateTime claimedAt;
        QDateTime endedAt;
        QString endedBy;
        QString reason; // lost | stopped
        bool resent = false; // sent again under the same delivery id
        bool operator==(const Interrupted &) const = default;
    };
    std::vector<Interrupted> interrupted;
    bool operator==(const HookTaskRow &) const = default;
};

// One frame of the live stream (GET /stream): `type` names the event kind and exactly one of the
// members below is meaningful for it.
struct AdminEvent
{
    enum class Type { QueueStats, CronStatus, Lock, Notice, NoticeRemoved, NotificationCount, Event, HookTask };
    Type type = Type::QueueStats;
    std::vector<QueueRow> queues;  // QueueStats: the whole list, every second
    CronRow cron;                  // CronStatus: the row that changed
    LockEvent lock;                // Lock
    LockRow lockRow;               // Lock: the lock's row (acquired, extended)
    NoticeRow notice;              // Notice, NoticeRemoved (id only)
    UnreadChange unread;           // NotificationCount
    EventRow event;                // Event: the /events row (no payload)
    HookTaskRow hookTask;          // HookTask: a delivery added or ended (the request and response without bodies)

    // The API's event-type names: "queue-stats", "cron-status", "lock", "notice", "notice-removed",
    // "notification-count", "event", "hook-task".
    static QString typeName(Type type);
};

} // namespace Switchyard::Admin
