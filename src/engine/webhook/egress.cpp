// The egress policy and the request a delivery sends: which addresses a hook may reach
// (ALLOWED_HOST_LIST), which hosts go through PROXY_URL, the body a hook's type wants (a chat
// channel's conversion, a form, a GET's query), Gitea's delivery headers and their HMAC
// signatures, and where the request connects.
//
// Threads: prepare() runs on the worker of webhook_sender that claimed the flight, which owns it
// until handOff(); it blocks in the DNS lookup. Nothing here keeps state: every function is safe
// from any thread (checkEgress() and the HMACs are public).

#include "webhook_p.h"
#include "request.h"

#include "channels/channels.h"

#include "engine/core/secretbox.h"

#include <QCryptographicHash>
#include <QHostInfo>
#include <QMap>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QNetworkProxy>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace Switchyard::Webhook {

namespace {

using Headers = QList<QPair<QByteArray, QByteArray>>;

// "Basic <base64(user:password)>" of a URL's user info.
QByteArray basicCredentials(const QUrl &url)
{
    return "Basic " +
           (url.userName(QUrl::FullyDecoded) + QLatin1Char(':') + url.password(QUrl::FullyDecoded)).toUtf8().toBase64();
}

// The headers as the history shows them: Authorization as ******.
QJsonObject headersJson(const Headers &headers)
{
    QJsonObject o;
    for (const auto &[k, v] : headers)
        o.insert(QString::fromLatin1(k), k.compare("Authorization", Qt::CaseInsensitive) == 0 ? QStringLiteral("******")
                                                                                              : QString::fromUtf8(v));
    return o;
}

// `host`'s addresses, resolved once (a literal is its own); empty, with `error` set, when it
// does not resolve.
QList<QHostAddress> resolved(const QString &host, const std::function<QList<QHostAddress>(const QString &)> &resolve,
                             QString &error)
{
    QList<QHostAddress> addresses;
    QHostAddress literal(host);
    if (!literal.isNull())
        addresses = {literal};
    else if (resolve)
        addresses = resolve(host);
    else
        addresses = QHostInfo::fromName(host).addresses();
    if (addresses.isEmpty())
        error = QStringLiteral("%1 does not resolve").arg(host);
    return addresses;
}

// Go's url.QueryEscape, which Gitea's url.Values.Encode uses: letters, digits and -_.~ stay,
// a space is '+', every other byte %XX.
QByteArray queryEscape(const QByteArray &bytes)
{
    QByteArray out = QUrl::toPercentEncoding(QString::fromUtf8(bytes), QByteArray(" "));
    out.replace(' ', '+');
    return out;
}

// Gitea's GET: the URL's own query with `payload` set, encoded as url.Values.Encode does
// (keys sorted, each value query-escaped).
QUrl withPayloadQuery(QUrl url, const QByteArray &payload)
{
    // Go's url.ParseQuery: '&'-separated pairs, '+' a space, then percent-decoding.
    QMap<QString, QStringList> values;
    const auto unescape = [](QByteArray part) { return QString::fromUtf8(QByteArray::fromPercentEncoding(part.replace('+', ' '))); };
    for (const QByteArray &pair : url.query(QUrl::FullyEncoded).toUtf8().split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        values[unescape(pair.left(eq < 0 ? pair.size() : eq))] << (eq < 0 ? QString() : unescape(pair.mid(eq + 1)));
    }
    values[QStringLiteral("payload")] = {QString::fromUtf8(payload)};
    QByteArray query;
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        for (const QString &value : it.value())
            query += (query.isEmpty() ? "" : "&") + queryEscape(it.key().toUtf8()) + '=' + queryEscape(value.toUtf8());
    url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
    return url;
}

// The body `task` sends to `hook` and where to (Gitea's newDefaultRequest, or its channel's
// request for a v2 task of a chat hook): the signed payload is the document itself whatever
// the encoding on the wire (deliver.go signs t.PayloadContent for a form and a GET as well).
Status encode(const Hook &h, const HookTask &task, OutgoingRequest &out)
{
    QByteArray document = task.payload;
    out.url = QUrl(h.url);
    out.method = h.httpMethod.isEmpty() ? QStringLiteral("POST") : h.httpMethod;
    QByteArray contentType = "application/json";
    if (task.payloadVersion == 2 && Channels::isChannel(h.type)) {
        Result<Channels::Message> message = Channels::convert(h.type, QJsonDocument::fromJson(h.meta.toUtf8()).object(),
                                                              task.eventType, task.payload, task.uuid);
        if (!message)
            return Status::invalidArgument(QStringLiteral("the %1 channel cannot carry this event: %2")
                                               .arg(name(h.type), message.status().message()));
        document = QJsonDocument(message->body).toJson(QJsonDocument::Compact);
        if (!message->urlSuffix.isEmpty())
            out.url = QUrl(h.url + message->urlSuffix);
        if (!message->method.isEmpty())
            out.method = message->method;
    } else if (out.method == QLatin1String("PUT") && h.type == HookType::Matrix) {
        // A v1 matrix task: PUT to the room with the payload's SHA-1 as transaction id
        // (Gitea's getMatrixTxnID), so a resend is the same transaction.
        out.url = QUrl(h.url + QLatin1Char('/') +
                       QString::fromLatin1(QCryptographicHash::hash(document, QCryptographicHash::Sha1).toHex()));
    }
    out.payload = document;
    out.body = document;
    const bool converted = task.payloadVersion == 2 && Channels::isChannel(h.type);
    if (converted) {
        // a channel's message is a JSON body, whatever the hook's method or content type (Gitea's
        // newJSONRequest)
    } else if (out.method == QLatin1String("GET")) {
        out.url = withPayloadQuery(out.url, document);
        out.body.clear();
        contentType.clear();
    } else if (out.method != QLatin1String("POST")) {
        contentType.clear(); // a v1 matrix PUT: Gitea's newDefaultRequest sets no Content-Type
    } else if (h.contentType == ContentType::Form) {
        out.body = "payload=" + queryEscape(document);
        contentType = "application/x-www-form-urlencoded";
    }
    if (!contentType.isEmpty())
        out.headers << qMakePair(QByteArray("Content-Type"), contentType);
    return Status::ok();
}

// Gitea's (and Gogs', GitHub's) delivery headers (addDefaultHeaders): the delivery id, the
// event, the signatures of the payload (X-Hub-Signature* keep their "sha1=" / "sha256=" prefix
// without a secret, as Gitea sends them), the installation target; then ours.
Headers deliveryHeaders(const Hook &h, const HookTask &task, bool ownerIsOrganization, const QByteArray &payload)
{
    Headers headers;
    const QByteArray grouped = event(task.eventType).toLatin1();
    const QByteArray fine = name(task.eventType).toLatin1();
    const QByteArray uuid = task.uuid.toLatin1();
    const QByteArray secret = h.secret.toUtf8();
    const QByteArray sha256 = secret.isEmpty() ? QByteArray() : hmacSha256Hex(secret, payload);
    const QByteArray sha1 = secret.isEmpty() ? QByteArray() : hmacSha1Hex(secret, payload);
    const QByteArray target_type = name(targetType(h.repoId, h.ownerId, h.isSystem, ownerIsOrganization)).toLatin1();
    headers << qMakePair(QByteArray("X-Gitea-Delivery"), uuid) << qMakePair(QByteArray("X-Gitea-Event"), grouped)
            << qMakePair(QByteArray("X-Gitea-Event-Type"), fine) << qMakePair(QByteArray("X-Gitea-Signature"), sha256)
            << qMakePair(QByteArray("X-Gogs-Delivery"), uuid) << qMakePair(QByteArray("X-Gogs-Event"), grouped)
            << qMakePair(QByteArray("X-Gogs-Event-Type"), fine) << qMakePair(QByteArray("X-Gogs-Signature"), sha256)
            << qMakePair(QByteArray("X-Hub-Signature"), "sha1=" + sha1)
            << qMakePair(QByteArray("X-Hub-Signature-256"), "sha256=" + sha256)
            << qMakePair(QByteArray("X-GitHub-Delivery"), uuid) << qMakePair(QByteArray("X-GitHub-Event"), grouped)
            << qMakePair(QByteArray("X-GitHub-Event-Type"), fine)
            << qMakePair(QByteArray("X-Gitea-Hook-Installation-Target-Type"), target_type)
            << qMakePair(QByteArray("X-GitHub-Hook-Installation-Target-Type"), target_type)
            << qMakePair(QByteArray("User-Agent"), QByteArray("Switchyard-Hookshot"))
            << qMakePair(QByteArray("X-Switchyard-Trace"), task.traceId.toLatin1());
    return headers;
}

// Through PROXY_URL: a plain HTTP proxy takes the absolute URL, a TLS one (and SOCKS5) tunnels
// to the name.
void throughProxy(const QString &proxyUrl, const QUrl &url, bool tls, HttpDestination &to, HttpExchange &x)
{
    const QUrl proxy(proxyUrl);
    const bool socks = proxy.scheme().toLower() == QLatin1String("socks5");
    if (socks || tls) {
        to.proxy = QNetworkProxy(socks ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy, proxy.host(),
                                 quint16(proxy.port(socks ? 1080 : 80)), proxy.userName(), proxy.password());
    } else {
        to.host = proxy.host();
        to.port = quint16(proxy.port(80));
        x.target = url.toEncoded(QUrl::RemoveUserInfo | QUrl::RemoveFragment);
        if (!proxy.userName().isEmpty())
            x.headers += {QByteArrayLiteral("Proxy-Authorization"), basicCredentials(proxy)};
    }
}

// What goes on the wire: f's destination (`connectTo`: the vetted address, or the name through
// the proxy; the Host header and TLS name are the URL's) and its exchange's head.
void fillExchange(Flight &f, const QString &connectTo, bool viaProxy, const WebhookSettings &settings)
{
    const QUrl &url = f.url;
    const QString host = url.host();
    const bool tls = url.scheme() == QLatin1String("https");
    const quint16 port = quint16(url.port(tls ? 443 : 80));
    HttpDestination &to = f.destination;
    to.pool = f.hook.id;
    to.tls = tls;
    to.host = connectTo;
    to.port = port;
    to.peerName = host;
    to.verifyPeer = !(tls && settings.skipTlsVerify);
    HttpExchange &x = f.exchange;
    x = HttpExchange{};
    x.method = f.method;
    QByteArray origin = url.path(QUrl::FullyEncoded).toLatin1();
    if (origin.isEmpty())
        origin = "/";
    if (url.hasQuery())
        origin += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    x.target = origin;
    const QByteArray hostName = host.contains(QLatin1Char(':')) ? '[' + host.toUtf8() + ']' : host.toUtf8();
    x.headers = {
        {QByteArrayLiteral("Host"), url.port() > 0 ? hostName + ':' + QByteArray::number(url.port()) : hostName}};
    x.headers += f.headers;
    if (viaProxy)
        throughProxy(settings.proxyUrl, url, tls, to, x);
    x.body = f.body;
}

bool isRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// Go's shouldCopyHeaderOnRedirect: a credential goes on to the same host or a subdomain of it.
bool sameHostOrSubdomain(const QString &from, const QString &to)
{
    const QString a = from.toLower(), b = to.toLower();
    return a == b || b.endsWith(QLatin1Char('.') + a);
}

}  // namespace

