#pragma once

// GET /metrics: the instance in the Prometheus text exposition format (version 0.0.4).

#include <QByteArray>

namespace Switchyard::Admin {
class AdminOperations;
}

namespace Switchyard::Server {

QByteArray prometheusText(Admin::AdminOperations &operations, int streamClients, qint64 streamFramesSkipped);

} // namespace Switchyard::Server
