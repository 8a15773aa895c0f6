// Helper for tst_redislocker: another process using the same Redis lock. Not a test on its own.
//
// lockchild --urls URL[,URL...] --key KEY --exclusive N --marker PATH   N critical sections; exit 3 on overlap
// lockchild --urls URL[,URL...] --key KEY --hold --ttl MS               take the lock, print "locked", wait
#include "engine/globallock/globallock.h"

#include "support/testutil.h"

#include <QCoreApplication>

#include <cstdio>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

using namespace Switchyard;
using namespace std::chrono_literals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto value = [&](const char *name) { return Test::argumentValue(args, name); };
    LockerOptions options;
    options.instanceId = QStringLiteral("child-%1").arg(QCoreApplication::applicationPid());
    options.retryMin = 1ms;
    options.retryMax = 10ms;
    options.connectAttempts = 3;
    options.connectInterval = 50ms;
    if (!value("--ttl").isEmpty()) {
        options.ttl = std::chrono::milliseconds(value("--ttl").toInt());
        options.extendInterval = options.ttl / 3;
    }
    auto locker = createRedisLocker(CancelToken(), value("--urls").split(QLatin1Char(',')), options);
    if (!locker) {
        std::fprintf(stderr, "%s\n", qPrintable(locker.status().message()));
        return 2;
    }
    const QString key = value("--key");
    if (args.contains(QStringLiteral("--hold"))) {
        Result<LockGuard> guard = (*locker)->lock(CancelToken(), key);
        if (!guard)
            return 2;
        std::printf("locked %lld\n", guard->fencingToken());
        std::fflush(stdout);
        std::this_thread::sleep_for(1h); // until killed
        return 0;
    }
    const QByteArray marker = value("--marker").toLocal8Bit();
    const int iterations = value("--exclusive").toInt();
    for (int i = 0; i < iterations; ++i) {
        Result<LockGuard> guard = (*locker)->lock(CancelToken(), key);
        if (!guard) {
            std::fprintf(stderr, "lock: %s\n", qPrintable(guard.status().message()));
            return 2;
        }
        const int fd = ::open(marker.constData(), O_CREAT | O_EXCL | O_WRONLY, 0644);
        if (fd < 0) {
            std::fprintf(stderr, "OVERLAP in iteration %d\n", i);
            return 3;
        }
        ::close(fd);
        std::this_thread::sleep_for(200us);
        ::unlink(marker.constData());
    }
    return 0;
}
