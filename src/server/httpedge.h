#pragma once

// The admin API's edge: the listening socket and every connection until QtHttpServer may see its
// bytes. QtHttpServer 6.4 buffers a whole request (its socket transaction and the body) before a
// handler runs, never times a connection out, and spins on accept() when descriptors run out; the
// edge does what it cannot:
//
// - accept() is ours (a notifier on the listening socket): EMFILE/ENFILE close the oldest idle
//   connection and pause accepting for kAcceptBackoff instead of busy-looping;
// - every connection's request framing is followed by a RequestFramer (http_parser underneath) on
//   bytes peeked before QtHttpServer reads them: a request head over http_parser's 80 KiB answers
//   431, a URL over kMaxUrlBytes 414, a Content-Length over the route's body limit 413 at once, a
//   chunked body growing past it 413 when it does; the connection is then half-closed and
//   drained (its bytes discarded, so memory stays flat) until the peer closes or kLingerTime
//   passes;
// - a request is judged on its head, before its body is read: the server's hooks refuse a missing
//   or wrong token (or an event without a signature), and the bodies all connections are sending
//   share bodyBudget bytes (503 when a body would not fit);
// - only the WebSocket stream may switch protocols (EdgeHooks::mayUpgrade); any other Upgrade is
//   answered 400 — an upgraded connection leaves the framing, so it must be the stream;
// - a request head must arrive within headerTimeout of its first byte (or of the connection); a
//   keep-alive connection with no request in progress, or a body with no byte for idleTimeout, is
//   closed, and a body must come at minBodyRate bytes/s on average once headerTimeout has passed;
// - at most maxConnections connections (bounded further by RLIMIT_NOFILE), maxPerNetwork from one
//   network (an IPv4 address, all of 127.0.0.0/8 as one, an IPv6 /64): reaching either closes
//   that scope's oldest idle connection first; when none is idle, up to `reserved` more
//   connections are taken whose requests must authenticate (an operator still gets in while a
//   network fills its slots with slow requests); beyond that a connection is closed.
//
// A WebSocket upgrade leaves the edge's framing (the stream has its own rules) but still counts.
// Threads: the edge lives on the server's thread; everything here runs there.

#include <QHostAddress>
#include <QPointer>
#include <QSslConfiguration>
#include <QTcpServer>

#include "requestframer.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>

class QSocketNotifier;
class QTcpSocket;
class QTimer;

namespace Switchyard::Server {

struct EdgeLimits
{
    std::chrono::milliseconds headerTimeout{10000};
    std::chrono::milliseconds idleTimeout{60000};
    int maxConnections = 512;
    int maxPerNetwork = 128;
    int reserved = 16;                 // connections beyond the caps, for authenticated requests
    qint64 minBodyRate = 16 * 1024;    // bytes/s a body averages once headerTimeout has passed; 0: any
    qint64 bodyBudget = 128ll << 20;   // bytes of request bodies being received at once, all connections
};

// What the edge needs from the server.
struct EdgeHooks
{
    // The route's body limit.
    std::function<qint64(const QByteArray &method, const QByteArray &path)> bodyLimit;
    // The JSON body of a refusal.
    std::function<QByteArray(int status, const QString &message, const QString &field)> errorBody;
    // A refusal decided on the head (no or a wrong token, an event without a signature); optional.
    std::function<std::optional<Refusal>(const RequestHead &head, const QHostAddress &peer)> admit;
    // The head carries a valid token (a reserved connection serves only such requests); optional.
    std::function<bool(const RequestHead &head)> authenticated;
    // The request may switch protocols (the stream's WebSocket); none may without it.
    std::function<bool(const RequestHead &head)> mayUpgrade;
};

class HttpEdge : public QTcpServer
{
    Q_OBJECT
public:
    static constexpr qint64 kMaxUrlBytes = RequestFramer::kMaxUrlBytes;
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
    void refuse(Connection &connection, const Refusal &refusal);
    void sweep();
    void purge();
    // Closes the oldest connection with no request being handled, among those of `network`
    // (empty: all); false when there is none.
    bool evictOldestIdle(const QString &network = QString());
    int countIn(const QString &network) const; // regular (not reserved) connections of a network
    int countReserved() const;
    FramerPolicy policyFor(Connection &connection);
    std::optional<Refusal> admit(Connection &connection, const RequestHead &head);
    // Charges a body's bytes to the budget; false when it is spent.
    bool charge(Connection &connection, qint64 bytes);
    Refusal budgetSpent() const;
    // A body behind MIN_BODY_RATE once its grace (headerTimeout) is over.
    bool tooSlow(const Connection &connection, std::chrono::steady_clock::time_point now) const;

    const EdgeLimits m_limits;
    const EdgeHooks m_hooks;
    int m_cap = 0;
    bool m_tls = false;
    QSslConfiguration m_tlsConfiguration;
    QSocketNotifier *m_acceptNotifier = nullptr; // child
    QTimer *m_sweep = nullptr;                   // child
    QTimer *m_resume = nullptr;                  // child
    qint64 m_buffered = 0; // body bytes charged by connections (before m_connections: they give it back)
    std::map<QTcpSocket *, std::unique_ptr<Connection>> m_connections;
    qint64 m_acceptFailures = 0;
};

} // namespace Switchyard::Server
