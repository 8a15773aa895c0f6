#include "adminserver.h"
#include "adminserver_p.h"


#include "admin/eventsource.h"
#include "admin/jsoncodec.h"
#include "admin/ops/prometheus.h"
#include "admin/streamevents.h"

#include "engine/core/logging.h"
#include "engine/engine.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHttpServer>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSslCertificate>
#include <QSslKey>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QWebSocket>

#include <array>
#include <condition_variable>
#include <mutex>

#include <sys/stat.h>

namespace Switchyard::Server {

using namespace Admin;
using namespace Detail;
using Method = QHttpServerRequest::Method;

namespace {

constexpr int kDefaultLimit = 50;
constexpr int kMaxLimit = 500;

QString methodOf(Method method)
{
    switch (method) {
    case Method::Get: return QStringLiteral("GET");
    case Method::Put: return QStringLiteral("PUT");
    case Method::Delete: return QStringLiteral("DELETE");
    case Method::Post: return QStringLiteral("POST");
    case Method::Head: return QStringLiteral("HEAD");
    case Method::Options: return QStringLiteral("OPTIONS");
    case Method::Patch: return QStringLiteral("PATCH");
    default: return QStringLiteral("other");
    }
}

} // namespace

QByteArray Detail::bearer(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    const qsizetype space = value.indexOf(' ');
    if (space <= 0)
        return {};
    const QByteArray scheme = value.left(space).toLower();
    if (scheme != "bearer" && scheme != "token")
        return {};
    return value.mid(space + 1).trimmed();
}

Reply Detail::refusal(int httpStatus, const QString &message, const QString &field)
{
    const Status status(Answer::codeForHttp(httpStatus), message);
    Reply reply = Answer::failure(field.isEmpty() ? status : status.withField(field));
    reply.status = httpStatus;
    return reply;
}

Reply Detail::reply(const Refusal &refused)
{
    Reply answer = refusal(refused.status, refused.message, refused.field);
    for (const auto &[name, value] : refused.headers)
        answer.headers.emplace_back(name, value);
    return answer;
}

Refusal Detail::noRoute(const QString &method, const QString &path, const QStringList &allowed)
{
    if (!path.startsWith(kPrefix + u'/'))
        return {404, QStringLiteral("no such endpoint: %1 (the API lives under %2)").arg(path.left(200), kPrefix), {}, {}};
    if (allowed.isEmpty())
        return {404, QStringLiteral("no such endpoint: %1 %2").arg(method, path.left(200)), {}, {}};
    return {405,
            QStringLiteral("%1 is not allowed on %2 (allowed: %3)").arg(method, path.left(200), allowed.join(QStringLiteral(", "))),
            {},
            {{"Allow", allowed.join(QStringLiteral(", ")).toLatin1()}}};
}

// ---- Streamed answers ---------------------------------------------------------------------------

namespace {

// Between a streamed answer's producer (on the pool) and its socket (on the server's thread): the
// bytes handed to the socket and not yet written are bounded, so a slow reader holds the producer
// and not the server's memory.
class StreamPipe
{
public:
    static constexpr qint64 kMaxQueued = 1 << 20;
    // A reader that takes nothing for this long loses the answer (it would hold a pool thread).
    static constexpr std::chrono::seconds kStall{60};

