// The admin API's edge under hostile and slow peers, against a real daemon process: bodies over
// the limit are refused before they are read (the daemon's peak RSS is measured), silent and slow
// connections time out, and running out of descriptors neither spins the CPU nor stops /health.
#include "support/daemonprocess.h"
#include "support/wait.h"

#include <QDir>
#include <QFile>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <unistd.h>

using namespace Switchyard;
using namespace Switchyard::Test;

namespace {

const QString kTestDaemon = QStringLiteral(TEST_DAEMON_PATH);

// A /proc/PID/status field in kB (VmHWM: peak resident set).
qint64 statusKb(qint64 pid, const QByteArray &field)
{
    QFile file(QStringLiteral("/proc/%1/status").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

// CPU time (user + system) of a process, in clock ticks.
qint64 cpuTicks(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray stat = file.readAll();
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return fields.value(11).toLongLong() + fields.value(12).toLongLong(); // utime, stime (fields 14, 15)
}

int openDescriptors(qint64 pid)
{
    return int(QDir(QStringLiteral("/proc/%1/fd").arg(pid)).entryList(QDir::Files | QDir::System).size());
}

// Writes `head`, then up to `bodyBytes` of body in `piece`-sized writes, reading as it goes; stops
// as soon as an answer has arrived. Returns the answer and how much of the body went out.
struct Upload
{
    QByteArray answer;
    qint64 bodySent = 0;
    bool closedByServer = false;
};

Upload upload(quint16 port, const QByteArray &head, qint64 bodyBytes, const std::function<QByteArray(qint64)> &piece)
{
    Upload result;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return result;
    socket.write(head);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        if (socket.bytesAvailable() > 0 || socket.waitForReadyRead(0))
            result.answer += socket.readAll();
        if (result.answer.contains("\r\n\r\n"))
            break;
        if (socket.state() != QAbstractSocket::ConnectedState)
            break;
        if (result.bodySent < bodyBytes && socket.bytesToWrite() < (1 << 20)) {
            const QByteArray bytes = piece(result.bodySent);
            socket.write(bytes);
            result.bodySent += bytes.size();
        }
        socket.waitForBytesWritten(5);
    }
    // The server closes after its answer: wait for the end of the stream.
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(5000))
        result.answer += socket.readAll();
    result.closedByServer = socket.state() != QAbstractSocket::ConnectedState;
    return result;
}

// Opens one connection per head, writes the heads, then `bodyBytes` of body to each in turn until
// every connection has an answer (or sent it all): the answers, in order.
QList<QByteArray> uploadAll(quint16 port, const QList<QByteArray> &heads, qint64 bodyBytes)
{
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    QList<QByteArray> answers;
    std::vector<qint64> sent(size_t(heads.size()), 0);
    for (const QByteArray &head : heads) {
        sockets.push_back(std::make_unique<QTcpSocket>());
        sockets.back()->connectToHost(QHostAddress::LocalHost, port);
        if (!sockets.back()->waitForConnected(5000))
            return {};
        sockets.back()->write(head);
        answers.append(QByteArray());
    }
    const QByteArray piece(64 << 10, 'z');
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (bool pending = true; pending && std::chrono::steady_clock::now() < deadline;) {
        pending = false;
        for (size_t i = 0; i < sockets.size(); ++i) {
            QTcpSocket &socket = *sockets[i];
            socket.waitForReadyRead(1);
            answers[qsizetype(i)] += socket.readAll();
            if (answers[qsizetype(i)].contains("\r\n\r\n") || socket.state() != QAbstractSocket::ConnectedState)
                continue;
            pending = true;
            if (sent[i] < bodyBytes && socket.bytesToWrite() < (1 << 20)) {
                socket.write(piece.left(qsizetype(std::min<qint64>(piece.size(), bodyBytes - sent[i]))));
                sent[i] += std::min<qint64>(piece.size(), bodyBytes - sent[i]);
            }
            socket.waitForBytesWritten(1);
        }
    }
    return answers;
}

// Connects and sends `head`, then waits for the edge's "100 Continue" (the head is admitted and
// the connection is receiving its body); null when it does not come.
std::unique_ptr<QTcpSocket> admittedBody(quint16 port, const QByteArray &head)
{
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(QHostAddress::LocalHost, port);
    if (!socket->waitForConnected(5000))
        return nullptr;
    socket->write(head);
    QByteArray answer;
    while (!answer.contains("\r\n\r\n") && socket->waitForReadyRead(10000))
        answer += socket->readAll();
    if (!answer.startsWith("HTTP/1.1 100 Continue\r\n\r\n"))
        return nullptr;
    return socket;
}

QByteArray eventHead(qint64 length, const QByteArray &extra)
{
    return "POST /api/v1/events HTTP/1.1\r\nHost: x\r\nX-Gitea-Event: push\r\nContent-Type: application/json\r\n"
           "Content-Length: " + QByteArray::number(length) + "\r\n" + extra + "\r\n";
}

// The daemon's peak RSS grew by less than 16 MB since `before` (kB). Not under a sanitizer: its
// shadow memory and quarantine swamp the figure.
#ifdef SWITCHYARD_SANITIZED
#define checkPeakGrowth(before) Q_UNUSED(before)
#else
#define checkPeakGrowth(before)                                                                                        \
    do {                                                                                                               \
        const qint64 grown = statusKb(m_daemon.pid(), "VmHWM") - (before);                                             \
        QVERIFY2(grown < 16 * 1024, qPrintable(QStringLiteral("peak RSS grew by %1 kB").arg(grown)));                  \
    } while (false)
#endif

} // namespace

