#include "auditpage.h"

#include "admin/ops/instanceops.h"

#include "widgets/icons.h"

#include <QHeaderView>
#include <QTreeView>

namespace Switchyard::Console {

namespace {
constexpr qint64 kPageRows = 200; // rows per page read; more as the table is scrolled to its end
}

AuditPage::AuditPage(Admin::AdminBackend &backend, QWidget *parent) : TablePage(backend, parent), m_model(this)
{
    setSourceModel(&m_model);
    m_model.setPaging(kPageRows, [this](qint64 page) { readPage(page, {}); }, scrolledToEnd(view()));
    view()->header()->resizeSection(AuditModel::Time, 160);
    view()->header()->resizeSection(AuditModel::Doer, 150);
    view()->header()->resizeSection(AuditModel::From, 110);
    view()->header()->resizeSection(AuditModel::Action, 170);
    view()->header()->resizeSection(AuditModel::Target, 200);
    view()->sortByColumn(AuditModel::Time, Qt::DescendingOrder);
    detailArea()->hide();
    setEmptyText(tr("<h3>Nothing changed yet</h3><p>Every change made through the admin API or this console — "
                    "a flush, a Run now, a forced lock release — is recorded here with who made it, from where "
                    "and how it ended. Reading is never recorded.</p>"));
}


void AuditPage::refresh()
{
    single(QStringLiteral("audit"), [=, this](const Done &done) { readPage(1, done); });
}

// Page 1 from refresh(), the older ones as the table is scrolled to its end.
void AuditPage::readPage(qint64 page, const Done &done)
{
    backend().call(Admin::Ops::auditList, {page, kPageRows, {}, {}}, this, [this, page, done](Result<Admin::Page<Admin::AuditEntry>> rows) {
        if (done)
            done();
        if (!rows) {
            m_model.pageFailed();
            reportFailure(tr("Reading the audit log"), rows.status());
            return;
        }
        m_model.pageArrived(page, std::move(rows->rows), rows->total);
    });
}

} // namespace Switchyard::Console
