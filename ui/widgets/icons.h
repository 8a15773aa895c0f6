#pragma once

// The console's icons. Pages and actions use symbolic SVGs from GNOME's Adwaita theme, compiled in
// (resources/icons, licence in resources/icons/README.md) so the console looks the same on every
// desktop. They are tinted at paint time: actions in the palette's text colour (so they follow the
// light and dark themes and grey out when disabled), page badges white on the page's colour.
// Rendered from the SVG at the exact device-pixel size asked for, so they stay sharp at any scale.
// State dots (status columns, health) are drawn.

#include <QColor>
#include <QIcon>

namespace Switchyard::Console::Icons {

// A filled dot in `color` (status columns, health).
QIcon state(const QColor &color);

// The symbolic icon `name` (a file in resources/icons without "-symbolic.svg"), tinted with the
// palette's window text; disabled and selected modes follow the palette. A null icon if the name is
// unknown (tst_console checks every name used).
QIcon symbolic(const QString &name);

// The symbolic icon `name` in white on a rounded square of `color` (sidebar pages).
QIcon badge(const QString &name, const QColor &color);

// Whether `name` is one of the compiled-in icons.
bool exists(const QString &name);

} // namespace Switchyard::Console::Icons
