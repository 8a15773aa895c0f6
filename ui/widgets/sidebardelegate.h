#pragma once

#include <QStyledItemDelegate>

namespace Switchyard::Console {

// A sidebar entry: the page's icon and title, and a red pill with the number of things that need
// attention (BadgeRole) when it is not zero.
class SidebarDelegate final : public QStyledItemDelegate
{
public:
    static constexpr int BadgeRole = Qt::UserRole + 10;
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace Switchyard::Console
