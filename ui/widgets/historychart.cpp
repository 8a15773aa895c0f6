#include "historychart.h"

#include "format.h"
#include "statuscolors.h"
#include "theme.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsLayout>
#include <QDateTimeAxis>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

namespace Switchyard::Console {

namespace {

QString periodText(HistoryResolution resolution)
{
    switch (resolution) {
    case HistoryResolution::Minute: return HistoryChart::tr("in the last hour");
    case HistoryResolution::Hour: return HistoryChart::tr("in the last 7 days");
    case HistoryResolution::Day: return HistoryChart::tr("in the last 90 days");
    }
    return {};
}

} // namespace

HistoryChart::HistoryChart(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *controls = new QHBoxLayout;
    m_queue = new QComboBox(this);
    m_queue->setObjectName(QStringLiteral("historyQueue"));
    m_queue->setAccessibleName(tr("Queue shown in the history chart"));
    m_queue->addItem(tr("All queues"), qint64(0));
    m_resolution = new QComboBox(this);
    m_resolution->setObjectName(QStringLiteral("historyPeriod"));
    m_resolution->setAccessibleName(tr("Period of the history chart"));
    m_resolution->addItem(tr("Last hour, per minute"), int(HistoryResolution::Minute));
    m_resolution->addItem(tr("Last 7 days, per hour"), int(HistoryResolution::Hour));
    m_resolution->addItem(tr("Last 90 days, per day"), int(HistoryResolution::Day));
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setObjectName(QStringLiteral("historySummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *queueLabel = new QLabel(tr("&Queue:"), this);
    queueLabel->setBuddy(m_queue);
    auto *periodLabel = new QLabel(tr("&Period:"), this);
    periodLabel->setBuddy(m_resolution);
    controls->addWidget(queueLabel);
    controls->addWidget(m_queue);
    controls->addWidget(periodLabel);
    controls->addWidget(m_resolution);
    controls->addWidget(m_summary, 1);
    layout->addLayout(controls);

    m_chart = new QChart;
    // Every pixel of height for the plot: the legend goes to the side, no frame margins.
    m_chart->setMargins(QMargins(2, 2, 8, 10));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setBackgroundRoundness(0);
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_processed = new QLineSeries(m_chart);
    m_processed->setName(tr("Processed"));
    m_failed = new QLineSeries(m_chart);
    m_failed->setName(tr("Failed"));
    m_failed->setColor(statusColor(StatusColor::Error));
    m_chart->addSeries(m_processed);
    m_chart->addSeries(m_failed);
    m_timeAxis = new QDateTimeAxis(m_chart);
    m_timeAxis->setTickCount(7);
    m_countAxis = new QValueAxis(m_chart);
    m_countAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_countAxis->setTitleText(tr("items"));
    m_countAxis->setTickCount(3); // the plot is short: more labels would be elided
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_countAxis, Qt::AlignLeft);
    for (QLineSeries *series : {m_processed, m_failed}) {
        series->attachAxis(m_timeAxis);
        series->attachAxis(m_countAxis);
    }
    auto *view = new QChartView(m_chart, this);
    view->setObjectName(QStringLiteral("historyChart"));
    Theme::followPalette(view);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(150);
    view->setFrameShape(QFrame::NoFrame);
    view->setAccessibleName(tr("Processed and failed items over time"));
    layout->addWidget(view, 1);

    connect(m_queue, &QComboBox::currentIndexChanged, this, &HistoryChart::selectionChanged);
    connect(m_resolution, &QComboBox::currentIndexChanged, this, &HistoryChart::selectionChanged);
}

void HistoryChart::setQueues(const std::vector<std::pair<qint64, QString>> &queues)
{
    const QString chosen = m_queue->currentIndex() > 0 ? m_queue->currentText() : QString();
    bool same = m_queue->count() == int(queues.size()) + 1;
    for (std::size_t i = 0; same && i < queues.size(); ++i)
        same = m_queue->itemData(int(i) + 1).toLongLong() == queues[i].first && m_queue->itemText(int(i) + 1) == queues[i].second;
    if (same)
        return;
    QSignalBlocker blocker(m_queue);
    while (m_queue->count() > 1)
        m_queue->removeItem(1);
    int index = 0;
    for (const auto &[qid, name] : queues) {
        m_queue->addItem(name, qid);
        if (name == chosen)
            index = m_queue->count() - 1;
    }
    m_queue->setCurrentIndex(index);
    if (!chosen.isEmpty() && index == 0)
        Q_EMIT selectionChanged(); // the chosen queue went: back to all of them
}

void HistoryChart::setBuckets(const std::vector<HistoryBucket> &buckets)
{
    QList<QPointF> processed, failed;
    qint64 processedSum = 0, failedSum = 0, top = 0;
    for (const HistoryBucket &b : buckets) {
        const double x = double(b.at.toMSecsSinceEpoch());
        processed.append(QPointF(x, double(b.processed)));
        failed.append(QPointF(x, double(b.failed)));
        processedSum += b.processed;
        failedSum += b.failed;
        top = std::max({top, b.processed, b.failed});
    }
    m_processed->replace(processed);
    m_failed->replace(failed);
    if (!buckets.empty()) {
        m_timeAxis->setRange(buckets.front().at.toLocalTime(), buckets.back().at.toLocalTime());
        m_timeAxis->setFormat(resolution() == HistoryResolution::Minute ? QStringLiteral("HH:mm")
                              : resolution() == HistoryResolution::Hour ? QStringLiteral("ddd HH:mm")
                                                                        : QStringLiteral("d MMM"));
    }
    // A round top (2, 4, 10, 20, 40, 100 …) so the three labels are whole numbers.
    qint64 ceiling = 2;
    for (qint64 decade = 1; ceiling < top; decade *= 10)
        for (qint64 step : {2, 4, 10})
            if (ceiling < top)
                ceiling = step * decade;
    m_countAxis->setRange(0, double(ceiling));
    m_summary->setText(tr("%1 processed · %2 failed %3").arg(formatCount(processedSum), formatCount(failedSum), periodText(resolution())));
    m_summary->setForegroundRole(failedSum > 0 ? QPalette::Text : QPalette::PlaceholderText);
    m_chart->setToolTip(m_summary->text());
}

void HistoryChart::setError(const QString &message)
{
    m_summary->setText(tr("History unavailable: %1").arg(message));
}

qint64 HistoryChart::qid() const
{
    return m_queue->currentData().toLongLong();
}

HistoryResolution HistoryChart::resolution() const
{
    return HistoryResolution(m_resolution->currentData().toInt());
}

QString HistoryChart::summary() const
{
    return m_summary->text();
}

} // namespace Switchyard::Console
