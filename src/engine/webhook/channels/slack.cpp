// Slack's incoming webhooks (Gitea's slack.go): {channel, text, username, icon_url, attachments}.
// Links are <url|text>; &, < and > are escaped as Slack's message format asks. The hook's meta
// carries channel (required), username, icon_url and color (a push's attachment colour).

#include "channels.h"
#include "summary.h"

#include <QJsonArray>

namespace Switchyard::Webhook::Channels {

namespace {

QString escaped(const QString &text)
{
    QString out = text;
    out.replace(u'&', QLatin1String("&amp;")).replace(u'<', QLatin1String("&lt;")).replace(u'>', QLatin1String("&gt;"));
    return out;
}

QString slackLink(const QString &url, const QString &text)
{
    if (url.isEmpty())
        return escaped(text);
    return QStringLiteral("<%1|%2>").arg(url, escaped(text));
}

} // namespace

Result<Message> slack(HookEventType event, const QJsonObject &payload, const QJsonObject &meta)
{
    Result<Summary> s = summarize(event, payload, slackLink);
    if (!s)
        return s.status();
    QJsonObject body{{QStringLiteral("channel"), meta.value(QStringLiteral("channel")).toString().trimmed()}, {QStringLiteral("text"), s->text}};
    for (const QString &key : {QStringLiteral("username"), QStringLiteral("icon_url")})
        if (!meta.value(key).toString().isEmpty())
            body.insert(key, meta.value(key).toString());
    const QString metaColour = meta.value(QStringLiteral("color")).toString();
    QJsonArray attachments;
    if (s->shape == Shape::Push && !s->commits.empty()) {
        attachments.append(QJsonObject{{QStringLiteral("color"), metaColour.isEmpty() ? hexColour(s->colour) : metaColour},
                                       {QStringLiteral("fallback"), s->title},
                                       {QStringLiteral("text"), commitLines(*s, slackLink)}});
    } else if (!s->extra.isEmpty()) {
        attachments.append(QJsonObject{{QStringLiteral("color"), hexColour(s->colour)},
                                       {QStringLiteral("fallback"), s->title},
                                       {QStringLiteral("title"), s->title},
                                       {QStringLiteral("title_link"), s->url},
                                       {QStringLiteral("text"), escaped(s->extra)}});
    }
    if (!attachments.isEmpty())
        body.insert(QStringLiteral("attachments"), attachments);
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
