// The store's schema as numbered migrations. A released migration is never edited: a change is a
// new migration. Each runs in one transaction (DDL is transactional in SQLite and PostgreSQL), so a
// failed one leaves the previous version intact. Column conventions (docs/storage.md): ids are
// 64-bit and generated; times are *_ms (milliseconds since the epoch, UTC) for the engine's own
// rows and *_unix (seconds) for the forge's domain rows, as in Gitea; work rows keep trace_id.
#include "store_p.h"

namespace Switchyard {

namespace {

QString id(StoreBackend backend)
{
    return backend == StoreBackend::Postgres ? QStringLiteral("id BIGSERIAL PRIMARY KEY")
                                             : QStringLiteral("id INTEGER PRIMARY KEY AUTOINCREMENT");
}

// 1: the engine's own state — system notices, cron run history, pauses and tick claims.
QStringList engineState(StoreBackend b)
{
    return {
        QStringLiteral("CREATE TABLE notice (%1, type TEXT NOT NULL, description TEXT NOT NULL, "
                       "created_ms BIGINT NOT NULL, trace_id TEXT NOT NULL DEFAULT '')").arg(id(b)),
        QStringLiteral("CREATE INDEX notice_created ON notice (created_ms)"),

        QStringLiteral("CREATE TABLE cron_run (%1, task TEXT NOT NULL, instance_id TEXT NOT NULL, "
                       "trigger_kind TEXT NOT NULL, doer TEXT NOT NULL, started_ms BIGINT NOT NULL, "
                       "duration_ms BIGINT NOT NULL, status TEXT NOT NULL, message TEXT NOT NULL, "
                       "trace_id TEXT NOT NULL DEFAULT '')").arg(id(b)),
        QStringLiteral("CREATE INDEX cron_run_task ON cron_run (task, id)"),

        QStringLiteral("CREATE TABLE cron_pause (task TEXT PRIMARY KEY, paused_ms BIGINT NOT NULL)"),
        // One row per scheduled tick that an instance ran: instances sharing a PostgreSQL
        // database without Redis agree through its primary key.
        QStringLiteral("CREATE TABLE cron_tick (task TEXT NOT NULL, tick_ms BIGINT NOT NULL, instance_id TEXT NOT NULL, "
                       "expires_ms BIGINT NOT NULL, PRIMARY KEY (task, tick_ms))"),
        QStringLiteral("CREATE INDEX cron_tick_expires ON cron_tick (expires_ms)"),
    };
}

} // namespace

const std::vector<Migration> &storeMigrations()
{
    static const std::vector<Migration> migrations{
        {1, "engine state: notices, cron runs, pauses and ticks", &engineState},
    };
    return migrations;
}

} // namespace Switchyard
