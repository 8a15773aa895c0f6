// WeCom (WeChat Work) group robots (Gitea's wechatwork.go): {msgtype: markdown, markdown:
// {content}} — the summary with links, then the body or commit list. WeCom refuses
// content over 4096 bytes; it is cut to fit.

#include "channels.h"
#include "summary.h"

namespace Switchyard::Webhook::Channels {

Result<Message> wechatwork(HookEventType event, const QJsonObject &payload, const QJsonObject &)
{
    Result<Summary> s = summarize(event, payload, markdownLink);
    if (!s)
        return s.status();
    QString content = s->text;
    const QString extra = s->shape == Shape::Push ? commitLines(*s, markdownLink) : s->extra;
    if (!extra.isEmpty())
        content += QLatin1String("\n> ") + QString(extra).replace(u'\n', QLatin1String("\n> "));
    // 4096 bytes of UTF-8, not characters: cut characters until it fits.
    QString cut = truncated(content, 4096);
    while (cut.toUtf8().size() > 4096)
        cut = truncated(cut, cut.size() - 64);
    return Message{QJsonObject{{QStringLiteral("msgtype"), QStringLiteral("markdown")},
                               {QStringLiteral("markdown"), QJsonObject{{QStringLiteral("content"), cut}}}},
                   {},
                   {}};
}

} // namespace Switchyard::Webhook::Channels
