// A full disk (SQLite, LevelDB queues): the daemon's data directory is a small tmpfs, which a
// filler file fills while events wait to be processed. New work is refused (503 naming the
// cause) or accepted; nothing accepted is lost: once the filler goes, every accepted event
// reaches the webhook receiver without a restart, and the LevelDB queues come through undamaged
// (no damage is reported then, nor at the next start).
//
// The tmpfs is mounted in a mount namespace of this test's own (unshare), so nothing outlives
// it; that needs root or unprivileged user namespaces, and the test fails when it has neither.
#include "chain.h"

#include "support/wait.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

using namespace Switchyard;
using namespace Switchyard::Test;
using namespace std::chrono_literals;

namespace {

const QString kDaemon = QStringLiteral(SWITCHYARDD_PATH);
constexpr int kBefore = 60;  // events accepted before the disk fills

// A private mount namespace with a tmpfs of `megabytes` on `dir`; the reason when it cannot be.
QString mountTmpfs(const QString &dir, int megabytes)
{
    if (::unshare(CLONE_NEWNS) != 0) {
        const uid_t uid = ::getuid();
        const gid_t gid = ::getgid();
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            return QStringLiteral("unshare: %1 (run as root, or enable unprivileged user namespaces)")
                .arg(QString::fromLocal8Bit(strerror(errno)));
        QFile setgroups(QStringLiteral("/proc/self/setgroups"));
        if (setgroups.open(QIODevice::WriteOnly))
            setgroups.write("deny");
        setgroups.close();
        QFile uidMap(QStringLiteral("/proc/self/uid_map"));
        QFile gidMap(QStringLiteral("/proc/self/gid_map"));
        if (!uidMap.open(QIODevice::WriteOnly) ||
            uidMap.write(QByteArray::number(uid) + ' ' + QByteArray::number(uid) + " 1\n") < 0 ||
            !gidMap.open(QIODevice::WriteOnly) ||
            gidMap.write(QByteArray::number(gid) + ' ' + QByteArray::number(gid) + " 1\n") < 0)
            return QStringLiteral("cannot map this user into its namespace");
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return QStringLiteral("mount --make-rprivate /: %1").arg(QString::fromLocal8Bit(strerror(errno)));
    const QByteArray size = "size=" + QByteArray::number(megabytes) + "m";
    if (::mount("tmpfs", QFile::encodeName(dir).constData(), "tmpfs", 0, size.constData()) != 0)
        return QStringLiteral("mount tmpfs on %1: %2").arg(dir, QString::fromLocal8Bit(strerror(errno)));
    return {};
}

// Writes `path` until the file system is full: the bytes written.
qint64 fill(const QString &path)
{
    QFile filler(path);
    if (!filler.open(QIODevice::WriteOnly))
        return -1;
    const QByteArray chunk(64 * 1024, 'f');
    qint64 written = 0;
    for (;;) {
        const qint64 n = filler.write(chunk);
        if (n <= 0 || !filler.flush())
            break;
        written += n;
    }
    for (const QByteArray small(512, 'f');;) {  // the last blocks
        const qint64 n = filler.write(small);
        if (n <= 0 || !filler.flush())
            break;
        written += n;
    }
    filler.close();
    return written;
}

// The daemon's last lines, one message each (QtTest cuts a long failure message short).
void showTail(DaemonProcess &daemon)
{
    const QList<QByteArray> lines = daemon.output().split('\n');
    for (qsizetype i = std::max<qsizetype>(0, lines.size() - 120); i < lines.size(); ++i)
        qInfo().noquote() << "daemon:" << lines.at(i);
}

}  // namespace

class tst_FullDisk : public QObject
{
    Q_OBJECT

    QTemporaryDir m_mountPoint;

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = mountTmpfs(m_mountPoint.path(), 24);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanupTestCase() { ::umount2(QFile::encodeName(m_mountPoint.path()).constData(), MNT_DETACH); }

