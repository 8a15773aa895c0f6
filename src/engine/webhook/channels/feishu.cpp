// Feishu (Lark) custom bots (Gitea's feishu.go): a text message {msg_type: text, content:
// {text}} — the summary, the body or commit list, and the link on its own line.

#include "channels.h"
#include "summary.h"

namespace Switchyard::Webhook::Channels {

Result<Message> feishu(HookEventType event, const QJsonObject &payload, const QJsonObject &)
{
    Result<Summary> s = summarize(event, payload, noLink);
    if (!s)
        return s.status();
    QStringList parts{s->text};
    const QString extra = s->shape == Shape::Push ? commitLines(*s, noLink) : s->extra;
    if (!extra.isEmpty())
        parts << QString() << extra;
    if (!s->url.isEmpty())
        parts << QString() << s->url;
    return Message{QJsonObject{{QStringLiteral("msg_type"), QStringLiteral("text")},
                               {QStringLiteral("content"), QJsonObject{{QStringLiteral("text"), parts.join(u'\n')}}}},
                   {},
                   {}};
}

} // namespace Switchyard::Webhook::Channels
