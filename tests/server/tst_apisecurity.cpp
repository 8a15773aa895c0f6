// The admin API's security rules, each against a daemon started for it: failed-authentication
// rate limiting, binding rules, TLS, configured and revoked tokens, QoS in front of the API.
#include "support/daemonprocess.h"
#include "support/testutil.h"

#include "admin/tokens.h"

#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Test;

namespace {

const QString kTestDaemon = QStringLiteral(TEST_DAEMON_PATH);

DaemonProcess::Options options(const QString &dir, const QByteArray &config)
{
    DaemonProcess::Options o;
    o.program = kTestDaemon;
    o.dataDir = dir;
    o.config = config;
    return o;
}

QUrl endpoint(const DaemonProcess &daemon, const QString &path)
{
    QUrl url = daemon.baseUrl();
    url.setPath(url.path() + path);
    return url;
}

struct Exit
{
    int code = -1;
    QByteArray output;
};

// A daemon expected to refuse to start.
Exit runToEnd(const QString &dir, const QByteArray &config)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(kTestDaemon, {QStringLiteral("--data-dir"), dir, QStringLiteral("--port"), QStringLiteral("0"),
                                QStringLiteral("--config"), writeFile(dir, QStringLiteral("app.ini"), config)});
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAll()};
}

} // namespace