QByteArray hmacSha256Hex(const QByteArray &secret, const QByteArray &body)
{
    return QMessageAuthenticationCode::hash(body, secret, QCryptographicHash::Sha256).toHex();
}

QByteArray hmacSha1Hex(const QByteArray &secret, const QByteArray &body)
{
    return QMessageAuthenticationCode::hash(body, secret, QCryptographicHash::Sha1).toHex();
}

bool WebhookService::Impl::proxied(const QString &host) const
{
    if (config.webhook.proxyUrl.isEmpty())
        return false;
    const QString name = host.toLower();
    return std::any_of(config.webhook.proxyHosts.cbegin(), config.webhook.proxyHosts.cend(), [&](const QString &glob) {
        return glob == QLatin1String("**") || globMatches(glob.toLower(), name);
    });
}

QString WebhookService::Impl::proxyForHistory() const
{
    QUrl url(config.webhook.proxyUrl);
    url.setPassword(QString());
    return url.toString(QUrl::RemoveUserInfo);
}

Result<OutgoingRequest> composeRequest(const Hook &hook, const HookTask &task, bool ownerIsOrganization)
{
    OutgoingRequest out;
    if (Status s = encode(hook, task, out); !s)
        return s;
    Headers headers = deliveryHeaders(hook, task, ownerIsOrganization, out.payload);
    headers += out.headers;  // Content-Type last
    out.headers = std::move(headers);
    return out;
}

