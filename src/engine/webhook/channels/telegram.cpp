// Telegram's Bot API sendMessage (Gitea's telegram.go): {text, parse_mode: HTML,
// disable_web_page_preview}. The bot token is in the hook's URL
// (https://api.telegram.org/bot<token>/sendMessage); meta may carry chat_id and thread_id, sent
// as chat_id and message_thread_id. Telegram cuts messages at 4096 characters.

#include "channels.h"
#include "summary.h"

namespace Switchyard::Webhook::Channels {

Result<Message> telegram(HookEventType event, const QJsonObject &payload, const QJsonObject &meta)
{
    Result<Summary> s = summarize(event, payload, htmlLink);
    if (!s)
        return s.status();
    const QString extra = s->shape == Shape::Push ? htmlCommitLines(*s, QStringLiteral("\n")) : s->extra.toHtmlEscaped();
    const QString text = extra.isEmpty() ? s->text : s->text + QLatin1String("\n\n") + extra;
    QJsonObject body{{QStringLiteral("text"), truncated(text.trimmed(), 4096)},
                     {QStringLiteral("parse_mode"), QStringLiteral("HTML")},
                     {QStringLiteral("disable_web_page_preview"), true}};
    const QJsonValue chat = meta.value(QStringLiteral("chat_id"));
    if ((chat.isString() && !chat.toString().isEmpty()) || chat.isDouble())
        body.insert(QStringLiteral("chat_id"), chat);
    const QJsonValue thread = meta.value(QStringLiteral("thread_id"));
    if ((thread.isString() && !thread.toString().isEmpty()) || thread.isDouble())
        body.insert(QStringLiteral("message_thread_id"), thread);
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
