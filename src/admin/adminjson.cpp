#include "adminjson.h"

#include <QJsonDocument>

namespace Switchyard::Admin::Json {

namespace {

QString isoTime(const QDateTime &value)
{
    return value.toOffsetFromUtc(value.offsetFromUtc()).toString(Qt::ISODateWithMs);
}

// Reads one JSON object for a decoder and keeps the first problem, with the field's path.
class Reader
{
public:
    Reader(const QJsonValue &json, QString path) : m_path(std::move(path))
    {
        if (!json.isObject())
            fail(QString(), QStringLiteral("expected an object"));
        m_object = json.toObject();
    }

    QString string(const char *key, bool optional = false)
    {
        const QJsonValue v = take(key, QJsonValue::String, optional);
        return v.toString();
    }
    qint64 integer(const char *key, bool optional = false, qint64 fallback = 0)
    {
        const QJsonValue v = take(key, QJsonValue::Double, optional);
        if (v.isUndefined())
            return fallback;
        const double d = v.toDouble();
        if (d != double(qint64(d)))
            fail(QLatin1String(key), QStringLiteral("expected a whole number"));
        return qint64(d);
    }
    double number(const char *key, bool optional = false)
    {
        return take(key, QJsonValue::Double, optional).toDouble();
    }
    bool boolean(const char *key, bool optional = false)
    {
        return take(key, QJsonValue::Bool, optional).toBool();
    }
    // An RFC 3339 time or null (invalid).
    QDateTime time(const char *key, bool optional = false)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isNull() || (optional && v.isUndefined()))
            return {};
        if (!v.isString()) {
            fail(QLatin1String(key), v.isUndefined() ? QStringLiteral("missing") : QStringLiteral("expected a time"));
            return {};
        }
        QDateTime parsed = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
        if (!parsed.isValid())
            fail(QLatin1String(key), QStringLiteral("\"%1\" is not an RFC 3339 time").arg(v.toString()));
        return parsed.toUTC();
    }
    Reader object(const char *key, bool optional = false)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        Reader nested(optional && v.isUndefined() ? QJsonValue(QJsonObject()) : v, field(QLatin1String(key)));
        if (!nested.m_status.isOk() && m_status.isOk())
            m_status = nested.m_status;
        return nested;
    }
    const QJsonObject &raw() const { return m_object; }
    bool has(const char *key) const { return m_object.contains(QLatin1String(key)) && !m_object.value(QLatin1String(key)).isNull(); }

    void absorb(const Reader &nested)
    {
        if (m_status.isOk() && !nested.m_status.isOk())
            m_status = nested.m_status;
    }
    const Status &status() const { return m_status; }

private:
    QString field(const QString &key) const { return m_path.isEmpty() ? key : key.isEmpty() ? m_path : m_path + u'.' + key; }
    void fail(const QString &key, const QString &message)
    {
        if (m_status.isOk())
            m_status = Status::invalidArgument(QStringLiteral("%1: %2").arg(field(key).isEmpty() ? QStringLiteral("body") : field(key), message));
    }
    QJsonValue take(const char *key, QJsonValue::Type type, bool optional)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull()) {
            if (!optional)
                fail(QLatin1String(key), QStringLiteral("missing"));
            return QJsonValue(QJsonValue::Undefined);
        }
        if (v.type() != type) {
            static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
            const int index = int(type) >= 0 && int(type) <= 5 ? int(type) : 0;
            fail(QLatin1String(key), QStringLiteral("expected %1").arg(QLatin1String(names[index])));
            return QJsonValue(QJsonValue::Undefined);
        }
        return v;
    }

    QString m_path;
    QJsonObject m_object;
    Status m_status;
};