void WebhookService::Impl::prepare(Flight &f)
{
    Result<OutgoingRequest> composed = composeRequest(f.hook, f.task, f.ownerIsOrganization);
    if (!composed) {
        f.request = QJsonObject{{QStringLiteral("url"), maskedUrl(f.hook.url)}, {QStringLiteral("http_method"), f.hook.httpMethod}};
        f.error = composed.status().message();
        return;
    }
    const OutgoingRequest &out = *composed;
    // Egress: resolve once, vet every address, connect to the vetted literal (no second lookup
    // that DNS rebinding could answer differently). Through the proxy the name is vetted the same
    // way, but the proxy connects to it (its own lookup is past our check).
    const QString host = out.url.host();
    const QList<QHostAddress> addresses = vetted(host, resolved(host, options.resolve, f.error), f.error);
    if (addresses.isEmpty())
        return;
    Headers headers = out.headers;
    if (f.hook.hasAuthorization) {
        Result<QByteArray> opened = secrets.open(f.sealedAuthorization);
        if (!opened) {
            f.error = QStringLiteral("the Authorization header could not be opened: %1").arg(opened.status().message());
            f.request = QJsonObject{{QStringLiteral("url"), maskedUrl(out.url.toString())},
                                    {QStringLiteral("http_method"), out.method},
                                    {QStringLiteral("headers"), headersJson(headers)}};
            return;
        }
        headers << qMakePair(QByteArray("Authorization"), *opened);
    }
    f.request = QJsonObject{{QStringLiteral("url"), maskedUrl(out.url.toString())},
                            {QStringLiteral("http_method"), out.method},
                            {QStringLiteral("headers"), headersJson(headers)},
                            {QStringLiteral("body"), QString::fromUtf8(out.payload)}};
    if (proxied(host))
        f.request.insert(QStringLiteral("proxy"), proxyForHistory());
    if (!out.url.userName().isEmpty() && !f.hook.hasAuthorization)  // credentials in the URL: sent at once, as Gitea does
        headers << qMakePair(QByteArray("Authorization"), basicCredentials(out.url));
    f.url = out.url;
    f.method = out.method.toLatin1();
    f.headers = std::move(headers);
    f.body = out.body;
    aim(f, addresses);
}

