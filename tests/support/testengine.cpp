#include "testengine.h"

#include <chrono>
#include <thread>

namespace Switchyard::Test {

namespace {

QMap<QString, int> pairs(const char *variable)
{
    QMap<QString, int> map;
    for (const QString &spec : QString::fromLocal8Bit(qgetenv(variable)).split(u',', Qt::SkipEmptyParts))
        map.insert(spec.section(u':', 0, 0), spec.section(u':', 1, 1).toInt());
    return map;
}

} // namespace

TestEngineSpec TestEngineSpec::fromEnvironment()
{
    return {pairs("SY_TEST_QUEUES"), pairs("SY_TEST_PUSH"), QString::fromLocal8Bit(qgetenv("SY_TEST_LOCK"))};
}

Status prepareTestEngine(Engine &engine, const TestEngineSpec &spec, std::optional<LockGuard> &heldLock)
{
    for (auto it = spec.queues.begin(); it != spec.queues.end(); ++it) {
        const int batchMs = it.value();
        RawBatchHandler handler = [batchMs](std::vector<QByteArray> &) {
            // Simulated work: what makes a flush take time.
            std::this_thread::sleep_for(std::chrono::milliseconds(batchMs));
            return RawBatchResult{};
        };
        if (Result<std::shared_ptr<WorkerPool>> pool = engine.queues().createPool(CancelToken(), it.key(), false, handler); !pool)
            return pool.status();
    }
    for (auto it = spec.push.begin(); it != spec.push.end(); ++it) {
        std::shared_ptr<WorkerPool> pool = engine.queues().findByName(it.key());
        if (!pool)
            return Status::invalidArgument(QStringLiteral("items for an unknown queue: %1").arg(it.key()));
        std::vector<QByteArray> items;
        for (int i = 0; i < it.value(); ++i)
            items.push_back(QByteArray::number(i));
        if (Status pushed = pool->pushMany(CancelToken(), items); !pushed)
            return pushed;
    }
    if (!spec.lock.isEmpty()) {
        Result<LockGuard> guard = engine.locker().lock(CancelToken(), spec.lock);
        if (!guard)
            return guard.status();
        heldLock.emplace(std::move(guard).value());
    }
    return Status::ok();
}

} // namespace Switchyard::Test