template<typename T, typename Decode>
Result<std::vector<T>> listFromJson(const QJsonValue &json, const QString &name, Decode decode)
{
    if (!json.isArray())
        return Status::invalidArgument(QStringLiteral("%1: expected an array").arg(name));
    std::vector<T> values;
    const QJsonArray array = json.toArray();
    values.reserve(std::size_t(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i) {
        Reader reader(array.at(i), QStringLiteral("%1[%2]").arg(name).arg(i));
        T value = decode(reader);
        if (!reader.status())
            return reader.status();
        values.push_back(std::move(value));
    }
    return values;
}

template<typename T, typename Decode>
Result<T> oneFromJson(const QJsonValue &json, const QString &name, Decode decode)
{
    Reader reader(json, name);
    T value = decode(reader);
    if (!reader.status())
        return reader.status();
    return value;
}

QJsonObject runsByStatus(const std::map<QString, qint64> &runs)
{
    QJsonObject o;
    for (const auto &[status, count] : runs)
        o.insert(status, count);
    return o;
}

SelfCheckItem decodeSelfCheck(Reader &r)
{
    return {r.string("name"), r.boolean("ok"), r.string("message"), r.integer("elapsed_ms")};
}

ProcessRow decodeProcess(Reader &r)
{
    ProcessRow p;
    p.pid = r.integer("pid");
    p.parentPid = r.integer("parent_pid");
    const QString type = r.string("type");
    p.type = type == QLatin1String("system") ? ProcessType::System
             : type == QLatin1String("request") ? ProcessType::Request
                                                : ProcessType::Normal;
    p.description = r.string("description");
    p.startedAt = r.time("started_at");
    p.cancellable = r.boolean("cancellable", true);
    return p;
}

NoticeRow decodeNotice(Reader &r)
{
    NoticeRow n;
    n.id = r.integer("id");
    n.type = r.string("type");
    n.description = r.string("description");
    n.createdAt = r.time("created_at");
    return n;
}

QueueRow decodeQueue(Reader &r)
{
    QueueRow q;
    q.qid = r.integer("qid");
    q.name = r.string("name");
    q.type = r.string("type");
    q.unique = r.boolean("unique");
    q.length = r.integer("length");
    q.lengthSampledAt = r.time("length_sampled_at", true);
    q.batchLength = int(r.integer("batch_length"));
    q.workers = int(r.integer("workers"));
    q.activeWorkers = int(r.integer("active_workers"));
    q.maxWorkers = int(r.integer("max_workers"));
    q.capacity = int(r.integer("capacity"));
    q.paused = r.boolean("paused", true);
    q.pushedTotal = r.integer("pushed_total");
    q.handledTotal = r.integer("handled_total");
    q.failedTotal = r.integer("failed_total");
    q.corruptTotal = r.integer("corrupt_total", true);
    q.ackFailedTotal = r.integer("ack_failed_total", true);
    return q;
}

CronRow decodeCron(Reader &r)
{
    CronRow c;
    c.name = r.string("name");
    c.title = r.string("title");
    c.schedule = r.string("schedule");
    c.enabled = r.boolean("enabled");
    c.runAtStart = r.boolean("run_at_start");
    c.noticeOnSuccess = r.boolean("notice_on_success");
    c.running = r.boolean("running");
    c.paused = r.boolean("paused", true);
    c.next = r.time("next");
    c.prev = r.time("prev");
    c.status = r.string("status");
    c.message = r.string("message");
    c.execTimes = r.integer("exec_times");
    c.lastDoer = r.string("last_doer");
    const QJsonObject runs = r.object("runs_by_status", true).raw();
    for (auto it = runs.begin(); it != runs.end(); ++it)
        c.runsByStatus[it.key()] = it.value().toInteger();
    return c;
}

CronRun decodeCronRun(Reader &r)
{
    CronRun run;
    run.id = r.integer("id");
    run.instanceId = r.string("instance_id");
    run.trigger = r.string("trigger");
    run.doer = r.string("doer");
    run.startedAt = r.time("started_at");
    run.durationMs = r.integer("duration_ms");
    run.status = r.string("status");
    run.message = r.string("message");
    run.traceId = r.string("trace_id", true);
    return run;
}

LockRow decodeLock(Reader &r)
{
    LockRow l;
    l.key = r.string("key");
    l.backend = r.string("backend");
    l.owner = r.string("owner");
    l.tokenPrefix = r.string("token_prefix");
    l.acquiredAt = r.time("acquired_at");
    l.ttlMs = r.integer("ttl_ms");
    l.extensions = int(r.integer("extensions"));
    l.fencingToken = r.integer("fencing_token");
    l.waiters = int(r.integer("waiters"));
    return l;
}

} // namespace

QJsonValue time(const QDateTime &value)
{
    return value.isValid() ? QJsonValue(isoTime(value)) : QJsonValue(QJsonValue::Null);
}

QJsonObject toJson(const InstanceInfo &v)
{
    QJsonObject types;
    for (auto it = v.queueTypes.begin(); it != v.queueTypes.end(); ++it)
        types.insert(it.key(), it.value());
    return {{QStringLiteral("version"), v.version},
            {QStringLiteral("instance_id"), v.instanceId},
            {QStringLiteral("started_at"), time(v.startedAt)},
            {QStringLiteral("config_path"), v.configPath},
            {QStringLiteral("data_path"), v.dataPath},
            {QStringLiteral("db_type"), v.dbType},
            {QStringLiteral("queue_types"), types},
            {QStringLiteral("cache_adapter"), v.cacheAdapter},
            {QStringLiteral("lock_service"), v.lockService},
            {QStringLiteral("pubsub_type"), v.pubsubType}};
}

