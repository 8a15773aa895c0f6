// Microsoft Teams' incoming webhooks (Gitea's msteams.go): a legacy MessageCard with a theme
// colour, title, summary, one section (the sender, the facts, the text) and an OpenUri action.

#include "channels.h"
#include "summary.h"

#include <QJsonArray>

namespace Switchyard::Webhook::Channels {

Result<Message> msteams(HookEventType event, const QJsonObject &payload, const QJsonObject &)
{
    Result<Summary> s = summarize(event, payload, noLink, false);
    if (!s)
        return s.status();
    QJsonArray facts;
    for (const auto &[label, value] : s->facts)
        facts.append(QJsonObject{{QStringLiteral("name"), label}, {QStringLiteral("value"), value}});
    QJsonObject section{{QStringLiteral("facts"), facts}, {QStringLiteral("markdown"), true}};
    const QString text = s->shape == Shape::Push ? commitLines(*s, markdownLink).replace(u'\n', QLatin1String("\n\n")) : s->extra;
    if (!text.isEmpty())
        section.insert(QStringLiteral("text"), text);
    if (!s->sender.isEmpty()) {
        section.insert(QStringLiteral("activityTitle"), s->sender);
        section.insert(QStringLiteral("activitySubtitle"), s->senderUrl);
    }
    QJsonObject body{{QStringLiteral("@type"), QStringLiteral("MessageCard")},
                     {QStringLiteral("@context"), QStringLiteral("https://schema.org/extensions")},
                     {QStringLiteral("themeColor"), hexColour(s->colour).mid(1)},
                     {QStringLiteral("title"), s->text},
                     {QStringLiteral("summary"), s->text},
                     {QStringLiteral("sections"), QJsonArray{section}}};
    if (!s->url.isEmpty())
        body.insert(QStringLiteral("potentialAction"),
                    QJsonArray{QJsonObject{{QStringLiteral("@type"), QStringLiteral("OpenUri")},
                                           {QStringLiteral("name"), QStringLiteral("View in the forge")},
                                           {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("os"), QStringLiteral("default")},
                                                                                              {QStringLiteral("uri"), s->url}}}}}});
    return Message{body, {}, {}};
}

} // namespace Switchyard::Webhook::Channels
