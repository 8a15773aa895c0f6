#include "mailaddress.h"

#include "engine/core/escape.h"

#include <QHostAddress>
#include <QUrl>

namespace Switchyard {

namespace {

// RFC 5321 §4.5.3.1: 64 octets of local part, 256 of path ("<" Mailbox ">"), 63 of a label.
constexpr qsizetype kMaxLocalPart = 64;
constexpr qsizetype kMaxMailbox = 254;
constexpr qsizetype kMaxLabel = 63;

bool isAsciiLetter(char16_t c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
}
bool isAsciiDigit(char16_t c)
{
    return c >= u'0' && c <= u'9';
}
bool isControl(char16_t c)
{
    return c < 0x20 || c == 0x7f;
}

// RFC 5322 atext: what an atom of a Dot-string is made of.
bool isAtext(char16_t c)
{
    return isAsciiLetter(c) || isAsciiDigit(c) || QStringView(u"!#$%&'*+-/=?^_`{|}~").contains(QChar(c));
}

// One character as an error names it: control characters escaped, never raw.
QString shown(char16_t c)
{
    if (c == u' ')
        return QStringLiteral("a space");
    return u'\'' + escapeControl(QString(QChar(c)), 8) + u'\'';
}

Status bad(QStringView text, const QString &why)
{
    return Status::invalidArgument(QStringLiteral("\"%1\" is not a mail address: %2").arg(escapeControl(text.toString(), 100), why));
}

// The end of a Quoted-string that starts at `from` (its opening quote): the index after its
// closing quote, or an error. qtextSMTP is printable ASCII but '"' and '\'; a backslash quotes
// any printable ASCII character (quoted-pairSMTP).
Result<qsizetype> quotedStringEnd(QStringView text, qsizetype from)
{
    for (qsizetype i = from + 1; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c == u'"')
            return i + 1;
        if (c == u'\\') {
            if (i + 1 >= text.size())
                break;
            const char16_t quoted = text[++i].unicode();
            if (quoted < 0x20 || quoted > 0x7e)
                return bad(text, QStringLiteral("%1 cannot be quoted (character %2)").arg(shown(quoted)).arg(i + 1));
        } else if (c < 0x20 || c > 0x7e) {
            return bad(text, QStringLiteral("%1 may not appear in a quoted local part (character %2)").arg(shown(c)).arg(i + 1));
        }
    }
    return bad(text, QStringLiteral("the quoted local part is not closed"));
}

// A Dot-string from `from` up to the first character that is neither atext nor a dot: that
// character's index, or an error naming what is misplaced.
Result<qsizetype> dotStringEnd(QStringView text, qsizetype from)
{
    qsizetype i = from;
    for (; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c == u'.') {
            if (i == from)
                return bad(text, QStringLiteral("the local part starts with a dot"));
            if (text[i - 1] == u'.')
                return bad(text, QStringLiteral("two dots in a row in the local part (character %1)").arg(i + 1));
            continue;
        }
        if (!isAtext(c))
            break;
    }
    if (i > from && text[i - 1] == u'.')
        return bad(text, QStringLiteral("the local part ends with a dot"));
    return i;
}

// An address literal's inside: "IPv6:" and an IPv6 address, or a dotted IPv4 address.
Status checkAddressLiteral(QStringView text, QStringView inside)
{
    if (inside.startsWith(QLatin1String("IPv6:"), Qt::CaseInsensitive)) {
        const QStringView ip = inside.mid(5);
        // QHostAddress also takes a scope ("%eth0"), which is no part of RFC 5321's IPv6-addr.
        for (QChar c : ip)
            if (!(isAsciiDigit(c.unicode()) || QStringView(u"abcdefABCDEF:.").contains(c)))
                return bad(text, QStringLiteral("%1 may not appear in an IPv6 address literal").arg(shown(c.unicode())));
        const QHostAddress address(ip.toString());
        if (ip.isEmpty() || address.protocol() != QAbstractSocket::IPv6Protocol)
            return bad(text, QStringLiteral("[IPv6:%1] is not an IPv6 address").arg(ip.toString()));
        return Status::ok();
    }
    // Snum: 1 to 3 digits, at most 255 (QHostAddress would also take "127.1" or "0x7f.0.0.1").
    const QList<QStringView> parts = inside.split(u'.');
    bool ipv4 = parts.size() == 4;
    for (QStringView part : parts) {
        bool digits = !part.isEmpty() && part.size() <= 3;
        for (QChar c : part)
            digits = digits && isAsciiDigit(c.unicode());
        ipv4 = ipv4 && digits && part.toInt() <= 255;
    }
    if (!ipv4)
        return bad(text, QStringLiteral("[%1] is not an address literal: expected [IPv4 address] or [IPv6:IPv6 address]")
                             .arg(escapeControl(inside.toString(), 60)));
    return Status::ok();
}

