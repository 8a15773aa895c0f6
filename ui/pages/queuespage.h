#pragma once

#include "tablepage.h"

#include "models/queuemodel.h"

#include <QElapsedTimer>
#include <QPointer>

class QAction;
class QChart;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QLineSeries;
class QProgressBar;
class QSpinBox;
class QToolButton;
class QDateTimeAxis;
class QValueAxis;

namespace Switchyard::Console {

class QueueItemsView;

// Queues (SPEC §2.5): the live table with a throughput sparkline, Pause/Resume, Flush with
// progress and Cancel, Remove all behind a confirmation that names the count, Set max workers;
// the detail pane charts the selected queue's length and throughput for 10 minutes.
class QueuesPage final : public TablePage
{
    Q_OBJECT
public:
    explicit QueuesPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    QueueModel &model() { return m_model; }
    QAction *pauseAction() const { return m_pause; }
    QAction *resumeAction() const { return m_resume; }
    QAction *flushAction() const { return m_flush; }
    QAction *removeAllAction() const { return m_removeAll; }
    QAction *setWorkersAction() const { return m_setWorkers; }
    QAction *settingsHelpAction() const { return m_settingsHelp; }
    QTabWidget *detailTabs() const { return m_tabs; }
    QueueItemsView *itemsView() const { return m_items; }
    QueueItemsView *inFlightView() const { return m_inFlight; }
    QSpinBox *flushTimeout() const { return m_flushTimeout; }
    QProgressBar *flushProgress() const { return m_progress; }
    QToolButton *cancelFlushButton() const { return m_cancelFlush; }
    Admin::AdminJob *runningFlush() const { return m_job; }

protected:
    void selectionChanged() override;

private:
    void onEvent(const Admin::AdminEvent &event);
    void updateActions();
    // After an action's reply: its buttons come back and the list is read again.
    void actionDone();
    void updateDetail();
    void pauseSelected(bool pause);
    void flushSelected();
    void removeAllSelected();
    void setWorkersSelected();
    void showQueueSettings();
    const Admin::QueueRow *selectedRow() const;

    QueueModel m_model;
    QAction *m_pause;
    QAction *m_resume;
    QAction *m_flush;
    QAction *m_removeAll;
    QAction *m_setWorkers;
    QAction *m_settingsHelp;
    QSpinBox *m_flushTimeout;
    QProgressBar *m_progress;
    QToolButton *m_cancelFlush;
    QPointer<Admin::AdminJob> m_job;
    qint64 m_flushQid = 0;
    QElapsedTimer m_flushClock;
    bool m_busy = false; // an action on the selection is in flight: its buttons stay disabled

    QLabel *m_settings;
    QTabWidget *m_tabs = nullptr;
    QueueItemsView *m_items = nullptr;
    QueueItemsView *m_inFlight = nullptr;
    QLabel *m_chartEmpty = nullptr;
    QStackedWidget *m_chartStack = nullptr;
    QChart *m_chart;
    QLineSeries *m_lengthSeries;
    QLineSeries *m_rateSeries;
    QDateTimeAxis *m_timeAxis;
    QValueAxis *m_lengthAxis;
    QValueAxis *m_rateAxis;
    qint64 m_detailQid = -1;
};

} // namespace Switchyard::Console
