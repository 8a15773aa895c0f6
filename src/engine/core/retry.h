#pragma once

// Waiting out a failure that passes. The store answers Unavailable when it is busy, full or
// unreachable; work that was accepted must not be dropped for that, so its owner tries again —
// in place, keeping what it holds — until the failure passes or the instance stops.

#include "cancellation.h"
#include "status.h"

#include <algorithm>
#include <chrono>
#include <type_traits>

namespace Switchyard {

struct RetryDelays
{
    std::chrono::milliseconds first{100};  // doubled after each failure, up to `most`
    std::chrono::milliseconds most{5000};
};

namespace RetryDetail {
inline const Status &statusOf(const Status &s)
{
    return s;
}
template<typename T>
Status statusOf(const Result<T> &r)
{
    return r.status();
}
}  // namespace RetryDetail

// Calls `attempt` (returning Status or Result<T>) until it returns anything but Unavailable, or
// `cancel` fires; then the last answer. `onWait(status)` (may be empty) hears each failure before
// the wait, so the caller can log the first of an outage.
template<typename Attempt, typename OnWait>
auto untilAvailable(const CancelToken &cancel, const RetryDelays &delays, Attempt &&attempt, OnWait &&onWait)
    -> decltype(attempt())
{
    std::chrono::milliseconds delay = std::max(delays.first, std::chrono::milliseconds(1));
    for (;;) {
        auto answer = attempt();
        const Status status = RetryDetail::statusOf(answer);
        if (status.code() != Status::Code::Unavailable || cancel.isCancelled())
            return answer;
        if constexpr (!std::is_same_v<std::decay_t<OnWait>, std::nullptr_t>)
            onWait(status);
        if (!cancel.sleepFor(delay))
            return answer;
        delay = std::min(delay * 2, std::max(delays.most, delays.first));
    }
}

template<typename Attempt>
auto untilAvailable(const CancelToken &cancel, const RetryDelays &delays, Attempt &&attempt) -> decltype(attempt())
{
    return untilAvailable(cancel, delays, std::forward<Attempt>(attempt), nullptr);
}

}  // namespace Switchyard
