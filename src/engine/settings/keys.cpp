#include "keys.h"

#include <QStringList>
#include <QTextStream>

namespace Switchyard {

namespace {

constexpr SettingKey kKeys[] = {
    {"server", "DOMAIN", "localhost", "The forge's host name: mail Message-IDs and List-IDs end in it."},
    {"server", "HTTP_ADDR", "127.0.0.1",
     "Address of the admin API: an IP address or localhost. A non-loopback address needs TLS (CERT_FILE, KEY_FILE) "
     "or ALLOW_INSECURE_REMOTE."},
    {"server", "HTTP_PORT", "3300", "Port of the admin API, 1-65535; switchyardd --port N overrides it (0: any free port)."},
    {"server", "ADMIN_TOKEN", nullptr,
     "The admin token. Empty: one is generated on the first start into <data>/admin-token (mode 0600)."},
    {"server", "APP_DATA_PATH", nullptr,
     "Where data is kept; --data-dir overrides it. Empty: the user's data directory (~/.local/share/switchyard); "
     "the packaged service passes --data-dir /var/lib/switchyard."},
    {"server", "GRACEFUL_HAMMER_TIME", "60s", "How long a shutdown waits for running work before it hammers (finishes fast)."},
    {"server", "CERT_FILE", nullptr, "TLS certificate (PEM) for the admin API; needs KEY_FILE. Relative to the data path."},
    {"server", "KEY_FILE", nullptr, "TLS private key (PEM) for the admin API; needs CERT_FILE. Relative to the data path."},
    {"server", "ALLOW_INSECURE_REMOTE", "false",
     "Accept a non-loopback HTTP_ADDR without TLS (a warning is logged at every start)."},
    {"server", "ALLOWED_ORIGINS", nullptr,
     "Comma-separated WebSocket origins allowed besides the API's own address."},
    {"server", "MAX_BODY_SIZE", "1048576", "Largest request body in bytes (at least 1024); larger ones get 413 before they are read."},
    {"server", "AUTH_FAILURE_LIMIT", "10",
     "Failed authentications per network and per presented token per minute before 429 (the right token is never "
     "refused)."},
    {"server", "HEADER_TIMEOUT", "10s",
     "A request head must arrive within this (100ms-1h); silent connections are closed, half requests get 408."},
    {"server", "IDLE_TIMEOUT", "60s",
     "Keep-alive connections without a request, and bodies without a byte, are closed after this (100ms-1h)."},
    {"server", "MAX_CONNECTIONS", "512",
     "Connections at once (8-100000), also bounded by the descriptor limit; the oldest idle one makes room."},
    {"server", "MAX_CONNECTIONS_PER_ADDRESS", "128", "Connections per IPv4 address (127.0.0.0/8 as one) or IPv6 /64 (1-100000)."},
    {"server", "RESERVED_CONNECTIONS", "16",
     "Connections taken beyond both caps when none is idle; they serve only requests with a valid token (0-1000)."},
    {"server", "MIN_BODY_RATE", "16384",
     "Bytes per second a request body keeps up once HEADER_TIMEOUT has passed (0: no minimum); slower ones get 408."},
    {"server", "BODY_BUDGET", "134217728",
     "Bytes of request bodies received at once over all connections (at least MAX_BODY_SIZE); beyond it 503."},
    {"server", "AUDIT_MAX_SIZE", nullptr, "No longer used: the audit log is a table of the database.", true},
    {"server", "AUDIT_KEEP", nullptr, "No longer used: the audit log is a table of the database.", true},

    {"database", "DB_TYPE", "sqlite3", "sqlite3 or postgres (sqlite and postgresql are accepted)."},
    {"database", "PATH", "data/switchyard.db", "sqlite3: the database file, relative to the data path; its directory is created."},
    {"database", "HOST", "127.0.0.1:5432", "postgres: host, host:port or a socket directory."},
    {"database", "NAME", "switchyard", "postgres: the database, which must exist."},
    {"database", "USER", nullptr, "postgres: the role to connect as."},
    {"database", "PASSWD", nullptr, "postgres: its password."},
    {"database", "SSL_MODE", "prefer",
     "postgres: libpq's sslmode: disable, allow, prefer, require, verify-ca or verify-full (certificates as libpq finds them)."},
    {"database", "INSTANCE_HEARTBEAT", "5s",
     "How often each instance writes its heartbeat to the database (50ms-1h)."},
    {"database", "INSTANCE_GRACE", "15s",
     "An instance whose heartbeat is older than this is declared lost, and live instances take over the events and "
     "deliveries it held (50ms-1h, at least twice INSTANCE_HEARTBEAT)."},

    {"redis", "CONN_STR", nullptr,
     "A shared Redis connection (redis://[user:password@]host:port/db) for the queues, the cache, the locks and "
     "pub/sub that name no server of their own."},

    {"queue", "TYPE", "level",
     "dummy, immediate, channel, level or redis (leveldb, levelqueue and persistable-channel mean level). "
     "[queue.<name>] sections (webhook_sender, event_ingest, notification-service, ...) override [queue] key by key."},
    {"queue", "DATADIR", "queues/common", "level: the LevelDB directory, relative to the data path."},
    {"queue", "CONN_STR", nullptr, "redis: the server; empty: [redis] CONN_STR, else redis://127.0.0.1:6379/0."},
    {"queue", "LENGTH", "100000", "Items a queue holds before a push waits; non-positive: the default, with a warning."},
    {"queue", "BATCH_LENGTH", "20", "Items a worker takes at once; non-positive: the default, with a warning."},
    {"queue", "QUEUE_NAME", "_queue", "Storage name suffix: <name>_queue."},
    {"queue", "SET_NAME", "_unique", "Storage name suffix of a unique queue's set: <name>_queue_unique."},
    {"queue", "MAX_WORKERS", nullptr, "Workers per queue; empty: cores / 2, clamped to 1..10."},
    {"queue", "SYNC", "false", "level: make every push durable across a power loss (slower)."},

    {"cache", "ADAPTER", "memory", "memory, redis or twoqueue."},
    {"cache", "HOST", nullptr, "redis: the server (empty: [redis] CONN_STR); twoqueue: the capacity."},
    {"cache", "INTERVAL", "60", "memory: seconds between expiry sweeps."},
    {"cache", "ITEM_TTL", "16h", "How long the read-through helpers keep a value; 0 disables them."},

    {"global_lock", "SERVICE_TYPE", "memory", "memory (one instance) or redis (instances that share work)."},
    {"global_lock", "SERVICE_CONN_STR", nullptr,
     "redis: the server (empty: [redis] CONN_STR); several comma-separated addresses make a Redlock."},
    {"global_lock", "KEY_PREFIX", "gitea:globallock:", "Prefix of the lock keys in Redis."},
    {"global_lock", "MAX_HOLD_TIME", "0", "Longest a lock's lease is extended; 0: no limit."},

    {"webhook", "DELIVER_TIMEOUT", "5", "Seconds a delivery may take in total, positive."},
    {"webhook", "ALLOWED_HOST_LIST", "external",
     "Where hooks may connect: external, private, loopback, *, host globs or CIDRs, comma-separated; checked on the "
     "resolved address (and on a literal address when a hook is written)."},
    {"webhook", "SKIP_TLS_VERIFY", "false", "Accept any certificate from a hook's receiver."},
    {"webhook", "PROXY_URL", nullptr,
     "http://[user:password@]host[:port] or socks5://...: the proxy for the hosts of PROXY_HOSTS; empty: every "
     "delivery connects directly."},
    {"webhook", "PROXY_HOSTS", nullptr, "Host names or globs, comma-separated (**: every host), whose deliveries use PROXY_URL."},
    {"webhook", "PAGING_NUM", "10", "Gitea's page size for hook lists; read and checked (positive) for files shared with Gitea."},
    {"webhook", "AUTO_DISABLE_AFTER", "0",
     "This many failed deliveries in a row make a hook inactive, with a notice naming it; 0: never."},
    {"webhook", "RETRY_SCHEDULE", nullptr,
     "Delays after a failed delivery before a retry (10s,1m,10m; each 1s-168h, at most 10); empty: no retry."},
    {"webhook", "RESEND_INTERRUPTED", "true",
     "A delivery an instance was sending when it died is sent again under the same delivery id (at least once); "
     "false: it is marked unknown and waits for an operator (at most once)."},

    {"qos", "ENABLED", "false", "Admission control for the admin API: requests beyond MAX_INFLIGHT wait, authenticated ones first; a shed one gets 503."},
    {"qos", "MAX_INFLIGHT", nullptr, "Requests served at once; empty: 4 x cores."},
    {"qos", "MAX_WAITING", "100", "Requests that may wait for a slot; more get 503."},
    {"qos", "TARGET_WAIT_TIME", "250ms", "A waiting request is shed once it has waited longer than this."},

    {"websocket", "PUBSUB_TYPE", "memory", "memory or redis: how live pushes reach the subscribers of other instances."},
    {"websocket", "CONN_STR", nullptr, "redis: the server (empty: [redis] CONN_STR, else redis://127.0.0.1:6379/0)."},

    {"event_source", "SECRET", nullptr,
     "[event_source.<name>]: a forge that posts webhooks to POST /api/v1/events?source=<name>; the HMAC-SHA256 "
     "secret its signatures are checked against. The source default always exists."},
    {"event_source", "REPLAY_WINDOW", "5m",
     "A Standard Webhooks webhook-timestamp further from this clock is refused; a payload seen again within it under "
     "another delivery id is a replay (1s-24h)."},
    {"event_source", "REFUSE_REPLAYS", "false", "true: a replay is refused with 409; false: it is logged and processed."},

    {"service", "AUTO_WATCH_ON_CHANGES", "false", "A user who pushes, opens or comments starts watching the repository."},
    {"service", "ENABLE_NOTIFY_MAIL", "false",
     "Mail the people concerned about issues, pulls, reviews, releases and transfers (needs [mailer] ENABLED)."},

    // [mailer.override_header] is free-form (each key a header), so it has no entry here and its
    // keys are never reported as unknown.
    {"mailer", "ENABLED", "false", "Send mail: notifications (with [service] ENABLE_NOTIFY_MAIL) and test mail."},
    {"mailer", "NAME", nullptr, "The sender's display name ({{DisplayName}}); empty: the name in FROM, else APP_NAME."},
    {"mailer", "FROM", nullptr, "The sender, \"Name <address>\" or an address; required when ENABLED."},
    {"mailer", "ENVELOPE_FROM", nullptr, "The SMTP MAIL FROM and sendmail -f address; empty: FROM's address; <> for none."},
    {"mailer", "PROTOCOL", nullptr,
     "smtp, smtps, smtp+starttls, smtp+unix, sendmail or dummy (logs only). Empty: smtp+unix for a socket path in "
     "SMTP_ADDR, else from SMTP_PORT (465 smtps, 587 smtp+starttls, else smtp)."},
    {"mailer", "SMTP_ADDR", nullptr, "The SMTP server's host name, or the socket's path for smtp+unix."},
    {"mailer", "SMTP_PORT", nullptr, "The SMTP server's port; empty: from PROTOCOL (25, 465 smtps, 587 smtp+starttls)."},
    {"mailer", "USER", nullptr, "SMTP authentication: the user (PLAIN or LOGIN, whichever the server offers)."},
    {"mailer", "PASSWD", nullptr, "SMTP authentication: the password; never logged nor shown."},
    {"mailer", "ENABLE_HELO", "true", "Introduce this machine by name (EHLO HELO_HOSTNAME)."},
    {"mailer", "HELO_HOSTNAME", nullptr, "The name given in EHLO; empty: this machine's host name."},
    {"mailer", "FORCE_TRUST_SERVER_CERT", "false", "Accept any server certificate (only for a server on your own network)."},
    {"mailer", "SENDMAIL_PATH", "sendmail", "sendmail: the program, run as PATH -f ENVELOPE_FROM -i [ARGS] -- recipient."},
    {"mailer", "SENDMAIL_ARGS", nullptr, "sendmail: more arguments, split as a shell would."},
    {"mailer", "SENDMAIL_TIMEOUT", "5m", "sendmail: a run still going after this is killed and the mail counts as failed."},
    {"mailer", "FROM_DISPLAY_NAME_FORMAT", "{{DisplayName}}",
     "The From display name, with {{DisplayName}}, {{AppName}} and {{Domain}}; Q-encoded when not ASCII."},
    {"mailer", "SEND_AS_PLAIN_TEXT", "false", "Send text/plain only, without the HTML part."},
    {"mailer", "SUBJECT_PREFIX", nullptr, "Put before every subject, e.g. [Gitea]."},

    {"security", "SECRET_KEY", nullptr,
     "Seals secrets at rest (a webhook's Authorization header). Empty: a key file secret.key (0600) in the data path. "
     "Required with DB_TYPE = postgres, the same on every instance."},
    {"security", "DISABLE_WEBHOOKS", "false", "No webhook task is made for any event."},
};

// Words of `text` in lines of at most `width` characters, each starting with `prefix`.
void writeWrapped(QTextStream &out, const QString &text, const QString &prefix, int width)
{
    QString line = prefix;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (line.size() > prefix.size() && line.size() + 1 + word.size() > width) {
            out << line << '\n';
            line = prefix;
        }
        if (line.size() > prefix.size())
            line += QLatin1Char(' ');
        line += word;
    }
    out << line << '\n';
}

} // namespace