// A Domain: LDH labels of at most 63 characters; a Unicode name first becomes its ACE form.
Result<QString> checkDomain(QStringView text, QStringView domain)
{
    QString ace = domain.toString();
    for (QChar c : domain)
        if (c.unicode() > 0x7e) {
            ace = QString::fromLatin1(QUrl::toAce(domain.toString(), QUrl::AceTransitionalProcessing));
            if (ace.isEmpty())
                return bad(text, QStringLiteral("\"%1\" is not a valid international domain name").arg(escapeControl(domain.toString(), 100)));
            break;
        }
    for (QStringView label : QStringView(ace).split(u'.')) {
        if (label.isEmpty())
            return bad(text, QStringLiteral("the domain has an empty label (a dot at its start or end, or two dots in a row)"));
        if (label.size() > kMaxLabel)
            return bad(text, QStringLiteral("the domain's label \"%1…\" is longer than %2 characters").arg(label.left(20).toString(), QString::number(kMaxLabel)));
        for (QChar c : label)
            if (!isAsciiLetter(c.unicode()) && !isAsciiDigit(c.unicode()) && c != u'-')
                return bad(text, QStringLiteral("%1 may not appear in the domain (letters, digits, hyphens and dots only)").arg(shown(c.unicode())));
        if (label.startsWith(u'-') || label.endsWith(u'-'))
            return bad(text, QStringLiteral("the domain's label \"%1\" starts or ends with a hyphen").arg(label.toString()));
    }
    return ace;
}

} // namespace

Result<QString> parseMailbox(QStringView text)
{
    if (text.isEmpty())
        return Status::invalidArgument(QStringLiteral("the mail address is empty"));
    for (qsizetype i = 0; i < text.size(); ++i)
        if (isControl(text[i].unicode()))
            return bad(text, QStringLiteral("a control character (%1) at character %2").arg(escapeControl(text.mid(i, 1).toString(), 8)).arg(i + 1));
    if (!text.contains(u'@'))
        return bad(text, QStringLiteral("expected local-part@domain"));
    Result<qsizetype> localEnd = text.front() == u'"' ? quotedStringEnd(text, 0) : dotStringEnd(text, 0);
    if (!localEnd)
        return localEnd.status();
    const qsizetype at = *localEnd;
    if (at >= text.size()) // the @ was inside the quoted string
        return bad(text, QStringLiteral("expected local-part@domain"));
    if (text[at] != u'@') {
        const char16_t c = text[at].unicode();
        if (c > 0x7e)
            return bad(text, QStringLiteral("%1 before @: only ASCII local parts are accepted (no SMTPUTF8)").arg(shown(c)));
        if (c == u' ' || c == u'\t')
            return bad(text, QStringLiteral("white space before @ (character %1); it is allowed only inside a quoted local part").arg(at + 1));
        return bad(text, QStringLiteral("%1 may not appear in the local part (character %2)").arg(shown(c)).arg(at + 1));
    }
    if (at == 0)
        return bad(text, QStringLiteral("nothing before @"));
    if (at > kMaxLocalPart)
        return bad(text, QStringLiteral("the local part is %1 characters long; at most %2").arg(at).arg(kMaxLocalPart));
    const QStringView domain = text.mid(at + 1);
    if (domain.isEmpty())
        return bad(text, QStringLiteral("nothing after @"));
    QString out = text.left(at + 1).toString();
    if (domain.startsWith(u'[')) {
        if (!domain.endsWith(u']'))
            return bad(text, QStringLiteral("the address literal is not closed by ]"));
        if (Status literal = checkAddressLiteral(text, domain.mid(1, domain.size() - 2)); !literal)
            return literal;
        out += domain;
    } else {
        Result<QString> ace = checkDomain(text, domain);
        if (!ace)
            return ace.status();
        out += *ace;
    }
    if (out.size() > kMaxMailbox)
        return bad(text, QStringLiteral("%1 characters long; at most %2").arg(out.size()).arg(kMaxMailbox));
    return out;
}

Result<MailAddress> parseMailAddress(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return Status::invalidArgument(QStringLiteral("the mail address is empty"));
    for (qsizetype i = 0; i < trimmed.size(); ++i)
        if (isControl(trimmed[i].unicode()))
            return bad(trimmed, QStringLiteral("a control character (%1) at character %2").arg(escapeControl(trimmed.mid(i, 1), 8)).arg(i + 1));
    MailAddress out;
    QStringView spec = trimmed;
    if (trimmed.endsWith(u'>')) {
        // The name: a quoted string (which may hold '<'), or a phrase up to the first '<'.
        qsizetype open = -1;
        if (trimmed.startsWith(u'"')) {
            Result<qsizetype> end = quotedStringEnd(trimmed, 0);
            if (!end)
                return end.status();
            out.name = trimmed.mid(1, *end - 2);
            out.name.replace(QLatin1String("\\\\"), QLatin1String("\\")).replace(QLatin1String("\\\""), QLatin1String("\""));
            open = trimmed.indexOf(u'<', *end);
            if (open < 0 || !QStringView(trimmed).mid(*end, open - *end).trimmed().isEmpty())
                return bad(trimmed, QStringLiteral("expected <address> after the quoted name"));
        } else {
            open = trimmed.indexOf(u'<');
            if (open < 0)
                return bad(trimmed, QStringLiteral("'>' without '<'"));
            out.name = trimmed.left(open).trimmed();
        }
        spec = QStringView(trimmed).mid(open + 1, trimmed.size() - open - 2);
        if (spec.contains(u'<') && !spec.startsWith(u'"'))
            return bad(trimmed, QStringLiteral("more than one address"));
    } else if (trimmed.contains(u'<')) {
        return bad(trimmed, QStringLiteral("'<' without '>' at the end"));
    }
    Result<QString> mailbox = parseMailbox(spec);
    if (!mailbox)
        return mailbox.status();
    out.address = *mailbox;
    return out;
}

} // namespace Switchyard
