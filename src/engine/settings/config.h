#pragma once

#include "settings.h"

#include "engine/core/status.h"

#include <QString>
#include <QStringList>

#include <chrono>
#include <vector>

namespace Switchyard {

class ConfigCollector;

// The engine's configuration: SPEC §11's defaults, overridden by app.ini. Loading validates every
// section the engine owns and reports all problems at once; the typed structs below are then
// known-good. Thread-safety: immutable after load; share freely.

// [queue] and [queue.<name>] (Gitea's GetQueueSettings, seed 000 §10.5).
struct QueueSettings
{
    QString name;      // the managed name, e.g. "webhook_sender"
    QString type;      // dummy | immediate | channel | level | redis (aliases normalised)
    QString dataDir;   // absolute
    QString connStr;   // redis only: own CONN_STR → [redis] CONN_STR → redis://127.0.0.1:6379/0
    int length = 100000;
    QString queueName = QStringLiteral("_queue");
    QString setName = QStringLiteral("_unique");
    int batchLength = 20;
    int maxWorkers = 1; // ≤ 0: unbounded
    bool sync = false;  // level: every push durable across power loss

    // Storage names (seed 000 §10.5.4): "<name>_queue" and "<name>_queue_unique"; an empty
    // SET_NAME would make both equal, so "_unique" is appended in that case.
    QString queueFullName() const { return name + queueName; }
    QString setFullName() const;
};

struct RedisSettings
{
    QString connStr; // [redis] CONN_STR; empty: each user falls back to its own default
};

struct CacheSettings
{
    QString adapter = QStringLiteral("memory"); // memory | redis | twoqueue
    QString host;                               // redis: falls back to [redis] CONN_STR
    int intervalSeconds = 60;                   // memory adapter GC interval
    std::chrono::nanoseconds itemTtl = std::chrono::hours(16);
};

struct GlobalLockSettings
{
    QString serviceType = QStringLiteral("memory"); // memory | redis
    QString serviceConnStr;                          // falls back to [redis] CONN_STR; several (comma-separated): Redlock
    QString keyPrefix = QStringLiteral("gitea:globallock:");
    std::chrono::nanoseconds maxHoldTime{0};         // 0: a holder may extend its lease as long as it runs
};

struct WebhookSettings
{
    int deliverTimeoutSeconds = 5;
    QStringList allowedHostList{QStringLiteral("external")};
    bool skipTlsVerify = false;
    // PROXY_URL (http://[user:password@]host[:port] or socks5://…): deliveries to a host matching
    // one of PROXY_HOSTS (globs; ** matches every host) go through it; the others connect directly.
    QString proxyUrl;
    QStringList proxyHosts;
    int pagingNum = 10;
    bool disableWebhooks = false; // [security] DISABLE_WEBHOOKS, as in Gitea: no task is made for any event
    // This many failed deliveries in a row make a hook inactive (and raise a notice); 0: never.
    int autoDisableAfter = 0;
    // RETRY_SCHEDULE ("10s,1m,10m"): after a failed delivery, a retry (a new task linked to the
    // first) goes out after the next delay; empty: no retry, as in Gitea.
    std::vector<std::chrono::milliseconds> retrySchedule;
    static constexpr int kMaxRetries = 10;
    // A delivery an instance was sending when it died is sent again under its delivery id (at
    // least once); false: it stays `unknown` for an operator to redeliver (at most once).
    bool resendInterrupted = true;
};

struct QosSettings
{
    bool enabled = false;
    int maxInflight = 0; // default 4 × cores
    int maxWaiting = 100;
    std::chrono::nanoseconds targetWaitTime = std::chrono::milliseconds(250);
};

struct WebsocketSettings
{
    QString pubsubType = QStringLiteral("memory"); // memory | redis
    QString connStr; // redis: [websocket] CONN_STR, else [redis] CONN_STR, else redis://127.0.0.1:6379/0
};

struct DatabaseSettings
{
    QString type = QStringLiteral("sqlite3"); // sqlite3 | postgres
    QString path;                             // sqlite3: absolute; default <data>/data/switchyard.db
    QString host = QStringLiteral("127.0.0.1:5432");
    QString name = QStringLiteral("switchyard");
    QString user;
    QString passwd; // never logged
    // postgres: libpq's sslmode (Gitea's [database] SSL_MODE). "prefer", libpq's own default, unless set.
    QString sslMode = QStringLiteral("prefer");
    // Every instance writes its heartbeat this often; one silent for longer than the grace is
    // declared lost and its claims are taken over (store/instances.h).
    std::chrono::milliseconds instanceHeartbeat = std::chrono::seconds(5);
    std::chrono::milliseconds instanceGrace = std::chrono::seconds(15);
};

// [event_source.<name>]: a forge that posts its webhooks to POST /api/v1/events?source=<name>.
// The source "default" always exists (without a secret: an admin or ingest token is required).
struct EventSourceSettings
{
    QString name;
    QString secret; // empty: no signature check, a token is required
    // A Standard Webhooks timestamp (webhook-timestamp) further than this from our clock is
    // refused, and a payload seen again within it under another delivery id is a replay.
    std::chrono::milliseconds replayWindow = std::chrono::minutes(5);
    bool refuseReplays = false; // true: a replay is refused (409); false: logged and processed
};

// [security]: the key that seals secrets at rest (a webhook's Authorization header). Empty: a key
// file in the data directory (secret.key, mode 0600), which only a single instance can use —
// with PostgreSQL every instance must decrypt, so SECRET_KEY is required there.
struct SecuritySettings
{
    QString secretKey; // never logged
};

// [service]: the forge's user-facing behaviour the engine imitates.
struct ServiceSettings
{
    // A user who comments on, or changes, an issue or pull request starts watching its repository
    // (watch mode "auto"), as Gitea's AUTO_WATCH_ON_CHANGES.
    bool autoWatchOnChanges = false;
    // ENABLE_NOTIFY_MAIL: the mail notifier is on the bus (mail about issues, pulls, releases …);
    // it sends only when [mailer] ENABLED is set too.
    bool enableNotifyMail = false;
};

// [mailer] (seed 001 §12.5.5; docs/mail.md): how mail leaves. Validated at load when ENABLED.
struct MailerSettings
{
    bool enabled = false;
    QString name;         // NAME: the From display name's DisplayName; empty: APP_NAME
    QString from;         // FROM as written ("Name <address>" or an address)
    QString fromAddress;  // its address part
    QString envelopeFrom; // ENVELOPE_FROM: MAIL FROM and sendmail -f; empty: fromAddress; "<>": empty
    // smtp | smtps | smtp+starttls | smtp+unix | sendmail | dummy. Unset: smtp+unix for a socket
    // path in SMTP_ADDR, else from the port (465 smtps, 587 smtp+starttls, else smtp).
    QString protocol = QStringLiteral("smtp");
    QString smtpAddr;  // host, or the socket's path for smtp+unix
    int smtpPort = 25; // unset: from the protocol (25, 465, 587)
    QString user;
    QString passwd; // never logged nor returned
    bool enableHelo = true;
    QString heloHostname; // empty: this machine's name
    bool forceTrustServerCert = false; // no certificate check (a server on the local network)
    QString sendmailPath = QStringLiteral("sendmail");
    QStringList sendmailArgs;
    std::chrono::milliseconds sendmailTimeout = std::chrono::minutes(5);
    // With {{DisplayName}}, {{AppName}}, {{Domain}} (Gitea's {{ .DisplayName }} form is accepted).
    QString fromDisplayNameFormat = QStringLiteral("{{DisplayName}}");
    bool sendAsPlainText = false;
    QString subjectPrefix;
    // [mailer.override_header]: each key a header, each value comma-separated; replaces what the
    // composer set (Gitea's SetHeader after generateMetadataHeaders).
    std::vector<std::pair<QString, QStringList>> overrideHeaders;

