#pragma once

#include "basequeue.h"
#include "queuewaits.h"

#include <QSet>

#include <deque>
#include <mutex>

namespace Switchyard {

// In-memory bounded queue (capacity = LENGTH), plus a set for unique queues (seed 000 §10.2.2).
// Nothing survives the process; in-flight items need no bookkeeping. Thread-safe.
class ChannelQueue final : public BaseQueue
{
public:
    ChannelQueue(QString name, int capacity, bool unique, QueueTiming timing);

    QString type() const override { return QStringLiteral("channel"); }
    bool isUnique() const override { return m_unique; }
    Status pushItem(const CancelToken &cancel, const QByteArray &data) override;
    Status pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items) override;
    Result<std::vector<PoppedItem>> popItems(const CancelToken &cancel, int max,
                                             std::optional<SteadyClock::time_point> until, int atLeast = 1) override;
    Status ack(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Status release(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Result<bool> hasItem(const CancelToken &cancel, const QByteArray &data) override;
    Result<qint64> len(const CancelToken &cancel) override;
    Result<qint64> removeAll(const CancelToken &cancel) override;
    Result<std::vector<PeekedItem>> peek(const CancelToken &cancel, qint64 offset, int limit) override;
    void close() override;

private:
    const QString m_name;
    const qsizetype m_capacity;
    const bool m_unique;
    const QueueTiming m_timing;

    QueueMutex m_mutex;
    QueueWaits m_waits;             // guarded by m_mutex
    std::deque<QByteArray> m_items; // guarded by m_mutex
    QSet<QByteArray> m_set;         // guarded by m_mutex; unique queues only
};

} // namespace Switchyard
