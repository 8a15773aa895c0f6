#pragma once

#include "basequeue.h"

#include <QSet>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace Switchyard {

// Shared statuses, so every backend says the same thing.
Status queueClosedStatus(const QString &name);
Status queueFullStatus(const QString &name, qint64 capacity, std::chrono::milliseconds waited);

// The blocking discipline of the in-process backends (channel, level): pushers wait for room up to
// pushBlockTime, poppers wait for items; both wake on close() and on their token. Every method
// requires the caller to hold the queue's mutex (passed as `lock` to the waits).
class QueueWaits
{
public:
    // ok when `hasRoom()` holds (at once or after waiting); else closed, the token's cause, or full.
    Status waitForRoom(std::unique_lock<std::mutex> &lock, const CancelToken &cancel, const QString &name,
                       qint64 capacity, std::chrono::milliseconds pushBlockTime, const std::function<bool()> &hasRoom);
    // Returns when `hasItems()` holds, the queue is closed, `until` passed or the token fired.
    void waitForItems(std::unique_lock<std::mutex> &lock, const CancelToken &cancel,
                      std::optional<SteadyClock::time_point> until, const std::function<bool()> &hasItems);
    void itemAdded();      // wakes one waiting popper
    void itemsReturned();  // wakes every waiting popper (released items, several at once)
    void roomMade();       // wakes waiting pushers
    void close();
    bool closed() const { return m_closed; }

private:
    std::condition_variable_any m_notEmpty;
    std::condition_variable_any m_notFull;
    int m_waitingPoppers = 0;
    int m_waitingPushers = 0;
    bool m_closed = false;
};

// In-memory bounded queue (capacity = LENGTH), plus a set for unique queues (seed 000 §10.2.2).
// Nothing survives the process; in-flight items need no bookkeeping. Thread-safe.
class ChannelQueue final : public BaseQueue
{
public:
    ChannelQueue(QString name, int capacity, bool unique, QueueTiming timing);

    QString type() const override { return QStringLiteral("channel"); }
    bool isUnique() const override { return m_unique; }
    Status pushItem(const CancelToken &cancel, const QByteArray &data) override;
    Result<std::vector<PoppedItem>> popItems(const CancelToken &cancel, int max,
                                             std::optional<SteadyClock::time_point> until) override;
    Status ack(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Status release(const CancelToken &cancel, const std::vector<PoppedItem> &items) override;
    Result<bool> hasItem(const CancelToken &cancel, const QByteArray &data) override;
    Result<qint64> len(const CancelToken &cancel) override;
    Result<qint64> removeAll(const CancelToken &cancel) override;
    void close() override;

private:
    const QString m_name;
    const qsizetype m_capacity;
    const bool m_unique;
    const QueueTiming m_timing;

    std::mutex m_mutex;
    QueueWaits m_waits;             // guarded by m_mutex
    std::deque<QByteArray> m_items; // guarded by m_mutex
    QSet<QByteArray> m_set;         // guarded by m_mutex; unique queues only
};

// Dummy / immediate: stores nothing (seed 000 §10.2.5). WorkerPoolQueue runs the handler
// synchronously on push instead. Pops block until closed, cancelled or `until`.
class DummyQueue final : public BaseQueue
{
public:
    explicit DummyQueue(bool unique) : m_unique(unique) {}

    QString type() const override { return QStringLiteral("dummy"); }
    bool isUnique() const override { return m_unique; }
    Status pushItem(const CancelToken &cancel, const QByteArray &data) override;
    Result<std::vector<PoppedItem>> popItems(const CancelToken &cancel, int max,
                                             std::optional<SteadyClock::time_point> until) override;
    Status ack(const CancelToken &, const std::vector<PoppedItem> &) override { return Status::ok(); }
    Status release(const CancelToken &, const std::vector<PoppedItem> &) override { return Status::ok(); }
    Result<bool> hasItem(const CancelToken &, const QByteArray &) override { return false; }
    Result<qint64> len(const CancelToken &) override { return qint64(0); }
    Result<qint64> removeAll(const CancelToken &) override { return qint64(0); }
    void close() override;

private:
    const bool m_unique;
    std::mutex m_mutex;
    std::condition_variable_any m_closedChanged;
    bool m_closed = false; // guarded by m_mutex
};

} // namespace Switchyard
