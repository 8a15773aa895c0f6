#pragma once

#include "page.h"

#include <QTimer>

class QLabel;
class QPushButton;

namespace Switchyard::Console {

class LiveChart;

// Cache & QoS (SPEC §3, §6): the adapter, hit ratio, latency p50/p99 with a chart, 2Q occupancy,
// Run self-check with the elapsed time against the 30 ms threshold; QoS in-flight, waiting,
// admitted and dropped by priority. Read every second while the page is shown.
class CachePage final : public Page
{
    Q_OBJECT
public:
    explicit CachePage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    QPushButton *selfCheckButton() const { return m_checkButton; }
    QLabel *selfCheckResult() const { return m_checkResult; }
    QLabel *statsLabel() const { return m_stats; }
    QLabel *qosLabel() const { return m_qos; }

private:
    void runSelfCheck();
    void addSample(double p50, double p99, double hitRatio);

    QLabel *m_info;
    QLabel *m_stats;
    QLabel *m_checkResult;
    QPushButton *m_checkButton;
    QLabel *m_qos;
    LiveChart *m_latencyChart;
    LiveChart *m_qosChart;
};

} // namespace Switchyard::Console
