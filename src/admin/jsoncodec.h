#pragma once

// The admin API's JSON (docs/api.md), described once per type. A type's `describe(v, value)`
// names its fields; the same function encodes (v is a Writer) and decodes (v is a Reader), so the
// two directions cannot drift:
//
//     template<typename V> void describe(V &v, CacheInfo &c)
//     {
//         v("adapter", c.adapter);
//         v("items", c.items, Json::Omit); // left out while negative; optional when read
//         v.group("latency_ms", [&](auto &g) { g("p50", c.p50); });
//     }
//
// `describe` lives beside its type's operations (src/admin/ops/) in the type's namespace, where
// the encoder finds it by argument-dependent lookup. Leaf types (numbers, strings, times, lists,
// maps, optionals, enums with EnumNames) are built in. Field names are the contract's snake_case;
// times are RFC 3339 with offset, durations milliseconds. Decoding names the field that is wrong
// ("queues[2].length: expected a number"); unknown fields are ignored in answers (the contract
// may add some) and refused by name in request bodies (Reader's strict mode).

#include "engine/core/status.h"
#include "engine/core/wholenumber.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QSet>
#include <QString>
#include <QVarLengthArray>

#include <cstring>
#include <map>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace Switchyard::Admin::Json {

enum FieldFlag : unsigned {
    Required = 0,
    Optional = 1, // reading: absent or null leaves the member as it is
    Omit = 2,     // writing: left out while unset (negative, empty, false, nullopt); reading: Optional
};

// An enum's JSON names: specialise with `static constexpr std::pair<E, const char *> names[] = {…}`.
template<typename E>
struct EnumNames;

// RFC 3339 with offset ("2026-11-30T20:37:35.123Z"); null for an invalid time.
QJsonValue time(const QDateTime &value);
// The error body of every failing call: {"message", "code", "field"?, "errors": [{"field", "message"}]?}.
QJsonObject error(const Status &status);
// The Status an error body describes (its code and field); `fallback` when the body has no code.
Status statusFromError(const QJsonObject &body, Status::Code fallback, const QString &fallbackMessage);

class Writer;
class Reader;

template<typename T>
QJsonValue encode(const T &value);
template<typename T>
Status decode(const QJsonValue &json, T &value, const QString &path);
// The compact JSON text of a described value (an object or a list of them): byte for byte what
// QJsonDocument(encode(value)).toJson(Compact) gives — keys in QJsonObject's order, numbers, times
// and strings written alike — but appended straight to `out`, without a QJsonObject and its
// QCborValue allocations per field (#22: the lists that cannot be cached are encoded per request).
template<typename T>
void encodeText(QByteArray &out, const T &value);
template<typename T>
QByteArray encodeText(const T &value)
{
    QByteArray out;
    out.reserve(256);
    encodeText(out, value);
    return out;
}

namespace detail {
template<typename T>
struct IsVector : std::false_type {};
template<typename T>
struct IsVector<std::vector<T>> : std::true_type {};
template<typename T>
struct IsOptional : std::false_type {};
template<typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

template<typename T>
bool isUnset(const T &value)
{
    if constexpr (std::is_same_v<T, bool>)
        return !value;
    else if constexpr (std::is_arithmetic_v<T>)
        return value < 0;
    else if constexpr (std::is_same_v<T, QString>)
        return value.isEmpty();
    else if constexpr (IsVector<T>::value)
        return value.empty();
    else if constexpr (IsOptional<T>::value)
        return !value.has_value();
    else if constexpr (std::is_same_v<T, QDateTime>)
        return !value.isValid();
    else
        return false;
}

QString join(const QString &path, const char *key);
Status typeError(const QString &path, const QJsonValue &json, const char *expected);

// Appends n bytes (QByteArray::append goes through insert(), which is slower for a few bytes).
inline void appendRaw(QByteArray &out, const char *data, qsizetype n)
{
    const qsizetype at = out.size();
    out.resize(at + n);
    std::memcpy(out.data() + at, data, std::size_t(n));
}
// The leaves of encodeText, written as Qt's JSON writer writes them.
void appendString(QByteArray &out, QStringView text); // quoted and escaped
void appendKey(QByteArray &out, const char *key);      // "key": (an ASCII name)
void appendInteger(QByteArray &out, qint64 value);
void appendDouble(QByteArray &out, double value);
void appendTime(QByteArray &out, const QDateTime &value);
void appendJson(QByteArray &out, const QJsonValue &value); // through QJsonDocument: payloads, maps
} // namespace detail

// Encodes a described type's fields into one object.
class Writer
{
public:
    template<typename T>
    void operator()(const char *key, const T &value, unsigned flags = Required)
    {
        if ((flags & Omit) && detail::isUnset(value))
            return;
        m_object.insert(QLatin1String(key), encode(value));
    }
    template<typename F>
    void group(const char *key, F &&fields)
    {
        Writer nested;
        fields(nested);
        m_object.insert(QLatin1String(key), nested.m_object);
    }
    QJsonObject take() { return std::move(m_object); }

private:
    QJsonObject m_object;
};

