// A message's JSON (the queue's items) and its wire form (RFC 5322 + MIME, quoted-printable bodies as Gitea's).
#include "mail.h"
#include "mail_p.h"

#include <QJsonArray>
#include <QLocale>
#include <QRandomGenerator>
#include <QTimeZone>

namespace Switchyard::Mail {

namespace {

// A header value never carries a control character of its own (header injection, a terminal's
// escape in a mail client): every C0 character (CR, LF, tab, NUL …), DEL, C1 (NEL …) and the
// Unicode line and paragraph separators become a space. Folding is ours alone.
QString oneLine(const QString &value)
{
    QString out = value;
    for (QChar &c : out) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0) || u == 0x2028 || u == 0x2029)
            c = u' ';
    }
    return out;
}

// A header's name (an [mailer.override_header] key, ours otherwise): printable ASCII without
// ':' (RFC 5322 ftext); anything else is left out.
QByteArray headerName(const QString &name)
{
    QByteArray out;
    for (QChar c : name)
        if (c.unicode() > 0x20 && c.unicode() < 0x7f && c != u':')
            out += char(c.unicode());
    return out;
}

bool isPrintableAscii(const QString &text)
{
    for (QChar c : text)
        if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            return false;
    return true;
}

// RFC 2047 Q encoding of one word's bytes: letters, digits and !*+-/ as they are, space as '_'.
QByteArray qEncodeBytes(const QByteArray &utf8)
{
    QByteArray out;
    for (char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '!' || c == '*' || c == '+' ||
            c == '-' || c == '/')
            out += char(c);
        else if (c == ' ')
            out += '_';
        else
            out += '=' + QByteArray::number(c, 16).toUpper().rightJustified(2, '0');
    }
    return out;
}

// The length of the UTF-8 sequence that starts with `lead`.
int utf8Length(unsigned char lead)
{
    return lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

// Folds a header line at spaces so no line is longer than 78 characters where it can be helped;
// never right after "Name:" (a decoder would keep that space as the value's first character).
QByteArray fold(const QByteArray &line, qsizetype nameLength)
{
    if (line.size() <= 78)
        return line;
    QByteArray out;
    qsizetype start = 0;
    const qsizetype earliest = nameLength + 2; // past "Name: "
    while (line.size() - start > 78) {
        qsizetype cut = line.lastIndexOf(' ', start + 78);
        if (cut <= std::max(start, earliest - 1)) {
            cut = line.indexOf(' ', std::max(start + 78, earliest)); // a long word: its line runs long
            if (cut < 0)
                break;
        }
        out += line.mid(start, cut - start) + "\r\n";
        start = cut; // the space begins the continuation line
    }
    return out + line.mid(start);
}

// A body as quoted-printable (RFC 2045 §6.7), as Gitea's go-mail writes it: readable where it is
// ASCII, lines of at most 76 characters with soft breaks ("=" at the end), each line break CRLF,
// '=' and bytes outside printable ASCII as =XX, and a space or tab at a line's end encoded (a
// relay may strip it).
QByteArray quotedPrintable(const QByteArray &data)
{
    QByteArray out;
    out.reserve(data.size() + data.size() / 8);
    // Each line ends with CRLF; the last one's belongs to the boundary that follows (RFC 2046), so
    // a text that ends with a line break gets an empty last line and keeps it.
    for (QByteArray line : data.split('\n')) {
        if (line.endsWith('\r'))
            line.chop(1);
        qsizetype width = 0;
        for (qsizetype i = 0; i < line.size(); ++i) {
            const auto c = static_cast<unsigned char>(line[i]);
            const bool plain = (c >= '!' && c <= '~' && c != '=') || ((c == ' ' || c == '\t') && i + 1 < line.size());
            const QByteArray piece = plain ? QByteArray(1, char(c)) : '=' + QByteArray::number(c, 16).toUpper().rightJustified(2, '0');
            if (width + piece.size() > 75) { // 75 and the soft break's '=': 76
                out += "=\r\n";
                width = 0;
            }
            out += piece;
            width += piece.size();
        }
        out += "\r\n";
    }
    return out;
}

} // namespace

QByteArray encodeHeaderText(const QString &text)
{
    const QString value = oneLine(text);
    if (isPrintableAscii(value))
        return value.toLatin1();
    // Encoded words of at most 75 characters, split between characters, separated by folding
    // white space (which a decoder drops between two encoded words).
    const QByteArray utf8 = value.toUtf8();
    QByteArray out;
    QByteArray word;
    for (qsizetype i = 0; i < utf8.size();) {
        const int n = std::min<int>(utf8Length(static_cast<unsigned char>(utf8[i])), int(utf8.size() - i));
        const QByteArray piece = qEncodeBytes(utf8.mid(i, n));
        if (!word.isEmpty() && 12 + word.size() + piece.size() > 75) {
            out += QByteArray(out.isEmpty() ? "" : "\r\n ") + "=?UTF-8?Q?" + word + "?=";
            word.clear();
        }
        word += piece;
        i += n;
    }
    if (!word.isEmpty())
        out += QByteArray(out.isEmpty() ? "" : "\r\n ") + "=?UTF-8?Q?" + word + "?=";
    return out;
}

