#include "httpreceiver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <optional>

namespace Switchyard::Test {

QByteArray HttpReceiver::Request::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return QByteArray();
}

HttpReceiver::HttpReceiver()
{
    m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    if (::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0 || ::listen(m_listener, 16) != 0)
        qFatal("HttpReceiver: cannot listen on loopback");
    socklen_t length = sizeof(address);
    ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &length);
    m_port = ntohs(address.sin_port);
    m_thread = std::thread([this] { serve(); });
}

HttpReceiver::~HttpReceiver()
{
    m_stop = true;
    m_thread.join();
    ::close(m_listener);
}

QByteArray HttpReceiver::url(const QByteArray &path) const
{
    return "http://127.0.0.1:" + QByteArray::number(m_port) + path;
}

void HttpReceiver::respond(int status, QByteArray body, QByteArray extraHeaders)
{
    std::lock_guard lock(m_mutex);
    m_status = status;
    m_body = std::move(body);
    m_extraHeaders = std::move(extraHeaders);
}

void HttpReceiver::respondInTurn(QList<QPair<int, QByteArray>> answers)
{
    std::lock_guard lock(m_mutex);
    m_inTurn = std::move(answers);
}

QList<HttpReceiver::Request> HttpReceiver::requests() const
{
    // A copy of its own: a shared one would let the serving thread, finding itself the last owner
    // (a relaxed reference-count check), move the elements this caller is still reading.
    std::lock_guard lock(m_mutex);
    QList<Request> copy = m_requests;
    copy.detach();
    return copy;
}

void HttpReceiver::misbehave(const QByteArray &path, Misbehaviour how)
{
    std::lock_guard lock(m_mutex);
    m_misbehaving.append({path, how});
}

void HttpReceiver::serve()
{
    while (!m_stop) {
        pollfd listening{m_listener, POLLIN, 0};
        if (::poll(&listening, 1, 20) <= 0)
            continue; // re-check m_stop
        const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0)
            continue;
        std::erase_if(m_connections, [](Connection &c) {
            if (!*c.done)
                return false;
            c.thread.join();
            return true;
        });
        auto done = std::make_shared<std::atomic<bool>>(false);
        m_connections.push_back({std::thread([this, client, done] {
                                     answer(client);
                                     *done = true;
                                 }),
                                 done});
    }
    for (Connection &c : m_connections)
        c.thread.join();
}

void HttpReceiver::answer(int client)
{
    QByteArray data; // what was read and not yet taken by a request
    for (;;) {
        qsizetype headerEnd = -1;
        qsizetype contentLength = 0;
        char buffer[4096];
        bool complete = false;
        while (!m_stop) {
            if (headerEnd < 0 && (headerEnd = data.indexOf("\r\n\r\n")) >= 0) {
                for (const QByteArray &line : data.left(headerEnd).split('\n')) {
                    if (line.toLower().startsWith("content-length:"))
                        contentLength = line.mid(15).trimmed().toLongLong();
                }
            }
            if (headerEnd >= 0 && data.size() >= headerEnd + 4 + contentLength) {
                complete = true;
                break;
            }
            pollfd readable{client, POLLIN, 0};
            const int ready = ::poll(&readable, 1, 20);
            if (ready == 0)
                continue; // re-check m_stop
            if (ready < 0)
                break;
            const ssize_t n = ::read(client, buffer, sizeof(buffer));
            if (n <= 0)
                break;
            data.append(buffer, n);
        }
        if (!complete && (data.isEmpty() || m_keepAlive))
            break; // a kept connection the peer closed between requests
        if (!answerOne(client, data, headerEnd, contentLength))
            break;
        data.remove(0, headerEnd + 4 + contentLength);
    }
    ::close(client);
}

bool HttpReceiver::answerOne(int client, const QByteArray &data, qsizetype headerEnd, qsizetype contentLength)
{
    Request request;
    const QList<QByteArray> lines = data.left(std::max<qsizetype>(0, headerEnd)).split('\n');
    if (!lines.isEmpty()) {
        const QList<QByteArray> first = lines.first().trimmed().split(' ');
        request.method = first.value(0);
        request.path = first.value(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon > 0)
                request.headers.append({lines[i].left(colon).trimmed(), lines[i].mid(colon + 1).trimmed()});
        }
    }
    request.body = data.mid(headerEnd + 4, contentLength);
    QByteArray response;
    std::optional<Misbehaviour> how;
    {
        std::lock_guard lock(m_mutex);
        m_requests.append(request);
        for (const auto &[path, misbehaviour] : m_misbehaving)
            if (request.path.startsWith(path))
                how = misbehaviour;
        const QPair<int, QByteArray> answer = m_inTurn.isEmpty() ? qMakePair(m_status, m_body) : m_inTurn.takeFirst();
        response = "HTTP/1.1 " + QByteArray::number(answer.first) + " Status\r\n" + m_extraHeaders
                   + "Content-Type: text/plain\r\nContent-Length: " + QByteArray::number(answer.second.size())
                   + (m_keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n") + answer.second;
    }
    // Until the peer goes (a read of 0 or an error) or the receiver stops.
    const auto peerGone = [&](int waitMs) {
        pollfd p{client, POLLIN, 0};
        if (::poll(&p, 1, waitMs) <= 0)
            return false;
        char byte;
        return ::recv(client, &byte, 1, MSG_DONTWAIT) <= 0;
    };
    if (!how) {
        if (const int delay = m_answerDelayMs; delay > 0) // a receiver that works a little before it answers
            peerGone(delay);
        const ssize_t written = ::send(client, response.constData(), size_t(response.size()), MSG_NOSIGNAL);
        return m_keepAlive && written == ssize_t(response.size()); // the next request on this connection
    }
    if (*how == Misbehaviour::Hang) {
        while (!m_stop && !peerGone(20)) {
        }
    } else if (*how == Misbehaviour::Trickle) {
        const QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n";
        bool open = ::send(client, head.constData(), size_t(head.size()), MSG_NOSIGNAL) > 0;
        while (open && !m_stop && !peerGone(50))
            open = ::send(client, "x", 1, MSG_NOSIGNAL) == 1;
    } else if (*how == Misbehaviour::Huge) {
        const qint64 total = qint64(1) << 30;
        const QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " + QByteArray::number(total) + "\r\n\r\n";
        bool open = ::send(client, head.constData(), size_t(head.size()), MSG_NOSIGNAL) > 0;
        const QByteArray chunk(64 * 1024, 'z');
        qint64 sent = 0;
        while (open && !m_stop && sent < total) {
            pollfd writable{client, POLLOUT, 0};
            if (::poll(&writable, 1, 20) <= 0)
                continue;
            const ssize_t n = ::send(client, chunk.constData(), size_t(std::min<qint64>(chunk.size(), total - sent)), MSG_NOSIGNAL);
            open = n > 0;
            if (open) {
                sent += n;
                m_hugeSent = sent;
            }
        }
    } else if (*how == Misbehaviour::Reset) {
        linger reset{1, 0}; // close() sends RST
        ::setsockopt(client, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
    }
    return false; // a misbehaving answer ends its connection
}

} // namespace Switchyard::Test