QJsonObject toJson(const SelfCheckItem &v)
{
    return {{QStringLiteral("name"), v.name},
            {QStringLiteral("ok"), v.ok},
            {QStringLiteral("message"), v.message},
            {QStringLiteral("elapsed_ms"), v.elapsedMs}};
}

QJsonObject toJson(const ProcessRow &v)
{
    return {{QStringLiteral("pid"), v.pid},
            {QStringLiteral("parent_pid"), v.parentPid},
            {QStringLiteral("type"), processTypeName(v.type)},
            {QStringLiteral("description"), v.description},
            {QStringLiteral("started_at"), time(v.startedAt)},
            {QStringLiteral("cancellable"), v.cancellable}};
}

QJsonObject toJson(const NoticeRow &v)
{
    return {{QStringLiteral("id"), v.id},
            {QStringLiteral("type"), v.type},
            {QStringLiteral("description"), v.description},
            {QStringLiteral("created_at"), time(v.createdAt)}};
}

QJsonObject toJson(const QueueRow &v)
{
    return {{QStringLiteral("qid"), v.qid},
            {QStringLiteral("name"), v.name},
            {QStringLiteral("type"), v.type},
            {QStringLiteral("unique"), v.unique},
            {QStringLiteral("length"), v.length},
            {QStringLiteral("length_sampled_at"), time(v.lengthSampledAt)},
            {QStringLiteral("batch_length"), v.batchLength},
            {QStringLiteral("workers"), v.workers},
            {QStringLiteral("active_workers"), v.activeWorkers},
            {QStringLiteral("max_workers"), v.maxWorkers},
            {QStringLiteral("capacity"), v.capacity},
            {QStringLiteral("paused"), v.paused},
            {QStringLiteral("pushed_total"), v.pushedTotal},
            {QStringLiteral("handled_total"), v.handledTotal},
            {QStringLiteral("failed_total"), v.failedTotal},
            {QStringLiteral("corrupt_total"), v.corruptTotal},
            {QStringLiteral("ack_failed_total"), v.ackFailedTotal}};
}

QJsonObject toJson(const CronRow &v)
{
    return {{QStringLiteral("name"), v.name},
            {QStringLiteral("title"), v.title},
            {QStringLiteral("schedule"), v.schedule},
            {QStringLiteral("enabled"), v.enabled},
            {QStringLiteral("run_at_start"), v.runAtStart},
            {QStringLiteral("notice_on_success"), v.noticeOnSuccess},
            {QStringLiteral("running"), v.running},
            {QStringLiteral("paused"), v.paused},
            {QStringLiteral("next"), time(v.next)},
            {QStringLiteral("prev"), time(v.prev)},
            {QStringLiteral("status"), v.status},
            {QStringLiteral("message"), v.message},
            {QStringLiteral("exec_times"), v.execTimes},
            {QStringLiteral("last_doer"), v.lastDoer},
            {QStringLiteral("runs_by_status"), runsByStatus(v.runsByStatus)}};
}

QJsonObject toJson(const CronRun &v)
{
    return {{QStringLiteral("id"), v.id},
            {QStringLiteral("instance_id"), v.instanceId},
            {QStringLiteral("trigger"), v.trigger},
            {QStringLiteral("doer"), v.doer},
            {QStringLiteral("started_at"), time(v.startedAt)},
            {QStringLiteral("duration_ms"), v.durationMs},
            {QStringLiteral("status"), v.status},
            {QStringLiteral("message"), v.message},
            {QStringLiteral("trace_id"), v.traceId}};
}

QJsonObject toJson(const LockRow &v)
{
    return {{QStringLiteral("key"), v.key},
            {QStringLiteral("backend"), v.backend},
            {QStringLiteral("owner"), v.owner},
            {QStringLiteral("token_prefix"), v.tokenPrefix},
            {QStringLiteral("acquired_at"), time(v.acquiredAt)},
            {QStringLiteral("ttl_ms"), v.ttlMs},
            {QStringLiteral("extensions"), v.extensions},
            {QStringLiteral("fencing_token"), v.fencingToken},
            {QStringLiteral("waiters"), v.waiters}};
}

