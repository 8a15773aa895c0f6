#pragma once

#include "rowtablemodel.h"

#include "admin/admintypes.h"

#include <QElapsedTimer>

namespace Switchyard::Console {

// The Locks table, keyed by key. The TTL counts down between samples from the time each row was
// read (tick()); the holder is marked when it is this instance. GUI thread only.
class LockModel final : public RowTableModel<Admin::LockRow, QString>
{
    Q_OBJECT
public:
    enum Column { Key, Backend, Holder, Token, Fencing, Acquired, Ttl, Extensions, Waiters, ColumnCount };
    static constexpr qint64 kNearExpiryMs = 5000;

    explicit LockModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void setLocalInstance(const QString &instanceId) { m_localInstance = instanceId; }
    void applyLocks(std::vector<Admin::LockRow> rows);
    // Remaining lease now (the sampled TTL minus the time since the sample); -1: no lease.
    qint64 remainingMs(const Admin::LockRow &row) const;
    // The lease a row started from, for the bar's scale.
    qint64 leaseMs() const { return m_leaseMs; }
    void tick();

protected:
    QString keyOf(const Admin::LockRow &row) const override { return row.key; }

private:
    QString m_localInstance;
    QElapsedTimer m_sampled;
    qint64 m_leaseMs = 30000;
};

} // namespace Switchyard::Console
