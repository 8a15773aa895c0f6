#pragma once

// Text from outside (a request path, a forge's login) made safe for a log, a table or a terminal.

#include <QString>

namespace Switchyard {

// Control characters (C0, DEL, C1, bidi and other format characters) as \n, \x1b, \u202e …;
// cut to `max` characters (then "…").
QString escapeControl(const QString &text, qsizetype max);

} // namespace Switchyard
