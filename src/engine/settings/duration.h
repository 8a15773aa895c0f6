#pragma once

#include "engine/core/status.h"

#include <QString>

#include <chrono>

namespace Switchyard {

// Go's time.ParseDuration syntax, as Gitea's app.ini uses it: a signed sequence of decimal numbers
// with optional fractions and a unit each — "250ms", "16h", "1h30m", "1.5s", "-2s". Units: ns, us
// (or µs, μs), ms, s, m, h. "0" needs no unit. Errors name the reason; overflow is an error.
Result<std::chrono::nanoseconds> parseDuration(const QString &text);

// The shortest Go-style rendering: "250ms", "16h0m0s" is written "16h", "1h30m", "0s".
QString formatDuration(std::chrono::nanoseconds duration);

} // namespace Switchyard
