#pragma once

// Whole numbers from JSON (#48 item 12). A JSON number arrives as a double, and converting a double
// outside an integer type's range to that type is undefined behaviour (UBSan: float-cast-overflow):
// 1e30, -1e19 or 2^63 in a request body or a forge's payload must be refused before any cast.
// Every place that reads an integer from JSON goes through these.
// Thread-safety: pure functions.

#include "engine/core/status.h"

#include <QJsonValue>

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

namespace Switchyard {

// `value` as a T: nullopt unless it is finite, whole and within T's range.
template<typename T>
std::optional<T> wholeNumber(double value)
{
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    // double(max) rounds up to 2^N for 64-bit types, where the + 1 is absorbed: `<` is exact for
    // every width. NaN fails both comparisons.
    if (!(value >= double(std::numeric_limits<T>::min()) && value < double(std::numeric_limits<T>::max()) + 1.0))
        return std::nullopt;
    if (std::trunc(value) != value)
        return std::nullopt;
    return T(value);
}

// A JSON number as a T: nullopt for anything else, a fraction, or a value outside T's range.
// Exact beyond 2^53: Qt keeps a JSON integer that fits a qint64 as an integer, and toInteger()
// gives it without going through a double.
template<typename T>
std::optional<T> wholeNumber(const QJsonValue &json)
{
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    if (!json.isDouble())
        return std::nullopt;
    // toInteger() checks the range of a double itself and gives the default when it does not fit.
    const qint64 value = json.toInteger(0);
    if (value == 0 && json.toDouble() != 0.0)
        return std::nullopt;
    if (!std::in_range<T>(value))
        return std::nullopt;
    return T(value);
}

// InvalidArgument naming the field, the value as sent and the range:
//   "issue.id: 1e+30 is not a whole number from 1 to 9223372036854775807"
Status wholeNumberError(const QString &field, const QJsonValue &json, qint64 min, qint64 max);

template<typename T>
Status wholeNumberError(const QString &field, const QJsonValue &json)
{
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(qint64))
        return wholeNumberError(field, json, 0, std::numeric_limits<qint64>::max());
    else
        return wholeNumberError(field, json, qint64(std::numeric_limits<T>::min()), qint64(std::numeric_limits<T>::max()));
}

} // namespace Switchyard
