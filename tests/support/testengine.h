#pragma once

// What the backend and API tests add to an engine, the same way for the embedded engine (local
// backend) and for the test daemon (remote backend): queues whose batches take a set time, items
// pushed at start, and a held global lock.

#include "engine/engine.h"

#include <QMap>
#include <QString>

#include <optional>

namespace Switchyard::Test {

struct TestEngineSpec
{
    QMap<QString, int> queues;   // name → milliseconds each batch takes
    QMap<QString, int> push;     // name → items pushed at start
    QString lock;                // a lock held until released; empty: none

    // From SY_TEST_QUEUES="slow:200,fast:0", SY_TEST_PUSH="slow:50", SY_TEST_LOCK="demo-lock".
    static TestEngineSpec fromEnvironment();
};

// Adds the spec's parts to `engine`; `heldLock` receives the lock's guard (release it before the
// engine shuts down).
Status prepareTestEngine(Engine &engine, const TestEngineSpec &spec, std::optional<LockGuard> &heldLock);

// A saved forge payload (tests/data/events/`file`) accepted as a forge with a token would post it,
// of type `event` ("issues"); `delivery` empty: one is generated. Stops the test program when the
// sample is missing or refused (a broken fixture, not a test result).
EventAccepted ingestSample(Engine &engine, const char *file, const char *event, const QString &delivery = {});

} // namespace Switchyard::Test
