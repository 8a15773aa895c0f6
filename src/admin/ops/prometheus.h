#pragma once

// GET /metrics: the instance in the Prometheus text exposition format (version 0.0.4). Base
// units (seconds), counters end in _total, quantiles are summaries — `promtool check metrics`
// accepts it (tests/server/tst_metrics).

#include "admin/admintypes.h"

#include <QByteArray>

#include <initializer_list>
#include <utility>

namespace Switchyard {
class Engine;
}

namespace Switchyard::Admin {

// Writes one metric family: HELP and TYPE once, then its samples.
class MetricFamily
{
public:
    MetricFamily(QByteArray &out, const char *name, const char *type, const char *help);
    MetricFamily &sample(std::initializer_list<std::pair<const char *, QString>> labels, double value, const char *suffix = "");
    MetricFamily &sample(double value) { return sample({}, value); }

private:
    QByteArray &m_out;
    QByteArray m_name;
};

// The engine's families: build info, queues, cron, locks, cache, QoS.
QByteArray prometheusText(Engine &engine, const InstanceInfo &instance);

} // namespace Switchyard::Admin
