// The SQLite store: one file, WAL so that readers never wait for the writer, a busy timeout so
// that writers queue up instead of failing at once, and BEGIN IMMEDIATE so that a writing
// transaction takes the write lock at its start (no deadlock between two readers upgrading).
#include "store_p.h"

#include "engine/settings/config.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <thread>

namespace Switchyard {

namespace {

class SqliteBackend final : public Store::Backend
{
public:
    SqliteBackend(QString path, std::chrono::milliseconds busyTimeout) : m_path(std::move(path)), m_busyTimeout(busyTimeout) {}

    QString driver() const override { return QStringLiteral("QSQLITE"); }

    Status prepare() override
    {
        if (m_path.isEmpty())
            return Status::invalidArgument(QStringLiteral("[database] PATH is empty: give the SQLite file"));
        const QString dir = QFileInfo(m_path).absolutePath();
        if (!QDir().mkpath(dir))
            return Status::unavailable(QStringLiteral("cannot create the directory %1 for the SQLite database ([database] PATH)").arg(dir));
        return Status::ok();
    }

    void configure(QSqlDatabase &db) const override
    {
        db.setDatabaseName(m_path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(m_busyTimeout.count()));
    }

    Status afterOpen(QSqlDatabase &db) const override
    {
        // journal_mode is stored in the file; the others hold per connection. Switching a new
        // file to WAL needs it alone, and SQLite reports "locked" at once rather than waiting
        // through the busy handler when another connection is opening it too: try again within
        // the busy timeout.
        const auto deadline = std::chrono::steady_clock::now() + m_busyTimeout;
        for (int attempt = 1;; ++attempt) {
            QSqlQuery query(db);
            if (query.exec(QStringLiteral("PRAGMA journal_mode = WAL")))
                break;
            if (!isBusy(query.lastError()) || std::chrono::steady_clock::now() >= deadline)
                return failed(QStringLiteral("PRAGMA journal_mode = WAL"), query.lastError());
            query = QSqlQuery();
            std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt, 20)));
        }
        for (const QString &pragma : {QStringLiteral("PRAGMA synchronous = NORMAL"), QStringLiteral("PRAGMA foreign_keys = ON")}) {
            QSqlQuery query(db);
            if (!query.exec(pragma))
                return failed(pragma, query.lastError());
        }
        return Status::ok();
    }

    bool isBusy(const QSqlError &error) const override
    {
        // SQLITE_BUSY (5) and SQLITE_LOCKED (6), with their extended codes (low byte).
        bool numeric = false;
        const int code = error.nativeErrorCode().toInt(&numeric);
        if (numeric)
            return (code & 0xff) == 5 || (code & 0xff) == 6;
        return error.databaseText().contains(QLatin1String("database is locked"));
    }

    bool isFull(const QSqlError &error) const override
    {
        bool numeric = false;
        const int code = error.nativeErrorCode().toInt(&numeric);
        return numeric ? (code & 0xff) == 13 : error.databaseText().contains(QLatin1String("disk is full")); // SQLITE_FULL
    }

    bool isConnectionLost(const QSqlError &) const override { return false; }
    QString beginWrite() const override { return QStringLiteral("BEGIN IMMEDIATE"); }
    QString beginRead() const override { return QStringLiteral("BEGIN"); }
    Status lockMigrations(SqlTransaction &) const override { return Status::ok(); } // BEGIN IMMEDIATE serialises
    QStringList vacuumStatements() const override { return {QStringLiteral("VACUUM"), QStringLiteral("PRAGMA optimize")}; }

private:
    Status failed(const QString &pragma, const QSqlError &error) const
    {
        return Status::unavailable(QStringLiteral("SQLite database %1: '%2' failed: %3").arg(m_path, pragma, error.text()));
    }

    const QString m_path;
    const std::chrono::milliseconds m_busyTimeout;
};

} // namespace

std::unique_ptr<Store::Backend> makeSqliteBackend(const DatabaseSettings &settings, const StoreOptions &options)
{
    return std::make_unique<SqliteBackend>(settings.path, options.busyTimeout);
}

} // namespace Switchyard
