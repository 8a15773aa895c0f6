#pragma once

// The global locks' operations (docs/api.md "Locks") and the JSON description of their values.

#include "admin/catalogue.h"

namespace Switchyard {

template<typename V>
void describe(V &v, LockInfo &l)
{
    v("key", l.key);
    v("backend", l.backend);
    v("owner", l.owner);
    v("token_prefix", l.tokenPrefix);
    v("acquired_at", l.acquiredAt);
    v("ttl_ms", l.ttlMs);
    v("extensions", l.extensions);
    v("fencing_token", l.fencingToken);
    v("waiters", l.waiters);
}

} // namespace Switchyard

namespace Switchyard::Admin {

struct LockRef
{
    QString key;
};
template<typename V>
void describe(V &v, LockRef &a)
{
    v(ArgSpec{ArgSpec::Path, "key", "the lock's key (locks list)"}, a.key);
}

namespace Ops {

extern const Op<NoArgs, std::vector<LockRow>> lockList;
extern const Op<LockRef, Done> lockForceRelease;

std::vector<const OpBase *> lockOps();

} // namespace Ops

} // namespace Switchyard::Admin
