#pragma once

// The console's status colours, from one place: ok, warning, error, paused, muted, info and
// cancelled, derived from the application palette (a dark window gets the lighter tones that stay
// readable on it). Pages, models and delegates ask here; none carries a colour literal.

#include <QColor>
#include <QPalette>
#include <QString>

namespace Switchyard::Console {

enum class StatusColor { Ok, Warning, Error, Paused, Muted, Info, Cancelled };

// For `palette` (default: the application's).
QColor statusColor(StatusColor role, const QPalette &palette);
QColor statusColor(StatusColor role);
// "<span style='color:…'>text</span>" for rich text labels.
QString colored(StatusColor role, const QString &html);
// The instance header's band and its text; the banner's tones for an error and for information.
QColor headerBackground(const QPalette &palette);
QColor headerText(const QPalette &palette);
QColor bannerBackground(StatusColor role, const QPalette &palette);
// Whether `palette` is a dark one (its window darker than its text).
bool isDark(const QPalette &palette);

} // namespace Switchyard::Console
