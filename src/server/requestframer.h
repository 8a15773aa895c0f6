#pragma once

// One connection's HTTP/1.1 request framing, judged before QtHttpServer buffers any of it.
// http_parser (the maintained C parser) follows the bytes; when a request head ends, the policy
// says how large a body the request may send, whether it is admitted at all (its token or event
// signature, the server's buffering budget, a reserved slot) and whether it may leave HTTP (only
// the stream's WebSocket upgrade may). The framer counts the body against its limit as it comes.
//
// Pure: no socket, no clock, no logging — the edge (httpedge.h) owns those, and the fuzz target
// feeds it arbitrary bytes. Threads: a framer belongs to one connection and is used on the thread
// that owns that connection.

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

struct http_parser;

namespace Switchyard::Server {

// What the framer learned from a request head.
struct RequestHead
{
    QByteArray method;
    QByteArray path;            // the URL's path (still percent-encoded), without the query
    QByteArray query;           // after '?', without it
    QByteArray authorization;   // the Authorization header's value ("" when absent)
    QByteArray upgrade;         // the Upgrade header's value ("" when absent)
    bool upgradeHeader = false; // an Upgrade header came, whatever Connection says
    bool signature = false;     // X-Hub-Signature-256, X-Gitea-Signature or webhook-signature came
    bool expectContinue = false; // Expect: 100-continue (the client waits before it sends the body)
    qint64 contentLength = -1;  // -1: none declared
    bool chunked = false;
};

// An answer the edge writes instead of handing the request on.
struct Refusal
{
    int status = 0;
    QString message;
    QString field;
    std::vector<std::pair<QByteArray, QByteArray>> headers; // e.g. Retry-After, WWW-Authenticate
};

struct FramerPolicy
{
    // The largest body the request may send (required).
    std::function<qint64(const RequestHead &)> bodyLimit;
    // A refusal decided on the head alone, before a byte of the body is read; nullopt: admitted.
    std::function<std::optional<Refusal>(const RequestHead &)> admit;
    // Whether the request may switch protocols; the rest of the connection then leaves the framer.
    std::function<bool(const RequestHead &)> mayUpgrade;
};

class RequestFramer
{
public:
    static constexpr qsizetype kMaxUrlBytes = 8 * 1024;
    static constexpr qsizetype kMaxKeptValueBytes = 8 * 1024; // per header value the framer keeps

    enum class Phase {
        Waiting,  // between requests (or before the first)
        Head,     // a request head is arriving
        Body,     // its body is arriving
        Complete, // a whole request went by (QtHttpServer answers it)
        Upgraded, // the connection switched protocols: nothing more is framed
        Refused,  // refusal() says why; nothing more is framed
    };

    explicit RequestFramer(FramerPolicy policy);
    ~RequestFramer();
    RequestFramer(const RequestFramer &) = delete;
    RequestFramer &operator=(const RequestFramer &) = delete;

    // Follows `length` more bytes of the connection; returns the phase after them.
    Phase feed(const char *data, size_t length);

    Phase phase() const { return m_phase; }
    // The head of the request being framed (or the last one).
    const RequestHead &head() const { return m_head; }
    qint64 bodyBytes() const { return m_bodyBytes; }
    qint64 bodyLimit() const { return m_bodyLimit; }
    const std::optional<Refusal> &refusal() const { return m_refusal; }
    // Requests whose head has ended on this connection.
    qint64 requests() const { return m_requests; }

private:
    static int onMessageBegin(::http_parser *parser);
    static int onUrl(::http_parser *parser, const char *at, size_t length);
    static int onHeaderField(::http_parser *parser, const char *at, size_t length);
    static int onHeaderValue(::http_parser *parser, const char *at, size_t length);
    static int onHeadersComplete(::http_parser *parser);
    static int onBody(::http_parser *parser, const char *at, size_t length);
    static int onMessageComplete(::http_parser *parser);

    void keepHeader(); // the header just read, if it is one the policy looks at
    int refuse(int status, QString message, QString field = QString());
    std::optional<Refusal> judgeHead(const ::http_parser &parser);

    FramerPolicy m_policy;
    std::unique_ptr<::http_parser> m_parser;
    Phase m_phase = Phase::Waiting;
    RequestHead m_head;
    QByteArray m_url;
    QByteArray m_field;         // the header name being read (lower-cased)
    QByteArray m_value;         // its value, when it is one the framer keeps
    bool m_inValue = false;     // the last callback was a header value
    bool m_valueTooLong = false; // the kept header's value passed kMaxKeptValueBytes: kept empty
    bool m_inHeaders = false;   // past the request line
    bool m_upgrading = false;   // the policy let this request switch protocols
    qint64 m_bodyBytes = 0;
    qint64 m_bodyLimit = 0;
    qint64 m_requests = 0;
    std::optional<Refusal> m_refusal;
};

} // namespace Switchyard::Server
