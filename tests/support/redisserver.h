#pragma once

#include "engine/core/childprocess.h"
#include "engine/core/status.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace Switchyard::Test {

// A private redis-server for one test: a free loopback port, its own data directory, no
// persistence unless asked. Started and checked synchronously (it waits for Redis's "Ready to
// accept connections" line, then a PING), stopped in the destructor. Not thread-safe: drive it
// from the test's thread. The executable is `redis-server` on PATH, or $SWITCHYARD_REDIS_SERVER.
class RedisServer
{
public:
    struct Options
    {
        bool appendOnly = false; // AOF with fsync on every write: survives restart() and kill()
        QStringList extraArgs;   // more redis-server arguments, e.g. {"--maxmemory", "1mb"}
    };

    RedisServer();
    ~RedisServer();

    RedisServer(const RedisServer &) = delete;
    RedisServer &operator=(const RedisServer &) = delete;

    Status start(const Options &options);
    Status start() { return start(Options()); }
    // SIGTERM and wait; the port and data directory are kept for restart().
    void stop();
    // SIGKILL: a crash. Only an appendOnly server keeps its data.
    void kill();
    // Starts again on the same port and data directory.
    Status restart();
    // SIGSTOP / SIGCONT: a server that hangs without closing its connections.
    void pause();
    void resume();

    bool isRunning() const;
    quint16 port() const { return m_port; }
    QString host() const { return QStringLiteral("127.0.0.1"); }
    // redis://127.0.0.1:<port>/<db>
    QString url(int db = 0) const;
    QString dataDir() const { return m_dir ? m_dir->path() : QString(); }

    // Runs one command on a fresh connection (hiredis, 2 s timeout); the reply as text ("OK",
    // "PONG", an integer in decimal, a bulk string, "(nil)", an array's elements one a line), or
    // the error.
    Result<QByteArray> command(const QStringList &args) const;

private:
    Status launch();
    QByteArray readLog() const;

    Options m_options;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ChildProcess> m_process;
    quint16 m_port = 0;
    QByteArray m_log; // the server's output so far, for failure messages
};

} // namespace Switchyard::Test
