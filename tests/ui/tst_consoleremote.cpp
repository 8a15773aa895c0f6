// The console with several instances open at once: the embedded engine and test daemons over the
// admin API, each with its own pages and health dot; read-only connections with their actions
// disabled before anyone clicks; closing a connection; remembering one (the token goes to the
// keychain, or — with no keychain service running — stays in this session's memory, never in the
// settings file).
#include "app/connectdialog.h"
#include "app/instanceview.h"
#include "app/mainwindow.h"
#include "models/queuemodel.h"
#include "pages/pageregistry.h"
#include "pages/overviewpage.h"
#include "pages/queuespage.h"

#include "admin/localbackend.h"
#include "admin/tokens.h"

#include "support/daemonprocess.h"
#include "support/testutil.h"
#include "support/opcall.h"
#include "support/wait.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace Switchyard;
using namespace Switchyard::Console;
using namespace std::chrono_literals;

namespace {

bool connected(InstanceView *view)
{
    return Test::eventually([&] { return view->backend().state() == Admin::AdminBackend::State::Connected; });
}

} // namespace

class TestConsoleRemote : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings;
    QTemporaryDir m_daemonDir;
    QTemporaryDir m_localDir;
    Test::DaemonProcess m_daemon;
    std::unique_ptr<Admin::LocalBackend> m_local;
    std::unique_ptr<MainWindow> m_window;

    Admin::RemoteBackendOptions remote(const QByteArray &token, const QString &name) const
    {
        Admin::RemoteBackendOptions options;
        options.url = m_daemon.baseUrl();
        options.token = token;
        options.name = name;
        return options;
    }

