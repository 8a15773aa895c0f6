#include "config.h"

#include "duration.h"
#include "keys.h"
#include "engine/core/mailaddress.h"
#include "engine/redis/redisconnection.h"

#include <QDir>
#include <QHostAddress>
#include <QRegularExpression>
#include <QThread>
#include <QUrl>

#include <algorithm>
#include <limits>
#include <optional>

namespace Switchyard {

namespace {

// Keys removed from Gitea's layout: start-up refuses them so nobody believes they still apply
// (seed 000 §10.5.2). Replacement = where the setting lives now.
struct DeprecatedKey
{
    const char *section;
    const char *key;
    const char *replacement;
};

constexpr DeprecatedKey kDeprecatedKeys[] = {
    {"indexer", "ISSUE_INDEXER_QUEUE_TYPE", "[queue.issue_indexer] TYPE"},
    {"indexer", "ISSUE_INDEXER_QUEUE_BATCH_NUMBER", "[queue.issue_indexer] BATCH_LENGTH"},
    {"indexer", "ISSUE_INDEXER_QUEUE_DIR", "[queue.issue_indexer] DATADIR"},
    {"indexer", "ISSUE_INDEXER_QUEUE_CONN_STR", "[queue.issue_indexer] CONN_STR"},
    {"indexer", "UPDATE_BUFFER_LEN", "[queue.issue_indexer] LENGTH"},
    {"mailer", "SEND_BUFFER_LEN", "[queue.mail] LENGTH"},
    {"repository", "PULL_REQUEST_QUEUE_LENGTH", "[queue.pr_patch_checker] LENGTH"},
    {"repository", "MIRROR_QUEUE_LENGTH", "[queue.mirror] LENGTH"},
    {"task", "QUEUE_TYPE", "[queue.task] TYPE"},
    {"mailer", "MAILER_TYPE", "[mailer] PROTOCOL"},
    {"mailer", "SMTP_FROM", "[mailer] FROM"},
    {"mailer", "HOST", "[mailer] SMTP_ADDR and SMTP_PORT"},
    {"mailer", "IS_TLS_ENABLED", "[mailer] PROTOCOL = smtps"},
    {"mailer", "DISABLE_HELO", "[mailer] ENABLE_HELO"},
    {"mailer", "SKIP_VERIFY", "[mailer] FORCE_TRUST_SERVER_CERT"},
};

// The keys of the sections the engine owns (keys.cpp); anything else there is reported as a
// warning (a typo would otherwise be silently ignored).
const QHash<QString, QStringList> &knownKeys()
{
    static const QHash<QString, QStringList> keys = [] {
        QHash<QString, QStringList> byOwner;
        for (const SettingKey &k : settingKeys())
            byOwner[QLatin1String(k.section)].append(QLatin1String(k.key));
        return byOwner;
    }();
    return keys;
}

}  // namespace

// Accumulates the errors of many getters so that load() reports every problem at once.
class ConfigCollector
{
public:
    template<typename T>
    T take(Result<T> result, T fallback)
    {
        if (result)
            return std::move(result).value();
        errors.append(result.status().message());
        return fallback;
    }
    void fail(const QString &message) { errors.append(message); }

