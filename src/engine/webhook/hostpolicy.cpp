// The host policy of [webhook] ALLOWED_HOST_LIST: what kind of address an address is (loopback,
// private, external or reserved) and whether the list lets a hook reach it. Gitea's
// modules/hostmatcher decides the same question; the table below is its list of private and
// special-purpose ranges plus the ones Go's IsGlobalUnicast() leaves to the caller (0.0.0.0/8,
// 240.0.0.0/4, IPv4-compatible IPv6), so that `external` is never more than the public internet.
//
// Threads: no state but a constant table built once (thread-safe static initialisation); every
// function is safe from any thread.

#include "webhook.h"

#include "hookevents.h"

#include <QUrl>

#include <array>

namespace Switchyard::Webhook {

namespace {

struct Range
{
    const char *cidr;
    AddressClass::Kind kind;
    const char *what;
};

// The first range that holds an address decides its kind; an address in none is external.
// Narrow ranges come before the wider ones that hold them (::/128 and ::1/128 before ::/96).
// Reserved: no built-in name allows it, only `*` or a CIDR that names it.
constexpr std::array kRanges{
    // IPv4
    Range{"0.0.0.0/8", AddressClass::Reserved, "\"this network\", RFC 1122"},
    Range{"10.0.0.0/8", AddressClass::Private, "private, RFC 1918"},
    Range{"100.64.0.0/10", AddressClass::Private, "carrier-grade NAT, RFC 6598"},
    Range{"127.0.0.0/8", AddressClass::Loopback, "loopback"},
    Range{"168.63.129.16/32", AddressClass::Private, "Azure WireServer metadata"},
    Range{"169.254.0.0/16", AddressClass::Reserved, "link-local, cloud metadata, RFC 3927"},
    Range{"172.16.0.0/12", AddressClass::Private, "private, RFC 1918"},
    Range{"192.0.0.0/24", AddressClass::Private, "IETF protocol assignments, RFC 6890"},
    Range{"192.0.2.0/24", AddressClass::Private, "documentation TEST-NET-1, RFC 5737"},
    Range{"192.88.99.0/24", AddressClass::Private, "6to4 relay anycast, RFC 7526"},
    Range{"192.168.0.0/16", AddressClass::Private, "private, RFC 1918"},
    Range{"198.18.0.0/15", AddressClass::Private, "benchmarking, RFC 2544"},
    Range{"198.51.100.0/24", AddressClass::Private, "documentation TEST-NET-2, RFC 5737"},
    Range{"203.0.113.0/24", AddressClass::Private, "documentation TEST-NET-3, RFC 5737"},
    Range{"224.0.0.0/4", AddressClass::Reserved, "multicast"},
    Range{"240.0.0.0/4", AddressClass::Reserved, "reserved, RFC 1112; broadcast"},
    // IPv6 (::ffff:0:0/96, IPv4-mapped, never gets here: it is judged as the IPv4 it carries)
    Range{"::/128", AddressClass::Reserved, "unspecified"},
    Range{"::1/128", AddressClass::Loopback, "loopback"},
    Range{"::/96", AddressClass::Reserved, "IPv4-compatible, deprecated, RFC 4291"},
    Range{"64:ff9b::/96", AddressClass::Private, "NAT64, RFC 6052: embeds an IPv4 address"},
    Range{"64:ff9b:1::/48", AddressClass::Private, "local-use NAT64, RFC 8215"},
    Range{"100::/64", AddressClass::Private, "discard-only, RFC 6666"},
    Range{"2001::/32", AddressClass::Private, "Teredo, RFC 4380: embeds an IPv4 address"},
    Range{"2001:10::/28", AddressClass::Private, "ORCHID, RFC 4843"},
    Range{"2001:20::/28", AddressClass::Private, "ORCHIDv2, RFC 7343"},
    Range{"2001:db8::/32", AddressClass::Private, "documentation, RFC 3849"},
    Range{"2002::/16", AddressClass::Private, "6to4, RFC 3056: embeds an IPv4 address"},
    Range{"fc00::/7", AddressClass::Private, "unique local, RFC 4193"},
    Range{"fe80::/10", AddressClass::Reserved, "link-local"},
    Range{"fec0::/10", AddressClass::Private, "site-local, deprecated, RFC 3879"},
    Range{"ff00::/8", AddressClass::Reserved, "multicast"},
};

using Subnet = std::pair<QHostAddress, int>;

// kRanges parsed, once.
const std::array<Subnet, kRanges.size()> &subnets()
{
    static const std::array<Subnet, kRanges.size()> parsed = [] {
        std::array<Subnet, kRanges.size()> out;
        for (std::size_t i = 0; i < kRanges.size(); ++i)
            out[i] = QHostAddress::parseSubnet(QLatin1String(kRanges[i].cidr));
        return out;
    }();
    return parsed;
}

// An IPv4-mapped IPv6 address (::ffff:127.0.0.1) as the IPv4 address it carries; others as they are.
QHostAddress unmapped(const QHostAddress &address)
{
    bool mapped = false;
    if (address.protocol() == QAbstractSocket::IPv6Protocol)
        if (const quint32 v4 = address.toIPv4Address(&mapped); mapped)
            return QHostAddress(v4);
    return address;
}

}  // namespace

QString AddressClass::describe() const
{
    if (kind == External)
        return QStringLiteral("external");
    if (range.isEmpty())
        return what;
    return QStringLiteral("in %1 (%2)").arg(range, what);
}

AddressClass classifyAddress(const QHostAddress &address)
{
    const QHostAddress a = unmapped(address);
    if (a.isNull() || a.protocol() == QAbstractSocket::UnknownNetworkLayerProtocol)
        return {AddressClass::Reserved, QString(), QStringLiteral("not an IP address")};
    const auto &parsed = subnets();
    for (std::size_t i = 0; i < kRanges.size(); ++i)
        if (parsed[i].second >= 0 && a.isInSubnet(parsed[i]))
            return {kRanges[i].kind, QLatin1String(kRanges[i].cidr), QLatin1String(kRanges[i].what)};
    return {AddressClass::External, QString(), QString()};
}

Status checkEgress(const QStringList &allowed, const QString &host, const QHostAddress &address)
{
    const QHostAddress a = unmapped(address);
    const AddressClass kind = classifyAddress(a);
    for (const QString &raw : allowed) {
        const QString entry = raw.trimmed().toLower();
        if (entry.isEmpty())
            continue;
        if (entry == QLatin1String("*"))
            return Status::ok();
        if (entry == QLatin1String("external")) {
            if (kind.kind == AddressClass::External)
                return Status::ok();
        } else if (entry == QLatin1String("private")) {
            if (kind.kind == AddressClass::Private)
                return Status::ok();
        } else if (entry == QLatin1String("loopback")) {
            if (kind.kind == AddressClass::Loopback)
                return Status::ok();
        } else if (entry.contains(u'/')) {
            const Subnet subnet = QHostAddress::parseSubnet(entry);
            if (subnet.second >= 0 && a.isInSubnet(subnet))
                return Status::ok();
        } else if (globMatches(entry, host.toLower())) {
            return Status::ok();
        }
    }
    return Status::permissionDenied(QStringLiteral("egress blocked: %1 (%2) is %3, not allowed by [webhook] ALLOWED_HOST_LIST = %4")
                                        .arg(host, address.toString(), kind.describe(), allowed.join(QStringLiteral(", "))));
}

Status checkHookHost(const QStringList &allowed, const QString &url)
{
    const QString host = QUrl(url).host();
    const QHostAddress literal(host);
    if (literal.isNull())
        return Status::ok(); // a name: its addresses are checked when a delivery resolves it
    if (Status s = checkEgress(allowed, host, literal); !s)
        return Status::invalidArgument(QStringLiteral("url: %1").arg(s.message())).withField(QStringLiteral("url"));
    return Status::ok();
}

}  // namespace Switchyard::Webhook