QJsonObject toJson(const CacheInfo &v)
{
    QJsonObject o{{QStringLiteral("adapter"), v.adapter},
                  {QStringLiteral("host"), v.host},
                  {QStringLiteral("ttl_ms"), v.ttlMs}};
    if (v.items >= 0)
        o.insert(QStringLiteral("items"), v.items);
    return o;
}

QJsonObject toJson(const CacheStats &v)
{
    QJsonObject o{{QStringLiteral("adapter"), v.adapter},
                  {QStringLiteral("hits"), v.hits},
                  {QStringLiteral("misses"), v.misses},
                  {QStringLiteral("evictions"), v.evictions},
                  {QStringLiteral("errors"), v.errors},
                  {QStringLiteral("latency_ms"),
                   QJsonObject{{QStringLiteral("p50"), v.latencyP50Ms}, {QStringLiteral("p99"), v.latencyP99Ms}}}};
    if (v.items >= 0)
        o.insert(QStringLiteral("items"), v.items);
    if (v.twoQueue)
        o.insert(QStringLiteral("twoqueue"), QJsonObject{{QStringLiteral("recent"), v.twoQueue->recent},
                                                         {QStringLiteral("frequent"), v.twoQueue->frequent},
                                                         {QStringLiteral("ghost"), v.twoQueue->ghost},
                                                         {QStringLiteral("capacity"), v.twoQueue->capacity}});
    return o;
}

QJsonObject toJson(const CacheTest &v)
{
    QJsonObject o{{QStringLiteral("ok"), v.ok},
                  {QStringLiteral("elapsed_ms"), v.elapsedMs},
                  {QStringLiteral("slow"), v.slow},
                  {QStringLiteral("threshold_ms"), v.thresholdMs}};
    if (!v.error.isEmpty())
        o.insert(QStringLiteral("error"), v.error);
    return o;
}

QJsonObject toJson(const QosStats &v)
{
    return {{QStringLiteral("enabled"), v.enabled},
            {QStringLiteral("max_inflight"), v.maxInflight},
            {QStringLiteral("max_waiting"), v.maxWaiting},
            {QStringLiteral("target_wait_ms"), v.targetWaitMs},
            {QStringLiteral("inflight"), v.inflight},
            {QStringLiteral("waiting"), v.waiting},
            {QStringLiteral("admitted_total"), v.admittedTotal},
            {QStringLiteral("dropped_total"),
             QJsonObject{{QStringLiteral("high"), v.droppedTotal[std::size_t(Priority::High)]},
                         {QStringLiteral("default"), v.droppedTotal[std::size_t(Priority::Default)]},
                         {QStringLiteral("low"), v.droppedTotal[std::size_t(Priority::Low)]}}}};
}

QJsonObject toJson(const QueueSettingsInfo &v)
{
    return {{QStringLiteral("name"), v.name},
            {QStringLiteral("type"), v.type},
            {QStringLiteral("length"), v.length},
            {QStringLiteral("batch_length"), v.batchLength},
            {QStringLiteral("location"), v.location}};
}

QJsonObject toJson(const AuditEntry &e)
{
    return {{QStringLiteral("id"), e.id},
            {QStringLiteral("at"), time(e.at)},
            {QStringLiteral("actor"), e.actor},
            {QStringLiteral("remote_addr"), e.remoteAddr},
            {QStringLiteral("action"), e.action},
            {QStringLiteral("target"), e.target},
            {QStringLiteral("result"), e.result}};
}

Result<std::vector<AuditEntry>> auditFromJson(const QJsonValue &json)
{
    return listFromJson<AuditEntry>(json, QStringLiteral("audit"), [](Reader &r) {
        return AuditEntry{r.integer("id"),     r.time("at"),     r.string("actor"), r.string("remote_addr"),
                          r.string("action"), r.string("target"), r.string("result")};
    });
}

QJsonObject error(const QString &message, const QString &field)
{
    QJsonObject o{{QStringLiteral("message"), message}};
    if (!field.isEmpty())
        o.insert(QStringLiteral("errors"),
                 QJsonArray{QJsonObject{{QStringLiteral("field"), field}, {QStringLiteral("message"), message}}});
    return o;
}

