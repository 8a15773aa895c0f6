#include "queuespage.h"


#include "admin/ops/instanceops.h"
#include "admin/ops/queueops.h"

#include "queueitemsview.h"

#include "widgets/format.h"
#include "widgets/theme.h"
#include "widgets/icons.h"
#include "widgets/sparklinedelegate.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QMessageBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QSpinBox>
#include <QToolButton>
#include <QTreeView>
#include <QStackedWidget>
#include <QTabWidget>
#include <QValueAxis>
#include <QVBoxLayout>

namespace Switchyard::Console {

QueuesPage::QueuesPage(Admin::AdminBackend &backend, QWidget *parent) : TablePage(backend, parent), m_model(this)
{
    setSourceModel(&m_model);
    view()->setItemDelegateForColumn(QueueModel::Throughput, new SparklineDelegate(m_model, this));
    view()->header()->resizeSection(QueueModel::Type, 70);
    view()->header()->resizeSection(QueueModel::Unique, 60);
    for (int column : {QueueModel::Length, QueueModel::Pushed, QueueModel::Handled, QueueModel::Failed})
        view()->header()->resizeSection(column, 95);
    view()->header()->resizeSection(QueueModel::Workers, 80);
    view()->header()->resizeSection(QueueModel::State, 70);
    view()->header()->resizeSection(QueueModel::Throughput, 160);
    fitColumns(QueueModel::Name);
    view()->sortByColumn(QueueModel::Name, Qt::AscendingOrder);
    setEmptyText(tr("<h3>No queues yet</h3>"
                    "<p>Queues are created by the subsystems that use them (webhook delivery, notifications, "
                    "mail) when the engine starts them.<br>Their type, length, batch size and workers come from "
                    "<code>[queue]</code> and <code>[queue.&lt;name&gt;]</code> in <code>app.ini</code> — "
                    "<b>Queue settings…</b> in the toolbar shows which apply here; docs/queues.md has every key.</p>"));

    m_pause = new QAction(Icons::symbolic(QStringLiteral("media-playback-pause")), tr("Pause"), this);
    m_pause->setToolTip(tr("Stop handing items to workers; pushes are still accepted"));
    m_resume = new QAction(Icons::symbolic(QStringLiteral("media-playback-start")), tr("Resume"), this);
    m_flush = new QAction(Icons::symbolic(QStringLiteral("go-bottom")), tr("Flush"), this);
    m_flush->setToolTip(tr("Handle every waiting item now, within the timeout"));
    m_removeAll = new QAction(Icons::symbolic(QStringLiteral("edit-clear-all")), tr("Remove all…"), this);
    m_removeAll->setToolTip(tr("Delete every waiting item (asks first, naming how many)"));
    m_setWorkers = new QAction(Icons::symbolic(QStringLiteral("system-users")), tr("Set max workers…"), this);
    // Always available: which settings make which queue (the question an empty page raises).
    m_settingsHelp = new QAction(Icons::symbolic(QStringLiteral("help-about")), tr("Queue settings…"), this);
    m_settingsHelp->setToolTip(tr("Which [queue.*] settings of app.ini apply to which queue, and which queues the subsystems create"));
    for (QAction *action : {m_pause, m_resume, m_flush, m_removeAll, m_setWorkers, m_settingsHelp})
        addPageAction(action);
    connect(m_settingsHelp, &QAction::triggered, this, &QueuesPage::showQueueSettings);
    connect(m_pause, &QAction::triggered, this, [this] { pauseSelected(true); });
    connect(m_resume, &QAction::triggered, this, [this] { pauseSelected(false); });
    connect(m_flush, &QAction::triggered, this, &QueuesPage::flushSelected);
    connect(m_removeAll, &QAction::triggered, this, &QueuesPage::removeAllSelected);
    connect(m_setWorkers, &QAction::triggered, this, &QueuesPage::setWorkersSelected);

    m_flushTimeout = new QSpinBox(this);
    m_flushTimeout->setRange(1, 3600);
    m_flushTimeout->setValue(60);
    m_flushTimeout->setSuffix(tr(" s"));
    m_flushTimeout->setPrefix(tr("timeout "));
    m_flushTimeout->setToolTip(tr("How long a flush may take before it gives up (the items stay queued)"));
    m_flushTimeout->setAccessibleName(tr("Flush timeout"));
    addToolBarWidget(m_flushTimeout);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(180);
    m_progress->setAccessibleName(tr("Flush progress"));
    m_progress->setVisible(false);
    addRowWidget(m_progress);
    m_cancelFlush = new QToolButton(this);
    m_cancelFlush->setText(tr("Cancel flush"));
    connect(m_cancelFlush, &QToolButton::clicked, this, [this] {
        if (m_job)
            m_job->cancel();
    });
    m_cancelFlush->setVisible(false);
    addRowWidget(m_cancelFlush);

    // Detail: the queue's settings and a chart of its last 10 minutes.
    auto *layout = qobject_cast<QVBoxLayout *>(detailArea()->layout());
    m_settings = new QLabel(this);
    m_settings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_settings->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(m_settings);
    m_chart = new QChart;
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_lengthSeries = new QLineSeries(m_chart);
    m_lengthSeries->setName(tr("Length"));
    m_rateSeries = new QLineSeries(m_chart);
    m_rateSeries->setName(tr("Handled per second"));
    m_chart->addSeries(m_lengthSeries);
    m_chart->addSeries(m_rateSeries);
    m_timeAxis = new QDateTimeAxis(m_chart);
    m_timeAxis->setFormat(QStringLiteral("HH:mm"));
    m_timeAxis->setTickCount(6);
    m_lengthAxis = new QValueAxis(m_chart);
    m_lengthAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_lengthAxis->setTitleText(tr("items"));
    m_rateAxis = new QValueAxis(m_chart);
    m_rateAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_rateAxis->setTitleText(tr("items/s"));
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_lengthAxis, Qt::AlignLeft);
    m_chart->addAxis(m_rateAxis, Qt::AlignRight);
    m_lengthSeries->attachAxis(m_timeAxis);
    m_lengthSeries->attachAxis(m_lengthAxis);
    m_rateSeries->attachAxis(m_timeAxis);
    m_rateSeries->attachAxis(m_rateAxis);
    auto *chartView = new QChartView(m_chart, this);
    Theme::followPalette(chartView);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumHeight(180);
    chartView->setAccessibleName(tr("Length and throughput chart"));
    // Without a queue or samples the chart says so instead of drawing empty axes.
    m_chartEmpty = new QLabel(this);
    m_chartEmpty->setObjectName(QStringLiteral("chartEmptyState"));
    m_chartEmpty->setAlignment(Qt::AlignCenter);
    m_chartEmpty->setWordWrap(true);
    m_chartEmpty->setForegroundRole(QPalette::PlaceholderText);
    m_chartStack = new QStackedWidget(this);
    m_chartStack->addWidget(m_chartEmpty);
    m_chartStack->addWidget(chartView);
    // The chart, the waiting items and those in flight: what Sidekiq's Queues and Busy tabs show.
    m_items = new QueueItemsView(backend, QueueItemsView::Mode::Waiting, this);
    m_inFlight = new QueueItemsView(backend, QueueItemsView::Mode::InFlight, this);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("queueDetailTabs"));
    m_tabs->setAccessibleName(tr("Queue details"));
    m_tabs->addTab(m_chartStack, tr("C&hart"));
    m_tabs->addTab(m_items, tr("&Items"));
    m_tabs->addTab(m_inFlight, tr("In &flight"));
    layout->addWidget(m_tabs, 1);

    connect(&backend, &Admin::AdminBackend::event, this, &QueuesPage::onEvent);
    connect(&m_model, &QAbstractItemModel::dataChanged, this, &QueuesPage::updateActions);
    updateActions();
    updateDetail();
}


