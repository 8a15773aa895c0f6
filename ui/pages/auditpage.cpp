#include "auditpage.h"

#include "admin/ops/instanceops.h"

#include "widgets/icons.h"

#include <QHeaderView>
#include <QTreeView>

namespace Switchyard::Console {

AuditPage::AuditPage(Admin::AdminBackend &backend, QWidget *parent) : TablePage(backend, parent), m_model(this)
{
    setSourceModel(&m_model);
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
    single(QStringLiteral("audit"), [=, this](const Done &done) {
        backend().call(Admin::Ops::auditList, {1, 500, {}, {}}, this, [this, done](Result<Admin::Page<Admin::AuditEntry>> page) {
            Result<std::vector<Admin::AuditEntry>> rows = page ? Result<std::vector<Admin::AuditEntry>>(page->rows) : page.status();
            done();
            if (!rows) {
                reportFailure(tr("Reading the audit log"), rows.status());
                return;
            }
            m_model.applySnapshot(std::move(rows).value());
        });
    });
}


} // namespace Switchyard::Console
