// The desktop app as a whole instance (issue: the console alone takes forge events): opened the
// way main.cpp opens it (EmbeddedInstance + MainWindow + DesktopShell) on a fresh data directory,
// its embedded engine serves the admin API; a GitHub push signed with the secret the Overview
// shows, posted to the URL it shows, appears on the Notifications page; "Send test event" does the
// same without a forge; Preferences round-trips a port change and refuses a bad value; a port
// another program holds is said on the Overview with a free one to use; a failed delivery reaches
// the desktop (a recording sink), rate-limited.

#include "app/desktopalerts.h"
#include "app/desktopshell.h"
#include "app/embeddedinstance.h"
#include "app/mainwindow.h"
#include "app/preferencesdialog.h"
#include "app/trayicon.h"
#include "pages/eventsender.h"
#include "pages/intakebox.h"
#include "pages/notificationspage.h"
#include "pages/overviewpage.h"
#include "pages/tablepage.h"

#include "admin/ops/webhookops.h"
#include "engine/settings/inifile.h"

#include "support/httpreceiver.h"
#include "support/wait.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QMessageAuthenticationCode>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QPointer>
#include <QTranslator>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QUuid>

using namespace Switchyard;
using namespace Switchyard::Console;
using namespace std::chrono_literals;

namespace {

#ifdef SWITCHYARD_SANITIZED
constexpr auto kSeen = 10s; // a sanitizer slows every step several times
#else
constexpr auto kSeen = 2s; // the bound: a forge's event on the Notifications page
#endif

struct Recorder final : DesktopSink
{
    std::vector<DesktopNotice> shown;
    void show(const DesktopNotice &notice) override { shown.push_back(notice); }
};

// The app as main.cpp opens it, on `ini` (the console's app.ini) in a fresh directory.
struct App
{
    QTemporaryDir dir;
    std::unique_ptr<EmbeddedInstance> instance;
    std::unique_ptr<MainWindow> window;
    Recorder recorder;
    std::unique_ptr<DesktopShell> shell;

    // `port` -1: as app.ini says; 0 (the default here): any free port, so parallel tests never race
    // for one.
    explicit App(const QByteArray &ini, int port = 0)
    {
        QFile file(dir.filePath(QStringLiteral("app.ini")));
        if (!file.open(QIODevice::WriteOnly) || file.write(ini) != ini.size())
            qFatal("cannot write app.ini");
        file.close();
        EmbeddedOptions options;
        options.configPath = file.fileName();
        options.dataDir = dir.filePath(QStringLiteral("data"));
        options.useKeychain = false;
        options.port = port;
        options.backend.eventInterval = 100ms;
        Result<std::unique_ptr<EmbeddedInstance>> opened = EmbeddedInstance::open(options);
        if (!opened)
            qFatal("open: %s", qPrintable(opened.status().message()));
        instance = std::move(opened).value();
        window = std::make_unique<MainWindow>(&instance->backend());
        shell = std::make_unique<DesktopShell>(*window, instance.get(), &recorder);
        window->resize(1280, 800);
        window->show();
        instance->start();
    }
    ~App()
    {
        window->quit();
        Test::eventually([&] { return instance->backend().state() == Admin::AdminBackend::State::Closed; }, 30s);
        shell.reset();
        window.reset();
        instance.reset();
    }
    OverviewPage &overview() { return *window->page<OverviewPage>(QStringLiteral("overview")); }
    NotificationsPage &notifications()
    {
        window->showPage(QStringLiteral("notifications"));
        return *window->page<NotificationsPage>(QStringLiteral("notifications"));
    }
    bool connected() { return instance->backend().state() == Admin::AdminBackend::State::Connected && instance->server().isListening(); }
    QString iniText() const
    {
        QFile file(dir.filePath(QStringLiteral("app.ini")));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }
};

QByteArray loopbackIni()
{
    return "[server]\nHTTP_ADDR = 127.0.0.1\n";
}

int post(const QUrl &url, const QByteArray &body, const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    QNetworkAccessManager network;
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = network.post(request, body);
    Test::eventually([&] { return reply->isFinished(); });
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    delete reply;
    return status;
}

bool hasEvent(NotificationsPage &page, const QString &event, const QString &repo = {})
{
    for (const Admin::EventRow &row : page.events().rows())
        if (row.event == event && (repo.isEmpty() || row.repo == repo))
            return true;
    return false;
}

} // namespace

