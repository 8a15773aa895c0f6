#include "testengine.h"

#include <QFile>

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

EventAccepted ingestSample(Engine &engine, const char *file, const char *event, const QString &delivery)
{
    QFile sample(QStringLiteral(SWITCHYARD_TESTS_SOURCE_DIR "/data/events/") + QLatin1String(file));
    if (!sample.open(QIODevice::ReadOnly))
        qFatal("missing sample %s", file);
    IncomingEvent in;
    in.event = QLatin1String(event);
    in.payload = sample.readAll();
    in.deliveryId = delivery;
    in.byToken = true;
    const Result<EventAccepted> accepted = engine.events().accept(CancelToken(), in);
    if (!accepted)
        qFatal("event %s: %s", file, qPrintable(accepted.status().toString()));
    return *accepted;
}

} // namespace Switchyard::Test