Result<InstanceInfo> instanceFromJson(const QJsonValue &json)
{
    return oneFromJson<InstanceInfo>(json, QStringLiteral("instance"), [](Reader &r) {
        InstanceInfo i;
        i.version = r.string("version");
        i.instanceId = r.string("instance_id");
        i.startedAt = r.time("started_at");
        i.configPath = r.string("config_path");
        i.dataPath = r.string("data_path");
        i.dbType = r.string("db_type");
        i.cacheAdapter = r.string("cache_adapter");
        i.lockService = r.string("lock_service");
        i.pubsubType = r.string("pubsub_type");
        const QJsonObject o = r.object("queue_types", true).raw();
        for (auto it = o.begin(); it != o.end(); ++it)
            i.queueTypes.insert(it.key(), it.value().toString());
        return i;
    });
}

Result<std::vector<SelfCheckItem>> selfCheckFromJson(const QJsonValue &json)
{
    return listFromJson<SelfCheckItem>(json, QStringLiteral("self-check"), decodeSelfCheck);
}

Result<std::vector<ProcessRow>> processesFromJson(const QJsonValue &json)
{
    return listFromJson<ProcessRow>(json, QStringLiteral("processes"), decodeProcess);
}

Result<NoticeRow> noticeFromJson(const QJsonValue &json)
{
    return oneFromJson<NoticeRow>(json, QStringLiteral("notice"), decodeNotice);
}

Result<std::vector<NoticeRow>> noticesFromJson(const QJsonValue &json)
{
    return listFromJson<NoticeRow>(json, QStringLiteral("notices"), decodeNotice);
}

Result<QueueRow> queueFromJson(const QJsonValue &json)
{
    return oneFromJson<QueueRow>(json, QStringLiteral("queue"), decodeQueue);
}

Result<std::vector<QueueRow>> queuesFromJson(const QJsonValue &json)
{
    return listFromJson<QueueRow>(json, QStringLiteral("queues"), decodeQueue);
}

Result<QueueSettingsInfo> queueSettingsFromJson(const QJsonValue &json)
{
    return oneFromJson<QueueSettingsInfo>(json, QStringLiteral("settings"), [](Reader &r) {
        QueueSettingsInfo s;
        s.name = r.string("name");
        s.type = r.string("type");
        s.length = int(r.integer("length"));
        s.batchLength = int(r.integer("batch_length"));
        s.location = r.string("location");
        return s;
    });
}

Result<CronRow> cronFromJson(const QJsonValue &json)
{
    return oneFromJson<CronRow>(json, QStringLiteral("cron"), decodeCron);
}

Result<std::vector<CronRow>> cronTasksFromJson(const QJsonValue &json)
{
    return listFromJson<CronRow>(json, QStringLiteral("cron"), decodeCron);
}

Result<std::vector<CronRun>> cronRunsFromJson(const QJsonValue &json)
{
    return listFromJson<CronRun>(json, QStringLiteral("runs"), decodeCronRun);
}

Result<LockRow> lockFromJson(const QJsonValue &json)
{
    return oneFromJson<LockRow>(json, QStringLiteral("lock"), decodeLock);
}

Result<std::vector<LockRow>> locksFromJson(const QJsonValue &json)
{
    return listFromJson<LockRow>(json, QStringLiteral("locks"), decodeLock);
}

Result<CacheInfo> cacheInfoFromJson(const QJsonValue &json)
{
    return oneFromJson<CacheInfo>(json, QStringLiteral("cache"), [](Reader &r) {
        CacheInfo c;
        c.adapter = r.string("adapter");
        c.host = r.string("host");
        c.ttlMs = r.integer("ttl_ms");
        c.items = r.integer("items", true, -1);
        return c;
    });
}

Result<CacheStats> cacheStatsFromJson(const QJsonValue &json)
{
    return oneFromJson<CacheStats>(json, QStringLiteral("cache stats"), [](Reader &r) {
        CacheStats s;
        s.adapter = r.string("adapter", true);
        s.hits = r.integer("hits");
        s.misses = r.integer("misses");
        s.evictions = r.integer("evictions");
        s.errors = r.integer("errors", true);
        s.items = r.integer("items", true, -1);
        Reader latency = r.object("latency_ms");
        s.latencyP50Ms = latency.number("p50");
        s.latencyP99Ms = latency.number("p99");
        r.absorb(latency);
        if (r.has("twoqueue")) {
            Reader q = r.object("twoqueue");
            s.twoQueue = TwoQueueOccupancy{q.integer("recent"), q.integer("frequent"), q.integer("ghost"),
                                           q.integer("capacity", true)};
            r.absorb(q);
        }
        return s;
    });
}

