// The egress policy and the request a delivery sends: which addresses a hook may reach
// (ALLOWED_HOST_LIST), which hosts go through PROXY_URL, the body a hook's type wants (a chat
// channel's conversion, a form, a GET's query), Gitea's delivery headers and their HMAC
// signatures, and where the request connects.
//
// Threads: prepare() runs on the worker of webhook_sender that claimed the flight, which owns it
// until handOff(); it blocks in the DNS lookup. Nothing here keeps state: every function is safe
// from any thread (checkEgress() and the HMACs are public).

#include "webhook_p.h"

#include "channels/channels.h"

#include "engine/core/secretbox.h"

#include <QHostInfo>
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

// What a delivery sends, before its headers.
struct Outgoing
{
    QUrl url;
    QString method;
    QByteArray body;  // as sent, and as signed
    QByteArray contentType = "application/json";
};

// The body `f` sends and where to: a v2 task for a chat channel is converted now, with the
// hook's current settings (v1 tasks, the body as sent, and gitea/gogs hooks go as stored); a form
// hook's payload is form-encoded; a GET carries it in the query and signs it as Gitea does (the
// payload itself). False, with f.error set, when the channel cannot carry the event.
bool encode(Flight &f, Outgoing &out)
{
    const Hook &h = f.hook;
    QByteArray document = f.task.payload;
    out.url = QUrl(h.url);
    out.method = h.httpMethod;
    if (f.task.payloadVersion == 2 && Channels::isChannel(h.type)) {
        Result<Channels::Message> message = Channels::convert(h.type, QJsonDocument::fromJson(h.meta.toUtf8()).object(),
                                                              f.task.eventType, f.task.payload, f.task.uuid);
        f.request = QJsonObject{{QStringLiteral("url"), maskedUrl(h.url)}, {QStringLiteral("http_method"), h.httpMethod}};
        if (!message) {
            f.error = QStringLiteral("the %1 channel cannot carry this event: %2")
                          .arg(name(h.type), message.status().message());
            return false;
        }
        document = QJsonDocument(message->body).toJson(QJsonDocument::Compact);
        if (!message->urlSuffix.isEmpty())
            out.url = QUrl(h.url + message->urlSuffix);
        if (!message->method.isEmpty())
            out.method = message->method;
    }
    out.body = document;
    if (h.contentType == ContentType::Form && !Channels::isChannel(h.type)) {
        out.body = "payload=" + QUrl::toPercentEncoding(QString::fromUtf8(document));
        out.contentType = "application/x-www-form-urlencoded";
    }
    if (out.method == QLatin1String("GET")) {
        QUrlQuery query(out.url);
        query.addQueryItem(QStringLiteral("payload"),
                           QString::fromUtf8(QUrl::toPercentEncoding(QString::fromUtf8(document))));
        out.url.setQuery(query);
        out.body = document;
    }
    return true;
}

// `host`'s addresses, resolved once (a literal is its own), each allowed by `allowed`; empty,
// with `error` set, when it does not resolve or one of them is not allowed.
QList<QHostAddress> vettedAddresses(const QString &host, const QStringList &allowed,
                                    const std::function<QList<QHostAddress>(const QString &)> &resolve, QString &error)
{
    QList<QHostAddress> addresses;
    QHostAddress literal(host);
    if (!literal.isNull())
        addresses = {literal};
    else if (resolve)
        addresses = resolve(host);
    else
        addresses = QHostInfo::fromName(host).addresses();
    if (addresses.isEmpty()) {
        error = QStringLiteral("%1 does not resolve").arg(host);
        return {};
    }
    for (const QHostAddress &a : addresses)
        if (Status allowedHere = checkEgress(allowed, host, a); !allowedHere) {
            error = allowedHere.message();
            return {};
        }
    return addresses;
}

