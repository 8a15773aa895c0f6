#pragma once

// The admin API's JSON (docs/api.md): every admin value to and from its JSON form, once, for the
// server, the remote backend and the command-line client alike. Field names are the contract's
// (snake_case); times are RFC 3339 with offset, durations milliseconds. Decoding is strict about
// types and names the field that is wrong; unknown fields are ignored (the contract may add some).

#include "admintypes.h"
#include "auditlog.h"

#include "engine/core/status.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <vector>

namespace Switchyard::Admin::Json {

// RFC 3339 with offset ("2026-11-30T20:37:35.123Z"); null for an invalid time.
QJsonValue time(const QDateTime &value);

QJsonObject toJson(const InstanceInfo &value);
QJsonObject toJson(const SelfCheckItem &value);
QJsonObject toJson(const ProcessRow &value);
QJsonObject toJson(const NoticeRow &value);
QJsonObject toJson(const QueueRow &value);
QJsonObject toJson(const CronRow &value);
QJsonObject toJson(const CronRun &value);
QJsonObject toJson(const LockRow &value);
QJsonObject toJson(const CacheInfo &value);
QJsonObject toJson(const CacheStats &value);
QJsonObject toJson(const CacheTest &value);
QJsonObject toJson(const QosStats &value);
QJsonObject toJson(const QueueSettingsInfo &value);
QJsonObject toJson(const AuditEntry &value);

template<typename T>
QJsonArray toJson(const std::vector<T> &values)
{
    QJsonArray array;
    for (const T &value : values)
        array.append(toJson(value));
    return array;
}

// The error body of every failing call: {"message": …, "errors": [{"field", "message"}]?}.
QJsonObject error(const QString &message, const QString &field = QString());

// Decoders: InvalidArgument naming the field ("queues[2].length: expected a number") when the
// document does not have the contract's shape.
Result<InstanceInfo> instanceFromJson(const QJsonValue &json);
Result<std::vector<SelfCheckItem>> selfCheckFromJson(const QJsonValue &json);
Result<std::vector<ProcessRow>> processesFromJson(const QJsonValue &json);
Result<NoticeRow> noticeFromJson(const QJsonValue &json);
Result<std::vector<NoticeRow>> noticesFromJson(const QJsonValue &json);
Result<QueueRow> queueFromJson(const QJsonValue &json);
Result<std::vector<QueueRow>> queuesFromJson(const QJsonValue &json);
Result<QueueSettingsInfo> queueSettingsFromJson(const QJsonValue &json);
Result<CronRow> cronFromJson(const QJsonValue &json);
Result<std::vector<CronRow>> cronTasksFromJson(const QJsonValue &json);
Result<std::vector<CronRun>> cronRunsFromJson(const QJsonValue &json);
Result<LockRow> lockFromJson(const QJsonValue &json);
Result<std::vector<LockRow>> locksFromJson(const QJsonValue &json);
Result<CacheInfo> cacheInfoFromJson(const QJsonValue &json);
Result<CacheStats> cacheStatsFromJson(const QJsonValue &json);
Result<CacheTest> cacheTestFromJson(const QJsonValue &json);
Result<QosStats> qosFromJson(const QJsonValue &json);
Result<std::vector<AuditEntry>> auditFromJson(const QJsonValue &json);

// A stream frame: "<event-type>\n<json>" (API.md, live stream).
QByteArray frame(const AdminEvent &event);
// The frame's event; NotFound for an event type this client does not know (skip it).
Result<AdminEvent> eventFromFrame(const QByteArray &frame);

} // namespace Switchyard::Admin::Json
