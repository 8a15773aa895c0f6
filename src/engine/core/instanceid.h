#pragma once

#include <QString>

namespace Switchyard {

// host-pid-random: identifies this process among instances sharing Redis (lock owners, in-flight
// lists, cron run records).
QString generateInstanceId();

} // namespace Switchyard
