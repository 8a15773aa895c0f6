#pragma once

#include <QByteArray>
#include <QList>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace Switchyard::Test {

// A real HTTP/1.1 receiver on a free loopback port, on its own threads (so tests may block while
// the code under test talks to it): each connection is served on a thread of its own, so one
// that hangs delays no other. Answers every request with the configured status and body (or the
// scripted answers in turn) and records what it received; a path may be made to misbehave
// (misbehave()). Not a general server: bodies by Content-Length; one request per connection
// unless setKeepAlive(true) (as receivers behind a web server: connections are reused).
class HttpReceiver
{
public:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        QByteArray header(const QByteArray &name) const;
    };

    HttpReceiver();
    ~HttpReceiver();

    quint16 port() const { return m_port; }
    QByteArray url(const QByteArray &path = "/") const;
    // `extraHeaders`: "Name: value\r\n" lines (a redirect's Location, say).
    void respond(int status, QByteArray body, QByteArray extraHeaders = {});
    // The next requests get these answers in turn, then the respond() one again.
    void respondInTurn(QList<QPair<int, QByteArray>> answers);

    enum class Misbehaviour {
        Hang,    // reads the request and never answers (until the peer or the receiver goes)
        Trickle, // a 200 head, then one body byte every 50 ms, never finishing
        Huge,    // a 200 with a 1 GiB body, sent as fast as the peer reads
        Reset,   // reads the request and resets the connection (RST)
    };
    // Keeps connections open for further requests (set before the first one).
    void setKeepAlive(bool keep) { m_keepAlive = keep; }
    // Each ordinary answer waits this long after its request arrived (a peer that hangs up
    // meanwhile cuts it short): deliveries stay on the wire for a while.
    void setAnswerDelay(int ms) { m_answerDelayMs = ms; }
    // Requests for `path` get this instead of an answer.
    void misbehave(const QByteArray &path, Misbehaviour how);
    // Body bytes the Huge path managed to send (how much the peer read before it stopped).
    qint64 hugeBytesSent() const { return m_hugeSent; }
    QList<Request> requests() const;

private:
    void serve();
    void answer(int client);
    // Answers the request at the start of `data`; true when the connection takes another.
    bool answerOne(int client, const QByteArray &data, qsizetype headerEnd, qsizetype contentLength);

    int m_listener = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop = false;
    std::atomic<bool> m_keepAlive = false;
    std::atomic<int> m_answerDelayMs = 0;
    mutable std::mutex m_mutex;
    int m_status = 200;       // guarded by m_mutex
    QByteArray m_body = "ok"; // guarded by m_mutex
    QByteArray m_extraHeaders; // guarded by m_mutex
    QList<QPair<int, QByteArray>> m_inTurn; // guarded by m_mutex
    QList<QPair<QByteArray, Misbehaviour>> m_misbehaving; // guarded by m_mutex
    std::atomic<qint64> m_hugeSent = 0;
    struct Connection
    {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::vector<Connection> m_connections; // one per open connection, joined once done (serve's thread only)
    QList<Request> m_requests; // guarded by m_mutex
    std::thread m_thread;
};

} // namespace Switchyard::Test
