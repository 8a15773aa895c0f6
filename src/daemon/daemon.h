#pragma once

// switchyardd's program as a function, so that a test daemon can run the very same start-up,
// admin API and shutdown with a few queues of its own (tests/server/testdaemon.cpp).

#include "engine/core/status.h"

#include <functional>

namespace Switchyard {

class Engine;

struct DaemonHooks
{
    // After the engine started, before the admin API listens (runs on the main thread).
    std::function<Status(Engine &engine)> engineStarted;
};

// Parses the command line, runs until SIGINT/SIGTERM; returns the exit code (0 ok, 1 runtime
// error, 2 configuration error).
int runDaemon(int argc, char *argv[], const DaemonHooks &hooks = {});

} // namespace Switchyard
