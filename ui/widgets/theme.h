#pragma once

// Light and dark: the console follows the desktop's colour scheme (the palette the platform gave
// at start) unless View ▸ Theme says Light or Dark; the choice is remembered (QSettings "theme").
// Status colours follow whichever palette is in use (statuscolors.h).

#include <QString>

class QChartView;

namespace Switchyard::Console::Theme {

enum class Choice { System, Light, Dark };

// Records the platform's palette; call once, before anything changes the application palette.
void captureSystemPalette();
void apply(Choice choice);
Choice current();
// "system", "light", "dark" (settings values); unknown names are System.
QString name(Choice choice);
Choice fromName(const QString &name);
// The remembered choice, applied (main() calls it at start).
void restore();
// Keeps a chart in the light or dark chart theme that matches the palette, now and on every change.
void followPalette(QChartView *view);

} // namespace Switchyard::Console::Theme
