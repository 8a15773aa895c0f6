#include "httpclient.h"

#include <QElapsedTimer>
#include <QSslSocket>
#include <QTcpSocket>

#include <http_parser.h>

#include <list>
#include <map>
#include <vector>

namespace Switchyard::Webhook {

namespace {
constexpr qint64 kReadChunk = 64 * 1024; // also the socket's read buffer: a gigabyte answer is read this much at a time
}

struct HttpClient::Connection
{
    HttpDestination to;
    std::unique_ptr<QTcpSocket> socket;
    std::list<std::unique_ptr<Connection>>::iterator self; // in Impl::connections, while open
    http_parser parser{};
    HttpExchange *exchange = nullptr;
    QByteArray pending;    // the request, until the socket is connected (and encrypted)
    bool ready = false;    // connected (and encrypted)
    bool served = false;   // an exchange ended on it before the current one
    bool answered = false; // an answer byte of the current exchange arrived
    bool complete = false; // the parser saw the whole answer
    bool keepAlive = false;
    bool closed = false;   // waiting in Impl::dead
    QByteArray field;      // the header being parsed
    QByteArray value;
    bool inValue = false;
    QElapsedTimer idleSince;

    ~Connection()
    {
        if (socket)
            socket->disconnect(); // its last signals (deletion aborts it) reach no one
    }
};

struct HttpClient::Impl
{
    std::list<std::unique_ptr<Connection>> connections; // open: busy or idle
    std::multimap<qint64, Connection *> idle;            // by pool
    std::vector<std::unique_ptr<Connection>> dead;       // closed, deleted by reap()

    static const http_parser_settings &settings();

    Connection *takeIdle(const HttpDestination &to);
    Connection *open(const HttpDestination &to);
    void send(Connection &c, HttpExchange &e);
    void readable(Connection &c);
    void ended(Connection &c, const QString &error);
    void finish(Connection &c, const QString &error);
    void rest(Connection &c);
    void close(Connection &c);
    void forgetIdle(Connection &c);
};

namespace {

void resetParser(http_parser &parser, void *data)
{
    http_parser_init(&parser, HTTP_RESPONSE);
    parser.data = data;
}

QByteArray requestBytes(const HttpExchange &e)
{
    QByteArray out;
    out.reserve(256 + e.body.size() + e.headers.size() * 48);
    out += e.method + ' ' + e.target + " HTTP/1.1\r\n";
    for (const auto &[name, value] : e.headers)
        out += name + ": " + value + "\r\n";
    if (!e.body.isEmpty() || (e.method != "GET" && e.method != "HEAD"))
        out += "Content-Length: " + QByteArray::number(e.body.size()) + "\r\n";
    out += "\r\n";
    out += e.body;
    return out;
}

// A header that could end the head early (a line break in a stored Authorization, say).
QString unsafeHeader(const HttpExchange &e)
{
    const auto breaks = [](const QByteArray &b) { return b.contains('\r') || b.contains('\n'); };
    if (breaks(e.method) || breaks(e.target) || e.target.contains(' '))
        return QStringLiteral("the request line contains a space or line break");
    for (const auto &[name, value] : e.headers)
        if (breaks(name) || breaks(value) || name.isEmpty() || name.contains(':'))
            return QStringLiteral("the header %1 contains a line break or colon").arg(QString::fromLatin1(name.left(64)));
    return QString();
}

} // namespace

const http_parser_settings &HttpClient::Impl::settings()
{
    static const http_parser_settings s = [] {
        http_parser_settings s{};
        s.on_header_field = [](http_parser *p, const char *at, size_t length) {
            Connection &c = *static_cast<Connection *>(p->data);
            if (c.inValue) {
                c.exchange->responseHeaders.append({c.field, c.value});
                c.field.clear();
                c.value.clear();
                c.inValue = false;
            }
            c.field.append(at, qsizetype(length));
            return 0;
        };
        s.on_header_value = [](http_parser *p, const char *at, size_t length) {
            Connection &c = *static_cast<Connection *>(p->data);
            c.inValue = true;
            c.value.append(at, qsizetype(length));
            return 0;
        };
        s.on_headers_complete = [](http_parser *p) {
            Connection &c = *static_cast<Connection *>(p->data);
            if (c.inValue || !c.field.isEmpty())
                c.exchange->responseHeaders.append({c.field, c.value});
            c.field.clear();
            c.value.clear();
            c.inValue = false;
            c.exchange->status = int(p->status_code);
            return 0;
        };
        s.on_body = [](http_parser *p, const char *at, size_t length) {
            Connection &c = *static_cast<Connection *>(p->data);
            HttpExchange &e = *c.exchange;
            const qint64 room = std::max<qint64>(0, e.maxBody - e.responseBody.size());
            e.responseBody.append(at, qsizetype(std::min<qint64>(room, qint64(length))));
            if (qint64(length) > room) {
                e.truncated = true;
                http_parser_pause(p, 1); // the status is known; the rest is not kept
            }
            return 0;
        };
        s.on_message_complete = [](http_parser *p) {
            Connection &c = *static_cast<Connection *>(p->data);
            c.complete = true;
            c.keepAlive = http_should_keep_alive(p) != 0;
            http_parser_pause(p, 1); // what follows is not this answer's
            return 0;
        };
        return s;
    }();
    return s;
}

HttpClient::Connection *HttpClient::Impl::takeIdle(const HttpDestination &to)
{
    auto [it, end] = idle.equal_range(to.pool);
    while (it != end) {
        Connection *c = it->second;
        if (!(c->to == to)) {
            ++it;
            continue;
        }
        it = idle.erase(it);
        if (c->socket->state() == QAbstractSocket::ConnectedState)
            return c;
        close(*c);
    }
    return nullptr;
}

HttpClient::Connection *HttpClient::Impl::open(const HttpDestination &to)
{
    auto owned = std::make_unique<Connection>();
    Connection *c = owned.get();
    c->to = to;
    resetParser(c->parser, c);
    QSslSocket *tls = nullptr;
    if (to.tls) {
        tls = new QSslSocket;
        if (!to.verifyPeer)
            tls->setPeerVerifyMode(QSslSocket::VerifyNone);
        c->socket.reset(tls);
    } else {
        c->socket = std::make_unique<QTcpSocket>();
    }
    QTcpSocket *socket = c->socket.get();
    socket->setProxy(to.proxy);
    socket->setReadBufferSize(kReadChunk);
    const auto becameReady = [this, c] {
        c->socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        c->ready = true;
        if (!c->pending.isEmpty()) {
            c->socket->write(c->pending);
            c->pending.clear();
        }
    };
    if (tls)
        QObject::connect(tls, &QSslSocket::encrypted, socket, becameReady);
    else
        QObject::connect(socket, &QTcpSocket::connected, socket, becameReady);
    QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, c] { readable(*c); });
    QObject::connect(socket, &QTcpSocket::disconnected, socket, [this, c] { ended(*c, c->socket->errorString()); });
    QObject::connect(socket, &QTcpSocket::errorOccurred, socket, [this, c](QAbstractSocket::SocketError) { ended(*c, c->socket->errorString()); });
    connections.push_back(std::move(owned));
    c->self = std::prev(connections.end());
    if (tls)
        tls->connectToHostEncrypted(to.host, to.port, to.peerName);
    else
        socket->connectToHost(to.host, to.port);
    return c;
}

