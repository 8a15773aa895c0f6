#include "redisconnection.h"

#include "engine/core/logging.h"

#include <QCryptographicHash>
#include <QUrl>

#include <hiredis/hiredis.h>

#include <atomic>
#include <csignal>
#include <mutex>
#include <poll.h>
#include <sys/socket.h>

namespace Switchyard {

Result<RedisAddress> RedisAddress::parse(const QString &input)
{
    const QString text = input.trimmed();
    RedisAddress address;
    if (text.isEmpty())
        return Status::invalidArgument(QStringLiteral("empty Redis address"));
    QUrl url(text.contains(QLatin1String("://")) ? text : QStringLiteral("redis://") + text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return Status::invalidArgument(QStringLiteral("invalid Redis address \"%1\": expected redis://[[user]:password@]host[:port][/db]").arg(input));
    if (url.scheme() != QLatin1String("redis"))
        return Status::invalidArgument(QStringLiteral("unsupported Redis scheme \"%1\" in \"%2\"; valid: redis")
                                           .arg(url.scheme(), url.toDisplayString(QUrl::RemoveUserInfo)));
    address.host = url.host();
    address.port = url.port(6379);
    address.username = url.userName();
    address.password = url.password();
    const QString path = url.path().mid(1);
    if (!path.isEmpty()) {
        bool ok = false;
        address.db = path.toInt(&ok);
        if (!ok || address.db < 0)
            return Status::invalidArgument(QStringLiteral("invalid Redis database \"%1\" in \"%2\"")
                                               .arg(path, url.toDisplayString(QUrl::RemoveUserInfo)));
    }
    return address;
}

QString RedisAddress::display() const
{
    return QStringLiteral("redis://%1:%2/%3").arg(host).arg(port).arg(db);
}

RedisScript::RedisScript(QByteArray source)
    : m_source(std::move(source)), m_sha1(QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex())
{
}

namespace {

RedisValue convert(const redisReply *reply)
{
    RedisValue value;
    switch (reply->type) {
    case REDIS_REPLY_INTEGER:
        value.type = RedisValue::Type::Integer;
        value.integer = reply->integer;
        break;
    case REDIS_REPLY_STRING:
        value.type = RedisValue::Type::String;
        value.string = QByteArray(reply->str, qsizetype(reply->len));
        break;
    case REDIS_REPLY_STATUS:
        value.type = RedisValue::Type::Status;
        value.string = QByteArray(reply->str, qsizetype(reply->len));
        break;
    case REDIS_REPLY_ERROR:
        value.type = RedisValue::Type::Error;
        value.string = QByteArray(reply->str, qsizetype(reply->len));
        break;
    case REDIS_REPLY_ARRAY:
        value.type = RedisValue::Type::Array;
        value.elements.reserve(reply->elements);
        for (size_t i = 0; i < reply->elements; ++i)
            value.elements.push_back(convert(reply->element[i]));
        break;
    default:
        value.type = RedisValue::Type::Nil;
        break;
    }
    return value;
}

timeval toTimeval(std::chrono::milliseconds ms)
{
    if (ms.count() < 1)
        ms = std::chrono::milliseconds(1);
    return timeval{time_t(ms.count() / 1000), suseconds_t((ms.count() % 1000) * 1000)};
}

// Shuts the socket down when the token is cancelled, so a blocked hiredis read returns at once.
// fired() tells afterwards whether it did: the socket is then unusable even if a reply arrived.
class SocketInterrupt
{
public:
    SocketInterrupt(const CancelToken &cancel, int fd)
        : m_fired(std::make_shared<std::atomic<bool>>(false)),
          m_callback(cancel.onCancel([fd, fired = m_fired] {
              fired->store(true);
              ::shutdown(fd, SHUT_RDWR);
          }))
    {
    }
    // Unregisters the callback (waiting for it if it runs now), so fired() is final.
    bool finish()
    {
        m_callback = CancelCallback();
        return m_fired->load();
    }

private:
    std::shared_ptr<std::atomic<bool>> m_fired;
    CancelCallback m_callback;
};

struct ArgvBuffer
{
    explicit ArgvBuffer(const QList<QByteArray> &args)
    {
        argv.reserve(size_t(args.size()));
        lengths.reserve(size_t(args.size()));
        for (const QByteArray &arg : args) {
            argv.push_back(arg.constData());
            lengths.push_back(size_t(arg.size()));
        }
    }
    std::vector<const char *> argv;
    std::vector<size_t> lengths;
};

} // namespace

RedisConnection::RedisConnection(RedisAddress address) : RedisConnection(std::move(address), Options()) {}

RedisConnection::RedisConnection(RedisAddress address, Options options)
    : m_address(std::move(address)), m_options(options)
{
    // hiredis writes with write(2): a peer that went away (or a socket shut down to interrupt a
    // call) would raise SIGPIPE and kill the process. Errors are handled as return values.
    static std::once_flag ignoreSigpipe;
    std::call_once(ignoreSigpipe, [] { std::signal(SIGPIPE, SIG_IGN); });
}

RedisConnection::~RedisConnection()
{
    disconnect();
}

void RedisConnection::disconnect()
{
    if (m_context)
        redisFree(m_context);
    m_context = nullptr;
    m_appliedTimeout = std::chrono::milliseconds(-1);
}

void RedisConnection::dropIfClosedByPeer()
{
    if (!m_context)
        return;
    // An idle connection has nothing to read: readable means end of stream or an error.
    pollfd fd{m_context->fd, POLLIN | POLLRDHUP, 0};
    if (::poll(&fd, 1, 0) != 0)
        disconnect();
}

Status RedisConnection::setTimeoutFor(const CancelToken &cancel)
{
    auto timeout = m_options.commandTimeout;
    if (const auto remaining = cancel.remaining()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*remaining);
        if (left.count() <= 0)
            return Status::deadlineExceeded(QStringLiteral("deadline exceeded before the Redis command"));
        // Rounded up to 250 ms so that the socket's timeout rarely changes (the token's deadline
        // itself is exact: its cancellation shuts the socket down).
        const auto rounded = std::chrono::milliseconds((left.count() + 249) / 250 * 250);
        timeout = std::min(timeout, rounded);
    }
    if (timeout == m_appliedTimeout)
        return Status::ok(); // two setsockopt calls saved per command
    if (redisSetTimeout(m_context, toTimeval(timeout)) != REDIS_OK)
        return ioFailure(cancel, "set timeout");
    m_appliedTimeout = timeout;
    return Status::ok();
}

Status RedisConnection::ioFailure(const CancelToken &cancel, const char *what)
{
    QString detail = m_context ? QString::fromLocal8Bit(m_context->errstr) : QStringLiteral("not connected");
    disconnect();
    if (cancel.isCancelled())
        return cancel.cause();
    if (detail.isEmpty())
        detail = QStringLiteral("connection lost");
    return Status::unavailable(QStringLiteral("Redis %1 at %2 failed: %3").arg(QLatin1String(what), m_address.display(), detail));
}

Status RedisConnection::connectOnce(const CancelToken &cancel)
{
    if (cancel.isCancelled())
        return cancel.cause();
    auto timeout = m_options.connectTimeout;
    if (const auto remaining = cancel.remaining())
        timeout = std::min(timeout, std::chrono::duration_cast<std::chrono::milliseconds>(*remaining));
    m_context = redisConnectWithTimeout(m_address.host.toUtf8().constData(), m_address.port, toTimeval(timeout));
    if (!m_context)
        return Status::unavailable(QStringLiteral("cannot allocate a Redis context"));
    if (m_context->err)
        return ioFailure(cancel, "connect");
    redisEnableKeepAlive(m_context);

    if (!m_address.password.isEmpty()) {
        QList<QByteArray> auth{"AUTH"};
        if (!m_address.username.isEmpty())
            auth.append(m_address.username.toUtf8());
        auth.append(m_address.password.toUtf8());
        const Result<RedisValue> reply = command(cancel, auth);
        if (!reply) {
            disconnect();
            return Status::unavailable(QStringLiteral("Redis AUTH at %1 failed: %2").arg(m_address.display(), reply.status().message()));
        }
    }
    if (m_address.db != 0) {
        const Result<RedisValue> reply = command(cancel, {"SELECT", QByteArray::number(m_address.db)});
        if (!reply) {
            disconnect();
            return Status::unavailable(QStringLiteral("Redis SELECT at %1 failed: %2").arg(m_address.display(), reply.status().message()));
        }
    }
    return Status::ok();
}

Status RedisConnection::ensureConnected(const CancelToken &cancel)
{
    return m_context ? Status::ok() : connectOnce(cancel);
}

Result<RedisValue> RedisConnection::command(const CancelToken &cancel, const QList<QByteArray> &args)
{
    if (Status connected = ensureConnected(cancel); !connected)
        return connected;
    if (Status timeout = setTimeoutFor(cancel); !timeout)
        return timeout;
    ArgvBuffer buffer(args);
    void *raw = nullptr;
    SocketInterrupt interrupt(cancel, m_context->fd);
    raw = redisCommandArgv(m_context, int(buffer.argv.size()), buffer.argv.data(), buffer.lengths.data());
    const bool interrupted = interrupt.finish(); // before a failure closes the socket
    if (!raw)
        return ioFailure(cancel, "command");
    std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(static_cast<redisReply *>(raw), &freeReplyObject);
    if (interrupted)
        disconnect(); // the reply made it, the socket did not
    RedisValue value = convert(reply.get());
    if (value.isError()) {
        Status error = redisErrorStatus(value.string);
        if (value.string.startsWith("READONLY") || value.string.startsWith("MASTERDOWN"))
            disconnect(); // a new connection may reach the new master
        return error;
    }
    return value;
}

Result<std::vector<RedisValue>> RedisConnection::pipeline(const CancelToken &cancel,
                                                          const QList<QList<QByteArray>> &commands)
{
    if (Status connected = ensureConnected(cancel); !connected)
        return connected;
    if (Status timeout = setTimeoutFor(cancel); !timeout)
        return timeout;
    for (const QList<QByteArray> &args : commands) {
        ArgvBuffer buffer(args);
        if (redisAppendCommandArgv(m_context, int(buffer.argv.size()), buffer.argv.data(), buffer.lengths.data()) != REDIS_OK)
            return ioFailure(cancel, "pipeline");
    }
    std::vector<RedisValue> replies;
    replies.reserve(size_t(commands.size()));
    bool failed = false;
    SocketInterrupt interrupt(cancel, m_context->fd);
    for (qsizetype i = 0; i < commands.size() && !failed; ++i) {
        void *raw = nullptr;
        if (redisGetReply(m_context, &raw) != REDIS_OK || !raw) {
            failed = true;
            break;
        }
        std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(static_cast<redisReply *>(raw), &freeReplyObject);
        replies.push_back(convert(reply.get()));
    }
    const bool interrupted = interrupt.finish(); // before a failure closes the socket
    if (failed)
        return ioFailure(cancel, "pipeline");
    if (interrupted)
        disconnect();
    return replies;
}

Result<RedisValue> RedisConnection::receive(const CancelToken &cancel)
{
    if (cancel.isCancelled())
        return cancel.cause();
    if (!m_context)
        return Status::unavailable(QStringLiteral("Redis at %1: not connected").arg(m_address.display()));
    if (m_appliedTimeout != std::chrono::milliseconds(0)) {
        if (redisSetTimeout(m_context, timeval{0, 0}) != REDIS_OK) // {0, 0}: no timeout
            return ioFailure(cancel, "set timeout");
        m_appliedTimeout = std::chrono::milliseconds(0);
    }
    void *raw = nullptr;
    SocketInterrupt interrupt(cancel, m_context->fd);
    const int read = redisGetReply(m_context, &raw);
    const bool interrupted = interrupt.finish(); // before a failure closes the socket
    if (read != REDIS_OK || !raw)
        return ioFailure(cancel, "receive");
    std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(static_cast<redisReply *>(raw), &freeReplyObject);
    if (interrupted)
        disconnect();
    return convert(reply.get());
}

Result<RedisValue> RedisConnection::eval(const CancelToken &cancel, const RedisScript &script,
                                         const QList<QByteArray> &keys, const QList<QByteArray> &args)
{
    QList<QByteArray> command{"EVALSHA", script.sha1(), QByteArray::number(keys.size())};
    command += keys;
    command += args;
    Result<RedisValue> reply = this->command(cancel, command);
    if (reply || !reply.status().message().startsWith(QLatin1String("NOSCRIPT")))
        return reply;
    command[0] = "EVAL";
    command[1] = script.source();
    return this->command(cancel, command);
}

Status redisErrorStatus(const QByteArray &reply)
{
    static const QByteArrayList transient{"LOADING", "BUSY", "READONLY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN",
                                          "NOREPLICAS"};
    const qsizetype space = reply.indexOf(' ');
    const QByteArray word = space < 0 ? reply : reply.left(space);
    const QString message = QString::fromUtf8(reply);
    return transient.contains(word) ? Status::unavailable(message) : Status::internal(message);
}

RedisPool::RedisPool(RedisAddress address, RedisConnection::Options options)
    : m_address(std::move(address)), m_options(options)
{
}

std::unique_ptr<RedisConnection> RedisPool::acquire()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_idle.empty()) {
            std::unique_ptr<RedisConnection> connection = std::move(m_idle.back());
            m_idle.pop_back();
            connection->dropIfClosedByPeer(); // it reconnects on first use
            return connection;
        }
    }
    return std::make_unique<RedisConnection>(m_address, m_options);
}

