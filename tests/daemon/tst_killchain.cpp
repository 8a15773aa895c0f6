// kill -9 while work is in flight ($SWITCHYARD_STORE: SQLite, or a private PostgreSQL cluster):
// 300 forge events posted to a daemon that is killed three times and started again each time.
// Every accepted event reaches the webhook receiver within 90 s of the last start, with nobody
// redelivering anything; no delivery stays claimed without an outcome; an event is never sent
// under two delivery ids, and what went twice (a delivery on the wire at a kill) is counted and
// bounded.
#include "chain.h"

#include "support/postgresserver.h"
#include "support/wait.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Test;
using namespace std::chrono_literals;

namespace {

const QString kDaemon = QStringLiteral(SWITCHYARDD_PATH);
constexpr int kEvents = 300;
const QList<int> kKillsAfter{75, 150, 225};
// A kill finds at most the hook's six connections on the wire, plus answers the recorder had not
// written yet; those go again. Far below this bound, which only a broken recovery reaches.
constexpr int kDuplicatesPerKill = 50;

// The [database] section (with short heartbeats), and for PostgreSQL the shared secret key.
QByteArray storeConfig()
{
    const QByteArray heartbeat = "INSTANCE_HEARTBEAT = 200ms\nINSTANCE_GRACE = 1s\n";
    if (qgetenv("SWITCHYARD_STORE") != "postgres")
        return "[database]\n" + heartbeat;
    Result<PostgresServer *> server = PostgresServer::shared();
    if (!server)
        qFatal("%s", qPrintable(server.status().message()));
    Result<DatabaseSettings> db = (*server)->createDatabase(QStringLiteral("killchain"));
    if (!db)
        qFatal("%s", qPrintable(db.status().message()));
    return "[database]\n" + heartbeat + "DB_TYPE = postgres\nHOST = " + db->host.toUtf8() +
           "\nNAME = " + db->name.toUtf8() + "\nUSER = " + db->user.toUtf8() + "\nPASSWD = " + db->passwd.toUtf8() +
           "\n[security]\nSECRET_KEY = kill-chain-test-key-kill-chain-test-key\n";
}

}  // namespace

class tst_KillChain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void killedThreeTimesLosesNothing()
    {
        HttpReceiver receiver;
        receiver.setKeepAlive(true);
        receiver.setAnswerDelay(10);  // deliveries stay on the wire for a while: kills find some there
        QTemporaryDir data;
        DaemonProcess::Options options;
        options.program = kDaemon;
        options.dataDir = data.path();
        options.config = "[webhook]\nALLOWED_HOST_LIST = loopback\n[queue]\nTYPE = level\n" + storeConfig();

        auto daemon = std::make_unique<DaemonProcess>();
        QVERIFY2(daemon->start(options), daemon->output().constData());
        auto api = std::make_unique<Chain::Api>(*daemon);
        QVERIFY(Chain::createSystemHook(*api, receiver.url("/hook")) > 0);
        QList<int> accepted;
        int kills = 0;
        for (int n = 1; n <= kEvents; ++n) {
            if (kKillsAfter.contains(n - 1)) {
                // Kill while a delivery is on the wire: the next one to arrive gets no answer
                // before the kill, so the restarted daemon has at least one interruption to resend.
                receiver.setAnswerDelay(600'000);
                const qsizetype seen = receiver.requests().size();
                QVERIFY(Test::eventually([&] { return receiver.requests().size() > seen; }));
                daemon->kill();
                receiver.setAnswerDelay(10);
                QVERIFY(daemon->crashed());
                ++kills;
                daemon = std::make_unique<DaemonProcess>();
                QVERIFY2(daemon->start(options), daemon->output().constData());
                api = std::make_unique<Chain::Api>(*daemon);
            }
            const int status = Chain::post(*api, Chain::Kind::Push, n);
            QVERIFY2(status == 202, qPrintable(QStringLiteral("event %1: %2").arg(n).arg(status)));
            accepted << n;
        }
        QCOMPARE(kills, int(kKillsAfter.size()));

        const Chain::Settled settled = Chain::settle(receiver, Chain::Kind::Push, accepted, *api, 90s);
        QVERIFY2(settled.problem.isEmpty(), qPrintable(settled.problem));
        const Chain::Tally &tally = settled.tally;
        const Chain::Ledger &book = settled.book;
        QCOMPARE(book.claimedWithoutOutcome, 0);
        qInfo().noquote() << "after" << kills << "kills:" << tally.describe(accepted) << ";" << book.interrupted
                          << "delivery(ies) interrupted and sent again";
        QCOMPARE(tally.splitEvents(), 0);
        QVERIFY2(book.interrupted > 0, "no delivery was interrupted by the kills");
        QVERIFY2(tally.duplicates() <= kills * kDuplicatesPerKill, qPrintable(tally.describe(accepted)));
        QVERIFY2(!daemon->output().contains("damaged"), daemon->output().constData());
        QCOMPARE(daemon->stop(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_KillChain)
#include "tst_killchain.moc"
