// The senders on the wire: a private SMTP sink (tests/support/smtpsink.py, aiosmtpd) for every
// SMTP protocol, its failures (a refused recipient, a dropped connection, a server that hangs, a
// wrong password, a certificate not trusted), msmtp as sendmail and scripts that fail or hang;
// what arrives is decoded by Python's `email`, not by us. Then the test mail and one forge event
// through the engine to the sink; and forged addresses — from a forge's payload into the daemon,
// and from store rows older than the checks — that never reach the wire nor forge a log line.
#include "engine/engine.h"
#include "engine/forge/forgedata.h"
#include "engine/mail/mail.h"
#include "engine/settings/config.h"
#include "engine/store/store.h"

#include "support/daemonprocess.h"
#include "support/smtpserver.h"
#include "support/testutil.h"
#include "support/wait.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

using namespace Switchyard;
using namespace Switchyard::Mail;
using namespace std::chrono_literals;

namespace {

EngineConfig mailerConfig(const QTemporaryDir &dir, const QByteArray &mailer)
{
    return Test::configFrom("[mailer]\nENABLED = true\nFROM = Forge <forge@example.com>\n" + mailer, dir.path());
}

QByteArray smtpIni(const Test::SmtpServer &sink, const char *protocol)
{
    return "PROTOCOL = " + QByteArray(protocol) + "\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = " + QByteArray::number(sink.port()) + "\n";
}

Message message(const QString &to, const QString &subject = QStringLiteral("Grüße aus 北京 — a test"))
{
    Message m;
    m.info = QStringLiteral("test");
    m.fromName = QStringLiteral("Zoë \"the builder\"");
    m.fromAddress = QStringLiteral("forge@example.com");
    m.envelopeFrom = QStringLiteral("bounces@example.com");
    m.toAddress = to;
    m.subject = subject;
    m.text = QStringLiteral("Hello,\n.\nthe line above is a lone dot.\n");
    m.html = QStringLiteral("<p>Hello, <b>wörld</b></p>");
    m.headers = {{QStringLiteral("Message-ID"), QStringLiteral("<o/r/issues/1@example.com>")},
                 {QStringLiteral("X-Gitea-Sender"), QStringLiteral("zoë")},
                 {QStringLiteral("X-Injected"), QStringLiteral("one\r\nBcc: evil@example.com")}};
    m.date = QDateTime::currentDateTimeUtc();
    return m;
}

QString header(const QJsonObject &record, const QString &name)
{
    return record.value(QStringLiteral("headers")).toObject().value(name).toArray().at(0).toString();
}

SenderOptions quick()
{
    SenderOptions o;
    o.connectTimeout = 5s;
    o.stallTimeout = 1s;
    return o;
}

// An engine that mails forge events to `sink` (its Message-IDs end in git.example.com).
Result<std::unique_ptr<Engine>> mailingEngine(const Test::SmtpServer &sink, const QTemporaryDir &dir)
{
    const QByteArray ini = "[server]\nDOMAIN = git.example.com\n[service]\nENABLE_NOTIFY_MAIL = true\n"
                           "[mailer]\nENABLED = true\nFROM = forge@example.com\n" + smtpIni(sink, "smtp");
    return Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
}

// Issue #3 of alice/engine, owned and posted by `alice`; `assignees` replace the stored ones.
Result<ForgeIssue> seedIssue(SqlTransaction &tx, const ForgeUser &alice, const QString &title, const QString &content,
                             const std::vector<ForgeUser> &assignees)
{
    ForgeRepo r;
    r.owner = alice;
    r.name = QStringLiteral("engine");
    r.htmlUrl = QStringLiteral("https://git.example.com/alice/engine");
    Result<ForgeRepo> repo = ForgeDb::upsertRepo(tx, QStringLiteral("default"), 1, r);
    if (!repo)
        return repo.status();
    ForgeIssue i;
    i.repoId = repo->id;
    i.index = 3;
    i.title = title;
    i.content = content;
    i.poster = alice;
    i.htmlUrl = QStringLiteral("https://git.example.com/alice/engine/issues/3");
    return ForgeDb::upsertIssue(tx, 3, i, nullptr, &assignees);
}

// A forge user as payloads carry one.
QJsonObject forgeUser(qint64 id, const QString &login, const QString &email)
{
    return {{QStringLiteral("id"), id}, {QStringLiteral("login"), login}, {QStringLiteral("username"), login},
            {QStringLiteral("full_name"), login}, {QStringLiteral("email"), email}, {QStringLiteral("language"), QStringLiteral("en-US")}};
}

// The recipients of everything the sink took, one list.
QStringList recipientsOf(const QList<QJsonObject> &messages)
{
    QStringList all;
    for (const QJsonObject &m : messages)
        for (const QJsonValue &to : m.value(QStringLiteral("rcpt_tos")).toArray())
            all << to.toString();
    return all;
}

// The injection of the security review: an address that ends the RCPT command and starts another.
const QString kInjected = QStringLiteral("mallory@example.com>\r\nRCPT TO:<victim@evil.test>\r\nNOOP <x");

// The switchyard.mail log of this process while it lives: what the engine's mail code logs.
// Declared before the engine it listens to, so no worker logs after it is gone.
class MailLog
{
public:
    MailLog() { s_previous = qInstallMessageHandler(&MailLog::handle); }
    ~MailLog() { qInstallMessageHandler(s_previous); }
    QStringList lines() const
    {
        std::lock_guard lock(s_mutex);
        return s_lines;
    }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        if (context.category && QByteArray(context.category).startsWith("switchyard.mail")) {
            std::lock_guard lock(s_mutex);
            s_lines << message;
        }
        if (s_previous)
            s_previous(type, context, message);
    }
    static inline std::mutex s_mutex;
    static inline QStringList s_lines;               // guarded by s_mutex
    static inline QtMessageHandler s_previous = nullptr;
};

