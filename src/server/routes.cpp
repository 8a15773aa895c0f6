// Every endpoint of the admin API (docs/api.md), each one route() call over AdminOperations.
// Adding one: pick the method and path, say whether it mutates (403 for read-only tokens, audit
// entry) and whether it may wait (runs on the pool), and map the operation's result with Json.

#include "adminserver.h"

#include "metrics.h"

#include "admin/adminjson.h"

#include "engine/engine.h"

#include <QJsonArray>
#include <QJsonObject>

namespace Switchyard::Server {

using namespace Admin;
using Method = QHttpServerRequest::Method;

namespace {

template<typename T>
Reply answer(const Result<T> &result)
{
    if (!result)
        return Reply::error(result.status());
    return Reply::json(Json::toJson(*result));
}

Reply answer(const Status &status, int okStatus = 200)
{
    if (!status)
        return Reply::error(status);
    return Reply::json(QJsonObject{{QStringLiteral("ok"), true}}, okStatus);
}

QString doer(const Call &call)
{
    return QStringLiteral("api (%1)").arg(call.identity.name);
}

} // namespace

void AdminServer::registerRoutes()
{
    AdminOperations &ops = m_operations;
    const int Mutate = Mutating;
    const int Wait = Blocking;

    // ---- Instance -------------------------------------------------------------------------------
    // Without a (valid) token: only that the API answers and its version — nothing about the host.
    route(Method::Get, QStringLiteral("/health"), Read, {}, [&ops](Call &call) {
        if (call.identity.name.isEmpty())
            return Reply::json(QJsonObject{{QStringLiteral("status"), QStringLiteral("ok")}, {QStringLiteral("api_version"), 1}});
        const InstanceInfo info = ops.instance();
        return Reply::json(QJsonObject{{QStringLiteral("status"), QStringLiteral("ok")},
                                       {QStringLiteral("version"), info.version},
                                       {QStringLiteral("instance_id"), info.instanceId},
                                       {QStringLiteral("api_version"), 1},
                                       {QStringLiteral("uptime_ms"), info.startedAt.msecsTo(QDateTime::currentDateTimeUtc())}});
    });
    // Plus who is asking: clients disable what a read-only token may not do before anyone clicks.
    route(Method::Get, QStringLiteral("/instance"), Read, {}, [&ops](Call &call) {
        QJsonObject json = Json::toJson(ops.instance());
        json.insert(QStringLiteral("access"), QJsonObject{{QStringLiteral("token_name"), call.identity.name},
                                                          {QStringLiteral("role"), roleName(call.identity.role)}});
        return Reply::json(json);
    });
    route(Method::Get, QStringLiteral("/self-check"), Wait, {},
          [this, &ops](Call &call) {
              std::vector<SelfCheckItem> items = ops.selfCheck(call.cancel);
              items.push_back(m_audit.check());
              return Reply::json(Json::toJson(items));
          });
    route(Method::Get, QStringLiteral("/metrics"), Read, {}, [this](Call &) {
        Reply reply;
        reply.body = metrics();
        reply.contentType = "text/plain; version=0.0.4; charset=utf-8";
        return reply;
    });
    route(Method::Get, QStringLiteral("/processes"), Read, {}, [&ops](Call &call) { return call.page(Json::toJson(ops.processes())); });
    route(Method::Post, QStringLiteral("/processes/{pid}/cancel"), Mutate, QStringLiteral("process.cancel"), [&ops](Call &call) {
        const Result<qint64> pid = call.id(QStringLiteral("pid"));
        if (!pid)
            return Reply::error(pid.status());
        call.target = QString::number(*pid);
        return answer(ops.cancelProcess(*pid));
    });
    route(Method::Get, QStringLiteral("/notices"), Read, {}, [&ops](Call &call) { return call.page(Json::toJson(ops.notices())); });
    route(Method::Delete, QStringLiteral("/notices/{id}"), Mutate, QStringLiteral("notice.delete"), [&ops](Call &call) {
        const Result<qint64> id = call.id(QStringLiteral("id"));
        if (!id)
            return Reply::error(id.status());
        call.target = QString::number(*id);
        return answer(ops.deleteNotice(*id));
    });

    // ---- Queues ---------------------------------------------------------------------------------
    route(Method::Get, QStringLiteral("/queues"), Read | Cached, {}, [&ops](Call &call) { return call.page(Json::toJson(ops.queues())); });
    route(Method::Post, QStringLiteral("/queues/flush-all"), Mutate | Wait, QStringLiteral("queue.flush-all"), [this, &ops](Call &call) {
        const Result<qint64> timeout = call.queryInteger(QStringLiteral("timeout_ms"), 60000, -1, 24 * 3600 * 1000);
        if (!timeout)
            return Reply::error(timeout.status());
        call.target = QStringLiteral("all");
        if (call.queryFlag(QStringLiteral("non_blocking"))) {
            // Runs on after the answer; the server's stop cancels it.
            const CancelToken stop = m_calls.token();
            m_pool.start([&ops, stop, timeout = *timeout] {
                if (Status flushed = ops.flushAll(stop, std::chrono::milliseconds(timeout)); !flushed)
                    qWarning("non-blocking flush-all: %s", qPrintable(flushed.toString()));
            });
            return Reply::json(QJsonObject{{QStringLiteral("accepted"), true}}, 202);
        }
        return answer(ops.flushAll(call.cancel, std::chrono::milliseconds(*timeout)));
    });
    route(Method::Get, QStringLiteral("/queues/{qid}"), Read, {}, [&ops](Call &call) {
        const Result<qint64> qid = call.id(QStringLiteral("qid"));
        if (!qid)
            return Reply::error(qid.status());
        const Result<QueueRow> row = ops.queue(*qid);
        if (!row)
            return Reply::error(row.status());
        QJsonObject json = Json::toJson(*row);
        if (const Result<QueueSettingsInfo> settings = ops.queueSettings(*qid))
            json.insert(QStringLiteral("settings"), Json::toJson(*settings));
        return Reply::json(json);
    });
    route(Method::Post, QStringLiteral("/queues/{qid}/flush"), Mutate | Wait, QStringLiteral("queue.flush"), [&ops](Call &call) {
        const Result<qint64> qid = call.id(QStringLiteral("qid"));
        if (!qid)
            return Reply::error(qid.status());
        call.target = QString::number(*qid);
        const Result<qint64> timeout = call.queryInteger(QStringLiteral("timeout_ms"), 60000, -1, 24 * 3600 * 1000);
        if (!timeout)
            return Reply::error(timeout.status());
        return answer(ops.flushQueue(call.cancel, *qid, std::chrono::milliseconds(*timeout)));
    });
    route(Method::Post, QStringLiteral("/queues/{qid}/remove-all"), Mutate | Wait, QStringLiteral("queue.remove-all"), [&ops](Call &call) {
        const Result<qint64> qid = call.id(QStringLiteral("qid"));
        if (!qid)
            return Reply::error(qid.status());
        call.target = QString::number(*qid);
        if (call.queryFlag(QStringLiteral("dry_run"))) {
            const Result<qint64> count = ops.removeAllCount(*qid);
            if (!count)
                return Reply::error(count.status());
            return Reply::json(QJsonObject{{QStringLiteral("removed"), 0}, {QStringLiteral("count"), *count},
                                           {QStringLiteral("dry_run"), true}});
        }
        const Result<qint64> removed = ops.removeAll(call.cancel, *qid);
        if (!removed)
            return Reply::error(removed.status());
        return Reply::json(QJsonObject{{QStringLiteral("removed"), *removed}});
    });
    route(Method::Put, QStringLiteral("/queues/{qid}/max-workers"), Mutate, QStringLiteral("queue.set-max-workers"), [&ops](Call &call) {
        const Result<qint64> qid = call.id(QStringLiteral("qid"));
        if (!qid)
            return Reply::error(qid.status());
        call.target = QString::number(*qid);
        const Result<QJsonObject> body = call.jsonObject();
        if (!body)
            return Reply::error(body.status());
        for (auto it = body->begin(); it != body->end(); ++it) {
            if (it.key() != QLatin1String("max_workers"))
                return Reply::error(400, QStringLiteral("%1: unknown field (expected only max_workers)").arg(it.key()), it.key());
        }
        const QJsonValue value = body->value(QStringLiteral("max_workers"));
        if (!value.isDouble() || value.toDouble() != double(qint64(value.toDouble())) || value.toDouble() < 1
            || value.toDouble() > 1e6)
            return Reply::error(400, QStringLiteral("max_workers: expected a whole number from 1 to 1000000"),
                                QStringLiteral("max_workers"));
        return answer(ops.setMaxWorkers(*qid, int(value.toInteger())));
    });
    route(Method::Post, QStringLiteral("/queues/{qid}/pause"), Mutate | Wait, QStringLiteral("queue.pause"), [&ops](Call &call) {
        const Result<qint64> qid = call.id(QStringLiteral("qid"));
        if (!qid)
            return Reply::error(qid.status());
        call.target = QString::number(*qid);
        return answer(ops.pauseQueue(call.cancel, *qid));
    });
    route(Method::Post, QStringLiteral("/queues/{qid}/resume"), Mutate, QStringLiteral("queue.resume"), [&ops](Call &call) {
        const Result<qint64> qid = call.id(QStringLiteral("qid"));
        if (!qid)
            return Reply::error(qid.status());
        call.target = QString::number(*qid);
        return answer(ops.resumeQueue(*qid));
    });

    // ---- Cron -----------------------------------------------------------------------------------
    route(Method::Get, QStringLiteral("/cron"), Read, {}, [&ops](Call &call) { return call.page(Json::toJson(ops.cronTasks())); });
    route(Method::Post, QStringLiteral("/cron/{name}/run"), Mutate, QStringLiteral("cron.run"), [&ops](Call &call) {
        const Result<QString> name = call.name(QStringLiteral("name"));
        if (!name)
            return Reply::error(name.status());
        call.target = *name;
        if (Status started = ops.runCron(*name, doer(call)); !started)
            return Reply::error(started);
        return Reply::json(QJsonObject{{QStringLiteral("name"), *name}, {QStringLiteral("started"), true}}, 202);
    });
    route(Method::Post, QStringLiteral("/cron/{name}/pause"), Mutate, QStringLiteral("cron.pause"), [&ops](Call &call) {
        const Result<QString> name = call.name(QStringLiteral("name"));
        if (!name)
            return Reply::error(name.status());
        call.target = *name;
        return answer(ops.pauseCron(*name));
    });
    route(Method::Post, QStringLiteral("/cron/{name}/resume"), Mutate, QStringLiteral("cron.resume"), [&ops](Call &call) {
        const Result<QString> name = call.name(QStringLiteral("name"));
        if (!name)
            return Reply::error(name.status());
        call.target = *name;
        return answer(ops.resumeCron(*name));
    });
    route(Method::Get, QStringLiteral("/cron/{name}/runs"), Read, {}, [&ops](Call &call) {
        const Result<QString> name = call.name(QStringLiteral("name"));
        if (!name)
            return Reply::error(name.status());
        const Result<std::vector<CronRun>> runs = ops.cronRuns(*name);
        if (!runs)
            return Reply::error(runs.status());
        return call.page(Json::toJson(*runs));
    });

    // ---- Locks ----------------------------------------------------------------------------------
    route(Method::Get, QStringLiteral("/locks"), Wait, {}, [&ops](Call &call) {
        const Result<std::vector<LockRow>> locks = ops.locks(call.cancel);
        if (!locks)
            return Reply::error(locks.status());
        return call.page(Json::toJson(*locks));
    });
    route(Method::Post, QStringLiteral("/locks/{key}/force-release"), Mutate | Wait, QStringLiteral("lock.force-release"),
          [&ops](Call &call) {
              const Result<QString> key = call.name(QStringLiteral("key"));
              if (!key)
                  return Reply::error(key.status());
              call.target = *key;
              return answer(ops.forceReleaseLock(call.cancel, *key, doer(call)));
          });

    // ---- Cache and QoS --------------------------------------------------------------------------
    route(Method::Get, QStringLiteral("/cache"), Read, {}, [&ops](Call &) { return Reply::json(Json::toJson(ops.cacheInfo())); });
    // A diagnostic (writes and deletes its own test key), so read-only tokens may run it.
    route(Method::Post, QStringLiteral("/cache/test"), Wait, {}, [&ops](Call &) { return Reply::json(Json::toJson(ops.cacheTest())); });
    route(Method::Get, QStringLiteral("/cache/stats"), Read, {}, [&ops](Call &) { return Reply::json(Json::toJson(ops.cacheStats())); });
    route(Method::Get, QStringLiteral("/qos"), Read, {}, [&ops](Call &) { return Reply::json(Json::toJson(ops.qos())); });

    // ---- Audit ----------------------------------------------------------------------------------
    route(Method::Get, QStringLiteral("/audit"), Read, {}, [this](Call &call) {
        AuditQuery query;
        const Result<qint64> page = call.queryInteger(QStringLiteral("page"), 1, 1, 1'000'000'000);
        if (!page)
            return Reply::error(page.status());
        const Result<qint64> limit = call.queryInteger(QStringLiteral("limit"), 50, 1, 500);
        if (!limit)
            return Reply::error(limit.status());
        query.page = int(*page);
        query.limit = int(*limit);
        query.action = call.query.queryItemValue(QStringLiteral("action"), QUrl::FullyDecoded);
        if (call.query.hasQueryItem(QStringLiteral("since"))) {
            const QString since = call.query.queryItemValue(QStringLiteral("since"), QUrl::FullyDecoded);
            query.since = QDateTime::fromString(since, Qt::ISODateWithMs);
            if (!query.since.isValid())
                return Reply::error(400, QStringLiteral("since: \"%1\" is not an RFC 3339 time").arg(since.left(64)),
                                    QStringLiteral("since"));
        }
        const AuditPage found = m_audit.query(query);
        Reply reply = Reply::json(Json::toJson(found.entries));
        reply.headers.emplace_back("X-Total-Count", QByteArray::number(found.total));
        return reply;
    });
}

} // namespace Switchyard::Server
