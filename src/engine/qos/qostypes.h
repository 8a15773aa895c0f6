#pragma once

// QoS priorities and figures, as values (the admin layer and the console use them without the
// admission controller).

#include <QString>

#include <array>

namespace Switchyard {

// Gitea's three request priorities (routers/common/qos.go).
enum class Priority { Low = 0, Default = 1, High = 2 }; // authenticated = High
QString priorityName(Priority priority);

// GET /qos.
struct QosStats
{
    bool enabled = false;
    int maxInflight = 0;
    int maxWaiting = 0;
    qint64 targetWaitMs = 0;
    int inflight = 0;
    int waiting = 0;
    qint64 admittedTotal = 0;
    std::array<qint64, 3> droppedTotal{}; // by Priority

    bool operator==(const QosStats &) const = default; // models diff rows with it
};

} // namespace Switchyard
