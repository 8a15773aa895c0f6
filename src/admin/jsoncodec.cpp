#include "jsoncodec.h"

#include <QJsonDocument>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>

namespace Switchyard::Admin::Json {

QJsonValue time(const QDateTime &value)
{
    if (!value.isValid())
        return QJsonValue(QJsonValue::Null);
    return value.toOffsetFromUtc(value.offsetFromUtc()).toString(Qt::ISODateWithMs);
}

QJsonObject error(const Status &status)
{
    QJsonObject o{{QStringLiteral("message"), status.message()}, {QStringLiteral("code"), Status::codeKey(status.code())}};
    if (!status.field().isEmpty()) {
        o.insert(QStringLiteral("field"), status.field());
        o.insert(QStringLiteral("errors"),
                 QJsonArray{QJsonObject{{QStringLiteral("field"), status.field()}, {QStringLiteral("message"), status.message()}}});
    }
    return o;
}

Status statusFromError(const QJsonObject &body, Status::Code fallback, const QString &fallbackMessage)
{
    QString message = body.value(QStringLiteral("message")).toString();
    if (message.isEmpty())
        message = fallbackMessage;
    const std::optional<Status::Code> code = Status::codeFromKey(body.value(QStringLiteral("code")).toString());
    Status status(code && *code != Status::Code::Ok ? *code : fallback, message);
    const QString field = body.value(QStringLiteral("field")).toString();
    return field.isEmpty() ? status : status.withField(field);
}

namespace detail {

QString join(const QString &path, const char *key)
{
    return path.isEmpty() ? QLatin1String(key) : path + u'.' + QLatin1String(key);
}

Status typeError(const QString &path, const QJsonValue &json, const char *expected)
{
    Q_UNUSED(json);
    return Status::invalidArgument(QStringLiteral("%1: expected %2").arg(path.isEmpty() ? QStringLiteral("body") : path,
                                                                          QLatin1String(expected)))
        .withField(path);
}

} // namespace detail

Reader::Reader(const QJsonValue &json, QString path, bool strict) : m_path(std::move(path)), m_strict(strict)
{
    if (!json.isObject())
        m_status = detail::typeError(m_path, json, "an object");
    m_object = json.toObject();
}

QJsonValue Reader::take(const char *key)
{
    const QString name = QLatin1String(key);
    if (m_strict)
        m_seen.insert(name);
    return m_object.value(name);
}

void Reader::fail(const QString &path, const QString &message)
{
    if (m_status.isOk())
        m_status = Status::invalidArgument(QStringLiteral("%1: %2").arg(path, message)).withField(path);
}

Status Reader::finish() const
{
    if (!m_status || !m_strict)
        return m_status;
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!m_seen.contains(it.key())) {
            const QString path = m_path.isEmpty() ? it.key() : m_path + u'.' + it.key();
            QStringList known(m_seen.begin(), m_seen.end());
            known.sort();
            return Status::invalidArgument(QStringLiteral("%1: unknown field (expected %2)")
                                               .arg(path.left(64), known.isEmpty() ? QStringLiteral("no fields")
                                                                                   : known.join(QStringLiteral(", "))))
                .withField(path.left(64));
        }
    }
    return m_status;
}

