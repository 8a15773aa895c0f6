// The outbox: every queued mail is a row of mail_outbox before it is a queue item, so what the
// queue or an instance loses is found again in the store. A row is pending (outcome ''), then
// claimed (is_claimed, claimed_by: the instance sending it), then sent, failed or — its claim
// taken over without an answer — sent again after its interruption is recorded.
//
// Threads: every function runs on its caller's thread (a notifier's, a mail worker's, the
// heartbeat's recovery round); each is one store transaction.

#include "mail_p.h"

#include "engine/store/instances.h"
#include "engine/store/store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

namespace Switchyard::Mail::Outbox {

namespace {

QString messageJson(const Message &m)
{
    Message stored = m;
    stored.outboxId = 0;
    return QString::fromUtf8(QJsonDocument(stored.toJson()).toJson(QJsonDocument::Compact));
}

// A stored message, its outboxId set; nullopt when it does not read.
std::optional<Message> messageOf(qint64 id, const QString &json)
{
    std::optional<Message> m = Message::fromJson(QJsonDocument::fromJson(json.toUtf8()).object());
    if (m)
        m->outboxId = id;
    return m;
}

// A mail's outbox key: the call's key and what the mail is — its recipient, its Message-ID (the
// issue, comment or release it is about), what and its subject — not its place among the call's mails, so a
// recipient added or gone between two dispatches does not rename the others.
QString derivedKey(const Message &m, const QString &key)
{
    static const QUuid kNamespace = QUuid::fromString(QLatin1String("3a9d3f6e-7c1b-4f52-8e0a-5b2d6c9e1f47"));
    return QUuid::createUuidV5(kNamespace, QStringLiteral("%1\n%2\n%3\n%4\n%5\n%6").arg(m.traceId, key, m.toAddress.toLower(),
                                                                                       m.header(QStringLiteral("Message-ID")), m.info,
                                                                                       m.subject))
        .toString(QUuid::WithoutBraces);
}

Result<std::vector<Message>> messagesOf(QSqlQuery &q)
{
    std::vector<Message> out;
    while (q.next())
        if (std::optional<Message> m = messageOf(q.value(0).toLongLong(), q.value(1).toString()))
            out.push_back(std::move(*m));
    return out;
}

} // namespace

Result<std::vector<Message>> put(Store &store, std::vector<Message> messages, const QString &key)
{
    return store.writeValue<std::vector<Message>>([&](SqlTransaction &tx) -> Result<std::vector<Message>> {
        std::vector<Message> toPush;
        for (std::size_t i = 0; i < messages.size(); ++i) {
            Message m = messages[i];
            const QString uuid = key.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces) : derivedKey(m, key);
            Result<QSqlQuery> q = tx.exec(QStringLiteral("INSERT INTO mail_outbox (uuid, message, to_address, info, trace_id, created_ms) "
                                                         "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (uuid) DO NOTHING RETURNING id"),
                                          {uuid, messageJson(m), m.toAddress, m.info, m.traceId, QDateTime::currentMSecsSinceEpoch()});
            if (!q)
                return q.status();
            if (q->next()) {
                m.outboxId = q->value(0).toLongLong();
            } else {
                q->finish();
                m.outboxId = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM mail_outbox WHERE uuid = ? AND is_claimed = 0 "
                                                      "AND outcome = ''"),
                                       {uuid})
                                 .valueOr(0);
                if (m.outboxId == 0)
                    continue; // queued before, and sent or being sent
            }
            toPush.push_back(std::move(m));
        }
        return toPush;
    });
}

Result<std::set<qint64>> claim(Store &store, const std::vector<qint64> &ids, const QString &self)
{
    return store.writeValue<std::set<qint64>>([&](SqlTransaction &tx) -> Result<std::set<qint64>> {
        std::set<qint64> claimed;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (qint64 id : ids) {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("UPDATE mail_outbox SET is_claimed = 1, claimed_by = ?, claimed_ms = ? "
                                                         "WHERE id = ? AND is_claimed = 0 AND outcome = ''"),
                                          {self, now, id});
            if (!q)
                return q.status();
            if (q->numRowsAffected() > 0)
                claimed.insert(id);
        }
        return claimed;
    });
}

