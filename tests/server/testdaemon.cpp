// switchyardd with a few queues and a held lock of its own, for the black-box API and remote
// backend tests: the same runDaemon() (start-up, admin API, signals, shutdown) as the real daemon.
// The real daemon has no producers yet; these stand in for the subsystems that will create queues.
// What to add comes from the environment (support/testengine.h):
//
//   SY_TEST_QUEUES="slow:300,fast:0"  queue name : milliseconds each batch takes
//   SY_TEST_PUSH="slow:20"            items pushed to a queue at start
//   SY_TEST_LOCK="demo-lock"          a global lock held until shutdown
#include "daemon/daemon.h"

#include "support/testengine.h"

using namespace Switchyard;

namespace {
std::optional<LockGuard> g_heldLock; // released by a shutdown hook, before the engine's locker goes
}

int main(int argc, char *argv[])
{
    DaemonHooks hooks;
    hooks.engineStarted = [](Engine &engine) -> Status {
        Status prepared = Test::prepareTestEngine(engine, Test::TestEngineSpec::fromEnvironment(), g_heldLock);
        engine.lifecycle().runAtShutdown(QStringLiteral("test lock"), [] { g_heldLock.reset(); });
        return prepared;
    };
    return runDaemon(argc, argv, hooks);
}
