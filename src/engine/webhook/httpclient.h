#pragma once

// The webhook delivery loop's HTTP/1.1 client: requests on sockets of the calling thread, with
// no hop to another thread per request (QNetworkAccessManager's costs most of a delivery's time
// on two cores, docs/benchmarks.md). Connections are kept per destination and reused
// (keep-alive); the answer is parsed with libhttp-parser (Content-Length, chunked, or up to the
// close), read up to a bound. Not a general client: no redirects (a webhook's 3xx is its answer),
// no cookies, no content decoding (it asks for none), no pipelining. Single-threaded: every call,
// and every callback, on the thread that made the client.

#include <QByteArray>
#include <QList>
#include <QNetworkProxy>
#include <QPair>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace Switchyard::Webhook {

// Where a request's connection goes. An idle connection is reused only for the same destination.
struct HttpDestination
{
    qint64 pool = 0;  // connections are never shared across pools (the delivery loop: one per hook)
    QString host;     // what the socket connects to: the vetted address literal (or a name through a proxy)
    quint16 port = 0;
    bool tls = false;
    QString peerName; // TLS: SNI, and the name the certificate must carry
    bool verifyPeer = true;
    QNetworkProxy proxy{QNetworkProxy::NoProxy}; // applied to the socket: SOCKS5, or an HTTP proxy's CONNECT tunnel

    bool operator==(const HttpDestination &) const = default;
};

// One request and, once `finished` has run, its answer. Owned by the caller, who keeps it where
// it is until it finished or was aborted.
struct HttpExchange
{
    QByteArray method;
    QByteArray target; // the request target: "/path?query", or the absolute URL through a plain HTTP proxy
    QList<QPair<QByteArray, QByteArray>> headers; // sent as given (Host first); Content-Length is added
    QByteArray body;
    qint64 maxBody = 1 << 20; // answer bytes kept; past them the connection is closed, `truncated` set
    std::function<void()> finished; // runs once, from the socket's events or inside abort()

    int status = 0; // 0: no answer head arrived
    QList<QPair<QByteArray, QByteArray>> responseHeaders;
    QByteArray responseBody;
    bool truncated = false;
    QString error; // why it ended without a complete answer (empty when it has one)
    bool resent = false; // a kept connection lost it before any answer: it went again, on a new one
    bool done = false;
};

class HttpClient
{
public:
    HttpClient();
    ~HttpClient(); // closes every connection; running exchanges are left unfinished
    HttpClient(const HttpClient &) = delete;
    HttpClient &operator=(const HttpClient &) = delete;

    // Sends `exchange` on an idle connection to `to`, or on a new one. A request that a kept
    // connection loses before any answer byte (the receiver closed it while idle) is sent once more
    // on a new connection: it may then arrive twice, as any at-least-once delivery may.
    void start(const HttpDestination &to, HttpExchange &exchange);
    // Ends a running exchange now with `error` (its finished() runs before this returns) and
    // closes its connection. Nothing when it is not running.
    void abort(HttpExchange &exchange, const QString &error);
    // Closes the idle connections of `pool`, or those idle for longer than `idle`.
    void closePool(qint64 pool);
    void closeIdle(std::chrono::milliseconds idle);
    // Deletes closed connections; call from outside the socket's signals (after a round of events).
    void reap();

    int openConnections() const; // busy and idle, for the tests

private:
    struct Connection;
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace Switchyard::Webhook
