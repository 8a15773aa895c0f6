#pragma once

// The daemon's admin API (docs/api.md): HTTP on QtHttpServer and the live stream on QtWebSockets,
// over the admin layer's operations — the same functions the console's local backend calls.
//
// Every request goes through one pipeline. On its head, before a byte of the body is read (the
// edge calls admitHead): body limit (413) → route (404/405) → authentication (401, failed attempts
// rate-limited per address: 429; an event may bring a signature instead) → the bodies' budget
// (503). Then, with the body, again in handle(): route → authentication → QoS admission when
// [qos] ENABLED (503)
// → the entry (Op::execute: its arguments checked, a change refused to read-only tokens with 403,
// changes audited before acting). Handlers that may wait (flush, self-check, Redis locks …) run on the server's
// thread pool and answer when done; the rest answer inline. The routes are the operation
// catalogue's entries (src/admin/ops/): adding an endpoint is adding an entry.
//
// Threads: the server lives on the thread that created it (the daemon's main thread); its pool
// and its event source are owned and joined by stop() / the destructor.

#include "admin/auditlog.h"
#include "admin/catalogue.h"
#include "admin/tokens.h"
#include "server/authlimiter.h"
#include "server/httpedge.h"

#include "engine/core/cancellation.h"

#include <QHostAddress>
#include <QHttpServerRequest>
#include <QJsonValue>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <QUrlQuery>

#include <chrono>
#include <optional>
#include <deque>
#include <map>
#include <memory>

class QHttpServer;
class QHttpServerResponder;
class QWebSocket;

namespace Switchyard {
class Engine;
}

namespace Switchyard::Admin {
class AdminEventSource;
}

namespace Switchyard::Server {

struct ServerOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 3300; // 0: any free port (tests)
    QString certFile;    // PEM; with keyFile: TLS
    QString keyFile;
    bool allowInsecureRemote = false;
    QStringList allowedOrigins;
    qint64 maxBodySize = 1 << 20; // an entry may set its own (OpBase::Info::maxBody)
    EdgeLimits edge;
    int authFailureLimit = 10;
    std::chrono::milliseconds authFailureWindow{60000};
    std::chrono::milliseconds streamInterval{1000};
    qint64 streamBacklog = 1 << 20; // bytes queued to a WebSocket client before its frames are skipped
    int callThreads = 4;
};

// One HTTP answer: the catalogue's (an entry's answer and the pipeline's refusals alike).
using Reply = Admin::Answer;

// What a handler sees of its request.
struct Call
{
    QHttpServerRequest::Method method;
    std::map<QString, QString> params; // path placeholders, percent-decoded
    QUrlQuery query;
    QByteArray body;
    std::vector<std::pair<QByteArray, QByteArray>> headers;
    QString remoteAddr;
    Admin::Identity identity;
    CancelToken cancel; // fires when the client goes away or the server stops
};

class AdminServer : public QObject
{
    Q_OBJECT
public:
    // A Cached entry answers from a snapshot at most kCacheTtl old (per path and query), dropped by
    // every mutating call — for lists monitors poll hard (GET /queues).
    static constexpr std::chrono::milliseconds kCacheTtl{100};

    AdminServer(Engine &engine, Admin::AuditLog &audit, QByteArray adminTokenHash,
                Admin::TokenStore tokens, ServerOptions options, QObject *parent = nullptr); // references: Not owned
    ~AdminServer() override;

    // Binds and starts the stream. Refuses a non-loopback address without TLS unless allowed
    // (a warning is logged then), unreadable TLS files, and a port in use (AlreadyExists: another
    // program has it).
    Status listen();
    quint16 port() const { return m_port; }
    bool isTls() const { return !m_options.certFile.isEmpty(); }
    // Stops accepting, closes stream clients, cancels running handlers and waits for them. Idempotent.
    void stop();


    int streamClients() const { return int(m_streams.size()); }
    qint64 streamFramesSkipped() const { return m_framesSkipped; }

private:
    struct Route
    {
        QString method;
        QStringList segments; // "{name}" for a placeholder
        const Admin::OpBase *op = nullptr;
        qint64 maxBody = 0; // 0: [server] MAX_BODY_SIZE
    };
    struct Pending;

    void registerRoutes();
    // The route for `method` and `segments` below the prefix (placeholders into `params`), or null
    // with the methods the path allows in `allowed`.
    const Route *match(const QString &method, const QStringList &segments, std::map<QString, QString> *params,
                       QStringList *allowed) const;
    void handle(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void dispatch(const Route &route, std::shared_ptr<Pending> pending);
    Reply run(const Route &route, Call &call);
    void finish(const std::shared_ptr<Pending> &pending, Reply reply);
    void stream(const std::shared_ptr<Pending> &pending, std::shared_ptr<Admin::StreamBody> body);
    // The caller's identity; 401 (no or a wrong token) or 429 (the limiter) in `httpStatus`.
    Result<Admin::Identity> authenticate(const QByteArray &authorization, const QString &remoteAddr, int *httpStatus,
                                         QString *retryAfter, QByteArray *tokenHash = nullptr);
    std::optional<Admin::Identity> identify(const QByteArray &tokenHash);
    // The edge's hooks: body limits, refusals' bodies, and the judgement of a request head.
    EdgeHooks edgeHooks();
    std::optional<Refusal> admitHead(const RequestHead &head, const QHostAddress &peer);
    static bool isStream(const RequestHead &head);
    void recheckStreams();
    void reloadTokens();
    void acceptStream();
    void broadcast(const QByteArray &frame);
    bool originAllowed(const QString &origin) const;
    QByteArray streamMetrics() const;

    Engine &m_engine;
    Admin::AuditLog &m_audit;
    const QByteArray m_adminTokenHash;
    Admin::TokenStore m_tokens;
    ServerOptions m_options;
    std::unique_ptr<QHttpServer> m_http;
    HttpEdge *m_edge = nullptr; // child of m_http
    std::vector<Route> m_routes;
    quint16 m_port = 0;
    bool m_stopped = false;
    CancelSource m_calls;
    QThreadPool m_pool;
    std::unique_ptr<Admin::AdminEventSource> m_events;
    struct Stream
    {
        std::unique_ptr<QWebSocket> socket;
        QByteArray tokenHash; // re-checked every stream interval: revocation closes the stream
        Admin::Identity identity;
    };
    std::vector<Stream> m_streams;
    QTimer m_recheck;
    qint64 m_framesSkipped = 0;

    struct CachedReply
    {
        std::chrono::steady_clock::time_point at;
        Reply reply;
    };
    std::map<QString, CachedReply> m_cache; // server thread only

    // Named tokens, re-read when tokens.json changes (the CLI edits it while the daemon runs).
    std::vector<Admin::TokenInfo> m_namedTokens;
    qint64 m_tokensModifiedNs = -1; // the token file's mtime (ns) and size when last read; -1: absent
    qint64 m_tokensSize = -1;
    AuthLimiter m_limiter; // server thread only
};

} // namespace Switchyard::Server
