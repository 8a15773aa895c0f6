// Discord's webhooks (Gitea's discord.go): {username, avatar_url, embeds: [{title, description,
// url, color, author}]}. The title is the plain summary (Discord links it to `url`); the
// description is markdown. Discord's limits: title 256, description 4096 characters. The hook's
// meta carries username and icon_url (the avatar).

#include "channels.h"
#include "summary.h"

#include <QJsonArray>

namespace Switchyard::Webhook::Channels {

Result<Message> discord(HookEventType event, const QJsonObject &payload, const QJsonObject &meta)
{
    Result<Summary> s = summarize(event, payload, noLink, false);
    if (!s)
        return s.status();
    const QString description = s->shape == Shape::Push ? commitLines(*s, markdownLink) : s->extra;
    QJsonObject embed{{QStringLiteral("title"), truncated(s->text, 256)}, {QStringLiteral("color"), s->colour}};
    if (!description.isEmpty())
        embed.insert(QStringLiteral("description"), truncated(description, 4096));
    if (!s->url.isEmpty())
        embed.insert(QStringLiteral("url"), s->url);
    if (!s->sender.isEmpty()) {
        QJsonObject author{{QStringLiteral("name"), s->sender}};
        if (!s->senderUrl.isEmpty())
            author.insert(QStringLiteral("url"), s->senderUrl);
        embed.insert(QStringLiteral("author"), author);
    }
    QJsonObject body{{QStringLiteral("embeds"), QJsonArray{embed}}};
    if (!meta.value(QStringLiteral("username")).toString().isEmpty())
        body.insert(QStringLiteral("username"), meta.value(QStringLiteral("username")).toString());
    if (!meta.value(QStringLiteral("icon_url")).toString().isEmpty())
        body.insert(QStringLiteral("avatar_url"), meta.value(QStringLiteral("icon_url")).toString());
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
