#include "trayicon.h"

#include <QMenu>
#include <QPainter>
#include <QPixmap>

namespace Switchyard::Console {

TrayIcon::TrayIcon(QObject *parent) : QObject(parent)
{
    auto *menu = new QMenu;
    connect(this, &QObject::destroyed, menu, &QObject::deleteLater);
    menu->addAction(tr("Open Switchyard"), this, [this] { Q_EMIT openRequested(QString(), QStringLiteral("overview"), QString(), QVariant()); });
    menu->addSeparator();
    menu->addAction(tr("Quit"), this, &TrayIcon::quitRequested);
    m_tray.setContextMenu(menu);
    m_tray.setToolTip(tr("Switchyard"));
    setStatus(StatusColor::Ok);
    connect(&m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
            Q_EMIT openRequested(QString(), QString(), QString(), QVariant());
    });
    connect(&m_tray, &QSystemTrayIcon::messageClicked, this,
            [this] { Q_EMIT openRequested(m_last.instance, m_last.pageId, m_last.filter, m_last.key); });
}

QIcon TrayIcon::iconFor(StatusColor status)
{
    QIcon icon;
    for (int size : {16, 22, 32, 48}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        // Two rails and a switch: the mark, in a neutral grey that reads on light and dark panels.
        QPen rail(QColor(0x6b, 0x72, 0x80), qMax(1.5, size / 10.0));
        rail.setCapStyle(Qt::RoundCap);
        p.setPen(rail);
        p.drawLine(QPointF(size * 0.2, size * 0.85), QPointF(size * 0.2, size * 0.15));
        p.drawLine(QPointF(size * 0.2, size * 0.6), QPointF(size * 0.55, size * 0.15));
        const qreal dot = size * 0.42;
        p.setPen(Qt::NoPen);
        p.setBrush(statusColor(status));
        p.drawEllipse(QRectF(size - dot - 1, size - dot - 1, dot, dot));
        icon.addPixmap(pixmap);
    }
    return icon;
}

void TrayIcon::setStatus(StatusColor status)
{
    m_tray.setIcon(iconFor(status));
    m_tray.setToolTip(status == StatusColor::Error     ? tr("Switchyard: something failed (open to see)")
                      : status == StatusColor::Warning ? tr("Switchyard: a queue is backing up or an instance reconnects")
                                                       : tr("Switchyard: all well"));
}

void TrayIcon::show(const DesktopNotice &notice)
{
    m_last = notice;
    const QString title = notice.instance.isEmpty() ? notice.title : tr("%1 — %2").arg(notice.title, notice.instance);
    m_tray.showMessage(title, notice.body,
                       notice.kind == AlertKind::QueueBacklog ? QSystemTrayIcon::Warning : QSystemTrayIcon::Critical, 10000);
}

} // namespace Switchyard::Console
