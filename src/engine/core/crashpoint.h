#pragma once

// Crash points: named places between two writes of the event → delivery chain, where the crash
// tests make the process die as kill -9 would (docs/testing.md "Crashes between writes").
// SWITCHYARD_CRASH_AT=<name>[:<n>] in the environment (read once, at the first crash point)
// makes the n-th passage (default: the first) through `name` send SIGKILL to the process
// itself: no destructor, no flush, no log line after it. Without the variable a crash point
// costs one load of a flag. The names are listed in docs/testing.md.

namespace Switchyard {

void crashPoint(const char *name);

}  // namespace Switchyard
