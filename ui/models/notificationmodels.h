#pragma once

#include "rowtablemodel.h"

#include "admin/admintypes.h"

#include <QTimer>

namespace Switchyard::Console {

// Ingested events as a live feed, newest first in the view (sorted by id). Rows from the stream
// are inserted in batches every 100 ms (one insert per batch); a changed status updates its row in
// place. At most kMaxRows are kept: the oldest go first. GUI thread only.
class EventModel final : public RowTableModel<Admin::EventRow, qint64>
{
    Q_OBJECT
public:
    static constexpr int kMaxRows = 100'000;
    enum Column { Id, Received, Event, Action, Repo, Sender, Status, Error, ColumnCount };

    explicit EventModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // A row from the stream: applied with the others of the next 100 ms.
    void enqueue(Admin::EventRow row);
    void flushPending();

Q_SIGNALS:
    void rowsArrived(int count); // after a batch was inserted (the page follows the newest)

protected:
    qint64 keyOf(const Admin::EventRow &row) const override { return row.id; }

private:
    std::vector<Admin::EventRow> m_pending;
    QTimer m_batch;
};

// The forge's users with their live unread counts.
class ForgeUserModel final : public RowTableModel<ForgeUserRow, qint64>
{
    Q_OBJECT
public:
    enum Column { Login, Unread, Source, ColumnCount };

    explicit ForgeUserModel(QObject *parent = nullptr) : RowTableModel(parent) {}

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    // A notification-count frame; false when the user is not listed (re-read the list).
    bool setUnread(qint64 userId, qint64 count);

protected:
    qint64 keyOf(const ForgeUserRow &row) const override { return row.id; }
};

// One user's notifications, most recently updated first.
class NotificationModel final : public RowTableModel<NotificationRow, qint64>
{
    Q_OBJECT
public:
    enum Column { Status, Repo, Issue, Title, Source, Updated, ColumnCount };

    explicit NotificationModel(QObject *parent = nullptr) : RowTableModel(parent) {}

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    qint64 keyOf(const NotificationRow &row) const override { return row.id; }
};

} // namespace Switchyard::Console