    static QStringList protocols();
    // "smtp.example.com:587", the socket's path, the sendmail program, or "" (dummy).
    QString serverLabel() const;
};

struct ServerSettings
{
    // The forge's domain, as Gitea's [server] DOMAIN: mail Message-IDs and List-IDs end in it.
    QString domain = QStringLiteral("localhost");
    QString httpAddr = QStringLiteral("127.0.0.1");
    int httpPort = 3300;
    QString adminToken; // empty: generated on first start
    // TLS for the admin API: both files (PEM) or neither; relative paths resolve against the data path.
    QString certFile;
    QString keyFile;
    // A non-loopback HTTP_ADDR without TLS is refused unless this is set (then warned at every start).
    bool allowInsecureRemote = false;
    // Origins a browser WebSocket client may connect from (besides the API's own address).
    QStringList allowedOrigins;
    qint64 maxBodySize = 1 << 20;  // bytes; larger request bodies get 413
    int authFailureLimit = 10;     // failed authentications per credential / network per minute before 429
    // The API's edge (docs/security.md): a request head must arrive within headerTimeout; a
    // keep-alive connection with no request, or a body with no byte, is closed after idleTimeout.
    std::chrono::milliseconds headerTimeout = std::chrono::seconds(10);
    std::chrono::milliseconds idleTimeout = std::chrono::seconds(60);
    int maxConnections = 512;            // also bounded by the descriptor limit
    int maxConnectionsPerAddress = 128;  // per IPv4 address (127.0.0.0/8 as one) or IPv6 /64
    int reservedConnections = 16;        // beyond both caps, for requests with a valid token
    qint64 minBodyRate = 16 * 1024;      // bytes/s a request body keeps once HEADER_TIMEOUT has passed; 0: any
    qint64 bodyBudget = 128ll << 20;     // bytes of request bodies received at once over all connections
    // Lifecycle: how long a graceful shutdown may take before the hammer phase.
    std::chrono::nanoseconds gracefulHammerTime = std::chrono::seconds(60);
};

class EngineConfig
{
public:
    // Validates `settings` and resolves paths. The data path is `dataPathOverride` (--data-dir)
    // when given, else [server] APP_DATA_PATH, else `defaultDataPath` (the user's data directory).
    // Relative paths in the file resolve against the data path. Fails with every problem found,
    // one per line: deprecated keys (naming the replacement), invalid values (naming file:line,
    // key and valid values).
    static Result<EngineConfig> load(Settings settings, const QString &dataPathOverride,
                                     const QString &defaultDataPath);

