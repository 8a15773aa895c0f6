#include "authenticity_p.h"

#include "events.h"

#include "engine/settings/config.h"
#include "engine/store/store.h"

#include <QCryptographicHash>
#include <QMessageAuthenticationCode>

namespace Switchyard {

namespace {

// Constant time in the length of `expected`.
bool sameBytes(const QByteArray &expected, const QByteArray &given)
{
    unsigned char difference = expected.size() == given.size() ? 0 : 1;
    for (qsizetype i = 0; i < expected.size(); ++i)
        difference |= static_cast<unsigned char>(expected.at(i) ^ (i < given.size() ? given.at(i) : 0));
    return difference == 0;
}

// Standard Webhooks: the key is the secret's base64 after "whsec_", or the secret's bytes.
QByteArray standardKey(const QString &secret)
{
    if (secret.startsWith(QLatin1String("whsec_"))) {
        const auto decoded = QByteArray::fromBase64Encoding(secret.mid(6).toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (decoded)
            return *decoded;
    }
    return secret.toUtf8();
}

Status checkStandardWebhook(const EventSourceSettings &source, const IncomingEvent &in, const QDateTime &now)
{
    if (in.webhookId.isEmpty() || in.webhookTimestamp.isEmpty())
        return Status::invalidArgument(QStringLiteral("webhook-signature came without %1: Standard Webhooks sign "
                                                      "\"<webhook-id>.<webhook-timestamp>.<payload>\"")
                                           .arg(in.webhookId.isEmpty() ? QStringLiteral("webhook-id") : QStringLiteral("webhook-timestamp")))
            .withField(in.webhookId.isEmpty() ? QStringLiteral("webhook-id") : QStringLiteral("webhook-timestamp"));
    bool number = false;
    const qint64 sent = in.webhookTimestamp.trimmed().toLongLong(&number);
    if (!number || sent < 0 || sent > (qint64(1) << 40)) // seconds: no subtraction below may overflow
        return Status::invalidArgument(QStringLiteral("webhook-timestamp: expected seconds since the epoch"))
            .withField(QStringLiteral("webhook-timestamp"));
    const qint64 skew = now.toSecsSinceEpoch() - sent;
    const qint64 window = qint64(std::chrono::duration_cast<std::chrono::seconds>(source.replayWindow).count());
    if (skew > window || -skew > window)
        return Status::unauthenticated(QStringLiteral("webhook-timestamp is %1 s %2 this server's clock, outside [event_source.%3] "
                                                      "REPLAY_WINDOW (%4 s): refused as a possible replay")
                                           .arg(skew < 0 ? -skew : skew)
                                           .arg(skew < 0 ? QStringLiteral("ahead of") : QStringLiteral("behind"), source.name)
                                           .arg(window));
    const QByteArray expected =
        QMessageAuthenticationCode::hash(in.webhookId + '.' + in.webhookTimestamp.trimmed() + '.' + in.payload,
                                         standardKey(source.secret), QCryptographicHash::Sha256)
            .toBase64();
    bool valid = false;
    for (const QByteArray &entry : in.webhookSignature.split(' ')) // "v1,<sig> v1,<sig>" while a secret rotates
        if (entry.startsWith("v1,") && sameBytes(expected, entry.mid(3)))
            valid = true;
    if (!valid)
        return Status::unauthenticated(QStringLiteral("the webhook-signature header does not match the payload signed with "
                                                      "[event_source.%1] SECRET")
                                           .arg(source.name));
    return Status::ok();
}

} // namespace

namespace Events {

Status checkAuthenticity(const EventSourceSettings &source, const IncomingEvent &in, const QDateTime &now)
{
    // The signature, when the source has a secret: checked whenever one is sent; without one only
    // a token lets the event in.
    const bool signedBy256 = !in.hubSignature256.isEmpty();
    const bool signedByGitea = !in.giteaSignature.isEmpty();
    const bool signedStandard = !in.webhookSignature.isEmpty();
    if (!source.secret.isEmpty() && signedStandard)
        return checkStandardWebhook(source, in, now);
    if (!source.secret.isEmpty() && (signedBy256 || signedByGitea)) {
        const QByteArray expected = eventSignature(source.secret.toUtf8(), in.payload);
        const QByteArray given = signedBy256 ? in.hubSignature256.trimmed() : in.giteaSignature.trimmed();
        const bool valid = signedBy256 ? sameBytes("sha256=" + expected, given.toLower()) : sameBytes(expected, given.toLower());
        if (!valid)
            return Status::unauthenticated(QStringLiteral("the %1 header does not match the payload signed with [event_source.%2] SECRET")
                                               .arg(signedBy256 ? QStringLiteral("X-Hub-Signature-256") : QStringLiteral("X-Gitea-Signature"),
                                                    source.name));
        return Status::ok();
    }
    if (!in.byToken)
        return Status::unauthenticated(source.secret.isEmpty()
                                           ? QStringLiteral("event source \"%1\" has no secret: send an admin or ingest token").arg(source.name)
                                           : QStringLiteral("no signature: send X-Hub-Signature-256, X-Gitea-Signature or "
                                                            "webhook-signature, or a token"));
    return Status::ok();
}

QString payloadHash(const QByteArray &payload)
{
    return QString::fromLatin1(QCryptographicHash::hash(payload, QCryptographicHash::Sha256).toHex());
}

Result<std::optional<EarlierDelivery>> findReplay(SqlTransaction &tx, const QString &source, const QString &hash, qint64 sinceMs,
                                                  const QString &deliveryId)
{
    Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT id, delivery_id FROM event WHERE source = ? AND payload_sha256 = ? "
                                                 "AND received_ms >= ? AND delivery_id <> ? ORDER BY id LIMIT 1"),
                                  {source, hash, sinceMs, deliveryId});
    if (!q)
        return q.status();
    if (!q->next())
        return std::optional<EarlierDelivery>();
    return std::optional<EarlierDelivery>(EarlierDelivery{q->value(0).toLongLong(), q->value(1).toString()});
}

} // namespace Events
} // namespace Switchyard