    // Waits for room (producer's side); false once closed or stalled.
    bool reserve(qint64 bytes)
    {
        std::unique_lock lock(m_mutex);
        if (!m_room.wait_for(lock, kStall, [&] { return m_closed || m_queued < kMaxQueued; })) {
            m_closed = true;
            m_why = QStringLiteral("the client read nothing for %1 s").arg(kStall.count());
        }
        if (m_closed)
            return false;
        m_queued += bytes;
        return true;
    }
    // The socket wrote `bytes` (server's side).
    void taken(qint64 bytes)
    {
        {
            std::lock_guard lock(m_mutex);
            m_queued = std::max<qint64>(0, m_queued - bytes);
        }
        m_room.notify_all();
    }
    void close(const QString &why)
    {
        {
            std::lock_guard lock(m_mutex);
            if (!m_closed)
                m_why = why;
            m_closed = true;
        }
        m_room.notify_all();
    }
    QString why() const
    {
        std::lock_guard lock(m_mutex);
        return m_why;
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_room;
    qint64 m_queued = 0;
    bool m_closed = false;
    QString m_why;
};

QByteArray chunk(const QByteArray &piece)
{
    return QByteArray::number(piece.size(), 16) + "\r\n" + piece + "\r\n";
}

} // namespace

// ---- AdminServer -------------------------------------------------------------------------------

struct AdminServer::Pending
{
    Pending(QHttpServerResponder &&r, const CancelToken &serverStop)
        : responder(std::move(r)), socket(responder.socket()), cancel(serverStop)
    {
    }
    QHttpServerResponder responder;
    QPointer<QTcpSocket> socket;
    QMetaObject::Connection disconnected; // while a pooled handler runs
    CancelSource cancel;
    Call call;
    QString path;
};

AdminServer::AdminServer(Engine &engine, AuditLog &audit, QByteArray adminTokenHash, TokenStore tokens,
                         ServerOptions options, QObject *parent)
    : QObject(parent), m_engine(engine), m_audit(audit), m_adminTokenHash(std::move(adminTokenHash)),
      m_tokens(std::move(tokens)), m_options(std::move(options)), m_http(std::make_unique<QHttpServer>()),
      m_limiter(m_options.authFailureLimit, m_options.authFailureWindow)
{
    // Admission control waits on the pool: room for the admitted and a few waiting requests.
    int threads = m_options.callThreads;
    if (AdmissionController *qos = m_engine.qos())
        threads = std::max(threads, qos->stats().maxInflight + 4);
    m_pool.setMaxThreadCount(threads);
    m_pool.setObjectName(QStringLiteral("admin api"));
    registerRoutes();
    m_http->setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        handle(request, std::move(responder));
    });
    connect(m_http.get(), &QHttpServer::newWebSocketConnection, this, &AdminServer::acceptStream);
    // QtHttpServer 6.4 upgrades a WebSocket request only when a route takes it and writes nothing;
    // the token and the origin are checked on the upgraded socket (acceptStream()).
    m_http->route(kPrefix + QStringLiteral("/stream"), [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        if (request.value("upgrade").compare("websocket", Qt::CaseInsensitive) == 0)
            return;
        auto pending = std::make_shared<Pending>(std::move(responder), m_calls.token());
        finish(pending, refusal(400, QStringLiteral("/stream is a WebSocket: send Upgrade: websocket")));
    });
}

AdminServer::~AdminServer()
{
    stop();
}