void QueuesPage::refresh()
{
    single(QStringLiteral("queues"), [=, this](const Done &done) {
        backend().call(Admin::Ops::queueList, {}, this, [this, done](Result<std::vector<Admin::QueueRow>> rows) {
            done();
            if (!rows) {
                reportFailure(tr("Reading the queues"), rows.status());
                return;
            }
            m_model.applyStats(std::move(rows).value());
            updateDetail();
        });
    });
}

void QueuesPage::onEvent(const Admin::AdminEvent &event)
{
    if (event.type != Admin::AdminEvent::Type::QueueStats)
        return;
    m_model.applyStats(event.queues);
    int attention = 0;
    for (const Admin::QueueRow &row : m_model.rows())
        attention += QueueModel::needsAttention(row) ? 1 : 0;
    setBadge(attention);
    if (isActive())
        updateDetail();
}

const Admin::QueueRow *QueuesPage::selectedRow() const
{
    const QVariant key = currentKey();
    return key.isValid() ? m_model.find(key.toLongLong()) : nullptr;
}

void QueuesPage::selectionChanged()
{
    updateActions();
    updateDetail();
}

void QueuesPage::updateActions()
{
    const Admin::QueueRow *row = selectedRow();
    const bool canAct = row && backend().canMutate() && !m_busy;
    m_pause->setEnabled(canAct && !row->paused);
    m_resume->setEnabled(canAct && row->paused);
    m_flush->setEnabled(canAct && !m_job);
    m_removeAll->setEnabled(canAct);
    m_setWorkers->setEnabled(canAct);
    const QString reason = !backend().canMutate() ? tr("Read-only connection") : QString();
    for (QAction *action : {m_pause, m_resume, m_flush, m_removeAll, m_setWorkers})
        action->setStatusTip(reason);
}

