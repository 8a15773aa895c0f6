#pragma once

// A webhook payload as the forge's domain and bus calls (events.h). The upserts run in the
// caller's transaction; the bus calls are returned, to be made once it committed.

#include "engine/core/status.h"
#include "engine/notify/notify.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

namespace Switchyard {

class SqlTransaction;

struct Translation
{
    QString action;
    std::vector<std::function<void(Notifier &)>> calls; // in order; empty: nothing to notify
    // What was left out of the payload and why (an email that is no mail address), escaped: the
    // event's row keeps them, and the log has one line each.
    QStringList notes;
};

// The group an event type belongs to: Gitea's fine types (issue_assign, pull_request_sync,
// pull_request_review_approved …) map to the payload they carry. Empty for an unknown type.
QString eventGroup(const QString &event);

// An event GitHub documents that Gitea has no counterpart for (check_run, star, deployment,
// label, membership …): accepted and ignored, never stored. False for the types eventGroup() knows
// and for names no forge documents.
bool isForgeEventWithoutCounterpart(const QString &event);

// 400 naming a field the payload lacks.
Status missingField(const QString &field);

// The fields the payload must have for its event, checked before it is stored; the error names
// the missing field.
Status checkPayload(const QString &event, const QJsonObject &payload);

// Upserts users, repositories, issues, comments, reviews and releases of `source`; every email
// goes through parseMailbox (an invalid one is stored as none, and noted); records
// participants; watches for AUTO_WATCH_ON_CHANGES. `traceId` and `scope` (may be null) go into
// every call's context.
Result<Translation> translateEvent(SqlTransaction &tx, const QString &source, const QString &event, const QJsonObject &payload,
                                   bool autoWatch, const QString &traceId, std::shared_ptr<NotifyScope> scope = nullptr);

} // namespace Switchyard
