#include "crashpoint.h"

#include <QByteArray>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace Switchyard {

namespace {

struct Armed
{
    QByteArray name;   // empty: no crash point is armed
    long passage = 1;  // which passage kills
    mutable std::atomic<long> passed{0};

    Armed()
    {
        const QByteArray spec = qgetenv("SWITCHYARD_CRASH_AT");
        const qsizetype colon = spec.indexOf(':');
        name = colon < 0 ? spec : spec.left(colon);
        if (colon >= 0)
            passage = std::max(1L, std::strtol(spec.constData() + colon + 1, nullptr, 10));
    }
};

const Armed &armed()
{
    static Armed instance;
    return instance;
}

}  // namespace

void crashPoint(const char *name)
{
    const Armed &a = armed();
    if (a.name.isEmpty() || a.name != name)
        return;
    if (a.passed.fetch_add(1) + 1 != a.passage)
        return;
    // One line on stderr (unbuffered) so the test can tell this crash from another death.
    const char prefix[] = "switchyard: crash point ";
    ssize_t ignored = ::write(STDERR_FILENO, prefix, sizeof prefix - 1);
    ignored = ::write(STDERR_FILENO, name, std::strlen(name));
    ignored = ::write(STDERR_FILENO, "\n", 1);
    (void)ignored;
    ::kill(::getpid(), SIGKILL);
    std::abort();  // not reached
}

}  // namespace Switchyard
