#pragma once

#include <QByteArray>
#include <QList>

#include <atomic>
#include <mutex>
#include <thread>

namespace Switchyard::Test {

// A real HTTP/1.1 receiver on a free loopback port, on its own thread (so tests may block while
// the code under test talks to it). Answers every request with the configured status and body and
// records what it received. Not a general server: one request per connection, bodies by
// Content-Length.
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
    QList<Request> requests() const;

private:
    void serve();

    int m_listener = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop = false;
    mutable std::mutex m_mutex;
    int m_status = 200;       // guarded by m_mutex
    QByteArray m_body = "ok"; // guarded by m_mutex
    QByteArray m_extraHeaders; // guarded by m_mutex
    QList<QPair<int, QByteArray>> m_inTurn; // guarded by m_mutex
    QList<Request> m_requests; // guarded by m_mutex
    std::thread m_thread;
};

} // namespace Switchyard::Test
