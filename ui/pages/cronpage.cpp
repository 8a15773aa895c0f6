#include "cronpage.h"

#include "tracedialog.h"

#include "admin/ops/cronops.h"

#include "widgets/format.h"
#include "widgets/icons.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace Switchyard::Console {

CronPage::CronPage(Admin::AdminBackend &backend, QWidget *parent)
    : TablePage(backend, parent), m_model(this), m_history(this)
{
    setSourceModel(&m_model);
    view()->setAccessibleName(tr("Cron tasks"));
    view()->header()->resizeSection(CronModel::Task, 260);
    view()->header()->resizeSection(CronModel::Schedule, 230);
    view()->header()->resizeSection(CronModel::Next, 110);
    view()->header()->resizeSection(CronModel::Previous, 110);
    view()->sortByColumn(CronModel::Next, Qt::AscendingOrder);
    setEmptyText(tr("<h3>No cron tasks</h3><p>Built-in tasks register when the engine starts; your own run a "
                    "<code>COMMAND</code> or call a <code>URL</code> from a <code>[cron.&lt;name&gt;]</code> section of "
                    "<code>app.ini</code> — see docs/cron.md.</p>"));

    m_run = new QAction(Icons::symbolic(QStringLiteral("media-playback-start")), tr("Run now"), this);
    m_run->setToolTip(tr("Start the task now, whatever its schedule"));
    m_pause = new QAction(Icons::symbolic(QStringLiteral("media-playback-pause")), tr("Pause"), this);
    m_pause->setToolTip(tr("Skip scheduled runs until resumed (on every instance); Run now still works"));
    m_resume = new QAction(Icons::symbolic(QStringLiteral("media-playback-start")), tr("Resume"), this);
    for (QAction *action : {m_run, m_pause, m_resume})
        addPageAction(action);
    connect(m_run, &QAction::triggered, this, &CronPage::runSelected);
    connect(m_pause, &QAction::triggered, this, [this] { pauseSelected(true); });
    connect(m_resume, &QAction::triggered, this, [this] { pauseSelected(false); });

    auto *layout = qobject_cast<QVBoxLayout *>(detailArea()->layout());
    m_historyTitle = new QLabel(this);
    m_historyTitle->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(m_historyTitle);
    m_historyView = new QTreeView(this);
    m_historyView->setObjectName(QStringLiteral("cronHistory"));
    m_historyView->setAccessibleName(tr("The selected task's runs, newest first"));
    m_historyView->setRootIsDecorated(false);
    m_historyView->setUniformRowHeights(true);
    m_historyView->setAlternatingRowColors(true);
    m_historyView->setModel(&m_history);
    m_historyView->header()->resizeSection(CronRunModel::Started, 150);
    m_historyView->header()->resizeSection(CronRunModel::Doer, 150);
    m_historyView->header()->resizeSection(CronRunModel::Instance, 170);
    layout->addWidget(m_historyView, 1);
    // A run's trace: in the toolbar (not the tasks' context menu: it acts on the run) and the
    // runs' context menu; Enter or a double-click on a run opens it too.
    m_trace = new QAction(Icons::symbolic(QStringLiteral("edit-find")), tr("Show trace"), this);
    m_trace->setToolTip(tr("What the selected run produced, with the instance that ran it"));
    toolBar()->addAction(m_trace);
    m_historyView->addAction(m_trace);
    m_historyView->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_trace, &QAction::triggered, this, &CronPage::showTrace);
    connect(m_historyView, &QTreeView::activated, this, &CronPage::showTrace);
    connect(m_historyView->selectionModel(), &QItemSelectionModel::currentChanged, this, &CronPage::updateActions);
    connect(&m_history, &QAbstractItemModel::modelReset, this, &CronPage::updateActions);
    connect(&m_history, &QAbstractItemModel::rowsRemoved, this, &CronPage::updateActions);

    connect(&backend, &Admin::AdminBackend::event, this, &CronPage::onEvent);
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, [this] { m_model.tick(); });
    m_countdown.start();
    updateActions();
    loadHistory();
}


void CronPage::refresh()
{
    single(QStringLiteral("cronTasks"), [=, this](const Done &done) {
        backend().call(Admin::Ops::cronList, {}, this, [this, done](Result<std::vector<Admin::CronRow>> rows) {
            done();
            if (!rows) {
                reportFailure(tr("Reading the cron tasks"), rows.status());
                return;
            }
            m_model.applySnapshot(std::move(rows).value());
            updateBadge();
            updateActions();
        });
    });
    loadHistory();
}

void CronPage::updateBadge()
{
    int failing = 0;
    for (const Admin::CronRow &row : m_model.rows())
        failing += CronModel::stateOf(row) == CronModel::State::Error ? 1 : 0;
    setBadge(failing);
}

void CronPage::onEvent(const Admin::AdminEvent &event)
{
    if (event.type != Admin::AdminEvent::Type::CronStatus)
        return;
    m_model.upsert(event.cron);
    updateBadge();
    const Admin::CronRow *selected = selectedRow();
    if (selected && selected->name == event.cron.name) {
        updateActions();
        loadHistory();
    }
}

