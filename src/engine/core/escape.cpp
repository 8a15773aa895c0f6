#include "escape.h"

namespace Switchyard {

QString escapeControl(const QString &field, qsizetype max)
{
    QString out;
    out.reserve(std::min<qsizetype>(field.size(), max));
    for (QChar c : field) {
        if (out.size() >= max) {
            out.append(u'…');
            break;
        }
        const ushort u = c.unicode();
        if (u == '\n')
            out.append(QLatin1String("\\n"));
        else if (u == '\r')
            out.append(QLatin1String("\\r"));
        else if (u == '\t')
            out.append(QLatin1String("\\t"));
        else if (u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0))
            out.append(QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0')));
        else if (c.category() == QChar::Other_Format) // bidi overrides and friends
            out.append(QStringLiteral("\\u%1").arg(u, 4, 16, QLatin1Char('0')));
        else
            out.append(c);
    }
    return out;
}

} // namespace Switchyard