// Gitea's (and Gogs', GitHub's) delivery headers: the delivery id, the event, the signatures of
// the body (empty without a secret), the installation target; Content-Type but on a GET.
Headers deliveryHeaders(const Flight &f, const Outgoing &out)
{
    const Hook &h = f.hook;
    Headers headers;
    const QByteArray grouped = event(f.task.eventType).toLatin1();
    const QByteArray fine = name(f.task.eventType).toLatin1();
    const QByteArray uuid = f.task.uuid.toLatin1();
    const QByteArray secret = h.secret.toUtf8();
    const QByteArray sha256 = secret.isEmpty() ? QByteArray() : hmacSha256Hex(secret, out.body);
    const QByteArray sha1 = secret.isEmpty() ? QByteArray() : hmacSha1Hex(secret, out.body);
    const QByteArray target_type = name(targetType(h.repoId, h.ownerId, h.isSystem, f.ownerIsOrganization)).toLatin1();
    headers << qMakePair(QByteArray("X-Gitea-Delivery"), uuid) << qMakePair(QByteArray("X-Gitea-Event"), grouped)
            << qMakePair(QByteArray("X-Gitea-Event-Type"), fine) << qMakePair(QByteArray("X-Gitea-Signature"), sha256)
            << qMakePair(QByteArray("X-Gitea-Hook-Installation-Target-Type"), target_type)
            << qMakePair(QByteArray("X-Gogs-Delivery"), uuid) << qMakePair(QByteArray("X-Gogs-Event"), grouped)
            << qMakePair(QByteArray("X-Gogs-Event-Type"), fine) << qMakePair(QByteArray("X-Gogs-Signature"), sha256)
            << qMakePair(QByteArray("X-Hub-Signature"), sha1.isEmpty() ? QByteArray() : "sha1=" + sha1)
            << qMakePair(QByteArray("X-Hub-Signature-256"), sha256.isEmpty() ? QByteArray() : "sha256=" + sha256)
            << qMakePair(QByteArray("X-GitHub-Delivery"), uuid) << qMakePair(QByteArray("X-GitHub-Event"), grouped)
            << qMakePair(QByteArray("X-GitHub-Event-Type"), fine)
            << qMakePair(QByteArray("X-GitHub-Hook-Installation-Target-Type"), target_type)
            << qMakePair(QByteArray("X-Switchyard-Trace"), f.task.traceId.toLatin1())
            << qMakePair(QByteArray("User-Agent"), QByteArray("Switchyard-Hookshot"));
    if (out.method != QLatin1String("GET"))
        headers << qMakePair(QByteArray("Content-Type"), out.contentType);
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
void fillExchange(Flight &f, const Outgoing &out, const Headers &headers, const QString &connectTo, bool viaProxy,
                  const WebhookSettings &settings)
{
    const QUrl &url = out.url;
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
    x.method = out.method.toLatin1();
    QByteArray origin = url.path(QUrl::FullyEncoded).toLatin1();
    if (origin.isEmpty())
        origin = "/";
    if (url.hasQuery())
        origin += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    x.target = origin;
    const QByteArray hostName = host.contains(QLatin1Char(':')) ? '[' + host.toUtf8() + ']' : host.toUtf8();
    x.headers = {
        {QByteArrayLiteral("Host"), url.port() > 0 ? hostName + ':' + QByteArray::number(url.port()) : hostName}};
    x.headers += headers;
    if (!url.userName().isEmpty() && !f.hook.hasAuthorization)  // credentials in the URL: sent at once, as Gitea does
        x.headers += {QByteArrayLiteral("Authorization"), basicCredentials(url)};
    if (viaProxy)
        throughProxy(settings.proxyUrl, url, tls, to, x);
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

void WebhookService::Impl::prepare(Flight &f)
{
    Outgoing out;
    if (!encode(f, out))
        return;
    // Egress: resolve once, vet every address, connect to the vetted literal (no second lookup
    // that DNS rebinding could answer differently). Through the proxy the name is vetted the same
    // way, but the proxy connects to it (its own lookup is past our check).
    const QString host = out.url.host();
    const bool viaProxy = proxied(host);
    const QList<QHostAddress> addresses =
        vettedAddresses(host, config.webhook.allowedHostList, options.resolve, f.error);
    if (addresses.isEmpty())
        return;
    Headers headers = deliveryHeaders(f, out);
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
                            {QStringLiteral("body"), QString::fromUtf8(out.body)}};
    if (viaProxy)
        f.request.insert(QStringLiteral("proxy"), proxyForHistory());
    fillExchange(f, out, headers, viaProxy ? host : addresses.front().toString(), viaProxy, config.webhook);
    f.exchange.body = out.body;
    f.exchange.maxBody = options.maxResponseBytes;
}

}  // namespace Switchyard::Webhook