const Admin::CronRow *CronPage::selectedRow() const
{
    const QVariant key = currentKey();
    return key.isValid() ? m_model.find(key.toString()) : nullptr;
}

void CronPage::selectionChanged()
{
    updateActions();
    loadHistory();
}

void CronPage::updateActions()
{
    const Admin::CronRow *row = selectedRow();
    const bool canAct = row && backend().canMutate() && !m_pending.contains(row->name);
    m_run->setEnabled(canAct && !row->running);
    m_run->setText(row && row->running ? tr("Running…") : tr("Run now"));
    m_pause->setEnabled(canAct && row->enabled && !row->paused);
    m_resume->setEnabled(canAct && row->paused);
    const Admin::CronRun *run = selectedRun();
    m_trace->setEnabled(run && !run->traceId.isEmpty());
}

const Admin::CronRun *CronPage::selectedRun() const
{
    const QModelIndex current = m_historyView->selectionModel()->currentIndex();
    return current.isValid() ? m_history.find(current.data(KeyRole).toLongLong()) : nullptr;
}

bool CronPage::selectRun(qint64 id)
{
    return selectKeyIn(m_historyView, id);
}

void CronPage::showTrace()
{
    if (const Admin::CronRun *run = selectedRun(); run && !run->traceId.isEmpty())
        openTrace(*this, m_traceDialog, run->traceId);
}

TraceDialog *CronPage::traceDialog() const
{
    return m_traceDialog;
}

// A run: its task selected (the trace names it: "task (trigger)"), the run once the history is read.
bool CronPage::reveal(const QString &kind, qint64 id, const QString &summary)
{
    if (kind != QLatin1String("cron-run"))
        return false;
    const QString task = summary.section(QStringLiteral(" ("), 0, 0);
    if (!m_model.find(task))
        return false;
    m_revealRun = id;
    const Admin::CronRow *selected = selectedRow();
    if (selected && selected->name == task)
        loadHistory();
    else
        selectKey(task);
    return true;
}

void CronPage::loadHistory()
{
    const Admin::CronRow *row = selectedRow();
    if (!row) {
        m_history.applySnapshot({});
        m_historyTitle->setText(tr("Select a task to see its runs."));
        return;
    }
    const QString name = row->name;
    m_historyTitle->setText(tr("<b>%1</b> — %2").arg(row->title.toHtmlEscaped(), describeSchedule(row->schedule).toHtmlEscaped()));
    single(QStringLiteral("cronRuns"), [=, this](const Done &done) {
        backend().call(Admin::Ops::cronRuns, {name}, this, [this, name, done](Result<std::vector<Admin::CronRun>> runs) {
            done();
            const Admin::CronRow *current = selectedRow();
            if (!current || current->name != name)
                return;
            if (!runs) {
                reportFailure(tr("Reading the runs of %1").arg(name), runs.status());
                return;
            }
            m_history.applySnapshot(std::move(runs).value());
            if (m_revealRun > 0 && selectRun(m_revealRun))
                m_revealRun = 0;
            updateActions();
            if (m_history.rowCount() == 0)
                m_historyTitle->setText(tr("<b>%1</b> has not run since the engine started.").arg(current->title.toHtmlEscaped()));
        });
    });
}

void CronPage::runSelected()
{
    const Admin::CronRow *row = selectedRow();
    if (!row)
        return;
    const QString name = row->name;
    const QString title = row->title.isEmpty() ? name : row->title;
    m_pending.insert(name);
    updateActions();
    backend().call(Admin::Ops::cronRun, {name}, this, Admin::statusOnly<Admin::CronStarted>([this, name, title](Status status) {
        m_pending.remove(name);
        if (status)
            Q_EMIT operationSucceeded(tr("Started %1").arg(title));
        else if (status.code() == Status::Code::Conflict)
            Q_EMIT operationInfo(tr("%1 is already running; its result will show here when it finishes").arg(title));
        else
            reportFailure(tr("Running %1").arg(title), status);
        refresh();
    }));
}

void CronPage::pauseSelected(bool pause)
{
    const Admin::CronRow *row = selectedRow();
    if (!row)
        return;
    const QString name = row->name;
    m_pending.insert(name);
    updateActions();
    auto done = [this, name, pause](Status status) {
        m_pending.remove(name);
        if (status)
            Q_EMIT operationSucceeded(pause ? tr("Paused %1: scheduled runs are skipped until you resume").arg(name)
                                            : tr("Resumed %1").arg(name));
        else
            reportFailure(pause ? tr("Pausing %1").arg(name) : tr("Resuming %1").arg(name), status);
        refresh();
    };
    if (pause)
        backend().call(Admin::Ops::cronPause, {name}, this, Admin::statusOnly<Admin::Done>(done));
    else
        backend().call(Admin::Ops::cronResume, {name}, this, Admin::statusOnly<Admin::Done>(done));
}

} // namespace Switchyard::Console
