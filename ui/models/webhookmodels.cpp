#include "webhookmodels.h"

#include "widgets/format.h"
#include "widgets/statuscolors.h"

#include <QJsonArray>
#include <QJsonObject>

namespace Switchyard::Console {

// ---- HookModel ------------------------------------------------------------------------------------

int HookModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HookModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Id: return tr("Id");
        case Scope: return tr("Scope");
        case Target: return tr("Of");
        case Type: return tr("Type");
        case Url: return tr("URL");
        case Events: return tr("Events");
        case Active: return tr("Active");
        case Last: return tr("Last delivery");
    }
    return {};
}

QString HookModel::eventsSummary(const QJsonValue &events)
{
    const QJsonObject o = events.toObject();
    QString what;
    if (o.value(QStringLiteral("send_everything")).toBool()) {
        what = tr("everything");
    } else if (o.value(QStringLiteral("choose_events")).toBool()) {
        QStringList names;
        const QJsonObject chosen = o.value(QStringLiteral("events")).toObject();
        for (auto it = chosen.begin(); it != chosen.end(); ++it)
            if (it.value().toBool())
                names << it.key();
        what = names.isEmpty() ? tr("nothing chosen") : names.join(QStringLiteral(", "));
    } else {
        what = tr("push only");
    }
    const QString filter = o.value(QStringLiteral("branch_filter")).toString();
    return filter.isEmpty() ? what : tr("%1 · branches %2").arg(what, filter);
}

QVariant HookModel::data(const QModelIndex &index, int role) const
{
    const Admin::HookRow *row = rowAt(index.row());
    if (!row)
        return {};
    const QString target = row->repoId > 0 ? tr("repository %1").arg(row->repoId)
                           : row->ownerId > 0 ? tr("owner %1").arg(row->ownerId)
                                              : tr("every repository");
    const QString last = row->lastStatus == QLatin1String("succeed") ? tr("succeeded")
                         : row->lastStatus == QLatin1String("fail")  ? tr("failed")
                                                                     : tr("none yet");
    switch (role) {
        case KeyRole: return row->id;
        case AttentionRole: return row->lastStatus == QLatin1String("fail");
        case Qt::ForegroundRole:
            if (index.column() == Last && row->lastStatus == QLatin1String("fail"))
                return statusColor(StatusColor::Error);
            if (index.column() == Active && !row->active)
                return statusColor(StatusColor::Paused);
            return {};
        case Qt::ToolTipRole:
            if (index.column() == Url)
                return tr("%1 %2 (%3)").arg(row->httpMethod, row->url, row->contentType);
            return {};
        case RawRole:
            switch (index.column()) {
                case Id: return row->id;
                case Scope: return row->scope;
                case Target: return row->repoId * 1'000'000 + row->ownerId;
                case Type: return row->type;
                case Url: return row->url;
                case Events: return eventsSummary(row->events);
                case Active: return row->active;
                case Last: return row->lastStatus;
            }
            return {};
        case Qt::DisplayRole:
            switch (index.column()) {
                case Id: return row->id;
                case Scope: return row->scope;
                case Target: return target;
                case Type: return row->type;
                case Url: return row->name.isEmpty() ? row->url : tr("%1 — %2").arg(row->name, row->url);
                case Events: return eventsSummary(row->events);
                case Active: return row->active ? tr("yes") : tr("paused");
                case Last: return last;
            }
            return {};
    }
    return {};
}

// ---- HookTaskModel --------------------------------------------------------------------------------

int HookTaskModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HookTaskModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Id: return tr("Id");
        case Hook: return tr("Hook");
        case Created: return tr("Queued");
        case Event: return tr("Event");
        case Status: return tr("Status");
        case Duration: return tr("Took");
        case Delivery: return tr("Delivery id");
    }
    return {};
}

