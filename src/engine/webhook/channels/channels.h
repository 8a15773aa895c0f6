#pragma once

// The chat and service channels (seed 001 §12.8): slack, discord, dingtalk, telegram, msteams,
// feishu, matrix, wechatwork and packagist. A task's v2 payload (the forge event in Gitea's API
// shape) is converted at delivery time by the hook's channel, so one event reaches a Slack room
// and a Gitea receiver each in its own format, and a redelivery converts again with the hook's
// current settings. gitea and gogs hooks (and v1 tasks) are sent as stored, not through here.

#include "engine/core/status.h"
#include "engine/webhook/hookevents.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace Switchyard::Webhook::Channels {

struct Message
{
    QJsonObject body;  // sent as compact JSON (the signatures cover these bytes)
    QString urlSuffix; // appended to the hook's URL (matrix: "/<delivery id>", its transaction id)
    QString method;    // empty: the hook's; matrix: PUT
};

// True for the nine channel types (not gitea, not gogs).
bool isChannel(HookType type);

// The hook's meta as the channel reads it, checked when a hook is written: InvalidArgument naming
// "meta.<key>" (slack needs a channel, packagist a package_url, matrix a known message_type …).
Status validateMeta(HookType type, const QJsonObject &meta);
// What the hook's URL must look like for `type` (matrix: …/rooms/<room>/send/m.room.message);
// InvalidArgument naming "url".
Status validateUrl(HookType type, const QString &url);

// The message for `payload` (a v2 payload of `event`): InvalidArgument when the channel does not
// carry that event (packagist takes pushes only) or the payload is not an object; the delivery
// records it as failed, with this message.
Result<Message> convert(HookType type, const QJsonObject &meta, HookEventType event, const QByteArray &payload, const QString &deliveryId);

// One function per channel (its own file).
Result<Message> slack(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> discord(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> dingtalk(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> telegram(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> msteams(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> feishu(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> matrix(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> wechatwork(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);
Result<Message> packagist(HookEventType event, const QJsonObject &payload, const QJsonObject &meta);

} // namespace Switchyard::Webhook::Channels
