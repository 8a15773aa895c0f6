#include "processespage.h"


#include "admin/ops/instanceops.h"

#include "models/rowtablemodel.h"
#include "widgets/icons.h"

#include <QAction>
#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

namespace Switchyard::Console {

ProcessesPage::ProcessesPage(Admin::AdminBackend &backend, QWidget *parent) : TablePage(backend, parent), m_model(this)
{
    setSourceModel(&m_model);
    view()->setRootIsDecorated(true);
    view()->setSelectionMode(QAbstractItemView::SingleSelection);
    view()->header()->resizeSection(ProcessModel::Description, 420);
    view()->header()->resizeSection(ProcessModel::Pid, 70);
    view()->header()->resizeSection(ProcessModel::Type, 90);
    view()->header()->resizeSection(ProcessModel::Started, 90);
    view()->sortByColumn(ProcessModel::Pid, Qt::AscendingOrder);
    detailArea()->hide();
    setEmptyText(tr("<h3>Nothing registered</h3><p>Worker pools, the cron scheduler, runs and admin jobs register "
                    "here while they run.</p>"));
    m_cancel = new QAction(Icons::symbolic(QStringLiteral("process-stop")), tr("Cancel process"), this);
    m_cancel->setToolTip(tr("Cancel the selected process and its children"));
    addPageAction(m_cancel);
    connect(m_cancel, &QAction::triggered, this, &ProcessesPage::cancelSelected);
    selectionChanged();
}



void ProcessesPage::refresh()
{
    single(QStringLiteral("processes"), [=, this](const Done &done) {
        backend().call(Admin::Ops::processList, {}, this, [this, done](Result<std::vector<Admin::ProcessRow>> rows) {
            done();
            if (!rows) {
                reportFailure(tr("Reading the processes"), rows.status());
                return;
            }
            // Expanded once per answer: expandAll() on each inserted row made a first read of a
            // few hundred processes quadratic (35 ms on the GUI thread with 200 queues).
            if (m_model.applyProcesses(*rows))
                view()->expandAll();
            updateEmptyState();
            selectionChanged();
        });
    });
}

void ProcessesPage::selectionChanged()
{
    const QModelIndexList rows = view()->selectionModel()->selectedRows();
    const qint64 pid = rows.isEmpty() ? 0 : rows.first().data(KeyRole).toLongLong();
    m_cancel->setEnabled(pid > 0 && m_model.isCancellable(pid) && backend().canMutate());
}

void ProcessesPage::cancelSelected()
{
    const QModelIndexList rows = view()->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const qint64 pid = rows.first().data(KeyRole).toLongLong();
    const QString description = rows.first().data(Qt::DisplayRole).toString();
    backend().call(Admin::Ops::processCancel, {pid}, this, Admin::statusOnly<Admin::Done>([this, description](Status status) {
        if (status)
            Q_EMIT operationSucceeded(tr("Cancelled %1").arg(description));
        else if (status.code() == Status::Code::NotFound)
            Q_EMIT operationInfo(tr("%1 had already ended").arg(description));
        else
            reportFailure(tr("Cancelling %1").arg(description), status);
        refresh();
    }));
}

} // namespace Switchyard::Console
