#include "lockops.h"

#include "engine/engine.h"

namespace Switchyard::Admin::Ops {

const Op<NoArgs, std::vector<LockRow>> lockList{
    {.action = "lock.list", .method = HttpMethod::Get, .path = "/locks", .flags = MayWait | Paged,
     .summary = "held global locks with owner, lease, fencing token and waiters", .cli = "locks list", .cliAliases = {"locks"},
     .columns = {{"key", "key"}, {"backend", "backend"}, {"owner", "owner"}, {"acquired", "acquired_at"}, {"ttl ms", "ttl_ms"},
                 {"fencing", "fencing_token"}, {"waiters", "waiters"}}},
    [](OpContext &c, const NoArgs &) -> Result<std::vector<LockRow>> { return c.engine.locker().list(c.cancel); }};

const Op<LockRef, Done> lockForceRelease{
    {.action = "lock.force-release", .method = HttpMethod::Post, .path = "/locks/{key}/force-release", .flags = Mutating | MayWait,
     .summary = "release a lock whose holder is gone (recorded as a system notice)", .cli = "locks force-release",
     .done = "released {key} (recorded as a system notice)"},
    [](OpContext &c, const LockRef &a) -> Result<Done> {
        Status released = c.engine.locker().forceRelease(c.cancel, a.key, c.engineDoer());
        if (released.code() == Status::Code::NotFound)
            return Status::notFound(QStringLiteral("%1 is not held; it was released meanwhile").arg(a.key));
        if (!released)
            return released;
        return Done{};
    }};

std::vector<const OpBase *> lockOps()
{
    return {&lockList, &lockForceRelease};
}

} // namespace Switchyard::Admin::Ops
