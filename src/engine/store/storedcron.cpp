// Cron's state in the store: pauses, tick claims and run history.
#include "journals.h"

#include "store.h"

#include <QFile>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Switchyard {

namespace {

class StoredCronCoordinator final : public CronCoordinator
{
public:
    StoredCronCoordinator(Store &store, QString instance) : m_store(store), m_instance(std::move(instance)) {}
    QString kind() const override { return QStringLiteral("store"); }

    Result<bool> claimTick(const QString &task, const QDateTime &tick, std::chrono::seconds ttl) override
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        return m_store.writeValue<bool>([&](SqlTransaction &tx) -> Result<bool> {
            if (Status swept = tx.exec(QStringLiteral("DELETE FROM cron_tick WHERE expires_ms < ?"), {now}).status(); !swept)
                return swept;
            Result<QSqlQuery> inserted = tx.exec(
                QStringLiteral("INSERT INTO cron_tick (task, tick_ms, instance_id, expires_ms) VALUES (?, ?, ?, ?) "
                               "ON CONFLICT (task, tick_ms) DO NOTHING"),
                {task, tick.toMSecsSinceEpoch(), m_instance, now + qint64(ttl.count()) * 1000});
            if (!inserted)
                return inserted.status();
            return inserted->numRowsAffected() == 1;
        });
    }

    Result<bool> isPaused(const QString &task) override
    {
        Result<qint64> rows = m_store.readValue<qint64>(
            [&](SqlTransaction &tx) { return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM cron_pause WHERE task = ?"), {task}); });
        if (!rows)
            return rows.status();
        return *rows > 0;
    }

    Status setPaused(const QString &task, bool paused) override
    {
        return m_store.write([&](SqlTransaction &tx) {
            if (!paused)
                return tx.exec(QStringLiteral("DELETE FROM cron_pause WHERE task = ?"), {task}).status();
            return tx.exec(QStringLiteral("INSERT INTO cron_pause (task, paused_ms) VALUES (?, ?) ON CONFLICT (task) DO NOTHING"),
                           {task, QDateTime::currentMSecsSinceEpoch()})
                .status();
        });
    }

private:
    Store &m_store;
    const QString m_instance;
};

class StoredCronRuns final : public CronRunJournal
{
public:
    StoredCronRuns(Store &store, int keep) : m_store(store), m_keep(std::max(1, keep)) {}

    Status append(const QString &task, const CronRunRecord &r) override
    {
        return m_store.write([&](SqlTransaction &tx) -> Status {
            Result<qint64> id = tx.insertReturningId(
                QStringLiteral("INSERT INTO cron_run (task, instance_id, trigger_kind, doer, started_ms, duration_ms, status, "
                               "message, trace_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
                {task, r.instanceId, r.trigger, r.doer, toStoreMs(r.startedAt), r.durationMs, r.status, r.message, r.traceId});
            if (!id)
                return id.status();
            // Keep the newest m_keep of this task: everything m_keep rows or more below the new one.
            return tx.exec(QStringLiteral("DELETE FROM cron_run WHERE task = ? AND id <= ("
                                          "SELECT id FROM cron_run WHERE task = ? ORDER BY id DESC LIMIT 1 OFFSET ?)"),
                           {task, task, m_keep})
                .status();
        });
    }

    Result<std::vector<CronRunRecord>> newest(const QString &task) override
    {
        return m_store.readValue<std::vector<CronRunRecord>>([&](SqlTransaction &tx) -> Result<std::vector<CronRunRecord>> {
            Result<QSqlQuery> q = tx.exec(
                QStringLiteral("SELECT id, instance_id, trigger_kind, doer, started_ms, duration_ms, status, message, trace_id "
                               "FROM cron_run WHERE task = ? ORDER BY id DESC LIMIT ?"),
                {task, m_keep});
            if (!q)
                return q.status();
            std::vector<CronRunRecord> rows;
            while (q->next())
                rows.push_back({q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toString(), q->value(3).toString(),
                                fromStoreMs(q->value(4).toLongLong()), q->value(5).toLongLong(), q->value(6).toString(),
                                q->value(7).toString(), q->value(8).toString()});
            return rows;
        });
    }

private:
    Store &m_store;
    const int m_keep;
};

} // namespace

Result<std::unique_ptr<CronCoordinator>> makeStoredCronCoordinator(Store &store, const QString &instanceId,
                                                                  const QString &importFile, const CronProblemReporter &report)
{
    auto coordinator = std::make_unique<StoredCronCoordinator>(store, instanceId);
    if (!importFile.isEmpty() && QFile::exists(importFile)) {
        // The pauses of a version that kept them in a file: taken over once, the file kept aside.
        const QSet<QString> paused = readCronPauseFile(importFile, report);
        for (const QString &task : paused) {
            if (Status stored = coordinator->setPaused(task, true); !stored)
                return stored;
        }
        const QString kept = importFile + QStringLiteral(".imported");
        if (QFile::exists(importFile) && !QFile::rename(importFile, kept))
            return Status::unavailable(QStringLiteral("imported the cron pauses of %1 into the store, but cannot rename it to %2")
                                           .arg(importFile, kept));
        qCInfo(lcStore).noquote() << "imported" << paused.size() << "paused cron task(s) from" << importFile
                                  << "into the store; the file is now" << kept;
    }
    return std::unique_ptr<CronCoordinator>(std::move(coordinator));
}

std::unique_ptr<CronRunJournal> makeStoredCronRuns(Store &store, int keepPerTask)
{
    return std::make_unique<StoredCronRuns>(store, keepPerTask);
}

} // namespace Switchyard