private Q_SLOTS:
    void initTestCase()
    {
        Test::isolateSettings(m_settings.path(), QStringLiteral("console-remote-test"));
        // A mailer (dummy) that a read-only connection may look at but not use.
        QVERIFY2(m_daemon.start(Test::DaemonProcess::standardFixture(QStringLiteral(TEST_DAEMON_PATH), m_daemonDir.path(),
                                                                     "[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = ops@example.com\n")),
                 m_daemon.output().constData());
        Result<std::unique_ptr<Engine>> engine =
            Engine::start(CancelToken(), Test::configFrom("[queue]\nTYPE = channel\n", m_localDir.path()));
        QVERIFY(engine.isOk());
        m_local = std::make_unique<Admin::LocalBackend>(std::move(engine).value());
        m_window = std::make_unique<MainWindow>(*m_local);
        m_window->show();
    }

    void cleanupTestCase()
    {
        m_window->close();
        QVERIFY(Test::eventually([&] { return m_local->state() == Admin::AdminBackend::State::Closed; }));
        m_window.reset();
        m_local.reset();
        QCOMPARE(m_daemon.stop(), 0);
    }

    void remoteInstancesOpenBesideTheEmbeddedOne()
    {
        InstanceView *embedded = m_window->currentInstance();
        QVERIFY(embedded && embedded->isEmbedded());
        InstanceView *production = m_window->openRemote(remote(m_daemon.adminToken(), QStringLiteral("production")));
        QVERIFY(connected(production));
        // The status bar follows the header: not "Connecting to …" once connected.
        QVERIFY2(Test::eventually([&] { return m_window->lastOperation().contains(QStringLiteral("Connected to production")); }),
                 qPrintable(m_window->lastOperation()));
        QCOMPARE(m_window->currentInstance(), production);
        QCOMPARE(m_window->instances().size(), 2);
        // Two header rows (name + health dot) and each instance's pages.
        QCOMPARE(m_window->sidebar()->count(), int(2 * (1 + pageRegistry().size())));
        QCOMPARE(m_window->sidebar()->item(int(1 + pageRegistry().size()))->text(), QStringLiteral("production"));

        // The remote instance's own pages: its queues (the engine's three and the test's two), read over the API.
        m_window->showPage(QStringLiteral("queues"));
        QVERIFY(Test::eventually([&] { return m_window->page<QueuesPage>(QStringLiteral("queues"))->model().rowCount() == 6; })); // the daemon's, with its mail queue
        QVERIFY(m_window->page<QueuesPage>(QStringLiteral("queues")) != embedded->page<QueuesPage>(QStringLiteral("queues")));

        // Switching back without restarting anything.
        m_window->sidebar()->setCurrentRow(0);
        QCOMPARE(m_window->currentInstance(), embedded);
        QCOMPARE(m_window->currentPage()->id(), QStringLiteral("overview"));
        QCOMPARE(production->backend().state(), Admin::AdminBackend::State::Connected);
    }

    void readOnlyConnectionsDisableActions()
    {
        const Result<QString> viewer = Admin::TokenStore(m_daemonDir.path()).create(QStringLiteral("viewer"), Admin::Role::ReadOnly);
        QVERIFY(viewer.isOk());
        InstanceView *view = m_window->openRemote(remote(viewer->toLatin1(), QStringLiteral("production (viewer)")));
        QVERIFY(connected(view));
        QVERIFY(!view->backend().canMutate());
        auto *banner = view->findChild<QLabel *>(QStringLiteral("connectionBanner"));
        QVERIFY(banner->isVisibleTo(view));
        QVERIFY(banner->text().contains(QStringLiteral("Read-only")));

        m_window->showPage(QStringLiteral("queues"));
        QueuesPage *queues = m_window->page<QueuesPage>(QStringLiteral("queues"));
        QVERIFY(Test::eventually([&] { return queues->model().rowCount() == 6; })); // with the mail queue
        QVERIFY(queues->selectKey(queues->model().data(queues->model().index(0, 0), Console::KeyRole)));
        QVERIFY(!queues->pauseAction()->isEnabled());
        QVERIFY(!queues->flushAction()->isEnabled());
        QVERIFY(!queues->removeAllAction()->isEnabled());
        m_window->showPage(QStringLiteral("overview"));
        OverviewPage *overview = m_window->page<OverviewPage>(QStringLiteral("overview"));
        QVERIFY(Test::eventually([&] { return overview->mailInfo().enabled; }));
        QVERIFY(!overview->mailTestButton()->isEnabled());
        QVERIFY(overview->mailTestButton()->toolTip().contains(QStringLiteral("Read-only")));

        // Closing the connection removes it (the others stay).
        m_window->closeInstance(view);
        QVERIFY(Test::eventually([&] { return m_window->instances().size() == 2; }));
        QCOMPARE(m_window->sidebar()->count(), int(2 * (1 + pageRegistry().size())));
    }

    void unauthorisedConnectionsSaySo()
    {
        InstanceView *view = m_window->openRemote(remote("sy_not-a-token", QStringLiteral("wrong token")));
        QVERIFY(Test::eventually([&] { return view->backend().state() == Admin::AdminBackend::State::Failed; }));
        auto *banner = view->findChild<QLabel *>(QStringLiteral("connectionBanner"));
        QVERIFY(banner->text().contains(QStringLiteral("unauthorised")));
        QVERIFY(m_window->lastError().contains(QStringLiteral("wrong token")));
        m_window->closeInstance(view);
        QVERIFY(Test::eventually([&] { return m_window->instances().size() == 2; }));
    }

    void rememberedConnectionsKeepTheTokenOutOfTheSettings()
    {
        auto *connectAction = m_window->findChild<QAction *>(QStringLiteral("connectAction"));
        QVERIFY(connectAction);
        connectAction->trigger();
        auto *dialog = m_window->findChild<ConnectDialog *>();
        QVERIFY(dialog);
        auto *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled()); // nothing entered yet
        dialog->findChild<QLineEdit *>(QStringLiteral("urlEdit"))->setText(QStringLiteral("ftp://nowhere"));
        dialog->findChild<QLineEdit *>(QStringLiteral("tokenEdit"))->setText(QString::fromLatin1(m_daemon.adminToken()));
        QVERIFY(!ok->isEnabled());
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("problemLabel"))->text().contains(QStringLiteral("http")));
        dialog->findChild<QLineEdit *>(QStringLiteral("nameEdit"))->setText(QStringLiteral("staging"));
        dialog->findChild<QLineEdit *>(QStringLiteral("urlEdit"))->setText(m_daemon.baseUrl().toString());
        QVERIFY(ok->isEnabled());
        ok->click();
        QVERIFY(Test::eventually([&] { return m_window->instances().size() == 3; }));
        InstanceView *staging = m_window->instances().last();
        QVERIFY(connected(staging));
        QVERIFY(m_window->savedInstances().contains(QStringLiteral("staging")));
        // The keychain answered one way or the other, and the status bar says which.
        QString saved;
        QVERIFY(Test::eventually([&] {
            for (const QString &line : m_window->operationHistory())
                if (line.contains(QStringLiteral("Saved staging")))
                    saved = line;
            return !saved.isEmpty();
        }));
        const bool sessionOnly = saved.contains(QStringLiteral("this session only"));
        qInfo("keychain: %s", sessionOnly ? "no service running (session-only token)" : "stored");

        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains("staging"));
        QVERIFY2(!stored.contains(m_daemon.adminToken()), "the token must never be in the settings file");

        // Closed and opened again from the saved entry: the token comes back from where it went.
        m_window->closeInstance(staging);
        QVERIFY(Test::eventually([&] { return m_window->instances().size() == 2; }));
        m_window->openSaved(QStringLiteral("staging"));
        QVERIFY(Test::eventually([&] { return m_window->instances().size() == 3; }));
        QVERIFY(connected(m_window->instances().last()));
    }

    // An instance that went away: the header stops counting its uptime and says when it was last
    // seen (the reconnects keep going).
    void anUnreachableInstanceShowsWhenItWasLastSeen()
    {
        QTemporaryDir dir;
        Test::DaemonProcess daemon;
        QVERIFY2(daemon.start(Test::DaemonProcess::standardFixture(QStringLiteral(TEST_DAEMON_PATH), dir.path(), QByteArray())),
                 daemon.output().constData());
        Admin::RemoteBackendOptions options;
        options.url = daemon.baseUrl();
        options.token = daemon.adminToken();
        options.name = QStringLiteral("short-lived");
        InstanceView *view = m_window->openRemote(options);
        QVERIFY(connected(view));
        auto *header = view->findChild<QLabel *>(QStringLiteral("instanceHeader"));
        QVERIFY(header);
        QVERIFY(Test::eventually([&] { return header->text().contains(QStringLiteral("up ")); }));
        QVERIFY(Test::eventually([&] { return view->liveText().contains(QStringLiteral("live")); }));
        QCOMPARE(daemon.stop(), 0);
        QVERIFY(Test::eventually([&] { return view->backend().state() != Admin::AdminBackend::State::Connected; }));
        QVERIFY2(Test::eventually([&] { return header->text().contains(QStringLiteral("last seen")); }), qPrintable(header->text()));
        QVERIFY2(!header->text().contains(QStringLiteral("up ")), qPrintable(header->text()));
        m_window->closeInstance(view);
        QVERIFY(Test::eventually([&] { return !m_window->instances().contains(view); }));
    }
};

QTEST_MAIN(TestConsoleRemote)
#include "tst_consoleremote.moc"
