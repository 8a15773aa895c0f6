#pragma once

#include "engine/core/cancellation.h"
#include "engine/core/status.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

struct redisContext;

namespace Switchyard {

// Where a Redis server is: redis://[[user]:password@]host[:port][/db]. A bare "host:port" is
// accepted too (Gitea's older form).
struct RedisAddress
{
    QString host = QStringLiteral("127.0.0.1");
    int port = 6379;
    int db = 0;
    QString username;
    QString password; // never logged: use display()

    static Result<RedisAddress> parse(const QString &url);
    // The address without credentials, for logs and messages.
    QString display() const;
};

// One Redis reply, copied out of hiredis so it can outlive the connection.
struct RedisValue
{
    enum class Type { Nil, Integer, String, Status, Array, Error };
    Type type = Type::Nil;
    qint64 integer = 0;
    QByteArray string; // String, Status and Error text
    std::vector<RedisValue> elements;

    bool isNil() const { return type == Type::Nil; }
    bool isError() const { return type == Type::Error; }
};

// A Lua script run with EVALSHA, falling back to EVAL (which also loads it) when the server does
// not know it yet — after a restart or a SCRIPT FLUSH.
class RedisScript
{
public:
    explicit RedisScript(QByteArray source);
    const QByteArray &source() const { return m_source; }
    const QByteArray &sha1() const { return m_sha1; }

private:
    QByteArray m_source;
    QByteArray m_sha1; // lower-case hex
};

// A synchronous Redis connection (hiredis) that reconnects after a failure.
//
// Not thread-safe: each thread uses its own (hiredis: "a context is not thread-safe"). A context
// that reported an I/O error is dropped and replaced on the next call, never reused. Cancellation
// of the token passed to a call interrupts a blocked read at once (the socket is shut down).
// The first connection makes the process ignore SIGPIPE (hiredis writes with write(2)).
class RedisConnection
{
public:
    struct Options
    {
        std::chrono::milliseconds connectTimeout{2000};
        std::chrono::milliseconds commandTimeout{5000};
    };

    explicit RedisConnection(RedisAddress address);
    RedisConnection(RedisAddress address, Options options);
    ~RedisConnection();

    RedisConnection(const RedisConnection &) = delete;
    RedisConnection &operator=(const RedisConnection &) = delete;

    const RedisAddress &address() const { return m_address; }

    // Runs one command. An error reply becomes a status whose message starts with the server's
    // text (redisErrorStatus: transient replies such as LOADING are Unavailable, so callers retry;
    // "NOSCRIPT ...", "WRONGTYPE ..." are Internal); I/O failures are Unavailable; a cancelled
    // token gives its cause. A call interrupted by its token drops the connection even when the
    // reply had arrived: the socket is shut down and must not be reused.
    Result<RedisValue> command(const CancelToken &cancel, const QList<QByteArray> &args);
    // Sends every command, then reads every reply (one round trip). Error replies stay values.
    Result<std::vector<RedisValue>> pipeline(const CancelToken &cancel, const QList<QList<QByteArray>> &commands);
    // EVALSHA with EVAL fallback.
    Result<RedisValue> eval(const CancelToken &cancel, const RedisScript &script, const QList<QByteArray> &keys,
                            const QList<QByteArray> &args);

    // Reads the next reply without sending anything: what a connection in SUBSCRIBE mode is
    // pushed. Waits with no timeout until a reply arrives or `cancel` fires (the socket is then
    // shut down and the connection dropped). Unavailable when not connected or the read fails.
    Result<RedisValue> receive(const CancelToken &cancel);
    // Connects now if not connected (AUTH and SELECT included).
    Status ensureConnected(const CancelToken &cancel);
    void disconnect();
    bool isConnected() const { return m_context != nullptr; }
    // Drops the connection when the server closed it while it sat idle (a restart): one poll(2)
    // with no wait, so a pooled connection is never handed out already dead.
    void dropIfClosedByPeer();

private:
    Status connectOnce(const CancelToken &cancel);
    Status ioFailure(const CancelToken &cancel, const char *what);
    Status setTimeoutFor(const CancelToken &cancel);

    RedisAddress m_address;
    Options m_options;
    redisContext *m_context = nullptr; // Owned.
    std::chrono::milliseconds m_appliedTimeout{-1}; // the socket's current timeout; -1: unknown
};

// The status of a Redis error reply. Replies that say "not now" are Unavailable, so that callers
// back off and retry: LOADING (dataset loading after a restart), BUSY (a script or module is
// running), READONLY (we reached a replica, e.g. after a failover), MASTERDOWN, TRYAGAIN,
// CLUSTERDOWN, NOREPLICAS. Everything else (WRONGTYPE, NOSCRIPT, ERR …) is Internal.
Status redisErrorStatus(const QByteArray &reply);

// Connections to one server for callers on many threads: each call borrows a connection and gives
// it back. Thread-safe. A broken connection reconnects on its next use; one the server closed
// while idle (e.g. it restarted) is reconnected before it is lent.
class RedisPool
{
public:
    explicit RedisPool(RedisAddress address, RedisConnection::Options options = {});
    const RedisAddress &address() const { return m_address; }

    std::unique_ptr<RedisConnection> acquire();
    void giveBack(std::unique_ptr<RedisConnection> connection);
    void clear();

    // One command on a borrowed connection within `timeout`, no retries: for callers that must
    // answer fast or not at all (caches, coordination keys).
    Result<RedisValue> commandWithin(std::chrono::milliseconds timeout, const QList<QByteArray> &args);

    // Borrows a connection for `fn(connection)`.
    template<typename Fn>
    auto with(Fn &&fn) -> decltype(fn(std::declval<RedisConnection &>()))
    {
        std::unique_ptr<RedisConnection> connection = acquire();
        auto result = fn(*connection);
        giveBack(std::move(connection));
        return result;
    }

private:
    const RedisAddress m_address;
    const RedisConnection::Options m_options;
    std::mutex m_mutex;
    std::vector<std::unique_ptr<RedisConnection>> m_idle; // guarded by m_mutex
};

// Connects to `address`, retrying PING `attempts` times with `interval` between tries (Gitea: 10 ×
// 1 s, for a Redis that starts after us). Unavailable with the last error when it never answers.
Status pingWithRetries(const CancelToken &cancel, RedisConnection &connection, int attempts,
                       std::chrono::milliseconds interval);

} // namespace Switchyard
