// Matrix rooms (Gitea's matrix.go): an m.room.message event PUT to
// …/rooms/<room>/send/m.room.message/<transaction id>, the delivery id being the transaction id
// (the homeserver drops a repeated PUT of one id, so a retried delivery posts once; a redelivery
// has a new id and posts again). body is markdown, formatted_body HTML; a push lists its commits
// under io.gitea.commits as Gitea does. The access token is the hook's Authorization header
// ("Bearer …"). meta.message_type: m.notice (1, the default) or m.text (2).

#include "channels.h"
#include "summary.h"

#include <QJsonArray>

namespace Switchyard::Webhook::Channels {

Result<Message> matrix(HookEventType event, const QJsonObject &payload, const QJsonObject &meta)
{
    Result<Summary> html = summarize(event, payload, htmlLink);
    if (!html)
        return html.status();
    Result<Summary> plain = summarize(event, payload, markdownLink);
    if (!plain)
        return plain.status();
    QString formatted = html->text;
    QString text = plain->text;
    if (html->shape == Shape::Push) {
        if (!html->commits.empty()) {
            formatted += QLatin1String("<br>") + htmlCommitLines(*html, QStringLiteral("<br>"));
            text += u'\n' + commitLines(*plain, markdownLink);
        }
    } else if (!html->extra.isEmpty()) {
        formatted += QLatin1String("<br>") + html->extra.toHtmlEscaped().replace(u'\n', QLatin1String("<br>"));
        text += QLatin1String("\n\n") + plain->extra;
    }
    const QJsonValue type = meta.value(QStringLiteral("message_type"));
    const QString msgtype = type == QJsonValue(2) || type == QJsonValue(QStringLiteral("m.text")) ? QStringLiteral("m.text") : QStringLiteral("m.notice");
    QJsonObject body{{QStringLiteral("msgtype"), msgtype},
                     {QStringLiteral("body"), text},
                     {QStringLiteral("format"), QStringLiteral("org.matrix.custom.html")},
                     {QStringLiteral("formatted_body"), formatted}};
    if (html->shape == Shape::Push)
        body.insert(QStringLiteral("io.gitea.commits"), payload.value(QStringLiteral("commits")).toArray());
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
