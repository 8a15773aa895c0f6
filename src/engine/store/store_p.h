#pragma once

// What differs between the store's databases: how a connection is configured, which errors mean
// "busy, run the transaction again", how a write transaction begins, and how migrations are
// serialised between instances.

#include "store.h"

#include <QSqlDatabase>
#include <QSqlError>

namespace Switchyard {

struct Store::Backend
{
    virtual ~Backend() = default;
    virtual QString driver() const = 0; // the Qt Sql driver
    // Before the first connection of the store: SQLite creates the file's directory.
    virtual Status prepare() { return Status::ok(); }
    // Sets database name, host, options on a connection that is not open yet.
    virtual void configure(QSqlDatabase &db) const = 0;
    // Right after open(): per-connection settings (SQLite's PRAGMAs).
    virtual Status afterOpen(QSqlDatabase &db) const = 0;
    virtual bool isBusy(const QSqlError &error) const = 0;
    // Out of disk (or quota): the transaction is rolled back and the caller told "unavailable".
    virtual bool isFull(const QSqlError &error) const = 0;
    // A connection error: the connection is dropped and the transaction tried once more.
    virtual bool isConnectionLost(const QSqlError &error) const = 0;
    virtual QString beginWrite() const = 0;
    virtual QString beginRead() const = 0;
    // Inside the migration transaction, before reading the version: serialise instances.
    virtual Status lockMigrations(SqlTransaction &tx) const = 0;
    virtual QStringList vacuumStatements() const = 0;
};

std::unique_ptr<Store::Backend> makeSqliteBackend(const DatabaseSettings &settings, const StoreOptions &options);
std::unique_ptr<Store::Backend> makePostgresBackend(const DatabaseSettings &settings, const StoreOptions &options);

// The numbered migrations (schema.cpp): version N's statements take the schema from N-1 to N.
struct Migration
{
    int version;
    const char *name;
    QStringList (*statements)(StoreBackend backend);
};
const std::vector<Migration> &storeMigrations();

} // namespace Switchyard
