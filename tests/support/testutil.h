#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace Switchyard::Test {

// The value after `name` in a helper process's arguments ("--log FILE"), or an empty string.
QString argumentValue(const QStringList &arguments, const char *name);

// Writes `content` to `dir`/`name` and returns the full path; fails the current test on error.
QString writeFile(const QString &dir, const QString &name, const QByteArray &content);

} // namespace Switchyard::Test
