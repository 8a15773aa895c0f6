#include "sidebardelegate.h"

#include "statuscolors.h"

#include <QApplication>
#include <QPainter>

namespace Switchyard::Console {

QSize SidebarDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setHeight(std::max(size.height(), 34));
    return size;
}

void SidebarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.rect.adjust(4, 1, -4, -1);
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const int badge = index.data(BadgeRole).toInt();
    if (badge <= 0)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QFont font = option.font;
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 0.85);
    painter->setFont(font);
    const QString text = badge > 999 ? QStringLiteral("999+") : QString::number(badge);
    const int width = std::max(20, painter->fontMetrics().horizontalAdvance(text) + 12);
    const QRect pill(opt.rect.right() - width - 6, opt.rect.center().y() - 9, width, 18);
    painter->setPen(Qt::NoPen);
    painter->setBrush(statusColor(StatusColor::Error));
    painter->drawRoundedRect(pill, 9, 9);
    painter->setPen(Qt::white);
    painter->drawText(pill, Qt::AlignCenter, text);
    painter->restore();
}

} // namespace Switchyard::Console