Status AdminServer::listen()
{
    const QHostAddress &address = m_options.address;
    const bool loopback = address.isLoopback();
    if (!loopback && !isTls()) {
        if (!m_options.allowInsecureRemote)
            return Status::invalidArgument(
                QStringLiteral("[server] HTTP_ADDR = %1 is not a loopback address and no TLS is configured: the admin token "
                               "would cross the network in clear text. Set [server] CERT_FILE and KEY_FILE, bind "
                               "127.0.0.1, or set [server] ALLOW_INSECURE_REMOTE = true to accept the risk")
                    .arg(address.toString()));
        qCWarning(lcCore).noquote() << "the admin API listens on" << address.toString()
                                    << "without TLS ([server] ALLOW_INSECURE_REMOTE = true): tokens and data cross the "
                                       "network in clear text";
    }
    std::optional<QSslConfiguration> tls;
    if (isTls()) {
        QFile certFile(m_options.certFile), keyFile(m_options.keyFile);
        if (!certFile.open(QIODevice::ReadOnly))
            return Status::invalidArgument(QStringLiteral("[server] CERT_FILE = %1: %2").arg(m_options.certFile, certFile.errorString()));
        if (!keyFile.open(QIODevice::ReadOnly))
            return Status::invalidArgument(QStringLiteral("[server] KEY_FILE = %1: %2").arg(m_options.keyFile, keyFile.errorString()));
        if (keyFile.permissions() & QFileDevice::ReadOther)
            return Status::invalidArgument(QStringLiteral("[server] KEY_FILE = %1 is readable by every user of this machine; "
                                                          "make it private (chmod 600 or 640) and start again")
                                               .arg(m_options.keyFile));
        const QList<QSslCertificate> chain = QSslCertificate::fromData(certFile.readAll(), QSsl::Pem);
        if (chain.isEmpty())
            return Status::invalidArgument(QStringLiteral("[server] CERT_FILE = %1 holds no PEM certificate").arg(m_options.certFile));
        const QByteArray keyPem = keyFile.readAll();
        QSslKey key(keyPem, QSsl::Rsa, QSsl::Pem);
        if (key.isNull())
            key = QSslKey(keyPem, QSsl::Ec, QSsl::Pem);
        if (key.isNull())
            return Status::invalidArgument(QStringLiteral("[server] KEY_FILE = %1 holds no PEM RSA or EC private key").arg(m_options.keyFile));
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.setLocalCertificateChain(chain);
        ssl.setPrivateKey(key);
        ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
        ssl.setProtocol(QSsl::TlsV1_2OrLater); // explicit: never SSLv3, TLS 1.0 or 1.1
        tls = ssl;
    }
    m_edge = new HttpEdge(m_options.edge, edgeHooks());
    if (tls)
        m_edge->setTls(*tls);
    if (!m_edge->start(address, m_options.port)) {
        const QString why = m_edge->errorString();
        const bool taken = m_edge->serverError() == QAbstractSocket::AddressInUseError;
        delete m_edge;
        m_edge = nullptr;
        return Status(taken ? Status::Code::AlreadyExists : Status::Code::Unavailable, QStringLiteral("cannot listen on %1:%2 ([server] HTTP_ADDR / HTTP_PORT): %3")
                                       .arg(address.toString())
                                       .arg(m_options.port)
                                       .arg(why));
    }
    m_http->bind(m_edge); // parents the edge
    m_port = m_edge->serverPort();
    m_events = std::make_unique<AdminEventSource>(
        m_engine,
        [this](AdminEvent event) {
            QByteArray frame = Admin::Stream::frame(event);
            QMetaObject::invokeMethod(this, [this, frame = std::move(frame)] { broadcast(frame); }, Qt::QueuedConnection);
        },
        m_options.streamInterval);
    m_events->start();
    m_recheck.setInterval(m_options.streamInterval);
    connect(&m_recheck, &QTimer::timeout, this, &AdminServer::recheckStreams);
    m_recheck.start();
    return Status::ok();
}

void AdminServer::stop()
{
    if (m_stopped)
        return;
    m_stopped = true;
    // Producers first: no new connections, no new frames; then the handlers in flight.
    if (m_edge)
        m_edge->shutdown();
    if (m_events)
        m_events->stop();
    m_recheck.stop();
    for (const Stream &stream : m_streams)
        stream.socket->close(QWebSocketProtocol::CloseCodeGoingAway, QStringLiteral("server shutting down"));
    m_streams.clear();
    m_calls.cancel(QStringLiteral("the admin API is stopping"));
    m_pool.waitForDone();
    // Answers the pool posted and nobody delivered yet hold responders: drop them while the HTTP
    // server (and its sockets) still exist.
    QCoreApplication::removePostedEvents(this, QEvent::MetaCall);
}

