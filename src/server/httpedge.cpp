#include "httpedge.h"

#include "engine/core/logging.h"

#include <QDir>
#include <QSocketNotifier>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

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
    explicit Connection(qint64 &budgetUsed) : buffered(budgetUsed) {}
    ~Connection() { buffered -= charged; }
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    HttpEdge *edge = nullptr;
    QPointer<QTcpSocket> socket;
    QString network;
    QHostAddress peer;
    std::unique_ptr<RequestFramer> framer;
    Phase phase = Phase::Fresh;
    Clock::time_point since = Clock::now(); // start of the phase
    Clock::time_point lastByte = Clock::now();
    bool reserve = false;  // taken beyond the caps: only authenticated requests are served
    bool handedOn = false; // QtHttpServer has the socket (after the TLS handshake)
    qint64 &buffered;      // the edge's m_buffered
    qint64 charged = 0;    // body bytes of the current request charged to it
};

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
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
    const int regular = int(m_connections.size()) - countReserved();
    const bool room = (regular < m_cap || evictOldestIdle())
                      && (countIn(network) < m_limits.maxPerNetwork || evictOldestIdle(network));
    const bool reserve = !room && countReserved() < m_limits.reserved;
    if (!room && !reserve) {
        ::close(descriptor); // every connection is busy: this one waits for none of them
        return;
    }
    QTcpSocket *socket = m_tls ? new QSslSocket(this) : new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        ::close(descriptor);
        delete socket;
        return;
    }
    auto connection = std::make_unique<Connection>(m_buffered);
    connection->edge = this;
    connection->socket = socket;
    connection->network = network;
    connection->peer = address;
    connection->reserve = reserve;
    connection->framer = std::make_unique<RequestFramer>(policyFor(*connection));
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

FramerPolicy HttpEdge::policyFor(Connection &connection)
{
    FramerPolicy policy;
    policy.bodyLimit = [this](const RequestHead &head) { return m_hooks.bodyLimit(head.method, head.path); };
    policy.admit = [this, c = &connection](const RequestHead &head) { return admit(*c, head); };
    policy.mayUpgrade = [this](const RequestHead &head) { return m_hooks.mayUpgrade && m_hooks.mayUpgrade(head); };
    return policy;
}

Refusal HttpEdge::budgetSpent() const
{
    return Refusal{503,
                   QStringLiteral("body: the server is receiving %1 bytes of request bodies already ([server] BODY_BUDGET = %2); "
                                  "retry shortly")
                       .arg(m_buffered)
                       .arg(m_limits.bodyBudget),
                   QStringLiteral("body"),
                   {{"Retry-After", "1"}}};
}

std::optional<Refusal> HttpEdge::admit(Connection &c, const RequestHead &head)
{
    if (c.reserve && !(m_hooks.authenticated && m_hooks.authenticated(head)))
        return Refusal{503,
                       QStringLiteral("too many connections from your network (%1, [server] MAX_CONNECTIONS_PER_ADDRESS) or "
                                      "in all ([server] MAX_CONNECTIONS): the connections kept in reserve serve only "
                                      "requests with a valid token")
                           .arg(c.network),
                       QString(),
                       {{"Retry-After", "1"}}};
    if (m_hooks.admit)
        if (std::optional<Refusal> refused = m_hooks.admit(head, c.peer))
            return refused;
    // A declared body is charged whole before a byte of it is read; a chunked one as it comes.
    if (!head.chunked && head.contentLength > 0 && !charge(c, head.contentLength))
        return budgetSpent();
    return std::nullopt;
}

