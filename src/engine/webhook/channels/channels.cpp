#include "channels.h"

#include <QJsonDocument>
#include <QUrl>

namespace Switchyard::Webhook::Channels {

namespace {

Status invalidMeta(const QString &key, const QString &message)
{
    return Status::invalidArgument(message).withField(QStringLiteral("meta.") + key);
}

bool isHttpUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    return url.isValid() && !url.host().isEmpty() && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"));
}

Status optionalString(const QJsonObject &meta, const QString &key)
{
    if (meta.contains(key) && !meta.value(key).isString() && !meta.value(key).isNull())
        return invalidMeta(key, QStringLiteral("meta.%1 must be a string").arg(key));
    return Status::ok();
}

// slack's and discord's username and icon_url.
Status nameAndIcon(const QJsonObject &meta)
{
    for (const QString &key : {QStringLiteral("username"), QStringLiteral("icon_url")})
        if (Status s = optionalString(meta, key); !s)
            return s;
    const QString icon = meta.value(QStringLiteral("icon_url")).toString();
    if (!icon.isEmpty() && !isHttpUrl(icon))
        return invalidMeta(QStringLiteral("icon_url"), QStringLiteral("meta.icon_url '%1' is not an http(s) URL").arg(icon.left(200)));
    return Status::ok();
}

} // namespace

bool isChannel(HookType type)
{
    return type != HookType::Gitea && type != HookType::Gogs;
}

Status validateMeta(HookType type, const QJsonObject &meta)
{
    switch (type) {
        case HookType::Slack: {
            const QString channel = meta.value(QStringLiteral("channel")).toString().trimmed();
            if (channel.isEmpty() || channel == QLatin1String("#"))
                return invalidMeta(QStringLiteral("channel"), QStringLiteral("meta.channel names the Slack channel (#ops, or a channel id); it is required"));
            if (Status s = optionalString(meta, QStringLiteral("color")); !s)
                return s;
            return nameAndIcon(meta);
        }
        case HookType::Discord: {
            return nameAndIcon(meta);
        }
        case HookType::Matrix: {
            const QJsonValue t = meta.value(QStringLiteral("message_type"));
            if (t.isUndefined() || t.isNull() || t == QJsonValue(1) || t == QJsonValue(2) || t == QJsonValue(QStringLiteral("m.notice")) ||
                t == QJsonValue(QStringLiteral("m.text")))
                return Status::ok();
            return invalidMeta(QStringLiteral("message_type"), QStringLiteral("meta.message_type is m.notice (1, the default) or m.text (2)"));
        }
        case HookType::Packagist: {
            const QString url = meta.value(QStringLiteral("package_url")).toString();
            if (!isHttpUrl(url))
                return invalidMeta(QStringLiteral("package_url"),
                                   QStringLiteral("meta.package_url is the package's repository URL Packagist should update (an http(s) URL); it is required"));
            return Status::ok();
        }
        case HookType::Telegram: {
            for (const QString &key : {QStringLiteral("chat_id"), QStringLiteral("thread_id")}) {
                const QJsonValue v = meta.value(key);
                if (!v.isUndefined() && !v.isNull() && !v.isString() && !v.isDouble())
                    return invalidMeta(key, QStringLiteral("meta.%1 is a number or a string").arg(key));
            }
            return Status::ok();
        }
        case HookType::Gitea:
        case HookType::Gogs:
        case HookType::Dingtalk:
        case HookType::Msteams:
        case HookType::Feishu:
        case HookType::Wechatwork: break;
    }
    return Status::ok();
}

Status validateUrl(HookType type, const QString &url)
{
    if (type != HookType::Matrix)
        return Status::ok();
    const QString path = QUrl(url).path();
    if (!path.contains(QLatin1String("/rooms/")) || !path.endsWith(QLatin1String("/send/m.room.message")))
        return Status::invalidArgument(QStringLiteral("a matrix hook's url is the room's send endpoint: "
                                                      "https://<homeserver>/_matrix/client/v3/rooms/<room id>/send/m.room.message "
                                                      "(each delivery PUTs to it with its delivery id as the transaction id)"))
            .withField(QStringLiteral("url"));
    return Status::ok();
}

Result<Message> convert(HookType type, const QJsonObject &meta, HookEventType event, const QByteArray &payload, const QString &deliveryId)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(payload, &error);
    if (!document.isObject())
        return Status::invalidArgument(QStringLiteral("the stored payload is not a JSON object (%1)").arg(error.errorString()));
    const QJsonObject p = document.object();
    switch (type) {
        case HookType::Slack: return slack(event, p, meta);
        case HookType::Discord: return discord(event, p, meta);
        case HookType::Dingtalk: return dingtalk(event, p, meta);
        case HookType::Telegram: return telegram(event, p, meta);
        case HookType::Msteams: return msteams(event, p, meta);
        case HookType::Feishu: return feishu(event, p, meta);
        case HookType::Wechatwork: return wechatwork(event, p, meta);
        case HookType::Packagist: return packagist(event, p, meta);
        case HookType::Matrix: {
            Result<Message> m = matrix(event, p, meta);
            if (m) {
                m->urlSuffix = u'/' + QString::fromUtf8(QUrl::toPercentEncoding(deliveryId));
                m->method = QStringLiteral("PUT");
            }
            return m;
        }
        case HookType::Gitea:
        case HookType::Gogs: break;
    }
    return Status::invalidArgument(QStringLiteral("%1 hooks are sent the payload as it is, not converted").arg(name(type)));
}

} // namespace Switchyard::Webhook::Channels
