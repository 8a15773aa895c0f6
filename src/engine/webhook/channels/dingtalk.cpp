// DingTalk's robot webhooks (Gitea's dingtalk.go): an actionCard {title, text (markdown),
// hideAvatar, singleTitle, singleURL} — one button that opens the issue, pull, commit list …
// DingTalk's signing (a timestamp and sign in the URL) is the URL the operator pastes.

#include "channels.h"
#include "summary.h"

namespace Switchyard::Webhook::Channels {

Result<Message> dingtalk(HookEventType event, const QJsonObject &payload, const QJsonObject &)
{
    Result<Summary> s = summarize(event, payload, noLink);
    if (!s)
        return s.status();
    const QString extra = s->shape == Shape::Push ? commitLines(*s, markdownLink).replace(u'\n', QLatin1String("\r\n")) : s->extra;
    const QString text = extra.isEmpty() ? s->text : s->text + QLatin1String("\r\n\r\n") + extra;
    const QJsonObject card{{QStringLiteral("title"), s->title.trimmed()},
                           {QStringLiteral("text"), text.trimmed()},
                           {QStringLiteral("hideAvatar"), QStringLiteral("0")},
                           {QStringLiteral("singleTitle"), s->button},
                           {QStringLiteral("singleURL"), s->url}};
    return Message{QJsonObject{{QStringLiteral("msgtype"), QStringLiteral("actionCard")}, {QStringLiteral("actionCard"), card}}, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
