// Packagist's update-package API (Gitea's packagist.go): {repository: {url}} with the package's
// repository URL from meta.package_url; the username and API token are in the hook's URL
// (https://packagist.org/api/update-package?username=…&apiToken=…). Packagist has nothing to do
// with other events. Gitea's packagistConvertor answers every other event with an empty payload
// ({"repository":{"url":""}}), which Packagist rejects; on purpose, we record those as failed
// deliveries naming the event without posting, so a hook that subscribes to more than pushes
// shows it in its history.

#include "channels.h"

namespace Switchyard::Webhook::Channels {

Result<Message> packagist(HookEventType event, const QJsonObject &, const QJsonObject &meta)
{
    if (event != HookEventType::Push)
        return Status::invalidArgument(
            QStringLiteral("packagist hooks are told about pushes only; %1 is not sent (subscribe the hook to push only)").arg(name(event)));
    return Message{QJsonObject{{QStringLiteral("repository"), QJsonObject{{QStringLiteral("url"), meta.value(QStringLiteral("package_url")).toString()}}}},
                   {},
                   {}};
}

} // namespace Switchyard::Webhook::Channels
