#pragma once

// A JSON object that keeps its members in the order they were added. QJsonObject sorts its keys,
// but Gitea's payloads are Go structs marshalled in field order, and receivers that diff or
// display the raw body see that order — so payloads are built with this. Values are serialised
// as they are added (QJsonValue's own escaping and number formatting), which makes the builder a
// plain value: no thread owns it, copy it freely.

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <utility>
#include <vector>

namespace Switchyard::Webhook {

class OrderedArray;

class OrderedObject
{
public:
    // Appends a member, or replaces the value of one already there (keeping its place).
    OrderedObject &add(const QString &key, const QJsonValue &value);
    OrderedObject &add(const QString &key, const OrderedObject &value);
    OrderedObject &add(const QString &key, const OrderedArray &value);
    OrderedObject &addNull(const QString &key) { return add(key, QJsonValue(QJsonValue::Null)); }
    // Gitea's *string/*time.Time: null when empty.
    OrderedObject &addOrNull(const QString &key, const QString &value);
    // Every member of `other`, in its order, after this one's.
    OrderedObject &append(const OrderedObject &other);
    bool remove(const QString &key);
    bool contains(const QString &key) const;
    bool isEmpty() const { return m_members.empty(); }

    // Compact JSON, members in insertion order.
    QByteArray toJson() const;

private:
    OrderedObject &addRaw(const QString &key, QByteArray json);
    std::vector<std::pair<QString, QByteArray>> m_members; // key, value as compact JSON
};

class OrderedArray
{
public:
    OrderedArray &append(const OrderedObject &value);
    OrderedArray &append(const QJsonValue &value);
    bool isEmpty() const { return m_items.empty(); }
    QByteArray toJson() const;

private:
    std::vector<QByteArray> m_items;
};

// A compact JSON text indented for reading (4 spaces, as QJsonDocument::Indented), its members in
// the order they come: golden files and the docs show payloads this way.
QByteArray indentJson(const QByteArray &compact);

} // namespace Switchyard::Webhook