QString HookTaskModel::interruptedSummary(const Admin::HookTaskRow &row)
{
    QStringList lines;
    for (const Admin::HookTaskRow::Interrupted &i : row.interrupted)
        lines << (i.reason == QLatin1String("stopped")
                      ? tr("Interrupted: instance %1 stopped during the delivery (%2); it may or may not have arrived.")
                      : tr("Interrupted: instance %1 ended during the delivery (%2); it may or may not have arrived."))
                     .arg(i.instanceId.isEmpty() ? tr("(unknown)") : i.instanceId, formatTime(i.claimedAt))
                 + u' '
                 + (i.resent ? tr("Sent again under the same delivery id.") : tr("Not sent again (RESEND_INTERRUPTED is off)."));
    return lines.join(u'\n');
}

QVariant HookTaskModel::data(const QModelIndex &index, int role) const
{
    const Admin::HookTaskRow *row = rowAt(index.row());
    if (!row)
        return {};
    const bool bad = row->status == QLatin1String("failed") || row->status == QLatin1String("unknown");
    switch (role) {
        case KeyRole: return row->id;
        case AttentionRole: return bad;
        case Qt::ForegroundRole:
            if (index.column() != Status)
                return {};
            if (bad)
                return statusColor(StatusColor::Error);
            if (row->status == QLatin1String("succeeded"))
                return statusColor(StatusColor::Ok);
            if (row->status == QLatin1String("skipped"))
                return statusColor(StatusColor::Muted);
            return statusColor(StatusColor::Info);
        case Qt::ToolTipRole:
            if (index.column() == Status && !row->interrupted.empty())
                return interruptedSummary(*row);
            if (index.column() == Status) {
                const QJsonObject response = row->response.toObject();
                if (response.contains(QStringLiteral("error")))
                    return response.value(QStringLiteral("error")).toString();
                if (response.contains(QStringLiteral("status")))
                    return tr("HTTP %1").arg(response.value(QStringLiteral("status")).toInt());
            }
            if (index.column() == Event && row->attempt)
                return row->deliverAfter.isValid() && row->status == QLatin1String("pending")
                           ? tr("scheduled retry %1 of delivery %2, due %3").arg(*row->attempt).arg(row->redeliveryOf).arg(formatTime(row->deliverAfter))
                           : tr("scheduled retry %1 of delivery %2").arg(*row->attempt).arg(row->redeliveryOf);
            if (index.column() == Event && row->redeliveryOf > 0)
                return tr("a redelivery of delivery %1").arg(row->redeliveryOf);
            return {};
        case RawRole:
            switch (index.column()) {
                case Id: return row->id;
                case Hook: return row->hookId;
                case Created: return row->id; // ids grow with time and break ties
                case Event: return row->eventType;
                case Status: return row->status;
                case Duration: return row->durationMs;
                case Delivery: return row->uuid;
            }
            return {};
        case Qt::DisplayRole:
            switch (index.column()) {
                case Id: return row->id;
                case Hook: return row->hookId;
                case Created: return formatTime(row->createdAt);
                case Event:
                    if (row->attempt)
                        return tr("%1 (retry %2)").arg(row->eventType).arg(*row->attempt);
                    return row->redeliveryOf > 0 ? tr("%1 (again)").arg(row->eventType) : row->eventType;
                case Status: {
                    const QJsonObject response = row->response.toObject();
                    QString text = row->status;
                    if (response.contains(QStringLiteral("status")))
                        text = tr("%1 · %2").arg(row->status).arg(response.value(QStringLiteral("status")).toInt());
                    if (row->interrupted.empty())
                        return text;
                    // An interrupted attempt: it was sent again under its delivery id, or (without
                    // RESEND_INTERRUPTED) it ended unknown.
                    return row->interrupted.back().resent ? tr("%1 · resent").arg(text) : tr("%1 (interrupted)").arg(text);
                }
                case Duration: return row->isDelivered ? formatDuration(qint64(row->durationMs)) : QString();
                case Delivery: return row->uuid;
            }
            return {};
    }
    return {};
}

} // namespace Switchyard::Console
