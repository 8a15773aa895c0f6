#include "icons.h"

#include <QFont>
#include <QHash>
#include <QPainter>
#include <QPixmap>

namespace Switchyard::Console::Icons {

QIcon state(const QColor &color)
{
    static QHash<QRgb, QIcon> cache;
    const auto it = cache.constFind(color.rgba());
    if (it != cache.constEnd())
        return *it;
    QIcon icon;
    for (int size : {12, 16, 24}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        const qreal margin = size * 0.22;
        painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
        icon.addPixmap(pixmap);
    }
    cache.insert(color.rgba(), icon);
    return icon;
}

QIcon page(const QString &glyph, const QColor &color)
{
    QIcon icon;
    for (int size : {16, 24, 32, 48}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawRoundedRect(QRectF(1, 1, size - 2, size - 2), size * 0.22, size * 0.22);
        QFont font;
        font.setBold(true);
        font.setPixelSize(int(size * 0.55));
        painter.setFont(font);
        painter.setPen(Qt::white);
        painter.drawText(QRectF(0, 0, size, size), Qt::AlignCenter, glyph);
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace Switchyard::Console::Icons
