#pragma once

// Names the calling thread as `top -H`, `ps -L`, gdb and perf show it (Linux keeps 15 bytes), so
// an operator can tell the delivery loop from a queue's worker.

#include <QString>

#include <pthread.h>

namespace Switchyard {

inline void nameThisThread(const QString &name)
{
    pthread_setname_np(pthread_self(), name.toUtf8().left(15).constData());
}

} // namespace Switchyard
