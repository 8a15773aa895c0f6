#include "statuscolors.h"

#include <QApplication>

namespace Switchyard::Console {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

QColor statusColor(StatusColor role, const QPalette &palette)
{
    const bool dark = isDark(palette);
    // Material tones: 800 on a light window, 300 on a dark one (both keep 4.5:1 with the text).
    switch (role) {
    case StatusColor::Ok: return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
    case StatusColor::Warning:
    case StatusColor::Paused: return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x6b, 0x00);
    case StatusColor::Error: return dark ? QColor(0xe5, 0x73, 0x73) : QColor(0xc6, 0x28, 0x28);
    case StatusColor::Info: return dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x15, 0x65, 0xc0);
    case StatusColor::Cancelled: return dark ? QColor(0xce, 0x93, 0xd8) : QColor(0x8e, 0x24, 0xaa);
    case StatusColor::Muted: return palette.color(QPalette::Disabled, QPalette::WindowText);
    }
    return palette.color(QPalette::WindowText);
}

QColor statusColor(StatusColor role)
{
    return statusColor(role, QApplication::palette());
}

QString colored(StatusColor role, const QString &html)
{
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(statusColor(role).name(), html);
}

QColor headerBackground(const QPalette &palette)
{
    return isDark(palette) ? palette.color(QPalette::Base).darker(130) : QColor(0x26, 0x32, 0x38);
}

QColor headerText(const QPalette &palette)
{
    return isDark(palette) ? palette.color(QPalette::WindowText) : QColor(0xec, 0xef, 0xf1);
}

QColor bannerBackground(StatusColor role, const QPalette &palette)
{
    QColor tone = statusColor(role, palette);
    // A pale wash of the status colour on a light window, a deep one on a dark window.
    const QColor window = palette.color(QPalette::Window);
    const double mix = isDark(palette) ? 0.35 : 0.12;
    return QColor::fromRgbF(window.redF() + (tone.redF() - window.redF()) * mix, window.greenF() + (tone.greenF() - window.greenF()) * mix,
                            window.blueF() + (tone.blueF() - window.blueF()) * mix);
}

} // namespace Switchyard::Console
