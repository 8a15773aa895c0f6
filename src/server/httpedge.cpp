#include "httpedge.h"

#include "engine/core/logging.h"

#include <QDir>
#include <QSocketNotifier>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

#include <http_parser.h>

#include <arpa/inet.h>
#include <cerrno>
#include <climits>
#include <cstring>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Switchyard::Server {

using Clock = std::chrono::steady_clock;

struct HttpEdge::Connection
{
    HttpEdge *edge = nullptr;
    QPointer<QTcpSocket> socket;
    QString network;
    http_parser parser{};
    Phase phase = Phase::Fresh;
    Clock::time_point since = Clock::now(); // start of the phase
    Clock::time_point lastByte = Clock::now();
    QByteArray url;
    bool inHeaders = false; // past the request line
    qint64 bodyBytes = 0;
    qint64 bodyLimit = 0;
    bool handedOn = false; // QtHttpServer has the socket (after the TLS handshake)

    struct Refusal
    {
        int status = 0;
        QString message;
        QString field;
    };
    std::optional<Refusal> refusal; // set by a parser callback, acted on after it returns
};

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    default: return "Error";
    }
}

QString formatDuration(std::chrono::milliseconds d)
{
    return d.count() % 1000 == 0 ? QStringLiteral("%1 s").arg(d.count() / 1000) : QStringLiteral("%1 ms").arg(d.count());
}

} // namespace

HttpEdge::HttpEdge(EdgeLimits limits, EdgeHooks hooks, QObject *parent)
    : QTcpServer(parent), m_limits(limits), m_hooks(std::move(hooks))
{
    m_sweep = new QTimer(this);
    const auto shortest = std::min(m_limits.headerTimeout, m_limits.idleTimeout);
    m_sweep->setInterval(std::clamp<std::chrono::milliseconds>(shortest / 4, std::chrono::milliseconds(50),
                                                               std::chrono::milliseconds(1000)));
    connect(m_sweep, &QTimer::timeout, this, &HttpEdge::sweep);
    m_resume = new QTimer(this);
    m_resume->setSingleShot(true);
    m_resume->setInterval(kAcceptBackoff);
    connect(m_resume, &QTimer::timeout, this, [this] {
        if (m_acceptNotifier)
            m_acceptNotifier->setEnabled(true);
    });
}

HttpEdge::~HttpEdge()
{
    shutdown();
}

void HttpEdge::setTls(const QSslConfiguration &configuration)
{
    m_tls = true;
    m_tlsConfiguration = configuration;
}

QString HttpEdge::networkOf(const QHostAddress &peer)
{
    bool isV4 = false;
    const quint32 v4 = peer.toIPv4Address(&isV4); // also for ::ffff:a.b.c.d
    if (isV4)
        return (v4 >> 24) == 127 ? QStringLiteral("127/8") : QHostAddress(v4).toString();
    if (peer.isLoopback())
        return QStringLiteral("127/8"); // ::1 is the same machine
    Q_IPV6ADDR bytes = peer.toIPv6Address();
    std::memset(&bytes.c[8], 0, 8);
    return QHostAddress(bytes).toString() + QStringLiteral("/64");
}

bool HttpEdge::start(const QHostAddress &address, quint16 port)
{
    if (!listen(address, port))
        return false;
    // QTcpServer's own accept notifier stays off: ours pauses on EMFILE instead of spinning.
    pauseAccepting();
    m_acceptNotifier = new QSocketNotifier(socketDescriptor(), QSocketNotifier::Read, this);
    connect(m_acceptNotifier, &QSocketNotifier::activated, this, &HttpEdge::acceptReady);

    rlimit files{};
    const int open = int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::Files | QDir::System).size());
    m_cap = m_limits.maxConnections;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
        m_cap = std::min<qint64>(m_cap, std::max<qint64>(8, qint64(files.rlim_cur) - open - kReservedDescriptors));
    if (m_cap < m_limits.maxConnections)
        qCInfo(lcCore).noquote() << QStringLiteral("admin API: at most %1 connections (the descriptor limit is %2)")
                                        .arg(m_cap)
                                        .arg(qint64(files.rlim_cur));
    m_sweep->start();
    return true;
}

