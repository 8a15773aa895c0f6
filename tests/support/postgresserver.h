#pragma once

#include "engine/core/childprocess.h"
#include "engine/core/status.h"
#include "engine/settings/config.h"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace Switchyard::Test {

// A private PostgreSQL cluster for one test executable: initdb into a temporary directory, then
// `postgres -c fsync=off` on a free loopback port, checked with its "ready to accept connections"
// line and a SELECT 1. Tests take a fresh database each (createDatabase()). The programs come from
// /usr/lib/postgresql/<newest>/bin, or $SWITCHYARD_PG_BIN. PostgreSQL refuses to run as root: as
// root, the directory is given to the `postgres` user and both programs run as that user
// (setpriv, which execs in place, so the server is this process's own child). Not thread-safe.
class PostgresServer
{
public:
    PostgresServer();
    ~PostgresServer();

    PostgresServer(const PostgresServer &) = delete;
    PostgresServer &operator=(const PostgresServer &) = delete;

    // The executable's one server, started on first use.
    static Result<PostgresServer *> shared();

    Status start();
    void stop();    // fast shutdown (SIGINT), waited for
    void kill();    // SIGKILL: a crash
    Status restart(); // the same port and cluster
    bool isRunning() const;
    quint16 port() const { return m_port; }

    // CREATE DATABASE `name` (dropped first when it exists); settings that reach it as the
    // cluster's superuser.
    Result<DatabaseSettings> createDatabase(const QString &name);
    DatabaseSettings settings(const QString &database) const;
    // Runs one statement in `database`; the first column of the first row, or "" without rows.
    Result<QString> query(const QString &database, const QString &sql) const;

private:
    Status launch();
    Status runAsOwner(const QString &program, const QStringList &args, int timeoutMs, QByteArray *output);
    QString log() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ChildProcess> m_process;
    QString m_bin;
    quint16 m_port = 0;
};

} // namespace Switchyard::Test
