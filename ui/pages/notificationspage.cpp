#include "notificationspage.h"

#include "admin/ops/eventops.h"
#include "eventsender.h"
#include "tracedialog.h"
#include "widgets/format.h"

#include "widgets/icons.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace Switchyard::Console {

namespace {

constexpr qint64 kPageRows = 200; // rows per page read; more as the table is scrolled to its end

} // namespace

NotificationsPage::NotificationsPage(Admin::AdminBackend &backend, QWidget *parent)
    : TablePage(backend, parent), m_events(this), m_users(this), m_notifications(this)
{
    setSourceModel(&m_events);
    m_events.setPaging(kPageRows, [this](qint64 page) { readEvents(page, {}); }, scrolledToEnd(view()), EventModel::kMaxRows);
    view()->setAccessibleName(tr("Ingested events, newest first"));
    view()->header()->resizeSection(EventModel::Id, 70);
    view()->header()->resizeSection(EventModel::Received, 150);
    view()->header()->resizeSection(EventModel::Event, 150);
    view()->header()->resizeSection(EventModel::Action, 90);
    view()->header()->resizeSection(EventModel::Repo, 170);
    view()->header()->resizeSection(EventModel::Sender, 110);
    view()->header()->resizeSection(EventModel::Status, 80);
    fitColumns(EventModel::Error);
    view()->sortByColumn(EventModel::Id, Qt::DescendingOrder);
    setEmptyText(tr("<h3>No events yet</h3><p>Events arrive when a forge posts its webhooks to this instance's admin API: "
                    "give a Gitea or GitHub webhook the URL <code>http://HOST:3300/api/v1/events?source=NAME</code>, "
                    "with the secret you set as <code>[event_source.NAME] SECRET</code> in app.ini (or an "
                    "<code>ingest</code> token: <code>switchyardctl token create forge --role ingest</code>).</p>"
                    "<p>To try it with a saved payload: <code>switchyardctl events send push.json --event push</code>. "
                    "Each event is stored, then turned into notifications for the users who watch, take part or are "
                    "mentioned; they appear below with their unread counts.</p>"));

    m_follow = new QAction(Icons::symbolic(QStringLiteral("go-bottom")), tr("Follow"), this);
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest event in view as events arrive (off: the list stays where you scrolled)"));
    addPageAction(m_follow);
    // Try it without a forge: a sample or a saved payload, through the same door a forge uses.
    auto *tryout = new EventTryout(backend, this, [this](bool ok, const QString &message, const QString &detail) {
        if (ok)
            Q_EMIT operationSucceeded(message);
        else
            Q_EMIT operationFailed(message, detail);
    });
    addPageAction(tryout->sendTestAction());
    addPageAction(tryout->sendFileAction());
    // What the selected event produced (GET /traces/{id}), in a TraceDialog.
    m_trace = new QAction(Icons::symbolic(QStringLiteral("edit-find")), tr("Show trace"), this);
    m_trace->setToolTip(tr("What the selected event produced: its notifications, feed rows, deliveries and mail"));
    m_trace->setEnabled(false);
    addPageAction(m_trace);
    connect(m_trace, &QAction::triggered, this, &NotificationsPage::showTrace);
    connect(&m_events, &EventModel::rowsArrived, this, [this] {
        if (m_follow->isChecked())
            view()->scrollToTop(); // newest first
    });

    // Below: the users and the selected user's notifications.
    auto *split = new QSplitter(Qt::Horizontal, this);
    m_userProxy.setSourceModel(&m_users);
    m_userProxy.setSortRole(RawRole);
    m_userView = makeTable(split, &m_userProxy, tr("Users of the forge, with their unread notifications"));
    m_userView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_userView->sortByColumn(ForgeUserModel::Unread, Qt::DescendingOrder);
    // The pane is narrow: the login takes what is left, the count and the source their text's width,
    // and nothing scrolls sideways (it did at 1280 × 800).
    m_userView->header()->setStretchLastSection(false);
    m_userView->header()->setSectionResizeMode(ForgeUserModel::Login, QHeaderView::Stretch);
    m_userView->header()->setSectionResizeMode(ForgeUserModel::Unread, QHeaderView::ResizeToContents);
    m_userView->header()->setSectionResizeMode(ForgeUserModel::Source, QHeaderView::ResizeToContents);
    m_userView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_userView->setTextElideMode(Qt::ElideRight);

    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QToolBar(right);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setAccessibleName(tr("Notification actions"));
    m_userHeading = new QLabel(tr("Select a user to see their notifications."), right);
    m_userHeading->setContentsMargins(4, 0, 8, 0);
    bar->addWidget(m_userHeading);
    m_markRead = bar->addAction(Icons::symbolic(QStringLiteral("mail-read")), tr("Mark read"));
    m_markUnread = bar->addAction(Icons::symbolic(QStringLiteral("mail-unread")), tr("Mark unread"));
    m_pin = bar->addAction(Icons::symbolic(QStringLiteral("view-pin")), tr("Pin"));
    m_markAllRead = bar->addAction(Icons::symbolic(QStringLiteral("edit-clear-all")), tr("Mark all read"));
    m_markAllRead->setToolTip(tr("Every unread notification of the selected user becomes read"));
    m_notificationTrace = bar->addAction(Icons::symbolic(QStringLiteral("edit-find")), tr("Show trace"));
    m_notificationTrace->setToolTip(tr("What the selected notification's cause produced: its event, the other notifications, "
                                       "deliveries and mail"));
    connect(m_notificationTrace, &QAction::triggered, this, [this] {
        if (const NotificationRow *row = currentNotification())
            openTrace(*this, m_traceDialog, row->traceId);
    });
    rightLayout->addWidget(bar);
    m_notificationProxy.setSourceModel(&m_notifications);
    m_notificationProxy.setSortRole(RawRole);
    m_notificationView = makeTable(right, &m_notificationProxy, tr("The selected user's notifications"));
    m_notificationView->sortByColumn(NotificationModel::Updated, Qt::DescendingOrder);
    m_notificationView->header()->resizeSection(NotificationModel::Status, 70);
    m_notificationView->header()->resizeSection(NotificationModel::Repo, 150);
    m_notificationView->header()->resizeSection(NotificationModel::Issue, 60);
    m_notificationView->header()->resizeSection(NotificationModel::Title, 240);
    m_notificationView->header()->resizeSection(NotificationModel::Source, 60);
    for (QAction *action : {m_markRead, m_markUnread, m_pin, m_markAllRead, m_notificationTrace})
        m_notificationView->addAction(action);
    m_notificationView->setContextMenuPolicy(Qt::ActionsContextMenu);
    rightLayout->addWidget(m_notificationView);
    m_users.setPaging(kPageRows, [this](qint64 page) { readUsers(page, {}); }, scrolledToEnd(m_userView));
    m_notifications.setPaging(kPageRows, [this](qint64 page) { readNotifications(page, {}); }, scrolledToEnd(m_notificationView));
    split->addWidget(m_userView);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({300, 900});
    qobject_cast<QVBoxLayout *>(detailArea()->layout())->addWidget(split);

    connect(m_markRead, &QAction::triggered, this, [this] { setStatus(NotificationStatus::Read); });
    connect(m_markUnread, &QAction::triggered, this, [this] { setStatus(NotificationStatus::Unread); });
    connect(m_pin, &QAction::triggered, this, [this] { setStatus(NotificationStatus::Pinned); });
    connect(m_markAllRead, &QAction::triggered, this, &NotificationsPage::markAllRead);
    connect(m_userView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        m_notifications.resetPages();
        refreshNotifications();
        updateActions();
    });
    connect(m_notificationView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &NotificationsPage::updateActions);
    connect(&backend, &Admin::AdminBackend::event, this, &NotificationsPage::onEvent);
    updateActions();
}

