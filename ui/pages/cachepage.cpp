#include "cachepage.h"

#include "widgets/statuscolors.h"

#include "admin/ops/cacheops.h"

#include "widgets/format.h"
#include "widgets/livechart.h"
#include "widgets/icons.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace Switchyard::Console {

CachePage::CachePage(Admin::AdminBackend &backend, QWidget *parent) : Page(backend, parent)
{
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);

    auto *cacheBox = new QGroupBox(tr("Cache"), this);
    auto *cacheLayout = new QVBoxLayout(cacheBox);
    m_info = new QLabel(cacheBox);
    m_stats = new QLabel(cacheBox);
    m_stats->setObjectName(QStringLiteral("cacheStats"));
    for (QLabel *label : {m_info, m_stats}) {
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setWordWrap(true);
        cacheLayout->addWidget(label);
    }
    auto *checkRow = new QHBoxLayout;
    m_checkButton = new QPushButton(tr("Run self-check"), cacheBox);
    m_checkButton->setToolTip(tr("Delete, put and get a 500-byte test value; slow above 30 ms"));
    connect(m_checkButton, &QPushButton::clicked, this, &CachePage::runSelfCheck);
    m_checkResult = new QLabel(tr("Not run yet. The check is slow above 30 ms."), cacheBox);
    m_checkResult->setObjectName(QStringLiteral("selfCheckResult"));
    m_checkResult->setWordWrap(true);
    checkRow->addWidget(m_checkButton);
    checkRow->addWidget(m_checkResult, 1);
    cacheLayout->addLayout(checkRow);
    cacheLayout->addStretch(1);
    layout->addWidget(cacheBox, 0, 0);

    m_latencyChart = new LiveChart(tr("Cache latency (ms)"), tr("p50"), tr("p99"), 0.01, QStringLiteral("%.3g"), this);
    m_latencyChart->setMinimumHeight(200);
    layout->addWidget(m_latencyChart, 0, 1);

    auto *qosBox = new QGroupBox(tr("QoS admission control"), this);
    auto *qosLayout = new QVBoxLayout(qosBox);
    m_qos = new QLabel(qosBox);
    m_qos->setObjectName(QStringLiteral("qosStats"));
    m_qos->setWordWrap(true);
    m_qos->setTextInteractionFlags(Qt::TextSelectableByMouse);
    qosLayout->addWidget(m_qos);
    qosLayout->addStretch(1);
    layout->addWidget(qosBox, 1, 0);

    m_qosChart = new LiveChart(tr("QoS requests"), tr("in flight"), tr("waiting"), 4, QStringLiteral("%.0f"), this);
    m_qosChart->setMinimumHeight(200);
    layout->addWidget(m_qosChart, 1, 1);
    layout->setColumnStretch(0, 2);
    layout->setColumnStretch(1, 3);

}



