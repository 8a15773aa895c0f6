#pragma once

// The webhook golden suite's inputs: the notifier's payloads (tests/golden/webhook/payloads) and
// the channel tests' extra Gitea-shaped inputs (tests/golden/webhook/channel-inputs), each named
// `<event_type>[-<what>].json` so its name says the event it is sent as. Header-only: the golden
// tests of the webhook channels and of whole requests share it.

#include "engine/webhook/hookevents.h"

#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QString>

#include <optional>

namespace Switchyard::Test {

// A sample's event type from its name: the longest event name that starts it, followed by the
// end or '-' ("issues-opened" → issues, "pull_request_review_approved-reviewed" → that type).
inline std::optional<Webhook::HookEventType> eventOfSample(const QString &sample)
{
    std::optional<Webhook::HookEventType> best;
    qsizetype bestLength = 0;
    for (Webhook::HookEventType type : Webhook::everyHookEventType()) {
        const QString n = Webhook::name(type);
        if (sample.startsWith(n) && (sample.size() == n.size() || sample.at(n.size()) == u'-') && n.size() > bestLength) {
            best = type;
            bestLength = n.size();
        }
    }
    return best;
}

// Every sample under `goldenDir`/webhook: its name → its file.
inline QMap<QString, QString> webhookSamples(const QString &goldenDir)
{
    QMap<QString, QString> found;
    for (const QString &dir : {QStringLiteral("payloads"), QStringLiteral("channel-inputs")})
        for (const QFileInfo &f : QDir(goldenDir + QStringLiteral("/webhook/") + dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files))
            found.insert(f.completeBaseName(), f.filePath());
    return found;
}

} // namespace Switchyard::Test
