// switchyardctl as scripts call it: offline commands, token management, and every instance command
// against a test daemon over the admin API, with its exit codes.
#include "support/daemonprocess.h"
#include "support/smtpserver.h"
#include "support/httpreceiver.h"
#include "support/testutil.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run ctl(const QStringList &args, const QMap<QString, QString> &env = {})
{
    // stdout through the pipe, stderr into a file: the two are checked apart.
    QTemporaryDir dir;
    const QString errFile = dir.filePath(QStringLiteral("stderr"));
    QMap<QString, QString> environment{{QStringLiteral("SWITCHYARD_TOKEN"), QString()}, {QStringLiteral("SWITCHYARD_URL"), QString()}};
    for (auto it = env.begin(); it != env.end(); ++it)
        environment.insert(it.key(), it.value());
    Switchyard::ChildProcess process;
    Switchyard::ChildProcess::Options options;
    options.output = Switchyard::ChildProcess::Output::StdoutOnly;
    options.environment = environment;
    options.errorFile = errFile;
    Run run;
    if (!process.start(QStringLiteral(SWITCHYARDCTL_PATH), args, options))
        return run;
    if (!process.waitForFinished(20000, &run.out))
        process.kill();
    run.exitCode = process.crashed() ? -1 : process.exitCode();
    QFile err(errFile);
    if (err.open(QIODevice::ReadOnly))
        run.err = err.readAll();
    return run;
}

} // namespace

class TestCtl : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Switchyard::Test::SmtpServer m_sink; // the daemon's mailer sends here
    Switchyard::Test::DaemonProcess m_daemon;

    // An instance command with the daemon's URL and its data directory's admin token.
    Run api(QStringList args)
    {
        args << QStringLiteral("--url") << m_daemon.baseUrl().toString() << QStringLiteral("--data-dir") << m_dir.path();
        return ctl(args);
    }

