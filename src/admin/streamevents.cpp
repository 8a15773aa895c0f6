#include "streamevents.h"

#include "ops/cronops.h"
#include "ops/eventops.h"
#include "ops/instanceops.h"
#include "ops/lockops.h"
#include "ops/queueops.h"
#include "ops/webhookops.h"

#include <QJsonDocument>

namespace Switchyard::Admin {

template<typename V>
void describe(V &v, LockEvent &e)
{
    v("key", e.key);
    v("action", e.action);
}

namespace Stream {

namespace {

// The lock kind's payload: {key, action, lock?} — the row for acquired and extended.
struct LockPayload
{
    LockEvent event;
    std::optional<LockRow> row;
};
template<typename V>
void describe(V &v, LockPayload &p)
{
    describe(v, p.event);
    v("lock", p.row, Json::Omit);
}

struct RemovedPayload
{
    qint64 id = 0;
};
template<typename V>
void describe(V &v, RemovedPayload &p)
{
    v("id", p.id);
}

// One kind: its name and the member of AdminEvent its payload lives in.
struct Kind
{
    AdminEvent::Type type;
    const char *name;
    QJsonValue (*write)(const AdminEvent &);
    Status (*read)(const QJsonValue &, AdminEvent &);
};

template<typename T>
Status readInto(const QJsonValue &json, T &member, const char *name)
{
    return Json::decode(json, member, QLatin1String(name));
}

const Kind kKinds[] = {
    {AdminEvent::Type::QueueStats, "queue-stats", [](const AdminEvent &e) { return Json::encode(e.queues); },
     [](const QJsonValue &j, AdminEvent &e) { return readInto(j, e.queues, "queue-stats"); }},
    {AdminEvent::Type::CronStatus, "cron-status", [](const AdminEvent &e) { return Json::encode(e.cron); },
     [](const QJsonValue &j, AdminEvent &e) { return readInto(j, e.cron, "cron-status"); }},
    {AdminEvent::Type::Lock, "lock",
     [](const AdminEvent &e) {
         return Json::encode(LockPayload{e.lock, e.lockRow.key.isEmpty() ? std::nullopt : std::optional<LockRow>(e.lockRow)});
     },
     [](const QJsonValue &j, AdminEvent &e) {
         LockPayload p;
         if (Status s = readInto(j, p, "lock"); !s)
             return s;
         e.lock = p.event;
         e.lockRow = p.row.value_or(LockRow{});
         return Status::ok();
     }},
    {AdminEvent::Type::Notice, "notice", [](const AdminEvent &e) { return Json::encode(e.notice); },
     [](const QJsonValue &j, AdminEvent &e) { return readInto(j, e.notice, "notice"); }},
    {AdminEvent::Type::NoticeRemoved, "notice-removed", [](const AdminEvent &e) { return Json::encode(RemovedPayload{e.notice.id}); },
     [](const QJsonValue &j, AdminEvent &e) {
         RemovedPayload p;
         if (Status s = readInto(j, p, "notice-removed"); !s)
             return s;
         e.notice.id = p.id;
         return Status::ok();
     }},
    {AdminEvent::Type::NotificationCount, "notification-count", [](const AdminEvent &e) { return Json::encode(e.unread); },
     [](const QJsonValue &j, AdminEvent &e) { return readInto(j, e.unread, "notification-count"); }},
    {AdminEvent::Type::Event, "event", [](const AdminEvent &e) { return Json::encode(e.event); },
     [](const QJsonValue &j, AdminEvent &e) { return readInto(j, e.event, "event"); }},
    {AdminEvent::Type::HookTask, "hook-task", [](const AdminEvent &e) { return Json::encode(e.hookTask); },
     [](const QJsonValue &j, AdminEvent &e) { return readInto(j, e.hookTask, "hook-task"); }},
};

} // namespace

QByteArray frame(const AdminEvent &event)
{
    for (const Kind &kind : kKinds) {
        if (kind.type != event.type)
            continue;
        const QJsonValue body = kind.write(event);
        const QJsonDocument doc = body.isArray() ? QJsonDocument(body.toArray()) : QJsonDocument(body.toObject());
        return QByteArray(kind.name) + '\n' + doc.toJson(QJsonDocument::Compact);
    }
    return {};
}

Result<AdminEvent> eventFromFrame(const QByteArray &frame)
{
    const qsizetype newline = frame.indexOf('\n');
    if (newline <= 0)
        return Status::invalidArgument(QStringLiteral("frame: expected \"<event-type>\\n<json>\""));
    const QByteArray name = frame.left(newline);
    for (const Kind &kind : kKinds) {
        if (name != kind.name)
            continue;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(frame.mid(newline + 1), &parseError);
        if (parseError.error != QJsonParseError::NoError)
            return Status::invalidArgument(QStringLiteral("frame %1: %2").arg(QString::fromUtf8(name), parseError.errorString()));
        AdminEvent event;
        event.type = kind.type;
        if (Status s = kind.read(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()), event); !s)
            return s;
        return event;
    }
    return Status::notFound(QStringLiteral("event type \"%1\" is not known to this client").arg(QString::fromUtf8(name.left(64))));
}

QStringList kindNames()
{
    QStringList names;
    for (const Kind &kind : kKinds)
        names << QLatin1String(kind.name);
    return names;
}

} // namespace Stream

QString AdminEvent::typeName(Type type)
{
    for (const Stream::Kind &kind : Stream::kKinds) {
        if (kind.type == type)
            return QLatin1String(kind.name);
    }
    return QString();
}

} // namespace Switchyard::Admin