class TestDesktopApp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // The console alone: the URL and secret the Overview shows are all a forge needs.
    void aForgeEventReachesTheConsoleAlone()
    {
        App app(loopbackIni());
        QVERIFY(Test::eventually([&] { return app.connected(); }));
        IntakeBox &intake = *app.overview().intake();
        const QString url = intake.findChild<QLineEdit *>(QStringLiteral("eventUrl"))->text();
        QCOMPARE(url, QStringLiteral("http://127.0.0.1:%1/api/v1/events?source=default").arg(app.instance->server().port()));
        const QByteArray secret = intake.findChild<QLineEdit *>(QStringLiteral("eventSecret"))->text().toUtf8();
        QCOMPARE(secret.size(), 64); // made on the first start, kept outside app.ini
        QVERIFY(!app.iniText().contains(QString::fromLatin1(secret)));

        QFile push(QStringLiteral(SWITCHYARD_TEST_DATA "/events/gitea-push.json"));
        QVERIFY(push.open(QIODevice::ReadOnly));
        const QByteArray body = push.readAll();
        const QByteArray signature = QMessageAuthenticationCode::hash(body, secret, QCryptographicHash::Sha256).toHex();
        NotificationsPage &page = app.notifications();
        QCOMPARE(post(QUrl(url), body, {{"X-GitHub-Event", "push"}, {"X-GitHub-Delivery", QUuid::createUuid().toByteArray(QUuid::WithoutBraces)},
                                        {"X-Hub-Signature-256", "sha256=" + signature}}),
                 202);
        QVERIFY2(Test::eventually([&] { return hasEvent(page, QStringLiteral("push"), QStringLiteral("alice/engine")); }, kSeen),
                 "the push did not reach the Notifications page in time");
        // A stranger's signature is refused before anything is stored.
        QCOMPARE(post(QUrl(url), body, {{"X-GitHub-Event", "push"}, {"X-Hub-Signature-256", "sha256=" + QByteArray(64, '0')}}), 401);
    }

    // "Send test event" without a forge: signed, over the real HTTP path.
    void sendTestEventTakesTheSamePath()
    {
        App app(loopbackIni());
        QVERIFY(Test::eventually([&] { return app.connected(); }));
        NotificationsPage &page = app.notifications();
        QAction *send = page.findChild<QAction *>(QStringLiteral("sendTestEvent"));
        QVERIFY(send && send->isEnabled());
        send->trigger();
        QVERIFY2(Test::eventually([&] { return hasEvent(page, QStringLiteral("push")); }, kSeen), "the test event did not arrive in time");
        QVERIFY2(app.window->lastOperation().contains(QStringLiteral("signed, over HTTP")), qPrintable(app.window->lastOperation()));
        // The issue sample, and a saved payload whose kind is detected from its shape.
        app.overview().tryout()->sendSample(QStringLiteral("issues"));
        QVERIFY(Test::eventually([&] { return hasEvent(page, QStringLiteral("issues")); }, kSeen));
        app.overview().tryout()->sendFile(QStringLiteral(SWITCHYARD_TEST_DATA "/events/gitea-release-published.json"));
        QVERIFY(Test::eventually([&] { return hasEvent(page, QStringLiteral("release")); }, kSeen));
        QCOMPARE(EventSender::detect(QJsonDocument::fromJson(EventSender::sample(QStringLiteral("pull_request"))).object()),
                 QStringLiteral("pull_request"));
        QCOMPARE(EventSender::detect(QJsonObject{{QStringLiteral("ref"), QStringLiteral("v1")}, {QStringLiteral("ref_type"), QStringLiteral("tag")}}),
                 QString()); // create or delete: asked
    }

    void preferencesRoundTripAPortChange()
    {
        App app("; the console's settings\n[server]\nHTTP_ADDR = 127.0.0.1 ; loopback only\n\n[queue]\nTYPE = channel\n");
        QVERIFY(Test::eventually([&] { return app.connected(); }));
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 next = probe.serverPort();
        probe.close();
        PreferencesDialog *dialog = app.shell->openPreferences();
        dialog->portBox()->setValue(next);
        QVERIFY2(dialog->save(), qPrintable(dialog->note()));
        QCOMPARE(app.instance->server().port(), next); // the API moved at once; the engine kept running
        QVERIFY(app.overview().webhookUrl().contains(QStringLiteral(":%1/").arg(next)));
        const QString ini = app.iniText();
        QVERIFY2(ini.startsWith(QStringLiteral("; the console's settings\n")) && ini.contains(QStringLiteral("; loopback only"))
                     && ini.contains(QStringLiteral("HTTP_PORT = %1\n").arg(next)) && ini.contains(QStringLiteral("[queue]\nTYPE = channel")),
                 qPrintable(ini));
        QPointer<PreferencesDialog> first(dialog);
        dialog->close(); // deletes itself
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(first.isNull());
        PreferencesDialog *again = app.shell->openPreferences(); // a new one, reading app.ini
        QCOMPARE(again->portBox()->value(), int(next));

        // A bad value is refused with the reason, and nothing is written.
        again->addressBox()->setCurrentText(QStringLiteral("not-an-address"));
        const Status refused = again->save();
        QVERIFY(!refused);
        QVERIFY2(refused.message().contains(QStringLiteral("HTTP_ADDR")), qPrintable(refused.message()));
        QCOMPARE(app.iniText(), ini);
        again->addressBox()->setCurrentText(QStringLiteral("0.0.0.0")); // off this computer without TLS
        QVERIFY(!again->save());
        QCOMPARE(app.iniText(), ini);
    }

    // Another program holds the port: the console opens anyway and offers a free one.
    void aTakenPortIsSaidAndAnotherOffered()
    {
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
        App app("[server]\nHTTP_PORT = " + QByteArray::number(squatter.serverPort()) + "\n", -1);
        QVERIFY(Test::eventually([&] { return app.instance->backend().state() == Admin::AdminBackend::State::Connected; }));
        IntakeBox &intake = *app.overview().intake();
        auto *problem = intake.findChild<QLabel *>(QStringLiteral("endpointProblem"));
        auto *use = intake.findChild<QPushButton *>(QStringLiteral("usePort"));
        app.window->showPage(QStringLiteral("overview"));
        QVERIFY(Test::eventually([&] { return problem->isVisibleTo(&intake) && use->isVisibleTo(&intake); }));
        QVERIFY2(problem->text().contains(QString::number(squatter.serverPort())), qPrintable(problem->text()));
        use->click();
        QVERIFY(Test::eventually([&] { return app.instance->server().isListening(); }));
        QVERIFY(app.instance->server().port() != squatter.serverPort());
        QVERIFY(!problem->isVisibleTo(&intake));
        QVERIFY(app.iniText().contains(QStringLiteral("HTTP_PORT = %1").arg(app.instance->server().port())));
    }

    // Without HTTP_PORT the default 3300 is taken when free, else the next free port.
    void theDefaultPortMovesOnWhenTaken()
    {
        QTcpServer squatter;
        squatter.listen(QHostAddress::LocalHost, 3300); // may fail: another program has it, which is the case tested
        App app("[server]\nHTTP_ADDR = 127.0.0.1\n", -1);
        QVERIFY(Test::eventually([&] { return app.connected(); }));
        QVERIFY(app.instance->server().port() > 3300 && app.instance->server().port() <= 3300 + EmbeddedServer::kDefaultPortTries);
    }

    // "Keep running in the tray": closing hides the window and the engine keeps taking events;
    // Quit stops it.
    void closingKeepsRunningWhenAskedQuitStops()
    {
        App app(loopbackIni());
        QVERIFY(Test::eventually([&] { return app.connected(); }));
        bool keep = true;
        app.window->setHideOnClose([&keep] { return keep; });
        app.window->close();
        QVERIFY(!app.window->isVisible());
        QCOMPARE(app.instance->backend().state(), Admin::AdminBackend::State::Connected);
        NotificationsPage &page = app.notifications();
        app.overview().tryout()->sendSample(QStringLiteral("push"));
        QVERIFY(Test::eventually([&] { return hasEvent(page, QStringLiteral("push")); }, kSeen));
        app.window->quit(); // whatever the tray setting says
        QVERIFY(Test::eventually([&] { return app.instance->backend().state() == Admin::AdminBackend::State::Closed; }, 30s));
        QVERIFY(!app.instance->server().isListening());
    }

    // The tray's dot takes the status colour.
    void theTrayIconCarriesTheStatus()
    {
        for (StatusColor status : {StatusColor::Ok, StatusColor::Warning, StatusColor::Error}) {
            const QImage image = TrayIcon::iconFor(status).pixmap(32, 32).toImage();
            QCOMPARE(image.pixelColor(32 - 7, 32 - 7).rgb(), statusColor(status).rgb());
        }
    }

    // The Overview of a first start, as README shows it (scripts/screenshots.sh: the same
    // SWITCHYARD_SCREENSHOT_* variables as tst_console's rendersEveryPage).
    void rendersTheFirstStart()
    {
        const QString language = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_LANG");
        QTranslator translator;
        if (!language.isEmpty()) {
            QVERIFY(translator.load(QStringLiteral(":/i18n/console_%1.qm").arg(language)));
            QCoreApplication::installTranslator(&translator);
        }
        App app(loopbackIni());
        QVERIFY(Test::eventually([&] { return app.connected(); }));
        app.window->showPage(QStringLiteral("overview"));
        app.window->refreshAll();
        IntakeBox &intake = *app.overview().intake();
        QVERIFY(Test::eventually([&] { return intake.isVisible() && !intake.findChild<QLineEdit *>(QStringLiteral("eventSecret"))->text().isEmpty(); }));
        auto *live = app.window->findChild<QLabel *>(QStringLiteral("liveIndicator"));
        QVERIFY(Test::eventually([&] { return live->text().startsWith(QStringLiteral("●")); })); // statistics arrive
        const QString dir = qEnvironmentVariable("SWITCHYARD_SCREENSHOTS", QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("screenshots")));
        QVERIFY(QDir().mkpath(dir));
        const QString file = QDir(dir).filePath(QStringLiteral("overview-first-start") + (language.isEmpty() ? QString() : QLatin1Char('-') + language) + QStringLiteral(".png"));
        QVERIFY(app.window->grab().save(file));
        QVERIFY(QFileInfo(file).size() > 10000);
    }

    // A failed delivery reaches the desktop; more within the window come as one summary.
    void aFailedDeliveryIsToldOnTheDesktop()
    {
        Test::HttpReceiver receiver; // listens from construction
        receiver.respond(500, "down");
        App app(loopbackIni() + "[webhook]\nALLOWED_HOST_LIST = loopback\nDELIVER_TIMEOUT = 5\n");
        app.shell->alerts().setWindow(1h); // ended by flushNow() below: no race with a timer
        QVERIFY(Test::eventually([&] { return app.connected(); }));
        int failed = 0; // failures the stream announced (after the alerts heard them: connected later)
        Admin::HookCreateArgs create;
        create.scope = QStringLiteral("system");
        create.url = QStringLiteral("http://127.0.0.1:%1/hook").arg(receiver.port());
        create.events = QJsonObject{{QStringLiteral("send_everything"), true}};
        QObject::connect(&app.instance->backend(), &Admin::AdminBackend::event, &app.instance->backend(), [&failed](const Admin::AdminEvent &e) {
            failed += e.type == Admin::AdminEvent::Type::HookTask && e.hookTask.status == QLatin1String("failed");
        });
        const auto created = Test::await<Result<Admin::HookRow>>([&](QObject *context, auto reply) {
            app.instance->backend().call(Admin::Ops::hookCreate, create, context, reply);
        });
        QVERIFY2(created, qPrintable(created.status().message()));
        for (int i = 0; i < 3; ++i)
            app.overview().tryout()->sendSample(QStringLiteral("push"));
        QVERIFY(Test::eventually([&] { return !app.recorder.shown.empty(); }, 30s));
        const DesktopNotice first = app.recorder.shown.front();
        QCOMPARE(first.kind, AlertKind::DeliveryFailed);
        QCOMPARE(first.pageId, QStringLiteral("webhooks"));
        QCOMPARE(first.key, QVariant(created->id));
        // Clicking it opens the Webhooks page on that hook.
        app.window->openAt(first.instance, first.pageId, first.filter, first.key);
        QCOMPARE(app.window->currentPage()->id(), QStringLiteral("webhooks"));
        QVERIFY(Test::eventually([&] { return qobject_cast<TablePage *>(app.window->currentPage())->currentKey() == QVariant(created->id); }));
        QCOMPARE(first.count, 1);
        QCOMPARE(app.shell->alerts().status(), StatusColor::Error);
        // The other two failures: held back, then one summary when the window ends.
        QVERIFY(Test::eventually([&] { return failed >= 3; }, 30s));
        QCOMPARE(failed, 3);
        QCOMPARE(app.recorder.shown.size(), std::size_t(1));
        app.shell->alerts().flushNow();
        QCOMPARE(app.recorder.shown.size(), std::size_t(2));
        QCOMPARE(app.recorder.shown[1].count, 2);
        // Switched off in Preferences: no more.
        app.shell->alerts().setEnabled(AlertKind::DeliveryFailed, false);
        app.overview().tryout()->sendSample(QStringLiteral("push"));
        QVERIFY(Test::eventually([&] { return failed >= 4; }, 30s));
        app.shell->alerts().flushNow();
        QCOMPARE(app.recorder.shown.size(), std::size_t(2));
    }
};

QTEST_MAIN(TestDesktopApp)
#include "tst_desktopapp.moc"