void QueuesPage::updateDetail()
{
    const Admin::QueueRow *row = selectedRow();
    if (!row) {
        m_settings->setText(tr("Select a queue to see its settings and its last 10 minutes."));
        m_lengthSeries->clear();
        m_rateSeries->clear();
        m_chart->setTitle(QString());
        m_chartEmpty->setText(tr("No queue selected."));
        m_chartStack->setCurrentWidget(m_chartEmpty);
        m_items->setQueue(-1, QString());
        m_inFlight->setQueue(-1, QString());
        m_detailQid = -1;
        return;
    }
    if (m_detailQid != row->qid) {
        m_detailQid = row->qid;
        m_items->setQueue(row->qid, row->name);
        m_inFlight->setQueue(row->qid, row->name);
        m_settings->setText(tr("<b>%1</b> — %2, batch %3, length %4").arg(row->name.toHtmlEscaped(), row->type)
                                .arg(row->batchLength).arg(formatCount(row->capacity)));
        const qint64 qid = row->qid;
        single(QStringLiteral("queueSettings"), [=, this](const Done &done) {
            backend().call(Admin::Ops::queueGet, {qid}, this, [this, qid, done](Result<Admin::QueueDetail> detail) {
                done();
                if (!detail || !detail->settings || m_detailQid != qid)
                    return;
                const Admin::QueueSettingsInfo &info = *detail->settings;
                m_settings->setText(tr("<b>%1</b> — %2, batch %3, length %4<br>%5")
                                        .arg(info.name.toHtmlEscaped(), info.type)
                                        .arg(info.batchLength)
                                        .arg(formatCount(info.length), info.location.toHtmlEscaped()));
            });
        });
    }
    const std::deque<QueueSample> &history = m_model.history(row->qid);
    if (history.size() < 2) {
        m_lengthSeries->clear();
        m_rateSeries->clear();
        m_chartEmpty->setText(tr("%1: no history yet — the chart starts with the next live updates (one a second).")
                                  .arg(row->name));
        m_chartStack->setCurrentWidget(m_chartEmpty);
        return;
    }
    m_chartStack->setCurrentIndex(1);
    QList<QPointF> lengths, rates;
    lengths.reserve(qsizetype(history.size()));
    rates.reserve(qsizetype(history.size()));
    double maxLength = 10, maxRate = 10;
    for (const QueueSample &s : history) {
        const double x = double(s.at.toMSecsSinceEpoch());
        lengths << QPointF(x, double(s.length));
        rates << QPointF(x, s.handledPerSecond);
        maxLength = std::max(maxLength, double(s.length));
        maxRate = std::max(maxRate, s.handledPerSecond);
    }
    m_lengthSeries->replace(lengths);
    m_rateSeries->replace(rates);
    const QDateTime end = history.back().at.toLocalTime();
    m_timeAxis->setRange(end.addSecs(-QueueModel::kHistorySeconds), end);
    m_lengthAxis->setRange(0, maxLength * 1.1);
    m_rateAxis->setRange(0, maxRate * 1.1);
    m_chart->setTitle(tr("%1 — last 10 minutes").arg(row->name));
}

