#include "icons.h"

#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QIconEngine>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QPixmapCache>
#include <QSvgRenderer>

namespace Switchyard::Console::Icons {

namespace {

QString resourcePath(const QString &name)
{
    return QStringLiteral(":/switchyard/icons/%1-symbolic.svg").arg(name);
}

// The SVG's bytes, read once per icon (GUI thread only); empty when there is no such icon.
const QByteArray &svgData(const QString &name)
{
    static QHash<QString, QByteArray> data;
    auto it = data.find(name);
    if (it == data.end()) {
        QFile file(resourcePath(name));
        it = data.insert(name, file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray());
    }
    return it.value();
}

// Draws a symbolic SVG tinted with one colour: the SVG's own colours are replaced, its alpha kept.
class SymbolicEngine final : public QIconEngine {
public:
    SymbolicEngine(QString name, QColor background) : m_name(std::move(name)), m_background(background) {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        QPixmap image = render(rect.size() * ratio, mode, state);
        image.setDevicePixelRatio(ratio);
        painter->drawPixmap(rect, image);
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return render(size, mode, state);
    }

    QIconEngine *clone() const override { return new SymbolicEngine(m_name, m_background); }
    QString key() const override { return QStringLiteral("switchyard-symbolic"); }
    QString iconName() override { return m_name; }

    QList<QSize> availableSizes(QIcon::Mode, QIcon::State) override
    {
        return {QSize(16, 16), QSize(22, 22), QSize(24, 24), QSize(32, 32), QSize(48, 48), QSize(64, 64)};
    }

private:
    QColor foreground(QIcon::Mode mode) const
    {
        if (m_background.isValid())
            return mode == QIcon::Disabled ? QColor(255, 255, 255, 160) : QColor(Qt::white);
        const QPalette palette = QGuiApplication::palette();
        switch (mode) {
        case QIcon::Disabled: return palette.color(QPalette::Disabled, QPalette::WindowText);
        case QIcon::Selected: return palette.color(QPalette::Active, QPalette::HighlightedText);
        default: return palette.color(QPalette::Active, QPalette::WindowText);
        }
    }

    QPixmap render(const QSize &size, QIcon::Mode mode, QIcon::State)
    {
        if (size.isEmpty())
            return {};
        const QColor fg = foreground(mode);
        const QString cacheKey = QStringLiteral("sy-icon/%1/%2x%3/%4/%5")
                                     .arg(m_name)
                                     .arg(size.width())
                                     .arg(size.height())
                                     .arg(fg.rgba())
                                     .arg(m_background.isValid() ? m_background.rgba() : 0);
        QPixmap cached;
        if (QPixmapCache::find(cacheKey, &cached))
            return cached;

        const int side = std::min(size.width(), size.height());
        // The glyph: a badge leaves a margin around it, an action icon fills its square.
        const int glyphSide = m_background.isValid() ? int(side * 0.62) : side;
        QImage glyph(glyphSide, glyphSide, QImage::Format_ARGB32_Premultiplied);
        glyph.fill(Qt::transparent);
        {
            QPainter painter(&glyph);
            QSvgRenderer svg(svgData(m_name)); // a render is rare: the result goes to QPixmapCache
            svg.render(&painter, QRectF(0, 0, glyphSide, glyphSide));
            painter.setCompositionMode(QPainter::CompositionMode_SourceIn);
            painter.fillRect(glyph.rect(), fg);
        }

        QImage out(size, QImage::Format_ARGB32_Premultiplied);
        out.fill(Qt::transparent);
        {
            QPainter painter(&out);
            painter.setRenderHint(QPainter::Antialiasing);
            const QRectF square((size.width() - side) / 2.0, (size.height() - side) / 2.0, side, side);
            if (m_background.isValid()) {
                painter.setPen(Qt::NoPen);
                painter.setBrush(mode == QIcon::Disabled ? m_background.lighter(140) : m_background);
                const QRectF inset = square.adjusted(side / 32.0, side / 32.0, -side / 32.0, -side / 32.0);
                painter.drawRoundedRect(inset, side * 0.22, side * 0.22);
            }
            const QPointF origin = square.center() - QPointF(glyphSide / 2.0, glyphSide / 2.0);
            painter.drawImage(origin.toPoint(), glyph);
        }
        cached = QPixmap::fromImage(out);
        QPixmapCache::insert(cacheKey, cached);
        return cached;
    }

    QString m_name;
    QColor m_background; // invalid: an action icon in the palette's colours
};

} // namespace

QIcon state(const QColor &color)
{
    static QHash<QRgb, QIcon> cache;
    const auto it = cache.constFind(color.rgba());
    if (it != cache.constEnd())
        return *it;
    QIcon icon;
    for (int size : {12, 16, 24, 32, 48}) {
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

bool exists(const QString &name)
{
    return !svgData(name).isEmpty(); // the files are ours; tst_console::iconsAreReal renders each
}

QIcon symbolic(const QString &name)
{
    return exists(name) ? QIcon(new SymbolicEngine(name, QColor())) : QIcon();
}

QIcon badge(const QString &name, const QColor &color)
{
    return exists(name) ? QIcon(new SymbolicEngine(name, color)) : QIcon();
}

} // namespace Switchyard::Console::Icons