void HttpEdge::shutdown()
{
    delete m_acceptNotifier; // before the descriptor it watches closes
    m_acceptNotifier = nullptr;
    m_resume->stop();
    m_sweep->stop();
    close();
}

void HttpEdge::acceptReady()
{
    for (int i = 0; i < 64 && m_acceptNotifier; ++i) {
        const int fd = ::accept4(int(socketDescriptor()), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            adopt(fd);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return;
        // Out of descriptors (or memory): make room and try again shortly, never in a loop.
        const int error = errno;
        if (m_acceptFailures++ % 1000 == 0)
            qCWarning(lcCore).noquote() << QStringLiteral("admin API: cannot accept a connection (%1, %2 connections open); "
                                                          "closing the oldest idle one and pausing accepts for %3")
                                               .arg(QString::fromLocal8Bit(std::strerror(error)))
                                               .arg(m_connections.size())
                                               .arg(formatDuration(kAcceptBackoff));
        evictOldestIdle();
        m_acceptNotifier->setEnabled(false);
        m_resume->start();
        return;
    }
}

void HttpEdge::adopt(int descriptor)
{
    sockaddr_storage peer{};
    socklen_t length = sizeof(peer);
    QHostAddress address;
    if (::getpeername(descriptor, reinterpret_cast<sockaddr *>(&peer), &length) == 0)
        address.setAddress(reinterpret_cast<sockaddr *>(&peer));
    const QString network = networkOf(address);
    purge();
    const bool room = (int(m_connections.size()) < m_cap || evictOldestIdle())
                      && (countIn(network) < m_limits.maxPerNetwork || evictOldestIdle(network));
    if (!room) {
        ::close(descriptor); // every connection is busy: this one waits for none of them
        return;
    }
    QTcpSocket *socket = m_tls ? new QSslSocket(this) : new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        ::close(descriptor);
        delete socket;
        return;
    }
    auto connection = std::make_unique<Connection>();
    connection->edge = this;
    connection->socket = socket;
    connection->network = network;
    http_parser_init(&connection->parser, HTTP_REQUEST);
    connection->parser.data = connection.get();
    m_connections[socket] = std::move(connection); // replaces a stale entry at a reused address
    track(socket);
    if (auto *tls = qobject_cast<QSslSocket *>(socket)) {
        tls->setSslConfiguration(m_tlsConfiguration);
        connect(tls, &QSslSocket::encrypted, this, [this, tls] {
            if (auto it = m_connections.find(tls); it != m_connections.end())
                it->second->handedOn = true;
            addPendingConnection(tls);
        });
        connect(tls, &QSslSocket::sslErrors, tls, [tls] { tls->abort(); });
        tls->startServerEncryption();
    } else {
        m_connections.at(socket)->handedOn = true;
        addPendingConnection(socket); // QtHttpServer connects its readyRead after ours
    }
}

QTcpSocket *HttpEdge::nextPendingConnection()
{
    QTcpSocket *socket = QTcpServer::nextPendingConnection();
    pauseAccepting(); // the base class turned its accept notifier back on
    return socket;
}

void HttpEdge::track(QTcpSocket *socket)
{
    // First on readyRead: the bytes are judged before QtHttpServer buffers them.
    connect(socket, &QIODevice::readyRead, this, [this, socket] {
        if (auto it = m_connections.find(socket); it != m_connections.end())
            onReadyRead(*it->second);
    });
    connect(socket, &QIODevice::bytesWritten, this, [this, socket] {
        if (auto it = m_connections.find(socket); it != m_connections.end())
            onWritten(*it->second);
    });
    connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QObject::destroyed, this, [this, socket] { m_connections.erase(socket); });
}