Result<CacheTest> cacheTestFromJson(const QJsonValue &json)
{
    return oneFromJson<CacheTest>(json, QStringLiteral("cache test"), [](Reader &r) {
        CacheTest t;
        t.ok = r.boolean("ok");
        t.elapsedMs = r.number("elapsed_ms");
        t.slow = r.boolean("slow");
        t.thresholdMs = r.integer("threshold_ms");
        t.error = r.string("error", true);
        return t;
    });
}

Result<QosStats> qosFromJson(const QJsonValue &json)
{
    return oneFromJson<QosStats>(json, QStringLiteral("qos"), [](Reader &r) {
        QosStats q;
        q.enabled = r.boolean("enabled");
        q.maxInflight = int(r.integer("max_inflight"));
        q.maxWaiting = int(r.integer("max_waiting"));
        q.targetWaitMs = r.integer("target_wait_ms");
        q.inflight = int(r.integer("inflight"));
        q.waiting = int(r.integer("waiting"));
        q.admittedTotal = r.integer("admitted_total");
        Reader dropped = r.object("dropped_total");
        q.droppedTotal[std::size_t(Priority::High)] = dropped.integer("high");
        q.droppedTotal[std::size_t(Priority::Default)] = dropped.integer("default");
        q.droppedTotal[std::size_t(Priority::Low)] = dropped.integer("low");
        r.absorb(dropped);
        return q;
    });
}

QByteArray frame(const AdminEvent &event)
{
    QJsonDocument body;
    switch (event.type) {
    case AdminEvent::Type::QueueStats: body.setArray(toJson(event.queues)); break;
    case AdminEvent::Type::CronStatus: body.setObject(toJson(event.cron)); break;
    case AdminEvent::Type::Lock: {
        QJsonObject o{{QStringLiteral("key"), event.lock.key}, {QStringLiteral("action"), event.lock.action}};
        if (!event.lockRow.key.isEmpty())
            o.insert(QStringLiteral("lock"), toJson(event.lockRow));
        body.setObject(o);
        break;
    }
    case AdminEvent::Type::Notice: body.setObject(toJson(event.notice)); break;
    case AdminEvent::Type::NoticeRemoved: body.setObject(QJsonObject{{QStringLiteral("id"), event.notice.id}}); break;
    }
    return AdminEvent::typeName(event.type).toUtf8() + '\n' + body.toJson(QJsonDocument::Compact);
}

Result<AdminEvent> eventFromFrame(const QByteArray &frame)
{
    const qsizetype newline = frame.indexOf('\n');
    if (newline <= 0)
        return Status::invalidArgument(QStringLiteral("frame: expected \"<event-type>\\n<json>\""));
    const QString type = QString::fromUtf8(frame.left(newline));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(frame.mid(newline + 1), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Status::invalidArgument(QStringLiteral("frame %1: %2").arg(type, parseError.errorString()));
    const QJsonValue json = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());

    AdminEvent event;
    using T = AdminEvent::Type;
    if (type == AdminEvent::typeName(T::QueueStats)) {
        Result<std::vector<QueueRow>> queues = queuesFromJson(json);
        if (!queues)
            return queues.status();
        event.type = T::QueueStats;
        event.queues = std::move(queues).value();
    } else if (type == AdminEvent::typeName(T::CronStatus)) {
        Result<CronRow> cron = cronFromJson(json);
        if (!cron)
            return cron.status();
        event.type = T::CronStatus;
        event.cron = std::move(cron).value();
    } else if (type == AdminEvent::typeName(T::Lock)) {
        Reader r(json, QStringLiteral("lock"));
        event.type = T::Lock;
        event.lock = {r.string("key"), r.string("action")};
        if (!r.status())
            return r.status();
        if (json.toObject().contains(QStringLiteral("lock"))) {
            Result<LockRow> row = lockFromJson(json.toObject().value(QStringLiteral("lock")));
            if (!row)
                return row.status();
            event.lockRow = std::move(row).value();
        }
    } else if (type == AdminEvent::typeName(T::Notice)) {
        Result<NoticeRow> notice = noticeFromJson(json);
        if (!notice)
            return notice.status();
        event.type = T::Notice;
        event.notice = std::move(notice).value();
    } else if (type == AdminEvent::typeName(T::NoticeRemoved)) {
        Reader r(json, QStringLiteral("notice-removed"));
        event.type = T::NoticeRemoved;
        event.notice.id = r.integer("id");
        if (!r.status())
            return r.status();
    } else {
        return Status::notFound(QStringLiteral("event type \"%1\" is not known to this client").arg(type));
    }
    return event;
}

} // namespace Switchyard::Admin::Json
