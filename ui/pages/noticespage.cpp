#include "noticespage.h"


#include "admin/ops/instanceops.h"

#include "widgets/format.h"
#include "widgets/icons.h"

#include <QAction>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QTreeView>
#include <QVBoxLayout>

namespace Switchyard::Console {

NoticesPage::NoticesPage(Admin::AdminBackend &backend, QWidget *parent) : TablePage(backend, parent), m_model(this)
{
    setSourceModel(&m_model);
    view()->header()->resizeSection(NoticeModel::Id, 70);
    view()->header()->resizeSection(NoticeModel::Time, 160);
    view()->header()->resizeSection(NoticeModel::Type, 90);
    view()->sortByColumn(NoticeModel::Id, Qt::DescendingOrder);
    setEmptyText(tr("<h3>No system notices</h3><p>The engine writes a notice when something needs an operator: "
                    "a cron task that failed (or succeeded, with <code>NOTICE_ON_SUCCESS</code>), a lock that was "
                    "force-released, queue data that was damaged. They appear here as they happen.</p>"));
    m_delete = new QAction(Icons::symbolic(QStringLiteral("edit-delete")), tr("Delete"), this);
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addPageAction(m_delete);
    connect(m_delete, &QAction::triggered, this, &NoticesPage::deleteSelected);
    m_text = new QPlainTextEdit(this);
    m_text->setReadOnly(true);
    m_text->setPlaceholderText(tr("Select a notice to read all of it."));
    qobject_cast<QVBoxLayout *>(detailArea()->layout())->addWidget(m_text);
    connect(&backend, &Admin::AdminBackend::event, this, &NoticesPage::onEvent);
    selectionChanged();
}


void NoticesPage::refresh()
{
    single(QStringLiteral("notices"), [=, this](const Done &done) {
        backend().call(Admin::Ops::noticeList, {}, this, [this, done](Result<std::vector<Admin::NoticeRow>> rows) {
            done();
            if (!rows) {
                reportFailure(tr("Reading the notices"), rows.status());
                return;
            }
            m_model.applyNotices(std::move(rows).value());
        });
    });
}

void NoticesPage::setActive(bool active)
{
    TablePage::setActive(active);
    if (active) {
        m_unseen = 0;
        setBadge(0);
    }
}

void NoticesPage::onEvent(const Admin::AdminEvent &event)
{
    if (event.type == Admin::AdminEvent::Type::Notice) {
        m_model.enqueue(event.notice);
        if (!isActive() || !isVisible())
            setBadge(++m_unseen);
    } else if (event.type == Admin::AdminEvent::Type::NoticeRemoved) {
        m_model.removeNotice(event.notice.id);
    }
}

void NoticesPage::selectionChanged()
{
    const QVariantList keys = selectedKeys();
    m_delete->setEnabled(!keys.isEmpty() && backend().canMutate());
    m_delete->setText(keys.size() > 1 ? tr("Delete %1").arg(keys.size()) : tr("Delete"));
    const Admin::NoticeRow *row = keys.size() == 1 ? m_model.find(keys.first().toLongLong()) : nullptr;
    m_text->setPlainText(row ? QStringLiteral("%1 · %2 · #%3\n\n%4").arg(formatTime(row->createdAt), row->type).arg(row->id).arg(row->description)
                             : QString());
}

void NoticesPage::deleteSelected()
{
    QList<qint64> ids;
    for (const QVariant &key : selectedKeys())
        ids << key.toLongLong();
    if (ids.isEmpty())
        return;
    m_delete->setEnabled(false);
    backend().deleteNotices(ids, this, [this, count = ids.size()](Status status) {
        if (status)
            Q_EMIT operationSucceeded(count == 1 ? tr("Deleted 1 notice") : tr("Deleted %1 notices").arg(count));
        else
            reportFailure(tr("Deleting notices"), status);
        selectionChanged();
    });
}

} // namespace Switchyard::Console