void HttpEdge::onReadyRead(Connection &c)
{
    QTcpSocket *socket = c.socket;
    if (!socket)
        return;
    if (c.phase == Phase::Refused) {
        socket->skip(socket->bytesAvailable());
        return;
    }
    if (c.phase == Phase::Upgraded)
        return;
    c.lastByte = Clock::now();
    // QtHttpServer reads inside a transaction: what is available now is what it has not seen.
    const QByteArray bytes = socket->peek(socket->bytesAvailable());
    static const http_parser_settings settings = [] {
        http_parser_settings s{};
        s.on_message_begin = &HttpEdge::onMessageBegin;
        s.on_url = &HttpEdge::onUrl;
        s.on_header_field = &HttpEdge::onHeaderField;
        s.on_headers_complete = &HttpEdge::onHeadersComplete;
        s.on_body = &HttpEdge::onBody;
        s.on_message_complete = &HttpEdge::onMessageComplete;
        return s;
    }();
    http_parser_execute(&c.parser, &settings, bytes.constData(), size_t(bytes.size()));
    if (c.refusal) {
        const Connection::Refusal refusal = *c.refusal;
        refuse(c, refusal.status, refusal.message, refusal.field);
        return;
    }
    if (c.parser.upgrade) {
        // The rest of this socket's bytes are WebSocket frames: the stream's business.
        c.phase = Phase::Upgraded;
        disconnect(socket, &QIODevice::readyRead, this, nullptr);
        return;
    }
    const auto error = http_errno(c.parser.http_errno);
    if (error == HPE_HEADER_OVERFLOW && !c.inHeaders) // the parser counts before it hands the URL over
        refuse(c, 414, QStringLiteral("URL longer than %1 bytes").arg(kMaxUrlBytes), QStringLiteral("url"));
    else if (error == HPE_HEADER_OVERFLOW)
        refuse(c, 431, QStringLiteral("request head larger than %1 bytes").arg(HTTP_MAX_HEADER_SIZE));
    else if (error != HPE_OK)
        refuse(c, 400, QStringLiteral("malformed HTTP request: %1").arg(QString::fromLatin1(http_errno_description(error))));
}

int HttpEdge::onMessageBegin(http_parser *parser)
{
    auto &c = *static_cast<Connection *>(parser->data);
    c.phase = Phase::Head;
    c.since = Clock::now();
    c.url.clear();
    c.inHeaders = false;
    c.bodyBytes = 0;
    return 0;
}

int HttpEdge::onHeaderField(http_parser *parser, const char *, size_t)
{
    static_cast<Connection *>(parser->data)->inHeaders = true;
    return 0;
}

int HttpEdge::onUrl(http_parser *parser, const char *at, size_t length)
{
    auto &c = *static_cast<Connection *>(parser->data);
    if (c.url.size() + qint64(length) > kMaxUrlBytes) {
        c.refusal = Connection::Refusal{414, QStringLiteral("URL longer than %1 bytes").arg(kMaxUrlBytes), QStringLiteral("url")};
        return 1;
    }
    c.url.append(at, qsizetype(length));
    return 0;
}

int HttpEdge::onHeadersComplete(http_parser *parser)
{
    auto &c = *static_cast<Connection *>(parser->data);
    c.phase = Phase::Body;
    c.since = Clock::now();
    const qsizetype query = c.url.indexOf('?');
    const QByteArray path = query < 0 ? c.url : c.url.left(query);
    c.bodyLimit = c.edge->m_hooks.bodyLimit(http_method_str(http_method(parser->method)), path);
    const bool chunked = parser->flags & F_CHUNKED;
    if (!chunked && parser->content_length != ULLONG_MAX && parser->content_length > quint64(c.bodyLimit)) {
        c.refusal = Connection::Refusal{413, QStringLiteral("body: larger than the limit of %1 bytes ([server] MAX_BODY_SIZE)").arg(c.bodyLimit),
                                        QStringLiteral("body")};
        return 1; // the parser stops; nothing of the body is read
    }
    return 0;
}

int HttpEdge::onBody(http_parser *parser, const char *, size_t length)
{
    auto &c = *static_cast<Connection *>(parser->data);
    c.bodyBytes += qint64(length);
    if (c.bodyBytes > c.bodyLimit) { // a chunked body grew past the limit
        c.refusal = Connection::Refusal{413, QStringLiteral("body: larger than the limit of %1 bytes ([server] MAX_BODY_SIZE)").arg(c.bodyLimit),
                                        QStringLiteral("body")};
        return 1;
    }
    return 0;
}

int HttpEdge::onMessageComplete(http_parser *parser)
{
    auto &c = *static_cast<Connection *>(parser->data);
    c.phase = Phase::Handling; // until the answer is written
    c.since = Clock::now();
    return 0;
}