void CachePage::refresh()
{
    single(QStringLiteral("cacheInfo"), [=, this](const Done &done) {
        backend().call(Admin::Ops::cacheInfo, {}, this, [this, done](Result<Admin::CacheInfo> info) {
            done();
            if (!info) {
                m_info->setText(tr("Cache information unavailable: %1").arg(info.status().message().toHtmlEscaped()));
                return;
            }
            m_info->setText(tr("<b>Adapter</b> %1%2 · <b>item TTL</b> %3")
                                .arg(info->adapter.toHtmlEscaped(), info->host.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(info->host.toHtmlEscaped()),
                                     formatDuration(info->ttlMs)));
        });
    });
    single(QStringLiteral("cacheStats"), [=, this](const Done &done) {
        backend().call(Admin::Ops::cacheStats, {}, this, [this, done](Result<CacheStats> stats) {
            done();
            if (!stats)
                return;
            const qint64 lookups = stats->hits + stats->misses;
            const double ratio = lookups > 0 ? double(stats->hits) / double(lookups) : 0;
            QString text = tr("<b>Hits</b> %1 · <b>misses</b> %2 · <b>hit ratio</b> %3 %<br><b>Latency</b> p50 %4 ms · p99 %5 ms"
                              " · <b>evictions</b> %6 · <b>errors</b> %7")
                               .arg(formatCount(stats->hits), formatCount(stats->misses), QLocale().toString(ratio * 100, 'f', 1),
                                    QLocale().toString(stats->latencyP50Ms, 'f', 3), QLocale().toString(stats->latencyP99Ms, 'f', 3),
                                    formatCount(stats->evictions), formatCount(stats->errors));
            if (stats->items >= 0)
                text += tr(" · <b>items</b> %1").arg(formatCount(stats->items));
            if (stats->twoQueue)
                text += tr("<br><b>2Q</b> recent %1 · frequent %2 · ghost %3")
                            .arg(formatCount(stats->twoQueue->recent), formatCount(stats->twoQueue->frequent),
                                 formatCount(stats->twoQueue->ghost));
            m_stats->setText(text);
            addSample(stats->latencyP50Ms, stats->latencyP99Ms, ratio);
        });
    });
    single(QStringLiteral("qos"), [=, this](const Done &done) {
        backend().call(Admin::Ops::qos, {}, this, [this, done](Result<QosStats> qos) {
            done();
            if (!qos)
                return;
            QString text = qos->enabled ? tr("<b>Enabled</b>") : tr("<b>Disabled</b> (<code>[qos] ENABLED = false</code>): requests are not queued");
            text += tr("<br><b>In flight</b> %1 of %2 · <b>waiting</b> %3 of %4 · <b>target wait</b> %5 ms<br><b>Admitted</b> %6 · "
                       "<b>dropped</b> high %7 · default %8 · low %9")
                        .arg(qos->inflight).arg(qos->maxInflight).arg(qos->waiting).arg(qos->maxWaiting).arg(qos->targetWaitMs)
                        .arg(formatCount(qos->admittedTotal), formatCount(qos->droppedTotal[2]), formatCount(qos->droppedTotal[1]),
                             formatCount(qos->droppedTotal[0]));
            m_qos->setText(text);
            m_qosChart->addSample(qos->inflight, qos->waiting);
        });
    });
}

void CachePage::addSample(double p50, double p99, double)
{
    m_latencyChart->addSample(p50, p99);
}

void CachePage::runSelfCheck()
{
    m_checkButton->setEnabled(false);
    m_checkResult->setText(tr("Checking…"));
    backend().call(Admin::Ops::cacheCheck, {}, this, [this](Result<Admin::CacheTest> test) {
        m_checkButton->setEnabled(true);
        if (!test) {
            m_checkResult->setText(colored(StatusColor::Error, tr("The check could not run: %1")).arg(test.status().message().toHtmlEscaped()));
            return;
        }
        const QString elapsed = QLocale().toString(test->elapsedMs, 'f', 2);
        if (!test->ok) {
            m_checkResult->setText(colored(StatusColor::Error, tr("✗ Failed after %1 ms: %2")).arg(elapsed, test->error.toHtmlEscaped()));
            Q_EMIT operationFailed(tr("Cache self-check failed: %1").arg(test->error), test->error);
        } else if (test->slow) {
            m_checkResult->setText(colored(StatusColor::Warning, tr("⚠ Slow: %1 ms (threshold %2 ms)")).arg(elapsed).arg(test->thresholdMs));
            Q_EMIT operationInfo(tr("Cache self-check slow: %1 ms (threshold %2 ms)").arg(elapsed).arg(test->thresholdMs));
        } else {
            m_checkResult->setText(colored(StatusColor::Ok, tr("✓ OK in %1 ms (threshold %2 ms)")).arg(elapsed).arg(test->thresholdMs));
            Q_EMIT operationSucceeded(tr("Cache self-check passed in %1 ms").arg(elapsed));
        }
        refresh();
    });
}

} // namespace Switchyard::Console
