#include "remotebackend.h"

#include "jsoncodec.h"
#include "streamevents.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSslConfiguration>
#include <QWebSocket>

namespace Switchyard::Admin {

namespace {

constexpr int kApiVersion = 1;
constexpr int kPageLimit = 500;

// The HTTP answer of a failed call as the Status the engine gave: the body's code and field,
// or the status line's meaning for a server that sends none (a proxy, an older version).
Status statusFor(int http, const QByteArray &body)
{
    return Json::statusFromError(QJsonDocument::fromJson(body).object(), Answer::codeForHttp(http), QStringLiteral("HTTP %1").arg(http));
}

} // namespace

// ---- RemoteBackend ------------------------------------------------------------------------------

RemoteBackend::RemoteBackend(RemoteBackendOptions options, QObject *parent)
    : AdminBackend(parent), m_options(std::move(options))
{
    if (!m_options.url.path().endsWith(QLatin1String("/api/v1"))) {
        QString path = m_options.url.path();
        while (path.endsWith(u'/'))
            path.chop(1);
        m_options.url.setPath(path + QStringLiteral("/api/v1"));
    }
    m_progressInterval = m_options.progressInterval;
    // Never follow a redirect: the token would go wherever it points.
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, &RemoteBackend::connectNow);
    m_ping.setInterval(m_options.pingInterval);
    connect(&m_ping, &QTimer::timeout, this, [this] {
        if (!m_stream)
            return;
        if (m_awaitingPong) {
            streamLost(tr("the stream stopped answering"));
            return;
        }
        m_awaitingPong = true;
        m_stream->ping();
    });
}

RemoteBackend::~RemoteBackend()
{
    m_closing = true;
    if (m_stream)
        m_stream->abort();
    // Every call in flight ends now (as Cancelled), so each reply is delivered — or dropped with
    // its context — and none is left waiting for an answer that can no longer come.
    for (QNetworkReply *reply : m_network.findChildren<QNetworkReply *>())
        reply->abort();
}

QString RemoteBackend::displayName() const
{
    if (!m_options.name.isEmpty())
        return m_options.name;
    return QStringLiteral("%1:%2").arg(m_options.url.host()).arg(m_options.url.port(m_options.url.scheme() == QLatin1String("https") ? 443 : 80));
}

QNetworkRequest RemoteBackend::request(const QString &path, const QUrlQuery &query) const
{
    QUrl url = m_options.url;
    // The path's segments are percent-encoded already (a lock key may hold '/' or ':').
    url.setPath(m_options.url.path(QUrl::FullyEncoded) + path, QUrl::TolerantMode);
    url.setQuery(query);
    QNetworkRequest request(url);
    if (!m_options.token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_options.token);
    request.setTransferTimeout(int(m_options.requestTimeout.count()));
    if (!m_options.caCertificates.isEmpty()) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificates(m_options.caCertificates);
        request.setSslConfiguration(ssl);
    }
    return request;
}

int RemoteBackend::requestsInFlight() const
{
    const QList<QNetworkReply *> replies = m_network.findChildren<QNetworkReply *>();
    return int(std::count_if(replies.begin(), replies.end(), [](const QNetworkReply *r) { return r->isRunning(); }));
}

QUrl RemoteBackend::streamUrl() const
{
    QUrl url = m_options.url;
    url.setScheme(url.scheme() == QLatin1String("https") ? QStringLiteral("wss") : QStringLiteral("ws"));
    url.setPath(url.path() + QStringLiteral("/stream"));
    return url;
}

QNetworkReply *RemoteBackend::send(const QByteArray &method, const QString &path, const QUrlQuery &query, const QByteArray &body,
                                   QObject *context, AnswerReply done, const std::vector<std::pair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest req = request(path, query);
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        req.setRawHeader(name, value);
    QNetworkReply *reply = m_network.sendCustomRequest(req, method, body);
    QPointer<QObject> target(context);
    connect(reply, &QNetworkReply::finished, this, [this, reply, target, done = std::move(done)] {
        reply->deleteLater();
        if (!target)
            return;
        const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        Result<HttpAnswer> answer = Status::internal(QString());
        if (http == 0) {
            answer = reply->error() == QNetworkReply::OperationCanceledError && m_closing
                         ? Status::cancelled(tr("the connection was closed"))
                         : Status::unavailable(tr("%1 is unreachable: %2").arg(displayName(), reply->errorString()));
        } else if (http >= 300 && http < 400) {
            answer = Status::unavailable(tr("%1 answered with a redirect to %2; it is not followed, since the token would go along "
                                            "(connect to the address you trust instead)")
                                             .arg(displayName(), QString::fromUtf8(reply->rawHeader("Location")).left(200)));
        } else if (http >= 200 && http < 300) {
            bool counted = false;
            const qint64 total = reply->rawHeader("X-Total-Count").toLongLong(&counted);
            answer = HttpAnswer{http, reply->readAll(), counted ? total : -1};
        } else {
            answer = statusFor(http, reply->readAll());
        }
        // A token revoked while connected: say so once, stop retrying.
        if (!answer && answer.status().code() == Status::Code::Unauthenticated && state() == State::Connected)
            fail(Problem::Unauthorised, tr("the instance no longer accepts this token"));
        done(std::move(answer));
    });
    if (m_closing) // answered as Cancelled from the event loop, never inside this call
        QMetaObject::invokeMethod(reply, &QNetworkReply::abort, Qt::QueuedConnection);
    return reply;
}

