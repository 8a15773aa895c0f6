#pragma once

#include "tablepage.h"

#include "deliverydetail.h"
#include "deliveryfilter.h"
#include "models/webhookmodels.h"

#include <QPointer>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QToolButton;
class QTreeView;

namespace Switchyard::Console {

class HookDialog;
class LiveChart;
class TraceDialog;

// Webhooks (docs/console.md): the hooks on top — where each is installed, where it delivers,
// what it wants, how its last delivery went — and below, the selected hook's deliveries, newest
// first (older pages as the list scrolls), with the request and response of the selected one.
// Add, Edit, Delete and Test act on the hook; Redeliver sends the selected deliveries again (each
// a new delivery id; the history keeps both). Read every 2 s while shown.
//
// Above the deliveries, a filter: the selected webhook or all of them, status, event, period and
// text in the payload or response (GET /deliveries). "Redeliver matching…" sends every failed or
// unknown match again as one job on the instance (count confirmed first, progress and Cancel in
// the bar); "Export…" writes every match to a CSV file.
class WebhooksPage final : public TablePage
{
    Q_OBJECT
public:
    explicit WebhooksPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    HookModel &hooks() { return m_hooks; }
    HookTaskModel &tasks() { return m_tasks; }
    QTreeView *taskView() const { return m_taskView; }
    QTabWidget *detailTabs() const { return m_tabs; }
    QPlainTextEdit *requestText() const { return m_tabs->requestText(); }
    QPlainTextEdit *responseText() const { return m_tabs->responseText(); }
    QPlainTextEdit *attemptsText() const { return m_tabs->attemptsText(); }
    QAction *addAction() const { return m_add; }
    QAction *editAction() const { return m_edit; }
    QAction *deleteAction() const { return m_delete; }
    QAction *testAction() const { return m_test; }
    QAction *redeliverAction() const { return m_redeliver; }
    QAction *redeliverMatchingAction() const { return m_bulk; }
    QAction *exportAction() const { return m_export; }
    QAction *traceAction() const { return m_trace; } // the selected delivery's
    // The dialog of the last Show trace (tests); null before one was opened.
    TraceDialog *traceDialog() const;
    bool reveal(const QString &kind, qint64 id, const QString &summary) override;
    QComboBox *scopeBox() const { return m_filter->scopeBox(); }
    QComboBox *statusBox() const { return m_filter->statusBox(); }
    QComboBox *eventBox() const { return m_filter->eventBox(); }
    QComboBox *periodBox() const { return m_filter->periodBox(); }
    QLineEdit *searchField() const { return m_filter->searchField(); }
    QToolButton *cancelJobButton() const { return m_cancelJob; }
    QProgressBar *jobProgress() const { return m_progress; }
    QLabel *figuresLabel() const { return m_figures; }
    LiveChart *latencyChart() const { return m_latency; }
    // The running bulk redelivery or export; null when none.
    Admin::AdminJob *runningJob() const;
    // The filter the deliveries list shows (page and limit aside).
    Admin::DeliverySearchArgs currentFilter() const;
    // Export's work once a file is chosen (tests call it without the dialog).
    void exportTo(const QString &path);
    // The open Add or Edit dialog (tests); null when none is open.
    HookDialog *dialog() const;
    qint64 selectedHook() const;
    bool selectTask(qint64 id);

private:
    void readHooks(const Done &done);
    void readFigures(const Done &done);
    void refreshTasks();
    void readTasks(qint64 page, const Done &done);
    void selectionChanged() override;
    void taskSelectionChanged();
    const Admin::HookTaskRow *currentTask() const; // the delivery whose tabs are shown; null when none
    void updateActions();
    void openDialog(const Admin::HookRow *existing);
    void submitDialog();
    void deleteHook();
    void testHook();
    void redeliver();
    void filterChanged();
    void redeliverMatching();
    void startJob(Admin::AdminJob *job, const QString &doing, const std::function<void(const Status &, qint64 done)> &ended);

    HookModel m_hooks;
    HookTaskModel m_tasks;
    TableProxy m_taskProxy;
    QTreeView *m_taskView;
    QLabel *m_taskHeading;
    DeliveryDetail *m_tabs; // the selected delivery's request, response and attempts
    QAction *m_add;
    QAction *m_edit;
    QAction *m_delete;
    QAction *m_test;
    QAction *m_redeliver;
    QAction *m_bulk;
    QAction *m_export;
    QAction *m_trace;
    QPointer<TraceDialog> m_traceDialog;
    qint64 m_revealTask = 0; // a delivery a link asked for, selected when the list arrives
    DeliveryFilter *m_filter; // which deliveries the lower list shows
    QProgressBar *m_progress;
    QLabel *m_figures;
    LiveChart *m_latency;
    QToolButton *m_cancelJob;
    QPointer<Admin::AdminJob> m_job;
    // Cleared by Qt when the dialog goes (closed, or deleted with the page: a destroyed() slot
    // of ours would run inside ~QWidget, after ~WebhooksPage).
    QPointer<HookDialog> m_dialog;
    qint64 m_tasksOf = 0; // the hook whose deliveries the lower list shows (-1: all hooks)
    quint64 m_filterGeneration = 0; // answers to an earlier filter are dropped
};

} // namespace Switchyard::Console