// Writes a described type's fields as text: each value into one buffer, then the object in
// QJsonObject's key order (the last of equal keys wins, as insert() would have it). Keys must be
// string literals, as every describe() gives them: the order is remembered by their addresses.
class TextWriter
{
public:
    TextWriter();
    ~TextWriter();
    TextWriter(const TextWriter &) = delete;
    TextWriter &operator=(const TextWriter &) = delete;

    template<typename T>
    void operator()(const char *key, const T &value, unsigned flags = Required)
    {
        if ((flags & Omit) && detail::isUnset(value))
            return;
        if constexpr (std::is_same_v<T, QJsonValue>) {
            if (value.isUndefined()) { // QJsonObject::insert removes the key
                m_fields.push_back(Field{key, -1, -1});
                return;
            }
        }
        const qsizetype begin = m_values.size();
        encodeText(m_values, value);
        m_fields.push_back(Field{key, begin, m_values.size()});
    }
    template<typename F>
    void group(const char *key, F &&fields)
    {
        TextWriter nested;
        fields(nested);
        const qsizetype begin = m_values.size();
        nested.finish(m_values);
        m_fields.push_back(Field{key, begin, m_values.size()});
    }
    void finish(QByteArray &out);

private:
    struct Field
    {
        const char *key; // a literal: the same describe() gives the same pointers
        qsizetype begin; // the value in m_values; -1: removed (an undefined QJsonValue)
        qsizetype end;
    };
    QByteArray &m_values; // this thread's buffer for this depth, kept between objects
    QVarLengthArray<Field, 32> m_fields;
};

// Decodes one object into a described type, keeping the first problem with the field's path.
class Reader
{
public:
    Reader(const QJsonValue &json, QString path, bool strict = false);

    template<typename T>
    void operator()(const char *key, T &value, unsigned flags = Required)
    {
        const QJsonValue json = take(key);
        if (json.isUndefined() || (json.isNull() && !acceptsNull<T>())) {
            if (!(flags & (Optional | Omit)) && !json.isNull())
                fail(detail::join(m_path, key), QStringLiteral("missing"));
            else if (json.isNull() && !(flags & (Optional | Omit)))
                fail(detail::join(m_path, key), QStringLiteral("null is not allowed"));
            return;
        }
        if (m_status.isOk())
            m_status = decode(json, value, detail::join(m_path, key));
    }
    template<typename F>
    void group(const char *key, F &&fields)
    {
        Reader nested(take(key), detail::join(m_path, key), m_strict);
        if (nested.m_status.isOk())
            fields(nested);
        if (m_status.isOk())
            m_status = nested.finish();
    }
    // The first problem; in strict mode also the first field that no description named.
    Status finish() const;

private:
    template<typename T>
    static constexpr bool acceptsNull()
    {
        return std::is_same_v<T, QDateTime> || std::is_same_v<T, QJsonValue> || detail::IsOptional<T>::value;
    }
    QJsonValue take(const char *key);
    void fail(const QString &path, const QString &message);

    QString m_path;
    QJsonObject m_object;
    bool m_strict = false;
    QSet<QString> m_seen;
    Status m_status;
};

template<typename T>
QJsonValue encode(const T &value)
{
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, QString>)
        return QJsonValue(value);
    else if constexpr (std::is_same_v<T, QJsonValue>)
        return value; // a document of its own (a queue item's payload)
    else if constexpr (std::is_integral_v<T>)
        return QJsonValue(qint64(value));
    else if constexpr (std::is_enum_v<T>) {
        for (const auto &[v, name] : EnumNames<T>::names) {
            if (v == value)
                return QJsonValue(QLatin1String(name));
        }
        return QJsonValue(QJsonValue::Null);
    } else if constexpr (std::is_same_v<T, QDateTime>)
        return time(value);
    else if constexpr (detail::IsVector<T>::value) {
        QJsonArray array;
        for (const auto &item : value)
            array.append(encode(item));
        return array;
    } else if constexpr (detail::IsOptional<T>::value)
        return value ? encode(*value) : QJsonValue(QJsonValue::Null);
    else if constexpr (std::is_same_v<T, QMap<QString, QString>> || std::is_same_v<T, std::map<QString, qint64>>) {
        QJsonObject object;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if constexpr (std::is_same_v<T, QMap<QString, QString>>)
                object.insert(it.key(), it.value());
            else
                object.insert(it->first, it->second);
        }
        return object;
    } else {
        Writer writer;
        describe(writer, const_cast<T &>(value)); // a Writer only reads
        return writer.take();
    }
}