// Pages of 500 until X-Total-Count is reached. Each step's request owns the state: when the
// context goes, the next step is not sent and the state goes with the last request.
struct RemoteBackend::FetchAll
{
    QString path;
    QUrlQuery query;
    Invocation invocation;
    std::shared_ptr<bool> cancelled;
    std::shared_ptr<QPointer<QNetworkReply>> current;
    QJsonArray rows;
    int page = 1;
};

void RemoteBackend::fetchPage(std::shared_ptr<FetchAll> state)
{
    QUrlQuery paged = state->query;
    paged.addQueryItem(QStringLiteral("limit"), QString::number(kPageLimit));
    paged.addQueryItem(QStringLiteral("page"), QString::number(state->page));
    *state->current = send("GET", state->path, paged, {}, this, [this, state](Result<HttpAnswer> answer) {
        if (!answer) {
            state->invocation.remote(*state->cancelled ? Status::cancelled(tr("cancelled")) : answer.status());
            return;
        }
        const QJsonArray rows = QJsonDocument::fromJson(answer->body).array();
        for (const QJsonValue &row : rows)
            state->rows.append(row);
        if (!rows.isEmpty() && answer->total > state->rows.size()) {
            if (!state->invocation.context || *state->cancelled) { // nobody waits for the rest
                state->invocation.remote(Status::cancelled(tr("the view went away")));
                return;
            }
            ++state->page;
            fetchPage(state);
            return;
        }
        state->invocation.remote(RemoteAnswer{state->rows, {}, qint64(state->rows.size())});
    });
}

CallHandle RemoteBackend::dispatch(Invocation invocation)
{
    const OpBase &op = *invocation.op;
    const QString path = op.pathFor(invocation.request.params);
    auto cancelled = std::make_shared<bool>(false);
    auto current = std::make_shared<QPointer<QNetworkReply>>();
    CallHandle handle([cancelled, current] {
        *cancelled = true;
        if (*current) // the server cancels what the request started when its client goes
            QMetaObject::invokeMethod(current->data(), &QNetworkReply::abort, Qt::QueuedConnection);
    });
    if (op.hasFlag(Paged)) {
        fetchPage(std::make_shared<FetchAll>(FetchAll{path, invocation.request.query, std::move(invocation), cancelled, current, {}, 1}));
        return handle;
    }
    // Read before the invocation moves into the answer's handler (argument order is unspecified).
    const QUrlQuery query = invocation.request.query;
    const QByteArray body = invocation.request.body;
    const auto headers = invocation.request.headers;
    *current = send(methodName(op.info().method), path, query, body, this,
                    [this, invocation = std::move(invocation), cancelled](Result<HttpAnswer> answer) {
                        if (!answer) {
                            invocation.remote(*cancelled ? Status::cancelled(tr("cancelled")) : answer.status());
                            return;
                        }
                        RemoteAnswer decoded;
                        decoded.raw = answer->body;
                        decoded.total = answer->total;
                        const QJsonDocument doc = QJsonDocument::fromJson(answer->body);
                        decoded.json = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
                        invocation.remote(std::move(decoded));
                    },
                    headers);
    return handle;
}

// ---- Connection ---------------------------------------------------------------------------------

void RemoteBackend::start()
{
    m_closing = false;
    connectNow();
}

void RemoteBackend::connectNow()
{
    if (m_closing)
        return;
    const qint64 attempt = ++m_connection;
    setState(State::Connecting, m_attempt == 0 ? tr("connecting to %1").arg(m_options.url.toString())
                                                 : tr("reconnecting to %1 (attempt %2)").arg(m_options.url.toString()).arg(m_attempt + 1));
    // /health needs no token: it tells "unreachable" and "incompatible" apart from "unauthorised".
    send("GET", QStringLiteral("/health"), {}, {}, this, [this, attempt](Result<HttpAnswer> health) {
        if (attempt != m_connection || m_closing)
            return;
        if (!health) {
            if (health.status().code() == Status::Code::NotFound)
                fail(Problem::Incompatible, tr("%1 has no admin API v%2 (is this a Switchyard instance?)").arg(m_options.url.toString()).arg(kApiVersion));
            else
                scheduleReconnect(Problem::Unreachable, health.status().message());
            return;
        }
        const QJsonObject info = QJsonDocument::fromJson(health->body).object();
        const int version = info.value(QStringLiteral("api_version")).toInt(-1);
        if (version != kApiVersion) {
            fail(Problem::Incompatible, tr("incompatible version: the instance (Switchyard %1) speaks admin API v%2; this console speaks v%3")
                                            .arg(info.value(QStringLiteral("version")).toString(QStringLiteral("?")))
                                            .arg(version)
                                            .arg(kApiVersion));
            return;
        }
        send("GET", QStringLiteral("/instance"), {}, {}, this, [this, attempt](Result<HttpAnswer> instance) {
            if (attempt != m_connection || m_closing)
                return;
            if (!instance) {
                if (instance.status().code() == Status::Code::Unauthenticated)
                    fail(Problem::Unauthorised, tr("unauthorised: %1 refused the token").arg(displayName()));
                else
                    scheduleReconnect(Problem::Unreachable, instance.status().message());
                return;
            }
            const QJsonObject access = QJsonDocument::fromJson(instance->body).object().value(QStringLiteral("access")).toObject();
            m_canMutate = access.value(QStringLiteral("role")).toString() == QLatin1String("admin");
            openStream();
        });
    });
}

