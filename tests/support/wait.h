#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QThread>

#include <chrono>
#include <functional>
#include <optional>
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

namespace Switchyard::Test {

// Calls `start(context, reply)` — an AdminBackend call — and waits for its one reply, which must
// arrive on this thread.
template<typename R, typename Call>
R await(Call start, std::chrono::milliseconds bound = std::chrono::seconds(60))
{
    QObject context;
    std::optional<R> result;
    QThread *thread = nullptr;
    start(&context, [&](R value) {
        thread = QThread::currentThread();
        result.emplace(std::move(value));
    });
    if (!eventually([&] { return result.has_value(); }, bound))
        qFatal("no reply");
    if (thread != QThread::currentThread())
        qFatal("reply on another thread");
    return std::move(*result);
}

} // namespace Switchyard::Test
