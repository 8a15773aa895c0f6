#pragma once

// The store: the engine's relational database — SQLite by default (one file under the data
// directory, WAL), or PostgreSQL when several instances share their state. It holds what must
// survive a restart and what the admin API pages through: system notices, cron run history and
// pauses, the audit log, and the forge's domain (users, repositories, issues, watches,
// notifications, ingested events).
//
// Connections: Qt Sql connections belong to the thread that opened them, so each thread that
// touches a store gets its own, opened on first use and closed when the thread ends (a
// thread_local holder) or when the store is destroyed (the destroying thread's own). Callers
// never see a connection: they pass a function that runs inside a transaction.

#include "engine/core/status.h"

#include <QDateTime>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>
#include <optional>

namespace Switchyard {

class CancelToken;
struct DatabaseSettings;
class Store;
struct StatementCache;

enum class StoreBackend { Sqlite, Postgres };

struct StoreOptions
{
    // SQLite: how long a writer waits for another connection's write lock before the statement
    // fails as busy (then the whole transaction is retried, writeAttempts times).
    std::chrono::milliseconds busyTimeout{5000};
    // PostgreSQL at start-up: attempts to connect, one every connectInterval (as the Redis PINGs).
    int connectAttempts = 10;
    std::chrono::milliseconds connectInterval{1000};
    // A transaction that fails because the database is busy (SQLite), or on a serialization
    // failure or deadlock (PostgreSQL), runs again from the start this many times in all.
    int writeAttempts = 5;
    // Tests: stop the migrations after this version (0 = all of them).
    int migrateTo = 0;
};

// Statements inside one transaction on the calling thread's connection. Errors name the
// statement's first words and the database's own message.
class SqlTransaction
{
public:
    // Prepares, binds `values` to the `?` placeholders in order, executes. The query is positioned
    // before the first row. A null QString binds as '' (text columns are never NULL); a null
    // QVariant binds as NULL. A statement with values is prepared once per connection and kept:
    // its result is valid until the same SQL runs again in this transaction, except a SELECT not
    // read to the end, which a second run leaves alone (nested loops over one statement work).
    Result<QSqlQuery> exec(const QString &sql, const QVariantList &values = {});
    // Runs an INSERT … RETURNING id and gives the id.
    Result<qint64> insertReturningId(const QString &sql, const QVariantList &values);
    // Runs a statement whose first row's first column is a number (COUNT, MAX, …); 0 without rows.
    Result<qint64> scalar(const QString &sql, const QVariantList &values = {});
    // Runs a statement and gives the first column of every row as numbers (ids), in row order.
    Result<std::vector<qint64>> numbers(const QString &sql, const QVariantList &values = {});
    StoreBackend backend() const;

private:
    friend class Store;
    SqlTransaction(const Store &store, QString connection, StatementCache *statements = nullptr)
        : m_store(store), m_connection(std::move(connection)), m_statements(statements)
    {
    }
    void finishStatements(); // the cached statements' results, at the end of the transaction
    const Store &m_store;
    const QString m_connection;
    StatementCache *const m_statements; // this connection's prepared statements; none: prepared each time
    bool m_busy = false; // the last failure was a busy / serialization one: retry the transaction
    bool m_lost = false; // the last failure lost the connection: reconnect and retry once
};

// Thread-safe: any thread may call write() and read(); each runs on that thread's connection.
class Store
{
public:
    using Work = std::function<Status(SqlTransaction &)>;

    // Opens (SQLite: creates the file and its directory) and migrates to this binary's schema.
    // Fails, naming both versions, when the database was migrated by a newer Switchyard.
    static Result<std::unique_ptr<Store>> open(const CancelToken &cancel, const DatabaseSettings &settings,
                                               StoreOptions options = {});
    ~Store();

    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    StoreBackend backend() const { return m_backend; }
    QString backendName() const; // "sqlite3" | "postgres" (the DB_TYPE value)
    // Where the data is, for logs and the instance page: the file, or host/name (never the password).
    QString location() const { return m_location; }
    // The schema version this binary migrates to.
    static int currentSchemaVersion();
    // The database's version (as found after open()).
    int schemaVersion() const { return m_schemaVersion; }

    // `work` inside a transaction: committed when it returns ok, rolled back otherwise. Retried
    // from the start when the database is busy, so `work` must not have effects outside the
    // database (collect results into variables it assigns afresh).
    Status write(const Work &work);
    // Like write(), for statements that only read (SQLite takes no write lock for them).
    Status read(const Work &work);
    // write() and read() for work that computes a value: `work` returns Result<T> (an error rolls
    // back), and its value is the answer once the transaction committed.
    template<typename T>
    Result<T> writeValue(const std::function<Result<T>(SqlTransaction &)> &work)
    {
        return runValue<T>(work, true);
    }
    template<typename T>
    Result<T> readValue(const std::function<Result<T>(SqlTransaction &)> &work)
    {
        return runValue<T>(work, false);
    }
    // SELECT 1 on this thread's connection, timed by the caller.
    Status ping();
    // SQLite: VACUUM and `PRAGMA optimize`; PostgreSQL: VACUUM ANALYZE. Returns what it did.
    Result<QString> vacuum();

    struct Backend; // what differs between SQLite and PostgreSQL (store_p.h)

private:
    friend class SqlTransaction;
    Store(StoreBackend backend, QString location, StoreOptions options, std::unique_ptr<Backend> impl);
    Result<QString> connection(); // this thread's connection name, opened when needed
    void dropConnection();         // this thread's, after a connection error
    Status run(const Work &work, bool writes);
    template<typename T>
    Result<T> runValue(const std::function<Result<T>(SqlTransaction &)> &work, bool writes)
    {
        std::optional<T> value;
        const Status status = run(
            [&](SqlTransaction &tx) -> Status {
                Result<T> computed = work(tx);
                if (!computed)
                    return computed.status();
                value = std::move(computed).value();
                return Status::ok();
            },
            writes);
        if (!status)
            return status;
        return std::move(*value);
    }
    Status migrate(const CancelToken &cancel);

    const StoreBackend m_backend;
    const QString m_location;
    const StoreOptions m_options;
    const std::unique_ptr<Backend> m_impl;
    const quint64 m_id; // connection names are unique per store and thread
    struct WriterGate; // SQLite: this process's writers, one at a time (run())
    const std::unique_ptr<WriterGate> m_writers;
    int m_schemaVersion = 0;
};

// Milliseconds since the epoch (UTC) as stored in *_ms columns, and back.
qint64 toStoreMs(const QDateTime &time);
QDateTime fromStoreMs(qint64 ms);

} // namespace Switchyard
