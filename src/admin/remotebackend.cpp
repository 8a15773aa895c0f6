#include "remotebackend.h"

#include "adminjson.h"

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

// The HTTP answer of a failed call as the Status the local backend would have given.
Status statusFor(int http, const QByteArray &body)
{
    QString message = QJsonDocument::fromJson(body).object().value(QStringLiteral("message")).toString();
    if (message.isEmpty())
        message = QStringLiteral("HTTP %1").arg(http);
    switch (http) {
    case 400:
    case 413: return Status::invalidArgument(message);
    case 401: return Status::unauthenticated(message);
    case 403: return Status::permissionDenied(message);
    case 404: return Status::notFound(message);
    case 408: return Status::deadlineExceeded(message);
    case 409: return Status::conflict(message);
    case 429:
    case 503: return Status::unavailable(message);
    default: return Status::internal(message);
    }
}

QString segment(const QString &value)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(value));
}

} // namespace

// ---- Flush job: POST …/flush while reading the queue's length for progress --------------------

class RemoteBackend::FlushJob final : public AdminJob
{
public:
    FlushJob(RemoteBackend &backend, qint64 qid, std::chrono::milliseconds timeout, QObject *parent)
        : AdminJob(parent), m_backend(backend), m_qid(qid)
    {
        setTitle(tr("Flushing queue %1").arg(qid));
        // The length at the start is the total; then the flush itself, and the progress polls.
        m_backend.send("GET", QStringLiteral("/queues/%1").arg(qid), {}, {}, this, [this, timeout](Result<Answer> answer) {
            if (isFinished())
                return; // cancelled while counting: the flush is never sent
            if (!answer) {
                finish(answer.status());
                return;
            }
            m_total = std::max<qint64>(0, QJsonDocument::fromJson(answer->body).object().value(QStringLiteral("length")).toInteger());
            setProgress(0, m_total);
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("timeout_ms"), QString::number(timeout.count()));
            m_flush = m_backend.send("POST", QStringLiteral("/queues/%1/flush").arg(m_qid), query, {}, this, [this](Result<Answer> flushed) {
                m_flush = nullptr;
                m_progress.stop();
                if (flushed)
                    setProgress(m_total, m_total);
                finish(flushed ? Status::ok() : flushed.status());
            });
            m_progress.start();
        });
        m_progress.setInterval(m_backend.m_options.progressInterval);
        connect(&m_progress, &QTimer::timeout, this, [this] {
            if (m_reading)
                return; // one read at a time, however slow the instance is
            m_reading = true;
            m_backend.send("GET", QStringLiteral("/queues/%1").arg(m_qid), {}, {}, this, [this](Result<Answer> answer) {
                m_reading = false;
                if (!answer || isFinished())
                    return;
                const qint64 left = QJsonDocument::fromJson(answer->body).object().value(QStringLiteral("length")).toInteger();
                setProgress(std::clamp<qint64>(m_total - left, 0, m_total), m_total);
            });
        });
    }

    void cancel() override
    {
        if (isFinished())
            return;
        m_progress.stop();
        finish(Status::cancelled(tr("flush cancelled")));
        // Closing the request makes the server cancel the flush (it watches its client).
        if (m_flush)
            m_flush->abort();
    }