void HttpClient::Impl::send(Connection &c, HttpExchange &e)
{
    c.exchange = &e;
    c.answered = false;
    c.complete = false;
    c.keepAlive = false;
    c.field.clear();
    c.value.clear();
    c.inValue = false;
    resetParser(c.parser, &c);
    e.status = 0;
    e.responseHeaders.clear();
    e.responseBody.clear();
    e.truncated = false;
    e.error.clear();
    const QByteArray bytes = requestBytes(e);
    if (c.ready)
        c.socket->write(bytes);
    else
        c.pending = bytes;
}

void HttpClient::Impl::readable(Connection &c)
{
    while (!c.closed && c.socket->bytesAvailable() > 0) {
        const QByteArray chunk = c.socket->read(kReadChunk);
        if (!c.exchange) { // an idle connection does not speak first
            close(c);
            return;
        }
        c.answered = true;
        const size_t parsed = http_parser_execute(&c.parser, &settings(), chunk.constData(), size_t(chunk.size()));
        const auto failure = HTTP_PARSER_ERRNO(&c.parser);
        if (c.exchange->truncated) {
            finish(c, QString());
            close(c);
            return;
        }
        if (failure != HPE_OK && failure != HPE_PAUSED) {
            finish(c, QStringLiteral("the answer is not valid HTTP/1.1: %1").arg(QString::fromLatin1(http_errno_description(failure))));
            close(c);
            return;
        }
        if (c.complete) {
            const int status = c.exchange->status;
            if (status >= 100 && status < 200 && status != 101) {
                // An interim answer (100 Continue): the real one follows.
                c.exchange->status = 0;
                c.exchange->responseHeaders.clear();
                c.complete = false;
                resetParser(c.parser, &c);
                const qsizetype rest = chunk.size() - qsizetype(parsed);
                if (rest > 0) // rare: parse what came with it as the next answer
                    http_parser_execute(&c.parser, &settings(), chunk.constData() + parsed, size_t(rest));
                if (!c.complete)
                    continue;
            }
            const bool trailing = qsizetype(parsed) < chunk.size() || c.socket->bytesAvailable() > 0;
            const bool keep = c.keepAlive && !trailing && c.exchange->status != 101;
            finish(c, QString());
            if (keep)
                rest(c);
            else
                close(c);
            return;
        }
    }
}

