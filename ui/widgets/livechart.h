#pragma once

// Two figures sampled as the page refreshes, over the last ten minutes (the Cache page's latency
// and QoS charts, the Webhooks page's delivery latency). The value axis grows with what it shows.

#include <QChartView>

class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace Switchyard::Console {

class LiveChart final : public QChartView
{
    Q_OBJECT
public:
    // `floor`: the value axis's least maximum; `labelFormat`: printf style ("%.3g", "%.0f").
    LiveChart(const QString &title, const QString &first, const QString &second, double floor, const QString &labelFormat,
              QWidget *parent = nullptr);

    void addSample(double first, double second);
    int sampleCount() const; // points kept (tests)

    static constexpr int kSeconds = 600;

private:
    QLineSeries *m_first;
    QLineSeries *m_second;
    QDateTimeAxis *m_time;
    QValueAxis *m_values;
    double m_floor;
};

} // namespace Switchyard::Console
