#include "webhookspage.h"

#include "deliverydetail.h"
#include "deliveryfilter.h"
#include "deliveryjobs.h"
#include "hookdialog.h"
#include "tracedialog.h"

#include "widgets/format.h"
#include "widgets/icons.h"
#include "widgets/livechart.h"

#include <QAction>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace Switchyard::Console {

namespace {

constexpr qint64 kPageRows = 100; // deliveries per page read; more as the list is scrolled to its end

} // namespace

WebhooksPage::WebhooksPage(Admin::AdminBackend &backend, QWidget *parent)
    : TablePage(backend, parent), m_hooks(this), m_tasks(this)
{
    setSourceModel(&m_hooks);
    view()->setAccessibleName(tr("Webhooks"));
    view()->setSelectionMode(QAbstractItemView::SingleSelection);
    view()->header()->resizeSection(HookModel::Id, 50);
    view()->header()->resizeSection(HookModel::Scope, 95);
    view()->header()->resizeSection(HookModel::Target, 120);
    view()->header()->resizeSection(HookModel::Type, 60);
    view()->header()->resizeSection(HookModel::Events, 170);
    view()->header()->resizeSection(HookModel::Active, 60);
    view()->header()->resizeSection(HookModel::Last, 100);
    fitColumns(HookModel::Url);
    view()->sortByColumn(HookModel::Id, Qt::AscendingOrder);
    setEmptyText(tr("<h3>No webhooks yet</h3><p>A webhook sends the forge's events — pushes, issues, pull requests, "
                    "releases … — to a URL, signed with its secret (<code>X-Hub-Signature-256</code>), as Gitea does. "
                    "Add one with <b>Add…</b> above, or <code>switchyardctl hooks create --repo ID --url URL</code>.</p>"
                    "<p>Events reach this instance at <code>/api/v1/events</code>; each one a hook wants becomes a "
                    "delivery, listed below with its request and response, and can be sent again.</p>"));

    m_add = new QAction(Icons::symbolic(QStringLiteral("list-add")), tr("Add…"), this);
    m_add->setToolTip(tr("Add a webhook to a repository, an organisation, a user or the whole instance"));
    m_edit = new QAction(Icons::symbolic(QStringLiteral("document-edit")), tr("Edit…"), this);
    m_edit->setToolTip(tr("Change the selected webhook's URL, events, secret or state"));
    m_test = new QAction(Icons::symbolic(QStringLiteral("mail-send")), tr("Test delivery"), this);
    m_test->setToolTip(tr("Send a test push to the selected webhook, whatever its events and branch filter"));
    m_delete = new QAction(Icons::symbolic(QStringLiteral("edit-delete")), tr("Delete"), this);
    m_delete->setToolTip(tr("Delete the selected webhook and its delivery history"));
    for (QAction *action : {m_add, m_edit, m_test, m_delete})
        addPageAction(action);
    connect(m_add, &QAction::triggered, this, [this] { openDialog(nullptr); });
    connect(m_edit, &QAction::triggered, this, [this] {
        if (const Admin::HookRow *row = m_hooks.find(selectedHook()))
            openDialog(row);
    });
    connect(m_test, &QAction::triggered, this, &WebhooksPage::testHook);
    connect(m_delete, &QAction::triggered, this, &WebhooksPage::deleteHook);
    connect(view(), &QTreeView::activated, m_edit, &QAction::trigger);

    // Below: the selected hook's deliveries and the selected delivery's request and response.
    // The deliveries (with their actions and filter) above; below, the selected delivery's tabs
    // beside this instance's figures and latency chart (the filter row needs the full width).
    auto *split = new QSplitter(Qt::Vertical, this);
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QToolBar(left);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setAccessibleName(tr("Delivery actions"));
    m_taskHeading = new QLabel(tr("Select a webhook to see its deliveries."), left);
    m_taskHeading->setContentsMargins(4, 0, 8, 0);
    bar->addWidget(m_taskHeading);
    m_redeliver = bar->addAction(Icons::symbolic(QStringLiteral("view-refresh")), tr("Redeliver"));
    m_redeliver->setToolTip(tr("Send the selected deliveries again (each gets a new delivery id; the history keeps both)"));
    connect(m_redeliver, &QAction::triggered, this, &WebhooksPage::redeliver);
    m_bulk = bar->addAction(Icons::symbolic(QStringLiteral("view-refresh")), tr("Redeliver matching…"));
    m_bulk->setToolTip(tr("Send every delivery the filter matches again, as one job on the instance (status failed or unknown)"));
    connect(m_bulk, &QAction::triggered, this, &WebhooksPage::redeliverMatching);
    m_trace = bar->addAction(Icons::symbolic(QStringLiteral("edit-find")), tr("Show trace"));
    m_trace->setToolTip(tr("What the selected delivery's cause produced: its event, notifications, other deliveries and mail"));
    connect(m_trace, &QAction::triggered, this, [this] {
        if (const Admin::HookTaskRow *row = currentTask(); row && !row->traceId.isEmpty())
            openTrace(*this, m_traceDialog, row->traceId);
    });
    m_export = bar->addAction(Icons::symbolic(QStringLiteral("document-save")), tr("Export…"));
    m_export->setToolTip(tr("Write every delivery the filter matches to a CSV file"));
    connect(m_export, &QAction::triggered, this, [this] {
        const QString suggested = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QStringLiteral("/deliveries.csv");
        const QString path = QFileDialog::getSaveFileName(this, tr("Export deliveries"), suggested, tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportTo(path);
    });
    m_progress = new QProgressBar(left);
    m_progress->setMaximumWidth(200);
    m_progress->setAccessibleName(tr("Delivery job progress"));
    m_progress->setVisible(false);
    bar->addWidget(m_progress);
    m_cancelJob = new QToolButton(left);
    m_cancelJob->setText(tr("Cancel"));
    m_cancelJob->setAccessibleName(tr("Cancel the delivery job"));
    m_cancelJob->setVisible(false);
    connect(m_cancelJob, &QToolButton::clicked, this, [this] {
        if (m_job)
            m_job->cancel();
    });
    bar->addWidget(m_cancelJob);
    leftLayout->addWidget(bar);

    // The filter: which hooks, status, event, period and text.
    m_filter = new DeliveryFilter(left);
    leftLayout->addWidget(m_filter);
    connect(m_filter, &DeliveryFilter::changed, this, &WebhooksPage::filterChanged);
    m_taskProxy.setSourceModel(&m_tasks);
    m_taskProxy.setSortRole(RawRole);
    m_taskView = makeTable(left, &m_taskProxy, tr("The selected webhook's deliveries, newest first"));
    m_taskView->sortByColumn(HookTaskModel::Id, Qt::DescendingOrder);
    m_taskView->header()->resizeSection(HookTaskModel::Id, 50);
    m_taskView->header()->resizeSection(HookTaskModel::Hook, 45);
    m_taskView->setColumnHidden(HookTaskModel::Hook, true); // shown for all webhooks
    m_taskView->header()->resizeSection(HookTaskModel::Created, 140);
    m_taskView->header()->resizeSection(HookTaskModel::Event, 140);
    m_taskView->header()->resizeSection(HookTaskModel::Status, 175); // "succeeded · 200 · resent" fits
    m_taskView->header()->resizeSection(HookTaskModel::Duration, 55);
    m_taskView->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_taskView->addAction(m_redeliver);
    m_taskView->addAction(m_bulk);
    m_taskView->addAction(m_trace);
    m_taskView->addAction(m_export);
    m_taskView->setContextMenuPolicy(Qt::ActionsContextMenu);
    leftLayout->addWidget(m_taskView);
    m_tabs = new DeliveryDetail(split);
    auto *below = new QSplitter(Qt::Horizontal, split);
    below->addWidget(m_tabs);
    auto *figures = new QWidget(below);
    auto *figuresLayout = new QVBoxLayout(figures);
    figuresLayout->setContentsMargins(0, 0, 0, 0);
    m_figures = new QLabel(tr("Reading the delivery figures…"), figures);
    m_figures->setObjectName(QStringLiteral("deliveryFigures"));
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setContentsMargins(4, 2, 4, 0);
    figuresLayout->addWidget(m_figures);
    m_latency = new LiveChart(tr("Delivery latency (ms), last minute or two"), tr("p50"), tr("p99"), 1, QStringLiteral("%.0f"), figures);
    m_latency->setMinimumHeight(150);
    figuresLayout->addWidget(m_latency, 1);
    below->addWidget(figures);
    below->setStretchFactor(0, 3);
    below->setStretchFactor(1, 2);
    below->setSizes({600, 400});
    split->addWidget(left);
    split->addWidget(below);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    qobject_cast<QVBoxLayout *>(detailArea()->layout())->addWidget(split);

    // Live: a delivery added or ended (a hook-task frame, bodies left out) re-reads the list's
    // first page and the hooks' last status, coalesced, instead of waiting for the next poll.
    connect(&backend, &Admin::AdminBackend::event, this, [this](const Admin::AdminEvent &event) {
        if (event.type != Admin::AdminEvent::Type::HookTask || !isVisible())
            return;
        if (m_tasksOf < 0 || event.hookTask.hookId == m_tasksOf)
            refreshTasks();
        single(QStringLiteral("hooks"), [this](const Done &done) { readHooks(done); });
    });
    m_tasks.setPaging(kPageRows, [this](qint64 page) { readTasks(page, {}); }, scrolledToEnd(m_taskView));
    connect(m_taskView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &WebhooksPage::taskSelectionChanged);
    connect(&m_tasks, &QAbstractItemModel::dataChanged, this, &WebhooksPage::taskSelectionChanged);
    updateActions();
}

void WebhooksPage::refresh()
{
    single(QStringLiteral("hooks"), [=, this](const Done &done) { readHooks(done); });
    refreshTasks();
    single(QStringLiteral("figures"), [=, this](const Done &done) { readFigures(done); });
}

void WebhooksPage::readFigures(const Done &done)
{
    backend().call(Admin::Ops::deliveryStats, {}, this, [this, done](Result<Webhook::DeliveryStats> stats) {
        done();
        if (!stats) {
            m_figures->setText(tr("Delivery figures unavailable: %1").arg(stats.status().message().toHtmlEscaped()));
            return;
        }
        QString text = tr("<b>Since start</b> %1 succeeded · %2 failed · %3 skipped · <b>in flight</b> %4")
                           .arg(formatCount(stats->succeeded), formatCount(stats->failed), formatCount(stats->skipped),
                                formatCount(stats->inFlight));
        text += stats->recent > 0 ? tr("<br><b>Last minute or two</b> %1 sent · p50 %2 ms · p99 %3 ms")
                                        .arg(formatCount(stats->recent), QLocale().toString(stats->latencyP50Ms, 'f', 1),
                                             QLocale().toString(stats->latencyP99Ms, 'f', 1))
                                  : tr("<br><b>Last minute or two</b> nothing sent");
        m_figures->setText(text);
        m_latency->addSample(stats->latencyP50Ms, stats->latencyP99Ms);
    });
}

void WebhooksPage::readHooks(const Done &done)
{
    backend().call(Admin::Ops::hookList, {}, this, [this, done](Result<std::vector<Admin::HookRow>> rows) {
        if (done)
            done();
        if (!rows) {
            reportFailure(tr("Reading the webhooks"), rows.status());
            return;
        }
        int failing = 0;
        for (const Admin::HookRow &row : *rows)
            failing += row.lastStatus == QLatin1String("fail") ? 1 : 0;
        m_hooks.applySnapshot(std::move(rows).value());
        setBadge(failing);
        updateEmptyState();
        // Nothing chosen yet: the first hook, so its deliveries show.
        if (selectedHook() == 0 && proxy()->rowCount() > 0)
            view()->selectionModel()->setCurrentIndex(proxy()->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        updateActions();
    });
}

Admin::DeliverySearchArgs WebhooksPage::currentFilter() const
{
    return m_filter->args(selectedHook());
}

// The hook (or all, -1) whose deliveries the list shows; 0 when there is nothing to show.
static qint64 listedOf(qint64 selected, bool all)
{
    return all ? -1 : selected;
}

void WebhooksPage::refreshTasks()
{
    if (listedOf(selectedHook(), m_filter->allHooks()) == 0)
        return;
    single(QStringLiteral("tasks"), [=, this](const Done &done) { readTasks(1, done); });
}

// Page 1 from refresh() (merged: rows keep their place and selection), the older ones as the list
// is scrolled to its end.
void WebhooksPage::readTasks(qint64 page, const Done &done)
{
    Admin::DeliverySearchArgs filter = currentFilter();
    const qint64 listed = listedOf(selectedHook(), m_filter->allHooks());
    if (listed == 0) {
        if (done)
            done();
        m_tasks.pageFailed();
        return;
    }
    filter.page = page;
    filter.limit = kPageRows;
    backend().call(Admin::Ops::deliverySearch, filter, this,
                   [this, done, page, listed, generation = m_filterGeneration](Result<Admin::Page<Admin::HookTaskRow>> rows) {
                       if (done)
                           done();
                       if (listed != m_tasksOf || generation != m_filterGeneration)
                           return; // another hook or filter was chosen meanwhile (and the pages were reset)
                       if (!rows) {
                           m_tasks.pageFailed();
                           reportFailure(tr("Reading the deliveries"), rows.status());
                           return;
                       }
                       const int total = int(std::min<qint64>(rows->total, std::numeric_limits<int>::max()));
                       const bool filtered = m_filter->narrowed();
                       const QString where = listed < 0 ? tr("All webhooks") : tr("Hook %1").arg(listed);
                       m_taskHeading->setText(filtered ? tr("%1: %n matching delivery(s)", nullptr, total).arg(where)
                                                       : tr("%1: %n delivery(s)", nullptr, total).arg(where));
                       m_tasks.pageArrived(page, std::move(rows->rows), rows->total);
                       if (m_revealTask > 0 && selectTask(m_revealTask))
                           m_revealTask = 0;
                       // Nothing chosen yet: the newest delivery, so its request and response show.
                       if (!m_taskView->selectionModel()->currentIndex().isValid() && m_taskProxy.rowCount() > 0)
                           m_taskView->selectionModel()->setCurrentIndex(m_taskProxy.index(0, 0), QItemSelectionModel::ClearAndSelect
                                                                                                     | QItemSelectionModel::Rows);
                       updateActions();
                   });
}

void WebhooksPage::filterChanged()
{
    const bool all = m_filter->allHooks();
    m_taskView->setColumnHidden(HookTaskModel::Hook, !all);
    m_tasksOf = listedOf(selectedHook(), all);
    ++m_filterGeneration;
    m_tasks.resetPages();
    m_tabs->showDelivery(nullptr);
    if (m_tasksOf == 0)
        m_taskHeading->setText(tr("Select a webhook to see its deliveries."));
    refreshTasks();
    updateActions();
}

qint64 WebhooksPage::selectedHook() const
{
    const QModelIndexList rows = view()->selectionModel()->selectedRows();
    return rows.isEmpty() ? 0 : rows.first().data(KeyRole).toLongLong();
}

bool WebhooksPage::selectTask(qint64 id)
{
    return selectKeyIn(m_taskView, id);
}

void WebhooksPage::selectionChanged()
{
    if (listedOf(selectedHook(), m_filter->allHooks()) != m_tasksOf)
        filterChanged();
    updateActions();
}

const Admin::HookTaskRow *WebhooksPage::currentTask() const
{
    const QModelIndex current = m_taskView->selectionModel()->currentIndex();
    return current.isValid() ? m_tasks.find(current.data(KeyRole).toLongLong()) : nullptr;
}

void WebhooksPage::taskSelectionChanged()
{
    m_tabs->showDelivery(currentTask());
    updateActions();
}

TraceDialog *WebhooksPage::traceDialog() const
{
    return m_traceDialog;
}

// A delivery: selected when listed; otherwise every webhook's deliveries are listed, unfiltered,
// and it is selected when they arrive (when it is among the newest page).
bool WebhooksPage::reveal(const QString &kind, qint64 id, const QString &summary)
{
    Q_UNUSED(summary)
    if (kind != QLatin1String("hook-task"))
        return false;
    if (selectTask(id))
        return true;
    m_revealTask = id;
    m_filter->showEverything();
    return true;
}

void WebhooksPage::updateActions()
{
    const bool may = backend().canMutate();
    const bool hook = selectedHook() > 0;
    m_add->setEnabled(may);
    m_edit->setEnabled(may && hook);
    m_test->setEnabled(may && hook);
    m_delete->setEnabled(may && hook);
    m_redeliver->setEnabled(may && !m_taskView->selectionModel()->selectedRows().isEmpty());
    const QString status = m_filter->status();
    const bool listing = m_tasksOf != 0;
    m_bulk->setEnabled(may && listing && !m_job && (status == QLatin1String("failed") || status == QLatin1String("unknown")));
    m_bulk->setToolTip(m_bulk->isEnabled() || !may || m_job
                           ? tr("Send every delivery the filter matches again, as one job on the instance")
                           : tr("Choose status failed or unknown to redeliver what matches"));
    m_export->setEnabled(listing && !m_job);
    const Admin::HookTaskRow *task = currentTask();
    m_trace->setEnabled(task && !task->traceId.isEmpty());
}

Admin::AdminJob *WebhooksPage::runningJob() const
{
    return m_job;
}

void WebhooksPage::startJob(Admin::AdminJob *job, const QString &doing, const std::function<void(const Status &, qint64 done)> &ended)
{
    m_job = job;
    m_progress->setRange(0, 0);
    m_progress->setFormat(doing + QStringLiteral(": %v of %m"));
    m_progress->setVisible(true);
    m_cancelJob->setVisible(true);
    connect(job, &Admin::AdminJob::progress, this, [this](qint64 done, qint64 total) {
        if (total <= 0)
            return;
        m_progress->setRange(0, int(std::min<qint64>(total, std::numeric_limits<int>::max())));
        m_progress->setValue(int(std::min<qint64>(done, std::numeric_limits<int>::max())));
    });
    connect(job, &Admin::AdminJob::finished, this, [this, job, ended](const Status &result) {
        const qint64 done = job->done();
        m_job = nullptr;
        m_progress->setVisible(false);
        m_cancelJob->setVisible(false);
        ended(result, done);
        updateActions();
    });
    updateActions();
}

void WebhooksPage::redeliverMatching()
{
    Admin::DeliveryRedeliverArgs bulk;
    static_cast<Admin::DeliveryFilterArgs &>(bulk) = currentFilter();
    bulk.dryRun = true;
    m_bulk->setEnabled(false);
    backend().call(Admin::Ops::deliveryRedeliver, bulk, this, [this, bulk](Result<Admin::BulkRedelivery> counted) mutable {
        updateActions();
        if (!counted) {
            reportFailure(tr("Counting the deliveries to redeliver"), counted.status());
            return;
        }
        if (counted->matched == 0) {
            Q_EMIT operationSucceeded(tr("No delivery matches: nothing to redeliver"));
            return;
        }
        const int matched = int(std::min<qint64>(counted->matched, std::numeric_limits<int>::max()));
        confirm(tr("Redeliver %n delivery(s)?", nullptr, matched),
                tr("Each of the %n %1 delivery(s) the filter matches is sent again under a new delivery id, oldest first; "
                   "the history keeps the originals. Receivers may see an event twice.", nullptr, matched).arg(bulk.status),
                tr("Redeliver"), [this, bulk]() mutable {
                    bulk.dryRun = false;
                    backend().call(Admin::Ops::deliveryRedeliver, bulk, this, [this](Result<Admin::BulkRedelivery> started) {
                        if (!started) {
                            reportFailure(tr("Redelivering the matching deliveries"), started.status());
                            return;
                        }
                        const qint64 matched = started->matched;
                        startJob(new ProcessJob(backend(), started->jobId, tr("Redelivering %1 deliveries").arg(matched), this),
                                 tr("redelivering"), [this, matched](const Status &result, qint64 done) {
                                     if (result)
                                         Q_EMIT operationSucceeded(tr("The redelivery job for %1 deliveries ended; a stop on an error "
                                                                      "would be listed under Notices").arg(matched));
                                     else if (result.code() != Status::Code::Cancelled)
                                         reportFailure(tr("Redelivering (%1 of %2 queued again)").arg(done).arg(matched), result);
                                     else
                                         Q_EMIT operationSucceeded(tr("Redelivery job %1").arg(result.message()));
                                     refreshTasks();
                                 });
                    });
                });
    });
}

void WebhooksPage::exportTo(const QString &path)
{
    if (m_job || m_tasksOf == 0)
        return;
    startJob(new DeliveryExportJob(backend(), currentFilter(), path, this), tr("exporting"), [this, path](const Status &result, qint64 done) {
        if (result)
            Q_EMIT operationSucceeded(tr("Exported %1 deliveries to %2").arg(done).arg(path));
        else if (result.code() != Status::Code::Cancelled)
            reportFailure(tr("Exporting the deliveries"), result);
    });
}

HookDialog *WebhooksPage::dialog() const
{
    return m_dialog;
}

void WebhooksPage::openDialog(const Admin::HookRow *existing)
{
    if (m_dialog)
        m_dialog->close();
    m_dialog = new HookDialog(this, existing);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_dialog, &HookDialog::submitted, this, &WebhooksPage::submitDialog);
    m_dialog->open();
    // The list shows URLs masked; the edit form asks for the stored one (an admin's GET
    // /hooks/{id}), so editing never saves *** back.
    if (existing && existing->urlMasked)
        backend().call(Admin::Ops::hookGet, {existing->id}, m_dialog, [dialog = m_dialog](Result<Admin::HookRow> row) {
            if (row && !row->urlMasked)
                dialog->setClearUrl(row->url);
        });
}

void WebhooksPage::submitDialog()
{
    HookDialog *dialog = m_dialog;
    if (!dialog)
        return;
    const auto answered = [this, dialog](Result<Admin::HookRow> row, const QString &verb) {
        if (!row) {
            dialog->showError(row.status()); // the dialog stays open with what was typed
            return;
        }
        Q_EMIT operationSucceeded(row->authorizationCleared
                                      ? tr("%1 webhook %2 (%3); its Authorization header was removed with the old URL")
                                            .arg(verb).arg(row->id).arg(row->url)
                                      : tr("%1 webhook %2 (%3)").arg(verb).arg(row->id).arg(row->url));
        const qint64 id = row->id;
        m_hooks.upsert(std::move(row).value());
        updateEmptyState();
        selectKey(id);
        dialog->accept();
        refresh();
    };
    if (dialog->isEdit())
        backend().call(Admin::Ops::hookUpdate, dialog->updateArgs(), dialog,
                       [answered](Result<Admin::HookRow> row) { answered(std::move(row), tr("Saved")); });
    else
        backend().call(Admin::Ops::hookCreate, dialog->createArgs(), dialog,
                       [answered](Result<Admin::HookRow> row) { answered(std::move(row), tr("Added")); });
}

void WebhooksPage::deleteHook()
{
    const qint64 id = selectedHook();
    const Admin::HookRow *row = m_hooks.find(id);
    if (!row)
        return;
    const QString url = row->url;
    confirm(tr("Delete webhook %1?").arg(id),
            tr("Deliveries to %1 stop, and its history of %n delivery(s) is deleted with it.", nullptr, int(m_tasks.total())).arg(url),
            tr("Delete"), [this, id, url] {
                backend().call(Admin::Ops::hookDelete, {id}, this, [this, id, url](Result<Admin::Done> done) {
                    if (!done) {
                        reportFailure(tr("Deleting webhook %1").arg(id), done.status());
                        return;
                    }
                    Q_EMIT operationSucceeded(tr("Deleted webhook %1 (%2)").arg(id).arg(url));
                    m_hooks.removeKey(id);
                    updateEmptyState();
                    refresh();
                });
            });
}

void WebhooksPage::testHook()
{
    const qint64 id = selectedHook();
    if (id <= 0)
        return;
    m_test->setEnabled(false);
    backend().call(Admin::Ops::hookTest, {id}, this, [this, id](Result<Admin::HookTaskCreated> task) {
        updateActions();
        if (!task) {
            reportFailure(tr("Testing webhook %1").arg(id), task.status());
            return;
        }
        Q_EMIT operationSucceeded(tr("Queued test delivery %1 to webhook %2").arg(task->uuid).arg(id));
        refreshTasks();
    });
}

void WebhooksPage::redeliver()
{
    const qint64 hook = selectedHook();
    QStringList uuids;
    for (const QModelIndex &index : m_taskView->selectionModel()->selectedRows())
        if (const Admin::HookTaskRow *row = m_tasks.find(index.data(KeyRole).toLongLong()))
            uuids << row->uuid;
    if (hook <= 0 || uuids.isEmpty())
        return;
    auto left = std::make_shared<int>(int(uuids.size()));
    auto failed = std::make_shared<int>(0);
    for (const QString &uuid : uuids) {
        backend().call(Admin::Ops::hookRedeliver, {hook, uuid}, this, [this, left, failed, uuid](Result<Admin::HookTaskCreated> task) {
            if (!task) {
                ++*failed;
                reportFailure(tr("Redelivering %1").arg(uuid), task.status());
            }
            if (--*left == 0) {
                if (*failed == 0)
                    Q_EMIT operationSucceeded(tr("Queued the delivery again", nullptr, 1));
                refreshTasks();
            }
        });
    }
}

} // namespace Switchyard::Console
