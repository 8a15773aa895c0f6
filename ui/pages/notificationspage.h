#pragma once

#include "tablepage.h"

#include "models/notificationmodels.h"

#include <QPointer>

class QAction;
class QLabel;
class QTreeView;

namespace Switchyard::Console {

class TraceDialog;

// Events and in-app notifications (docs/console.md): the live feed of ingested events on top —
// newest first, filtered by the filter line (event, repository, sender, status), following the
// newest unless Follow is off — and below it the forge's users with their live unread counts
// and the selected user's notifications, to mark read, unread or pinned, or all read.
class NotificationsPage final : public TablePage
{
    Q_OBJECT
public:
    explicit NotificationsPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    EventModel &events() { return m_events; }
    ForgeUserModel &users() { return m_users; }
    NotificationModel &notifications() { return m_notifications; }
    QTreeView *userView() const { return m_userView; }
    QTreeView *notificationView() const { return m_notificationView; }
    QAction *followAction() const { return m_follow; }
    QAction *markReadAction() const { return m_markRead; }
    QAction *markUnreadAction() const { return m_markUnread; }
    QAction *pinAction() const { return m_pin; }
    QAction *markAllReadAction() const { return m_markAllRead; }
    QAction *traceAction() const { return m_trace; }                         // the selected event's
    QAction *notificationTraceAction() const { return m_notificationTrace; } // the selected notification's
    // The dialog of the last Show trace (tests); null before one was opened.
    TraceDialog *traceDialog() const;
    bool reveal(const QString &kind, qint64 id, const QString &summary) override;
    // Selects a user in the lower list (tests, links); false when not listed.
    bool selectUser(qint64 userId);
    qint64 selectedUser() const;

private:
    void onEvent(const Admin::AdminEvent &event);
    void refreshUsers();
    void refreshNotifications();
    // Page `page` of each list; `done` (may be empty) ends a refresh's single() call.
    void readEvents(qint64 page, const Done &done);
    void readUsers(qint64 page, const Done &done);
    void readNotifications(qint64 page, const Done &done);
    void updateActions();
    void setStatus(NotificationStatus status);
    void markAllRead();
    void selectionChanged() override;
    void showTrace();
    const NotificationRow *currentNotification() const; // the one selected notification; null otherwise

    EventModel m_events;
    ForgeUserModel m_users;
    NotificationModel m_notifications;
    TableProxy m_userProxy;
    TableProxy m_notificationProxy;
    QTreeView *m_userView;
    QTreeView *m_notificationView;
    QLabel *m_userHeading;
    QAction *m_follow;
    QAction *m_markRead;
    QAction *m_markUnread;
    QAction *m_pin;
    QAction *m_markAllRead;
    QAction *m_trace = nullptr;
    QAction *m_notificationTrace = nullptr;
    QPointer<TraceDialog> m_traceDialog;
    qint64 m_revealNotification = 0; // a notification a link asked for, selected when its user's list arrives
};

} // namespace Switchyard::Console