QList<QHostAddress> WebhookService::Impl::vetted(const QString &host, const QList<QHostAddress> &addresses, QString &error) const
{
    for (const QHostAddress &a : addresses)
        if (Status allowedHere = checkEgress(config.webhook.allowedHostList, host, a); !allowedHere) {
            error = allowedHere.message();
            return {};
        }
    return addresses;
}

void WebhookService::Impl::aim(Flight &f, const QList<QHostAddress> &addresses) const
{
    const bool viaProxy = proxied(f.url.host());
    fillExchange(f, viaProxy ? f.url.host() : addresses.front().toString(), viaProxy, config.webhook);
    f.exchange.maxBody = options.maxResponseBytes;
}

bool WebhookService::Impl::nextHop(Flight &f) const
{
    const HttpExchange &x = f.exchange;
    if (!f.error.isEmpty() || f.interrupted || !x.error.isEmpty() || !isRedirect(x.status))
        return false;
    QByteArray location;
    for (const auto &[k, v] : x.responseHeaders)
        if (k.compare("Location", Qt::CaseInsensitive) == 0)
            location = v;
    if (location.isEmpty())
        return false; // a 3xx without a Location ends by its status, as Go's client leaves it
    const QUrl next = f.url.resolved(QUrl::fromEncoded(location.trimmed()));
    if (next.scheme() != QLatin1String("http") && next.scheme() != QLatin1String("https")) {
        f.error = QStringLiteral("redirected to %1: not an http(s) URL").arg(maskedUrl(next.toString()).left(300));
        return false;
    }
    if (f.redirects + 1 >= kMaxRequests) {
        f.error = QStringLiteral("stopped after %1 redirects").arg(kMaxRequests); // Go's words
        return false;
    }
    ++f.redirects;
    QJsonArray hops = f.request.value(QStringLiteral("redirects")).toArray();
    hops.append(QJsonObject{{QStringLiteral("status"), x.status}, {QStringLiteral("location"), maskedUrl(next.toString())}});
    f.request.insert(QStringLiteral("redirects"), hops);
    f.request.insert(QStringLiteral("final_url"), maskedUrl(next.toString()));
    const bool keepBody = x.status == 307 || x.status == 308;
    if (!keepBody && f.method != "GET" && f.method != "HEAD")
        f.method = "GET";
    const bool credentials = sameHostOrSubdomain(f.url.host(), next.host());
    Headers headers;
    for (const auto &[k, v] : f.headers) {
        if (!credentials && k.compare("Authorization", Qt::CaseInsensitive) == 0)
            continue;
        if (!keepBody && k.compare("Content-Type", Qt::CaseInsensitive) == 0)
            continue;
        headers << qMakePair(k, v);
    }
    f.headers = std::move(headers);
    if (!keepBody)
        f.body.clear();
    f.url = next;
    return true;
}

}  // namespace Switchyard::Webhook
