#pragma once

// Whether an incoming event is what its source sent, and sent once: the forge's HMAC signature
// (Gitea's X-Gitea-Signature, GitHub's X-Hub-Signature-256, Standard Webhooks' webhook-signature
// over "<id>.<timestamp>.<payload>"), a Standard Webhooks timestamp within the source's replay
// window, and the same payload seen again within that window under another delivery id.
// Pure functions and one query; EventService::accept calls them on the caller's thread.

#include "eventtypes.h"

#include "engine/core/status.h"

#include <QDateTime>

#include <optional>

namespace Switchyard {

struct EventSourceSettings;
class SqlTransaction;

namespace Events {

// Ok when the request proves it comes from `source` (a valid signature), or when it needs not
// (a token came and no signature was sent); Unauthenticated or InvalidArgument naming the header.
Status checkAuthenticity(const EventSourceSettings &source, const IncomingEvent &in, const QDateTime &now);

// The hash the replay window compares (hex SHA-256 of the payload as sent).
QString payloadHash(const QByteArray &payload);

struct EarlierDelivery
{
    qint64 eventId = 0;
    QString deliveryId;
};
// An event of `source` with the same payload hash, received since `sinceMs`, under another
// delivery id than `deliveryId`.
Result<std::optional<EarlierDelivery>> findReplay(SqlTransaction &tx, const QString &source, const QString &hash, qint64 sinceMs,
                                                  const QString &deliveryId);

} // namespace Events
} // namespace Switchyard
