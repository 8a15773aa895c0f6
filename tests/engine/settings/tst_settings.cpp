#include "engine/settings/config.h"
#include "engine/settings/keys.h"

#include "support/testutil.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

Settings settingsFrom(const QByteArray &text)
{
    Result<IniFile> ini = IniFile::parse(QStringLiteral("app.ini"), text);
    if (!ini)
        qFatal("unexpected parse error: %s", qPrintable(ini.status().message()));
    return Settings(std::move(ini).value());
}

Result<EngineConfig> configFrom(const QByteArray &text, const QString &dataOverride = QStringLiteral("/srv/sy"))
{
    return EngineConfig::load(settingsFrom(text), dataOverride, QStringLiteral("/home/op/.local/share/switchyard"));
}

} // namespace

class TestSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void booleans_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("expected");
        for (const char *t : {"true", "TRUE", "True", "1", "t", "yes", "Y", "on"})
            QTest::newRow(t) << QString::fromLatin1(t) << true;
        for (const char *f : {"false", "FALSE", "0", "f", "no", "N", "off"})
            QTest::newRow(f) << QString::fromLatin1(f) << false;
    }

    void booleans()
    {
        QFETCH(QString, text);
        QFETCH(bool, expected);
        const Settings s = settingsFrom("[qos]\nENABLED = " + text.toUtf8() + "\n");
        QCOMPARE(*s.boolean({QStringLiteral("qos")}, QStringLiteral("ENABLED"), !expected), expected);
    }

    void invalidTypedValuesNameFileLineKeyAndWhatIsValid()
    {
        const Settings s = settingsFrom("[qos]\nENABLED = maybe\nMAX_WAITING = lots\nTARGET_WAIT_TIME = 250\n");
        const QStringList qos{QStringLiteral("qos")};
        QCOMPARE(s.boolean(qos, QStringLiteral("ENABLED"), false).status().message(),
                 QStringLiteral("app.ini:2: [qos] ENABLED = \"maybe\" is not valid; expected a boolean: true or false "
                                "(also 1/0, yes/no, on/off)"));
        QCOMPARE(s.integer(qos, QStringLiteral("MAX_WAITING"), 1).status().message(),
                 QStringLiteral("app.ini:3: [qos] MAX_WAITING = \"lots\" is not valid; expected a whole number"));
        const QString duration = s.duration(qos, QStringLiteral("TARGET_WAIT_TIME"), 1s).status().message();
        QVERIFY2(duration.startsWith(QLatin1String("app.ini:4: [qos] TARGET_WAIT_TIME = \"250\" is not valid; ")), qPrintable(duration));
        QVERIFY(duration.contains(QLatin1String("missing unit")));
    }

    void missingKeysGiveTheDefault()
    {
        const Settings s; // embedded defaults
        const QStringList any{QStringLiteral("anything")};
        QVERIFY(!s.fromFile());
        QCOMPARE(*s.string(any, QStringLiteral("K"), QStringLiteral("d")), QStringLiteral("d"));
        QCOMPARE(*s.integer(any, QStringLiteral("K"), 7), qint64(7));
        QCOMPARE(s.duration(any, QStringLiteral("K"), 16h)->count(), std::chrono::nanoseconds(16h).count());
        QCOMPARE(*s.list(any, QStringLiteral("K"), {QStringLiteral("external")}), QStringList{QStringLiteral("external")});
    }

    void listsAreTrimmed()
    {
        const Settings s = settingsFrom("[webhook]\nALLOWED_HOST_LIST = loopback, *.example.com ,, 10.0.0.0/8\n");
        QCOMPARE(*s.list({QStringLiteral("webhook")}, QStringLiteral("ALLOWED_HOST_LIST"), {}),
                 (QStringList{QStringLiteral("loopback"), QStringLiteral("*.example.com"), QStringLiteral("10.0.0.0/8")}));
    }

    void embeddedDefaultsMatchTheReferenceTable()
    {
        const Result<EngineConfig> config = EngineConfig::load(Settings(), QString(), QStringLiteral("/home/op/.local/share/switchyard"));
        QVERIFY2(config, qPrintable(config.status().message()));
        QCOMPARE(config->dataPath(), QStringLiteral("/home/op/.local/share/switchyard"));
        QVERIFY(config->configPath().isEmpty());
        QCOMPARE(config->cache.adapter, QStringLiteral("memory"));
        QCOMPARE(config->cache.intervalSeconds, 60);
        QCOMPARE(config->cache.itemTtl.count(), std::chrono::nanoseconds(16h).count());
        QCOMPARE(config->globalLock.serviceType, QStringLiteral("memory"));
        QCOMPARE(config->webhook.deliverTimeoutSeconds, 5);
        QCOMPARE(config->webhook.allowedHostList, QStringList{QStringLiteral("external")});
        QCOMPARE(config->webhook.skipTlsVerify, false);
        QCOMPARE(config->webhook.pagingNum, 10);
        QCOMPARE(config->qos.enabled, false);
        QCOMPARE(config->qos.maxInflight, 4 * std::max(1, QThread::idealThreadCount()));
        QCOMPARE(config->qos.maxWaiting, 100);
        QCOMPARE(config->qos.targetWaitTime.count(), std::chrono::nanoseconds(250ms).count());
        QCOMPARE(config->websocket.pubsubType, QStringLiteral("memory"));
        QCOMPARE(config->database.type, QStringLiteral("sqlite3"));
        QCOMPARE(config->database.path, QStringLiteral("/home/op/.local/share/switchyard/data/switchyard.db"));
        QCOMPARE(config->server.httpAddr, QStringLiteral("127.0.0.1"));
        QCOMPARE(config->server.httpPort, 3300);
        QCOMPARE(config->server.gracefulHammerTime.count(), std::chrono::nanoseconds(60s).count());

        const QueueSettings q = *config->queueSettings(QStringLiteral("webhook_sender"));
        QCOMPARE(q.type, QStringLiteral("level"));
        QCOMPARE(q.dataDir, QStringLiteral("/home/op/.local/share/switchyard/queues/common"));
        QCOMPARE(q.length, 100000);
        QCOMPARE(q.batchLength, 20);
        QCOMPARE(q.maxWorkers, std::clamp(QThread::idealThreadCount() / 2, 1, 10));
        QCOMPARE(q.queueFullName(), QStringLiteral("webhook_sender_queue"));
        QCOMPARE(q.setFullName(), QStringLiteral("webhook_sender_queue_unique"));
        QVERIFY(q.connStr.isEmpty()); // not a redis queue
    }

    void namedQueueSectionOverridesTheCommonOne()
    {
        const Result<EngineConfig> config = configFrom("[queue]\n"
                                                       "TYPE = channel\n"
                                                       "LENGTH = 500\n"
                                                       "BATCH_LENGTH = 7\n"
                                                       "[queue.mail]\n"
                                                       "TYPE = redis\n"
                                                       "CONN_STR = redis://10.1.1.1:6379/2\n"
                                                       "BATCH_LENGTH = 1\n");
        QVERIFY2(config, qPrintable(config.status().message()));
        const QueueSettings mail = *config->queueSettings(QStringLiteral("mail"));
        QCOMPARE(mail.type, QStringLiteral("redis"));
        QCOMPARE(mail.connStr, QStringLiteral("redis://10.1.1.1:6379/2"));
        QCOMPARE(mail.batchLength, 1);
        QCOMPARE(mail.length, 500); // from [queue]
        const QueueSettings other = *config->queueSettings(QStringLiteral("task"));
        QCOMPARE(other.type, QStringLiteral("channel"));
        QCOMPARE(other.batchLength, 7);
        QCOMPARE(config->configuredQueueNames(), QStringList{QStringLiteral("mail")});
    }

    void queueTypeAliasesNormaliseToLevel_data()
    {
        QTest::addColumn<QString>("type");
        for (const char *t : {"level", "leveldb", "levelqueue", "persistable-channel", "LevelDB"})
            QTest::newRow(t) << QString::fromLatin1(t);
    }

    void queueTypeAliasesNormaliseToLevel()
    {
        QFETCH(QString, type);
        const Result<EngineConfig> config = configFrom("[queue]\nTYPE = " + type.toUtf8() + "\n");
        QVERIFY2(config, qPrintable(config.status().message()));
        QCOMPARE(config->queueSettings(QStringLiteral("x"))->type, QStringLiteral("level"));
    }

    void redisConnectionFallsBackToTheSharedOneThenLocalhost()
    {
        const Result<EngineConfig> shared = configFrom("[redis]\nCONN_STR = redis://shared:6379/1\n"
                                                       "[queue]\nTYPE = redis\n"
                                                       "[global_lock]\nSERVICE_TYPE = redis\n"
                                                       "[cache]\nADAPTER = redis\n");
        QVERIFY2(shared, qPrintable(shared.status().message()));
        QCOMPARE(shared->queueSettings(QStringLiteral("q"))->connStr, QStringLiteral("redis://shared:6379/1"));
        QCOMPARE(shared->globalLock.serviceConnStr, QStringLiteral("redis://shared:6379/1"));
        QCOMPARE(shared->cache.host, QStringLiteral("redis://shared:6379/1"));

        const Result<EngineConfig> builtIn = configFrom("[queue]\nTYPE = redis\n");
        QCOMPARE(builtIn->queueSettings(QStringLiteral("q"))->connStr, QStringLiteral("redis://127.0.0.1:6379/0"));
    }

    void emptySetNameCannotCollideWithTheQueueKey()
    {
        const Result<EngineConfig> config = configFrom("[queue]\nSET_NAME =\n");
        const QueueSettings q = *config->queueSettings(QStringLiteral("webhook_sender"));
        QCOMPARE(q.queueFullName(), QStringLiteral("webhook_sender_queue"));
        QCOMPARE(q.setFullName(), QStringLiteral("webhook_sender_queue_unique"));
    }

    void nonPositiveQueueNumbersFallBackToDefaults()
    {
        const Result<EngineConfig> config = configFrom("[queue]\nLENGTH = 0\nBATCH_LENGTH = -3\nMAX_WORKERS = 0\n");
        QVERIFY2(config, qPrintable(config.status().message()));
        const QueueSettings q = *config->queueSettings(QStringLiteral("x"));
        QCOMPARE(q.length, 100000);
        QCOMPARE(q.batchLength, 20);
        QCOMPARE(q.maxWorkers, EngineConfig::defaultMaxWorkers());
        const QString warnings = config->warnings().join(QLatin1Char('\n'));
        QVERIFY(warnings.contains(QLatin1String("app.ini:4: [queue] MAX_WORKERS = 0 falls back to the default")));
        QVERIFY2(warnings.contains(QLatin1String("app.ini:2: [queue] LENGTH = 0 falls back to the default 100000")), qPrintable(warnings));
        QVERIFY(warnings.contains(QLatin1String("app.ini:3: [queue] BATCH_LENGTH = -3 falls back to the default 20")));
        QCOMPARE(config->warnings().count(QStringLiteral("app.ini:3: [queue] BATCH_LENGTH = -3 falls back to the default 20")), 1);
    }

    void queueNumbersBeyondRangeAreRefused()
    {
        const Result<EngineConfig> config = configFrom("[queue.mail]\nBATCH_LENGTH = 99999999999\nLENGTH = 3000000000\n");
        QVERIFY(!config);
        const QString message = config.status().message();
        QVERIFY2(message.contains(QLatin1String("app.ini:2: [queue.mail] BATCH_LENGTH = 99999999999 is not valid; expected a number from 1 to 2147483647")),
                 qPrintable(message));
        QVERIFY(message.contains(QLatin1String("LENGTH = 3000000000 is not valid")));
    }

    void connectionStringsAreCheckedAtLoad()
    {
        const Result<EngineConfig> config = configFrom("[redis]\nCONN_STR = http://x\n"
                                                       "[cache]\nADAPTER = redis\nHOST = redis://h:notaport/0\n"
                                                       "[global_lock]\nSERVICE_TYPE = redis\nSERVICE_CONN_STR = redis://a:6379/0, ftp://b\n"
                                                       "[queue.mail]\nTYPE = redis\nCONN_STR = redis://q:6379/x\n");
        QVERIFY(!config);
        const QStringList lines = config.status().message().split(QLatin1Char('\n'));
        auto has = [&](const QString &start) {
            return std::any_of(lines.begin(), lines.end(), [&](const QString &line) { return line.startsWith(start); });
        };
        QVERIFY2(has(QStringLiteral("app.ini:2: [redis] CONN_STR = \"http://x\" is not valid: unsupported Redis scheme \"http\"")),
                 qPrintable(config.status().message()));
        QVERIFY(has(QStringLiteral("app.ini:5: [cache] HOST = \"redis://h:notaport/0\" is not valid")));
        QVERIFY(has(QStringLiteral("app.ini:8: [global_lock] SERVICE_CONN_STR = \"ftp://b\" is not valid")));
        QVERIFY(has(QStringLiteral("app.ini:11: [queue.mail] CONN_STR = \"redis://q:6379/x\" is not valid")));
        QVERIFY(config.status().message().contains(QLatin1String("expected redis://[[user]:password@]host[:port][/db]")));
        // Unused connection strings are not judged (the cache is in memory here).
        QVERIFY(configFrom("[cache]\nADAPTER = memory\nHOST = whatever://x\n"));
    }

    void invalidEnumValuesListTheValidOnes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("queue type") << QByteArray("[queue]\nTYPE = fifo\n")
                                    << QStringLiteral("app.ini:2: [queue] TYPE = \"fifo\" is not valid; valid values: dummy, "
                                                      "immediate, channel, level, redis (also accepted: leveldb, levelqueue, "
                                                      "persistable-channel)");
        QTest::newRow("named queue type") << QByteArray("[queue.mail]\n\nTYPE = kafka\n")
                                          << QStringLiteral("app.ini:3: [queue.mail] TYPE = \"kafka\" is not valid; valid values: dummy, "
                                                            "immediate, channel, level, redis (also accepted: leveldb, levelqueue, "
                                                            "persistable-channel)");
        QTest::newRow("cache adapter") << QByteArray("[cache]\nADAPTER = foo\n")
                                       << QStringLiteral("app.ini:2: [cache] ADAPTER = \"foo\" is not valid; valid values: memory, redis, twoqueue");
        QTest::newRow("lock service") << QByteArray("[global_lock]\nSERVICE_TYPE = etcd\n")
                                      << QStringLiteral("app.ini:2: [global_lock] SERVICE_TYPE = \"etcd\" is not valid; valid values: memory, redis");
        QTest::newRow("pubsub") << QByteArray("[websocket]\nPUBSUB_TYPE = nats\n")
                                << QStringLiteral("app.ini:2: [websocket] PUBSUB_TYPE = \"nats\" is not valid; valid values: memory, redis");
        QTest::newRow("database") << QByteArray("[database]\nDB_TYPE = mysql\n")
                                  << QStringLiteral("app.ini:2: [database] DB_TYPE = \"mysql\" is not valid; valid values: sqlite3, postgres "
                                                    "(also accepted: postgresql, sqlite)");
        QTest::newRow("port") << QByteArray("[server]\nHTTP_PORT = 70000\n")
                              << QStringLiteral("app.ini:2: [server] HTTP_PORT = 70000 is not valid; expected a port from 1 to 65535");
        QTest::newRow("postgres without a secret key")
            << QByteArray("[database]\nDB_TYPE = postgres\n")
            << QStringLiteral("app.ini:2: [database] DB_TYPE = postgres needs [security] SECRET_KEY: every instance sharing the "
                              "database must open the secrets it seals (a webhook's Authorization header); set the same long random value on each");
        QTest::newRow("deliver timeout") << QByteArray("[webhook]\nDELIVER_TIMEOUT = 0\n")
                                         << QStringLiteral("app.ini:2: [webhook] DELIVER_TIMEOUT = 0 is not valid; expected a positive number of seconds");
        QTest::newRow("retry schedule") << QByteArray("[webhook]\nRETRY_SCHEDULE = 10s, soon\n")
                                        << QStringLiteral("app.ini:2: [webhook] RETRY_SCHEDULE = 10s,soon is not valid: \"soon\" is not a delay from "
                                                          "1s to 168h; expected delays in Go syntax separated by commas (10s,1m,10m), at most 10, "
                                                          "or nothing (no retry)");
        QTest::newRow("mail protocol") << QByteArray("[mailer]\nPROTOCOL = pigeon\n")
                                       << QStringLiteral("app.ini:2: [mailer] PROTOCOL = \"pigeon\" is not valid; valid values: smtp, smtps, "
                                                         "smtp+starttls, smtp+unix, sendmail, dummy");
        QTest::newRow("mail port") << QByteArray("[mailer]\nSMTP_PORT = 0\n")
                                   << QStringLiteral("app.ini:2: [mailer] SMTP_PORT = 0 is not valid; expected a port from 1 to 65535");
        QTest::newRow("mail sender missing") << QByteArray("[mailer]\nENABLED = true\nPROTOCOL = dummy\n")
                                             << QStringLiteral("[mailer] ENABLED = true needs [mailer] FROM, the sender's address "
                                                               "(e.g. \"Gitea <gitea@example.com>\")");
        QTest::newRow("mail sender invalid") << QByteArray("[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = gitea at example\n")
                                             << QStringLiteral("app.ini:4: [mailer] FROM is not valid: \"gitea at example\" is not a mail "
                                                               "address: expected local-part@domain");
        QTest::newRow("smtp without a server") << QByteArray("[mailer]\nENABLED = true\nFROM = g@example.com\n")
                                               << QStringLiteral("[mailer] PROTOCOL = smtp needs [mailer] SMTP_ADDR (the server's host name)");
        QTest::newRow("smtp+unix needs a path") << QByteArray("[mailer]\nENABLED = true\nFROM = g@example.com\nPROTOCOL = smtp+unix\nSMTP_ADDR = mail\n")
                                                << QStringLiteral("app.ini:5: [mailer] SMTP_ADDR = mail is not valid for smtp+unix; expected the "
                                                                  "absolute path of the server's socket");
        QTest::newRow("sendmail arguments") << QByteArray("[mailer]\nSENDMAIL_ARGS = --x 'open\n")
                                            << QStringLiteral("app.ini:2: [mailer] SENDMAIL_ARGS = --x 'open is not valid: a quote is not closed; "
                                                              "quote as a shell would ('two words' or \"two words\")");
        QTest::newRow("sendmail timeout") << QByteArray("[mailer]\nSENDMAIL_TIMEOUT = 10ms\n")
                                          << QStringLiteral("app.ini:2: [mailer] SENDMAIL_TIMEOUT is not valid; expected a duration of at least 1s (5m by default)");
        QTest::newRow("display name field") << QByteArray("[mailer]\nFROM_DISPLAY_NAME_FORMAT = {{ .Email }}\n")
                                            << QStringLiteral("app.ini:2: [mailer] FROM_DISPLAY_NAME_FORMAT: {{ .Email }} is not a known field; "
                                                              "expected {{DisplayName}}, {{AppName}} or {{Domain}}");
        QTest::newRow("override the sender") << QByteArray("[mailer.override_header]\nFrom = x@example.com\n")
                                             << QStringLiteral("app.ini:2: [mailer.override_header] From cannot be replaced (the sender, the recipient, "
                                                               "the date and the MIME structure are the mailer's); set [mailer] FROM for the sender");
        QTest::newRow("domain") << QByteArray("[server]\nDOMAIN = git example\n")
                                << QStringLiteral("app.ini:2: [server] DOMAIN = \"git example\" is not valid; expected the forge's host name, e.g. git.example.com");
        QTest::newRow("retries") << QByteArray("[webhook]\nRETRY_SCHEDULE = 1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s\n")
                                 << QStringLiteral("app.ini:2: [webhook] RETRY_SCHEDULE = 1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s is not valid: 11 "
                                                   "retries; at most 10");
    }

    void invalidEnumValuesListTheValidOnes()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const Result<EngineConfig> config = configFrom(text);
        QVERIFY(!config);
        QCOMPARE(config.status().code(), Status::Code::InvalidArgument);
        QCOMPARE(config.status().message(), expected);
    }

    void deprecatedKeysRefuseStartWithTheReplacement_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("indexer type") << QByteArray("[indexer]\nISSUE_INDEXER_QUEUE_TYPE = levelqueue\n")
                                      << QStringLiteral("app.ini:2: [indexer] ISSUE_INDEXER_QUEUE_TYPE is no longer supported; "
                                                        "use [queue.issue_indexer] TYPE instead");
        QTest::newRow("indexer batch") << QByteArray("[indexer]\nISSUE_INDEXER_QUEUE_BATCH_NUMBER = 20\n")
                                       << QStringLiteral("app.ini:2: [indexer] ISSUE_INDEXER_QUEUE_BATCH_NUMBER is no longer supported; "
                                                         "use [queue.issue_indexer] BATCH_LENGTH instead");
        QTest::newRow("indexer dir") << QByteArray("[indexer]\nISSUE_INDEXER_QUEUE_DIR = x\n")
                                     << QStringLiteral("app.ini:2: [indexer] ISSUE_INDEXER_QUEUE_DIR is no longer supported; "
                                                       "use [queue.issue_indexer] DATADIR instead");
        QTest::newRow("indexer conn") << QByteArray("[indexer]\nISSUE_INDEXER_QUEUE_CONN_STR = x\n")
                                      << QStringLiteral("app.ini:2: [indexer] ISSUE_INDEXER_QUEUE_CONN_STR is no longer supported; "
                                                        "use [queue.issue_indexer] CONN_STR instead");
        QTest::newRow("update buffer") << QByteArray("[indexer]\nUPDATE_BUFFER_LEN = 20\n")
                                       << QStringLiteral("app.ini:2: [indexer] UPDATE_BUFFER_LEN is no longer supported; "
                                                         "use [queue.issue_indexer] LENGTH instead");
        QTest::newRow("mailer") << QByteArray("[mailer]\nSEND_BUFFER_LEN = 100\n")
                                << QStringLiteral("app.ini:2: [mailer] SEND_BUFFER_LEN is no longer supported; use [queue.mail] LENGTH instead");
        QTest::newRow("pull requests") << QByteArray("[repository]\nPULL_REQUEST_QUEUE_LENGTH = 1\n")
                                       << QStringLiteral("app.ini:2: [repository] PULL_REQUEST_QUEUE_LENGTH is no longer supported; "
                                                         "use [queue.pr_patch_checker] LENGTH instead");
        QTest::newRow("mirrors") << QByteArray("[repository]\nMIRROR_QUEUE_LENGTH = 1\n")
                                 << QStringLiteral("app.ini:2: [repository] MIRROR_QUEUE_LENGTH is no longer supported; "
                                                   "use [queue.mirror] LENGTH instead");
        QTest::newRow("mailer type") << QByteArray("[mailer]\nMAILER_TYPE = smtp\n")
                                     << QStringLiteral("app.ini:2: [mailer] MAILER_TYPE is no longer supported; use [mailer] PROTOCOL instead");
        QTest::newRow("smtp from") << QByteArray("[mailer]\nSMTP_FROM = g@example.com\n")
                                   << QStringLiteral("app.ini:2: [mailer] SMTP_FROM is no longer supported; use [mailer] FROM instead");
        QTest::newRow("mail host") << QByteArray("[mailer]\nHOST = smtp.example.com:587\n")
                                   << QStringLiteral("app.ini:2: [mailer] HOST is no longer supported; use [mailer] SMTP_ADDR and SMTP_PORT instead");
        QTest::newRow("task") << QByteArray("[task]\nQUEUE_TYPE = channel\n")
                              << QStringLiteral("app.ini:2: [task] QUEUE_TYPE is no longer supported; use [queue.task] TYPE instead");
    }

    void deprecatedKeysRefuseStartWithTheReplacement()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const Result<EngineConfig> config = configFrom(text);
        QVERIFY(!config);
        QCOMPARE(config.status().message(), expected);
    }

    void everyProblemIsReportedAtOnce()
    {
        const Result<EngineConfig> config = configFrom("[task]\nQUEUE_TYPE = channel\n"
                                                       "[cache]\nADAPTER = foo\n"
                                                       "[queue.a]\nTYPE = x\n"
                                                       "[queue.b]\nBATCH_LENGTH = many\n");
        QVERIFY(!config);
        const QStringList lines = config.status().message().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith(QLatin1String("app.ini:2: [task] QUEUE_TYPE")));
        QVERIFY(lines[1].startsWith(QLatin1String("app.ini:4: [cache] ADAPTER")));
        QVERIFY(lines[2].startsWith(QLatin1String("app.ini:6: [queue.a] TYPE")));
        QVERIFY(lines[3].startsWith(QLatin1String("app.ini:8: [queue.b] BATCH_LENGTH")));
    }

    // The packaged app.ini (switchyardd --sample-config): as shipped, every line is a comment; with
    // every key that shows a value uncommented, the file loads without a warning and gives the very
    // defaults the loader applies to an empty file, so the table in keys.cpp cannot drift from them.
    void theSampleConfigListsEveryKeyAtItsDefault()
    {
        const QString sample = sampleConfig(QStringLiteral("9.9"));
        const Result<EngineConfig> asShipped = configFrom(sample.toUtf8());
        QVERIFY2(asShipped, qPrintable(asShipped.status().message()));
        QVERIFY2(asShipped->warnings().isEmpty(), qPrintable(asShipped->warnings().join(QLatin1Char('\n'))));

        QString uncommented;
        int keysWithValues = 0;
        for (const QString &line : sample.split(QLatin1Char('\n'))) {
            static const QRegularExpression keyLine(QStringLiteral("^;([A-Z_]+) = (.+)$"));
            const QRegularExpressionMatch m = keyLine.match(line);
            if (m.hasMatch()) {
                uncommented += m.captured(1) + QStringLiteral(" = ") + m.captured(2) + QLatin1Char('\n');
                ++keysWithValues;
            } else {
                uncommented += line + QLatin1Char('\n');
            }
        }
        int listed = 0;
        for (const SettingKey &k : settingKeys()) {
            if (k.obsolete)
                continue;
            ++listed;
            QVERIFY2(sample.contains(QStringLiteral("\n;%1 =").arg(QLatin1String(k.key))), k.key);
        }
        QVERIFY(keysWithValues > 30);
        QVERIFY(listed > keysWithValues); // the computed and unset ones stay commented
        const Result<EngineConfig> spelledOut = configFrom(uncommented.toUtf8());
        QVERIFY2(spelledOut, qPrintable(spelledOut.status().message()));
        QVERIFY2(spelledOut->warnings().isEmpty(), qPrintable(spelledOut->warnings().join(QLatin1Char('\n'))));
        const Result<EngineConfig> empty = configFrom("");
        QVERIFY(empty);
        const EngineConfig &a = *spelledOut;
        const EngineConfig &b = *empty;
        QCOMPARE(a.server.httpAddr, b.server.httpAddr);
        QCOMPARE(a.server.httpPort, b.server.httpPort);
        QCOMPARE(a.server.allowInsecureRemote, b.server.allowInsecureRemote);
        QCOMPARE(a.server.maxBodySize, b.server.maxBodySize);
        QCOMPARE(a.server.authFailureLimit, b.server.authFailureLimit);
        QCOMPARE(a.server.headerTimeout, b.server.headerTimeout);
        QCOMPARE(a.server.idleTimeout, b.server.idleTimeout);
        QCOMPARE(a.server.maxConnections, b.server.maxConnections);
        QCOMPARE(a.server.maxConnectionsPerAddress, b.server.maxConnectionsPerAddress);
        QCOMPARE(a.server.gracefulHammerTime, b.server.gracefulHammerTime);
        QCOMPARE(a.database.type, b.database.type);
        QCOMPARE(a.database.path, b.database.path);
        QCOMPARE(a.database.host, b.database.host);
        QCOMPARE(a.database.name, b.database.name);
        QCOMPARE(a.cache.adapter, b.cache.adapter);
        QCOMPARE(a.cache.intervalSeconds, b.cache.intervalSeconds);
        QCOMPARE(a.cache.itemTtl, b.cache.itemTtl);
        QCOMPARE(a.globalLock.serviceType, b.globalLock.serviceType);
        QCOMPARE(a.globalLock.keyPrefix, b.globalLock.keyPrefix);
        QCOMPARE(a.globalLock.maxHoldTime, b.globalLock.maxHoldTime);
        QCOMPARE(a.webhook.deliverTimeoutSeconds, b.webhook.deliverTimeoutSeconds);
        QCOMPARE(a.webhook.allowedHostList, b.webhook.allowedHostList);
        QCOMPARE(a.webhook.skipTlsVerify, b.webhook.skipTlsVerify);
        QCOMPARE(a.webhook.pagingNum, b.webhook.pagingNum);
        QCOMPARE(a.webhook.autoDisableAfter, b.webhook.autoDisableAfter);
        QCOMPARE(a.webhook.disableWebhooks, b.webhook.disableWebhooks);
        QCOMPARE(a.qos.enabled, b.qos.enabled);
        QCOMPARE(a.qos.maxWaiting, b.qos.maxWaiting);
        QCOMPARE(a.qos.targetWaitTime, b.qos.targetWaitTime);
        QCOMPARE(a.websocket.pubsubType, b.websocket.pubsubType);
        QCOMPARE(a.service.autoWatchOnChanges, b.service.autoWatchOnChanges);
        QCOMPARE(a.service.enableNotifyMail, b.service.enableNotifyMail);
        QCOMPARE(a.server.domain, b.server.domain);
        QCOMPARE(a.mailer.enabled, b.mailer.enabled);
        QCOMPARE(a.mailer.protocol, b.mailer.protocol);
        QCOMPARE(a.mailer.smtpPort, b.mailer.smtpPort);
        QCOMPARE(a.mailer.enableHelo, b.mailer.enableHelo);
        QCOMPARE(a.mailer.forceTrustServerCert, b.mailer.forceTrustServerCert);
        QCOMPARE(a.mailer.sendmailPath, b.mailer.sendmailPath);
        QCOMPARE(a.mailer.sendmailTimeout, b.mailer.sendmailTimeout);
        QCOMPARE(a.mailer.fromDisplayNameFormat, b.mailer.fromDisplayNameFormat);
        QCOMPARE(a.mailer.sendAsPlainText, b.mailer.sendAsPlainText);
        const QueueSettings qa = a.queueSettings(QStringLiteral("common")).value();
        const QueueSettings qb = b.queueSettings(QStringLiteral("common")).value();
        QCOMPARE(qa.type, qb.type);
        QCOMPARE(qa.dataDir, qb.dataDir);
        QCOMPARE(qa.length, qb.length);
        QCOMPARE(qa.batchLength, qb.batchLength);
        QCOMPARE(qa.sync, qb.sync);
        QCOMPARE(a.queueSettings(QStringLiteral("webhook_sender")).value().name, QStringLiteral("webhook_sender"));
    }

    // Gitea's rules: the protocol from the port, the port from the protocol, a socket path.
    void mailProtocolAndPortInferEachOther_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<int>("port");
        QTest::newRow("nothing") << QByteArray("") << QStringLiteral("smtp") << 25;
        QTest::newRow("465") << QByteArray("SMTP_PORT = 465\n") << QStringLiteral("smtps") << 465;
        QTest::newRow("587") << QByteArray("SMTP_PORT = 587\n") << QStringLiteral("smtp+starttls") << 587;
        QTest::newRow("2525") << QByteArray("SMTP_PORT = 2525\n") << QStringLiteral("smtp") << 2525;
        QTest::newRow("smtps") << QByteArray("PROTOCOL = smtps\n") << QStringLiteral("smtps") << 465;
        QTest::newRow("starttls") << QByteArray("PROTOCOL = SMTP+STARTTLS\n") << QStringLiteral("smtp+starttls") << 587;
        QTest::newRow("socket") << QByteArray("SMTP_ADDR = /run/mail.sock\n") << QStringLiteral("smtp+unix") << 25;
    }
    void mailProtocolAndPortInferEachOther()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, protocol);
        QFETCH(int, port);
        const Result<EngineConfig> config = configFrom("[mailer]\n" + text);
        QVERIFY2(config, qPrintable(config.status().message()));
        QCOMPARE(config->mailer.protocol, protocol);
        QCOMPARE(config->mailer.smtpPort, port);
    }

    void mailSettingsAsGiteaWritesThem()
    {
        const Result<EngineConfig> config = configFrom("APP_NAME = Our Forge\n[server]\nDOMAIN = git.example.com\n[service]\nENABLE_NOTIFY_MAIL = true\n"
                                                       "[mailer]\nENABLED = true\nFROM = `\"Our Forge\" <forge@example.com>`\nSMTP_ADDR = smtp.example.com\n"
                                                       "SMTP_PORT = 587\nUSER = forge\nPASSWD = `s3cr;et`\nSENDMAIL_ARGS = -oi \"-X /var/log/mail log\" 'a b'\n"
                                                       "FROM_DISPLAY_NAME_FORMAT = {{ .DisplayName }} via {{ .AppName }}\n"
                                                       "[mailer.override_header]\nReply-To = noreply@example.com\nX-Team = core, platform\n");
        QVERIFY2(config, qPrintable(config.status().message()));
        QVERIFY2(config->warnings().isEmpty(), qPrintable(config->warnings().join(u'\n'))); // override_header is free-form
        const MailerSettings &m = config->mailer;
        QCOMPARE(config->appName, QStringLiteral("Our Forge"));
        QCOMPARE(config->server.domain, QStringLiteral("git.example.com"));
        QVERIFY(config->service.enableNotifyMail);
        QCOMPARE(m.fromAddress, QStringLiteral("forge@example.com"));
        QCOMPARE(m.name, QStringLiteral("Our Forge")); // from FROM, NAME being empty
        QCOMPARE(m.protocol, QStringLiteral("smtp+starttls"));
        QCOMPARE(m.passwd, QStringLiteral("s3cr;et"));
        QCOMPARE(m.sendmailArgs, (QStringList{QStringLiteral("-oi"), QStringLiteral("-X /var/log/mail log"), QStringLiteral("a b")}));
        QCOMPARE(m.fromDisplayNameFormat, QStringLiteral("{{DisplayName}} via {{AppName}}"));
        QCOMPARE(m.overrideHeaders.size(), std::size_t(2));
        QCOMPARE(m.overrideHeaders[1].second, (QStringList{QStringLiteral("core"), QStringLiteral("platform")}));
        QCOMPARE(m.serverLabel(), QStringLiteral("smtp.example.com:587"));
    }

    void unknownKeysInOwnedSectionsAreWarnings()
    {
        const Result<EngineConfig> config = configFrom("[queue]\nTYPO_TYPE = redis\n[ui]\nTHEME = dark\n");
        QVERIFY(config);
        QCOMPARE(config->warnings().size(), 1);
        QVERIFY(config->warnings().front().startsWith(QLatin1String("app.ini:2: unknown key [queue] TYPO_TYPE is ignored; known keys: TYPE")));
    }

    void keysAreCaseInsensitive()
    {
        const Result<EngineConfig> config = configFrom("[Cache]\nadapter = twoqueue\n");
        QVERIFY(config);
        QCOMPARE(config->cache.adapter, QStringLiteral("twoqueue"));
        QVERIFY(config->warnings().isEmpty());
    }

    void dataPathPrecedenceAndRelativePaths()
    {
        const QByteArray text = "[server]\nAPP_DATA_PATH = /var/lib/switchyard\n"
                                "[database]\nPATH = db/main.db\n"
                                "[queue]\nDATADIR = /mnt/fast/queues\n";
        const Result<EngineConfig> fromFile = EngineConfig::load(settingsFrom(text), QString(), QStringLiteral("/home/op/x"));
        QCOMPARE(fromFile->dataPath(), QStringLiteral("/var/lib/switchyard"));
        QCOMPARE(fromFile->database.path, QStringLiteral("/var/lib/switchyard/db/main.db"));
        QCOMPARE(fromFile->queueSettings(QStringLiteral("q"))->dataDir, QStringLiteral("/mnt/fast/queues"));

        const Result<EngineConfig> overridden = EngineConfig::load(settingsFrom(text), QStringLiteral("/tmp/run1"), QStringLiteral("/home/op/x"));
        QCOMPARE(overridden->dataPath(), QStringLiteral("/tmp/run1"));
        QCOMPARE(overridden->database.path, QStringLiteral("/tmp/run1/db/main.db"));
    }

    void configFileOnDisk()
    {
        QTemporaryDir dir;
        const QString path = Test::writeFile(dir.path(), QStringLiteral("app.ini"), "[server]\nHTTP_PORT = 4000\n");
        Result<Settings> settings = Settings::load(path);
        QVERIFY(settings);
        const Result<EngineConfig> config = EngineConfig::load(std::move(settings).value(), dir.path(), QString());
        QCOMPARE(config->configPath(), path);
        QCOMPARE(config->server.httpPort, 4000);

        const QString bad = Test::writeFile(dir.path(), QStringLiteral("bad.ini"), "[server]\nHTTP_PORT 4000\n");
        const Result<Settings> broken = Settings::load(bad);
        QVERIFY(!broken);
        QCOMPARE(broken.status().message(), bad + QStringLiteral(":2: malformed line (expected KEY = VALUE or [section]): HTTP_PORT 4000"));
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
