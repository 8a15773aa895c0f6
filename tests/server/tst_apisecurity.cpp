// The admin API's security rules, each against a daemon started for it: failed-authentication
// rate limiting, binding rules, TLS, configured and revoked tokens, QoS in front of the API.
#include "support/daemonprocess.h"
#include "support/testutil.h"

#include "admin/tokens.h"

#include <QFile>
#include <QJsonObject>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTcpSocket>

#include <set>
#include <sys/stat.h>

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
    const Ran ran = runProgram(kTestDaemon, {QStringLiteral("--data-dir"), dir, QStringLiteral("--port"), QStringLiteral("0"),
                                             QStringLiteral("--config"), writeFile(dir, QStringLiteral("app.ini"), config)});
    return {ran.exitCode, ran.output};
}

// One raw request from a chosen local source address; the answer until the server closes or 10 s pass.
QByteArray fromAddress(const QHostAddress &source, quint16 port, const QByteArray &request)
{
    QTcpSocket socket;
    if (!socket.bind(source))
        return "bind failed";
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(10000))
        return "connect failed";
    socket.write(request);
    QByteArray answer;
    while (!answer.contains("\r\n\r\n") && socket.waitForReadyRead(10000))
        answer += socket.readAll();
    return answer;
}

} // namespace

class TestApiSecurity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failedAuthenticationsAreLimitedPerNetworkNeverTheRightToken()
    {
        QTemporaryDir dir;
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(dir.path(), "[server]\nAUTH_FAILURE_LIMIT = 3\n")), daemon.output().constData());
        const QUrl instance = endpoint(daemon, QStringLiteral("/instance"));
        // Requests without a token guess nothing: any number of them, and the limiter does not count them.
        for (int i = 0; i < 10; ++i)
            QCOMPARE(http("GET", instance, QByteArray()).status, 401);
        QCOMPARE(http("GET", instance, daemon.adminToken()).status, 200);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(http("GET", instance, "wrong-" + QByteArray::number(i)).status, 401);
        const HttpResult limited = http("GET", instance, "wrong-again");
        QCOMPARE(limited.status, 429);
        QVERIFY(limited.headers.value("retry-after").toInt() >= 1);
        // Another loopback address is the same network: no fresh budget.
        const QByteArray other = fromAddress(QHostAddress(QStringLiteral("127.0.0.2")), daemon.port(),
                                             "GET /api/v1/instance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer guess\r\n\r\n");
        QVERIFY2(other.startsWith("HTTP/1.1 429"), other.constData());
        // The right token is never refused by the limiter: the operator is not locked out.
        QCOMPARE(http("GET", instance, daemon.adminToken()).status, 200);
        const QByteArray operatorElsewhere = fromAddress(QHostAddress(QStringLiteral("127.0.0.3")), daemon.port(),
                                                         "GET /api/v1/instance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                                                             + daemon.adminToken() + "\r\n\r\n");
        QVERIFY2(operatorElsewhere.startsWith("HTTP/1.1 200"), operatorElsewhere.constData());
        QCOMPARE(http("GET", endpoint(daemon, QStringLiteral("/health")), QByteArray()).status, 200);
        QCOMPARE(daemon.stop(), 0);
    }

    void adminTokenSettingIsValidated()
    {
        QTemporaryDir dir;
        const Exit tooShort = runToEnd(dir.path(), "[server]\nADMIN_TOKEN = x\n");
        QCOMPARE(tooShort.code, 2);
        QVERIFY2(tooShort.output.contains("app.ini:2") && tooShort.output.contains("ADMIN_TOKEN")
                     && tooShort.output.contains("32 characters"),
                 tooShort.output.constData());
        const Exit spaced = runToEnd(dir.path(), "[server]\nADMIN_TOKEN = abcdefghijklmnop qrstuvwxyz0123456789\n");
        QCOMPARE(spaced.code, 2);
        QVERIFY2(spaced.output.contains("without spaces"), spaced.output.constData());
    }

    void dataDirectoryAndFilesArePrivateWhateverTheUmask()
    {
        QTemporaryDir parent;
        const QString data = parent.filePath(QStringLiteral("new-data"));
        const mode_t previous = ::umask(0); // the daemon inherits it
        DaemonProcess daemon;
        const bool started = daemon.start(options(data, QByteArray()));
        ::umask(previous);
        QVERIFY2(started, daemon.output().constData());
        QCOMPARE(http("POST", endpoint(daemon, QStringLiteral("/cron/delete_old_system_notices/pause")), daemon.adminToken()).status, 200);
        struct stat info{};
        QCOMPARE(::stat(QFile::encodeName(data).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0700));
        for (const char *file : {"admin-token", "data/switchyard.db", "data/switchyard.db-wal"}) {
            QCOMPARE(::stat(QFile::encodeName(QDir(data).filePath(QLatin1String(file))).constData(), &info), 0);
            QVERIFY2((info.st_mode & 0777) == 0600, file);
        }
        // Nothing in it is for others: the store's folder, the queues, the locks (they used to
        // follow the umask: 0644 files, 0755 folders).
        const auto othersMayRead = [&] {
            QStringList open;
            QDirIterator it(data, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                if (::lstat(QFile::encodeName(path).constData(), &info) == 0 && !S_ISLNK(info.st_mode) && (info.st_mode & 077))
                    open << QStringLiteral("%1 %2").arg(info.st_mode & 0777, 0, 8).arg(path);
            }
            return open;
        };
        const QStringList open = othersMayRead();
        QVERIFY2(open.isEmpty(), qPrintable(open.join(u'\n')));
        QCOMPARE(daemon.stop(), 0);

        // A data directory from before, open to every user: closed at the next start (its group
        // bits stay, and so do the modes of the files in it).
        QVERIFY(::chmod(QFile::encodeName(data).constData(), 0755) == 0);
        DaemonProcess again;
        QVERIFY2(again.start(options(data, QByteArray())), again.output().constData());
        QCOMPARE(::stat(QFile::encodeName(data).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0750));
        QVERIFY2(again.output().contains("open to every user"), again.output().constData());
        QCOMPARE(again.stop(), 0);
    }

    void aKeyFileReadableByOthersIsRefused()
    {
        QTemporaryDir dir;
        const Ran openssl = runProgram(QStringLiteral("openssl"),
                                       {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                                        QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"),
                                        QStringLiteral("-keyout"), dir.filePath(QStringLiteral("key.pem")), QStringLiteral("-out"),
                                        dir.filePath(QStringLiteral("cert.pem")), QStringLiteral("-days"), QStringLiteral("1"),
                                        QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1")},
                                       {}, 60000);
        QVERIFY2(openssl.exitCode == 0, openssl.output.constData());
        QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("key.pem")),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        const Exit refused = runToEnd(dir.path(), "[server]\nCERT_FILE = cert.pem\nKEY_FILE = key.pem\n");
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.output.contains("KEY_FILE") && refused.output.contains("readable by every user"), refused.output.constData());
    }

    // A data directory of a version that kept the audit log in audit.jsonl (rotated to
    // audit.jsonl.N): imported into the database once, oldest first, finishing lines applied,
    // damaged lines skipped; the files renamed; the retired settings warned about.
    void theFormerAuditFilesAreImportedOnce()
    {
        QTemporaryDir dir;
        const auto write = [&](const char *name, const QByteArray &text) {
            QFile file(dir.filePath(QLatin1String(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(text);
        };
        write("audit.jsonl.1", R"({"id":1,"at":"2026-11-30T10:00:00.000Z","actor":"admin","remote_addr":"127.0.0.1","action":"queue.pause","target":"3","result":"started"}
{"id":1,"at":"2026-11-30T10:00:00.000Z","actor":"admin","remote_addr":"127.0.0.1","action":"queue.pause","target":"3","result":"ok"}
not json
)");
        write("audit.jsonl", R"({"id":2,"at":"2026-11-30T11:00:00.000Z","actor":"ops","remote_addr":"10.0.0.5","action":"cron.run","target":"cleanup","result":"409 already running"}
)");
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(dir.path(), "[server]\nAUDIT_KEEP = 2\n")), daemon.output().constData());
        QVERIFY2(daemon.output().contains("AUDIT_KEEP is no longer used"), daemon.output().constData());
        const QJsonArray listed = http("GET", endpoint(daemon, QStringLiteral("/audit")), daemon.adminToken()).json().array();
        QCOMPARE(listed.size(), 2);
        QCOMPARE(listed.at(0)[QStringLiteral("action")].toString(), QStringLiteral("cron.run")); // newest first
        QCOMPARE(listed.at(0)[QStringLiteral("result")].toString(), QStringLiteral("409 already running"));
        QCOMPARE(listed.at(1)[QStringLiteral("result")].toString(), QStringLiteral("ok")); // the finishing line won
        QCOMPARE(listed.at(1)[QStringLiteral("at")].toString(), QStringLiteral("2026-11-30T10:00:00.000Z"));
        for (const char *name : {"audit.jsonl", "audit.jsonl.1"}) {
            QVERIFY2(!QFile::exists(dir.filePath(QLatin1String(name))), name);
            QVERIFY2(QFile::exists(dir.filePath(QLatin1String(name) + QStringLiteral(".imported"))), name);
        }
        // New changes go to the table too, and a restart imports nothing twice.
        QCOMPARE(http("POST", endpoint(daemon, QStringLiteral("/cron/delete_old_system_notices/pause")), daemon.adminToken()).status, 200);
        QCOMPARE(daemon.stop(), 0);
        DaemonProcess again;
        QVERIFY2(again.start(options(dir.path(), QByteArray())), again.output().constData());
        const HttpResult after = http("GET", endpoint(again, QStringLiteral("/audit")), again.adminToken());
        QCOMPARE(after.headers.value("x-total-count").toLongLong(), 3);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("audit.jsonl"))));
        QCOMPARE(again.stop(), 0);
    }

    void aFullDiskRefusesChangesAndSaysSo()
    {
        // A real full file system: a small tmpfs (root only; CI runs as root).
        QTemporaryDir mountPoint;
        const Ran mount = runProgram(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                                               QStringLiteral("size=4m,mode=0700"), QStringLiteral("tmpfs"), mountPoint.path()});
        if (mount.exitCode != 0)
            QSKIP("mounting a small tmpfs needs root");
        const auto unmount = qScopeGuard([&] { runProgram(QStringLiteral("umount"), {QStringLiteral("-l"), mountPoint.path()}); });
        const QString data = mountPoint.filePath(QStringLiteral("data"));
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options(data, QByteArray())), daemon.output().constData());
        const QUrl pause = endpoint(daemon, QStringLiteral("/cron/delete_old_system_notices/pause"));
        const QUrl resume = endpoint(daemon, QStringLiteral("/cron/delete_old_system_notices/resume"));
        QCOMPARE(http("POST", pause, daemon.adminToken()).status, 200);

        // Fill the file system to the last byte.
        {
            QFile filler(mountPoint.filePath(QStringLiteral("filler")));
            QVERIFY(filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
            const QByteArray block(64 * 1024, 'f');
            while (filler.write(block) == block.size()) {
            }
            const QByteArray byte(1, 'f');
            while (filler.write(byte) == 1) {
            }
        }
        // The audit file's last block may still hold a few lines, the database's last page a few
        // rows: toggle until the audit log refuses. Whichever refuses first, the answer is 503
        // and says that nothing was changed.
        bool paused = true;
        HttpResult refused;
        for (int i = 0; i < 500; ++i) {
            refused = http("POST", paused ? resume : pause, daemon.adminToken());
            if (refused.status == 200) {
                paused = !paused;
                continue;
            }
            QVERIFY2(refused.status == 503, qPrintable(QStringLiteral("%1 %2").arg(refused.status).arg(QString::fromUtf8(refused.body))));
            QVERIFY2(refused.message().contains(QStringLiteral("nothing was changed")), qPrintable(refused.message()));
            if (refused.message().contains(QStringLiteral("audit log")))
                break;
        }
        QVERIFY2(refused.message().contains(QStringLiteral("audit log")) && refused.message().contains(QStringLiteral("nothing was changed")),
                 qPrintable(refused.message()));
        // Nothing changed: the task is as the last accepted call left it.
        bool isPaused = !paused;
        for (const QJsonValue &task : http("GET", endpoint(daemon, QStringLiteral("/cron")), daemon.adminToken()).json().array())
            if (task[QStringLiteral("name")].toString() == QLatin1String("delete_old_system_notices"))
                isPaused = task[QStringLiteral("paused")].toBool();
        QCOMPARE(isPaused, paused);
        // The self-check says why.
        bool reported = false;
        for (const QJsonValue &item : http("GET", endpoint(daemon, QStringLiteral("/self-check")), daemon.adminToken()).json().array())
            if (item[QStringLiteral("name")].toString() == QLatin1String("audit"))
                reported = !item[QStringLiteral("ok")].toBool() && item[QStringLiteral("message")].toString().contains(QStringLiteral("audit"));
        QVERIFY(reported);
        const qint64 rss = [&] {
            QFile status(QStringLiteral("/proc/%1/status").arg(daemon.pid()));
            status.open(QIODevice::ReadOnly);
            for (const QByteArray &line : status.readAll().split('\n'))
                if (line.startsWith("VmRSS:"))
                    return line.mid(6).trimmed().split(' ').first().toLongLong();
            return qint64(-1);
        }();
        for (int i = 0; i < 200; ++i)
            QCOMPARE(http("POST", paused ? resume : pause, daemon.adminToken()).status, 503);
        QFile status(QStringLiteral("/proc/%1/status").arg(daemon.pid()));
        QVERIFY(status.open(QIODevice::ReadOnly));
        qint64 after = -1;
        for (const QByteArray &line : status.readAll().split('\n'))
            if (line.startsWith("VmRSS:"))
                after = line.mid(6).trimmed().split(' ').first().toLongLong();
#ifndef SWITCHYARD_SANITIZED // a sanitizer's quarantine swamps the figure
        QVERIFY2(after - rss < 8 * 1024, qPrintable(QStringLiteral("RSS %1 → %2 kB").arg(rss).arg(after))); // refusals pile nothing up
#else
        Q_UNUSED(after)
        Q_UNUSED(rss)
#endif

        // Room again: changes go through and are audited.
        QVERIFY(QFile::remove(mountPoint.filePath(QStringLiteral("filler"))));
        QCOMPARE(http("POST", paused ? resume : pause, daemon.adminToken()).status, 200);
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
        const Ran openssl = runProgram(QStringLiteral("openssl"), {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                                                                  QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"), key,
                                                                  QStringLiteral("-out"), cert, QStringLiteral("-days"), QStringLiteral("1"),
                                                                  QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1")},
                                       {}, 60000);
        QVERIFY2(openssl.exitCode == 0, openssl.output.constData());

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
