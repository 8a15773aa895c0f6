#include "livechart.h"

#include "theme.h"

#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace Switchyard::Console {

namespace {

void appendPoint(QLineSeries *series, const QDateTime &at, double value)
{
    series->append(double(at.toMSecsSinceEpoch()), value);
    const double cutoff = double(at.addSecs(-LiveChart::kSeconds).toMSecsSinceEpoch());
    int drop = 0;
    while (drop < series->count() && series->at(drop).x() < cutoff)
        ++drop;
    if (drop > 0)
        series->removePoints(0, drop);
}

double peakOf(const QLineSeries *series)
{
    double peak = 0;
    for (const QPointF &p : series->points())
        peak = std::max(peak, p.y());
    return peak;
}

} // namespace

LiveChart::LiveChart(const QString &title, const QString &first, const QString &second, double floor, const QString &labelFormat,
                     QWidget *parent)
    : QChartView(parent), m_floor(floor)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignTop);
    m_first = new QLineSeries(chart);
    m_first->setName(first);
    m_second = new QLineSeries(chart);
    m_second->setName(second);
    chart->addSeries(m_first);
    chart->addSeries(m_second);
    m_time = new QDateTimeAxis(chart);
    m_time->setFormat(QStringLiteral("HH:mm"));
    m_time->setTickCount(6);
    m_values = new QValueAxis(chart);
    m_values->setLabelFormat(labelFormat);
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_values, Qt::AlignLeft);
    for (QLineSeries *series : {m_first, m_second}) {
        series->attachAxis(m_time);
        series->attachAxis(m_values);
    }
    const QDateTime now = QDateTime::currentDateTime();
    m_time->setRange(now.addSecs(-kSeconds), now);
    m_values->setRange(0, floor);
    QChart *const empty = this->chart(); // the view's own first chart: setChart() gives it back to us
    setChart(chart);
    delete empty;
    Theme::followPalette(this);
    setRenderHint(QPainter::Antialiasing);
    setAccessibleName(title);
    setFocusPolicy(Qt::NoFocus); // nothing to operate: a screen reader reads the page's figures in text
}

void LiveChart::addSample(double first, double second)
{
    const QDateTime now = QDateTime::currentDateTime();
    appendPoint(m_first, now, first);
    appendPoint(m_second, now, second);
    m_time->setRange(now.addSecs(-kSeconds), now);
    m_values->setRange(0, std::max(m_floor, std::max(peakOf(m_first), peakOf(m_second)) * 1.2));
}

int LiveChart::sampleCount() const
{
    return int(m_first->count());
}

} // namespace Switchyard::Console