class TestApiEdge : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    DaemonProcess m_daemon;

private Q_SLOTS:
    void initTestCase()
    {
        DaemonProcess::Options o;
        o.program = kTestDaemon;
        o.dataDir = m_dir.path();
        o.config = "[server]\nHEADER_TIMEOUT = 700ms\nIDLE_TIMEOUT = 1s\n"; // MAX_BODY_SIZE: 1 MiB (default)
        QVERIFY2(m_daemon.start(o), m_daemon.output().constData());
    }

    void cleanupTestCase() { QCOMPARE(m_daemon.stop(), 0); }

    void aDeclaredBodyOverTheLimitIs413BeforeTheUpload()
    {
        const qint64 before = statusKb(m_daemon.pid(), "VmHWM");
        const qint64 size = 64 << 20;
        const Upload sent = upload(m_daemon.port(),
                                   "POST /api/v1/queues/flush-all HTTP/1.1\r\nHost: x\r\nContent-Length: " + QByteArray::number(size)
                                       + "\r\n\r\n",
                                   size, [](qint64) { return QByteArray(256 << 10, 'x'); });
        QVERIFY2(sent.answer.startsWith("HTTP/1.1 413"), sent.answer.left(300).constData());
        QVERIFY2(sent.answer.contains("\"field\":\"body\""), sent.answer.constData());
        QVERIFY2(sent.bodySent < size, QByteArray::number(sent.bodySent).constData()); // before the upload ended
        QVERIFY(sent.closedByServer);
        checkPeakGrowth(before);
    }

    void aLyingContentLengthIs413AtOnce()
    {
        const Upload sent = upload(m_daemon.port(),
                                   "PUT /api/v1/queues/1/max-workers HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\nabc",
                                   0, {});
        QVERIFY2(sent.answer.startsWith("HTTP/1.1 413"), sent.answer.constData());
        QVERIFY(sent.closedByServer);
    }

    void aChunkedBodyGrowingPastTheLimitIs413()
    {
        const qint64 before = statusKb(m_daemon.pid(), "VmHWM");
        const qint64 size = 100 << 20;
        const QByteArray chunk = QByteArray::number(64 << 10, 16) + "\r\n" + QByteArray(64 << 10, 'y') + "\r\n";
        // With the token: a stranger's chunked body is refused on its head (strangersAreRefusedBeforeTheirBodies).
        const Upload sent = upload(m_daemon.port(),
                                   "POST /api/v1/queues/flush-all HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_daemon.adminToken()
                                       + "\r\nTransfer-Encoding: chunked\r\n\r\n",
                                   size, [&](qint64) { return chunk; });
        QVERIFY2(sent.answer.startsWith("HTTP/1.1 413"), sent.answer.left(300).constData());
        QVERIFY(sent.bodySent < size);
        // The limit is 1 MiB: the refusal came while at most the socket buffers' worth more was on its way.
        checkPeakGrowth(before);
    }

    void oversizedUrlsAndHeadsAreRefused()
    {
        const QByteArray url = "GET /api/v1/" + QByteArray(8 << 20, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n";
        const Upload longUrl = upload(m_daemon.port(), url, 0, {});
        QVERIFY2(longUrl.answer.startsWith("HTTP/1.1 414"), longUrl.answer.left(300).constData());
        const QByteArray head = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Filler: " + QByteArray(200 << 10, 'b') + "\r\n\r\n";
        const Upload longHead = upload(m_daemon.port(), head, 0, {});
        QVERIFY2(longHead.answer.startsWith("HTTP/1.1 431"), longHead.answer.left(300).constData());
        QCOMPARE(http("GET", QUrl(m_daemon.baseUrl().toString() + QStringLiteral("/health")), QByteArray()).status, 200);
    }

    void silentHalfAndIdleConnectionsAreClosed()
    {
        QTcpSocket silent, half, idle;
        for (QTcpSocket *socket : {&silent, &half, &idle}) {
            socket->connectToHost(QHostAddress::LocalHost, m_daemon.port());
            QVERIFY(socket->waitForConnected(5000));
        }
        half.write("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n"); // never finished
        idle.write("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n");
        QByteArray halfAnswer, idleAnswer;
        QVERIFY(eventually([&] {
            halfAnswer += half.readAll();
            idleAnswer += idle.readAll();
            return silent.state() == QAbstractSocket::UnconnectedState && half.state() == QAbstractSocket::UnconnectedState
                   && idle.state() == QAbstractSocket::UnconnectedState;
        }, std::chrono::seconds(15)));
        QVERIFY2(halfAnswer.startsWith("HTTP/1.1 408"), halfAnswer.constData());
        QVERIFY2(idleAnswer.startsWith("HTTP/1.1 200"), idleAnswer.constData()); // answered, then closed when idle
    }

    // Only GET /api/v1/stream may leave HTTP, to a WebSocket: any other Upgrade (or CONNECT) is
    // 400 at once, so an "upgraded" body never escapes the limits (it used to be buffered whole).
    void anUpgradeIsOnlyTheStreams()
    {
        const qint64 before = statusKb(m_daemon.pid(), "VmHWM");
        const qint64 size = 64 << 20;
        const QByteArray chunk = QByteArray::number(64 << 10, 16) + "\r\n" + QByteArray(64 << 10, 'u') + "\r\n";
        for (const QByteArray &head :
             {QByteArray("POST /api/v1/events HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Transfer-Encoding: chunked\r\n\r\n"),
              QByteArray("POST /api/v1/hooks HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                         "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nTransfer-Encoding: chunked\r\n\r\n"),
              QByteArray("GET /api/v1/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Transfer-Encoding: chunked\r\n\r\n")}) {
            const Upload sent = upload(m_daemon.port(), head, size, [&](qint64) { return chunk; });
            QVERIFY2(sent.answer.startsWith("HTTP/1.1 400"), sent.answer.left(300).constData());
            QVERIFY2(sent.answer.contains("\"field\":\"Upgrade\""), sent.answer.constData());
            QVERIFY(sent.bodySent < size);
            QVERIFY(sent.closedByServer);
        }
        for (const QByteArray &head : {QByteArray("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n"),
                                       QByteArray("CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n")}) {
            const Upload sent = upload(m_daemon.port(), head, 0, {});
            QVERIFY2(sent.answer.startsWith("HTTP/1.1 400"), sent.answer.left(300).constData());
        }
        checkPeakGrowth(before);
        QCOMPARE(http("GET", QUrl(m_daemon.baseUrl().toString() + QStringLiteral("/health")), QByteArray()).status, 200);
    }

    // A request is judged on its head: a stranger's body is never read, so forty of them at once
    // cost the daemon nothing (each used to be buffered whole before its 401).
    void strangersAreRefusedBeforeTheirBodies()
    {
        const qint64 before = statusKb(m_daemon.pid(), "VmHWM");
        const qint64 size = 10 << 20;
        QList<QByteArray> heads;
        for (int i = 0; i < 40; ++i)
            heads << (i % 2 ? eventHead(size, QByteArray()) // neither a token nor a signature
                            : "POST /api/v1/queues/flush-all HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong-" +
                                  QByteArray::number(i) + "\r\nContent-Length: 1000000\r\n\r\n");
        const QList<QByteArray> answers = uploadAll(m_daemon.port(), heads, size);
        QCOMPARE(answers.size(), heads.size());
        for (const QByteArray &answer : answers)
            QVERIFY2(answer.startsWith("HTTP/1.1 401") || answer.startsWith("HTTP/1.1 429"), answer.left(300).constData());
        QVERIFY2(answers.at(1).contains("no signature"), answers.at(1).constData());
        QVERIFY2(answers.at(1).contains("WWW-Authenticate: Bearer"), answers.at(1).constData());
        checkPeakGrowth(before);
        // The stream's path takes no body without a token either (only its upgrade is let through).
        const Upload streamBody = upload(m_daemon.port(), "POST /api/v1/stream HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n", 0, {});
        QVERIFY2(streamBody.answer.startsWith("HTTP/1.1 4"), streamBody.answer.constData());
        // Unknown routes too: 404 before the body.
        const Upload unknown = upload(m_daemon.port(), "POST /api/v1/nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n",
                                      0, {});
        QVERIFY2(unknown.answer.startsWith("HTTP/1.1 404"), unknown.answer.constData());
        // A client that waits for 100 Continue learns the refusal before it sends anything.
        QTcpSocket waiting;
        waiting.connectToHost(QHostAddress::LocalHost, m_daemon.port());
        QVERIFY(waiting.waitForConnected(5000));
        waiting.write(eventHead(size, "Expect: 100-continue\r\n"));
        QByteArray answer;
        QVERIFY(eventually([&] { return (answer += waiting.readAll()).contains("\r\n\r\n"); }));
        QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
    }

    // A network that fills its connection slots with slow bodies does not lock the operator out:
    // connections kept in reserve serve requests with a valid token, and bodies slower than
    // MIN_BODY_RATE are cut once HEADER_TIMEOUT has passed (one byte a second used to hold a slot
    // for ever, and the next connection was closed at once).
    void slowBodiesLeaveRoomForTheOperator()
    {
        QTemporaryDir dir;
        DaemonProcess daemon;
        DaemonProcess::Options o;
        o.program = kTestDaemon;
        o.dataDir = dir.path();
        // HEADER_TIMEOUT is the slow bodies' grace: long enough that none is cut while the
        // connections are set up and the operator's and the stranger's requests are made, even
        // on a loaded machine under a sanitizer.
        o.config = "[server]\nHEADER_TIMEOUT = 8s\nMAX_CONNECTIONS_PER_ADDRESS = 8\nRESERVED_CONNECTIONS = 2\n";
        QVERIFY2(daemon.start(o), daemon.output().constData());
        std::vector<std::unique_ptr<QTcpSocket>> slow;
        for (int i = 0; i < 8; ++i) {
            slow.push_back(admittedBody(daemon.port(), eventHead(4096, "X-Gitea-Signature: 00\r\nExpect: 100-continue\r\n")));
            QVERIFY(slow.back());
            slow.back()->write("{");
            QVERIFY(slow.back()->waitForBytesWritten(5000));
        }
        // Every regular slot of this network is receiving a body; the operator still gets in …
        const auto started = std::chrono::steady_clock::now();
        const HttpResult queues = http("GET", QUrl(daemon.baseUrl().toString() + QStringLiteral("/queues")), daemon.adminToken());
        const auto took = std::chrono::steady_clock::now() - started;
        QCOMPARE(queues.status, 200);
#ifdef SWITCHYARD_SANITIZED
        const auto bound = std::chrono::seconds(5);
#else
        const auto bound = std::chrono::seconds(1);
#endif
        QVERIFY2(took < bound, qPrintable(QStringLiteral("%1 ms").arg(std::chrono::duration_cast<std::chrono::milliseconds>(took).count())));
        // … while a request without a token finds no room in the reserve.
        const HttpResult health = http("GET", QUrl(daemon.baseUrl().toString() + QStringLiteral("/health")), QByteArray());
        QCOMPARE(health.status, 503);
        QVERIFY2(health.message().contains(QLatin1String("reserve")), qPrintable(health.message()));
        // The slow bodies are cut for their rate (IDLE_TIMEOUT, 60 s, is far away).
        std::vector<QByteArray> answers(slow.size());
        QVERIFY(eventually([&] {
            bool all = true;
            for (size_t i = 0; i < slow.size(); ++i) {
                slow[i]->waitForReadyRead(1);
                answers[i] += slow[i]->readAll();
                all = all && answers[i].contains("\r\n\r\n");
            }
            return all;
        }, std::chrono::seconds(60)));
        for (const QByteArray &answer : answers) {
            QVERIFY2(answer.startsWith("HTTP/1.1 408"), answer.constData());
            QVERIFY2(answer.contains("MIN_BODY_RATE"), answer.constData());
        }
        QCOMPARE(daemon.stop(), 0);
    }

    // The bodies all connections are receiving share BODY_BUDGET: a declared body that would not
    // fit is refused (503, Retry-After) before a byte of it is read, and fits again once the
    // earlier one is answered.
    void bodiesShareABudget()
    {
        QTemporaryDir dir;
        DaemonProcess daemon;
        DaemonProcess::Options o;
        o.program = kTestDaemon;
        o.dataDir = dir.path();
        o.config = "[server]\nBODY_BUDGET = 2097152\n";
        QVERIFY2(daemon.start(o), daemon.output().constData());
        const QByteArray token = "Authorization: Bearer " + daemon.adminToken() + "\r\n";
        const qint64 big = 1536 << 10;
        std::unique_ptr<QTcpSocket> first = admittedBody(daemon.port(), eventHead(big, token + "Expect: 100-continue\r\n"));
        QVERIFY(first);
        first->write(QByteArray(1000, ' '));
        const Upload refused = upload(daemon.port(), eventHead(1 << 20, token), 0, {});
        QVERIFY2(refused.answer.startsWith("HTTP/1.1 503"), refused.answer.constData());
        QVERIFY2(refused.answer.contains("Retry-After: 1"), refused.answer.constData());
        QVERIFY2(refused.answer.contains("BODY_BUDGET"), refused.answer.constData());
        // The first body arrives and is answered (it is no JSON: 400); its bytes leave the budget.
        first->write(QByteArray(int(big - 1000), ' '));
        QByteArray answer;
        QVERIFY(eventually([&] {
            first->waitForReadyRead(1);
            return (answer += first->readAll()).contains("\r\n\r\n");
        }));
        QVERIFY2(answer.startsWith("HTTP/1.1 400"), answer.constData());
        const QByteArray body = "{\"ref\":\"refs/heads/main\"}";
        const Upload fits = upload(daemon.port(), eventHead(body.size(), token) + body, 0, {});
        QVERIFY2(!fits.answer.startsWith("HTTP/1.1 503"), fits.answer.constData());
        QCOMPARE(daemon.stop(), 0);
    }

    void runningOutOfDescriptorsNeitherSpinsNorStopsHealth()
    {
        QTemporaryDir dir;
        DaemonProcess daemon;
        DaemonProcess::Options o;
        o.program = kTestDaemon;
        o.dataDir = dir.path();
        o.config = "[server]\nHEADER_TIMEOUT = 1s\n";
        o.wrapper = {QStringLiteral("prlimit"), QStringLiteral("--nofile=128:128"), QStringLiteral("--")};
        QVERIFY2(daemon.start(o), daemon.output().constData());
        QVERIFY2(daemon.output().contains("at most"), daemon.output().constData()); // the cap follows the limit
        const int baseline = openDescriptors(daemon.pid());

        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        for (int i = 0; i < 200; ++i) {
            sockets.push_back(std::make_unique<QTcpSocket>());
            sockets.back()->connectToHost(QHostAddress::LocalHost, daemon.port());
        }
        // The flood is in: the daemon holds connections up to its cap …
        QVERIFY(eventually([&] { return openDescriptors(daemon.pid()) > baseline + 20; }, std::chrono::seconds(10)));
        // … and still answers.
        const QUrl health(daemon.baseUrl().toString() + QStringLiteral("/health"));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(http("GET", health, QByteArray()).status, 200);
        QVERIFY(openDescriptors(daemon.pid()) < 128);
        // Every silent connection is closed by the header timeout (or to make room for a newer one),
        // while the clients still hold theirs: the daemon's descriptors go back to what it had.
        // (Judged on the daemon's side: a client whose handshake the full backlog dropped believes it
        // is connected while the kernel retries — no connection the daemon could close.)
        QVERIFY(eventually([&] { return openDescriptors(daemon.pid()) <= baseline + 2; }, std::chrono::seconds(30)));
        for (const auto &socket : sockets)
            socket->abort();
        // Idle now: over a second of wall time the daemon uses a small fraction of a second of CPU.
        const qint64 ticksPerSecond = sysconf(_SC_CLK_TCK);
        const qint64 before = cpuTicks(daemon.pid());
        QTest::qWait(1000); // a measurement window, not a synchronisation
        const qint64 used = cpuTicks(daemon.pid()) - before;
        QVERIFY2(used * 5 < ticksPerSecond, qPrintable(QStringLiteral("%1 ticks of CPU in 1 s").arg(used)));
        QCOMPARE(http("GET", health, QByteArray()).status, 200);
        QCOMPARE(daemon.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestApiEdge)
#include "tst_apiedge.moc"
