// The admin API's JSON codecs (src/admin/jsoncodec.h) on JSON from outside: a request body or a
// remote daemon's answer, decoded into a type with every kind of leaf (tests/admin/jsonsample.h),
// a list of them, and a real answer type (GET /cron's rows). Properties: a refusal names its
// field; what decodes encodes to the same text through encodeText as through Qt's writer
// (jsoncodec.h's contract), and decoding that text again gives the same text (a round trip).

#include "fuzzcheck.h"

#include "../tests/admin/jsonsample.h"

#include "admin/jsoncodec.h"
#include "admin/ops/cronops.h"

#include <QJsonDocument>

#include <cstddef>
#include <cstdint>

using namespace Switchyard;
using namespace Switchyard::Admin;

namespace {

QJsonValue parsed(const QByteArray &text)
{
    const QJsonDocument document = QJsonDocument::fromJson(text);
    return document.isArray() ? QJsonValue(document.array()) : document.isObject() ? QJsonValue(document.object()) : QJsonValue();
}

template<typename T>
void decodeAndRoundTrip(const QJsonValue &json)
{
    const Result<T> value = Json::fromJson<T>(json, QStringLiteral("body"));
    if (!value) {
        FUZZ_CHECK(value.status().message().contains(u':'), value.status().message());
        return;
    }
    const QByteArray text = Json::encodeText(*value);
    FUZZ_CHECK(text == Sample::viaQt(*value),
               QStringLiteral("encodeText %1\n  Qt's writer %2").arg(QString::fromUtf8(text), QString::fromUtf8(Sample::viaQt(*value))));
    const Result<T> again = Json::fromJson<T>(parsed(text), QStringLiteral("body"));
    FUZZ_CHECK(again, QStringLiteral("%1 does not decode again: %2").arg(QString::fromUtf8(text), again.status().message()));
    FUZZ_CHECK(Json::encodeText(*again) == text,
               QStringLiteral("%1 decoded again encodes as %2").arg(QString::fromUtf8(text), QString::fromUtf8(Json::encodeText(*again))));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024) // request bodies are bounded at the edge; larger inputs only slow the search down
        return -1;
    const QJsonValue json = parsed(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (json.isUndefined())
        return 0;
    decodeAndRoundTrip<Sample::Leaves>(json);
    decodeAndRoundTrip<std::vector<Sample::Leaves>>(json);
    decodeAndRoundTrip<std::vector<CronTaskInfo>>(json);
    decodeAndRoundTrip<CronTaskInfo>(json);
    return 0;
}
