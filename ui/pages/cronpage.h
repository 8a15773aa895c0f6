#pragma once

#include "tablepage.h"

#include "models/cronmodel.h"
#include "models/cronrunmodel.h"

#include <QPointer>
#include <QTimer>

class QAction;
class QLabel;
class QTreeView;

namespace Switchyard::Console {

class TraceDialog;

// Cron (SPEC §4): every task with its schedule in words, a live countdown to the next run, the
// status in colour, Run now (disabled while running; "already running" is information, not an
// error), Pause/Resume; the selected task's run history below.
class CronPage final : public TablePage
{
    Q_OBJECT
public:
    explicit CronPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    CronModel &model() { return m_model; }
    CronRunModel &history() { return m_history; }
    QAction *runAction() const { return m_run; }
    QAction *pauseAction() const { return m_pause; }
    QAction *resumeAction() const { return m_resume; }
    QAction *traceAction() const { return m_trace; } // the selected run's
    QTreeView *historyView() const { return m_historyView; }
    bool selectRun(qint64 id);
    // The dialog of the last Show trace (tests); null before one was opened.
    TraceDialog *traceDialog() const;
    bool reveal(const QString &kind, qint64 id, const QString &summary) override;

protected:
    void selectionChanged() override;

private:
    void onEvent(const Admin::AdminEvent &event);
    void updateActions();
    void loadHistory();
    void runSelected();
    void pauseSelected(bool pause);
    const Admin::CronRow *selectedRow() const;
    const Admin::CronRun *selectedRun() const;
    void showTrace();
    void updateBadge();

    CronModel m_model;
    CronRunModel m_history;
    QTreeView *m_historyView;
    QLabel *m_historyTitle;
    QAction *m_run;
    QAction *m_pause;
    QAction *m_resume;
    QAction *m_trace;
    QPointer<TraceDialog> m_traceDialog;
    qint64 m_revealRun = 0; // a run a link asked for, selected when its task's history arrives
    QTimer m_countdown;
    QSet<QString> m_pending; // tasks with a call in flight: their buttons stay disabled
};

} // namespace Switchyard::Console
