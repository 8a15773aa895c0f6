// The search of the delivery history and what walks it: the filter's WHERE clause, a page with
// its total, a count, and a keyset walk of every match (forEach, an export). The bulk
// redelivery, which walks a filter's matches as a job, is bulkjobs.cpp's.
//
// Threads: every function runs on its caller's thread (the admin API, an export), any number at
// once; each page is its own short read transaction, so a long walk never holds the store.

#include "webhook_p.h"

#include "engine/core/cancellation.h"
#include "engine/store/store.h"

namespace Switchyard::Webhook {

namespace {

// `text` as a LIKE pattern that matches it anywhere: %, _ and the escape itself taken literally.
QString containsPattern(const QString &text)
{
    QString escaped = text;
    escaped.replace(u'\\', QStringLiteral("\\\\"))
        .replace(u'%', QStringLiteral("\\%"))
        .replace(u'_', QStringLiteral("\\_"));
    return u'%' + escaped + u'%';
}

}  // namespace

TaskWhere whereOf(const TaskFilter &filter, StoreBackend backend)
{
    TaskWhere w{QStringLiteral(" WHERE 1 = 1"), {}};
    if (filter.hookId > 0) {
        w.sql += QStringLiteral(" AND hook_id = ?");
        w.values << filter.hookId;
    }
    if (filter.outcome) {
        w.sql += QStringLiteral(" AND outcome = ?");
        w.values << (*filter.outcome == TaskOutcome::Pending ? QString() : name(*filter.outcome));
    }
    if (filter.event) {
        w.sql += QStringLiteral(" AND event_type = ?");
        w.values << name(*filter.event);
    }
    if (filter.since.isValid()) {
        w.sql += QStringLiteral(" AND created_ms >= ?");
        w.values << filter.since.toMSecsSinceEpoch();
    }
    if (filter.until.isValid()) {
        w.sql += QStringLiteral(" AND created_ms < ?");
        w.values << filter.until.toMSecsSinceEpoch();
    }
    if (filter.beforeId > 0) {
        w.sql += QStringLiteral(" AND id < ?");
        w.values << filter.beforeId;
    }
    if (!filter.text.isEmpty()) {
        // SQLite's LIKE ignores ASCII case but never matches a BLOB (cast it); PostgreSQL needs
        // the bytes decoded and ILIKE for the case.
        w.sql += backend == StoreBackend::Postgres
                     ? QStringLiteral(
                           " AND (convert_from(payload, 'UTF8') ILIKE ? ESCAPE '\\' OR response ILIKE ? ESCAPE '\\')")
                     : QStringLiteral(" AND (CAST(payload AS TEXT) LIKE ? ESCAPE '\\' OR response LIKE ? ESCAPE '\\')");
        const QString pattern = containsPattern(filter.text);
        w.values << pattern << pattern;
    }
    return w;
}

Result<TaskPage> WebhookService::tasks(const TaskFilter &filter)
{
    const TaskWhere where = whereOf(filter, d->store.backend());
    const qint64 limit = std::clamp<qint64>(filter.limit, 1, 500);
    const qint64 offset = (std::max<qint64>(filter.page, 1) - 1) * limit;
    return d->store.readValue<TaskPage>([&](SqlTransaction &tx) -> Result<TaskPage> {
        TaskPage page;
        Result<qint64> total = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM hook_task") + where.sql, where.values);
        if (!total)
            return total.status();
        page.total = *total;
        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT ") + kTaskColumns + QStringLiteral(" FROM hook_task") +
                                          where.sql + QStringLiteral(" ORDER BY id DESC LIMIT ? OFFSET ?"),
                                      where.values + QVariantList{limit, offset});
        if (!q)
            return q.status();
        while (q->next())
            page.rows.push_back(taskFrom(*q));
        return page;
    });
}

Result<qint64> WebhookService::count(const TaskFilter &filter)
{
    const TaskWhere where = whereOf(filter, d->store.backend());
    return d->store.readValue<qint64>([&](SqlTransaction &tx) {
        return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM hook_task") + where.sql, where.values);
    });
}

namespace {

// The walk every "all matches" reader shares: newest first, `pageSize` rows per short read
// transaction, keyed on id (never OFFSET), bounded by the newest id when it starts so rows queued
// meanwhile do not stretch it. `read` makes a T of the selected `columns`; `idOf` gives its id.
template<typename T>
Status keysetWalk(Store &store, const CancelToken &cancel, const TaskFilter &filter, qint64 pageSize,
                  const QString &columns, T (*read)(const QSqlQuery &), qint64 (*idOf)(const T &),
                  const std::function<Status(const std::vector<T> &)> &sink)
{
    Result<qint64> newest = store.readValue<qint64>(
        [](SqlTransaction &tx) { return tx.scalar(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM hook_task")); });
    if (!newest)
        return newest.status();
    TaskFilter next = filter;
    next.beforeId = filter.beforeId > 0 ? std::min(filter.beforeId, *newest + 1) : *newest + 1;
    const qint64 limit = std::clamp<qint64>(pageSize, 1, 10000);
    for (;;) {
        if (cancel.isCancelled())
            return cancel.cause();
        const TaskWhere where = whereOf(next, store.backend());
        Result<std::vector<T>> rows =
            store.readValue<std::vector<T>>([&](SqlTransaction &tx) -> Result<std::vector<T>> {
                Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT ") + columns + QStringLiteral(" FROM hook_task") +
                                                  where.sql + QStringLiteral(" ORDER BY id DESC LIMIT ?"),
                                              where.values + QVariantList{limit});
                if (!q)
                    return q.status();
                std::vector<T> page;
                while (q->next())
                    page.push_back(read(*q));
                return page;
            });
        if (!rows)
            return rows.status();
        if (rows->empty())
            return Status::ok();
        if (Status sunk = sink(*rows); !sunk)
            return sunk;
        if (qint64(rows->size()) < limit)
            return Status::ok();
        next.beforeId = idOf(rows->back());
    }
}

qint64 taskId(const HookTask &t)
{
    return t.id;
}

}  // namespace

Status WebhookService::forEach(const CancelToken &cancel, const TaskFilter &filter,
                               const std::function<Status(const std::vector<HookTask> &)> &sink, qint64 pageSize)
{
    return keysetWalk<HookTask>(d->store, cancel, filter, pageSize, kTaskColumns, &taskFrom, &taskId, sink);
}

}  // namespace Switchyard::Webhook