void RemoteBackend::openStream()
{
    const qint64 attempt = m_connection;
    m_stream = std::make_unique<QWebSocket>();
    QWebSocket *socket = m_stream.get();
    connect(socket, &QWebSocket::textMessageReceived, this, &RemoteBackend::onFrame);
    connect(socket, &QWebSocket::pong, this, [this] { m_awaitingPong = false; });
    connect(socket, &QWebSocket::connected, this, [this, attempt] {
        if (attempt != m_connection)
            return;
        m_attempt = 0;
        m_problem = Problem::None;
        m_awaitingPong = false;
        m_ping.start();
        // Pages re-read their lists on every (re)connection.
        setState(State::Connected, m_canMutate ? QString() : tr("read-only token: changes are disabled"));
    });
    connect(socket, &QWebSocket::disconnected, this, [this, socket, attempt] {
        if (attempt != m_connection || m_closing)
            return;
        const int code = socket->closeCode();
        if (code == 4401) {
            fail(Problem::Unauthorised, tr("unauthorised: %1 refused the token").arg(displayName()));
            return;
        }
        streamLost(socket->closeReason().isEmpty() ? socket->errorString() : socket->closeReason());
    });
    QNetworkRequest req = request(QString());
    req.setUrl(streamUrl());
    socket->open(req);
}

void RemoteBackend::streamLost(const QString &why)
{
    m_ping.stop();
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->abort();
        m_stream.release()->deleteLater();
    }
    scheduleReconnect(Problem::Unreachable, why);
}

void RemoteBackend::scheduleReconnect(Problem problem, const QString &why)
{
    if (m_closing)
        return;
    m_problem = problem;
    // Exponential backoff with jitter: min·2^n capped at max, then a random half to a whole of it,
    // so that consoles that lost the same daemon do not return in step.
    const double base = std::min<double>(double(m_options.reconnectMax.count()),
                                         double(m_options.reconnectMin.count()) * std::pow(2.0, std::min(m_attempt, 20)));
    const int delay = int(base / 2 + QRandomGenerator::global()->bounded(base / 2 + 1));
    ++m_attempt;
    m_reconnect.start(delay);
    setState(State::Connecting, tr("unreachable: %1 — retrying in %2 s").arg(why).arg((delay + 999) / 1000));
}

void RemoteBackend::fail(Problem problem, const QString &why)
{
    m_problem = problem;
    m_reconnect.stop();
    m_ping.stop();
    ++m_connection;
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->abort();
        m_stream.release()->deleteLater();
    }
    setState(State::Failed, why);
}

void RemoteBackend::onFrame(const QString &frame)
{
    Result<AdminEvent> event = Stream::eventFromFrame(frame.toUtf8());
    if (!event)
        return; // an event kind this console does not know (a newer server) or a malformed frame
    // In order with the replies (handOver), which are handed over a few milliseconds per pass.
    handOver([this, event = std::move(event).value(), connection = m_connection] {
        if (connection == m_connection)
            Q_EMIT this->event(event);
    });
}

void RemoteBackend::close(const QString &reason)
{
    if (m_closing && (state() == State::Closing || state() == State::Closed))
        return;
    m_closing = true;
    setState(State::Closing, reason);
    m_reconnect.stop();
    m_ping.stop();
    ++m_connection;
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->close(QWebSocketProtocol::CloseCodeNormal, reason);
        m_stream.release()->deleteLater();
    }
    // Requests in flight end as Cancelled — from the event loop, not inside close(); then Closed.
    for (QNetworkReply *reply : m_network.findChildren<QNetworkReply *>())
        QMetaObject::invokeMethod(reply, &QNetworkReply::abort, Qt::QueuedConnection);
    QMetaObject::invokeMethod(this, [this] {
        setState(State::Closed);
        Q_EMIT closed(true);
    }, Qt::QueuedConnection);
}

} // namespace Switchyard::Admin
