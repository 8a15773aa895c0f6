#include "webhookspage.h"

#include "hookdialog.h"

#include "widgets/icons.h"

#include <QAction>
#include <QFontDatabase>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace Switchyard::Console {

namespace {

constexpr qint64 kPageRows = 100; // deliveries per page read; more as the list is scrolled to its end

// "Header: value" lines, then a blank line and the body (pretty when it is JSON).
QString httpText(const QJsonObject &o, const QString &firstLine)
{
    QString text = firstLine + u'\n';
    const QJsonObject headers = o.value(QStringLiteral("headers")).toObject();
    for (auto it = headers.begin(); it != headers.end(); ++it)
        text += it.key() + QStringLiteral(": ") + it.value().toString() + u'\n';
    const QString body = o.value(QStringLiteral("body")).toString();
    if (!body.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(body.toUtf8());
        text += u'\n' + (doc.isNull() ? body : QString::fromUtf8(doc.toJson(QJsonDocument::Indented)));
    }
    return text;
}

QPlainTextEdit *makeText(QWidget *parent, const QString &name)
{
    auto *text = new QPlainTextEdit(parent);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setAccessibleName(name);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return text;
}

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
    auto *split = new QSplitter(Qt::Horizontal, this);
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
    leftLayout->addWidget(bar);
    m_taskProxy.setSourceModel(&m_tasks);
    m_taskProxy.setSortRole(RawRole);
    m_taskView = makeTable(left, &m_taskProxy, tr("The selected webhook's deliveries, newest first"));
    m_taskView->sortByColumn(HookTaskModel::Id, Qt::DescendingOrder);
    m_taskView->header()->resizeSection(HookTaskModel::Id, 50);
    m_taskView->header()->resizeSection(HookTaskModel::Created, 140);
    m_taskView->header()->resizeSection(HookTaskModel::Event, 140);
    m_taskView->header()->resizeSection(HookTaskModel::Status, 110);
    m_taskView->header()->resizeSection(HookTaskModel::Duration, 55);
    m_taskView->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_taskView->addAction(m_redeliver);
    m_taskView->setContextMenuPolicy(Qt::ActionsContextMenu);
    leftLayout->addWidget(m_taskView);
    m_tabs = new QTabWidget(split);
    m_tabs->setAccessibleName(tr("The selected delivery"));
    m_request = makeText(m_tabs, tr("Request sent"));
    m_response = makeText(m_tabs, tr("Response received"));
    m_tabs->addTab(m_request, tr("&Request"));
    m_tabs->addTab(m_response, tr("Re&sponse"));
    split->addWidget(left);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({700, 500});
    qobject_cast<QVBoxLayout *>(detailArea()->layout())->addWidget(split);

    m_tasks.setPaging(kPageRows, [this](qint64 page) { readTasks(page, {}); });
    connect(m_taskView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &WebhooksPage::taskSelectionChanged);
    connect(&m_tasks, &QAbstractItemModel::dataChanged, this, &WebhooksPage::taskSelectionChanged);
    updateActions();
}

void WebhooksPage::refresh()
{
    single(QStringLiteral("hooks"), [=, this](const Done &done) { readHooks(done); });
    refreshTasks();
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

void WebhooksPage::refreshTasks()
{
    if (selectedHook() <= 0)
        return;
    single(QStringLiteral("tasks"), [=, this](const Done &done) { readTasks(1, done); });
}

// Page 1 from refresh() (merged: rows keep their place and selection), the older ones as the list
// is scrolled to its end.
void WebhooksPage::readTasks(qint64 page, const Done &done)
{
    const qint64 hook = selectedHook();
    if (hook <= 0) {
        if (done)
            done();
        m_tasks.pageFailed();
        return;
    }
    backend().call(Admin::Ops::hookTasks, {hook, page, kPageRows, {}}, this,
                   [this, done, page, hook](Result<Admin::Page<Admin::HookTaskRow>> rows) {
                       if (done)
                           done();
                       if (hook != selectedHook())
                           return; // another hook was selected meanwhile (and the pages were reset)
                       if (!rows) {
                           m_tasks.pageFailed();
                           if (rows.status().code() != Status::Code::NotFound) // deleted meanwhile: the next read says so
                               reportFailure(tr("Reading the deliveries"), rows.status());
                           return;
                       }
                       const Admin::HookRow *row = m_hooks.find(hook);
                       m_taskHeading->setText(row ? tr("Hook %1: %n delivery(s)", nullptr, int(rows->total)).arg(hook) : QString());
                       m_tasks.pageArrived(page, std::move(rows->rows), rows->total);
                       // Nothing chosen yet: the newest delivery, so its request and response show.
                       if (!m_taskView->selectionModel()->currentIndex().isValid() && m_taskProxy.rowCount() > 0)
                           m_taskView->selectionModel()->setCurrentIndex(m_taskProxy.index(0, 0), QItemSelectionModel::ClearAndSelect
                                                                                                     | QItemSelectionModel::Rows);
                       updateActions();
                   });
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
    const qint64 hook = selectedHook();
    if (hook != m_tasksOf) {
        m_tasksOf = hook;
        m_tasks.resetPages();
        m_request->clear();
        m_response->clear();
        if (hook <= 0)
            m_taskHeading->setText(tr("Select a webhook to see its deliveries."));
        refreshTasks();
    }
    updateActions();
}

void WebhooksPage::taskSelectionChanged()
{
    const QModelIndex current = m_taskView->selectionModel()->currentIndex();
    const Admin::HookTaskRow *row = current.isValid() ? m_tasks.find(current.data(KeyRole).toLongLong()) : nullptr;
    if (!row) {
        m_request->clear();
        m_response->clear();
    } else {
        const QJsonObject request = row->request.toObject();
        const QJsonObject response = row->response.toObject();
        m_request->setPlainText(request.isEmpty() ? tr("Not sent yet (%1).").arg(row->status)
                                                  : httpText(request, request.value(QStringLiteral("method")).toString() + u' '
                                                                          + request.value(QStringLiteral("url")).toString()));
        if (response.contains(QStringLiteral("status")))
            m_response->setPlainText(httpText(response, tr("HTTP %1 after %2 ms").arg(response.value(QStringLiteral("status")).toInt()).arg(row->durationMs, 0, 'f', 1)));
        else if (response.contains(QStringLiteral("error")))
            m_response->setPlainText(tr("No answer: %1").arg(response.value(QStringLiteral("error")).toString()));
        else
            m_response->setPlainText(tr("No answer yet (%1).").arg(row->status));
    }
    updateActions();
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
        Q_EMIT operationSucceeded(tr("%1 webhook %2 (%3)").arg(verb).arg(row->id).arg(row->url));
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
