#pragma once

// Icons drawn at run time (the console ships no image files and must not depend on the desktop's
// icon theme): state dots and the sidebar's page badges.

#include <QColor>
#include <QIcon>

namespace Switchyard::Console::Icons {

// A filled dot in `color` (status columns, health).
QIcon state(const QColor &color);
// A rounded square in `color` with `glyph` in white (sidebar pages).
QIcon page(const QString &glyph, const QColor &color);

} // namespace Switchyard::Console::Icons
