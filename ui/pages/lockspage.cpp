#include "lockspage.h"


#include "admin/ops/lockops.h"

#include "widgets/icons.h"
#include "widgets/sparklinedelegate.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace Switchyard::Console {

LocksPage::LocksPage(Admin::AdminBackend &backend, QWidget *parent) : TablePage(backend, parent), m_model(this)
{
    setSourceModel(&m_model);
    view()->setItemDelegateForColumn(LockModel::Ttl, new CountdownBarDelegate([this](const QModelIndex &index) {
        const Admin::LockRow *row = m_model.find(index.data(KeyRole).toString());
        if (!row || row->ttlMs < 0)
            return -1.0;
        return double(m_model.remainingMs(*row)) / double(std::max<qint64>(m_model.leaseMs(), 1));
    }, this));
    // Nine columns in 1280 px: the key takes what is left; the holder elides (tooltip: all of it).
    view()->header()->resizeSection(LockModel::Backend, 70);
    view()->header()->resizeSection(LockModel::Holder, 190);
    view()->header()->resizeSection(LockModel::Token, 75);
    view()->header()->resizeSection(LockModel::Fencing, 90);
    view()->header()->resizeSection(LockModel::Acquired, 80);
    view()->header()->resizeSection(LockModel::Ttl, 130);
    view()->header()->resizeSection(LockModel::Extensions, 80);
    view()->header()->resizeSection(LockModel::Waiters, 65);
    fitColumns(LockModel::Key);
    view()->sortByColumn(LockModel::Key, Qt::AscendingOrder);
    view()->setSelectionMode(QAbstractItemView::SingleSelection);
    setEmptyText(tr("<h3>No locks are held</h3><p>Cron runs, webhook deliveries and other exclusive work take a "
                    "global lock while they run; they appear here with their holder, fencing token and lease. "
                    "<code>[global_lock] SERVICE_TYPE</code> chooses memory or Redis — see docs/locks.md.</p>"));

    m_forceRelease = new QAction(Icons::symbolic(QStringLiteral("changes-allow")), tr("Force release…"), this);
    m_forceRelease->setToolTip(tr("Remove the lock whoever holds it (asks first)"));
    addPageAction(m_forceRelease);
    connect(m_forceRelease, &QAction::triggered, this, &LocksPage::forceReleaseSelected);

    auto *help = new QLabel(tr("A fencing token grows with every acquisition: a resource that remembers the highest "
                               "token it saw refuses writes from a holder that lost its lock."), this);
    help->setWordWrap(true);
    help->setContentsMargins(4, 4, 4, 4);
    qobject_cast<QVBoxLayout *>(detailArea()->layout())->addWidget(help);
    qobject_cast<QVBoxLayout *>(detailArea()->layout())->addStretch(1);

    connect(&backend, &Admin::AdminBackend::event, this, &LocksPage::onEvent);
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, [this] {
        m_model.tick();
        updateBadge();
    });
    m_countdown.start();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(50);
    connect(&m_debounce, &QTimer::timeout, this, &LocksPage::refresh);
    selectionChanged();
}


void LocksPage::refresh()
{
    single(QStringLiteral("locks"), [=, this](const Done &done) {
        backend().call(Admin::Ops::lockList, {}, this, [this, done](Result<std::vector<Admin::LockRow>> rows) {
            done();
            if (!rows) {
                reportFailure(tr("Reading the locks"), rows.status());
                return;
            }
            m_model.applyLocks(std::move(rows).value());
            updateBadge();
            selectionChanged();
        });
    });
}

void LocksPage::updateBadge()
{
    int nearExpiry = 0;
    for (const Admin::LockRow &row : m_model.rows()) {
        const qint64 remaining = m_model.remainingMs(row);
        nearExpiry += (remaining >= 0 && remaining < LockModel::kNearExpiryMs) ? 1 : 0;
    }
    setBadge(nearExpiry);
}

void LocksPage::onEvent(const Admin::AdminEvent &event)
{
    if (event.type == Admin::AdminEvent::Type::Lock && !m_debounce.isActive())
        m_debounce.start();
}

void LocksPage::selectionChanged()
{
    m_forceRelease->setEnabled(currentKey().isValid() && backend().canMutate());
}

void LocksPage::forceReleaseSelected()
{
    const QVariant key = currentKey();
    const Admin::LockRow *row = key.isValid() ? m_model.find(key.toString()) : nullptr;
    if (!row)
        return;
    const QString lockKey = row->key;
    const QString holder = row->owner;
    confirm(tr("Force release"),
            tr("Force-release %1, held by %2 (fencing token %3)?\n\nThe holder will be told it lost the lock; work "
               "it does after that is not protected, and another process may take the lock at once.")
                .arg(lockKey, holder)
                .arg(row->fencingToken),
            tr("Force release"), [this, lockKey, holder] {
                m_forceRelease->setEnabled(false);
                backend().call(Admin::Ops::lockForceRelease, {lockKey}, this, Admin::statusOnly<Admin::Done>([this, lockKey, holder](Status status) {
                    if (status)
                        Q_EMIT operationSucceeded(tr("Released %1 (was held by %2)").arg(lockKey, holder));
                    else if (status.code() == Status::Code::NotFound)
                        Q_EMIT operationInfo(tr("%1 was already released; nothing to do").arg(lockKey));
                    else
                        reportFailure(tr("Force-releasing %1").arg(lockKey), status);
                    refresh();
                }));
            });
}

} // namespace Switchyard::Console