namespace detail {

namespace {

char hexDigit(unsigned value)
{
    return char(value < 10 ? '0' + value : 'a' + value - 10);
}

// Two digits, zero-padded.
void appendTwo(char *at, int value)
{
    at[0] = char('0' + value / 10);
    at[1] = char('0' + value % 10);
}

} // namespace

void appendString(QByteArray &out, QStringView text)
{
    // JSON's escapes for '"', '\\' and the control characters (\b \f \n \r \t, else \u00XX);
    // everything else as UTF-8, but a lone surrogate as \uXXXX, as Qt's writer does. Written
    // through a pointer into room for the worst case (6 bytes a unit), then cut to size.
    const qsizetype start = out.size();
    out.resize(start + 2 + text.size() * 6);
    char *at = out.data() + start;
    *at++ = '"';
    const char16_t *src = text.utf16();
    const char16_t *const end = src + text.size();
    const auto escape = [&at](char16_t unit) {
        *at++ = '\\';
        *at++ = 'u';
        *at++ = hexDigit(unit >> 12 & 0xf);
        *at++ = hexDigit(unit >> 8 & 0xf);
        *at++ = hexDigit(unit >> 4 & 0xf);
        *at++ = hexDigit(unit & 0xf);
    };
    while (src != end) {
        const char16_t u = *src++;
        if (u < 0x80) {
            if (u >= 0x20 && u != '"' && u != '\\') {
                *at++ = char(u);
                continue;
            }
            char short_ = 0;
            switch (u) {
            case '"': short_ = '"'; break;
            case '\\': short_ = '\\'; break;
            case '\b': short_ = 'b'; break;
            case '\f': short_ = 'f'; break;
            case '\n': short_ = 'n'; break;
            case '\r': short_ = 'r'; break;
            case '\t': short_ = 't'; break;
            default: break;
            }
            if (short_) {
                *at++ = '\\';
                *at++ = short_;
            } else {
                escape(u);
            }
        } else if (u < 0x800) {
            *at++ = char(0xc0 | (u >> 6));
            *at++ = char(0x80 | (u & 0x3f));
        } else if (!QChar::isSurrogate(u)) {
            *at++ = char(0xe0 | (u >> 12));
            *at++ = char(0x80 | ((u >> 6) & 0x3f));
            *at++ = char(0x80 | (u & 0x3f));
        } else if (QChar::isHighSurrogate(u) && src != end && QChar::isLowSurrogate(*src)) {
            const char32_t code = QChar::surrogateToUcs4(u, *src++);
            *at++ = char(0xf0 | (code >> 18));
            *at++ = char(0x80 | ((code >> 12) & 0x3f));
            *at++ = char(0x80 | ((code >> 6) & 0x3f));
            *at++ = char(0x80 | (code & 0x3f));
        } else {
            escape(u); // a lone surrogate
        }
    }
    *at++ = '"';
    out.truncate(at - out.constData());
}

void appendKey(QByteArray &out, const char *key)
{
    // Field names are plain ASCII words: copied as they are, unless one needs escaping after all.
    const char *end = key;
    for (; *end; ++end) {
        if (*end < 0x20 || *end >= 0x7f || *end == '"' || *end == '\\') {
            appendString(out, QString::fromLatin1(key));
            out.append(':');
            return;
        }
    }
    const qsizetype start = out.size();
    out.resize(start + (end - key) + 3);
    char *at = out.data() + start;
    *at++ = '"';
    std::memcpy(at, key, std::size_t(end - key));
    at += end - key;
    *at++ = '"';
    *at = ':';
}

void appendInteger(QByteArray &out, qint64 value)
{
    char digits[24];
    const auto written = std::to_chars(digits, digits + sizeof digits, value);
    appendRaw(out, digits, written.ptr - digits);
}

void appendDouble(QByteArray &out, double value)
{
    if (std::isfinite(value))
        out.append(QByteArray::number(value, 'g', QLocale::FloatingPointShortest));
    else
        out.append("null"); // as Qt writes infinities and NaN (RFC 4627 §2.4)
}

void appendTime(QByteArray &out, const QDateTime &value)
{
    // What time() gives — the time at its own offset, ISO 8601 with milliseconds, "Z" for UTC —
    // computed here for the usual case (years 0–9999, offsets of whole minutes); else through Qt.
    if (!value.isValid()) {
        out.append("null");
        return;
    }
    const int offset = value.offsetFromUtc();
    const qint64 local = value.toMSecsSinceEpoch() + qint64(offset) * 1000;
    const qint64 days = local >= 0 ? local / 86400000 : (local - 86399999) / 86400000;
    const qint64 inDay = local - days * 86400000;
    // Civil date from days since 1970-01-01 (proleptic Gregorian, 400-year eras).
    const qint64 z = days + 719468;
    const qint64 era = (z >= 0 ? z : z - 146096) / 146097;
    const qint64 doe = z - era * 146097;
    const qint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const qint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const qint64 mp = (5 * doy + 2) / 153;
    const int day = int(doy - (153 * mp + 2) / 5 + 1);
    const int month = int(mp < 10 ? mp + 3 : mp - 9);
    const qint64 year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    if (year < 0 || year > 9999 || offset % 60 != 0) {
        appendString(out, time(value).toString());
        return;
    }
    char quoted[34];
    quoted[0] = '"';
    char *const text = quoted + 1;
    appendTwo(text, int(year / 100));
    appendTwo(text + 2, int(year % 100));
    text[4] = '-';
    appendTwo(text + 5, month);
    text[7] = '-';
    appendTwo(text + 8, day);
    text[10] = 'T';
    appendTwo(text + 11, int(inDay / 3600000));
    text[13] = ':';
    appendTwo(text + 14, int(inDay / 60000 % 60));
    text[16] = ':';
    appendTwo(text + 17, int(inDay / 1000 % 60));
    text[19] = '.';
    const int ms = int(inDay % 1000);
    text[20] = char('0' + ms / 100);
    appendTwo(text + 21, ms % 100);
    int length = 23;
    if (offset == 0) {
        text[length++] = 'Z';
    } else {
        const int minutes = std::abs(offset) / 60;
        text[length++] = offset > 0 ? '+' : '-';
        appendTwo(text + length, minutes / 60);
        text[length + 2] = ':';
        appendTwo(text + length + 3, minutes % 60);
        length += 5;
    }
    text[length++] = '"';
    appendRaw(out, quoted, length + 1);
}

void appendJson(QByteArray &out, const QJsonValue &value)
{
    if (value.isObject()) {
        out.append(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    } else if (value.isArray()) {
        out.append(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    } else {
        // A scalar as Qt writes it inside an array (an integer stays an integer).
        const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
        out.append(wrapped.constData() + 1, wrapped.size() - 2);
    }
}

} // namespace detail

namespace {

// One values buffer per nesting depth and thread, reused from object to object (a list of 500
// rows would otherwise allocate and grow 500 of them).
struct ValueBuffers
{
    std::vector<std::unique_ptr<QByteArray>> byDepth;
    std::size_t depth = 0;
};
thread_local ValueBuffers t_buffers;

QByteArray &takeBuffer()
{
    if (t_buffers.depth == t_buffers.byDepth.size())
        t_buffers.byDepth.push_back(std::make_unique<QByteArray>());
    QByteArray &buffer = *t_buffers.byDepth[t_buffers.depth++];
    buffer.resize(0); // keeps the capacity
    return buffer;
}

} // namespace

TextWriter::TextWriter() : m_values(takeBuffer()) {}

TextWriter::~TextWriter()
{
    --t_buffers.depth;
}

namespace {
// How finish() writes a described type's fields, worked out once per sequence of key literals (the
// same describe() with the same fields left out gives the same pointers), so a page of rows sorts
// and measures its keys once, not once per row: the fields in QJsonObject's order (keys are ASCII,
// so byte order), each key's length, and which are superseded by a later value of the same key.
struct Layout
{
    QVarLengthArray<const char *, 32> keys;  // as described
    QVarLengthArray<qint16, 32> order;       // indexes into keys, sorted
    std::vector<QByteArray> names;           // keys[order[k]] as written: "key": (escaped if need be)
    QVarLengthArray<bool, 32> superseded;    // order[k]'s value is replaced by order[k + 1]'s
};
struct Layouts
{
    std::array<Layout, 8> recent;
    std::size_t next = 0;
};
thread_local Layouts t_layouts;

quint64 prefixOf(const char *key) // the first 8 bytes, big-endian: most comparisons stop here
{
    quint64 prefix = 0;
    int i = 0;
    for (; i < 8 && key[i]; ++i)
        prefix = prefix << 8 | quint8(key[i]);
    return prefix << (8 * (8 - i));
}

const Layout &layoutOf(const char *const *keys, qsizetype n)
{
    for (const Layout &layout : t_layouts.recent) {
        if (layout.keys.size() == n && std::equal(keys, keys + n, layout.keys.begin()))
            return layout;
    }
    Layout &layout = t_layouts.recent[t_layouts.next++ % t_layouts.recent.size()];
    layout = Layout();
    QVarLengthArray<quint64, 32> prefixes;
    for (qsizetype i = 0; i < n; ++i) {
        layout.keys.push_back(keys[i]);
        prefixes.push_back(prefixOf(keys[i]));
    }
    // Insertion sort of the indexes: stable (the last of equal keys stays last), a dozen fields.
    const auto less = [&](qint16 a, qint16 b) {
        return prefixes[a] != prefixes[b] ? prefixes[a] < prefixes[b] : std::strcmp(keys[a], keys[b]) < 0;
    };
    for (qsizetype i = 0; i < n; ++i) {
        layout.order.push_back(qint16(i));
        for (qsizetype j = i; j > 0 && less(layout.order[j], layout.order[j - 1]); --j)
            std::swap(layout.order[j], layout.order[j - 1]);
    }
    for (qsizetype k = 0; k < n; ++k) {
        const char *key = keys[layout.order[k]];
        QByteArray name;
        detail::appendKey(name, key);
        layout.names.push_back(std::move(name));
        layout.superseded.push_back(k + 1 < n && std::strcmp(key, keys[layout.order[k + 1]]) == 0);
    }
    return layout;
}
} // namespace

void TextWriter::finish(QByteArray &out)
{
    const qsizetype n = m_fields.size();
    QVarLengthArray<const char *, 32> keys;
    for (const Field &field : m_fields)
        keys.push_back(field.key);
    const Layout &layout = layoutOf(keys.constData(), n);
    const auto written = [&](qsizetype k) { return !layout.superseded[k] && m_fields[layout.order[k]].begin >= 0; };

    // The size is known: the object is written with one resize.
    qsizetype need = 2; // {}
    for (qsizetype k = 0; k < n; ++k) {
        if (written(k))
            need += layout.names[std::size_t(k)].size() + 1 + (m_fields[layout.order[k]].end - m_fields[layout.order[k]].begin); // "key":value,
    }
    const qsizetype start = out.size();
    out.resize(start + need);
    char *at = out.data() + start;
    *at++ = '{';
    bool first = true;
    for (qsizetype k = 0; k < n; ++k) {
        if (!written(k))
            continue;
        const Field &field = m_fields[layout.order[k]];
        if (!first)
            *at++ = ',';
        first = false;
        const QByteArray &name = layout.names[std::size_t(k)];
        std::memcpy(at, name.constData(), std::size_t(name.size()));
        at += name.size();
        std::memcpy(at, m_values.constData() + field.begin, std::size_t(field.end - field.begin));
        at += field.end - field.begin;
    }
    *at++ = '}';
    out.truncate(at - out.constData());
}

} // namespace Switchyard::Admin::Json