bool HttpEdge::charge(Connection &c, qint64 bytes)
{
    if (bytes <= c.charged)
        return true;
    if (m_buffered + (bytes - c.charged) > m_limits.bodyBudget)
        return false;
    m_buffered += bytes - c.charged;
    c.charged = bytes;
    return true;
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
    const auto now = Clock::now();
    c.lastByte = now;
    // QtHttpServer reads inside a transaction: what is available now is what it has not seen.
    const QByteArray bytes = socket->peek(socket->bytesAvailable());
    const RequestFramer::Phase framed = c.framer->feed(bytes.constData(), size_t(bytes.size()));
    if (framed == RequestFramer::Phase::Body && c.framer->head().chunked && !charge(c, c.framer->bodyBytes())) {
        refuse(c, budgetSpent());
        return;
    }
    const Phase previous = c.phase;
    Phase next = c.phase;
    switch (framed) {
    case RequestFramer::Phase::Waiting: break; // Fresh or Idle, as it was
    case RequestFramer::Phase::Head: next = Phase::Head; break;
    case RequestFramer::Phase::Body: next = Phase::Body; break;
    case RequestFramer::Phase::Complete: next = Phase::Handling; break; // until the answer is written
    case RequestFramer::Phase::Upgraded:
        // The rest of this socket's bytes are WebSocket frames: the stream's business.
        c.phase = Phase::Upgraded;
        c.buffered -= c.charged; // a stream receives no body
        c.charged = 0;
        disconnect(socket, &QIODevice::readyRead, this, nullptr);
        return;
    case RequestFramer::Phase::Refused: refuse(c, *c.framer->refusal()); return;
    }
    if (next != c.phase) {
        c.phase = next;
        c.since = now;
        // The head is admitted: a client that waits for it may send the body now (curl does for
        // bodies over 1 MiB; a refusal reaches it before it has sent any).
        // Not while an earlier pipelined request waits for its answer: the 100 would come first.
        if (next == Phase::Body && previous != Phase::Handling && c.framer->head().expectContinue)
            socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    }
}

void HttpEdge::onWritten(Connection &c)
{
    QTcpSocket *socket = c.socket;
    if (!socket || socket->bytesToWrite() > 0)
        return;
    if (c.phase == Phase::Handling) {
        c.phase = Phase::Idle;
        c.since = Clock::now();
        c.buffered -= c.charged; // the answer is out: QtHttpServer has let go of the body
        c.charged = 0;
    } else if (c.phase == Phase::Refused && !m_tls) {
        // The refusal is out: tell the peer we are done, keep discarding what it still sends so
        // the close is not a reset that could destroy the answer on its way.
        ::shutdown(int(socket->socketDescriptor()), SHUT_WR);
    }
}

void HttpEdge::refuse(Connection &c, const Refusal &refusal)
{
    QTcpSocket *socket = c.socket;
    c.phase = Phase::Refused;
    c.since = Clock::now();
    // QtHttpServer sees nothing more of this connection; what it has buffered is dropped.
    disconnect(socket, &QIODevice::readyRead, nullptr, nullptr);
    if (socket->isTransactionStarted())
        socket->rollbackTransaction();
    socket->skip(socket->bytesAvailable());
    connect(socket, &QIODevice::readyRead, this, [this, socket] {
        if (auto it = m_connections.find(socket); it != m_connections.end())
            onReadyRead(*it->second);
    });
    const QByteArray body = m_hooks.errorBody(refusal.status, refusal.message, refusal.field);
    QByteArray answer = "HTTP/1.1 " + QByteArray::number(refusal.status) + ' ' + reasonPhrase(refusal.status)
                        + "\r\nContent-Type: application/json\r\nConnection: close\r\n";
    for (const auto &[name, value] : refusal.headers)
        answer += name + ": " + value + "\r\n";
    answer += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
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
            if (now - c->lastByte > m_limits.idleTimeout || tooSlow(*c, now))
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
        if (auto it = m_connections.find(socket); it != m_connections.end()) {
            Connection &c = *it->second;
            QString why = c.phase == Phase::Head
                              ? QStringLiteral("the request head did not arrive within %1").arg(formatDuration(m_limits.headerTimeout))
                          : now - c.lastByte > m_limits.idleTimeout
                              ? QStringLiteral("no byte of the body for %1").arg(formatDuration(m_limits.idleTimeout))
                              : QStringLiteral("the body came at less than %1 bytes/s ([server] MIN_BODY_RATE)").arg(m_limits.minBodyRate);
            refuse(c, Refusal{408, std::move(why), QString(), {}});
        }
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
                             [&](const auto &entry) { return !entry.second->reserve && entry.second->network == network; }));
}

int HttpEdge::countReserved() const
{
    return int(std::count_if(m_connections.begin(), m_connections.end(), [](const auto &entry) { return entry.second->reserve; }));
}

bool HttpEdge::tooSlow(const Connection &c, Clock::time_point now) const
{
    // After a grace of headerTimeout, the body keeps pace: bytes >= minBodyRate x (time since its head - grace).
    const auto late = std::chrono::duration_cast<std::chrono::milliseconds>(now - c.since - m_limits.headerTimeout);
    return m_limits.minBodyRate > 0 && late.count() > 0 && c.framer->bodyBytes() * 1000 < m_limits.minBodyRate * late.count();
}

} // namespace Switchyard::Server