template<typename T>
void encodeText(QByteArray &out, const T &value)
{
    if constexpr (std::is_same_v<T, bool>)
        value ? detail::appendRaw(out, "true", 4) : detail::appendRaw(out, "false", 5);
    else if constexpr (std::is_same_v<T, double>)
        detail::appendDouble(out, value);
    else if constexpr (std::is_same_v<T, QString>)
        detail::appendString(out, value);
    else if constexpr (std::is_same_v<T, QJsonValue>)
        detail::appendJson(out, value);
    else if constexpr (std::is_integral_v<T>)
        detail::appendInteger(out, qint64(value));
    else if constexpr (std::is_enum_v<T>) {
        for (const auto &[v, name] : EnumNames<T>::names) {
            if (v == value) {
                detail::appendString(out, QString::fromLatin1(name));
                return;
            }
        }
        out.append("null");
    } else if constexpr (std::is_same_v<T, QDateTime>)
        detail::appendTime(out, value);
    else if constexpr (detail::IsVector<T>::value) {
        out.append('[');
        bool first = true;
        for (const auto &item : value) {
            if (!first)
                out.append(',');
            first = false;
            encodeText(out, item);
        }
        out.append(']');
    } else if constexpr (detail::IsOptional<T>::value) {
        if (value)
            encodeText(out, *value);
        else
            out.append("null");
    } else if constexpr (std::is_same_v<T, QMap<QString, QString>> || std::is_same_v<T, std::map<QString, qint64>>) {
        // Both maps order keys by UTF-16 code units, as QJsonObject does.
        out.append('{');
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (!first)
                out.append(',');
            first = false;
            if constexpr (std::is_same_v<T, QMap<QString, QString>>) {
                detail::appendString(out, it.key());
                out.append(':');
                detail::appendString(out, it.value());
            } else {
                detail::appendString(out, it->first);
                out.append(':');
                detail::appendInteger(out, it->second);
            }
        }
        out.append('}');
    } else {
        TextWriter writer;
        describe(writer, const_cast<T &>(value)); // a TextWriter only reads
        writer.finish(out);
    }
}

template<typename T>
Status decode(const QJsonValue &json, T &value, const QString &path)
{
    if constexpr (std::is_same_v<T, QJsonValue>) {
        value = json;
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!json.isBool())
            return detail::typeError(path, json, "a boolean");
        value = json.toBool();
    } else if constexpr (std::is_same_v<T, double>) {
        if (!json.isDouble())
            return detail::typeError(path, json, "a number");
        value = json.toDouble();
    } else if constexpr (std::is_integral_v<T>) {
        if (!json.isDouble())
            return detail::typeError(path, json, "a whole number");
        const std::optional<T> whole = wholeNumber<T>(json); // range checked before any cast (#48)
        if (!whole)
            return wholeNumberError<T>(path.isEmpty() ? QStringLiteral("body") : path, json).withField(path);
        value = *whole;
    } else if constexpr (std::is_same_v<T, QString>) {
        if (!json.isString())
            return detail::typeError(path, json, "a string");
        value = json.toString();
    } else if constexpr (std::is_enum_v<T>) {
        for (const auto &[v, name] : EnumNames<T>::names) {
            if (json.toString() == QLatin1String(name)) {
                value = v;
                return Status::ok();
            }
        }
        return detail::typeError(path, json, "one of the documented names");
    } else if constexpr (std::is_same_v<T, QDateTime>) {
        if (json.isNull()) {
            value = QDateTime();
            return Status::ok();
        }
        if (!json.isString())
            return detail::typeError(path, json, "a time");
        value = QDateTime::fromString(json.toString(), Qt::ISODateWithMs);
        if (!value.isValid())
            return Status::invalidArgument(QStringLiteral("%1: \"%2\" is not an RFC 3339 time").arg(path, json.toString().left(64)))
                .withField(path);
        value = value.toUTC();
    } else if constexpr (detail::IsVector<T>::value) {
        if (!json.isArray())
            return detail::typeError(path, json, "an array");
        const QJsonArray array = json.toArray();
        value.clear();
        value.reserve(std::size_t(array.size()));
        for (qsizetype i = 0; i < array.size(); ++i) {
            typename T::value_type item{};
            if (Status s = decode(array.at(i), item, QStringLiteral("%1[%2]").arg(path).arg(i)); !s)
                return s;
            value.push_back(std::move(item));
        }
    } else if constexpr (detail::IsOptional<T>::value) {
        if (json.isNull()) {
            value.reset();
            return Status::ok();
        }
        typename T::value_type inner{};
        if (Status s = decode(json, inner, path); !s)
            return s;
        value = std::move(inner);
    } else if constexpr (std::is_same_v<T, QMap<QString, QString>> || std::is_same_v<T, std::map<QString, qint64>>) {
        if (!json.isObject())
            return detail::typeError(path, json, "an object");
        const QJsonObject object = json.toObject();
        value.clear();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if constexpr (std::is_same_v<T, QMap<QString, QString>>) {
                QString item;
                if (Status s = decode(it.value(), item, path + u'.' + it.key()); !s)
                    return s;
                value.insert(it.key(), item);
            } else {
                qint64 item = 0;
                if (Status s = decode(it.value(), item, path + u'.' + it.key()); !s)
                    return s;
                value[it.key()] = item;
            }
        }
    } else {
        Reader reader(json, path);
        describe(reader, value);
        return reader.finish();
    }
    return Status::ok();
}

// A whole document: `name` is the path of the top level in messages ("queues[2].length").
template<typename T>
Result<T> fromJson(const QJsonValue &json, const QString &name)
{
    T value{};
    if (Status s = decode(json, value, name); !s)
        return s;
    return value;
}

} // namespace Switchyard::Admin::Json