    void nothingAcceptedIsLostToAFullDisk()
    {
        const QString data = QDir(m_mountPoint.path()).filePath(QStringLiteral("data"));
        HttpReceiver receiver;
        DaemonProcess::Options options;
        options.program = kDaemon;
        options.dataDir = data;
        options.config =
            "[webhook]\nALLOWED_HOST_LIST = loopback\n[queue]\nTYPE = level\n"
            "[database]\nINSTANCE_HEARTBEAT = 200ms\nINSTANCE_GRACE = 1s\n";
        DaemonProcess daemon;
        QVERIFY2(daemon.start(options), daemon.output().constData());
        const Chain::Api api(daemon);
        QVERIFY(Chain::createSystemHook(api, receiver.url("/hook")) > 0);

        // The disk fills while events are being processed and delivered (the receiver takes its
        // time, so deliveries are on the wire).
        receiver.setAnswerDelay(100);
        QList<int> accepted;
        for (int n = 1; n <= kBefore; ++n) {
            QCOMPARE(Chain::post(api, Chain::Kind::Push, n), 202);
            accepted << n;
        }
        const QString filler = QDir(m_mountPoint.path()).filePath(QStringLiteral("filler"));
        QVERIFY(fill(filler) > 0);

        // While it is full: new events are refused with the cause, or accepted (and then owed).
        int refused = 0;
        for (int n = kBefore + 1; n <= kBefore + 20; ++n) {
            const HttpResult answer =
                api.post(QStringLiteral("/events?event=push"), Chain::payload(Chain::Kind::Push, n),
                         {{"X-Gitea-Delivery", "full-" + QByteArray::number(n)}});
            if (answer.status == 202) {
                accepted << n;
            } else {
                if (answer.status != 503)
                    showTail(daemon);
                QVERIFY2(answer.status == 503, qPrintable(QStringLiteral("HTTP %1 %2 %3")
                                                              .arg(answer.status)
                                                              .arg(answer.networkError, QString::fromUtf8(answer.body))));
                QVERIFY2(answer.message().contains(QLatin1String("full")) ||
                             answer.message().contains(QLatin1String("space")),
                         qPrintable(answer.message()));
                ++refused;
            }
        }
        qInfo().noquote() << refused << "of 20 events refused while the disk was full";
        // The work met the full disk (the daemon says so), and waits.
        if (!Test::eventually([&] {
                const QByteArray log = daemon.output();
                return log.contains("disk is full") || log.contains("No space left");
            })) {
            showTail(daemon);
            QFAIL("the daemon never said that the disk is full");
        }

        int said = 0;
        for (const QByteArray &line : daemon.output().split('\n'))
            if ((line.contains("No space left") || line.contains("disk is full") || line.contains("waiting")) &&
                said++ < 12)
                qInfo().noquote() << "daemon:" << line.mid(24, 260);
        QVERIFY(QFile::remove(filler));
        const Chain::Settled settled = Chain::settle(receiver, Chain::Kind::Push, accepted, api, 60s);
        QVERIFY2(settled.problem.isEmpty(), qPrintable(settled.problem));
        const Chain::Tally &tally = settled.tally;
        const Chain::Ledger &book = settled.book;
        QCOMPARE(book.claimedWithoutOutcome, 0);
        QCOMPARE(tally.splitEvents(), 0);
        QVERIFY2(!daemon.output().contains("damaged"), daemon.output().constData());
        QVERIFY2(api.get(QStringLiteral("/notices")).body.indexOf("damaged") < 0,
                 api.get(QStringLiteral("/notices")).body.constData());
        QCOMPARE(daemon.stop(), 0);

        // The queues open clean.
        DaemonProcess again;
        QVERIFY2(again.start(options), again.output().constData());
        QVERIFY2(!again.output().contains("damaged"), again.output().constData());
        QCOMPARE(again.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_FullDisk)
#include "tst_fulldisk.moc"