void QueuesPage::showQueueSettings()
{
    backend().call(Admin::Ops::instance, {}, this, [this](Result<Admin::InstanceInfo> info) {
        if (!info) {
            reportFailure(tr("Reading the queue settings"), info.status());
            return;
        }
        // The engine's queues (SPEC: names as in Gitea) and the subsystem that creates each.
        static const std::pair<const char *, const char *> known[] = {
            {"webhook_sender", QT_TR_NOOP("webhook delivery (unique)")},
            {"notification-service", QT_TR_NOOP("in-app notifications")},
            {"mail", QT_TR_NOOP("mail notifications")},
            {"task", QT_TR_NOOP("admin jobs")},
            {"event_ingest", QT_TR_NOOP("event ingestion")},
        };
        QString rows;
        const QString common = info->queueTypes.value(QStringLiteral("common"), QStringLiteral("level"));
        for (const auto &[name, creator] : known) {
            const QString queue = QLatin1String(name);
            const bool own = info->queueTypes.contains(queue);
            rows += QStringLiteral("<tr><td><code>%1</code></td><td>%2</td><td>%3</td><td>%4</td></tr>")
                        .arg(queue, tr(creator), info->queueTypes.value(queue, common).toHtmlEscaped(),
                             own ? QStringLiteral("<code>[queue.%1]</code>").arg(queue.toHtmlEscaped()) : QStringLiteral("<code>[queue]</code>"));
        }
        QStringList others;
        for (auto it = info->queueTypes.begin(); it != info->queueTypes.end(); ++it) {
            if (it.key() != QLatin1String("common") && std::none_of(std::begin(known), std::end(known), [&](const auto &k) {
                    return it.key() == QLatin1String(k.first);
                }))
                others << QStringLiteral("<code>[queue.%1]</code> (%2)").arg(it.key().toHtmlEscaped(), it.value().toHtmlEscaped());
        }
        const QString config = info->configPath.isEmpty() ? tr("the built-in defaults (no app.ini)") : info->configPath.toHtmlEscaped();
        QString html = tr("<p>Settings come from %1: <code>[queue]</code> applies to every queue (TYPE here: <b>%2</b>), "
                          "<code>[queue.&lt;name&gt;]</code> overrides it key by key for one queue.</p>"
                          "<table cellspacing='6'><tr><th align='left'>queue</th><th align='left'>created by</th>"
                          "<th align='left'>type</th><th align='left'>from</th></tr>%3</table>"
                          "<p>A queue appears on this page once the subsystem that uses it starts. For example:</p>"
                          "<pre>[queue.webhook_sender]\nTYPE = redis\nLENGTH = 10000\nMAX_WORKERS = 4</pre>")
                           .arg(config, common.toHtmlEscaped(), rows);
        if (!others.isEmpty())
            html += tr("<p>Other sections in the configuration: %1.</p>").arg(others.join(QStringLiteral(", ")));
        auto *box = new QMessageBox(QMessageBox::Information, tr("Queue settings"), html, QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("queueSettingsHelp"));
        box->setTextFormat(Qt::RichText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

void QueuesPage::pauseSelected(bool pause)
{
    const Admin::QueueRow *row = selectedRow();
    if (!row)
        return;
    const qint64 qid = row->qid;
    const QString name = row->name;
    m_busy = true;
    updateActions();
    auto done = [this, pause, name](Status status) {
        if (status)
            Q_EMIT operationSucceeded(pause ? tr("Paused %1: items are kept until you resume").arg(name)
                                            : tr("Resumed %1").arg(name));
        else
            reportFailure(pause ? tr("Pausing %1").arg(name) : tr("Resuming %1").arg(name), status);
        actionDone();
    };
    if (pause)
        backend().call(Admin::Ops::queuePause, {qid}, this, Admin::statusOnly<Admin::Done>(done));
    else
        backend().call(Admin::Ops::queueResume, {qid}, this, Admin::statusOnly<Admin::Done>(done));
}

void QueuesPage::actionDone()
{
    m_busy = false;
    refresh();
    updateActions();
}

void QueuesPage::flushSelected()
{
    const Admin::QueueRow *row = selectedRow();
    if (!row || m_job)
        return;
    const QString name = row->name;
    m_flushQid = row->qid;
    const std::chrono::seconds timeout(m_flushTimeout->value());
    m_job = backend().flushQueue(row->qid, timeout, this);
    m_progress->setRange(0, 0);
    m_progress->setFormat(tr("flushing %1: %p%").arg(name));
    m_progress->setVisible(true);
    m_cancelFlush->setVisible(true);
    m_flushClock.start();
    connect(m_job, &Admin::AdminJob::progress, this, [this](qint64 done, qint64 total) {
        if (total <= 0)
            return;
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(done * 1000 / total));
    });
    connect(m_job, &Admin::AdminJob::finished, this, [this, name, timeout](const Status &result) {
        const qint64 elapsed = m_flushClock.elapsed();
        const qint64 handled = m_job ? m_job->done() : 0;
        m_progress->setVisible(false);
        m_cancelFlush->setVisible(false);
        m_job = nullptr;
        if (result)
            Q_EMIT operationSucceeded(tr("Flushed %1: %2 items in %3").arg(name, formatCount(handled), formatDuration(elapsed)));
        else if (result.code() == Status::Code::DeadlineExceeded)
            Q_EMIT operationFailed(tr("Flush of %1 timed out after %2; the remaining items stay queued").arg(name, formatDuration(timeout.count() * 1000)),
                                   result.message());
        else if (result.code() == Status::Code::Cancelled)
            Q_EMIT operationInfo(tr("Flush of %1 cancelled; the remaining items stay queued").arg(name));
        else
            reportFailure(tr("Flushing %1").arg(name), result);
        actionDone();
    });
    updateActions();
}

void QueuesPage::removeAllSelected()
{
    const Admin::QueueRow *row = selectedRow();
    if (!row)
        return;
    const qint64 qid = row->qid;
    const QString name = row->name;
    m_busy = true;
    updateActions();
    // The dry run first, so the question names the number that will go.
    backend().call(Admin::Ops::queueRemoveAll, {qid, true}, this, [this, qid, name](Result<Admin::RemoveAllResult> dryRun) {
        const Result<qint64> count = dryRun ? Result<qint64>(dryRun->count) : dryRun.status();
        m_busy = false;
        updateActions();
        if (!count) {
            reportFailure(tr("Counting the items of %1").arg(name), count.status());
            return;
        }
        if (*count == 0) {
            Q_EMIT operationInfo(tr("%1 is empty: nothing to remove").arg(name));
            return;
        }
        confirm(tr("Remove all items"),
                tr("Remove %1 items from %2?\n\nThe items are deleted without being handled. This cannot be undone.")
                    .arg(formatCount(*count), name),
                tr("Remove %1 items").arg(formatCount(*count)), [this, qid, name] {
                    m_busy = true;
                    updateActions();
                    backend().call(Admin::Ops::queueRemoveAll, {qid, false}, this, [this, name](Result<Admin::RemoveAllResult> result) {
                        const Result<qint64> removed = result ? Result<qint64>(result->removed) : result.status();
                        if (removed)
                            Q_EMIT operationSucceeded(tr("Removed %1 items from %2").arg(formatCount(*removed), name));
                        else
                            reportFailure(tr("Removing the items of %1").arg(name), removed.status());
                        actionDone();
                    });
                });
    });
}

void QueuesPage::setWorkersSelected()
{
    const Admin::QueueRow *row = selectedRow();
    if (!row)
        return;
    const qint64 qid = row->qid;
    const QString name = row->name;
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("setWorkers"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Set max workers"));
    dialog->setLabelText(tr("Maximum workers for %1:").arg(name));
    dialog->setInputMode(QInputDialog::IntInput);
    dialog->setIntRange(1, 1000);
    dialog->setIntValue(row->maxWorkers > 0 ? row->maxWorkers : 1);
    connect(dialog, &QInputDialog::intValueSelected, this, [this, qid, name](int workers) {
        backend().call(Admin::Ops::queueSetMaxWorkers, {qid, workers}, this, Admin::statusOnly<Admin::Done>([this, name, workers](Status status) {
            if (status)
                Q_EMIT operationSucceeded(tr("%1 now runs at most %2 workers").arg(name).arg(workers));
            else
                reportFailure(tr("Setting the workers of %1").arg(name), status);
            refresh();
        }));
    });
    dialog->open();
}

} // namespace Switchyard::Console
