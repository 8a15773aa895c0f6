// The daemon as an operator runs it: a real switchyardd process, real signals.
#include "support/daemonprocess.h"
#include "support/wait.h"
#include "support/redisserver.h"
#include "support/testutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Switchyard;
using Switchyard::ChildProcess;

namespace {

const QString kDaemon = QStringLiteral(SWITCHYARDD_PATH);


struct Run
{
    int exitCode = -1;
    QByteArray output;
};

Run runToEnd(const QStringList &args)
{
    const Test::Ran ran = Test::runProgram(kDaemon, args, {}, 20000);
    return Run{ran.exitCode, ran.output};
}

} // namespace

class TestDaemon : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void versionAndHelp()
    {
        const Run version = runToEnd({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY2(version.output.startsWith("switchyard 0."), version.output.constData());

        const Run help = runToEnd({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        for (const char *option : {"--config", "--data-dir", "--check-config", "--version"})
            QVERIFY2(help.output.contains(option), option);
    }

    void startsOnEmbeddedDefaultsAndStopsCleanlyOnSignal_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }

    void startsOnEmbeddedDefaultsAndStopsCleanlyOnSignal()
    {
        QFETCH(int, signalNumber);
        QTemporaryDir data;
        ChildProcess daemon;
        QVERIFY(daemon.start(kDaemon, {QStringLiteral("--data-dir"), data.path(), QStringLiteral("--port"), QStringLiteral("0")}));
        QByteArray output;
        QVERIFY2(Test::waitForOutput(daemon, output, "ready"), output.constData());
        QVERIFY(output.contains("config: embedded defaults"));
        QVERIFY(QFileInfo::exists(data.filePath(QStringLiteral("switchyard.lock"))));

        ::kill(daemon.pid(), signalNumber);
        QVERIFY2(Test::waitForOutput(daemon, output, "shutdown complete"), output.constData());
        QVERIFY(daemon.waitForFinished(20000, &output));
        QVERIFY(!daemon.crashed());
        QCOMPARE(daemon.exitCode(), 0);
        QVERIFY(output.contains("terminated cleanly"));
        QVERIFY(!QFileInfo::exists(data.filePath(QStringLiteral("switchyard.lock"))));
    }

    // An event answered 202 is stored before the answer: killed with SIGKILL before it was
    // processed (its queue paused), the daemon processes it after the restart.
    void anEventAcceptedBeforeAKillIsProcessedAfterTheRestart()
    {
        QTemporaryDir data;
        Test::DaemonProcess::Options options;
        options.program = kDaemon;
        options.dataDir = data.path();
        QByteArray eventId;
        {
            Test::DaemonProcess daemon;
            QVERIFY2(daemon.start(options), daemon.output().constData());
            const QByteArray token = daemon.adminToken();
            const auto url = [&](const QString &path, const QString &query = QString()) {
                QUrl u = daemon.baseUrl();
                u.setPath(u.path() + path);
                u.setQuery(query);
                return u;
            };
            qint64 ingest = 0;
            for (const QJsonValue &q : Test::http("GET", url(QStringLiteral("/queues")), token).json().array())
                if (q[QStringLiteral("name")].toString() == QLatin1String("event_ingest"))
                    ingest = q[QStringLiteral("qid")].toInteger();
            QVERIFY(ingest > 0);
            QCOMPARE(Test::http("POST", url(QStringLiteral("/queues/%1/pause").arg(ingest)), token).status, 200);
            QFile sample(QStringLiteral(SWITCHYARD_TEST_DATA "/events/gitea-push.json"));
            QVERIFY(sample.open(QIODevice::ReadOnly));
            const Test::HttpResult accepted =
                Test::http("POST", url(QStringLiteral("/events"), QStringLiteral("event=push")), token, sample.readAll());
            QCOMPARE(accepted.status, 202);
            eventId = QByteArray::number(accepted.json().object().value(QStringLiteral("id")).toInteger());
            const Test::HttpResult pending = Test::http("GET", url(QStringLiteral("/events/") + QString::fromLatin1(eventId)), token);
            QCOMPARE(pending.json().object().value(QStringLiteral("status")).toString(), QStringLiteral("pending"));
            ::kill(pid_t(daemon.pid()), SIGKILL);
            QCOMPARE(daemon.stop(), -1); // it crashed: no graceful shutdown ran
        }
        Test::DaemonProcess again;
        QVERIFY2(again.start(options), again.output().constData());
        QUrl event = again.baseUrl();
        event.setPath(event.path() + QStringLiteral("/events/") + QString::fromLatin1(eventId));
        QString status;
        QVERIFY2(Test::eventually([&] {
                     status = Test::http("GET", event, again.adminToken()).json().object().value(QStringLiteral("status")).toString();
                     return status == QLatin1String("done");
                 }),
                 qPrintable(status));
        QCOMPARE(again.stop(), 0);
    }

    // Our systemd unit sets NoNewPrivileges: a setuid/setgid sendmail cannot queue mail there, and
    // the daemon says so at start instead of failing every message later.
    void sendmailUnderNoNewPrivilegesIsWarnedAbout()
    {
        const QByteArray mailer = "[mailer]\nENABLED = true\nFROM = ops@example.com\nPROTOCOL = sendmail\nSENDMAIL_PATH = /usr/bin/msmtp\n";
        for (const bool sandboxed : {true, false}) {
            QTemporaryDir data;
            Test::DaemonProcess::Options options;
            options.program = kDaemon;
            options.dataDir = data.path();
            options.config = mailer;
            if (sandboxed)
                options.wrapper = {QStringLiteral("setpriv"), QStringLiteral("--no-new-privs"), QStringLiteral("--")};
            Test::DaemonProcess daemon;
            QVERIFY2(daemon.start(options), daemon.output().constData());
            QCOMPARE(daemon.output().contains("under no_new_privs"), sandboxed);
            QCOMPARE(daemon.stop(), 0);
        }
    }

    void secondSignalDuringShutdownStillExitsZero()
    {
        QTemporaryDir data;
        ChildProcess daemon;
        QVERIFY(daemon.start(kDaemon, {QStringLiteral("--data-dir"), data.path(), QStringLiteral("--port"), QStringLiteral("0")}));
        QByteArray output;
        QVERIFY2(Test::waitForOutput(daemon, output, "ready"), output.constData());
        ::kill(daemon.pid(), SIGTERM);
        ::kill(daemon.pid(), SIGTERM);
        const bool finished = daemon.waitForFinished(20000, &output);
        QVERIFY2(finished, output.constData());
        QVERIFY(!daemon.crashed());
        QCOMPARE(daemon.exitCode(), 0);
    }

    void secondInstanceOnTheSameDataDirectoryIsRefused()
    {
        QTemporaryDir data;
        ChildProcess first;
        QVERIFY(first.start(kDaemon, {QStringLiteral("--data-dir"), data.path(), QStringLiteral("--port"), QStringLiteral("0")}));
        QByteArray output;
        QVERIFY2(Test::waitForOutput(first, output, "ready"), output.constData());

        const Run second = runToEnd({QStringLiteral("--data-dir"), data.path()});
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.output.contains("is in use by another Switchyard process (pid "
                                        + QByteArray::number(first.pid())),
                 second.output.constData());

        first.signal(SIGTERM);
        QVERIFY(first.waitForFinished(20000));
        QCOMPARE(first.exitCode(), 0);
    }

    void readsTheConfigFile()
    {
        QTemporaryDir dir;
        const QString config = Test::writeFile(dir.path(), QStringLiteral("app.ini"),
                                               "[server]\nAPP_DATA_PATH = " + dir.filePath(QStringLiteral("data")).toUtf8()
                                                   + "\nGRACEFUL_HAMMER_TIME = 5s\n"
                                                     "[queue.mail]\nTYPE = channel\nBATCH_LENGTH = 3\n"
                                                     "[mailer]\nENABLED = true\nFROM = ops@example.com\nSMTP_ADDR = mail.example.com\n"
                                                     "USER = ops\nPASSWD = hunter2-secret\n");
        const Run check = runToEnd({QStringLiteral("--config"), config, QStringLiteral("--check-config")});
        QCOMPARE(check.exitCode, 0);
        QVERIFY(check.output.contains("config: " + config.toUtf8()));
        QVERIFY(check.output.contains("data: " + dir.filePath(QStringLiteral("data")).toUtf8()));
        QVERIFY(check.output.contains("graceful_hammer_time: 5s"));
        QVERIFY(check.output.contains("queue mail: channel, length 100000, batch 3"));
        QVERIFY2(check.output.contains("mail: smtp mail.example.com:25 from ops@example.com (with a login), test mail only"), check.output.constData());
        QVERIFY(!check.output.contains("hunter2"));
        QVERIFY(check.output.contains("settings ok"));
    }

    void startsWithRedisForCacheAndLocks()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        QTemporaryDir dir;
        const QString config = Test::writeFile(dir.path(), QStringLiteral("app.ini"),
                                               "[redis]\nCONN_STR = " + redis.url().toUtf8()
                                                   + "\n[cache]\nADAPTER = redis\n[global_lock]\nSERVICE_TYPE = redis\n");
        ChildProcess daemon;
        QVERIFY(daemon.start(kDaemon, {QStringLiteral("--config"), config, QStringLiteral("--data-dir"), dir.path(), QStringLiteral("--port"), QStringLiteral("0")}));
        QByteArray output;
        QVERIFY2(Test::waitForOutput(daemon, output, "ready"), output.constData());
        QVERIFY2(output.contains("cache redis , locks redis"), output.constData());
        daemon.signal(SIGTERM);
        QVERIFY(daemon.waitForFinished(20000));
        QCOMPARE(daemon.exitCode(), 0);
    }

    // A configured Redis that does not answer is PINGed 10 × 1 s; SIGTERM meanwhile stops the
    // daemon at once instead of after the attempts.
    void aSignalDuringStartUpStopsItAtOnce()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        const QString url = redis.url();
        redis.stop(); // nothing listens on its port now
        QTemporaryDir dir;
        const QString config = Test::writeFile(dir.path(), QStringLiteral("app.ini"),
                                               "[cache]\nADAPTER = redis\nHOST = " + url.toUtf8() + "\n");
        ChildProcess daemon;
        QVERIFY(daemon.start(kDaemon, {QStringLiteral("--config"), config, QStringLiteral("--data-dir"), dir.path(), QStringLiteral("--port"), QStringLiteral("0")}));
        QByteArray output;
        QVERIFY2(Test::waitForOutput(daemon, output, "retrying"), output.constData());
        QElapsedTimer stopping;
        stopping.start();
        ::kill(daemon.pid(), SIGTERM);
        QVERIFY(daemon.waitForFinished(20000, &output));
        QVERIFY2(stopping.elapsed() < 3000, qPrintable(QString::number(stopping.elapsed()))); // the attempts would take 9 s
        QVERIFY(!daemon.crashed());
        QCOMPARE(daemon.exitCode(), 0);
        QVERIFY2(output.contains("start-up stopped: received SIGTERM during start-up"), output.constData());
    }

    void checkConfigValidatesCronSections()
    {
        QTemporaryDir dir;
        const QString config = Test::writeFile(dir.path(), QStringLiteral("app.ini"),
                                               "[cron.cache_self_check]\nSCHEDULE = 61 0 * * *\n"
                                               "[cron.backup]\nCOMMAND = /bin/true\n");
        const Run run = runToEnd({QStringLiteral("--config"), config, QStringLiteral("--check-config")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.output.contains("app.ini:2: [cron.cache_self_check] SCHEDULE: invalid schedule \"61 0 * * *\": minute: 61 is out of range 0-59"),
                 run.output.constData());
        QVERIFY(run.output.contains("[cron.backup]: SCHEDULE is required"));
    }

    void badSettingsRefuseToStart_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("invalid enum") << QByteArray("[cache]\nADAPTER = foo\n")
                                      << QByteArray("app.ini:2: [cache] ADAPTER = \"foo\" is not valid; valid values: memory, redis, twoqueue");
        QTest::newRow("deprecated key") << QByteArray("[mailer]\nSEND_BUFFER_LEN = 10\n")
                                        << QByteArray("use [queue.mail] LENGTH instead");
        QTest::newRow("malformed line") << QByteArray("[queue]\nTYPE level\n")
                                        << QByteArray("app.ini:2: malformed line");
    }

    void badSettingsRefuseToStart()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, expected);
        QTemporaryDir dir;
        const QString config = Test::writeFile(dir.path(), QStringLiteral("app.ini"), text);
        const Run run = runToEnd({QStringLiteral("--config"), config, QStringLiteral("--data-dir"), dir.path()});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.output.contains(expected), run.output.constData());
        QVERIFY(!run.output.contains("ready"));
    }

    void missingConfigFileIsAnError()
    {
        const Run run = runToEnd({QStringLiteral("--config"), QStringLiteral("/nonexistent/app.ini")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.output.contains("config file /nonexistent/app.ini does not exist"));
    }

    void unexpectedArgumentsAreRejected()
    {
        const Run run = runToEnd({QStringLiteral("start")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.output.contains("unexpected argument \"start\""));
    }
};

QTEST_GUILESS_MAIN(TestDaemon)
#include "tst_daemon.moc"