private Q_SLOTS:
    void initTestCase()
    {
        Switchyard::Test::SmtpServer::Options sink;
        sink.refuseRcpt = {QStringLiteral("nobody")};
        const Switchyard::Status sinkStarted = m_sink.start(sink);
        QVERIFY2(sinkStarted, qPrintable(sinkStarted.message()));
        Switchyard::Test::DaemonProcess::Options options = Switchyard::Test::DaemonProcess::standardFixture(
            QStringLiteral(TEST_DAEMON_PATH), m_dir.path(),
            "[cron.slow_task]\nCOMMAND = sleep 30\nSCHEDULE = @every 1h\n[webhook]\nALLOWED_HOST_LIST = loopback\n"
            "[mailer]\nENABLED = true\nFROM = ops@example.com\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = " +
                QByteArray::number(m_sink.port()) + "\n");
        // Enough on "slow" that the first commands (slow under a sanitizer) cannot drain it before
        // the test pauses it; then its items stay for the peek and the timed-out flush.
        options.environment.insert(QStringLiteral("SY_TEST_PUSH"), QStringLiteral("slow:2000"));
        QVERIFY2(m_daemon.start(options), m_daemon.output().constData());
    }

    void cleanupTestCase()
    {
        QCOMPARE(m_daemon.stop(), 0);
    }

    void instanceCommandsPrintTablesOrJson()
    {
        // First: "slow" paused, so its items stay put for the peek and the timed-out flush below.
        const Run json = api({QStringLiteral("queues"), QStringLiteral("list"), QStringLiteral("--json")});
        const QJsonArray rows = QJsonDocument::fromJson(json.out).array();
        QCOMPARE(rows.size(), 6); // the engine's webhook_sender, mail, notification-service and event_ingest, the test's slow and fast
        QString slow, fast;
        for (const QJsonValue &row : rows) {
            const QString name = row[QStringLiteral("name")].toString();
            if (name == QLatin1String("slow") || name == QLatin1String("fast"))
                (name == QLatin1String("slow") ? slow : fast) = QString::number(row[QStringLiteral("qid")].toInteger());
        }
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("pause"), slow}).exitCode, 0);

        const Run instance = api({QStringLiteral("instance")});
        QCOMPARE(instance.exitCode, 0);
        QVERIFY2(instance.out.contains("instance_id:") && instance.out.contains("lock_service:"), instance.out.constData());
        const Run health = api({QStringLiteral("health"), QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(health.out).object().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));

        const Run queues = api({QStringLiteral("queues")});
        QCOMPARE(queues.exitCode, 0);
        QVERIFY2(queues.out.startsWith("QID") && queues.out.contains("slow") && queues.out.contains("fast"), queues.out.constData());

        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("set-workers"), fast, QStringLiteral("4")}).exitCode, 0);
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("pause"), fast}).exitCode, 0);
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("resume"), fast}).exitCode, 0);
        const Run timedOut = api({QStringLiteral("queues"), QStringLiteral("flush"), slow, QStringLiteral("--timeout"), QStringLiteral("20")});
        QCOMPARE(timedOut.exitCode, 1);
        QVERIFY2(timedOut.err.contains("408"), timedOut.err.constData());
        const Run items = api({QStringLiteral("queues"), QStringLiteral("items"), slow, QStringLiteral("--limit"), QStringLiteral("3")});
        QCOMPARE(items.exitCode, 0);
        QVERIFY2(items.out.startsWith("POS") && items.out.count('\n') == 4, items.out.constData()); // header + 3 items
        const Run itemsJson = api({QStringLiteral("queues"), QStringLiteral("items"), slow, QStringLiteral("--offset"), QStringLiteral("1"),
                                   QStringLiteral("--limit"), QStringLiteral("2"), QStringLiteral("--json")});
        QCOMPARE(itemsJson.exitCode, 0);
        const QJsonArray peeked = QJsonDocument::fromJson(itemsJson.out).array();
        QCOMPARE(peeked.size(), 2);
        QCOMPARE(peeked.at(0)[QStringLiteral("position")].toInt(), 1);
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("in-flight"), slow}).exitCode, 0);
        const Run dryRun = api({QStringLiteral("queues"), QStringLiteral("remove-all"), slow, QStringLiteral("--dry-run")});
        QCOMPARE(dryRun.exitCode, 0);
        QVERIFY2(dryRun.out.startsWith("would remove "), dryRun.out.constData());
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("remove-all"), slow}).exitCode, 0);
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("flush-all"), QStringLiteral("--timeout"), QStringLiteral("30000")}).exitCode, 0);
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("pause"), QStringLiteral("999")}).exitCode, 1);
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("pause")}).exitCode, 2);
    }

    // A successful command says nothing on stderr (QCommandLineParser once warned there about an
    // option added twice, on every run, --help included).
    void successSaysNothingOnStderr()
    {
        const QList<QStringList> local{{QStringLiteral("--help")}, {QStringLiteral("--version")}};
        for (const QStringList &args : local) {
            const Run run = ctl(args);
            QCOMPARE(run.exitCode, 0);
            QVERIFY2(run.err.isEmpty(), qPrintable(args.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(run.err)));
        }
        const QList<QStringList> remote{{QStringLiteral("health")},
                                        {QStringLiteral("queues")},
                                        {QStringLiteral("cron")},
                                        {QStringLiteral("hooks"), QStringLiteral("list"), QStringLiteral("--json")},
                                        {QStringLiteral("events"), QStringLiteral("list"), QStringLiteral("--type"), QStringLiteral("push")}};
        for (const QStringList &args : remote) {
            const Run run = api(args);
            QVERIFY2(run.exitCode == 0, qPrintable(args.join(u' ') + QStringLiteral(": exit %1: ").arg(run.exitCode) + QString::fromUtf8(run.err)));
            QVERIFY2(run.err.isEmpty(), qPrintable(args.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(run.err)));
        }
    }

    void cronLocksAndTheRest()
    {
        QCOMPARE(api({QStringLiteral("cron"), QStringLiteral("run"), QStringLiteral("slow_task")}).exitCode, 0);
        const Run again = api({QStringLiteral("cron"), QStringLiteral("run"), QStringLiteral("slow_task")});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains("409"), again.err.constData());
        const Run list = api({QStringLiteral("cron")});
        QVERIFY2(list.out.contains("slow_task") && list.out.startsWith("NAME"), list.out.constData());
        QCOMPARE(api({QStringLiteral("cron"), QStringLiteral("pause"), QStringLiteral("slow_task")}).exitCode, 0);
        QCOMPARE(api({QStringLiteral("cron"), QStringLiteral("resume"), QStringLiteral("slow_task")}).exitCode, 0);
        // The run in progress is recorded when it ends.
        QCOMPARE(api({QStringLiteral("cron"), QStringLiteral("runs"), QStringLiteral("slow_task")}).out, QByteArray("(none)\n"));

        const Run locks = api({QStringLiteral("locks")});
        QVERIFY2(locks.out.contains("demo-lock"), locks.out.constData());
        QCOMPARE(api({QStringLiteral("locks"), QStringLiteral("force-release"), QStringLiteral("demo-lock")}).exitCode, 0);
        QCOMPARE(api({QStringLiteral("locks"), QStringLiteral("force-release"), QStringLiteral("demo-lock")}).exitCode, 1);
        QVERIFY(api({QStringLiteral("notices")}).out.contains("demo-lock"));

        QCOMPARE(api({QStringLiteral("cache"), QStringLiteral("test")}).exitCode, 0);
        QVERIFY(api({QStringLiteral("cache"), QStringLiteral("stats")}).out.contains("latency_ms"));
        QVERIFY(api({QStringLiteral("qos")}).out.contains("admitted_total"));
        QVERIFY(api({QStringLiteral("processes")}).out.startsWith("PID"));
        QVERIFY(api({QStringLiteral("self-check")}).out.startsWith("CHECK"));
        QVERIFY(api({QStringLiteral("metrics")}).out.contains("# TYPE switchyard_queue_length gauge"));
        const Run audit = api({QStringLiteral("audit"), QStringLiteral("--action"), QStringLiteral("cron.run"), QStringLiteral("--json")});
        const QJsonArray entries = QJsonDocument::fromJson(audit.out).array();
        QCOMPARE(entries.size(), 2); // the run and the refused second run
        QCOMPARE(entries.at(0)[QStringLiteral("actor")].toString(), QStringLiteral("admin"));

        const Run tail = api({QStringLiteral("stream"), QStringLiteral("tail"), QStringLiteral("--type"), QStringLiteral("queue-stats"),
                              QStringLiteral("--count"), QStringLiteral("1"), QStringLiteral("--json")});
        QCOMPARE(tail.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(tail.out).array().size(), 6);
    }

    // mail [info] and mail test ADDRESS: a real SMTP sink; a refusal exits 1 with the server's words.
    void mailInfoAndTestMail()
    {
        const Run info = api({QStringLiteral("mail")});
        QCOMPARE(info.exitCode, 0);
        QVERIFY2(info.out.contains("protocol") && info.out.contains("smtp") && info.out.contains("sent_total"), info.out.constData());
        QVERIFY(!info.out.contains("passw"));
        const Run sent = api({QStringLiteral("mail"), QStringLiteral("test"), QStringLiteral("ops@example.com")});
        QVERIFY2(sent.exitCode == 0, sent.out.constData());
        QCOMPARE(sent.out, QByteArray("test mail sent to ops@example.com\n"));
        QVERIFY(m_sink.waitForMessages(1));
        QCOMPARE(m_sink.messages().front()[QStringLiteral("rcpt_tos")].toArray().at(0).toString(), QStringLiteral("ops@example.com"));
        const Run refused = api({QStringLiteral("mail"), QStringLiteral("test"), QStringLiteral("nobody@example.com")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.out.contains("User unknown") && !refused.out.contains("sent to"), refused.out.constData());
        const Run bad = api({QStringLiteral("mail"), QStringLiteral("test"), QStringLiteral("not-an-address")});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("to:"), bad.err.constData());
        QCOMPARE(api({QStringLiteral("mail"), QStringLiteral("test")}).exitCode, 2); // usage: the address is required
    }

    // A saved payload posted by hand, as the Overview's empty state suggests; then listed.
    void eventsSendAndList()
    {
        QTemporaryDir dir;
        const QString file = Switchyard::Test::writeFile(dir.path(), QStringLiteral("push.json"),
                                             "{\"ref\":\"refs/heads/main\",\"after\":\"2\",\"commits\":[],\"repository\":{\"id\":10,"
                                             "\"name\":\"engine\",\"full_name\":\"alice/engine\",\"owner\":{\"id\":1,\"login\":\"alice\"}},"
                                             "\"sender\":{\"id\":2,\"login\":\"bob\"}}");
        const Run sent = api({QStringLiteral("events"), QStringLiteral("send"), file, QStringLiteral("--event"), QStringLiteral("push")});
        QCOMPARE(sent.exitCode, 0);
        QVERIFY2(sent.out.startsWith("accepted as event "), sent.out.constData());
        const Run missing = api({QStringLiteral("events"), QStringLiteral("send"), dir.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("cannot read"), missing.err.constData());
        const Run noType = api({QStringLiteral("events"), QStringLiteral("send"), file});
        QVERIFY(noType.exitCode != 0);
        QVERIFY2(noType.err.contains("event"), noType.err.constData());
        // Processed before its user is listed: flush the ingestion queue, as an operator would.
        QString ingest;
        for (const QJsonValue &row : QJsonDocument::fromJson(api({QStringLiteral("queues"), QStringLiteral("--json")}).out).array())
            if (row[QStringLiteral("name")].toString() == QLatin1String("event_ingest"))
                ingest = QString::number(row[QStringLiteral("qid")].toInteger());
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("flush"), ingest}).exitCode, 0);
        const Run list = api({QStringLiteral("events"), QStringLiteral("--json")});
        QCOMPARE(list.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(list.out).array();
        QVERIFY(!rows.isEmpty());
        QCOMPARE(rows.at(0)[QStringLiteral("repo")].toString(), QStringLiteral("alice/engine"));
        const Run table = api({QStringLiteral("users")});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("bob"), table.out.constData());
    }

    // deliveries: test pushes that failed, found by search, exported as CSV on stdout, counted by
    // a dry run; a bad format is a usage error naming it.
    void deliveriesSearchExportAndCount()
    {
        Switchyard::Test::HttpReceiver receiver;
        receiver.respond(503, "busy");
        const Run created = api({QStringLiteral("hooks"), QStringLiteral("create"), QStringLiteral("--target-url"),
                                 QString::fromLatin1(receiver.url("/x")), QStringLiteral("--scope"), QStringLiteral("system"),
                                 QStringLiteral("--json")});
        QCOMPARE(created.exitCode, 0);
        const QString hook = QString::number(QJsonDocument::fromJson(created.out)[QStringLiteral("id")].toInteger());
        QVERIFY2(hook != QLatin1String("0"), created.out.constData());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(api({QStringLiteral("hooks"), QStringLiteral("test"), hook}).exitCode, 0);
        QString sender;
        for (const QJsonValue &row : QJsonDocument::fromJson(api({QStringLiteral("queues"), QStringLiteral("--json")}).out).array())
            if (row[QStringLiteral("name")].toString() == QLatin1String("webhook_sender"))
                sender = QString::number(row[QStringLiteral("qid")].toInteger());
        QCOMPARE(api({QStringLiteral("queues"), QStringLiteral("flush"), sender}).exitCode, 0);

        const Run csv = api({QStringLiteral("deliveries"), QStringLiteral("search"), QStringLiteral("--hook"), hook,
                             QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.split('\n');
        QCOMPARE(lines.size(), 5); // the header, three rows, and the empty rest after the last CRLF
        QVERIFY2(lines.at(0).startsWith("id,hook_id,uuid,event_type,event,status,"), lines.at(0).constData());
        for (int i = 1; i <= 3; ++i) {
            QVERIFY2(lines.at(i).contains(",push,push,failed,"), lines.at(i).constData());
            QVERIFY2(lines.at(i).contains(",POST," + receiver.url("/x") + ",503,"), lines.at(i).constData());
        }
        const Run table = api({QStringLiteral("deliveries"), QStringLiteral("search"), QStringLiteral("--status"), QStringLiteral("failed"),
                               QStringLiteral("--text"), QStringLiteral("busy")});
        QCOMPARE(table.exitCode, 0);
        QCOMPARE(table.out.count("failed"), 3);
        const Run dry = api({QStringLiteral("deliveries"), QStringLiteral("redeliver"), QStringLiteral("--status"), QStringLiteral("failed"),
                             QStringLiteral("--hook"), hook, QStringLiteral("--dry-run")});
        QCOMPARE(dry.exitCode, 0);
        QCOMPARE(dry.out.trimmed(), QByteArray("would redeliver 3 deliveries"));
        const Run bad = api({QStringLiteral("deliveries"), QStringLiteral("search"), QStringLiteral("--format"), QStringLiteral("xml")});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("not csv or json"), bad.err.constData());
    }

    // hooks create/list --scope default: Gitea's default hooks (copied into new repositories).
    void defaultHooksByScope()
    {
        const Run created = api({QStringLiteral("hooks"), QStringLiteral("create"), QStringLiteral("--target-url"),
                                 QStringLiteral("http://127.0.0.1:9/default"), QStringLiteral("--scope"), QStringLiteral("default"),
                                 QStringLiteral("--json")});
        QCOMPARE(created.exitCode, 0);
        const QJsonObject hook = QJsonDocument::fromJson(created.out).object();
        QCOMPARE(hook.value(QStringLiteral("scope")).toString(), QStringLiteral("default"));
        const Run listed = api({QStringLiteral("hooks"), QStringLiteral("list"), QStringLiteral("--scope"), QStringLiteral("default"),
                                QStringLiteral("--json")});
        QCOMPARE(listed.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(listed.out).array();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.at(0)[QStringLiteral("id")].toInteger(), hook.value(QStringLiteral("id")).toInteger());
        const Run table = api({QStringLiteral("hooks"), QStringLiteral("list"), QStringLiteral("--scope"), QStringLiteral("default")});
        QVERIFY2(table.exitCode == 0 && table.out.contains("default"), table.out.constData());
        const Run bad = api({QStringLiteral("hooks"), QStringLiteral("list"), QStringLiteral("--scope"), QStringLiteral("nowhere")});
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("scope") && bad.err.contains("nowhere"), bad.err.constData());
        QCOMPARE(api({QStringLiteral("hooks"), QStringLiteral("delete"), QString::number(hook.value(QStringLiteral("id")).toInteger())})
                     .exitCode,
                 0);
    }

    void exitCodesTellFailuresApart()
    {
        // Unreachable: 3.
        const Run unreachable = ctl({QStringLiteral("queues"), QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:1/api/v1")},
                                    {{QStringLiteral("SWITCHYARD_TOKEN"), QStringLiteral("x")}});
        QCOMPARE(unreachable.exitCode, 3);
        QVERIFY2(unreachable.err.contains("cannot reach"), unreachable.err.constData());
        // A wrong token from the environment: 4.
        const Run wrong = ctl({QStringLiteral("queues"), QStringLiteral("--url"), m_daemon.baseUrl().toString()},
                              {{QStringLiteral("SWITCHYARD_TOKEN"), QStringLiteral("sy_wrong")}});
        QCOMPARE(wrong.exitCode, 4);
        // A read-only token from a file: reading works, changing is forbidden (4).
        const Run created = ctl({QStringLiteral("token"), QStringLiteral("create"), QStringLiteral("viewer"), QStringLiteral("--data-dir"),
                                 m_dir.path(), QStringLiteral("--json")});
        QCOMPARE(created.exitCode, 0);
        const QByteArray token = QJsonDocument::fromJson(created.out).object().value(QStringLiteral("token")).toString().toLatin1();
        QVERIFY(token.startsWith("sy_"));
        QTemporaryDir other;
        QFile file(other.filePath(QStringLiteral("token")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(token + '\n');
        file.close();
        const QStringList viewer{QStringLiteral("--url"), m_daemon.baseUrl().toString(), QStringLiteral("--token-file"), file.fileName()};
        QCOMPARE(ctl(QStringList{QStringLiteral("queues")} + viewer).exitCode, 0);
        const Run forbidden = ctl(QStringList{QStringLiteral("cron"), QStringLiteral("run"), QStringLiteral("slow_task")} + viewer);
        QCOMPARE(forbidden.exitCode, 4);
        QVERIFY2(forbidden.err.contains("403"), forbidden.err.constData());

        const Run tokens = ctl({QStringLiteral("token"), QStringLiteral("list"), QStringLiteral("--data-dir"), m_dir.path()});
        QVERIFY2(tokens.out.contains("viewer") && tokens.out.contains("read-only") && !tokens.out.contains(token), tokens.out.constData());
        QCOMPARE(ctl({QStringLiteral("token"), QStringLiteral("revoke"), QStringLiteral("viewer"), QStringLiteral("--data-dir"), m_dir.path()}).exitCode, 0);
        QCOMPARE(ctl(QStringList{QStringLiteral("queues")} + viewer).exitCode, 4);
        QCOMPARE(ctl({QStringLiteral("token"), QStringLiteral("create"), QStringLiteral("x"), QStringLiteral("--role"), QStringLiteral("root"),
                      QStringLiteral("--data-dir"), m_dir.path()}).exitCode, 2);

        // Usage: 2 — and there is no way to put a token on the command line.
        QCOMPARE(ctl({QStringLiteral("queues"), QStringLiteral("--token"), QStringLiteral("x")}).exitCode, 2);
        QCOMPARE(ctl({QStringLiteral("queues"), QStringLiteral("--url"), QStringLiteral("ftp://x")}).exitCode, 2);
    }

    void redirectsAreNotFollowedWithTheToken()
    {
        // 127.0.0.1 redirects to another host name (localhost, a listening receiver): the token must not go there.
        Switchyard::Test::HttpReceiver elsewhere;
        Switchyard::Test::HttpReceiver redirecting;
        const QByteArray target = "http://localhost:" + QByteArray::number(elsewhere.port()) + "/api/v1/queues";
        redirecting.respond(307, {}, "Location: " + target + "\r\n");
        const QString tokenFile = Switchyard::Test::writeFile(m_dir.path(), QStringLiteral("token-redirect"), "sy_secret_token");
        const Run run = ctl({QStringLiteral("queues"), QStringLiteral("--url"), QString::fromLatin1(redirecting.url("/api/v1")),
                             QStringLiteral("--token-file"), tokenFile});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("redirect") && run.err.contains("not followed"), run.err.constData());
        QCOMPARE(redirecting.requests().size(), 1);
        QVERIFY(elsewhere.requests().isEmpty());
    }

    void tokensDoNotCrossPlainHttpToOtherHosts()
    {
        const QString tokenFile = Switchyard::Test::writeFile(m_dir.path(), QStringLiteral("token-remote"), "sy_secret_token");
        // Refused before any connection is made (192.0.2.0/24 is a documentation network).
        const Run refused = ctl({QStringLiteral("queues"), QStringLiteral("--url"), QStringLiteral("http://192.0.2.7:3300/api/v1"),
                                 QStringLiteral("--token-file"), tokenFile});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("plain http") && refused.err.contains("--insecure"), refused.err.constData());

        // The data directory's admin token is the local daemon's: never sent to another host. The
        // default data directory holds one here; "localhost." is a name, not a loopback address, to
        // the rule (and should the rule break, the request still stays on this machine).
        QDir().mkpath(m_dir.filePath(QStringLiteral("xdg/switchyard")));
        Switchyard::Test::writeFile(m_dir.filePath(QStringLiteral("xdg/switchyard")), QStringLiteral("admin-token"), "sy_local_token");
        const Run noToken = ctl({QStringLiteral("queues"), QStringLiteral("--url"), QStringLiteral("https://localhost.:1/api/v1")},
                                {{QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("xdg"))}});
        QCOMPARE(noToken.exitCode, 2);
        QVERIFY2(noToken.err.contains("no token for localhost.") && noToken.err.contains("loopback"), noToken.err.constData());
    }

    void serverTextNeverReachesTheTerminalRaw()
    {
        // A server (or a name someone chose) with escape sequences and a bell in its strings.
        Switchyard::Test::HttpReceiver hostile;
        hostile.respond(200, "[{\"qid\":1,\"name\":\"\\u001b[2J\\u001b[31mred\\u0007\",\"type\":\"channel\"}]");
        const QString tokenFile = Switchyard::Test::writeFile(m_dir.path(), QStringLiteral("token-hostile"), "sy_secret_token");
        for (const QStringList &extra : {QStringList{}, QStringList{QStringLiteral("--json")}}) {
            const Run run = ctl(QStringList{QStringLiteral("queues"), QStringLiteral("--url"), QString::fromLatin1(hostile.url("/api/v1")),
                                            QStringLiteral("--token-file"), tokenFile}
                                + extra);
            QCOMPARE(run.exitCode, 0);
            QVERIFY2(!run.out.contains('\x1b') && !run.out.contains('\x07'), run.out.constData());
            QVERIFY2(run.out.contains("red"), run.out.constData());
        }
        hostile.respond(400, "{\"message\":\"bad \\u001b]0;title\\u0007\"}");
        const Run failed = ctl({QStringLiteral("queues"), QStringLiteral("--url"), QString::fromLatin1(hostile.url("/api/v1")),
                                QStringLiteral("--token-file"), tokenFile});
        QVERIFY2(!failed.err.contains('\x1b') && !failed.err.contains('\x07'), failed.err.constData());
    }

    void cronNextTakesFromAndJson()
    {
        const Run run = ctl({QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("@daily"), QStringLiteral("--tz"), QStringLiteral("UTC"),
                             QStringLiteral("--from"), QStringLiteral("2026-12-01T10:00:00Z"), QStringLiteral("--count"), QStringLiteral("2"),
                             QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray firings = QJsonDocument::fromJson(run.out).array();
        QCOMPARE(firings.size(), 2);
        QCOMPARE(QDateTime::fromString(firings.at(0).toString(), Qt::ISODate), QDateTime(QDate(2026, 12, 2), QTime(0, 0), Qt::UTC));
        QCOMPARE(ctl({QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("@daily"), QStringLiteral("--from"), QStringLiteral("soon")}).exitCode, 2);
    }

    void nextPrintsFiringTimes()
    {
        const Run run = ctl({QStringLiteral("next"), QStringLiteral("0 12 * * MON"), QStringLiteral("--count"), QStringLiteral("3"),
                             QStringLiteral("--tz"), QStringLiteral("UTC")});
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QDateTime previous;
        for (const QByteArray &line : lines) {
            const QDateTime t = QDateTime::fromString(QString::fromLatin1(line), Qt::ISODate);
            QVERIFY(t.isValid());
            QCOMPARE(t.date().dayOfWeek(), 1);
            QCOMPARE(t.toUTC().time().hour(), 12);
            QVERIFY(!previous.isValid() || previous.daysTo(t) == 7);
            previous = t;
        }
    }

    void errorsNameTheProblem()
    {
        const Run invalid = ctl({QStringLiteral("next"), QStringLiteral("0 25 * * *")});
        QCOMPARE(invalid.exitCode, 2);
        QVERIFY(invalid.err.contains("hour: 25 is out of range 0-23"));
        const Run never = ctl({QStringLiteral("next"), QStringLiteral("0 0 30 2 *")});
        QCOMPARE(never.exitCode, 1);
        QVERIFY(never.err.contains("never fires"));
        const Run zone = ctl({QStringLiteral("next"), QStringLiteral("@daily"), QStringLiteral("--tz"), QStringLiteral("Mars/Olympus")});
        QCOMPARE(zone.exitCode, 2);
        QVERIFY(zone.err.contains("unknown time zone"));
        QCOMPARE(ctl({QStringLiteral("frobnicate")}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCtl)
#include "tst_ctl.moc"
