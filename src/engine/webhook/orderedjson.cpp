#include "orderedjson.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Switchyard::Webhook {

namespace {

// QJsonDocument writes only objects and arrays: a scalar is written as the one item of an array.
QByteArray scalar(const QJsonValue &value)
{
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

} // namespace

OrderedObject &OrderedObject::addRaw(const QString &key, QByteArray json)
{
    for (auto &member : m_members)
        if (member.first == key) {
            member.second = std::move(json);
            return *this;
        }
    m_members.emplace_back(key, std::move(json));
    return *this;
}

OrderedObject &OrderedObject::add(const QString &key, const QJsonValue &value)
{
    return addRaw(key, scalar(value));
}

OrderedObject &OrderedObject::add(const QString &key, const OrderedObject &value)
{
    return addRaw(key, value.toJson());
}

OrderedObject &OrderedObject::add(const QString &key, const OrderedArray &value)
{
    return addRaw(key, value.toJson());
}

OrderedObject &OrderedObject::addOrNull(const QString &key, const QString &value)
{
    return value.isEmpty() ? addNull(key) : add(key, value);
}

OrderedObject &OrderedObject::append(const OrderedObject &other)
{
    for (const auto &member : other.m_members)
        addRaw(member.first, member.second);
    return *this;
}

bool OrderedObject::remove(const QString &key)
{
    for (auto it = m_members.begin(); it != m_members.end(); ++it)
        if (it->first == key) {
            m_members.erase(it);
            return true;
        }
    return false;
}

bool OrderedObject::contains(const QString &key) const
{
    for (const auto &member : m_members)
        if (member.first == key)
            return true;
    return false;
}

QByteArray OrderedObject::toJson() const
{
    QByteArray out("{");
    for (const auto &[key, value] : m_members) {
        if (out.size() > 1)
            out += ',';
        out += scalar(key);
        out += ':';
        out += value;
    }
    out += '}';
    return out;
}

OrderedArray &OrderedArray::append(const OrderedObject &value)
{
    m_items.push_back(value.toJson());
    return *this;
}

OrderedArray &OrderedArray::append(const QJsonValue &value)
{
    m_items.push_back(scalar(value));
    return *this;
}

QByteArray OrderedArray::toJson() const
{
    QByteArray out("[");
    for (const QByteArray &item : m_items) {
        if (out.size() > 1)
            out += ',';
        out += item;
    }
    out += ']';
    return out;
}

QByteArray indentJson(const QByteArray &compact)
{
    QByteArray out;
    int depth = 0;
    bool inString = false;
    const auto newline = [&](int level) {
        out += '\n';
        out += QByteArray(level * 4, ' ');
    };
    for (qsizetype i = 0; i < compact.size(); ++i) {
        const char c = compact.at(i);
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < compact.size())
                out += compact.at(++i);
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            out += c;
            break;
        case '{':
        case '[': {
            out += c;
            const char close = c == '{' ? '}' : ']';
            if (i + 1 < compact.size() && compact.at(i + 1) == close) {
                out += close; // an empty object or array stays on its line
                ++i;
                break;
            }
            newline(++depth);
            break;
        }
        case '}':
        case ']':
            newline(--depth);
            out += c;
            break;
        case ',':
            out += c;
            newline(depth);
            break;
        case ':':
            out += ": ";
            break;
        default:
            out += c;
        }
    }
    out += '\n';
    return out;
}

} // namespace Switchyard::Webhook
