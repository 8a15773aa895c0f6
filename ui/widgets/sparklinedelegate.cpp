#include "sparklinedelegate.h"

#include "statuscolors.h"

#include "models/queuemodel.h"
#include "models/rowtablemodel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace Switchyard::Console {

SparklineDelegate::SparklineDelegate(const QueueModel &model, QObject *parent)
    : QStyledItemDelegate(parent), m_model(model)
{
}

void SparklineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const std::deque<QueueSample> &history = m_model.history(index.data(KeyRole).toLongLong());
    const QRect area = option.rect.adjusted(4, 3, -64, -3);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    if (history.size() >= 2 && area.width() > 10) {
        double peak = 1;
        for (const QueueSample &s : history)
            peak = std::max(peak, s.handledPerSecond);
        const qsizetype n = qsizetype(history.size());
        const double step = double(area.width()) / double(std::max<qsizetype>(n - 1, 1));
        QPainterPath path;
        for (qsizetype i = 0; i < n; ++i) {
            const QPointF p(area.left() + double(i) * step,
                            area.bottom() - history[std::size_t(i)].handledPerSecond / peak * area.height());
            if (i == 0)
                path.moveTo(p);
            else
                path.lineTo(p);
        }
        const bool selected = option.state & QStyle::State_Selected;
        painter->setPen(QPen(selected ? option.palette.highlightedText().color() : statusColor(StatusColor::Info), 1.4));
        painter->drawPath(path);
    }
    painter->setPen(option.state & QStyle::State_Selected ? option.palette.highlightedText().color()
                                                          : option.palette.text().color());
    painter->drawText(option.rect.adjusted(0, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

CountdownBarDelegate::CountdownBarDelegate(std::function<double(const QModelIndex &)> fraction, QObject *parent)
    : QStyledItemDelegate(parent), m_fraction(std::move(fraction))
{
}

void CountdownBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const double fraction = m_fraction(index);
    painter->save();
    if (fraction >= 0) {
        const QRect track = option.rect.adjusted(4, option.rect.height() / 2 - 3, -70, -(option.rect.height() / 2 - 3));
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0, 0, 0, 30));
        painter->drawRoundedRect(track, 3, 3);
        QRect bar = track;
        bar.setWidth(int(track.width() * std::clamp(fraction, 0.0, 1.0)));
        const QVariant foreground = index.data(Qt::ForegroundRole);
        painter->setBrush(foreground.isValid() ? foreground.value<QBrush>().color() : statusColor(StatusColor::Ok));
        painter->drawRoundedRect(bar, 3, 3);
    }
    painter->setPen(option.state & QStyle::State_Selected ? option.palette.highlightedText().color()
                                                          : option.palette.text().color());
    painter->drawText(option.rect.adjusted(0, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

} // namespace Switchyard::Console
