// The PostgreSQL store: several instances share it. Migrations hold a transaction-scoped
// advisory lock so that instances starting together migrate once; serialization failures and
// deadlocks make the whole transaction run again; a lost connection is reopened once.
#include "store_p.h"

#include "engine/settings/config.h"

namespace Switchyard {

namespace {

// pg_advisory_xact_lock key of the migrations: "Swyd" in ASCII.
constexpr qint64 kMigrationLockKey = 0x53777964;

class PostgresBackend final : public Store::Backend
{
public:
    explicit PostgresBackend(const DatabaseSettings &settings) : m_settings(settings) {}

    QString driver() const override { return QStringLiteral("QPSQL"); }

    void configure(QSqlDatabase &db) const override
    {
        // HOST is host, host:port, or a Unix socket directory (a path), as in Gitea.
        QString host = m_settings.host;
        int port = 5432;
        if (!host.startsWith(QLatin1Char('/'))) {
            const qsizetype colon = host.lastIndexOf(QLatin1Char(':'));
            if (colon > 0 && !host.endsWith(QLatin1Char(']'))) {
                port = host.mid(colon + 1).toInt();
                host.truncate(colon);
            }
        }
        db.setHostName(host);
        db.setPort(port);
        db.setDatabaseName(m_settings.name);
        db.setUserName(m_settings.user);
        db.setPassword(m_settings.passwd);
        db.setConnectOptions(QStringLiteral("connect_timeout=5;application_name=switchyard;sslmode=%1").arg(m_settings.sslMode));
    }

    Status afterOpen(QSqlDatabase &) const override { return Status::ok(); }

    bool isBusy(const QSqlError &error) const override
    {
        const QString state = error.nativeErrorCode();
        return state == QLatin1String("40001")     // serialization_failure
               || state == QLatin1String("40P01")  // deadlock_detected
               || state == QLatin1String("55P03"); // lock_not_available
    }

    bool isFull(const QSqlError &error) const override
    {
        const QString state = error.nativeErrorCode();
        return state == QLatin1String("53100") || state == QLatin1String("53200"); // disk_full, out_of_memory
    }

    bool isConnectionLost(const QSqlError &error) const override
    {
        const QString state = error.nativeErrorCode();
        return error.type() == QSqlError::ConnectionError || state.startsWith(QLatin1String("08"))
               || state == QLatin1String("57P01") || state == QLatin1String("57P02") || state == QLatin1String("57P03")
               || error.databaseText().contains(QLatin1String("server closed the connection"))
               || error.databaseText().contains(QLatin1String("no connection to the server"));
    }

    QString beginWrite() const override { return QStringLiteral("BEGIN"); }
    QString beginRead() const override { return QStringLiteral("BEGIN READ ONLY"); }

    Status lockMigrations(SqlTransaction &tx) const override
    {
        return tx.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kMigrationLockKey)).status();
    }

    QStringList vacuumStatements() const override { return {QStringLiteral("VACUUM ANALYZE")}; }

private:
    const DatabaseSettings m_settings;
};

} // namespace

std::unique_ptr<Store::Backend> makePostgresBackend(const DatabaseSettings &settings, const StoreOptions &)
{
    return std::make_unique<PostgresBackend>(settings);
}

} // namespace Switchyard
