#pragma once

// The admin API's edge: the listening socket and every connection until QtHttpServer may see its
// bytes. QtHttpServer 6.4 buffers a whole request (its socket transaction and the body) before a
// handler runs, never times a connection out, and spins on accept() when descriptors run out; the
// edge does what it cannot:
//
// - accept() is ours (a notifier on the listening socket): EMFILE/ENFILE close the oldest idle
//   connection and pause accepting for kAcceptBackoff instead of busy-looping;
// - every connection's request framing is followed by http_parser (the maintained C parser) on
//   bytes peeked before QtHttpServer reads them: a request head over http_parser's 80 KiB answers 431, a
//   URL over kMaxUrlBytes 414, a Content-Length over the route's body limit 413 at once, a chunked
//   body growing past it 413 when it does; the connection is then half-closed and drained (its
//   bytes discarded, so memory stays flat) until the peer closes or kLingerTime passes;
// - a request head must arrive within headerTimeout of its first byte (or of the connection); a
//   keep-alive connection with no request in progress, or a body with no byte for idleTimeout, is
//   closed;
// - at most maxConnections connections (bounded further by RLIMIT_NOFILE), maxPerNetwork from one
//   network (an IPv4 address, all of 127.0.0.0/8 as one, an IPv6 /64): reaching either closes
//   that scope's oldest idle connection first; a connection that finds no room is closed.
//
// A WebSocket upgrade leaves the edge's framing (the stream has its own rules) but still counts.
// Threads: the edge lives on the server's thread; everything here runs there.

#include <QHostAddress>
#include <QPointer>
#include <QSslConfiguration>
#include <QTcpServer>

#include <chrono>
#include <functional>
#include <map>
#include <memory>

class QSocketNotifier;
class QTcpSocket;
class QTimer;
struct http_parser;

namespace Switchyard::Server {

struct EdgeLimits
{
    std::chrono::milliseconds headerTimeout{10000};
    std::chrono::milliseconds idleTimeout{60000};
    int maxConnections = 512;
    int maxPerNetwork = 128;
};

// What the edge needs from the server: a route's body limit, and the JSON body of a refusal.
struct EdgeHooks
{
    std::function<qint64(const QByteArray &method, const QByteArray &path)> bodyLimit;
    std::function<QByteArray(int status, const QString &message, const QString &field)> errorBody;
};

class HttpEdge : public QTcpServer
{
    Q_OBJECT
public:
    static constexpr qint64 kMaxUrlBytes = 8 * 1024;
    static constexpr std::chrono::milliseconds kAcceptBackoff{100};
    static constexpr std::chrono::milliseconds kLingerTime{2000};
    // Descriptors left to the rest of the process (engine files, Redis, the pool) when the
    // connection cap is derived from RLIMIT_NOFILE.
    static constexpr int kReservedDescriptors = 48;

    HttpEdge(EdgeLimits limits, EdgeHooks hooks, QObject *parent = nullptr);
    ~HttpEdge() override;

    // TLS: connections are handed on once their handshake ends (within headerTimeout).
    void setTls(const QSslConfiguration &configuration);
    // Binds (QTcpServer::listen) and takes accepting over.
    bool start(const QHostAddress &address, quint16 port);
    // Stops accepting and closes the listening socket (connections stay with their owners).
    void shutdown();

    int connectionCap() const { return m_cap; }
    // The network a peer counts against: "127/8", an IPv4 address, or an IPv6 /64 prefix.
    static QString networkOf(const QHostAddress &address);

    // QtHttpServer takes its sockets here; the base class would turn its own accepting back on.
    QTcpSocket *nextPendingConnection() override;

private:
    struct Connection;
    enum class Phase { Fresh, Idle, Head, Body, Handling, Upgraded, Refused };

    void acceptReady();
    void adopt(int descriptor);
    void track(QTcpSocket *socket);
    void onReadyRead(Connection &connection);
    void onWritten(Connection &connection);
    void refuse(Connection &connection, int status, const QString &message, const QString &field = QString());
    void sweep();
    void purge();
    // Closes the oldest connection with no request being handled, among those of `network`
    // (empty: all); false when there is none.
    bool evictOldestIdle(const QString &network = QString());
    int countIn(const QString &network) const;

    static int onMessageBegin(::http_parser *parser);
    static int onUrl(::http_parser *parser, const char *at, size_t length);
    static int onHeaderField(::http_parser *parser, const char *at, size_t length);
    static int onHeadersComplete(::http_parser *parser);
    static int onBody(::http_parser *parser, const char *at, size_t length);
    static int onMessageComplete(::http_parser *parser);

    const EdgeLimits m_limits;
    const EdgeHooks m_hooks;
    int m_cap = 0;
    bool m_tls = false;
    QSslConfiguration m_tlsConfiguration;
    QSocketNotifier *m_acceptNotifier = nullptr; // child
    QTimer *m_sweep = nullptr;                   // child
    QTimer *m_resume = nullptr;                  // child
    std::map<QTcpSocket *, std::unique_ptr<Connection>> m_connections;
    qint64 m_acceptFailures = 0;
};

} // namespace Switchyard::Server