class TestApiSecurity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failedAuthenticationsAreRateLimitedPerAddress()
    {
        QTemporaryDir dir;
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(dir.path(), "[server]\nAUTH_FAILURE_LIMIT = 3\n")), daemon.output().constData());
        const QUrl instance = endpoint(daemon, QStringLiteral("/instance"));
        QCOMPARE(http("GET", instance, daemon.adminToken()).status, 200); // successes do not count
        for (int i = 0; i < 3; ++i)
            QCOMPARE(http("GET", instance, "wrong").status, 401);
        const HttpResult limited = http("GET", instance, "wrong");
        QCOMPARE(limited.status, 429);
        QVERIFY(limited.headers.value("retry-after").toInt() >= 1);
        // While limited, even the right token waits: guessing gains nothing.
        QCOMPARE(http("GET", instance, daemon.adminToken()).status, 429);
        QCOMPARE(http("GET", endpoint(daemon, QStringLiteral("/health")), QByteArray()).status, 200);
        QCOMPARE(daemon.stop(), 0);
    }

    void nonLoopbackWithoutTlsIsRefusedUnlessAllowed()
    {
        QTemporaryDir dir;
        const Exit refused = runToEnd(dir.path(), "[server]\nHTTP_ADDR = 0.0.0.0\n");
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.output.contains("ALLOW_INSECURE_REMOTE") && refused.output.contains("0.0.0.0"), refused.output.constData());

        QTemporaryDir allowedDir;
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(allowedDir.path(), "[server]\nHTTP_ADDR = 0.0.0.0\nALLOW_INSECURE_REMOTE = true\n")),
                 daemon.output().constData());
        QVERIFY2(daemon.output().contains("without TLS"), daemon.output().constData()); // warned at start
        QCOMPARE(daemon.stop(), 0);

        const Exit badAddress = runToEnd(dir.path(), "[server]\nHTTP_ADDR = my-laptop\n");
        QCOMPARE(badAddress.code, 2);
        QVERIFY2(badAddress.output.contains("HTTP_ADDR") && badAddress.output.contains("app.ini:2"), badAddress.output.constData());
    }

    void servesHttpsWithTheConfiguredCertificate()
    {
        QTemporaryDir dir;
        const QString cert = dir.filePath(QStringLiteral("cert.pem"));
        const QString key = dir.filePath(QStringLiteral("key.pem"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"), {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                                                  QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"), key,
                                                  QStringLiteral("-out"), cert, QStringLiteral("-days"), QStringLiteral("1"),
                                                  QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1")});
        QVERIFY(openssl.waitForFinished(60000));
        QCOMPARE(openssl.exitCode(), 0);

        // Relative paths resolve against the data directory; TLS makes a remote address acceptable.
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(dir.path(), "[server]\nHTTP_ADDR = 0.0.0.0\nCERT_FILE = cert.pem\nKEY_FILE = key.pem\n")),
                 daemon.output().constData());
        QCOMPARE(daemon.baseUrl().scheme(), QStringLiteral("https"));
        QUrl health = endpoint(daemon, QStringLiteral("/instance"));
        health.setHost(QStringLiteral("127.0.0.1"));
        const HttpResult r = http("GET", health, daemon.adminToken());
        QVERIFY2(r.status == 200, qPrintable(r.networkError));

        QSslSocket socket;
        socket.setPeerVerifyMode(QSslSocket::VerifyNone);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), daemon.port());
        QVERIFY(socket.waitForEncrypted(10000));
        QFile pem(cert);
        QVERIFY(pem.open(QIODevice::ReadOnly));
        QCOMPARE(socket.peerCertificate(), QSslCertificate(pem.readAll(), QSsl::Pem));
        socket.disconnectFromHost();
        QCOMPARE(daemon.stop(), 0);

        const Exit missing = runToEnd(dir.path(), "[server]\nCERT_FILE = nowhere.pem\nKEY_FILE = key.pem\n");
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.output.contains("CERT_FILE"), missing.output.constData());
        const Exit half = runToEnd(dir.path(), "[server]\nCERT_FILE = cert.pem\n");
        QCOMPARE(half.code, 2);
        QVERIFY2(half.output.contains("KEY_FILE"), half.output.constData());
    }

    void configuredAdminTokenAndRevokedNamedTokens()
    {
        QTemporaryDir dir;
        const QByteArray configured = "configured-token-0123456789-abcdefghijklmnop";
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(dir.path(), "[server]\nADMIN_TOKEN = " + configured + "\n")), daemon.output().constData());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("admin-token"))));
        QVERIFY(!daemon.output().contains(configured)); // never printed
        const QUrl instance = endpoint(daemon, QStringLiteral("/instance"));
        QCOMPARE(http("GET", instance, configured).status, 200);

        Admin::TokenStore store(dir.path());
        Result<QString> ci = store.create(QStringLiteral("ci"), Admin::Role::Admin);
        QVERIFY(ci.isOk());
        QCOMPARE(http("POST", endpoint(daemon, QStringLiteral("/cron/delete_old_system_notices/run")), ci->toLatin1()).status, 202);
        QVERIFY(store.revoke(QStringLiteral("ci")).isOk());
        QCOMPARE(http("GET", instance, ci->toLatin1()).status, 401);
        QCOMPARE(store.revoke(QStringLiteral("ci")).code(), Status::Code::NotFound);
        QCOMPARE(store.create(QStringLiteral("admin"), Admin::Role::Admin).status().code(), Status::Code::InvalidArgument);
        QCOMPARE(store.create(QStringLiteral("../x"), Admin::Role::Admin).status().code(), Status::Code::InvalidArgument);
        QCOMPARE(daemon.stop(), 0);
    }

    void qosAdmissionSitsInFrontWhenEnabled()
    {
        QTemporaryDir dir;
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(dir.path(), "[qos]\nENABLED = true\nMAX_INFLIGHT = 2\n")), daemon.output().constData());
        const QUrl qos = endpoint(daemon, QStringLiteral("/qos"));
        const QJsonObject before = http("GET", qos, daemon.adminToken()).json().object();
        QVERIFY(before[QStringLiteral("enabled")].toBool());
        QCOMPARE(before[QStringLiteral("max_inflight")].toInt(), 2);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(http("GET", endpoint(daemon, QStringLiteral("/queues")), daemon.adminToken()).status, 200);
        const QJsonObject after = http("GET", qos, daemon.adminToken()).json().object();
        QVERIFY(after[QStringLiteral("admitted_total")].toInteger() >= before[QStringLiteral("admitted_total")].toInteger() + 6);
        QCOMPARE(daemon.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestApiSecurity)
#include "tst_apisecurity.moc"