void NotificationsPage::refresh()
{
    single(QStringLiteral("events"), [=, this](const Done &done) { readEvents(1, done); });
    refreshUsers();
    refreshNotifications();
}

// Page 1 comes from refresh() (newest first, merged with what the stream brought); later pages
// when the table is scrolled to its end.
void NotificationsPage::readEvents(qint64 page, const Done &done)
{
    backend().call(Admin::Ops::eventList, {page, kPageRows, {}, {}, {}, {}}, this, [this, page, done](Result<Admin::Page<EventRecord>> rows) {
        if (done)
            done();
        if (!rows) {
            m_events.pageFailed();
            reportFailure(tr("Reading the events"), rows.status());
            return;
        }
        m_events.flushPending();
        m_events.pageArrived(page, std::move(rows->rows), rows->total);
        updateEmptyState();
    });
}

void NotificationsPage::refreshUsers()
{
    single(QStringLiteral("users"), [=, this](const Done &done) { readUsers(1, done); });
}

void NotificationsPage::readUsers(qint64 page, const Done &done)
{
    backend().call(Admin::Ops::userList, {page, kPageRows}, this, [this, page, done](Result<Admin::Page<ForgeUserRow>> rows) {
        if (done)
            done();
        if (!rows) {
            m_users.pageFailed();
            reportFailure(tr("Reading the users"), rows.status());
            return;
        }
        m_users.pageArrived(page, std::move(rows->rows), rows->total);
        // Nobody chosen yet: the user with the most unread notifications (the list's top row).
        if (selectedUser() == 0 && m_userProxy.rowCount() > 0)
            m_userView->selectionModel()->setCurrentIndex(m_userProxy.index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        updateActions(); // Mark all read follows the selected user's count
    });
}

void NotificationsPage::refreshNotifications()
{
    if (selectedUser() <= 0) {
        m_userHeading->setText(tr("Select a user to see their notifications."));
        return;
    }
    single(QStringLiteral("notifications"), [=, this](const Done &done) { readNotifications(1, done); });
}

void NotificationsPage::readNotifications(qint64 page, const Done &done)
{
    const qint64 user = selectedUser();
    if (user <= 0) {
        if (done)
            done();
        m_notifications.pageFailed();
        return;
    }
    backend().call(Admin::Ops::notificationList, {page, kPageRows, user, {}}, this, [this, done, page, user](Result<Admin::Page<NotificationRow>> rows) {
        if (done)
            done();
        if (user != selectedUser())
            return; // another user was selected meanwhile (and the pages were reset)
        if (!rows) {
            m_notifications.pageFailed();
            reportFailure(tr("Reading the notifications"), rows.status());
            return;
        }
        const ForgeUserRow *row = m_users.find(user);
        m_userHeading->setText(row ? tr("%1: %n notification(s)", nullptr, int(rows->total)).arg(row->login) : QString());
        m_notifications.pageArrived(page, std::move(rows->rows), rows->total);
        if (m_revealNotification > 0 && selectKeyIn(m_notificationView, m_revealNotification))
            m_revealNotification = 0;
        updateActions();
    });
}

bool NotificationsPage::selectUser(qint64 userId)
{
    return selectKeyIn(m_userView, userId);
}

qint64 NotificationsPage::selectedUser() const
{
    const QModelIndexList rows = m_userView->selectionModel()->selectedRows();
    return rows.isEmpty() ? 0 : rows.first().data(KeyRole).toLongLong();
}

void NotificationsPage::onEvent(const Admin::AdminEvent &event)
{
    if (event.type == Admin::AdminEvent::Type::Event) {
        m_events.enqueue(event.event);
    } else if (event.type == Admin::AdminEvent::Type::NotificationCount) {
        if (!m_users.setUnread(event.unread.userId, event.unread.count))
            refreshUsers(); // someone new: the list is read again
        updateActions();
        if (event.unread.userId == selectedUser())
            refreshNotifications();
    }
}

void NotificationsPage::selectionChanged()
{
    const int at = m_events.indexOfKey(currentKey().toLongLong());
    m_trace->setEnabled(at >= 0 && !m_events.rowAt(at)->traceId.isEmpty());
}

void NotificationsPage::showTrace()
{
    const int at = m_events.indexOfKey(currentKey().toLongLong());
    if (at >= 0)
        openTrace(*this, m_traceDialog, m_events.rowAt(at)->traceId);
}

TraceDialog *NotificationsPage::traceDialog() const
{
    return m_traceDialog;
}

const NotificationRow *NotificationsPage::currentNotification() const
{
    const QModelIndexList rows = m_notificationView->selectionModel()->selectedRows();
    return rows.size() == 1 ? m_notifications.find(rows.first().data(KeyRole).toLongLong()) : nullptr;
}

// An event is selected in the feed; a notification in its user's list — that user chosen first
// (by the login the trace names) when another is shown, the row selected once their list is read.
bool NotificationsPage::reveal(const QString &kind, qint64 id, const QString &summary)
{
    if (kind == QLatin1String("event"))
        return selectKey(id);
    if (kind != QLatin1String("notification"))
        return false;
    if (selectKeyIn(m_notificationView, id))
        return true;
    const QString login = summary.section(QStringLiteral(": "), 0, 0);
    for (const ForgeUserRow &user : m_users.rows())
        if (user.login == login && !login.isEmpty()) {
            m_revealNotification = id;
            if (user.id == selectedUser())
                refreshNotifications();
            else
                selectUser(user.id);
            return true;
        }
    return false;
}

void NotificationsPage::updateActions()
{
    const bool may = backend().canMutate();
    const bool some = !m_notificationView->selectionModel()->selectedRows().isEmpty();
    for (QAction *action : {m_markRead, m_markUnread, m_pin})
        action->setEnabled(may && some);
    const NotificationRow *current = currentNotification();
    m_notificationTrace->setEnabled(current && !current->traceId.isEmpty()); // a read: read-only tokens too
    const ForgeUserRow *user = m_users.find(selectedUser());
    m_markAllRead->setEnabled(may && user && user->unread > 0);
}

void NotificationsPage::setStatus(NotificationStatus status)
{
    const QString name = notificationStatusName(status);
    const QModelIndexList rows = m_notificationView->selectionModel()->selectedRows();
    auto left = std::make_shared<int>(int(rows.size()));
    for (const QModelIndex &index : rows) {
        const qint64 id = index.data(KeyRole).toLongLong();
        backend().call(Admin::Ops::notificationUpdate, {id, name}, this, [this, left, name](Result<NotificationRow> row) {
            if (!row) {
                reportFailure(tr("Marking a notification %1").arg(name), row.status());
            } else {
                m_notifications.upsert(std::move(row).value());
            }
            if (--*left == 0) {
                Q_EMIT operationSucceeded(tr("Marked %1").arg(name));
                refreshUsers();
                updateActions();
            }
        });
    }
}

void NotificationsPage::markAllRead()
{
    const qint64 user = selectedUser();
    if (user <= 0)
        return;
    m_markAllRead->setEnabled(false);
    backend().call(Admin::Ops::notificationReadAll, {user}, this, [this](Result<Admin::NoContent> done) {
        if (!done)
            reportFailure(tr("Marking all notifications read"), done.status());
        else
            Q_EMIT operationSucceeded(tr("Marked all notifications read"));
        refreshUsers();
        refreshNotifications();
    });
}

} // namespace Switchyard::Console
