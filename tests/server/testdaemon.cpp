// switchyardd with a few queues and a held lock of its own, for the black-box API tests: the same
// runDaemon() (start-up, admin API, signals, shutdown) as the real daemon. The real daemon has no
// producers yet; these stand in for the subsystems that will create queues.
//
//   SY_TEST_QUEUES="slow:300,fast:0"  queue name : milliseconds each batch takes
//   SY_TEST_PUSH="slow:20"            items pushed to a queue at start
//   SY_TEST_LOCK="demo-lock"          a global lock held until shutdown
#include "daemon/daemon.h"

#include "engine/engine.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <optional>
#include <thread>

using namespace Switchyard;

namespace {

QStringList envList(const char *name)
{
    return QString::fromLocal8Bit(qgetenv(name)).split(u',', Qt::SkipEmptyParts);
}

std::optional<LockGuard> g_heldLock; // released before the engine shuts down (engine hook below)

} // namespace

int main(int argc, char *argv[])
{
    DaemonHooks hooks;
    hooks.engineStarted = [](Engine &engine) -> Status {
        for (const QString &spec : envList("SY_TEST_QUEUES")) {
            const QString name = spec.section(u':', 0, 0);
            const int batchMs = spec.section(u':', 1, 1).toInt();
            RawBatchHandler handler = [batchMs](std::vector<QByteArray> &) {
                // Simulated work: what makes a flush take time.
                std::this_thread::sleep_for(std::chrono::milliseconds(batchMs));
                return RawBatchResult{};
            };
            Result<std::shared_ptr<WorkerPool>> pool = engine.queues().createPool(CancelToken(), name, false, handler);
            if (!pool)
                return pool.status();
        }
        for (const QString &spec : envList("SY_TEST_PUSH")) {
            std::shared_ptr<WorkerPool> pool = engine.queues().findByName(spec.section(u':', 0, 0));
            if (!pool)
                return Status::invalidArgument(QStringLiteral("SY_TEST_PUSH names an unknown queue: %1").arg(spec));
            for (int i = 0; i < spec.section(u':', 1, 1).toInt(); ++i) {
                if (Status pushed = pool->push(CancelToken(), QByteArray::number(i)); !pushed)
                    return pushed;
            }
        }
        if (const QString key = QString::fromLocal8Bit(qgetenv("SY_TEST_LOCK")); !key.isEmpty()) {
            Result<LockGuard> guard = engine.locker().lock(CancelToken(), key);
            if (!guard)
                return guard.status();
            g_heldLock.emplace(std::move(guard).value());
            engine.lifecycle().runAtShutdown(QStringLiteral("test lock"), [] { g_heldLock.reset(); });
        }
        return Status::ok();
    };
    return runDaemon(argc, argv, hooks);
}