std::span<const SettingKey> settingKeys()
{
    return kKeys;
}

QString sampleSectionName(const char *section)
{
    const QLatin1String name(section);
    return name == QLatin1String("event_source") ? QStringLiteral("event_source.default") : QString(name);
}

QString sampleConfig(const QString &version)
{
    QString text;
    QTextStream out(&text);
    constexpr int kWidth = 100;
    writeWrapped(out,
                 QStringLiteral("Switchyard settings (app.ini), generated from the defaults built into Switchyard %1. "
                                "Every key is listed, commented out, at its default: uncomment a line to change it. "
                                "Keys are case-insensitive; durations use Go's syntax (250ms, 30s, 1h30m); booleans "
                                "are true/false. Check a file with: switchyardd --config <file> --check-config")
                     .arg(version),
                 QStringLiteral("; "), kWidth);
    writeWrapped(out,
                 QStringLiteral("[cron.<task>] sections (ENABLED, RUN_AT_START, SCHEDULE, NOTICE_ON_SUCCESS, and "
                                "COMMAND or URL for tasks of your own) are listed with their defaults by "
                                "switchyardctl cron list and described in docs/cron.md."),
                 QStringLiteral("; "), kWidth);
    const char *section = nullptr;
    for (const SettingKey &k : kKeys) {
        if (k.obsolete)
            continue;
        if (!section || qstrcmp(section, k.section) != 0) {
            section = k.section;
            out << "\n[" << sampleSectionName(section) << "]\n";
        }
        writeWrapped(out, QLatin1String(k.help), QStringLiteral("; "), kWidth);
        out << ';' << k.key << " =";
        if (k.defaultValue)
            out << ' ' << k.defaultValue;
        out << '\n';
    }
    out.flush();
    return text;
}

} // namespace Switchyard
