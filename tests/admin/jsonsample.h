#pragma once

// A described type with every kind of leaf the JSON codec knows (jsoncodec.h), and Qt's own
// writer as the reference for Json::encodeText: shared by tst_jsontext and fuzz/fuzz_jsoncodec.

#include "admin/jsoncodec.h"

#include <QJsonDocument>

#include <map>
#include <optional>
#include <vector>

namespace Sample {

enum class Colour { Red, Green, Unnamed };

struct Leaves
{
    QString text;
    qint64 big = 0;
    int small = 0;
    bool flag = false;
    double ratio = 0;
    QDateTime at;
    std::optional<QString> maybe;
    std::vector<qint64> list;
    QJsonValue payload;
    QMap<QString, QString> labels;
    std::map<QString, qint64> counts;
    Colour colour = Colour::Red;
    QString omitted;
    qint64 first = 0;
    qint64 second = 0;
};

template<typename V>
void describe(V &v, Leaves &l)
{
    v("text", l.text);
    v("big", l.big);
    v("small", l.small);
    v("flag", l.flag);
    v("ratio", l.ratio);
    v("at", l.at);
    v("maybe", l.maybe);
    v("list", l.list);
    v("payload", l.payload);
    v("labels", l.labels);
    v("counts", l.counts);
    v("colour", l.colour);
    v("omitted", l.omitted, Switchyard::Admin::Json::Omit);
    v.group("nested", [&](auto &g) {
        g("zeta", l.big);
        g("alpha", l.text);
        g("Upper", l.flag);
    });
    v("dup", l.first);
    v("dup", l.second); // QJsonObject::insert: the last one wins
}

} // namespace Sample

template<>
struct Switchyard::Admin::Json::EnumNames<Sample::Colour>
{
    static constexpr std::pair<Sample::Colour, const char *> names[] = {{Sample::Colour::Red, "red"}, {Sample::Colour::Green, "green"}};
};

namespace Sample {

// What Qt's writer makes of Json::encode(value): the reference encodeText must match.
template<typename T>
QByteArray viaQt(const T &value)
{
    const QJsonValue json = Switchyard::Admin::Json::encode(value);
    return json.isArray() ? QJsonDocument(json.toArray()).toJson(QJsonDocument::Compact)
                          : QJsonDocument(json.toObject()).toJson(QJsonDocument::Compact);
}

} // namespace Sample
