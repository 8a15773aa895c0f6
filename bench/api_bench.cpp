// The admin API under load, against a test daemon process (the daemon plus 20 queues):
//
//   api_bench [--seconds N] [--connections C] [--clients K]
//
// 1. GET /api/v1/queues with keep-alive, driven by wrk (Debian's `wrk`): requests/s and latency
//    (target ≥ 5 000 req/s on 2 cores).
// 2. Stream fan-out: K WebSocket clients (default 50) on /stream for N seconds: frames each client
//    received, and for each queue-stats frame the spread between the first and the last client
//    to get it; meanwhile GET /queues latency from a separate client (the API stays responsive).

#include "benchutil.h"
#include "support/daemonprocess.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkRequest>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>
#include <QWebSocket>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>

using namespace Switchyard;
using Bench::option;
using Bench::percentile;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int seconds = option(args, "--seconds", 10);
    const int connections = option(args, "--connections", 32);
    const int clients = option(args, "--clients", 50);

    QTemporaryDir dir;
    Test::DaemonProcess daemon;
    Test::DaemonProcess::Options options;
    options.program = QStringLiteral(TEST_DAEMON_PATH);
    options.dataDir = dir.path();
    QStringList queues;
    for (int i = 0; i < 20; ++i)
        queues << QStringLiteral("queue_%1:0").arg(i);
    options.environment = {{QStringLiteral("SY_TEST_QUEUES"), queues.join(u',')}};
    if (!daemon.start(options)) {
        std::fprintf(stderr, "daemon did not start:\n%s\n", daemon.output().constData());
        return 1;
    }
    const QByteArray token = daemon.adminToken();
    const QString queuesUrl = daemon.baseUrl().toString() + QStringLiteral("/queues");

    // 1. wrk on GET /queues.
    QProcess wrk;
    wrk.setProcessChannelMode(QProcess::MergedChannels);
    wrk.start(QStringLiteral("wrk"), {QStringLiteral("-t2"), QStringLiteral("-c%1").arg(connections), QStringLiteral("-d%1s").arg(seconds),
                                      QStringLiteral("--latency"), QStringLiteral("-H"), QStringLiteral("Authorization: Bearer ") + QString::fromLatin1(token),
                                      queuesUrl});
    if (!wrk.waitForStarted(5000)) {
        std::fprintf(stderr, "wrk is not installed (apt-get install wrk)\n");
        return 1;
    }
    wrk.waitForFinished(seconds * 1000 + 30000);
    const QString report = QString::fromUtf8(wrk.readAll());
    std::printf("== GET /queues (20 queues), wrk -t2 -c%d -d%ds, keep-alive ==\n%s\n", connections, seconds, qPrintable(report));
    if (report.contains(QLatin1String("Non-2xx")))
        std::printf("WARNING: non-2xx answers\n");

    // 2. Stream fan-out.
    struct Client
    {
        std::unique_ptr<QWebSocket> socket;
        int frames = 0;
    };
    std::vector<Client> fans(static_cast<std::size_t>(clients));
    std::map<int, std::pair<qint64, qint64>> arrival; // frame number → first, last arrival (ns)
    QElapsedTimer clock;
    clock.start();
    QUrl streamUrl(daemon.baseUrl().toString().replace(QStringLiteral("http"), QStringLiteral("ws")) + QStringLiteral("/stream"));
    int open = 0;
    for (Client &fan : fans) {
        fan.socket = std::make_unique<QWebSocket>();
        QNetworkRequest request(streamUrl);
        request.setRawHeader("Authorization", "Bearer " + token);
        QObject::connect(fan.socket.get(), &QWebSocket::connected, [&open] { ++open; });
        Client *self = &fan;
        QObject::connect(fan.socket.get(), &QWebSocket::textMessageReceived, [self, &arrival, &clock](const QString &frame) {
            if (!frame.startsWith(QLatin1String("queue-stats\n")))
                return;
            const int number = self->frames++;
            const qint64 now = clock.nsecsElapsed();
            auto [it, inserted] = arrival.try_emplace(number, now, now);
            if (!inserted)
                it->second.second = std::max(it->second.second, now);
        });
        fan.socket->open(request);
    }
    QEventLoop loop;
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (open == clients)
            loop.quit();
    });
    poll.start();
    loop.exec();
    poll.stop();
    std::printf("== stream fan-out: %d of %d WebSocket clients connected ==\n", open, clients);

    // While they listen: GET /queues latency, one request after the other.
    std::vector<double> latencies;
    QElapsedTimer window;
    window.start();
    while (window.elapsed() < seconds * 1000) {
        QElapsedTimer one;
        one.start();
        const Test::HttpResult r = Test::http("GET", QUrl(queuesUrl), token);
        if (r.status != 200) {
            std::fprintf(stderr, "GET /queues answered %d\n", r.status);
            return 1;
        }
        latencies.push_back(double(one.nsecsElapsed()) / 1e6);
        QEventLoop pause;
        QTimer::singleShot(20, &pause, &QEventLoop::quit);
        pause.exec();
    }
    std::vector<double> spreads;
    for (const auto &[number, times] : arrival)
        if (number > 0) // the first frame races the connections themselves
            spreads.push_back(double(times.second - times.first) / 1e6);
    int minFrames = INT_MAX, maxFrames = 0;
    for (const Client &fan : fans) {
        minFrames = std::min(minFrames, fan.frames);
        maxFrames = std::max(maxFrames, fan.frames);
    }
    std::printf("queue-stats frames per client in %d s: min %d, max %d\n", seconds, minFrames, maxFrames);
    std::printf("spread first→last client per frame: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu frames)\n",
                percentile(spreads, 0.5), percentile(spreads, 0.99), spreads.empty() ? 0.0 : *std::max_element(spreads.begin(), spreads.end()),
                spreads.size());
    std::printf("GET /queues meanwhile (sequential, %zu requests): p50 %.2f ms, p99 %.2f ms\n", latencies.size(),
                percentile(latencies, 0.5), percentile(latencies, 0.99));
    for (Client &fan : fans)
        fan.socket->close();
    daemon.stop();
    return 0;
}