void RedisPool::giveBack(std::unique_ptr<RedisConnection> connection)
{
    std::lock_guard lock(m_mutex);
    m_idle.push_back(std::move(connection));
}

Result<RedisValue> RedisPool::commandWithin(std::chrono::milliseconds timeout, const QList<QByteArray> &args)
{
    const CancelSource bounded = CancelSource::withTimeout(CancelToken(), timeout);
    return with([&](RedisConnection &c) { return c.command(bounded.token(), args); });
}

void RedisPool::clear()
{
    std::lock_guard lock(m_mutex);
    m_idle.clear();
}

Status pingWithRetries(const CancelToken &cancel, RedisConnection &connection, int attempts,
                       std::chrono::milliseconds interval)
{
    Status last;
    for (int attempt = 1; attempt <= std::max(1, attempts); ++attempt) {
        const Result<RedisValue> pong = connection.command(cancel, {"PING"});
        if (pong)
            return Status::ok();
        last = pong.status();
        if (cancel.isCancelled())
            return cancel.cause();
        if (attempt == 1 && attempts > 1)
            qCWarning(lcCore).noquote() << "Redis at" << connection.address().display() << "does not answer yet; retrying"
                                        << attempts - 1 << "more time(s):" << last.message();
        if (attempt < attempts && !cancel.sleepFor(interval))
            return cancel.cause();
    }
    return Status::unavailable(QStringLiteral("Redis at %1 did not answer PING after %2 attempts: %3")
                                   .arg(connection.address().display()).arg(attempts).arg(last.message()));
}

} // namespace Switchyard