private:
    RemoteBackend &m_backend;
    const qint64 m_qid;
    qint64 m_total = 0;
    QPointer<QNetworkReply> m_flush;
    QTimer m_progress;
    bool m_reading = false;
};

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
                                   QObject *context, AnswerReply done)
{
    QNetworkRequest req = request(path, query);
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_network.sendCustomRequest(req, method, body);
    QPointer<QObject> target(context);
    connect(reply, &QNetworkReply::finished, this, [this, reply, target, done = std::move(done)] {
        reply->deleteLater();
        if (!target)
            return;
        const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        Result<Answer> answer = Status::internal(QString());
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
            answer = Answer{http, reply->readAll(), counted ? total : -1};
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

template<typename T>
void RemoteBackend::fetch(const QString &path, QObject *context, Reply<T> reply, Result<T> (*decode)(const QJsonValue &))
{
    const Delivery<Result<T>> delivery = this->delivery<Result<T>>(context, std::move(reply));
    send("GET", path, {}, {}, this, [delivery, decode](Result<Answer> answer) {
        if (!answer) {
            delivery.send(answer.status());
            return;
        }
        const QJsonDocument doc = QJsonDocument::fromJson(answer->body);
        delivery.send(decode(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object())));
    });
}

// Pages of 500 until X-Total-Count is reached, decoded once at the end. Each step's request owns
// the state: when the context goes, the next step is not sent and the state goes with the last
// request (no closure refers to itself).
template<typename T>
struct RemoteBackend::FetchAll
{
    QString path;
    QUrlQuery query;
    QPointer<QObject> target;
    Delivery<Result<std::vector<T>>> delivery;
    Result<std::vector<T>> (*decode)(const QJsonValue &);
    QJsonArray rows;
    int page = 1;
};

template<typename T>
void RemoteBackend::fetchAll(const QString &path, const QUrlQuery &query, QObject *context, Reply<std::vector<T>> reply,
                             Result<std::vector<T>> (*decode)(const QJsonValue &))
{
    fetchPage(std::make_shared<FetchAll<T>>(
        FetchAll<T>{path, query, QPointer<QObject>(context), this->template delivery<Result<std::vector<T>>>(context, std::move(reply)), decode, {}, 1}));
}

template<typename T>
void RemoteBackend::fetchPage(std::shared_ptr<FetchAll<T>> state)
{
    QUrlQuery paged = state->query;
    paged.addQueryItem(QStringLiteral("limit"), QString::number(kPageLimit));
    paged.addQueryItem(QStringLiteral("page"), QString::number(state->page));
    send("GET", state->path, paged, {}, this, [this, state](Result<Answer> answer) {
        if (!answer) {
            state->delivery.send(answer.status());
            return;
        }
        const QJsonArray rows = QJsonDocument::fromJson(answer->body).array();
        for (const QJsonValue &row : rows)
            state->rows.append(row);
        if (!rows.isEmpty() && answer->total > state->rows.size()) {
            if (!state->target) { // nobody waits for the rest
                state->delivery.send(Status::cancelled(tr("the view went away")));
                return;
            }
            ++state->page;
            fetchPage(state);
            return;
        }
        state->delivery.send(state->decode(state->rows));
    });
}

void RemoteBackend::perform(const QByteArray &method, const QString &path, const QByteArray &body, QObject *context,
                            StatusReply reply, const QUrlQuery &query)
{
    const Delivery<Status> delivery = this->delivery<Status>(context, std::move(reply));
    send(method, path, query, body, this, [delivery](Result<Answer> answer) { delivery.send(answer ? Status::ok() : answer.status()); });
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
    send("GET", QStringLiteral("/health"), {}, {}, this, [this, attempt](Result<Answer> health) {
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
        send("GET", QStringLiteral("/instance"), {}, {}, this, [this, attempt](Result<Answer> instance) {
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
    Result<AdminEvent> event = Json::eventFromFrame(frame.toUtf8());
    if (!event)
        return; // an event kind this console does not know (a newer server) or a malformed frame
    Q_EMIT this->event(*event);
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

// ---- Calls --------------------------------------------------------------------------------------

void RemoteBackend::instance(QObject *context, Reply<InstanceInfo> reply)
{
    fetch<InstanceInfo>(QStringLiteral("/instance"), context, std::move(reply), &Json::instanceFromJson);
}

void RemoteBackend::selfCheck(QObject *context, Reply<std::vector<SelfCheckItem>> reply)
{
    fetch<std::vector<SelfCheckItem>>(QStringLiteral("/self-check"), context, std::move(reply), &Json::selfCheckFromJson);
}

void RemoteBackend::processes(QObject *context, Reply<std::vector<ProcessRow>> reply)
{
    fetchAll<ProcessRow>(QStringLiteral("/processes"), {}, context, std::move(reply), &Json::processesFromJson);
}

void RemoteBackend::cancelProcess(qint64 pid, QObject *context, StatusReply reply)
{
    perform("POST", QStringLiteral("/processes/%1/cancel").arg(pid), {}, context, std::move(reply));
}

void RemoteBackend::notices(QObject *context, Reply<std::vector<NoticeRow>> reply)
{
    fetchAll<NoticeRow>(QStringLiteral("/notices"), {}, context, std::move(reply), &Json::noticesFromJson);
}

// One DELETE each, one after the other; the first error is reported, the rest still go (unless the
// view went away). Each request owns the state; nothing refers to itself.
struct RemoteBackend::DeleteNotices
{
    QList<qint64> left;
    Status first;
    QPointer<QObject> target;
    Delivery<Status> delivery;
};

void RemoteBackend::deleteNotices(const QList<qint64> &ids, QObject *context, StatusReply reply)
{
    deleteNext(std::make_shared<DeleteNotices>(DeleteNotices{ids, Status::ok(), QPointer<QObject>(context), this->delivery<Status>(context, std::move(reply))}));
}

void RemoteBackend::deleteNext(std::shared_ptr<DeleteNotices> state)
{
    if (state->left.isEmpty() || !state->target) {
        state->delivery.send(state->first);
        return;
    }
    const qint64 id = state->left.takeFirst();
    send("DELETE", QStringLiteral("/notices/%1").arg(id), {}, {}, this, [this, state, id](Result<Answer> answer) {
        if (answer) {
            AdminEvent removed;
            removed.type = AdminEvent::Type::NoticeRemoved;
            removed.notice.id = id;
            Q_EMIT event(removed);
        } else if (state->first.isOk()) {
            state->first = answer.status();
        }
        deleteNext(state);
    });
}

void RemoteBackend::queues(QObject *context, Reply<std::vector<QueueRow>> reply)
{
    fetchAll<QueueRow>(QStringLiteral("/queues"), {}, context, std::move(reply), &Json::queuesFromJson);
}

void RemoteBackend::queueSettings(qint64 qid, QObject *context, Reply<QueueSettingsInfo> reply)
{
    const Delivery<Result<QueueSettingsInfo>> delivery = this->delivery<Result<QueueSettingsInfo>>(context, std::move(reply));
    send("GET", QStringLiteral("/queues/%1").arg(qid), {}, {}, this, [delivery](Result<Answer> answer) {
        if (!answer) {
            delivery.send(answer.status());
            return;
        }
        delivery.send(Json::queueSettingsFromJson(QJsonDocument::fromJson(answer->body).object().value(QStringLiteral("settings"))));
    });
}

AdminJob *RemoteBackend::flushQueue(qint64 qid, std::chrono::milliseconds timeout, QObject *parent)
{
    return new FlushJob(*this, qid, timeout, parent);
}

void RemoteBackend::removeAllCount(qint64 qid, QObject *context, Reply<qint64> reply)
{
    const Delivery<Result<qint64>> delivery = this->delivery<Result<qint64>>(context, std::move(reply));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("dry_run"), QStringLiteral("1"));
    send("POST", QStringLiteral("/queues/%1/remove-all").arg(qid), query, {}, this, [delivery](Result<Answer> answer) {
        if (!answer)
            delivery.send(answer.status());
        else
            delivery.send(QJsonDocument::fromJson(answer->body).object().value(QStringLiteral("count")).toInteger());
    });
}

void RemoteBackend::removeAll(qint64 qid, QObject *context, Reply<qint64> reply)
{
    const Delivery<Result<qint64>> delivery = this->delivery<Result<qint64>>(context, std::move(reply));
    send("POST", QStringLiteral("/queues/%1/remove-all").arg(qid), {}, {}, this, [delivery](Result<Answer> answer) {
        if (!answer)
            delivery.send(answer.status());
        else
            delivery.send(QJsonDocument::fromJson(answer->body).object().value(QStringLiteral("removed")).toInteger());
    });
}

void RemoteBackend::setMaxWorkers(qint64 qid, int maxWorkers, QObject *context, StatusReply reply)
{
    perform("PUT", QStringLiteral("/queues/%1/max-workers").arg(qid),
            QJsonDocument(QJsonObject{{QStringLiteral("max_workers"), maxWorkers}}).toJson(QJsonDocument::Compact), context,
            std::move(reply));
}

void RemoteBackend::pauseQueue(qint64 qid, QObject *context, StatusReply reply)
{
    perform("POST", QStringLiteral("/queues/%1/pause").arg(qid), {}, context, std::move(reply));
}

void RemoteBackend::resumeQueue(qint64 qid, QObject *context, StatusReply reply)
{
    perform("POST", QStringLiteral("/queues/%1/resume").arg(qid), {}, context, std::move(reply));
}

void RemoteBackend::cronTasks(QObject *context, Reply<std::vector<CronRow>> reply)
{
    fetchAll<CronRow>(QStringLiteral("/cron"), {}, context, std::move(reply), &Json::cronTasksFromJson);
}

void RemoteBackend::runCron(const QString &name, QObject *context, StatusReply reply)
{
    perform("POST", QStringLiteral("/cron/%1/run").arg(segment(name)), {}, context, std::move(reply));
}

void RemoteBackend::pauseCron(const QString &name, QObject *context, StatusReply reply)
{
    perform("POST", QStringLiteral("/cron/%1/pause").arg(segment(name)), {}, context, std::move(reply));
}

void RemoteBackend::resumeCron(const QString &name, QObject *context, StatusReply reply)
{
    perform("POST", QStringLiteral("/cron/%1/resume").arg(segment(name)), {}, context, std::move(reply));
}

void RemoteBackend::cronRuns(const QString &name, QObject *context, Reply<std::vector<CronRun>> reply)
{
    fetchAll<CronRun>(QStringLiteral("/cron/%1/runs").arg(segment(name)), {}, context, std::move(reply), &Json::cronRunsFromJson);
}

void RemoteBackend::locks(QObject *context, Reply<std::vector<LockRow>> reply)
{
    fetchAll<LockRow>(QStringLiteral("/locks"), {}, context, std::move(reply), &Json::locksFromJson);
}

void RemoteBackend::forceReleaseLock(const QString &key, QObject *context, StatusReply reply)
{
    perform("POST", QStringLiteral("/locks/%1/force-release").arg(segment(key)), {}, context, std::move(reply));
}

void RemoteBackend::cacheInfo(QObject *context, Reply<CacheInfo> reply)
{
    fetch<CacheInfo>(QStringLiteral("/cache"), context, std::move(reply), &Json::cacheInfoFromJson);
}

void RemoteBackend::cacheStats(QObject *context, Reply<CacheStats> reply)
{
    fetch<CacheStats>(QStringLiteral("/cache/stats"), context, std::move(reply), &Json::cacheStatsFromJson);
}

void RemoteBackend::cacheTest(QObject *context, Reply<CacheTest> reply)
{
    const Delivery<Result<CacheTest>> delivery = this->delivery<Result<CacheTest>>(context, std::move(reply));
    send("POST", QStringLiteral("/cache/test"), {}, {}, this, [delivery](Result<Answer> answer) {
        if (!answer)
            delivery.send(answer.status());
        else
            delivery.send(Json::cacheTestFromJson(QJsonDocument::fromJson(answer->body).object()));
    });
}

void RemoteBackend::qos(QObject *context, Reply<QosStats> reply)
{
    fetch<QosStats>(QStringLiteral("/qos"), context, std::move(reply), &Json::qosFromJson);
}

void RemoteBackend::audit(const QString &action, QObject *context, Reply<std::vector<AuditEntry>> reply)
{
    const Delivery<Result<std::vector<AuditEntry>>> delivery = this->delivery<Result<std::vector<AuditEntry>>>(context, std::move(reply));
    QUrlQuery query;
    if (!action.isEmpty())
        query.addQueryItem(QStringLiteral("action"), action);
    // The newest page only: the audit log can be long; the page says how many there are.
    query.addQueryItem(QStringLiteral("limit"), QString::number(kPageLimit));
    send("GET", QStringLiteral("/audit"), query, {}, this, [delivery](Result<Answer> answer) {
        if (!answer)
            delivery.send(answer.status());
        else
            delivery.send(Json::auditFromJson(QJsonDocument::fromJson(answer->body).array()));
    });
}

} // namespace Switchyard::Admin
