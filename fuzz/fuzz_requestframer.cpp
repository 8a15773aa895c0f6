// libFuzzer target: the admin API edge's request framing (src/server/requestframer.*). The input
// is split at points chosen from its first bytes and fed piece by piece, as a socket delivers it;
// the framer must never read past a refusal, never count a body beyond its limit by more than one
// piece, and never let a request leave HTTP unless the policy allowed it.
#include "server/requestframer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace Switchyard::Server;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const size_t step = 1 + data[0] % 64; // how the bytes arrive
    const bool upgradeAllowed = data[1] & 1;
    data += 2;
    size -= 2;

    bool upgradeAsked = false;
    FramerPolicy policy;
    policy.bodyLimit = [](const RequestHead &head) { return head.path.startsWith("/api/v1/events") ? qint64(4096) : qint64(256); };
    policy.admit = [](const RequestHead &head) -> std::optional<Refusal> {
        if (head.authorization.isEmpty() && !head.signature)
            return Refusal{401, QStringLiteral("unauthorized"), QString(), {}};
        return std::nullopt;
    };
    policy.mayUpgrade = [&](const RequestHead &head) {
        upgradeAsked = true;
        return upgradeAllowed && head.method == "GET" && head.path == "/api/v1/stream";
    };
    RequestFramer framer(std::move(policy));
    for (size_t at = 0; at < size; at += step) {
        const RequestFramer::Phase before = framer.phase();
        const RequestFramer::Phase after = framer.feed(reinterpret_cast<const char *>(data + at), std::min(step, size - at));
        if ((before == RequestFramer::Phase::Refused || before == RequestFramer::Phase::Upgraded) && after != before)
            abort(); // nothing is framed after a refusal or an upgrade
        if (after == RequestFramer::Phase::Refused && !framer.refusal())
            abort();
        if (after == RequestFramer::Phase::Upgraded && !(upgradeAllowed && upgradeAsked))
            abort();
        if (framer.bodyBytes() > framer.bodyLimit() + qint64(step) && after != RequestFramer::Phase::Refused)
            abort();
        if (framer.head().authorization.size() > RequestFramer::kMaxKeptValueBytes)
            abort();
    }
    return 0;
}
