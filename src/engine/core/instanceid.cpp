#include "instanceid.h"

#include <QCoreApplication>
#include <QHostInfo>
#include <QRandomGenerator>

namespace Switchyard {

QString generateInstanceId()
{
    return QStringLiteral("%1-%2-%3")
        .arg(QHostInfo::localHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
}

} // namespace Switchyard
