#pragma once

// AdminBackend over the admin API of an instance that runs elsewhere (SPEC §12): every call is a
// REST request, the live stream is the WebSocket /stream. The connection is watched: a lost stream
// reconnects with exponential backoff and jitter, and each (re)connection is announced by
// stateChanged(Connected) so pages re-read what they show. States say what is wrong — unreachable
// (retrying), unauthorised (401: stops), incompatible API version (stops); a read-only token
// connects with canMutate() false so pages disable what it may not do.

#include "adminbackend.h"

#include <QNetworkAccessManager>
#include <QPointer>
#include <QSslCertificate>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

#include <chrono>
#include <functional>
#include <memory>

class QNetworkReply;
class QWebSocket;

namespace Switchyard::Admin {

struct RemoteBackendOptions
{
    QUrl url;             // the API base: http(s)://host:port/api/v1 (a bare host:port gets /api/v1)
    QByteArray token;
    QString name;         // shown in the console; empty: host:port
    std::chrono::milliseconds reconnectMin{500};
    std::chrono::milliseconds reconnectMax{30000};
    std::chrono::milliseconds requestTimeout{60000};
    std::chrono::milliseconds progressInterval{200}; // how often a flush job reads the queue length
    std::chrono::milliseconds pingInterval{15000};   // a stream without a pong for this long is reconnected
    QList<QSslCertificate> caCertificates;           // extra trust for a self-signed instance
};

// Thread-safety: a QObject of the thread that created it (the GUI thread); all calls from there.
// Owns its network objects; no threads of its own.
class RemoteBackend final : public AdminBackend
{
    Q_OBJECT
public:
    // Why the backend is not (or no longer) Connected.
    enum class Problem { None, Unreachable, Unauthorised, Incompatible };
    Q_ENUM(Problem)

    explicit RemoteBackend(RemoteBackendOptions options, QObject *parent = nullptr);
    ~RemoteBackend() override;

    // Connecting → Connected (or Failed). Returns at once.
    void start();
    // HTTP requests sent and not yet answered (a diagnostic: pages keep one read per kind out).
    int requestsInFlight() const;
    void close(const QString &reason) override;
    QString displayName() const override;
    bool canMutate() const override { return m_canMutate; }
    Problem problem() const { return m_problem; }
    QUrl url() const { return m_options.url; }
    int reconnectAttempts() const { return m_attempt; }

    // One HTTP answer: the status and body of a 2xx, else the Status the error maps to.
    struct HttpAnswer
    {
        int status = 0;
        QByteArray body;
        qint64 total = -1; // X-Total-Count
    };
    using AnswerReply = std::function<void(Result<HttpAnswer>)>;
    // Sends one request; `done` runs on this backend's thread when the answer comes, unless
    // `context` is gone by then. Public for tests; pages use call(), which delivers to their
    // context's thread through a Delivery.
    QUrl apiUrl() const override { return m_options.url; }
    QNetworkReply *send(const QByteArray &method, const QString &path, const QUrlQuery &query, const QByteArray &body,
                        QObject *context, AnswerReply done, const std::vector<std::pair<QByteArray, QByteArray>> &headers = {});

protected:
    CallHandle dispatch(Invocation invocation) override;

private:
    struct FetchAll;
    void fetchPage(std::shared_ptr<FetchAll> state);

    void connectNow();
    void openStream();
    void streamLost(const QString &why);
    void scheduleReconnect(Problem problem, const QString &why);
    void fail(Problem problem, const QString &why);
    void onFrame(const QString &frame);
    QNetworkRequest request(const QString &path, const QUrlQuery &query = {}) const;
    QUrl streamUrl() const;

    RemoteBackendOptions m_options;
    QNetworkAccessManager m_network;
    std::unique_ptr<QWebSocket> m_stream;
    QTimer m_reconnect;
    QTimer m_ping;
    bool m_awaitingPong = false;
    bool m_closing = false;
    bool m_canMutate = false;
    int m_attempt = 0;
    Problem m_problem = Problem::None;
    qint64 m_connection = 0; // bumped per connection attempt: late answers of an old attempt are ignored
};

} // namespace Switchyard::Admin