void HttpEdge::onWritten(Connection &c)
{
    QTcpSocket *socket = c.socket;
    if (!socket || socket->bytesToWrite() > 0)
        return;
    if (c.phase == Phase::Handling) {
        c.phase = Phase::Idle;
        c.since = Clock::now();
    } else if (c.phase == Phase::Refused && !m_tls) {
        // The refusal is out: tell the peer we are done, keep discarding what it still sends so
        // the close is not a reset that could destroy the answer on its way.
        ::shutdown(int(socket->socketDescriptor()), SHUT_WR);
    }
}

void HttpEdge::refuse(Connection &c, int status, const QString &message, const QString &field)
{
    QTcpSocket *socket = c.socket;
    c.phase = Phase::Refused;
    c.since = Clock::now();
    c.refusal.reset();
    // QtHttpServer sees nothing more of this connection; what it has buffered is dropped.
    disconnect(socket, &QIODevice::readyRead, nullptr, nullptr);
    if (socket->isTransactionStarted())
        socket->rollbackTransaction();
    socket->skip(socket->bytesAvailable());
    connect(socket, &QIODevice::readyRead, this, [this, socket] {
        if (auto it = m_connections.find(socket); it != m_connections.end())
            onReadyRead(*it->second);
    });
    const QByteArray body = m_hooks.errorBody(status, message, field);
    QByteArray answer = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status)
                        + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                        + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    socket->write(answer);
}

void HttpEdge::purge()
{
    // QWebSocketServer disconnects every signal of a socket it upgrades, our `destroyed` too.
    std::erase_if(m_connections, [](const auto &entry) { return entry.second->socket.isNull(); });
}

void HttpEdge::sweep()
{
    purge();
    const auto now = Clock::now();
    std::vector<QTcpSocket *> close, timedOut, drained;
    for (const auto &[socket, c] : m_connections) {
        switch (c->phase) {
        case Phase::Fresh:
            if (now - c->since > m_limits.headerTimeout)
                close.push_back(socket);
            break;
        case Phase::Idle:
            if (now - c->since > m_limits.idleTimeout)
                close.push_back(socket);
            break;
        case Phase::Head:
            if (now - c->since > m_limits.headerTimeout)
                timedOut.push_back(socket);
            break;
        case Phase::Body:
            if (now - c->lastByte > m_limits.idleTimeout)
                timedOut.push_back(socket);
            break;
        case Phase::Refused:
            if (now - c->since > kLingerTime)
                drained.push_back(socket);
            break;
        case Phase::Handling:
        case Phase::Upgraded:
            break;
        }
    }
    for (QTcpSocket *socket : close)
        socket->abort();
    for (QTcpSocket *socket : timedOut) {
        if (auto it = m_connections.find(socket); it != m_connections.end())
            refuse(*it->second, 408,
                   it->second->phase == Phase::Head
                       ? QStringLiteral("the request head did not arrive within %1").arg(formatDuration(m_limits.headerTimeout))
                       : QStringLiteral("no byte of the body for %1").arg(formatDuration(m_limits.idleTimeout)));
    }
    for (QTcpSocket *socket : drained)
        socket->abort();
}

bool HttpEdge::evictOldestIdle(const QString &network)
{
    purge();
    QTcpSocket *oldest = nullptr;
    Clock::time_point oldestSince = Clock::time_point::max();
    for (const auto &[socket, c] : m_connections) {
        const bool idle = c->phase == Phase::Fresh || c->phase == Phase::Idle || c->phase == Phase::Head
                          || c->phase == Phase::Refused;
        if (idle && (network.isEmpty() || c->network == network) && c->since < oldestSince) {
            oldest = socket;
            oldestSince = c->since;
        }
    }
    if (!oldest)
        return false;
    m_connections.erase(oldest); // counted out now; the socket goes on the next loop turn
    disconnect(oldest, nullptr, this, nullptr);
    oldest->abort();
    return true;
}

int HttpEdge::countIn(const QString &network) const
{
    return int(std::count_if(m_connections.begin(), m_connections.end(),
                             [&](const auto &entry) { return entry.second->network == network; }));
}

} // namespace Switchyard::Server