Status record(Store &store, const std::vector<std::tuple<qint64, bool, QString>> &outcomes, const QString &self)
{
    return store.write([&](SqlTransaction &tx) -> Status {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (const auto &[id, ok, error] : outcomes)
            if (Status s = tx.exec(QStringLiteral("UPDATE mail_outbox SET outcome = ?, error = ?, ended_ms = ? WHERE id = ? AND claimed_by = ? "
                                                  "AND outcome = ''"),
                                   {ok ? QStringLiteral("sent") : QStringLiteral("failed"), error.left(2000), now, id, self})
                               .status();
                !s)
                return s;
        return Status::ok();
    });
}

Status release(Store &store, const std::vector<qint64> &ids, const QString &self)
{
    return store.write([&](SqlTransaction &tx) -> Status {
        for (qint64 id : ids)
            if (Status s = tx.exec(QStringLiteral("UPDATE mail_outbox SET is_claimed = 0, claimed_by = '', claimed_ms = 0 WHERE id = ? "
                                                  "AND claimed_by = ? AND outcome = ''"),
                                   {id, self})
                               .status();
                !s)
                return s;
        return Status::ok();
    });
}

Result<std::vector<Message>> takeOver(Store &store, const InstanceRegistry &instances, const std::multiset<qint64> &inHand)
{
    return store.writeValue<std::vector<Message>>([&](SqlTransaction &tx) -> Result<std::vector<Message>> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, message, claimed_by, claimed_ms, interrupted FROM mail_outbox "
                                                     "WHERE is_claimed = 1 AND outcome = '' AND (%1 OR claimed_by = ?) ORDER BY id LIMIT 500")
                                          .arg(instances.notLive(QStringLiteral("claimed_by"))),
                                      {instances.instanceId()});
        if (!q)
            return q.status();
        struct Row
        {
            qint64 id;
            QString message, holder, interrupted;
            qint64 claimedMs;
        };
        std::vector<Row> rows;
        while (q->next())
            if (q->value(2).toString() != instances.instanceId() || !inHand.count(q->value(0).toLongLong())) // own ones only when orphaned
                rows.push_back({q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toString(), q->value(4).toString(),
                                q->value(3).toLongLong()});
        q->finish();
        std::vector<Message> again;
        for (const Row &r : rows) {
            QJsonArray history = QJsonDocument::fromJson(r.interrupted.toUtf8()).array();
            history.append(QJsonObject{{QStringLiteral("instance"), r.holder},
                                       {QStringLiteral("claimed_ms"), r.claimedMs},
                                       {QStringLiteral("ended_ms"), QDateTime::currentMSecsSinceEpoch()},
                                       {QStringLiteral("ended_by"), instances.instanceId()}});
            Result<QSqlQuery> released =
                tx.exec(QStringLiteral("UPDATE mail_outbox SET is_claimed = 0, claimed_by = '', claimed_ms = 0, interrupted = ? WHERE id = ? "
                                       "AND claimed_by = ? AND outcome = ''"),
                        {QString::fromUtf8(QJsonDocument(history).toJson(QJsonDocument::Compact)), r.id, r.holder});
            if (!released)
                return released.status();
            if (released->numRowsAffected() > 0)
                if (std::optional<Message> m = messageOf(r.id, r.message))
                    again.push_back(std::move(*m));
        }
        return again;
    });
}

Result<std::vector<Message>> unsent(Store &store, qint64 after, int limit)
{
    return store.readValue<std::vector<Message>>([&](SqlTransaction &tx) -> Result<std::vector<Message>> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, message FROM mail_outbox WHERE outcome = '' AND is_claimed = 0 AND id > ? "
                                                     "ORDER BY id LIMIT ?"),
                                      {after, limit});
        if (!q)
            return q.status();
        return messagesOf(*q);
    });
}

Result<qint64> prune(Store &store, qint64 olderThanMs)
{
    return store.writeValue<qint64>([&](SqlTransaction &tx) -> Result<qint64> {
        Result<QSqlQuery> q = tx.exec(QStringLiteral("DELETE FROM mail_outbox WHERE outcome <> '' AND ended_ms < ?"), {olderThanMs});
        if (!q)
            return q.status();
        return qint64(q->numRowsAffected());
    });
}

} // namespace Switchyard::Mail::Outbox
