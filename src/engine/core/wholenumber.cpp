#include "wholenumber.h"

#include <QLocale>

namespace Switchyard {

Status wholeNumberError(const QString &field, const QJsonValue &json, qint64 min, qint64 max)
{
    // The shortest text that reads back as the same double: 1e+30, 1.5, 9.223372036854776e+18.
    const QString shown = json.isDouble() ? QString::number(json.toDouble(), 'g', QLocale::FloatingPointShortest)
                                          : QStringLiteral("a non-number");
    return Status::invalidArgument(QStringLiteral("%1: %2 is not a whole number from %3 to %4").arg(field, shown).arg(min).arg(max))
        .withField(field);
}

} // namespace Switchyard
