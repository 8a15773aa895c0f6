#pragma once

// What a delivery sends, as a pure function of the hook and the task (Gitea's newDefaultRequest
// and its channels' newXRequest, then addDefaultHeaders): the URL, the method, the headers and
// the body. The delivery loop sends it (adding Host and the sealed Authorization); the golden
// files of tests/golden/webhook/requests pin it down for every event, payload version and hook
// type. Safe from any thread: it keeps no state.

#include "webhook.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace Switchyard::Webhook {

struct OutgoingRequest
{
    QUrl url;       // with a GET's ?payload= and a matrix PUT's transaction id
    QString method;
    QList<QPair<QByteArray, QByteArray>> headers; // Gitea's, in its order; Content-Type last (none on a GET)
    QByteArray body;    // the bytes on the wire: empty on a GET, payload=… for a form
    QByteArray payload; // what the signatures cover and the history shows (Gitea's RequestInfo.Body)
};

// The request of `task` to `hook`: a v2 task of a chat hook is converted now with the hook's
// settings; a v1 task, and every gitea/gogs task, goes as stored. A channel that cannot carry the
// event is an InvalidArgument naming the channel and the reason. `ownerIsOrganization` tells
// an owner's hook `organization` from `user` (X-Gitea-Hook-Installation-Target-Type).
Result<OutgoingRequest> composeRequest(const Hook &hook, const HookTask &task, bool ownerIsOrganization);

} // namespace Switchyard::Webhook