    const Settings &settings() const { return m_settings; }
    QString configPath() const { return m_settings.fromFile() ? m_settings.fileName() : QString(); }
    const QString &dataPath() const { return m_dataPath; }
    // Non-fatal findings to log at start-up: unknown keys in sections the engine owns, repeats.
    const QStringList &warnings() const { return m_warnings; }

    ServerSettings server;
    RedisSettings redis;
    CacheSettings cache;
    GlobalLockSettings globalLock;
    WebhookSettings webhook;
    QosSettings qos;
    WebsocketSettings websocket;
    DatabaseSettings database;
    ServiceSettings service;
    MailerSettings mailer;
    // APP_NAME, before any section as in Gitea's app.ini: the From display name's AppName.
    QString appName = QStringLiteral("Switchyard");
    SecuritySettings security;
    // Every [event_source.<name>] section, and "default" (always there).
    std::vector<EventSourceSettings> eventSources;
    // The source called `name`; nullptr when there is none.
    const EventSourceSettings *eventSource(const QString &name) const;

    // [queue] then [queue.<name>] (seed 000 §10.5.1); names of configured [queue.*] sections are
    // validated at load, so this fails only for a name without a section whose [queue] is bad —
    // which load() has rejected too.
    Result<QueueSettings> queueSettings(const QString &name) const;
    // The names of every [queue.<name>] section in the file.
    QStringList configuredQueueNames() const { return m_settings.subsectionNames(QStringLiteral("queue.")); }

    // Valid values, for messages and the docs.
    static QStringList queueTypes();
    static int defaultMaxWorkers(); // cores / 2 clamped to 1..10

private:
    QString resolvePath(const QString &path) const;
    // load(), a section at a time; errors go to the collector.
    static void loadServer(ConfigCollector &c, const Settings &s, EngineConfig &config);
    static void loadCache(ConfigCollector &c, const Settings &s, EngineConfig &config);
    static void loadGlobalLock(ConfigCollector &c, const Settings &s, EngineConfig &config);
    static void loadServices(ConfigCollector &c, const Settings &s, EngineConfig &config);
    static void loadMailer(ConfigCollector &c, const Settings &s, EngineConfig &config);
    void loadQueues(ConfigCollector &c); // every configured queue, so a bad value anywhere stops start-up
    // queueSettings(), also collecting non-fatal findings (values ≤ 0 that fall back) for load().
    Result<QueueSettings> readQueueSettings(const QString &name, QStringList *warnings) const;

    Settings m_settings;
    QString m_dataPath;
    QStringList m_warnings;
};

} // namespace Switchyard