// One route per catalogue entry: the catalogue is the list of endpoints.
void AdminServer::registerRoutes()
{
    for (const OpBase *op : Catalogue::all()) {
        const OpBase::Info &info = op->info();
        m_routes.push_back({QString::fromLatin1(methodName(info.method)), QString::fromLatin1(info.path).split(u'/', Qt::SkipEmptyParts),
                            op, info.maxBody});
    }
}

const AdminServer::Route *AdminServer::match(const QString &method, const QStringList &segments,
                                             std::map<QString, QString> *params, QStringList *allowed) const
{
    // The first route whose segments match; literal segments win over placeholders by order.
    for (const Route &route : m_routes) {
        if (route.segments.size() != segments.size())
            continue;
        std::map<QString, QString> captured;
        bool matches = true;
        for (qsizetype i = 0; i < segments.size() && matches; ++i) {
            const QString &pattern = route.segments.at(i);
            if (pattern.startsWith(u'{'))
                captured[pattern.mid(1, pattern.size() - 2)] = QUrl::fromPercentEncoding(segments.at(i).toUtf8());
            else
                matches = pattern == segments.at(i);
        }
        if (!matches)
            continue;
        if (route.method != method) {
            allowed->append(route.method);
            continue;
        }
        *params = std::move(captured);
        return &route;
    }
    return nullptr;
}

void AdminServer::handle(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    auto pending = std::make_shared<Pending>(std::move(responder), m_calls.token());
    if (m_stopped) {
        finish(pending, refusal(503, QStringLiteral("the admin API is stopping")));
        return;
    }
    const QString path = request.url().path(QUrl::FullyEncoded);
    pending->path = path;
    QStringList allowed;
    std::map<QString, QString> params;
    const Route *matched = path.startsWith(kPrefix + u'/')
                               ? match(methodOf(request.method()), path.mid(kPrefix.size()).split(u'/', Qt::SkipEmptyParts),
                                       &params, &allowed)
                               : nullptr;
    if (!matched) {
        finish(pending, reply(noRoute(methodOf(request.method()), path, allowed)));
        return;
    }

    Call &call = pending->call;
    call.method = request.method();
    call.params = std::move(params);
    call.query = request.query();
    call.body = request.body();
    for (const auto &[name, value] : request.headers())
        call.headers.emplace_back(name, value);
    call.remoteAddr = request.remoteAddress().toString();
    call.cancel = pending->cancel.token();
    if (matched->op->hasFlag(Ingest) && bearer(request.value("authorization")).isEmpty()) {
        // A forge that cannot send a token (GitHub): the entry checks the source's signature.
    } else if (matched->op->hasFlag(Anonymous)) {
        // Anonymous unless a valid token comes along (then the full answer); never refused, never counted.
        const QByteArray token = bearer(request.value("authorization"));
        if (!token.isEmpty())
            if (std::optional<Identity> known = identify(Tokens::hash(token)))
                call.identity = *known;
    } else {
        int status = 401;
        QString retryAfter;
        Result<Identity> identity = authenticate(request.value("authorization"), call.remoteAddr, &status, &retryAfter);
        if (!identity) {
            Reply reply = refusal(status, identity.status().message());
            if (!retryAfter.isEmpty())
                reply.headers.emplace_back("Retry-After", retryAfter.toLatin1());
            reply.headers.emplace_back("WWW-Authenticate", "Bearer");
            finish(pending, std::move(reply));
            return;
        }
        call.identity = *identity;
        if (identity->role == Role::Ingest && !matched->op->hasFlag(Ingest)) {
            finish(pending, refusal(403, QStringLiteral("forbidden: the token \"%1\" may only post events (role ingest)").arg(identity->name)));
            return;
        }
    }
    dispatch(*matched, pending);
}

