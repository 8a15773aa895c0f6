#pragma once

// Internal to the queue folder.

#include "basequeue.h"

#include <condition_variable>
#include <mutex>

namespace Switchyard {

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
                                             std::optional<SteadyClock::time_point> until, int atLeast = 1) override;
    Status ack(const CancelToken &, const std::vector<PoppedItem> &) override { return Status::ok(); }
    Status release(const CancelToken &, const std::vector<PoppedItem> &) override { return Status::ok(); }
    Result<bool> hasItem(const CancelToken &, const QByteArray &) override { return false; }
    Result<qint64> len(const CancelToken &) override { return qint64(0); }
    Result<qint64> removeAll(const CancelToken &) override { return qint64(0); }
    Result<std::vector<PeekedItem>> peek(const CancelToken &, qint64, int) override { return std::vector<PeekedItem>(); }
    void close() override;

private:
    const bool m_unique;
    std::mutex m_mutex;
    std::condition_variable_any m_closedChanged;
    bool m_closed = false; // guarded by m_mutex
};

} // namespace Switchyard
