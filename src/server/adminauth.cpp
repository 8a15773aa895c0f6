// The admin server's gate: tokens (the admin token and the named ones, re-read when tokens.json
// changes), the edge's judgement of a request head before its body is read, and the stream's
// WebSocket handshake. The pipeline's other half (routing, handling) is adminserver.cpp.
// Threads: everything here runs on the server's thread (the edge calls its hooks there too).
#include "adminserver.h"
#include "adminserver_p.h"

#include "engine/core/logging.h"

#include <QFile>
#include <QHttpServer>
#include <QUrl>
#include <QWebSocket>

#include <sys/stat.h>

namespace Switchyard::Server {

using namespace Admin;
using namespace Detail;

namespace {

// A stream client never sends anything but control frames: a larger frame is an attack.
constexpr qint64 kMaxStreamMessage = 64 * 1024;

} // namespace

EdgeHooks AdminServer::edgeHooks()
{
    EdgeHooks hooks;
    hooks.bodyLimit = [this](const QByteArray &method, const QByteArray &path) {
        const QString decoded = QString::fromLatin1(path);
        if (decoded.startsWith(kPrefix + u'/')) {
            std::map<QString, QString> params;
            QStringList allowed;
            if (const Route *route = match(QString::fromLatin1(method), decoded.mid(kPrefix.size()).split(u'/', Qt::SkipEmptyParts),
                                           &params, &allowed);
                route && route->maxBody > 0)
                return route->maxBody;
        }
        return m_options.maxBodySize;
    };
    hooks.errorBody = [](int status, const QString &message, const QString &field) {
        return refusal(status, message, field).body;
    };
    hooks.admit = [this](const RequestHead &head, const QHostAddress &peer) { return admitHead(head, peer); };
    hooks.authenticated = [this](const RequestHead &head) {
        QByteArray token = bearer(head.authorization);
        if (token.isEmpty() && isStream(head))
            token = QUrlQuery(QString::fromLatin1(head.query)).queryItemValue(QStringLiteral("token"), QUrl::FullyDecoded).toUtf8();
        return !token.isEmpty() && identify(Tokens::hash(token)).has_value();
    };
    hooks.mayUpgrade = [](const RequestHead &head) {
        return head.method == "GET" && isStream(head) && head.upgrade.compare("websocket", Qt::CaseInsensitive) == 0;
    };
    return hooks;
}

bool AdminServer::isStream(const RequestHead &head)
{
    return QString::fromLatin1(head.path) == kPrefix + QStringLiteral("/stream");
}

std::optional<Refusal> AdminServer::admitHead(const RequestHead &head, const QHostAddress &peer)
{
    // What handle() would refuse without reading the body is refused before it is read: an
    // unknown route, a missing or wrong token, an event with neither a token nor a signature.
    if (isStream(head) && head.method == "GET" && head.upgradeHeader && !head.chunked && head.contentLength <= 0)
        return std::nullopt; // an upgrade (mayUpgrade judges it): its handshake is checked in acceptStream()
    const QString method = QString::fromLatin1(head.method);
    const QString path = QString::fromLatin1(head.path);
    QStringList allowed;
    std::map<QString, QString> params;
    const Route *route = path.startsWith(kPrefix + u'/')
                             ? match(method, path.mid(kPrefix.size()).split(u'/', Qt::SkipEmptyParts), &params, &allowed)
                             : nullptr;
    if (!route)
        return noRoute(method, path, allowed);
    if (route->op->hasFlag(Anonymous))
        return std::nullopt;
    if (route->op->hasFlag(Ingest) && bearer(head.authorization).isEmpty()) {
        if (head.signature)
            return std::nullopt; // the signature is checked against the body
        return Refusal{401, QStringLiteral("no signature: send X-Hub-Signature-256, X-Gitea-Signature or webhook-signature, or a token"),
                       QString(), {{"WWW-Authenticate", "Bearer"}}};
    }
    int status = 401;
    QString retryAfter;
    Result<Identity> identity = authenticate(head.authorization, peer.toString(), &status, &retryAfter);
    if (!identity) {
        std::vector<std::pair<QByteArray, QByteArray>> headers{{"WWW-Authenticate", "Bearer"}};
        if (!retryAfter.isEmpty())
            headers.emplace_back("Retry-After", retryAfter.toLatin1());
        return Refusal{status, identity.status().message(), QString(), std::move(headers)};
    }
    if (identity->role == Role::Ingest && !route->op->hasFlag(Ingest))
        return Refusal{403, QStringLiteral("forbidden: the token \"%1\" may only post events (role ingest)").arg(identity->name),
                       QString(), {}};
    return std::nullopt;
}

Result<Identity> AdminServer::authenticate(const QByteArray &authorization, const QString &remoteAddr, int *httpStatus,
                                           QString *retryAfter, QByteArray *tokenHash)
{
    const QByteArray token = bearer(authorization);
    if (token.isEmpty()) { // guesses nothing: answered, not counted
        *httpStatus = 401;
        return Status(Status::Code::Unauthenticated, QStringLiteral("unauthorized"));
    }
    const QByteArray hash = Tokens::hash(token);
    if (std::optional<Identity> found = identify(hash)) {
        if (tokenHash)
            *tokenHash = hash;
        return *found; // the right token is never refused by the limiter
    }
    const QString network = HttpEdge::networkOf(QHostAddress(remoteAddr));
    if (const qint64 wait = m_limiter.retryAfter(network, hash); wait > 0) {
        *httpStatus = 429;
        *retryAfter = QString::number(wait);
        return Status::unavailable(QStringLiteral("too many failed authentications from this network or with this token; retry later"));
    }
    m_limiter.fail(network, hash);
    *httpStatus = 401;
    return Status(Status::Code::Unauthenticated, QStringLiteral("unauthorized"));
}

std::optional<Identity> AdminServer::identify(const QByteArray &hash)
{
    // Every candidate is compared (constant time each), so timing does not tell which matched.
    std::optional<Identity> found;
    if (Tokens::equal(hash, m_adminTokenHash))
        found = Identity{QStringLiteral("admin"), Role::Admin};
    reloadTokens();
    for (const TokenInfo &named : m_namedTokens) {
        if (Tokens::equal(hash, named.hash) && !found)
            found = Identity{named.name, named.role};
    }
    return found;
}

void AdminServer::recheckStreams()
{
    // A revoked token, or one whose role changed, loses its stream within one interval.
    for (auto &stream : m_streams) {
        if (!stream.socket || stream.socket->state() != QAbstractSocket::ConnectedState)
            continue;
        const std::optional<Identity> now = identify(stream.tokenHash);
        if (!now)
            stream.socket->close(QWebSocketProtocol::CloseCode(4401), QStringLiteral("the token was revoked"));
        else if (now->role != stream.identity.role || now->name != stream.identity.name)
            stream.socket->close(QWebSocketProtocol::CloseCode(4401), QStringLiteral("the token's role changed; reconnect"));
    }
}

void AdminServer::reloadTokens()
{
    // Every request looks (a revoked token stops at once): one stat(), not QFileInfo's several.
    struct stat info {};
    const bool exists = ::stat(QFile::encodeName(m_tokens.path()).constData(), &info) == 0;
    const qint64 modified = exists ? qint64(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec : -1;
    const qint64 size = exists ? qint64(info.st_size) : -1;
    if (modified == m_tokensModifiedNs && size == m_tokensSize)
        return;
    m_tokensModifiedNs = modified;
    m_tokensSize = size;
    Result<std::vector<TokenInfo>> tokens = m_tokens.list();
    if (!tokens) {
        qCWarning(lcCore).noquote() << "named tokens not loaded:" << tokens.status().message();
        m_namedTokens.clear(); // fail closed
        return;
    }
    m_namedTokens = std::move(tokens).value();
}

bool AdminServer::originAllowed(const QString &origin) const
{
    if (origin.isEmpty() || m_options.allowedOrigins.contains(origin))
        return true;
    const QUrl url(origin);
    const QHostAddress host(url.host());
    const bool local = url.host() == QLatin1String("localhost") || (!host.isNull() && (host.isLoopback() || host == m_options.address));
    return local && url.port() == int(m_port);
}

void AdminServer::acceptStream()
{
    while (m_http->hasPendingWebSocketConnections()) {
        std::unique_ptr<QWebSocket> socket = m_http->nextPendingWebSocketConnection();
        if (!socket)
            continue;
        // The upgrade has happened already (QtHttpServer 6.4 cannot refuse it first): a refused
        // client is closed at once with a policy code and receives no frame.
        const QUrl url = socket->requestUrl();
        const QString remoteAddr = socket->peerAddress().toString();
        if (url.path() != kPrefix + QStringLiteral("/stream")) {
            socket->close(QWebSocketProtocol::CloseCode(4404), QStringLiteral("no stream at %1").arg(url.path().left(100)));
            continue;
        }
        if (!originAllowed(socket->origin())) {
            socket->close(QWebSocketProtocol::CloseCode(4403), QStringLiteral("origin not allowed"));
            continue;
        }
        QByteArray authorization = socket->request().rawHeader("Authorization");
        if (authorization.isEmpty() && QUrlQuery(url).hasQueryItem(QStringLiteral("token")))
            authorization = "Bearer " + QUrlQuery(url).queryItemValue(QStringLiteral("token"), QUrl::FullyDecoded).toUtf8();
        int status = 401;
        QString retryAfter;
        QByteArray tokenHash;
        Result<Identity> identity = authenticate(authorization, remoteAddr, &status, &retryAfter, &tokenHash);
        if (!identity) {
            socket->close(QWebSocketProtocol::CloseCode(status == 429 ? 4429 : 4401), identity.status().message());
            continue;
        }
        if (identity->role == Role::Ingest) {
            socket->close(QWebSocketProtocol::CloseCode(4403), QStringLiteral("an ingest token may only post events"));
            continue;
        }
        socket->setMaxAllowedIncomingFrameSize(kMaxStreamMessage);
        socket->setMaxAllowedIncomingMessageSize(kMaxStreamMessage);
        QWebSocket *raw = socket.get();
        connect(raw, &QWebSocket::disconnected, this, [this, raw] {
            const auto it = std::find_if(m_streams.begin(), m_streams.end(), [raw](const Stream &s) { return s.socket.get() == raw; });
            if (it != m_streams.end()) {
                it->socket.release()->deleteLater();
                m_streams.erase(it);
            }
        });
        m_streams.push_back(Stream{std::move(socket), tokenHash, *identity});
    }
}

} // namespace Switchyard::Server