void AdminServer::dispatch(const Route &route, std::shared_ptr<Pending> pending)
{
    AdmissionController *qos = m_engine.qos();
    if (!route.op->hasFlag(MayWait) && (!qos || route.op->hasFlag(Anonymous))) {
        if (route.op->hasFlag(Cached)) {
            const QString key = pending->path + u'?' + pending->call.query.toString(QUrl::FullyEncoded);
            const auto now = std::chrono::steady_clock::now();
            auto it = m_cache.find(key);
            if (it == m_cache.end() || now - it->second.at > kCacheTtl) {
                if (m_cache.size() > 64)
                    m_cache.clear();
                it = m_cache.insert_or_assign(key, CachedReply{now, run(route, pending->call)}).first;
            }
            finish(pending, it->second.reply);
            return;
        }
        Reply reply = run(route, pending->call);
        finish(pending, std::move(reply));
        return;
    }
    // The client going away cancels what its request started (a flush stops waiting). Only for
    // requests that outlive this call: a keep-alive socket would otherwise collect connections.
    if (pending->socket) {
        std::weak_ptr<Pending> weak = pending;
        pending->disconnected = connect(pending->socket, &QTcpSocket::disconnected, this, [weak] {
            if (auto p = weak.lock())
                p->cancel.cancel(QStringLiteral("the client disconnected"));
        });
    }
    // On the pool: QoS admission (which may wait) and the handler. The route outlives the pool.
    m_pool.start([this, &route, pending, qos]() mutable {
        Reply reply;
        {
            Result<AdmissionController::Ticket> ticket = qos ? qos->acquire(pending->call.cancel, Priority::High)
                                                             : Result<AdmissionController::Ticket>(AdmissionController::Ticket());
            if (!ticket)
                reply = refusal(503, QStringLiteral("overloaded: %1").arg(ticket.status().message()));
            else
                reply = run(route, pending->call);
        }
        QMetaObject::invokeMethod(this, [this, pending, reply = std::move(reply)]() mutable { finish(pending, std::move(reply)); },
                                  Qt::QueuedConnection);
    });
}

Reply AdminServer::run(const Route &route, Call &call)
{
    OpContext context{m_engine};
    context.audit = &m_audit;
    context.doer = call.identity.name;
    context.viaApi = true;
    context.tokenName = call.identity.name;
    context.role = call.identity.name.isEmpty() ? QString() : roleName(call.identity.role);
    context.remoteAddr = call.remoteAddr;
    context.mayMutate = call.identity.role == Role::Admin && !call.identity.name.isEmpty();
    context.cancel = call.cancel;
    const CancelToken stop = m_calls.token();
    context.detach = [this, stop](std::function<void(const CancelToken &)> work) {
        m_pool.start([work = std::move(work), stop] { work(stop); });
    };
    context.serverMetrics = [this] { return streamMetrics(); };
    Answer answer;
    try {
        answer = route.op->serve(context, Request{call.params, call.query, std::move(call.body), std::move(call.headers)});
    } catch (const std::exception &e) {
        answer = Answer::failure(Status::internal(QStringLiteral("internal error: %1").arg(QString::fromLocal8Bit(e.what()))));
    }
    if (route.op->hasFlag(Mutating)) // whatever changed, no cached list may hide it (the pool posts this back)
        QMetaObject::invokeMethod(this, [this] { m_cache.clear(); }, Qt::AutoConnection);
    return answer;
}

void AdminServer::finish(const std::shared_ptr<Pending> &pending, Reply reply)
{
    if (pending->disconnected)
        disconnect(pending->disconnected);
    if (!pending->socket || pending->socket->state() != QAbstractSocket::ConnectedState)
        return; // the client went away; nobody to answer
    QHttpServerResponder &responder = pending->responder;
    responder.writeStatusLine(QHttpServerResponder::StatusCode(reply.status));
    if (!reply.contentType.isEmpty())
        responder.writeHeader("Content-Type", reply.contentType);
    for (const auto &[name, value] : reply.headers)
        responder.writeHeader(name, value);
    if (reply.stream) {
        stream(pending, std::move(reply.stream));
        return;
    }
    responder.writeHeader("Content-Length", QByteArray::number(reply.body.size()));
    responder.writeBody(reply.body);
}

