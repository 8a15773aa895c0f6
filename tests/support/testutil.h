#pragma once

#include <QByteArray>
#include <QString>

namespace Switchyard::Test {

// Writes `content` to `dir`/`name` and returns the full path; fails the current test on error.
QString writeFile(const QString &dir, const QString &name, const QByteArray &content);

} // namespace Switchyard::Test
