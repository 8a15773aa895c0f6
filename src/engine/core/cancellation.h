#pragma once

#include "status.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>

namespace Switchyard {

using SteadyClock = std::chrono::steady_clock;

namespace Detail {
struct CancelState;
}

// Keeps an onCancel() callback registered; destroying it unregisters the callback, waiting for it
// to finish if it is running on another thread. Move-only.
class CancelCallback
{
public:
    CancelCallback() = default;
    CancelCallback(CancelCallback &&) noexcept = default;
    CancelCallback &operator=(CancelCallback &&) noexcept = default;
    ~CancelCallback();

private:
    friend class CancelToken;
    std::unique_ptr<std::stop_callback<std::function<void()>>> m_callback;
};

// The observing side of a cancellation (Go's context.Context, minus values). Cheap to copy and
// thread-safe. Blocking calls take a CancelToken as their first argument; long-lived objects never
// store one except the component that owns the matching CancelSource.
//
// A token is cancelled when its CancelSource cancels it, when any ancestor is cancelled (the
// ancestor's cause is inherited), or when its deadline passes (cause DeadlineExceeded). Deadline
// expiry is delivered by a process-wide watcher thread, so onCancel() callbacks also run for it.
class CancelToken
{
public:
    // A token that is never cancelled (Go's context.Background()).
    CancelToken() = default;
    static CancelToken background() { return {}; }

    bool isCancelled() const;
    // Why the token was cancelled: Cancelled or DeadlineExceeded with a message; ok while live.
    Status cause() const;
    // The earliest deadline of this token and its ancestors.
    std::optional<SteadyClock::time_point> deadline() const;
    // Time left until the deadline (zero when passed), or nullopt without a deadline.
    std::optional<SteadyClock::duration> remaining() const;

    // For std::condition_variable_any and std::jthread interoperation.
    std::stop_token stopToken() const;

    // Runs `fn` once when the token is cancelled, on the cancelling thread; at once, on this
    // thread, if it is already cancelled. `fn` must be short and must not block.
    [[nodiscard]] CancelCallback onCancel(std::function<void()> fn) const;

    // Waits on `cv` (with `lock` held) until pred() holds or the token is cancelled. Returns pred().
    template<typename Lock, typename Pred>
    bool wait(std::condition_variable_any &cv, Lock &lock, Pred pred) const
    {
        const auto limit = deadline();
        if (limit)
            return cv.wait_until(lock, stopToken(), *limit, std::move(pred));
        return cv.wait(lock, stopToken(), std::move(pred));
    }

    // As wait(), but also gives up at `until`. Returns pred().
    template<typename Lock, typename Pred>
    bool waitUntil(std::condition_variable_any &cv, Lock &lock, SteadyClock::time_point until,
                   Pred pred) const
    {
        const auto limit = deadline();
        if (limit && *limit < until)
            until = *limit;
        return cv.wait_until(lock, stopToken(), until, std::move(pred));
    }

    // Sleeps for `duration` unless cancelled first. Returns true when the full time elapsed.
    bool sleepFor(SteadyClock::duration duration) const;

private:
    friend class CancelSource;
    explicit CancelToken(std::shared_ptr<Detail::CancelState> state) : m_state(std::move(state)) {}

    std::shared_ptr<Detail::CancelState> m_state;
};

// The owning side of a cancellation: creates a token and can cancel it. Move-only. Destroying a
// source cancels its token ("scope ended", Go's `defer cancel()`), so work started under it cannot
// outlive its owner unnoticed.
class CancelSource
{
public:
    // A root source.
    CancelSource();
    // A child of `parent`: cancelled when `parent` is.
    explicit CancelSource(const CancelToken &parent);
    // A child of `parent` that is also cancelled at `deadline`.
    CancelSource(const CancelToken &parent, SteadyClock::time_point deadline);
    static CancelSource withTimeout(const CancelToken &parent, SteadyClock::duration timeout);

    CancelSource(CancelSource &&) noexcept = default;
    CancelSource &operator=(CancelSource &&other) noexcept;
    ~CancelSource();

    CancelToken token() const { return CancelToken(m_state); }

    // Cancels the token and every descendant. The first cause wins; later calls do nothing.
    void cancel(const QString &reason = QStringLiteral("cancelled"));
    void cancel(Status cause);
    bool isCancelled() const { return token().isCancelled(); }

private:
    std::shared_ptr<Detail::CancelState> m_state;
};

} // namespace Switchyard