void AdminServer::stream(const std::shared_ptr<Pending> &pending, std::shared_ptr<StreamBody> body)
{
    // The head is out; the pieces follow as HTTP chunks. The producer runs on the pool, each piece
    // is written here (the socket's thread); the connection going away or the server stopping
    // closes the pipe, which ends the producer at its next piece. An error after the head cannot
    // change the status: the connection is closed without the last chunk, which a client reads as
    // a cut answer (curl: "transfer closed with outstanding read data remaining").
    pending->responder.writeHeader("Transfer-Encoding", "chunked");
    pending->responder.writeBody(QByteArray());
    auto pipe = std::make_shared<StreamPipe>();
    QTcpSocket *socket = pending->socket;
    auto links = std::make_shared<std::array<QMetaObject::Connection, 2>>();
    (*links)[0] = connect(socket, &QIODevice::bytesWritten, this, [pipe](qint64 n) { pipe->taken(n); });
    (*links)[1] = connect(socket, &QAbstractSocket::disconnected, this, [pipe] { pipe->close(QStringLiteral("the client disconnected")); });
    m_pool.start([this, pending, pipe, links, body = std::move(body)] {
        const CancelToken cancel = pending->cancel.token();
        const CancelCallback onCancel = cancel.onCancel([pipe, cancel] { pipe->close(cancel.cause().message()); });
        const StreamBody::Write write = [this, &pending, &pipe](const QByteArray &piece) -> Status {
            if (piece.isEmpty())
                return Status::ok(); // an empty chunk would end the body
            QByteArray framed = chunk(piece);
            if (!pipe->reserve(framed.size()))
                return Status::cancelled(pipe->why());
            QMetaObject::invokeMethod(this, [pending, framed = std::move(framed)] {
                if (pending->socket && pending->socket->state() == QAbstractSocket::ConnectedState)
                    pending->socket->write(framed);
            }, Qt::QueuedConnection);
            return Status::ok();
        };
        Status produced;
        try {
            produced = body->produce(cancel, write);
        } catch (const std::exception &e) {
            produced = Status::internal(QStringLiteral("internal error: %1").arg(QString::fromLocal8Bit(e.what())));
        }
        if (!produced && produced.code() != Status::Code::Cancelled)
            qCWarning(lcCore).noquote() << "streamed answer to" << pending->path << "cut:" << produced.toString();
        QMetaObject::invokeMethod(this, [pending, links, ok = bool(produced)] {
            for (const QMetaObject::Connection &link : *links)
                QObject::disconnect(link);
            QTcpSocket *socket = pending->socket;
            if (!socket || socket->state() != QAbstractSocket::ConnectedState)
                return;
            if (ok)
                socket->write("0\r\n\r\n");
            else
                socket->abort(); // no last chunk: the client sees the answer was cut
        }, Qt::QueuedConnection);
    });
}

void AdminServer::broadcast(const QByteArray &frame)
{
    const QString text = QString::fromUtf8(frame);
    for (const Stream &stream : m_streams) {
        // A slow reader misses frames instead of growing our memory or slowing the others.
        if (stream.socket->bytesToWrite() > m_options.streamBacklog) {
            ++m_framesSkipped;
            continue;
        }
        stream.socket->sendTextMessage(text);
    }
}

// The API's own families for /metrics (the engine's come from the catalogue's entry).
QByteArray AdminServer::streamMetrics() const
{
    QByteArray out;
    MetricFamily(out, "switchyard_stream_clients", "gauge", "WebSocket clients of /stream.").sample(double(streamClients()));
    MetricFamily(out, "switchyard_stream_frames_skipped_total", "counter", "Frames not sent to clients that read too slowly.")
        .sample(double(m_framesSkipped));
    return out;
}

} // namespace Switchyard::Server
