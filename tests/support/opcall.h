#pragma once

// One catalogue call through a backend, waited for on this thread (tests only). Records which
// entries were called, so a suite can check it exercised the whole catalogue.

#include "wait.h"

#include "admin/adminbackend.h"
#include "admin/ops/cacheops.h"
#include "admin/ops/cronops.h"
#include "admin/ops/eventops.h"
#include "admin/ops/instanceops.h"
#include "admin/ops/lockops.h"
#include "admin/ops/mailops.h"
#include "admin/ops/queueops.h"
#include "admin/ops/webhookops.h"

#include <QSet>

namespace Switchyard::Test {

inline QSet<QString> &calledActions()
{
    static QSet<QString> actions;
    return actions;
}

template<typename A, typename R>
Result<R> call(Admin::AdminBackend &backend, const Admin::Op<A, R> &op, std::type_identity_t<A> args = {})
{
    calledActions().insert(op.action());
    return await<Result<R>>([&](QObject *context, auto reply) { backend.call(op, args, context, reply); });
}

// The old shapes some tests compare: a dry run's count, a removal's count, a queue's settings.
inline Result<qint64> countOf(const Result<Admin::RemoveAllResult> &r)
{
    return r ? Result<qint64>(r->count) : r.status();
}
inline Result<qint64> removedOf(const Result<Admin::RemoveAllResult> &r)
{
    return r ? Result<qint64>(r->removed) : r.status();
}
inline Result<Admin::QueueSettingsInfo> settingsOf(const Result<Admin::QueueDetail> &r)
{
    if (!r)
        return r.status();
    if (!r->settings)
        return Status::notFound(QStringLiteral("no settings"));
    return *r->settings;
}

inline Result<std::vector<Admin::AuditEntry>> auditOf(const Result<Admin::Page<Admin::AuditEntry>> &r)
{
    return r ? Result<std::vector<Admin::AuditEntry>>(r->rows) : r.status();
}

} // namespace Switchyard::Test
