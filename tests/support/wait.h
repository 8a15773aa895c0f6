#pragma once

#include <QCoreApplication>

#include <chrono>
#include <functional>
#include <thread>

namespace Switchyard::Test {

// Waits until `condition` holds, re-checking every millisecond; `bound` only matters when the code
// under test is broken. For conditions that no signal announces (another process's state, a
// Redis key); prefer a condition variable where the code offers one.
inline bool eventually(const std::function<bool()> &condition,
                       std::chrono::milliseconds bound = std::chrono::seconds(20))
{
    const auto deadline = std::chrono::steady_clock::now() + bound;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        QCoreApplication::processEvents();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

} // namespace Switchyard::Test
