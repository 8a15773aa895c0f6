#include "requestframer.h"

#include <http_parser.h>

#include <algorithm>
#include <climits>
#include <iterator>

namespace Switchyard::Server {

namespace {

RequestFramer &framerOf(http_parser *parser)
{
    return *static_cast<RequestFramer *>(parser->data);
}

QString bodyTooLarge(qint64 limit)
{
    return QStringLiteral("body: larger than the limit of %1 bytes ([server] MAX_BODY_SIZE)").arg(limit);
}

} // namespace

RequestFramer::RequestFramer(FramerPolicy policy) : m_policy(std::move(policy)), m_parser(std::make_unique<http_parser>())
{
    http_parser_init(m_parser.get(), HTTP_REQUEST);
    m_parser->data = this;
}

RequestFramer::~RequestFramer() = default;

RequestFramer::Phase RequestFramer::feed(const char *data, size_t length)
{
    if (m_phase == Phase::Upgraded || m_phase == Phase::Refused || length == 0)
        return m_phase;
    static const http_parser_settings settings = [] {
        http_parser_settings s{};
        s.on_message_begin = &RequestFramer::onMessageBegin;
        s.on_url = &RequestFramer::onUrl;
        s.on_header_field = &RequestFramer::onHeaderField;
        s.on_header_value = &RequestFramer::onHeaderValue;
        s.on_headers_complete = &RequestFramer::onHeadersComplete;
        s.on_body = &RequestFramer::onBody;
        s.on_message_complete = &RequestFramer::onMessageComplete;
        return s;
    }();
    http_parser_execute(m_parser.get(), &settings, data, length);
    if (m_refusal) {
        m_phase = Phase::Refused;
        return m_phase;
    }
    if (m_parser->upgrade) {
        if (m_upgrading && m_phase == Phase::Complete) {
            m_phase = Phase::Upgraded; // the rest of the bytes are the new protocol's
            return m_phase;
        }
        // http_parser stops at an upgrade it was not told about (CONNECT, say): never hand it on.
        refuse(400, QStringLiteral("Upgrade: this server switches protocols only for the WebSocket stream"),
               QStringLiteral("Upgrade"));
        m_phase = Phase::Refused;
        return m_phase;
    }
    const auto error = http_errno(m_parser->http_errno);
    if (error == HPE_HEADER_OVERFLOW && !m_inHeaders) // the parser counts before it hands the URL over
        refuse(414, QStringLiteral("URL longer than %1 bytes").arg(kMaxUrlBytes), QStringLiteral("url"));
    else if (error == HPE_HEADER_OVERFLOW)
        refuse(431, QStringLiteral("request head larger than %1 bytes").arg(HTTP_MAX_HEADER_SIZE));
    else if (error != HPE_OK)
        refuse(400, QStringLiteral("malformed HTTP request: %1").arg(QString::fromLatin1(http_errno_description(error))));
    if (m_refusal)
        m_phase = Phase::Refused;
    return m_phase;
}

int RequestFramer::refuse(int status, QString message, QString field)
{
    if (!m_refusal)
        m_refusal = Refusal{status, std::move(message), std::move(field), {}};
    return 1; // the parser stops
}

int RequestFramer::onMessageBegin(http_parser *parser)
{
    RequestFramer &f = framerOf(parser);
    f.m_phase = Phase::Head;
    f.m_head = RequestHead();
    f.m_url.clear();
    f.m_field.clear();
    f.m_value.clear();
    f.m_valueTooLong = false;
    f.m_inValue = false;
    f.m_inHeaders = false;
    f.m_upgrading = false;
    f.m_bodyBytes = 0;
    return 0;
}

int RequestFramer::onUrl(http_parser *parser, const char *at, size_t length)
{
    RequestFramer &f = framerOf(parser);
    if (f.m_url.size() + qsizetype(length) > kMaxUrlBytes)
        return f.refuse(414, QStringLiteral("URL longer than %1 bytes").arg(kMaxUrlBytes), QStringLiteral("url"));
    f.m_url.append(at, qsizetype(length));
    return 0;
}

int RequestFramer::onHeaderField(http_parser *parser, const char *at, size_t length)
{
    RequestFramer &f = framerOf(parser);
    f.m_inHeaders = true;
    if (f.m_inValue) { // a new header begins: the previous one is whole
        f.keepHeader();
        f.m_field.clear();
        f.m_value.clear();
        f.m_valueTooLong = false;
        f.m_inValue = false;
    }
    if (f.m_field.size() < 64) // no header the framer keeps has a longer name
        f.m_field.append(QByteArray(at, qsizetype(std::min<size_t>(length, 64))).toLower());
    return 0;
}

int RequestFramer::onHeaderValue(http_parser *parser, const char *at, size_t length)
{
    RequestFramer &f = framerOf(parser);
    f.m_inValue = true;
    static const QByteArray kept[] = {"authorization", "upgrade", "expect"};
    if (f.m_valueTooLong || std::find(std::begin(kept), std::end(kept), f.m_field) == std::end(kept))
        return 0;
    if (f.m_value.size() + qsizetype(length) > kMaxKeptValueBytes) {
        f.m_valueTooLong = true; // kept whole or not at all: never with a piece missing
        f.m_value.clear();
        return 0;
    }
    f.m_value.append(at, qsizetype(length));
    return 0;
}

void RequestFramer::keepHeader()
{
    if (m_field == "authorization")
        m_head.authorization = m_value.trimmed();
    else if (m_field == "upgrade") {
        m_head.upgradeHeader = true;
        m_head.upgrade = m_value.trimmed();
    } else if (m_field == "expect")
        m_head.expectContinue = m_value.trimmed().compare("100-continue", Qt::CaseInsensitive) == 0;
    else if (m_field == "x-hub-signature-256" || m_field == "x-gitea-signature" || m_field == "webhook-signature")
        m_head.signature = true;
}

int RequestFramer::onHeadersComplete(http_parser *parser)
{
    RequestFramer &f = framerOf(parser);
    if (f.m_inValue)
        f.keepHeader();
    f.m_phase = Phase::Body;
    ++f.m_requests;
    const qsizetype query = f.m_url.indexOf('?');
    f.m_head.path = query < 0 ? f.m_url : f.m_url.left(query);
    f.m_head.query = query < 0 ? QByteArray() : f.m_url.mid(query + 1);
    f.m_head.method = http_method_str(http_method(parser->method));
    f.m_head.chunked = parser->flags & F_CHUNKED;
    if (parser->content_length != ULLONG_MAX)
        f.m_head.contentLength = parser->content_length > quint64(LLONG_MAX) ? LLONG_MAX : qint64(parser->content_length);
    if (std::optional<Refusal> refused = f.judgeHead(*parser)) {
        if (!f.m_refusal)
            f.m_refusal = std::move(refused);
        // Not 1: http_parser reads that as "no body" and goes on to frame the body's bytes as
        // further requests. Anything else is an error that halts it.
        return -1;
    }
    return 0;
}

std::optional<Refusal> RequestFramer::judgeHead(const http_parser &parser)
{
    m_bodyLimit = m_policy.bodyLimit(m_head);
    if (parser.upgrade || m_head.upgradeHeader) {
        const bool bodiless = !m_head.chunked && m_head.contentLength <= 0;
        if (!bodiless || !m_policy.mayUpgrade || !m_policy.mayUpgrade(m_head))
            return Refusal{400,
                           QStringLiteral("Upgrade: this server switches protocols only for GET of the WebSocket stream "
                                          "(Upgrade: websocket, no body); send the request without an Upgrade header"),
                           QStringLiteral("Upgrade"),
                           {}};
        m_upgrading = true;
    }
    if (!m_head.chunked && m_head.contentLength > m_bodyLimit)
        return Refusal{413, bodyTooLarge(m_bodyLimit), QStringLiteral("body"), {}};
    if (m_policy.admit)
        return m_policy.admit(m_head);
    return std::nullopt;
}

int RequestFramer::onBody(http_parser *parser, const char *, size_t length)
{
    RequestFramer &f = framerOf(parser);
    f.m_bodyBytes += qint64(length);
    if (f.m_bodyBytes > f.m_bodyLimit) // a chunked body grew past the limit
        return f.refuse(413, bodyTooLarge(f.m_bodyLimit), QStringLiteral("body"));
    return 0;
}

int RequestFramer::onMessageComplete(http_parser *parser)
{
    framerOf(parser).m_phase = Phase::Complete; // until the next request begins
    return 0;
}

} // namespace Switchyard::Server
