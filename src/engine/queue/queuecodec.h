#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <concepts>
#include <optional>

namespace Switchyard {

// How a queue item of type T is stored: JSON, as Gitea marshals items, so an "immediate" queue's
// round trip catches types that do not serialise. decode() returns nullopt for bytes that are not
// a valid T (a corrupt stored item: skipped and counted by the pool).
//
// Supported: qint64, QString, QJsonObject, and any type with
//   QJsonObject toJson() const;  static std::optional<T> fromJson(const QJsonObject &);
template<typename T>
struct QueueCodec;

template<typename T>
concept JsonObjectConvertible = requires(const T &value, const QJsonObject &object) {
    { value.toJson() } -> std::convertible_to<QJsonObject>;
    { T::fromJson(object) } -> std::convertible_to<std::optional<T>>;
};

namespace Detail {
inline std::optional<QJsonValue> parseJsonValue(const QByteArray &bytes)
{
    // Wrap so that scalars parse too (QJsonDocument only takes objects and arrays).
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson("[" + bytes + "]", &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1)
        return std::nullopt;
    return doc.array().at(0);
}
inline QByteArray serialiseJsonValue(const QJsonValue &value)
{
    QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return text.mid(1, text.size() - 2);
}
} // namespace Detail

template<>
struct QueueCodec<qint64>
{
    static QByteArray encode(qint64 value) { return QByteArray::number(value); }
    static std::optional<qint64> decode(const QByteArray &bytes)
    {
        bool ok = false;
        const qint64 value = bytes.trimmed().toLongLong(&ok);
        return ok ? std::optional<qint64>(value) : std::nullopt;
    }
};

template<>
struct QueueCodec<QString>
{
    static QByteArray encode(const QString &value) { return Detail::serialiseJsonValue(value); }
    static std::optional<QString> decode(const QByteArray &bytes)
    {
        const std::optional<QJsonValue> value = Detail::parseJsonValue(bytes);
        if (!value || !value->isString())
            return std::nullopt;
        return value->toString();
    }
};

template<>
struct QueueCodec<QJsonObject>
{
    static QByteArray encode(const QJsonObject &value) { return QJsonDocument(value).toJson(QJsonDocument::Compact); }
    static std::optional<QJsonObject> decode(const QByteArray &bytes)
    {
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return std::nullopt;
        return doc.object();
    }
};

template<JsonObjectConvertible T>
struct QueueCodec<T>
{
    static QByteArray encode(const T &value) { return QueueCodec<QJsonObject>::encode(value.toJson()); }
    static std::optional<T> decode(const QByteArray &bytes)
    {
        const std::optional<QJsonObject> object = QueueCodec<QJsonObject>::decode(bytes);
        return object ? T::fromJson(*object) : std::nullopt;
    }
};

} // namespace Switchyard
