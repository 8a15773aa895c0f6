// The admin API under load, against a test daemon process (the daemon plus 20 queues and 50
// user cron tasks):
//
//   api_bench [--seconds N] [--connections C] [--clients K] [--rounds R]
//
// 1. Lists with keep-alive, driven by wrk (Debian's `wrk`), each beside its ceiling measured in
//    the same run: a bare QHttpServer in this process answering a fixed body of the same size;
//    R rounds (3) alternating which goes first, medians compared.
//    GET /queues (20 queues, answered from the snapshot; target ≥ 5 000 req/s on 2 cores) and
//    GET /cron?limit=50 (50 rows read from the engine and encoded on every request; target ≥ 25 %
//    of its ceiling).
// 2. Stream fan-out: K WebSocket clients (default 50) on /stream for N seconds: frames each client
//    received, and for each queue-stats frame the spread between the first and the last client
//    to get it; meanwhile GET /queues latency from a separate client (the API stays responsive).

#include "benchutil.h"
#include "support/daemonprocess.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QNetworkRequest>
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
using Bench::runWrk;
using Bench::WrkFigures;

namespace {

// The ceiling for an answer of `body`'s size: QHttpServer on this thread answering it as is.
class BareServer
{
public:
    explicit BareServer(const QByteArray &body)
    {
        m_server.route(QStringLiteral("/bare"), [body] { return QHttpServerResponse(QByteArrayLiteral("application/json"), body); });
        m_port = m_server.listen(QHostAddress::LocalHost, 0);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/bare").arg(m_port); }

private:
    QHttpServer m_server;
    quint16 m_port = 0;
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int seconds = option(args, "--seconds", 10);
    const int connections = option(args, "--connections", 32);
    const int clients = option(args, "--clients", 50);
    const int rounds = std::max(1, option(args, "--rounds", 3));

    QTemporaryDir dir;
    Test::DaemonProcess daemon;
    Test::DaemonProcess::Options options;
    options.program = QStringLiteral(TEST_DAEMON_PATH);
    options.dataDir = dir.path();
    QStringList queues;
    for (int i = 0; i < 20; ++i)
        queues << QStringLiteral("queue_%1:0").arg(i);
    options.environment = {{QStringLiteral("SY_TEST_QUEUES"), queues.join(u',')}};
    for (int i = 0; i < 50; ++i)
        options.config += QStringLiteral("[cron.bench_task_%1]\nCOMMAND = /bin/true\nSCHEDULE = @every %2h\nTITLE = Bench task %1\n\n")
                              .arg(i, 2, 10, QLatin1Char('0'))
                              .arg(i + 1)
                              .toUtf8();
    if (!daemon.start(options)) {
        std::fprintf(stderr, "daemon did not start:\n%s\n", daemon.output().constData());
        return 1;
    }
    const QByteArray token = daemon.adminToken();
    const QString queuesUrl = daemon.baseUrl().toString() + QStringLiteral("/queues");

    // 1. Lists beside a bare server answering the same number of bytes.
    struct List
    {
        const char *what;
        QString url;
    };
    const List lists[] = {{"GET /queues (20 queues, from the snapshot)", queuesUrl},
                          {"GET /cron?limit=50 (50 rows, uncached)", daemon.baseUrl().toString() + QStringLiteral("/cron?limit=50")}};
    for (const List &list : lists) {
        const Test::HttpResult sample = Test::http("GET", QUrl(list.url), token);
        if (sample.status != 200) {
            std::fprintf(stderr, "%s answered %d\n", list.what, sample.status);
            return 1;
        }
        BareServer bare(sample.body);
        const QStringList common{QStringLiteral("-t2"), QStringLiteral("-c%1").arg(connections), QStringLiteral("-d%1s").arg(seconds),
                                 QStringLiteral("--latency")};
        // Three rounds, alternating which goes first (the machine's mood changes by the second):
        // the medians are compared.
        std::vector<WrkFigures> apis, ceilings;
        for (int round = 0; round < rounds; ++round) {
            const auto runApi = [&] {
                apis.push_back(runWrk(common + QStringList{QStringLiteral("-H"), QStringLiteral("Authorization: Bearer ") + QString::fromLatin1(token), list.url},
                                      seconds));
            };
            if (round % 2 == 1)
                runApi();
            ceilings.push_back(runWrk(common + QStringList{bare.url()}, seconds));
            if (round % 2 == 0)
                runApi();
        }
        const auto median = [](std::vector<WrkFigures> runs) {
            std::sort(runs.begin(), runs.end(), [](const WrkFigures &a, const WrkFigures &b) { return a.requestsPerSecond < b.requestsPerSecond; });
            return runs[runs.size() / 2];
        };
        const WrkFigures api = median(apis);
        const WrkFigures ceiling = median(ceilings);
        std::printf("== %s, %lld-byte answer, wrk -t2 -c%d -d%ds, keep-alive, median of %d rounds ==\n", list.what,
                    qlonglong(sample.body.size()), connections, seconds, rounds);
        std::printf("admin API      %8.0f req/s  p99 %s\n", api.requestsPerSecond, qPrintable(api.p99));
        std::printf("bare server    %8.0f req/s  p99 %s   (ceiling: QHttpServer answering the same bytes, this process)\n",
                    ceiling.requestsPerSecond, qPrintable(ceiling.p99));
        std::printf("ratio          %8.1f %%\n\n", ceiling.requestsPerSecond > 0 ? 100.0 * api.requestsPerSecond / ceiling.requestsPerSecond : 0);
        if (api.report.contains(QLatin1String("Non-2xx")))
            std::printf("WARNING: non-2xx answers:\n%s\n", qPrintable(api.report));
    }

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
