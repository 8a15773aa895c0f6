// Pages under an instance that stops answering: a page keeps one read of each kind outstanding,
// however long the instance hangs, and takes up where it left off when it answers again. The
// instance is a real daemon frozen with SIGSTOP, reached through the remote backend.
#include "admin/remotebackend.h"
#include "pages/overviewpage.h"
#include "support/daemonprocess.h"
#include "support/wait.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Switchyard;
using namespace Switchyard::Test;

class TestPagePolling : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pollsDoNotPileUpBehindAHungInstance()
    {
        QTemporaryDir dir;
        DaemonProcess daemon;
        QVERIFY2(daemon.start(DaemonProcess::standardFixture(QStringLiteral(TEST_DAEMON_PATH), dir.path(), QByteArray())),
                 daemon.output().constData());
        Admin::RemoteBackendOptions options;
        options.url = daemon.baseUrl();
        options.token = daemon.adminToken();
        Admin::RemoteBackend backend(options);
        backend.start();
        QVERIFY(eventually([&] { return backend.state() == Admin::AdminBackend::State::Connected; }));

        Console::OverviewPage page(backend);
        page.setActive(true); // reads now, then polls every second
        QVERIFY(eventually([&] { return backend.requestsInFlight() == 0; }));

        ::kill(pid_t(daemon.pid()), SIGSTOP);
        // Four poll intervals against a frozen instance: each kind of read is asked for once.
        int most = 0;
        QElapsedTimer window;
        window.start();
        while (window.elapsed() < 4500) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            most = std::max(most, backend.requestsInFlight());
        }
        QVERIFY2(most <= 6, qPrintable(QStringLiteral("%1 requests in flight").arg(most))); // instance, notices, cron, locks, cache, self-check
        QVERIFY(most >= 1);

        ::kill(pid_t(daemon.pid()), SIGCONT);
        QVERIFY(eventually([&] { return backend.requestsInFlight() == 0; }));
        page.setActive(false);
        backend.close(QStringLiteral("test done"));
        QVERIFY(eventually([&] { return backend.state() == Admin::AdminBackend::State::Closed; }));
        QCOMPARE(daemon.stop(), 0);
    }
};

QTEST_MAIN(TestPagePolling)
#include "tst_pagepolling.moc"
