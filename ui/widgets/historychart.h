#pragma once

// The Overview's history chart: processed and failed items per minute (the last hour), per hour
// (7 days) or per day (90 days), for one queue or all of them — what Sidekiq's, Hangfire's and
// asynqmon's dashboards open with. It only shows what it is given; the page asks the backend
// (GET /queues/history) when selectionChanged() says the operator chose another queue or period.

#include "admin/admintypes.h"

#include <QWidget>

class QChart;
class QComboBox;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace Switchyard::Console {

class HistoryChart final : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryChart(QWidget *parent = nullptr);

    // The queues to choose from (qid, name); the chosen one stays chosen while it exists.
    void setQueues(const std::vector<std::pair<qint64, QString>> &queues);
    void setBuckets(const std::vector<HistoryBucket> &buckets);
    void setError(const QString &message);

    qint64 qid() const; // 0: every queue
    HistoryResolution resolution() const;
    QString summary() const; // "1 234 processed · 5 failed in the last hour"

Q_SIGNALS:
    void selectionChanged();

private:
    QComboBox *m_queue;
    QComboBox *m_resolution;
    QLabel *m_summary;
    QChart *m_chart;
    QLineSeries *m_processed;
    QLineSeries *m_failed;
    QDateTimeAxis *m_timeAxis;
    QValueAxis *m_countAxis;
};

} // namespace Switchyard::Console