    QStringList errors;
};

namespace {

using Collector = ConfigCollector;

// Words as a POSIX shell splits them (Gitea's shellquote.Split): blanks separate; '…' keeps
// everything; "…" keeps all but \" \\ \$ \`; a backslash outside quotes escapes the next
// character. nullopt for an unclosed quote.
std::optional<QStringList> shellWords(const QString &text)
{
    QStringList words;
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\'' || c == u'"') {
            inWord = true;
            const qsizetype close = [&] {
                for (qsizetype j = i + 1; j < text.size(); ++j) {
                    if (c == u'"' && text[j] == u'\\' && j + 1 < text.size() && QStringView(u"\"\\$`").contains(text[j + 1])) {
                        word += text[++j];
                        continue;
                    }
                    if (text[j] == c)
                        return j;
                    word += text[j];
                }
                return qsizetype(-1);
            }();
            if (close < 0)
                return std::nullopt;
            i = close;
        } else if (c == u'\\' && i + 1 < text.size()) {
            word += text[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

int clampToInt(qint64 value)
{
    return int(std::clamp<qint64>(value, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

// A Redis connection string is parsed where it is read, so --check-config refuses what start-up
// would refuse. `value` may hold several, comma-separated (Redlock).
void checkRedisAddresses(Collector &c, const Settings &s, const QStringList &sections, const QString &key,
                         const QString &value, bool several = false)
{
    if (value.trimmed().isEmpty())
        return;
    const QStringList parts = several ? value.split(QLatin1Char(','), Qt::SkipEmptyParts) : QStringList{value};
    for (const QString &part : parts) {
        if (const Result<RedisAddress> parsed = RedisAddress::parse(part); !parsed)
            c.fail(QStringLiteral("%1 = \"%2\" is not valid: %3")
                       .arg(s.location(sections, key), part.trimmed(), parsed.status().message()));
    }
}

// A positive count read as an int: above int's range is refused, ≤ 0 falls back to `fallback`
// with a warning (as MAX_WORKERS does, after Gitea).
int positiveCount(Collector &c, QStringList *warnings, const Settings &s, const QStringList &sections,
                  const QString &key, int fallback, const QString &why)
{
    const qint64 raw = c.take(s.integer(sections, key, fallback), qint64(fallback));
    if (raw > std::numeric_limits<int>::max()) {
        c.fail(QStringLiteral("%1 = %2 is not valid; expected a number from 1 to %3")
                   .arg(s.location(sections, key))
                   .arg(raw)
                   .arg(std::numeric_limits<int>::max()));
        return fallback;
    }
    if (raw <= 0) {
        if (warnings)
            warnings->append(QStringLiteral("%1 = %2 falls back to the default %3%4")
                                 .arg(s.location(sections, key))
                                 .arg(raw)
                                 .arg(fallback)
                                 .arg(why));
        return fallback;
    }
    return int(raw);
}

}  // namespace

QString QueueSettings::setFullName() const
{
    const QString full = queueFullName() + setName;
    return full == queueFullName() ? full + QStringLiteral("_unique") : full;
}

QStringList EngineConfig::queueTypes()
{
    return {QStringLiteral("dummy"), QStringLiteral("immediate"), QStringLiteral("channel"), QStringLiteral("level"),
            QStringLiteral("redis")};
}

int EngineConfig::defaultMaxWorkers()
{
    return std::clamp(QThread::idealThreadCount() / 2, 1, 10);
}

QString EngineConfig::resolvePath(const QString &path) const
{
    if (path.isEmpty())
        return path;
    return QDir::cleanPath(QDir::isAbsolutePath(path) ? path : QDir(m_dataPath).filePath(path));
}

void EngineConfig::loadServer(Collector &c, const Settings &s, EngineConfig &config)
{
    const QStringList server{QStringLiteral("server")};
    ServerSettings &srv = config.server;
    srv.httpAddr = c.take(s.string(server, QStringLiteral("HTTP_ADDR"), srv.httpAddr), srv.httpAddr);
    srv.httpPort =
        clampToInt(c.take(s.integer(server, QStringLiteral("HTTP_PORT"), srv.httpPort), qint64(srv.httpPort)));
    if (srv.httpPort < 1 || srv.httpPort > 65535)
        c.fail(QStringLiteral("%1 = %2 is not valid; expected a port from 1 to 65535")
                   .arg(s.location(server, QStringLiteral("HTTP_PORT")))
                   .arg(srv.httpPort));
    srv.adminToken = c.take(s.string(server, QStringLiteral("ADMIN_TOKEN"), QString()), QString());
    if (!srv.adminToken.isEmpty()) {
        const bool spaced = std::any_of(srv.adminToken.begin(), srv.adminToken.end(), [](QChar ch) { return ch.isSpace(); });
        if (srv.adminToken.size() < 32 || spaced)
            c.fail(QStringLiteral("%1 is not valid; expected at least 32 characters without spaces (leave it empty to have one "
                                  "generated into the data directory)")
                       .arg(s.location(server, QStringLiteral("ADMIN_TOKEN"))));
    }
    srv.gracefulHammerTime = c.take(s.duration(server, QStringLiteral("GRACEFUL_HAMMER_TIME"), srv.gracefulHammerTime),
                                    srv.gracefulHammerTime);
    if (srv.gracefulHammerTime.count() < 0)
        c.fail(
            QStringLiteral("%1 must not be negative").arg(s.location(server, QStringLiteral("GRACEFUL_HAMMER_TIME"))));
    if (QHostAddress(srv.httpAddr).isNull() && srv.httpAddr != QLatin1String("localhost"))
        c.fail(QStringLiteral("%1 = %2 is not valid; expected an IP address (127.0.0.1, ::1, 0.0.0.0, …) or localhost")
                   .arg(s.location(server, QStringLiteral("HTTP_ADDR")), srv.httpAddr));
    srv.certFile = c.take(s.string(server, QStringLiteral("CERT_FILE"), QString()), QString());
    srv.keyFile = c.take(s.string(server, QStringLiteral("KEY_FILE"), QString()), QString());
    if (!srv.certFile.isEmpty())
        srv.certFile = config.resolvePath(srv.certFile);
    if (!srv.keyFile.isEmpty())
        srv.keyFile = config.resolvePath(srv.keyFile);
    if (srv.certFile.isEmpty() != srv.keyFile.isEmpty())
        c.fail(QStringLiteral("%1 and KEY_FILE go together: set both for TLS, or neither")
                   .arg(s.location(server, srv.certFile.isEmpty() ? QStringLiteral("KEY_FILE") : QStringLiteral("CERT_FILE"))));
    srv.allowInsecureRemote =
        c.take(s.boolean(server, QStringLiteral("ALLOW_INSECURE_REMOTE"), srv.allowInsecureRemote), srv.allowInsecureRemote);
    const QString origins = c.take(s.string(server, QStringLiteral("ALLOWED_ORIGINS"), QString()), QString());
    for (const QString &origin : origins.split(u',', Qt::SkipEmptyParts))
        srv.allowedOrigins.append(origin.trimmed());
    srv.maxBodySize = c.take(s.integer(server, QStringLiteral("MAX_BODY_SIZE"), srv.maxBodySize), srv.maxBodySize);
    if (srv.maxBodySize < 1024)
        c.fail(QStringLiteral("%1 = %2 is too small; expected at least 1024 bytes")
                   .arg(s.location(server, QStringLiteral("MAX_BODY_SIZE")))
                   .arg(srv.maxBodySize));
    srv.authFailureLimit = clampToInt(
        c.take(s.integer(server, QStringLiteral("AUTH_FAILURE_LIMIT"), srv.authFailureLimit), qint64(srv.authFailureLimit)));
    if (srv.authFailureLimit < 1)
        c.fail(QStringLiteral("%1 = %2 is not valid; expected at least 1")
                   .arg(s.location(server, QStringLiteral("AUTH_FAILURE_LIMIT")))
                   .arg(srv.authFailureLimit));
    for (auto [key, value] : {std::pair{QStringLiteral("HEADER_TIMEOUT"), &srv.headerTimeout},
                              std::pair{QStringLiteral("IDLE_TIMEOUT"), &srv.idleTimeout}}) {
        const auto taken = c.take(s.duration(server, key, *value), std::chrono::nanoseconds(*value));
        if (taken < std::chrono::milliseconds(100) || taken > std::chrono::hours(1))
            c.fail(QStringLiteral("%1 is not valid; expected a duration from 100ms to 1h").arg(s.location(server, key)));
        else
            *value = std::chrono::duration_cast<std::chrono::milliseconds>(taken);
    }
    for (auto [key, value, min, max] : {std::tuple{QStringLiteral("MAX_CONNECTIONS"), &srv.maxConnections, 8, 100000},
                                        std::tuple{QStringLiteral("MAX_CONNECTIONS_PER_ADDRESS"), &srv.maxConnectionsPerAddress, 1, 100000},
                                        std::tuple{QStringLiteral("RESERVED_CONNECTIONS"), &srv.reservedConnections, 0, 1000}}) {
        *value = clampToInt(c.take(s.integer(server, key, *value), qint64(*value)));
        if (*value < min || *value > max)
            c.fail(QStringLiteral("%1 = %2 is not valid; expected a number from %3 to %4")
                       .arg(s.location(server, key))
                       .arg(*value)
                       .arg(min)
                       .arg(max));
    }
    for (auto [key, value, min] : {std::tuple{QStringLiteral("MIN_BODY_RATE"), &srv.minBodyRate, qint64(0)},
                                   std::tuple{QStringLiteral("BODY_BUDGET"), &srv.bodyBudget, srv.maxBodySize}}) {
        *value = c.take(s.integer(server, key, *value), *value);
        if (*value < min)
            c.fail(QStringLiteral("%1 = %2 is too small; expected at least %3 bytes%4")
                       .arg(s.location(server, key))
                       .arg(*value)
                       .arg(min)
                       .arg(key == QLatin1String("BODY_BUDGET") ? QStringLiteral(" (MAX_BODY_SIZE)") : QString()));
    }
    // The audit log was a rotated file; it is a table of the store now (docs/security.md).
    for (const QString &key : {QStringLiteral("AUDIT_MAX_SIZE"), QStringLiteral("AUDIT_KEEP")})
        if (s.has(server, key))
            config.m_warnings.append(QStringLiteral("%1 is no longer used and is ignored: the audit log is kept in the database")
                                         .arg(s.location(server, key)));
}

void EngineConfig::loadCache(Collector &c, const Settings &s, EngineConfig &config)
{
    const QStringList cache{QStringLiteral("cache")};
    CacheSettings &cs = config.cache;
    cs.adapter = c.take(s.choice(cache, QStringLiteral("ADAPTER"), cs.adapter,
                                 {QStringLiteral("memory"), QStringLiteral("redis"), QStringLiteral("twoqueue")}),
                        cs.adapter);
    cs.host = c.take(s.string(cache, QStringLiteral("HOST"), QString()), QString());
    if (cs.adapter == QLatin1String("redis")) {
        checkRedisAddresses(c, s, cache, QStringLiteral("HOST"), cs.host);
        if (cs.host.isEmpty())
            cs.host = config.redis.connStr;
    }
    cs.intervalSeconds = clampToInt(
        c.take(s.integer(cache, QStringLiteral("INTERVAL"), cs.intervalSeconds), qint64(cs.intervalSeconds)));
    if (cs.intervalSeconds <= 0)
        c.fail(QStringLiteral("%1 = %2 is not valid; expected a positive number of seconds")
                   .arg(s.location(cache, QStringLiteral("INTERVAL")))
                   .arg(cs.intervalSeconds));
    cs.itemTtl = c.take(s.duration(cache, QStringLiteral("ITEM_TTL"), cs.itemTtl), cs.itemTtl);
    if (cs.itemTtl.count() < 0)
        c.fail(QStringLiteral("%1 must not be negative (0 disables the read-through helpers)")
                   .arg(s.location(cache, QStringLiteral("ITEM_TTL"))));
}

void EngineConfig::loadGlobalLock(Collector &c, const Settings &s, EngineConfig &config)
{
    const QStringList lock{QStringLiteral("global_lock")};
    GlobalLockSettings &gl = config.globalLock;
    gl.serviceType = c.take(s.choice(lock, QStringLiteral("SERVICE_TYPE"), gl.serviceType,
                                     {QStringLiteral("memory"), QStringLiteral("redis")}),
                            gl.serviceType);
    gl.serviceConnStr = c.take(s.string(lock, QStringLiteral("SERVICE_CONN_STR"), QString()), QString());
    if (gl.serviceType == QLatin1String("redis"))
        checkRedisAddresses(c, s, lock, QStringLiteral("SERVICE_CONN_STR"), gl.serviceConnStr, true);
    if (gl.serviceConnStr.isEmpty())
        gl.serviceConnStr = config.redis.connStr;
    gl.keyPrefix = c.take(s.string(lock, QStringLiteral("KEY_PREFIX"), gl.keyPrefix), gl.keyPrefix);
    gl.maxHoldTime = c.take(s.duration(lock, QStringLiteral("MAX_HOLD_TIME"), gl.maxHoldTime), gl.maxHoldTime);
    if (gl.maxHoldTime.count() < 0)
        c.fail(QStringLiteral("%1 must not be negative (0: no limit)")
                   .arg(s.location(lock, QStringLiteral("MAX_HOLD_TIME"))));
}

void EngineConfig::loadServices(Collector &c, const Settings &s, EngineConfig &config)
{
    // [webhook], [qos], [websocket], [database].
    const QStringList webhook{QStringLiteral("webhook")};
    WebhookSettings &wh = config.webhook;
    wh.deliverTimeoutSeconds =
        clampToInt(c.take(s.integer(webhook, QStringLiteral("DELIVER_TIMEOUT"), wh.deliverTimeoutSeconds),
                          qint64(wh.deliverTimeoutSeconds)));
    if (wh.deliverTimeoutSeconds <= 0)
        c.fail(QStringLiteral("%1 = %2 is not valid; expected a positive number of seconds")
                   .arg(s.location(webhook, QStringLiteral("DELIVER_TIMEOUT")))
                   .arg(wh.deliverTimeoutSeconds));
    wh.allowedHostList =
        c.take(s.list(webhook, QStringLiteral("ALLOWED_HOST_LIST"), wh.allowedHostList), wh.allowedHostList);
    wh.skipTlsVerify =
        c.take(s.boolean(webhook, QStringLiteral("SKIP_TLS_VERIFY"), wh.skipTlsVerify), wh.skipTlsVerify);
    wh.proxyUrl = c.take(s.string(webhook, QStringLiteral("PROXY_URL"), QString()), QString()).trimmed();
    if (!wh.proxyUrl.isEmpty()) {
        const QUrl proxy(wh.proxyUrl, QUrl::StrictMode);
        const QString scheme = proxy.scheme().toLower();
        if (!proxy.isValid() || proxy.host().isEmpty() || (scheme != QLatin1String("http") && scheme != QLatin1String("socks5")) ||
            !(proxy.path().isEmpty() || proxy.path() == QLatin1String("/")))
            c.fail(QStringLiteral("%1 = %2 is not valid; expected http://host[:port] or socks5://host[:port], optionally with "
                                  "user:password@ before the host")
                       .arg(s.location(webhook, QStringLiteral("PROXY_URL")), wh.proxyUrl));
    }
    wh.proxyHosts = c.take(s.list(webhook, QStringLiteral("PROXY_HOSTS"), {}), QStringList());
    for (const QString &host : std::as_const(wh.proxyHosts))
        if (host.isEmpty() || host.contains(QRegularExpression(QStringLiteral("[\\s/@]")))) {
            c.fail(QStringLiteral("%1 = %2 is not valid: \"%3\" is not a host name or glob (*.example.com; ** for every host)")
                       .arg(s.location(webhook, QStringLiteral("PROXY_HOSTS")), wh.proxyHosts.join(u','), host));
            break;
        }
    if (!wh.proxyHosts.isEmpty() && wh.proxyUrl.isEmpty())
        c.fail(QStringLiteral("%1 names hosts, but [webhook] PROXY_URL is empty; set the proxy, or remove PROXY_HOSTS")
                   .arg(s.location(webhook, QStringLiteral("PROXY_HOSTS"))));
    wh.pagingNum =
        clampToInt(c.take(s.integer(webhook, QStringLiteral("PAGING_NUM"), wh.pagingNum), qint64(wh.pagingNum)));
    if (wh.pagingNum <= 0)
        c.fail(QStringLiteral("%1 = %2 is not valid; expected a positive number")
                   .arg(s.location(webhook, QStringLiteral("PAGING_NUM")))
                   .arg(wh.pagingNum));
    wh.autoDisableAfter = clampToInt(
        c.take(s.integer(webhook, QStringLiteral("AUTO_DISABLE_AFTER"), wh.autoDisableAfter), qint64(wh.autoDisableAfter)));
    if (wh.autoDisableAfter < 0)
        c.fail(QStringLiteral("%1 = %2 is not valid; expected 0 (never) or a number of failed deliveries in a row")
                   .arg(s.location(webhook, QStringLiteral("AUTO_DISABLE_AFTER")))
                   .arg(wh.autoDisableAfter));
    wh.resendInterrupted =
        c.take(s.boolean(webhook, QStringLiteral("RESEND_INTERRUPTED"), wh.resendInterrupted), wh.resendInterrupted);
    const QStringList retries = c.take(s.list(webhook, QStringLiteral("RETRY_SCHEDULE"), {}), QStringList());
    for (const QString &delay : retries) {
        const Result<std::chrono::nanoseconds> parsed = parseDuration(delay);
        const auto ms = parsed ? std::chrono::duration_cast<std::chrono::milliseconds>(*parsed) : std::chrono::milliseconds(0);
        if (!parsed || ms < std::chrono::seconds(1) || ms > std::chrono::hours(24 * 7)) {
            c.fail(QStringLiteral("%1 = %2 is not valid: \"%3\" is not a delay from 1s to 168h; expected delays in Go syntax "
                                  "separated by commas (10s,1m,10m), at most %4, or nothing (no retry)")
                       .arg(s.location(webhook, QStringLiteral("RETRY_SCHEDULE")), retries.join(u','), delay)
                       .arg(WebhookSettings::kMaxRetries));
            break;
        }
        wh.retrySchedule.push_back(ms);
    }
    if (qsizetype(wh.retrySchedule.size()) > WebhookSettings::kMaxRetries)
        c.fail(QStringLiteral("%1 = %2 is not valid: %3 retries; at most %4")
                   .arg(s.location(webhook, QStringLiteral("RETRY_SCHEDULE")), retries.join(u','))
                   .arg(wh.retrySchedule.size())
                   .arg(WebhookSettings::kMaxRetries));

    const QStringList qos{QStringLiteral("qos")};
    QosSettings &q = config.qos;
    q.enabled = c.take(s.boolean(qos, QStringLiteral("ENABLED"), q.enabled), q.enabled);
    q.maxInflight = clampToInt(c.take(s.integer(qos, QStringLiteral("MAX_INFLIGHT"), 0), qint64(0)));
    if (q.maxInflight <= 0)
        q.maxInflight = 4 * std::max(1, QThread::idealThreadCount());
    q.maxWaiting =
        clampToInt(c.take(s.integer(qos, QStringLiteral("MAX_WAITING"), q.maxWaiting), qint64(q.maxWaiting)));
    if (q.maxWaiting < 0)
        c.fail(QStringLiteral("%1 = %2 is not valid; expected 0 or more")
                   .arg(s.location(qos, QStringLiteral("MAX_WAITING")))
                   .arg(q.maxWaiting));
    q.targetWaitTime = c.take(s.duration(qos, QStringLiteral("TARGET_WAIT_TIME"), q.targetWaitTime), q.targetWaitTime);
    if (q.targetWaitTime.count() <= 0)
        c.fail(QStringLiteral("%1 must be positive").arg(s.location(qos, QStringLiteral("TARGET_WAIT_TIME"))));

    config.websocket.pubsubType =
        c.take(s.choice({QStringLiteral("websocket")}, QStringLiteral("PUBSUB_TYPE"), config.websocket.pubsubType,
                        {QStringLiteral("memory"), QStringLiteral("redis")}),
               config.websocket.pubsubType);
    const QStringList websocket{QStringLiteral("websocket")};
    config.websocket.connStr = c.take(s.string(websocket, QStringLiteral("CONN_STR"), QString()), QString());
    if (config.websocket.pubsubType == QLatin1String("redis")) {
        checkRedisAddresses(c, s, websocket, QStringLiteral("CONN_STR"), config.websocket.connStr);
        if (config.websocket.connStr.isEmpty())
            config.websocket.connStr = config.redis.connStr.isEmpty() ? QStringLiteral("redis://127.0.0.1:6379/0")
                                                                      : config.redis.connStr;
    }

    const QStringList service{QStringLiteral("service")};
    config.service.autoWatchOnChanges = c.take(
        s.boolean(service, QStringLiteral("AUTO_WATCH_ON_CHANGES"), config.service.autoWatchOnChanges),
        config.service.autoWatchOnChanges);
    config.service.enableNotifyMail = c.take(
        s.boolean(service, QStringLiteral("ENABLE_NOTIFY_MAIL"), config.service.enableNotifyMail), config.service.enableNotifyMail);

    config.eventSources.push_back({QStringLiteral("default"), QString()});
    for (const QString &name : s.subsectionNames(QStringLiteral("event_source."))) {
        const QStringList section{QStringLiteral("event_source.") + name};
        EventSourceSettings source;
        source.name = name;
        source.secret = c.take(s.string(section, QStringLiteral("SECRET"), QString()), QString());
        const auto window = c.take(s.duration(section, QStringLiteral("REPLAY_WINDOW"), source.replayWindow),
                                   std::chrono::nanoseconds(source.replayWindow));
        if (window < std::chrono::seconds(1) || window > std::chrono::hours(24))
            c.fail(QStringLiteral("%1 is not valid; expected a duration from 1s to 24h").arg(s.location(section, QStringLiteral("REPLAY_WINDOW"))));
        else
            source.replayWindow = std::chrono::duration_cast<std::chrono::milliseconds>(window);
        source.refuseReplays = c.take(s.boolean(section, QStringLiteral("REFUSE_REPLAYS"), false), false);
        if (name.isEmpty() || !QRegularExpression(QStringLiteral("^[A-Za-z0-9_.-]{1,64}$")).match(name).hasMatch()) {
            c.fail(QStringLiteral("%1: [event_source.%2] is not a valid source name; use 1 to 64 letters, digits, '_', '.' or '-'")
                       .arg(s.fileName(), name));
            continue;
        }
        if (name == QLatin1String("default"))
            config.eventSources.front() = std::move(source);
        else
            config.eventSources.push_back(std::move(source));
    }

    const QStringList db{QStringLiteral("database")};
    DatabaseSettings &d = config.database;
    d.type =
        c.take(s.choice(db, QStringLiteral("DB_TYPE"), d.type, {QStringLiteral("sqlite3"), QStringLiteral("postgres")},
                        {{QStringLiteral("sqlite"), QStringLiteral("sqlite3")},
                         {QStringLiteral("postgresql"), QStringLiteral("postgres")}}),
               d.type);
    d.path = config.resolvePath(
        c.take(s.string(db, QStringLiteral("PATH"), QStringLiteral("data/switchyard.db")), QString()));
    d.host = c.take(s.string(db, QStringLiteral("HOST"), d.host), d.host);
    d.name = c.take(s.string(db, QStringLiteral("NAME"), d.name), d.name);
    d.user = c.take(s.string(db, QStringLiteral("USER"), d.user), d.user);
    d.passwd = c.take(s.string(db, QStringLiteral("PASSWD"), d.passwd), d.passwd);
    d.sslMode = c.take(s.choice(db, QStringLiteral("SSL_MODE"), d.sslMode,
                                {QStringLiteral("disable"), QStringLiteral("allow"), QStringLiteral("prefer"), QStringLiteral("require"),
                                 QStringLiteral("verify-ca"), QStringLiteral("verify-full")}),
                       d.sslMode);
    for (auto [key, value] : {std::pair{QStringLiteral("INSTANCE_HEARTBEAT"), &d.instanceHeartbeat},
                              std::pair{QStringLiteral("INSTANCE_GRACE"), &d.instanceGrace}}) {
        const auto taken = c.take(s.duration(db, key, *value), std::chrono::nanoseconds(*value));
        if (taken < std::chrono::milliseconds(50) || taken > std::chrono::hours(1))
            c.fail(QStringLiteral("%1 is not valid; expected a duration from 50ms to 1h").arg(s.location(db, key)));
        else
            *value = std::chrono::duration_cast<std::chrono::milliseconds>(taken);
    }
    if (d.instanceGrace < 2 * d.instanceHeartbeat)
        c.fail(QStringLiteral("%1 = %2 ms is not valid; expected at least twice [database] INSTANCE_HEARTBEAT (%3 ms), or a live "
                              "instance whose heartbeat is a little late is declared lost")
                   .arg(s.location(db, QStringLiteral("INSTANCE_GRACE")))
                   .arg(d.instanceGrace.count())
                   .arg(d.instanceHeartbeat.count()));

    const QStringList security{QStringLiteral("security")};
    config.security.secretKey = c.take(s.string(security, QStringLiteral("SECRET_KEY"), QString()), QString()).trimmed();
    config.webhook.disableWebhooks =
        c.take(s.boolean(security, QStringLiteral("DISABLE_WEBHOOKS"), config.webhook.disableWebhooks), config.webhook.disableWebhooks);
    if (d.type == QLatin1String("postgres") && config.security.secretKey.isEmpty())
        c.fail(QStringLiteral("%1 = postgres needs [security] SECRET_KEY: every instance sharing the database must open the "
                              "secrets it seals (a webhook's Authorization header); set the same long random value on each")
                   .arg(s.location(db, QStringLiteral("DB_TYPE"))));
}

QStringList MailerSettings::protocols()
{
    return {QStringLiteral("smtp"), QStringLiteral("smtps"), QStringLiteral("smtp+starttls"), QStringLiteral("smtp+unix"),
            QStringLiteral("sendmail"), QStringLiteral("dummy")};
}

QString MailerSettings::serverLabel() const
{
    if (protocol == QLatin1String("sendmail"))
        return sendmailPath;
    if (protocol == QLatin1String("dummy"))
        return QString();
    if (protocol == QLatin1String("smtp+unix"))
        return smtpAddr;
    return QStringLiteral("%1:%2").arg(smtpAddr.contains(u':') ? u'[' + smtpAddr + u']' : smtpAddr).arg(smtpPort);
}

void EngineConfig::loadMailer(Collector &c, const Settings &s, EngineConfig &config)
{
    const QStringList root{QString()};
    config.appName = c.take(s.string(root, QStringLiteral("APP_NAME"), config.appName), config.appName);
    const QStringList server{QStringLiteral("server")};
    config.server.domain = c.take(s.string(server, QStringLiteral("DOMAIN"), config.server.domain), config.server.domain).trimmed();
    if (config.server.domain.isEmpty() || config.server.domain.contains(QRegularExpression(QStringLiteral("[\\s<>@/]"))))
        c.fail(QStringLiteral("%1 = \"%2\" is not valid; expected the forge's host name, e.g. git.example.com")
                   .arg(s.location(server, QStringLiteral("DOMAIN")), config.server.domain));

    const QStringList mailer{QStringLiteral("mailer")};
    MailerSettings &m = config.mailer;
    const auto text = [&](const char *key, const QString &fallback) {
        return c.take(s.string(mailer, QLatin1String(key), fallback), fallback);
    };
    const auto flag = [&](const char *key, bool fallback) { return c.take(s.boolean(mailer, QLatin1String(key), fallback), fallback); };
    m.enabled = flag("ENABLED", m.enabled);
    m.name = text("NAME", m.name);
    m.from = text("FROM", m.from).trimmed();
    m.envelopeFrom = text("ENVELOPE_FROM", m.envelopeFrom).trimmed();
    m.smtpAddr = text("SMTP_ADDR", m.smtpAddr).trimmed();
    m.user = text("USER", m.user);
    m.passwd = text("PASSWD", m.passwd);
    m.enableHelo = flag("ENABLE_HELO", m.enableHelo);
    m.heloHostname = text("HELO_HOSTNAME", m.heloHostname).trimmed();
    m.forceTrustServerCert = flag("FORCE_TRUST_SERVER_CERT", m.forceTrustServerCert);
    m.sendmailPath = text("SENDMAIL_PATH", m.sendmailPath).trimmed();
    const QString args = text("SENDMAIL_ARGS", QString());
    if (const std::optional<QStringList> words = shellWords(args))
        m.sendmailArgs = *words;
    else
        c.fail(QStringLiteral("%1 = %2 is not valid: a quote is not closed; quote as a shell would ('two words' or \"two words\")")
                   .arg(s.location(mailer, QStringLiteral("SENDMAIL_ARGS")), args));
    const auto timeout = c.take(s.duration(mailer, QStringLiteral("SENDMAIL_TIMEOUT"), m.sendmailTimeout), std::chrono::nanoseconds(m.sendmailTimeout));
    m.sendmailTimeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
    if (m.sendmailTimeout < std::chrono::seconds(1))
        c.fail(QStringLiteral("%1 is not valid; expected a duration of at least 1s (5m by default)")
                   .arg(s.location(mailer, QStringLiteral("SENDMAIL_TIMEOUT"))));
    m.fromDisplayNameFormat = text("FROM_DISPLAY_NAME_FORMAT", m.fromDisplayNameFormat);
    // Gitea's Go-template spelling, {{ .DisplayName }}, means the same here.
    m.fromDisplayNameFormat.replace(QRegularExpression(QStringLiteral("\\{\\{\\s*\\.?(DisplayName|AppName|Domain)\\s*\\}\\}")),
                                    QStringLiteral("{{\\1}}"));
    static const QRegularExpression unknownField(QStringLiteral("\\{\\{(?!(DisplayName|AppName|Domain)\\}\\})[^}]*\\}\\}"));
    if (const QRegularExpressionMatch bad = unknownField.match(m.fromDisplayNameFormat); bad.hasMatch())
        c.fail(QStringLiteral("%1: %2 is not a known field; expected {{DisplayName}}, {{AppName}} or {{Domain}}")
                   .arg(s.location(mailer, QStringLiteral("FROM_DISPLAY_NAME_FORMAT")), bad.captured(0)));
    m.sendAsPlainText = flag("SEND_AS_PLAIN_TEXT", m.sendAsPlainText);
    m.subjectPrefix = text("SUBJECT_PREFIX", m.subjectPrefix);

    // The protocol and the port, each from the other when only one is given (Gitea's rules).
    const bool portSet = s.has(mailer, QStringLiteral("SMTP_PORT"));
    const qint64 port = c.take(s.integer(mailer, QStringLiteral("SMTP_PORT"), 0), qint64(0));
    if (portSet && (port < 1 || port > 65535))
        c.fail(QStringLiteral("%1 = %2 is not valid; expected a port from 1 to 65535").arg(s.location(mailer, QStringLiteral("SMTP_PORT"))).arg(port));
    if (s.has(mailer, QStringLiteral("PROTOCOL"))) {
        m.protocol = c.take(s.choice(mailer, QStringLiteral("PROTOCOL"), m.protocol, MailerSettings::protocols()), m.protocol);
    } else if (m.smtpAddr.startsWith(u'/')) {
        m.protocol = QStringLiteral("smtp+unix");
    } else {
        m.protocol = port == 465 ? QStringLiteral("smtps") : port == 587 ? QStringLiteral("smtp+starttls") : QStringLiteral("smtp");
    }
    if (portSet)
        m.smtpPort = int(port);
    else
        m.smtpPort = m.protocol == QLatin1String("smtps") ? 465 : m.protocol == QLatin1String("smtp+starttls") ? 587 : 25;

    for (const IniSection &section : s.ini().sections())
        if (section.name == QLatin1String("mailer.override_header"))
            for (const IniEntry &entry : section.entries) {
                if (!QRegularExpression(QStringLiteral("^[A-Za-z0-9-]{1,76}$")).match(entry.key).hasMatch()) {
                    c.fail(QStringLiteral("%1:%2: [mailer.override_header] %3 is not a header name; expected letters, digits and '-'")
                               .arg(s.fileName())
                               .arg(entry.line)
                               .arg(entry.key));
                    continue;
                }
                static const QStringList fixed{QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("date"), QStringLiteral("mime-version"),
                                               QStringLiteral("content-type"), QStringLiteral("content-transfer-encoding")};
                if (fixed.contains(entry.key.toLower())) {
                    c.fail(QStringLiteral("%1:%2: [mailer.override_header] %3 cannot be replaced (the sender, the recipient, the date and the "
                                          "MIME structure are the mailer's); set [mailer] FROM for the sender")
                               .arg(s.fileName())
                               .arg(entry.line)
                               .arg(entry.key));
                    continue;
                }
                QStringList values;
                for (const QString &v : entry.value.split(u',', Qt::SkipEmptyParts))
                    values << v.trimmed();
                m.overrideHeaders.emplace_back(entry.key, values);
            }

    if (!m.enabled)
        return;
    // What a mailer that is on cannot do without.
    if (m.from.isEmpty()) {
        c.fail(QStringLiteral("[mailer] ENABLED = true needs [mailer] FROM, the sender's address (e.g. \"Gitea <gitea@example.com>\")"));
    } else if (const Result<MailAddress> from = parseMailAddress(m.from); !from) {
        c.fail(QStringLiteral("%1 is not valid: %2").arg(s.location(mailer, QStringLiteral("FROM")), from.status().message()));
    } else {
        m.fromAddress = from->address;
        if (m.name.isEmpty() && !from->name.isEmpty())
            m.name = from->name;
    }
    if (!m.envelopeFrom.isEmpty() && m.envelopeFrom != QLatin1String("<>"))
        if (const Result<MailAddress> envelope = parseMailAddress(m.envelopeFrom); !envelope || !envelope->name.isEmpty())
            c.fail(QStringLiteral("%1 = %2 is not valid; expected an address alone, or <> for an empty envelope sender")
                       .arg(s.location(mailer, QStringLiteral("ENVELOPE_FROM")), m.envelopeFrom));
    const bool smtp = m.protocol.startsWith(QLatin1String("smtp"));
    if (smtp && m.smtpAddr.isEmpty())
        c.fail(QStringLiteral("[mailer] PROTOCOL = %1 needs [mailer] SMTP_ADDR (%2)")
                   .arg(m.protocol, m.protocol == QLatin1String("smtp+unix") ? QStringLiteral("the socket's path") : QStringLiteral("the server's host name")));
    if (m.protocol == QLatin1String("smtp+unix") && !m.smtpAddr.isEmpty() && !m.smtpAddr.startsWith(u'/'))
        c.fail(QStringLiteral("%1 = %2 is not valid for smtp+unix; expected the absolute path of the server's socket")
                   .arg(s.location(mailer, QStringLiteral("SMTP_ADDR")), m.smtpAddr));
    if (m.protocol == QLatin1String("sendmail") && m.sendmailPath.isEmpty())
        c.fail(QStringLiteral("[mailer] PROTOCOL = sendmail needs [mailer] SENDMAIL_PATH"));
}

void EngineConfig::loadQueues(Collector &c)
{
    // Queues: the common section and every named one, so a bad value anywhere stops start-up.
    QStringList queueNames = configuredQueueNames();
    if (queueNames.isEmpty())
        queueNames.append(QStringLiteral("common"));
    for (const QString &name : std::as_const(queueNames)) {
        QStringList findings;
        Result<QueueSettings> queue = readQueueSettings(name, &findings);
        for (const QString &line : std::as_const(findings)) {
            if (!m_warnings.contains(line))  // [queue] values repeat for every named queue
                m_warnings.append(line);
        }
        if (!queue) {
            for (const QString &line : queue.status().message().split(QLatin1Char('\n'))) {
                if (!c.errors.contains(line))
                    c.errors.append(line);
            }
        }
    }
}

Result<EngineConfig> EngineConfig::load(Settings settings, const QString &dataPathOverride,
                                        const QString &defaultDataPath)
{
    EngineConfig config;
    config.m_settings = std::move(settings);
    const Settings &s = config.m_settings;
    Collector c;

    for (const DeprecatedKey &old : kDeprecatedKeys) {
        const QStringList section{QLatin1String(old.section)};
        const QString key = QLatin1String(old.key);
        if (s.has(section, key))
            c.fail(QStringLiteral("%1 is no longer supported; use %2 instead")
                       .arg(s.location(section, key), QLatin1String(old.replacement)));
    }

    for (const IniSection &section : s.ini().sections()) {
        const QString owner = section.name.startsWith(QLatin1String("queue."))          ? QStringLiteral("queue")
                              : section.name.startsWith(QLatin1String("event_source.")) ? QStringLiteral("event_source")
                                                                                        : section.name;
        const auto known = knownKeys().constFind(owner);
        if (known == knownKeys().cend())
            continue;
        for (const IniEntry &entry : section.entries) {
            if (!known->contains(entry.key.toUpper()))
                config.m_warnings.append(QStringLiteral("%1:%2: unknown key [%3] %4 is ignored; known keys: %5")
                                             .arg(s.fileName())
                                             .arg(entry.line)
                                             .arg(section.name, entry.key, known->join(QStringLiteral(", "))));
        }
    }
    config.m_warnings.append(s.ini().warnings());

    const QStringList server{QStringLiteral("server")};
    if (!dataPathOverride.isEmpty())
        config.m_dataPath = QDir::cleanPath(QDir(dataPathOverride).absolutePath());
    else {
        const QString fromFile = c.take(s.string(server, QStringLiteral("APP_DATA_PATH"), QString()), QString());
        config.m_dataPath = QDir::cleanPath(QDir(fromFile.isEmpty() ? defaultDataPath : fromFile).absolutePath());
    }
    loadServer(c, s, config);
    config.redis.connStr =
        c.take(s.string({QStringLiteral("redis")}, QStringLiteral("CONN_STR"), QString()), QString());
    checkRedisAddresses(c, s, {QStringLiteral("redis")}, QStringLiteral("CONN_STR"), config.redis.connStr);

    loadCache(c, s, config);
    loadGlobalLock(c, s, config);
    loadServices(c, s, config);
    loadMailer(c, s, config);
    config.loadQueues(c);
    if (!c.errors.isEmpty())
        return Status::invalidArgument(c.errors.join(QLatin1Char('\n')));
    return config;
}

Result<QueueSettings> EngineConfig::queueSettings(const QString &name) const
{
    return readQueueSettings(name, nullptr);
}

Result<QueueSettings> EngineConfig::readQueueSettings(const QString &name, QStringList *warnings) const
{
    const Settings &s = m_settings;
    const QStringList sections{QStringLiteral("queue.") + name.toLower(), QStringLiteral("queue")};
    Collector c;
    QueueSettings q;
    q.name = name;
    q.type = c.take(s.choice(sections, QStringLiteral("TYPE"), QStringLiteral("level"), queueTypes(),
                             {{QStringLiteral("leveldb"), QStringLiteral("level")},
                              {QStringLiteral("levelqueue"), QStringLiteral("level")},
                              {QStringLiteral("persistable-channel"), QStringLiteral("level")}}),
                    QStringLiteral("level"));
    q.dataDir = resolvePath(c.take(s.string(sections, QStringLiteral("DATADIR"), QStringLiteral("queues/common")),
                                   QStringLiteral("queues/common")));
    q.connStr = c.take(s.string(sections, QStringLiteral("CONN_STR"), QString()), QString());
    if (q.type == QLatin1String("redis")) {
        checkRedisAddresses(c, s, sections, QStringLiteral("CONN_STR"), q.connStr);
        if (q.connStr.isEmpty())
            q.connStr = redis.connStr.isEmpty() ? QStringLiteral("redis://127.0.0.1:6379/0") : redis.connStr;
    }

    q.length = positiveCount(c, warnings, s, sections, QStringLiteral("LENGTH"), q.length, QString());
    q.queueName = c.take(s.string(sections, QStringLiteral("QUEUE_NAME"), q.queueName), q.queueName);
    q.setName = c.take(s.string(sections, QStringLiteral("SET_NAME"), q.setName), q.setName);
    q.batchLength = positiveCount(c, warnings, s, sections, QStringLiteral("BATCH_LENGTH"), q.batchLength, QString());
    q.maxWorkers = positiveCount(c, warnings, s, sections, QStringLiteral("MAX_WORKERS"), defaultMaxWorkers(),
                                 QStringLiteral(" (as in Gitea); an unbounded pool can be set at run time"));
    q.sync = c.take(s.boolean(sections, QStringLiteral("SYNC"), false), false);

    if (!c.errors.isEmpty())
        return Status::invalidArgument(c.errors.join(QLatin1Char('\n')));
    return q;
}

const EventSourceSettings *EngineConfig::eventSource(const QString &name) const
{
    for (const EventSourceSettings &source : eventSources)
        if (source.name == name)
            return &source;
    return nullptr;
}

}  // namespace Switchyard