QString script(const QTemporaryDir &dir, const QString &name, const QByteArray &body)
{
    const QString path = Test::writeFile(dir.path(), name, "#!/bin/sh\n" + body);
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

} // namespace

// The sink's own error when it does not start (python3-aiosmtpd missing, a port taken …).
#define START_SINK(sink, ...)                                      \
    do {                                                           \
        const Status started_ = (sink).start(__VA_ARGS__);         \
        QVERIFY2(started_, qPrintable(started_.message()));        \
    } while (0)

class tst_MailSend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyProtocolDeliversOneMessagePerRecipient_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("unixSocket");
        QTest::addColumn<bool>("auth");
        QTest::addColumn<QByteArray>("protocol");
        QTest::newRow("smtp") << int(Test::SmtpServer::Mode::Plain) << false << false << QByteArray("smtp");
        QTest::newRow("smtp with AUTH on loopback") << int(Test::SmtpServer::Mode::Plain) << false << true << QByteArray("smtp");
        QTest::newRow("smtps with AUTH") << int(Test::SmtpServer::Mode::Smtps) << false << true << QByteArray("smtps");
        QTest::newRow("smtp+starttls with AUTH") << int(Test::SmtpServer::Mode::StartTls) << false << true << QByteArray("smtp+starttls");
        QTest::newRow("smtp+unix") << int(Test::SmtpServer::Mode::Plain) << true << false << QByteArray("smtp+unix");
    }
    void everyProtocolDeliversOneMessagePerRecipient()
    {
        QFETCH(int, mode);
        QFETCH(bool, unixSocket);
        QFETCH(bool, auth);
        QFETCH(QByteArray, protocol);
        Test::SmtpServer sink;
        Test::SmtpServer::Options options;
        options.mode = Test::SmtpServer::Mode(mode);
        options.unixSocket = unixSocket;
        if (auth) {
            options.user = QStringLiteral("mailer");
            options.password = QStringLiteral("s3cret pass");
        }
        START_SINK(sink, options);
        QByteArray ini = unixSocket ? "PROTOCOL = smtp+unix\nSMTP_ADDR = " + sink.socketPath().toUtf8() + "\n" : smtpIni(sink, protocol);
        if (auth)
            ini += "USER = mailer\nPASSWD = s3cret pass\n";
        if (mode != int(Test::SmtpServer::Mode::Plain))
            ini += "FORCE_TRUST_SERVER_CERT = true\n";
        QTemporaryDir dir;
        const EngineConfig config = mailerConfig(dir, ini);
        std::unique_ptr<Sender> sender = makeSender(config.mailer, quick());
        const std::vector<Message> batch{message(QStringLiteral("a@example.com")), message(QStringLiteral("b@example.com")),
                                         message(QStringLiteral("c@example.com"))};
        const std::vector<Status> results = sender->send(CancelToken(), batch);
        QCOMPARE(results.size(), batch.size());
        for (const Status &r : results)
            QVERIFY2(r, qPrintable(r.message()));
        QVERIFY(sink.waitForMessages(3));
        const QList<QJsonObject> got = sink.messages();
        QCOMPARE(got.size(), 3);
        QStringList peers;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject &m = got[i];
            QCOMPARE(m.value(QStringLiteral("rcpt_tos")).toArray(), (QJsonArray{batch[std::size_t(i)].toAddress}));
            QCOMPARE(m.value(QStringLiteral("mail_from")).toString(), QStringLiteral("bounces@example.com"));
            QCOMPARE(m.value(QStringLiteral("tls")).toBool(), mode != int(Test::SmtpServer::Mode::Plain));
            QCOMPARE(m.value(QStringLiteral("auth_user")).toString(), auth ? QStringLiteral("mailer") : QString());
            // Python's decoder reads what we encoded.
            QCOMPARE(m.value(QStringLiteral("subject")).toString(), QStringLiteral("Grüße aus 北京 — a test"));
            QCOMPARE(header(m, QStringLiteral("From")), QStringLiteral("\"Zoë \\\"the builder\\\"\" <forge@example.com>"));
            QCOMPARE(header(m, QStringLiteral("To")), batch[std::size_t(i)].toAddress);
            QCOMPARE(header(m, QStringLiteral("X-Gitea-Sender")), QStringLiteral("zoë"));
            QCOMPARE(header(m, QStringLiteral("X-Injected")), QStringLiteral("one  Bcc: evil@example.com")); // no second header
            QVERIFY(!m.value(QStringLiteral("headers")).toObject().contains(QStringLiteral("Bcc")));
            QCOMPARE(m.value(QStringLiteral("content_type")).toString(), QStringLiteral("multipart/alternative"));
            const QJsonObject parts = m.value(QStringLiteral("parts")).toObject();
            // Quoted-printable text comes back with MIME's canonical CRLF line ends.
            QCOMPARE(parts.value(QStringLiteral("text/plain")).toString().replace(QLatin1String("\r\n"), QLatin1String("\n")), batch[0].text);
            QCOMPARE(parts.value(QStringLiteral("text/html")).toString().replace(QLatin1String("\r\n"), QLatin1String("\n")), batch[0].html);
            QCOMPARE(m.value(QStringLiteral("defects")).toArray(), QJsonArray());
            peers << m.value(QStringLiteral("peer")).toString();
        }
        // One connection for the batch.
        QCOMPARE(peers.at(0), peers.at(1));
        QCOMPARE(peers.at(1), peers.at(2));
    }

    void anUntrustedCertificateIsRefused()
    {
        Test::SmtpServer sink;
        Test::SmtpServer::Options options;
        options.mode = Test::SmtpServer::Mode::Smtps;
        START_SINK(sink, options);
        QTemporaryDir dir;
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, smtpIni(sink, "smtps")).mailer, quick());
        const std::vector<Status> results = sender->send(CancelToken(), {message(QStringLiteral("a@example.com"))});
        QVERIFY(!results.front());
        QVERIFY2(results.front().message().contains(QLatin1String("certificate"), Qt::CaseInsensitive), qPrintable(results.front().message()));
        QVERIFY(sink.messages().isEmpty());
    }

    void aRefusedRecipientFailsItsMailAlone()
    {
        Test::SmtpServer sink;
        Test::SmtpServer::Options options;
        options.refuseRcpt = {QStringLiteral("nobody")};
        START_SINK(sink, options);
        QTemporaryDir dir;
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, smtpIni(sink, "smtp")).mailer, quick());
        const std::vector<Status> results = sender->send(
            CancelToken(), {message(QStringLiteral("a@example.com")), message(QStringLiteral("nobody@example.com")), message(QStringLiteral("c@example.com"))});
        QVERIFY(results[0]);
        QVERIFY(!results[1]);
        QVERIFY2(results[1].message().contains(QLatin1String("550 5.1.1")) && results[1].message().contains(QLatin1String("User unknown")),
                 qPrintable(results[1].message())); // the server's own words
        QVERIFY(results[2]);
        QVERIFY(sink.waitForMessages(2));
        QCOMPARE(sink.messages().size(), 2);
    }

    void aDroppedConnectionFailsOneMailAndTheNextReconnect()
    {
        Test::SmtpServer sink;
        Test::SmtpServer::Options options;
        options.dropAfter = 1;
        START_SINK(sink, options);
        QTemporaryDir dir;
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, smtpIni(sink, "smtp")).mailer, quick());
        const std::vector<Status> results = sender->send(
            CancelToken(), {message(QStringLiteral("a@example.com")), message(QStringLiteral("b@example.com")), message(QStringLiteral("c@example.com"))});
        QVERIFY(results[0]);
        QVERIFY(!results[1]);
        QVERIFY2(results[2], qPrintable(results[2].message()));
        QVERIFY(sink.waitForMessages(2));
        const QList<QJsonObject> got = sink.messages();
        QCOMPARE(got.size(), 2);
        QCOMPARE(got[1].value(QStringLiteral("rcpt_tos")).toArray().at(0).toString(), QStringLiteral("c@example.com"));
    }

    void aServerThatHangsFailsWithinTheStallTimeout()
    {
        Test::SmtpServer sink;
        START_SINK(sink);
        QTemporaryDir dir;
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, smtpIni(sink, "smtp")).mailer, quick());
        sink.pause();
        QElapsedTimer timer;
        timer.start();
        const std::vector<Status> hung = sender->send(CancelToken(), {message(QStringLiteral("a@example.com"))});
        QVERIFY(!hung.front());
        QVERIFY2(hung.front().code() == Status::Code::DeadlineExceeded, qPrintable(hung.front().message()));
        QVERIFY(timer.elapsed() < 30'000); // a bound against a sender that waits for ever, not a timing
        sink.resume();
        const std::vector<Status> again = sender->send(CancelToken(), {message(QStringLiteral("b@example.com"))});
        QVERIFY2(again.front(), qPrintable(again.front().message()));
    }

    void aCancelledBatchStopsAtOnce()
    {
        Test::SmtpServer sink;
        START_SINK(sink);
        QTemporaryDir dir;
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, smtpIni(sink, "smtp")).mailer, quick());
        CancelSource stop;
        stop.cancel(QStringLiteral("shutting down"));
        const std::vector<Status> results = sender->send(stop.token(), {message(QStringLiteral("a@example.com")), message(QStringLiteral("b@example.com"))});
        for (const Status &r : results)
            QCOMPARE(r.code(), Status::Code::Cancelled);
        QVERIFY(sink.messages().isEmpty());
    }

    void aWrongPasswordIsTheServersRefusal()
    {
        Test::SmtpServer sink;
        Test::SmtpServer::Options options;
        options.user = QStringLiteral("mailer");
        options.password = QStringLiteral("right");
        START_SINK(sink, options);
        QTemporaryDir dir;
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, smtpIni(sink, "smtp") + "USER = mailer\nPASSWD = wrong\n").mailer, quick());
        const std::vector<Status> results = sender->send(CancelToken(), {message(QStringLiteral("a@example.com"))});
        QVERIFY(!results.front());
        QVERIFY2(results.front().message().contains(QLatin1String("535")), qPrintable(results.front().message()));
    }

    void aPasswordNeverCrossesTheNetworkInTheClear()
    {
        QTemporaryDir dir;
        std::unique_ptr<Sender> sender =
            makeSender(mailerConfig(dir, "PROTOCOL = smtp\nSMTP_ADDR = mail.example.invalid\nUSER = u\nPASSWD = p\n").mailer, quick());
        const std::vector<Status> results = sender->send(CancelToken(), {message(QStringLiteral("a@example.com"))});
        QVERIFY(!results.front());
        QVERIFY2(results.front().message().contains(QLatin1String("unencrypted")), qPrintable(results.front().message()));
    }

    void sendmailThroughMsmtp()
    {
        Test::SmtpServer sink;
        START_SINK(sink);
        QTemporaryDir dir;
        const QByteArray ini = "PROTOCOL = sendmail\nSENDMAIL_PATH = /usr/bin/msmtp\nSENDMAIL_ARGS = --host=127.0.0.1 --port=" +
                               QByteArray::number(sink.port()) + " --auth=off --tls=off\n";
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, ini).mailer, quick());
        const std::vector<Status> results = sender->send(CancelToken(), {message(QStringLiteral("a@example.com")), message(QStringLiteral("b@example.com"))});
        for (const Status &r : results)
            QVERIFY2(r, qPrintable(r.message()));
        QVERIFY(sink.waitForMessages(2));
        const QList<QJsonObject> got = sink.messages();
        QCOMPARE(got[0].value(QStringLiteral("mail_from")).toString(), QStringLiteral("bounces@example.com")); // -f
        QCOMPARE(got[1].value(QStringLiteral("rcpt_tos")).toArray(), (QJsonArray{QStringLiteral("b@example.com")}));
        QCOMPARE(got[0].value(QStringLiteral("subject")).toString(), QStringLiteral("Grüße aus 北京 — a test"));
        QCOMPARE(got[0].value(QStringLiteral("parts")).toObject().value(QStringLiteral("text/plain")).toString(),
                 QStringLiteral("Hello,\r\n.\r\nthe line above is a lone dot.\r\n")); // -i: the lone dot is text (CRLF: MIME's)
    }

    void sendmailThatFailsOrHangs()
    {
        QTemporaryDir dir;
        const QString failing = script(dir, QStringLiteral("failing"), "cat >/dev/null\necho 'sendmail: no route to host' >&2\nexit 75\n");
        std::unique_ptr<Sender> sender = makeSender(mailerConfig(dir, "PROTOCOL = sendmail\nSENDMAIL_PATH = " + failing.toUtf8() + "\n").mailer);
        std::vector<Status> results = sender->send(CancelToken(), {message(QStringLiteral("a@example.com"))});
        QVERIFY(!results.front());
        QVERIFY2(results.front().message().contains(QLatin1String("exited with code 75: sendmail: no route to host")), qPrintable(results.front().message()));

        // The arguments as Gitea gives them.
        const QString recorder = script(dir, QStringLiteral("recorder"), "echo \"$@\" > \"$(dirname \"$0\")/args\"\ncat > \"$(dirname \"$0\")/stdin\"\n");
        sender = makeSender(mailerConfig(dir, "PROTOCOL = sendmail\nSENDMAIL_PATH = " + recorder.toUtf8() + "\nSENDMAIL_ARGS = --extra 'two words'\n").mailer);
        results = sender->send(CancelToken(), {message(QStringLiteral("a@example.com"))});
        QVERIFY2(results.front(), qPrintable(results.front().message()));
        QCOMPARE(Test::readFile(dir.filePath(QStringLiteral("args"))), QByteArray("-f bounces@example.com -i --extra two words -- a@example.com\n"));
        QVERIFY(!Test::readFile(dir.filePath(QStringLiteral("stdin"))).contains('\r')); // LF line ends for sendmail

        const QString hanging = script(dir, QStringLiteral("hanging"), "exec sleep 60\n");
        sender = makeSender(mailerConfig(dir, "PROTOCOL = sendmail\nSENDMAIL_TIMEOUT = 1s\nSENDMAIL_PATH = " + hanging.toUtf8() + "\n").mailer);
        QElapsedTimer timer;
        timer.start();
        results = sender->send(CancelToken(), {message(QStringLiteral("a@example.com")), message(QStringLiteral("b@example.com"))});
        for (const Status &r : results) {
            QCOMPARE(r.code(), Status::Code::DeadlineExceeded);
            QVERIFY(r.message().contains(QLatin1String("SENDMAIL_TIMEOUT")));
        }
        QVERIFY(timer.elapsed() < 30'000); // a bound, not a timing
    }

    void testMail()
    {
        Test::SmtpServer sink;
        Test::SmtpServer::Options options;
        options.refuseRcpt = {QStringLiteral("nobody")};
        START_SINK(sink, options);
        QTemporaryDir dir;
        const EngineConfig config = mailerConfig(dir, smtpIni(sink, "smtp") + "SUBJECT_PREFIX = [ops]\n");
        MailService service(config, {quick(), {}, {}});
        Result<TestMailResult> sent = service.sendTest(CancelToken(), QStringLiteral("Operator <ops@example.com>"), {});
        QVERIFY(sent);
        QVERIFY2(sent->ok, qPrintable(sent->error));
        QVERIFY(sink.waitForMessages(1));
        const QJsonObject got = sink.messages().front();
        QCOMPARE(got.value(QStringLiteral("subject")).toString(), QStringLiteral("[ops] Switchyard test mail"));
        QCOMPARE(header(got, QStringLiteral("To")), QStringLiteral("Operator <ops@example.com>"));
        QCOMPARE(header(got, QStringLiteral("From")), QStringLiteral("Forge <forge@example.com>"));
        QVERIFY(got.value(QStringLiteral("parts")).toObject().value(QStringLiteral("text/plain")).toString().contains(QLatin1String("the mailer works")));
        QVERIFY(!header(got, QStringLiteral("X-Switchyard-Trace")).isEmpty());

        Result<TestMailResult> refused = service.sendTest(CancelToken(), QStringLiteral("nobody@example.com"), {});
        QVERIFY(refused);
        QVERIFY(!refused->ok);
        QVERIFY2(refused->error.contains(QLatin1String("User unknown")), qPrintable(refused->error));
        const MailStats stats = service.stats();
        QCOMPARE(stats.sent, qint64(1));
        QCOMPARE(stats.failed, qint64(1));
        QCOMPARE(stats.lastError, refused->error);

        for (const QString &bad : {QStringLiteral("not an address"), QStringLiteral("a@b@c"), QStringLiteral("x@example.com\r\nBcc: y@example.com"), QString()}) {
            Result<TestMailResult> invalid = service.sendTest(CancelToken(), bad, {});
            QVERIFY(!invalid);
            QCOMPARE(invalid.status().code(), Status::Code::InvalidArgument);
            QCOMPARE(invalid.status().field(), QStringLiteral("to"));
        }
        QTemporaryDir offDir;
        const EngineConfig offConfig = Test::configFrom("[mailer]\nENABLED = false\n", offDir.path());
        MailService off(offConfig);
        Result<TestMailResult> notSent = off.sendTest(CancelToken(), QStringLiteral("ops@example.com"), {});
        QVERIFY(!notSent);
        QCOMPARE(notSent.status().code(), Status::Code::Conflict);
    }

    // A forge event through the engine's bus and the mail queue, onto the wire.
    void aForgeEventReachesTheSink()
    {
        Test::SmtpServer sink;
        START_SINK(sink);
        QTemporaryDir dir;
        Result<std::unique_ptr<Engine>> started = mailingEngine(sink, dir);
        QVERIFY2(started, qPrintable(started.status().message()));
        Engine &engine = **started;
        ForgeIssue issue;
        ForgeUser bob;
        QVERIFY(engine.store().write([&](SqlTransaction &tx) -> Status {
            ForgeUser a;
            a.login = QStringLiteral("alice");
            a.fullName = QStringLiteral("Alice Ł");
            a.email = QStringLiteral("alice@example.com");
            ForgeUser b;
            b.login = QStringLiteral("bob");
            b.email = QStringLiteral("bob@example.com");
            Result<ForgeUser> alice = ForgeDb::upsertUser(tx, QStringLiteral("default"), 1, a);
            Result<ForgeUser> savedBob = ForgeDb::upsertUser(tx, QStringLiteral("default"), 2, b);
            if (!alice || !savedBob)
                return Status::internal(QStringLiteral("users"));
            bob = *savedBob;
            Result<ForgeIssue> saved =
                seedIssue(tx, *alice, QStringLiteral("Überlauf in the queue"), QStringLiteral("**bold** and a [link](wiki/Home)"), {});
            if (saved)
                issue = *saved;
            return saved.status();
        }));
        ForgeComment comment;
        comment.externalId = 12; // the forge's id names the message
        comment.content = QStringLiteral("Confirmed on 1.2 ✓");
        engine.notifyBus().createIssueComment({bob, QStringLiteral("trace-9")}, {}, issue, comment, {});
        QVERIFY(sink.waitForMessages(1));
        const QJsonObject got = sink.messages().front();
        QCOMPARE(got.value(QStringLiteral("rcpt_tos")).toArray(), (QJsonArray{QStringLiteral("alice@example.com")}));
        QCOMPARE(got.value(QStringLiteral("subject")).toString(), QStringLiteral("Re: [alice/engine] Überlauf in the queue (#3)"));
        QCOMPARE(header(got, QStringLiteral("Message-ID")), QStringLiteral("<alice/engine/issues/3/comment/12@git.example.com>"));
        QCOMPARE(header(got, QStringLiteral("In-Reply-To")), QStringLiteral("<alice/engine/issues/3@git.example.com>"));
        QCOMPARE(header(got, QStringLiteral("X-Switchyard-Trace")), QStringLiteral("trace-9"));
        QCOMPARE(header(got, QStringLiteral("From")), QStringLiteral("bob <forge@example.com>"));
        QVERIFY(got.value(QStringLiteral("parts")).toObject().value(QStringLiteral("text/html")).toString().contains(QStringLiteral("Confirmed on 1.2 ✓")));
        QTRY_COMPARE(engine.mail().stats().sent, qint64(1));
        engine.shutdown();
    }

    // Defence in depth: store rows written before addresses were checked at ingestion. The bad
    // recipients are skipped right before the wire — one escaped log line each, counted — and
    // the others of the same batch are sent.
    void aStoredBadRecipientIsSkippedAndTheOthersAreSent()
    {
        Test::SmtpServer sink;
        START_SINK(sink);
        MailLog log;
        QTemporaryDir dir;
        Result<std::unique_ptr<Engine>> started = mailingEngine(sink, dir);
        QVERIFY2(started, qPrintable(started.status().message()));
        Engine &engine = **started;
        ForgeIssue issue;
        ForgeUser bob;
        QVERIFY(engine.store().write([&](SqlTransaction &tx) -> Status {
            std::vector<ForgeUser> users;
            const std::vector<std::pair<QString, QString>> people{
                {QStringLiteral("alice"), QStringLiteral("alice@example.com")}, {QStringLiteral("bob"), QStringLiteral("bob@example.com")},
                {QStringLiteral("carol"), QStringLiteral("carol@example.com")}, {QStringLiteral("mallory"), kInjected},
                {QStringLiteral("grace"), QStringLiteral("grace smith@example.com")}};
            for (const auto &[login, email] : people) {
                ForgeUser u;
                u.login = login;
                u.email = email; // as a version without the checks stored it
                Result<ForgeUser> saved = ForgeDb::upsertUser(tx, QStringLiteral("default"), qint64(users.size() + 1), u);
                if (!saved)
                    return saved.status();
                users.push_back(*saved);
            }
            bob = users[1];
            Result<ForgeIssue> saved = seedIssue(tx, users[0], QStringLiteral("Title with\r\nBcc: a line \x1b[31mbreak"), QString(),
                                                 {users[2], users[3], users[4]});
            if (saved)
                issue = *saved;
            return saved.status();
        }));
        ForgeComment comment;
        comment.id = 12;
        comment.content = QStringLiteral("Confirmed.");
        engine.notifyBus().createIssueComment({bob, QStringLiteral("trace-10")}, {}, issue, comment, {});
        QTRY_COMPARE(engine.mail().stats().sent + engine.mail().stats().failed, qint64(4));
        const MailStats stats = engine.mail().stats();
        QCOMPARE(stats.sent, qint64(2));
        QCOMPARE(stats.failed, qint64(2));
        QCOMPARE(stats.skipped, qint64(2)); // both failures were skips, not the server's refusals
        QVERIFY2(stats.lastError.contains(QLatin1String("not a mail address")), qPrintable(stats.lastError));
        QVERIFY(sink.waitForMessages(2));
        QStringList recipients = recipientsOf(sink.messages());
        recipients.sort();
        QVERIFY2(recipients == (QStringList{QStringLiteral("alice@example.com"), QStringLiteral("carol@example.com")}),
                 qPrintable(recipients.join(QStringLiteral(", "))));
        // The subject from the title: its line break and escape are spaces, no header of its own.
        for (const QJsonObject &m : sink.messages()) {
            QCOMPARE(m.value(QStringLiteral("subject")).toString(), QStringLiteral("Re: [alice/engine] Title with Bcc: a line  [31mbreak (#3)"));
            QVERIFY(!m.value(QStringLiteral("headers")).toObject().contains(QStringLiteral("Bcc")));
        }
        engine.shutdown();
        // One line per skip, the address escaped; no line of the log is the data's.
        const QStringList lines = log.lines();
        QCOMPARE(lines.filter(QStringLiteral("skipped:")).size(), 2);
        QCOMPARE(lines.filter(QStringLiteral("\"mallory@example.com>\\r\\nRCPT TO:<victim@evil.test>\\r\\nNOOP <x\" is not a mail address")).size(), 1);
        QCOMPARE(lines.filter(QStringLiteral("\"grace smith@example.com\" is not a mail address: white space before @")).size(), 1);
        for (const QString &line : lines)
            QVERIFY2(!line.contains(u'\r') && !line.contains(u'\n'), qPrintable(line));
    }

    // The security review's case, black box: a forge payload whose users' emails carry an SMTP
    // command and a space, beside valid ones, posted to the daemon. The valid recipients get
    // their mail, nothing goes to victim@evil.test, the event names what it dropped, and no
    // line of the daemon's log is made by the payload.
    void aForgedAddressFromAForgeNeverReachesTheWire()
    {
        Test::SmtpServer sink;
        START_SINK(sink);
        QTemporaryDir data;
        Test::DaemonProcess daemon;
        Test::DaemonProcess::Options o;
        o.program = QStringLiteral(SWITCHYARDD_PATH);
        o.dataDir = data.path();
        o.config = "[service]\nENABLE_NOTIFY_MAIL = true\n[mailer]\nENABLED = true\nFROM = Forge <forge@example.com>\n" + smtpIni(sink, "smtp");
        QVERIFY2(daemon.start(o), daemon.output().constData());
        const QJsonObject alice = forgeUser(1, QStringLiteral("alice"), QStringLiteral("alice@example.com"));
        const QJsonObject repo{{QStringLiteral("id"), 10}, {QStringLiteral("owner"), alice}, {QStringLiteral("name"), QStringLiteral("engine")},
                               {QStringLiteral("full_name"), QStringLiteral("alice/engine")},
                               {QStringLiteral("html_url"), QStringLiteral("https://git.example.com/alice/engine")}};
        // Alice opens it (the doer: no mail to her); the assignees are its recipients.
        const QJsonArray assignees{forgeUser(3, QStringLiteral("carol"), QStringLiteral("carol@example.com")),
                                   forgeUser(4, QStringLiteral("mallory"), kInjected),
                                   forgeUser(5, QStringLiteral("grace"), QStringLiteral("grace smith@example.com")),
                                   forgeUser(6, QStringLiteral("dave"), QStringLiteral("dave@example.com"))};
        const QJsonObject issue{{QStringLiteral("id"), 101}, {QStringLiteral("number"), 1}, {QStringLiteral("user"), alice},
                                {QStringLiteral("title"), QStringLiteral("Queue stalls")}, {QStringLiteral("body"), QStringLiteral("It stalls.")},
                                {QStringLiteral("state"), QStringLiteral("open")}, {QStringLiteral("assignees"), assignees},
                                {QStringLiteral("html_url"), QStringLiteral("https://git.example.com/alice/engine/issues/1")}};
        const QJsonObject payload{{QStringLiteral("action"), QStringLiteral("opened")}, {QStringLiteral("issue"), issue},
                                  {QStringLiteral("repository"), repo}, {QStringLiteral("sender"), alice}};
        const auto api = [&](const QString &path, const QString &query = {}) {
            QUrl url = daemon.baseUrl();
            url.setPath(url.path() + path);
            url.setQuery(query);
            return url;
        };
        const Test::HttpResult posted = Test::http("POST", api(QStringLiteral("/events"), QStringLiteral("event=issues")), daemon.adminToken(),
                                                   QJsonDocument(payload).toJson(), {{"X-Gitea-Delivery", "forged-1"}});
        QCOMPARE(posted.status, 202);
        const qint64 eventId = posted.json()[QStringLiteral("id")].toInteger();
        // The event done, then every mail it queued with its outcome.
        QJsonObject event;
        QVERIFY(Test::eventually([&] {
            event = Test::http("GET", api(QStringLiteral("/events/%1").arg(eventId)), daemon.adminToken()).json().object();
            return event.value(QStringLiteral("status")).toString() == QLatin1String("done");
        }));
        QJsonObject mail;
        QVERIFY(Test::eventually([&] {
            mail = Test::http("GET", api(QStringLiteral("/mail")), daemon.adminToken()).json().object();
            const qint64 queued = mail.value(QStringLiteral("queued_total")).toInteger();
            return queued > 0 && queued == mail.value(QStringLiteral("sent_total")).toInteger() +
                                               mail.value(QStringLiteral("failed_total")).toInteger();
        }));
        QVERIFY(sink.waitForMessages(int(mail.value(QStringLiteral("sent_total")).toInteger())));
        QStringList recipients = recipientsOf(sink.messages());
        recipients.sort();
        QVERIFY2(recipients == (QStringList{QStringLiteral("carol@example.com"), QStringLiteral("dave@example.com")}),
                 qPrintable(recipients.join(QStringLiteral(", "))));
        // What was dropped, escaped, on the event.
        const QString notes = event.value(QStringLiteral("error")).toString();
        QVERIFY2(notes.contains(QLatin1String("mallory")) && notes.contains(QLatin1String("grace")) &&
                     notes.contains(QLatin1String("\\r\\nRCPT TO:<victim@evil.test>")) && !notes.contains(u'\r'),
                 qPrintable(notes));
        // The daemon's log: the payload's text only ever escaped, on a line of the daemon's own.
        QVERIFY(daemon.stop() == 0);
        const QList<QByteArray> lines = daemon.output().split('\n');
        for (const QByteArray &line : lines) {
            QVERIFY2(!line.startsWith("RCPT") && !line.startsWith("NOOP"), line.constData());
            QVERIFY2(!line.contains("victim@evil.test") || line.contains("\\r\\nRCPT TO:<victim@evil.test>"), line.constData());
        }
    }
};

QTEST_GUILESS_MAIN(tst_MailSend)
#include "tst_mailsend.moc"