QByteArray encodeAddress(const QString &name, const QString &address)
{
    const QString display = oneLine(name).trimmed();
    const QByteArray addr = "<" + oneLine(address).toUtf8() + ">";
    if (display.isEmpty())
        return addr;
    if (!isPrintableAscii(display))
        return encodeHeaderText(display) + " " + addr;
    // An atom phrase as it is; anything with a special character as a quoted string.
    static const QString specials = QStringLiteral("()<>[]:;@\\,.\"");
    bool plain = true;
    for (QChar c : display)
        if (specials.contains(c))
            plain = false;
    if (plain)
        return display.toLatin1() + " " + addr;
    QString quoted = display;
    quoted.replace(u'\\', QLatin1String("\\\\")).replace(u'"', QLatin1String("\\\""));
    return "\"" + quoted.toLatin1() + "\" " + addr;
}

QByteArray rfc2822Date(const QDateTime &when)
{
    const QDateTime utc = (when.isValid() ? when : QDateTime::currentDateTimeUtc()).toUTC();
    return QLocale::c().toString(utc, QStringLiteral("ddd, dd MMM yyyy HH:mm:ss")).toLatin1() + " +0000";
}

QString Message::header(const QString &name) const
{
    for (const auto &[key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

QJsonObject Message::toJson() const
{
    QJsonArray extra;
    for (const auto &[key, value] : headers)
        extra.append(QJsonArray{key, value});
    QJsonObject o{{QStringLiteral("info"), info},
                  {QStringLiteral("from_name"), fromName},
                  {QStringLiteral("from"), fromAddress},
                  {QStringLiteral("envelope_from"), envelopeFrom},
                  {QStringLiteral("to_name"), toName},
                  {QStringLiteral("to"), toAddress},
                  {QStringLiteral("subject"), subject},
                  {QStringLiteral("text"), text},
                  {QStringLiteral("headers"), extra},
                  {QStringLiteral("date_ms"), date.toMSecsSinceEpoch()},
                  {QStringLiteral("trace_id"), traceId}};
    if (!html.isEmpty())
        o.insert(QStringLiteral("html"), html);
    if (outboxId > 0)
        o.insert(QStringLiteral("outbox_id"), outboxId);
    return o;
}

std::optional<Message> Message::fromJson(const QJsonObject &o)
{
    if (!o.value(QStringLiteral("to")).isString() || !o.value(QStringLiteral("from")).isString())
        return std::nullopt;
    Message m;
    m.info = o.value(QStringLiteral("info")).toString();
    m.fromName = o.value(QStringLiteral("from_name")).toString();
    m.fromAddress = o.value(QStringLiteral("from")).toString();
    m.envelopeFrom = o.value(QStringLiteral("envelope_from")).toString();
    m.toName = o.value(QStringLiteral("to_name")).toString();
    m.toAddress = o.value(QStringLiteral("to")).toString();
    m.subject = o.value(QStringLiteral("subject")).toString();
    m.html = o.value(QStringLiteral("html")).toString();
    m.text = o.value(QStringLiteral("text")).toString();
    for (const QJsonValue &pair : o.value(QStringLiteral("headers")).toArray()) {
        const QJsonArray kv = pair.toArray();
        if (kv.size() == 2)
            m.headers.emplace_back(kv.at(0).toString(), kv.at(1).toString());
    }
    m.date = QDateTime::fromMSecsSinceEpoch(o.value(QStringLiteral("date_ms")).toInteger(), Qt::UTC);
    m.traceId = o.value(QStringLiteral("trace_id")).toString();
    m.outboxId = o.value(QStringLiteral("outbox_id")).toInteger();
    return m;
}

QByteArray Message::toMime() const
{
    QByteArray out;
    const auto line = [&out](const QByteArray &name, const QByteArray &value) {
        // Encoded words come folded already (each at most 75 characters).
        out += (value.contains("\r\n") ? name + ": " + value : fold(name + ": " + value, name.size())) + "\r\n";
    };
    line("From", encodeAddress(fromName, fromAddress));
    line("To", encodeAddress(toName, toAddress));
    line("Subject", encodeHeaderText(subject));
    line("Date", rfc2822Date(date));
    for (const auto &[name, value] : headers) {
        const QByteArray key = headerName(name);
        if (key.isEmpty())
            continue;
        line(key, encodeHeaderText(value));
    }
    line("MIME-Version", "1.0");
    const QByteArray textPart = "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
                                quotedPrintable(text.toUtf8());
    if (html.isEmpty()) {
        out += textPart;
        return out;
    }
    const QByteArray boundary = "=_switchyard_" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    line("Content-Type", "multipart/alternative; boundary=\"" + boundary + "\"");
    out += "\r\n--" + boundary + "\r\n" + textPart;
    out += "--" + boundary + "\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
           quotedPrintable(html.toUtf8());
    out += "--" + boundary + "--\r\n";
    return out;
}

} // namespace Switchyard::Mail
