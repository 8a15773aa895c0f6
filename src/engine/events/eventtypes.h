#pragma once

// Event ingestion's values (events.h): rows of the event table as the admin API and the console
// show them.

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <vector>

namespace Switchyard {

struct EventRecord
{
    qint64 id = 0;
    QString source;
    QString deliveryId;
    QString event;  // the fine type as sent (issue_assign, pull_request_review_approved, push …)
    QString action; // the payload's action, when it has one
    QString repo;   // owner/name
    QString sender; // login
    QDateTime receivedAt;
    QString status; // pending | processing | done | failed | ignored
    QString error;  // failed: why; done: its notes (a field left out of the payload and why), or ""
    int attempts = 0;
    QString traceId;
    QString claimedBy; // the instance that processes it (or last did); "" before the first claim
    QByteArray payload; // get() only
    bool operator==(const EventRecord &) const = default;
};

// What a request carries.
struct IncomingEvent
{
    QString source = QStringLiteral("default");
    QString event;      // from the headers or ?event= (the caller picks by precedence)
    QString deliveryId; // X-Gitea-Delivery / X-GitHub-Delivery; empty: one is generated
    QByteArray payload;
    QByteArray hubSignature256; // X-Hub-Signature-256: "sha256=<hex>"
    QByteArray giteaSignature;  // X-Gitea-Signature: "<hex>"
    // Standard Webhooks (standardwebhooks.com): the signature covers "<id>.<timestamp>.<payload>".
    QByteArray webhookId;        // webhook-id (the delivery id when no other header gives one)
    QByteArray webhookTimestamp; // webhook-timestamp: seconds since the epoch
    QByteArray webhookSignature; // webhook-signature: "v1,<base64>" entries, space-separated
    bool byToken = false;       // an admin or ingest token came with it
};

struct EventAccepted
{
    qint64 id = 0; // 0 when ignored (nothing stored)
    bool duplicate = false;
    QString traceId;
    QString ignored; // an event GitHub documents without a Gitea counterpart: its name
};

struct EventFilter
{
    QString event;
    QString repo;
    QString status;
    QDateTime since;
    qint64 offset = 0;
    qint64 limit = 50;
};

struct EventPage
{
    std::vector<EventRecord> rows;
    qint64 total = 0;
};

} // namespace Switchyard