void HttpClient::Impl::ended(Connection &c, const QString &error)
{
    if (c.closed)
        return;
    if (c.socket->bytesAvailable() > 0)
        readable(c); // what arrived before the close is the answer (or its part)
    if (c.closed)
        return;
    HttpExchange *e = c.exchange;
    if (!e) { // an idle connection the receiver closed
        close(c);
        return;
    }
    if (c.answered) {
        // An answer read up to the close ends with it.
        http_parser_execute(&c.parser, &settings(), nullptr, 0);
        if (c.complete) {
            finish(c, QString());
            close(c);
            return;
        }
    }
    const bool lostWhileKept = c.served && !c.answered && !e->resent;
    const HttpDestination to = c.to;
    c.exchange = nullptr;
    close(c);
    if (lostWhileKept) {
        // The receiver closed the kept connection as the request went out: once more, fresh.
        e->resent = true;
        send(*open(to), *e);
        return;
    }
    e->error = error.isEmpty() ? QStringLiteral("the connection closed before a complete answer") : error;
    if (e->status > 0)
        e->error = QStringLiteral("the answer was cut off: %1").arg(e->error);
    e->done = true;
    if (e->finished)
        e->finished();
}

void HttpClient::Impl::finish(Connection &c, const QString &error)
{
    HttpExchange *e = c.exchange;
    c.exchange = nullptr;
    c.served = true;
    if (!e)
        return;
    e->error = error;
    e->done = true;
    if (e->finished)
        e->finished(); // last: it may start the next exchange, on this client
}

void HttpClient::Impl::rest(Connection &c)
{
    if (c.closed || c.socket->state() != QAbstractSocket::ConnectedState) {
        close(c);
        return;
    }
    resetParser(c.parser, &c);
    c.idleSince.start();
    idle.emplace(c.to.pool, &c);
}

void HttpClient::Impl::forgetIdle(Connection &c)
{
    auto [it, end] = idle.equal_range(c.to.pool);
    for (; it != end; ++it)
        if (it->second == &c) {
            idle.erase(it);
            return;
        }
}

void HttpClient::Impl::close(Connection &c)
{
    if (c.closed)
        return;
    c.closed = true;
    forgetIdle(c);
    dead.push_back(std::move(*c.self));
    connections.erase(c.self);
    c.socket->abort(); // may emit disconnected: ended() sees `closed`
}

HttpClient::HttpClient() : d(std::make_unique<Impl>()) {}

HttpClient::~HttpClient() = default;

void HttpClient::start(const HttpDestination &to, HttpExchange &exchange)
{
    exchange.done = false;
    exchange.resent = false;
    if (const QString unsafe = unsafeHeader(exchange); !unsafe.isEmpty()) {
        exchange.error = unsafe;
        exchange.done = true;
        if (exchange.finished)
            exchange.finished();
        return;
    }
    Connection *c = d->takeIdle(to);
    d->send(c ? *c : *d->open(to), exchange);
}

void HttpClient::abort(HttpExchange &exchange, const QString &error)
{
    for (const std::unique_ptr<Connection> &c : d->connections) {
        if (c->exchange != &exchange)
            continue;
        Connection &connection = *c;
        d->close(connection); // first: finished() may look at the client
        d->finish(connection, error);
        return;
    }
}

void HttpClient::closePool(qint64 pool)
{
    auto [it, end] = d->idle.equal_range(pool);
    std::vector<Connection *> idle;
    for (; it != end; ++it)
        idle.push_back(it->second);
    for (Connection *c : idle)
        d->close(*c);
}

void HttpClient::closeIdle(std::chrono::milliseconds idleFor)
{
    std::vector<Connection *> old;
    for (const auto &[pool, c] : d->idle)
        if (c->idleSince.hasExpired(idleFor.count()))
            old.push_back(c);
    for (Connection *c : old)
        d->close(*c);
}

void HttpClient::reap()
{
    d->dead.clear();
}

int HttpClient::openConnections() const
{
    return int(d->connections.size());
}

} // namespace Switchyard::Webhook
