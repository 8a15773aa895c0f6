#include "redisserver.h"

#include "testutil.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>

#include <chrono>
#include <thread>

#include <hiredis/hiredis.h>

#include <csignal>
#include <vector>

namespace Switchyard::Test {

namespace {

QString redisExecutable()
{
    const QByteArray fromEnv = qgetenv("SWITCHYARD_REDIS_SERVER");
    return fromEnv.isEmpty() ? QStringLiteral("redis-server") : QString::fromLocal8Bit(fromEnv);
}

} // namespace

QByteArray RedisServer::readLog() const
{
    QFile file(QDir(m_dir->path()).filePath(QStringLiteral("redis.log")));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

RedisServer::RedisServer() = default;

RedisServer::~RedisServer()
{
    if (isRunning()) {
        resume(); // a paused server cannot act on SIGTERM
        kill();
    }
}

Status RedisServer::start(const Options &options)
{
    m_options = options;
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return Status::unavailable(QStringLiteral("cannot create a temporary directory for redis-server"));
    return launchOnFreePort(m_port, [this] { return launch(); });
}

Status RedisServer::launch()
{
    m_process = std::make_unique<ChildProcess>();
    QStringList args{QStringLiteral("--port"), QString::number(m_port),
                     QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                     QStringLiteral("--dir"), m_dir->path(),
                     QStringLiteral("--save"), QString(),
                     QStringLiteral("--daemonize"), QStringLiteral("no"),
                     QStringLiteral("--protected-mode"), QStringLiteral("no"),
                     // A file, not a pipe: nobody has to keep reading for the server to go on logging.
                     QStringLiteral("--logfile"), QDir(m_dir->path()).filePath(QStringLiteral("redis.log"))};
    if (m_options.appendOnly)
        args << QStringLiteral("--appendonly") << QStringLiteral("yes")
             << QStringLiteral("--appendfsync") << QStringLiteral("always");
    else
        args << QStringLiteral("--appendonly") << QStringLiteral("no");
    args << m_options.extraArgs;

    m_log.clear();
    QFile::remove(QDir(m_dir->path()).filePath(QStringLiteral("redis.log")));
    ChildProcess::Options spawn;
    spawn.output = ChildProcess::Output::Inherit;
    if (Status started = m_process->start(redisExecutable(), args, spawn); !started)
        return Status::unavailable(started.message() + QStringLiteral(" (install the redis-server package)"));

    QDeadlineTimer deadline(15000);
    while (!m_log.contains("Ready to accept connections")) {
        if (m_process->finished() || deadline.hasExpired()) {
            m_log = readLog();
            m_process->kill();
            return Status::unavailable(QStringLiteral("redis-server on port %1 did not become ready:\n%2")
                                           .arg(m_port).arg(QString::fromLocal8Bit(m_log)));
        }
        m_process->read(int(std::min<qint64>(20, std::max<qint64>(1, deadline.remainingTime())))); // waits
        m_log = readLog();
    }
    const Result<QByteArray> pong = command({QStringLiteral("PING")});
    if (!pong || *pong != "PONG")
        return Status::unavailable(QStringLiteral("redis-server on port %1 does not answer PING: %2")
                                       .arg(m_port).arg(pong.status().message()));
    return Status::ok();
}

void RedisServer::stop()
{
    if (!isRunning())
        return;
    m_process->signal(SIGTERM);
    if (!m_process->waitForFinished(10000))
        m_process->kill();
}

void RedisServer::kill()
{
    if (!isRunning())
        return;
    m_process->kill();
}

Status RedisServer::restart()
{
    stop();
    return launch();
}

void RedisServer::pause()
{
    if (isRunning())
        stopProcess(m_process->pid());
}

void RedisServer::resume()
{
    if (isRunning())
        ::kill(m_process->pid(), SIGCONT);
}

bool RedisServer::isRunning() const
{
    return m_process && !m_process->finished();
}

QString RedisServer::url(int db) const
{
    return QStringLiteral("redis://127.0.0.1:%1/%2").arg(m_port).arg(db);
}

Result<QByteArray> RedisServer::command(const QStringList &args) const
{
    const timeval timeout{2, 0};
    std::unique_ptr<redisContext, decltype(&redisFree)> context(
        redisConnectWithTimeout("127.0.0.1", m_port, timeout), &redisFree);
    if (!context || context->err)
        return Status::unavailable(QStringLiteral("cannot connect to redis on port %1: %2")
                                       .arg(m_port).arg(QString::fromLocal8Bit(context ? context->errstr : "out of memory")));
    redisSetTimeout(context.get(), timeout);

    std::vector<QByteArray> storage;
    std::vector<const char *> argv;
    std::vector<size_t> lengths;
    for (const QString &arg : args)
        storage.push_back(arg.toUtf8());
    for (const QByteArray &arg : storage) {
        argv.push_back(arg.constData());
        lengths.push_back(size_t(arg.size()));
    }
    std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(
        static_cast<redisReply *>(redisCommandArgv(context.get(), int(argv.size()), argv.data(), lengths.data())),
        &freeReplyObject);
    if (!reply)
        return Status::unavailable(QStringLiteral("redis command failed: %1").arg(QString::fromLocal8Bit(context->errstr)));
    switch (reply->type) {
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_STRING:
        return QByteArray(reply->str, qsizetype(reply->len));
    case REDIS_REPLY_INTEGER:
        return QByteArray::number(reply->integer);
    case REDIS_REPLY_NIL:
        return QByteArray("(nil)");
    case REDIS_REPLY_ERROR:
        return Status::internal(QString::fromUtf8(reply->str, qsizetype(reply->len)));
    case REDIS_REPLY_ARRAY: {
        // One element a line: strings as they are, integers in decimal (PUBSUB NUMSUB, KEYS …).
        QByteArrayList lines;
        for (size_t i = 0; i < reply->elements; ++i) {
            const redisReply *element = reply->element[i];
            lines << (element->type == REDIS_REPLY_INTEGER ? QByteArray::number(element->integer)
                      : element->str                       ? QByteArray(element->str, qsizetype(element->len))
                                                           : QByteArray("(nil)"));
        }
        return lines.join('\n');
    }
    default:
        return QByteArray("(reply type ") + QByteArray::number(reply->type) + ")";
    }
}

} // namespace Switchyard::Test
