// Webhook delivery: what the history, the claim and the queue cost next to sending the same signed
// POSTs by hand. Three figures, each beside its same-run peer:
//   1. deliveries/s through WebhookService (SQLite history, the webhook_sender queue with its
//      default one worker and batch of one) against a loop that signs and POSTs the same payload
//      to the same receiver, one at a time, with QNetworkAccessManager — the ratio is the figure;
//   2. enqueue → delivered latency (p50, p95) at a steady rate (default 100 events/s);
//   3. resident memory before and after.
// The receiver is the tests' loopback HttpReceiver (one request per connection, as deliveries are).
//
//   webhook_bench [--deliveries N] [--rate R] [--seconds S]   (defaults 2000, 100, 5)
#include "benchutil.h"

#include "engine/engine.h"
#include "engine/webhook/webhook.h"

#include "support/httpreceiver.h"
#include "support/testutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <thread>

using namespace Switchyard;
using namespace Switchyard::Webhook;
using namespace std::chrono_literals;

namespace {

QByteArray payload()
{
    QByteArray body = R"({"ref":"refs/heads/main","before":"0000","after":"1111","commits":[)";
    for (int i = 0; i < 3; ++i)
        body += (i ? "," : "") + QByteArray(R"({"id":"abcdef0123456789","message":"a commit message of some length","url":"https://git.example.com/c"})");
    return body + R"(],"repository":{"id":1,"full_name":"alice/engine"},"sender":{"id":1,"login":"alice"}})";
}

// The peer: sign and POST by hand, one at a time.
double plainLoop(Test::HttpReceiver &receiver, int n, const QByteArray &body)
{
    QNetworkAccessManager network;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < n; ++i) {
        QNetworkRequest request(QUrl(QString::fromLatin1(receiver.url("/plain"))));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        request.setRawHeader("X-Hub-Signature-256", "sha256=" + hmacSha256Hex("s3cret", body));
        request.setRawHeader("X-Hub-Signature", "sha1=" + hmacSha1Hex("s3cret", body));
        QNetworkReply *reply = network.post(request, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        reply->readAll();
        reply->deleteLater();
    }
    return n / (double(timer.nsecsElapsed()) / 1e9);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int n = Bench::option(args, "--deliveries", 2000);
    const int rate = Bench::option(args, "--rate", 100);
    const int seconds = Bench::option(args, "--seconds", 5);
    const QByteArray body = payload();
    const qint64 rssBefore = Bench::residentKiB();

    Test::HttpReceiver receiver;
    QTemporaryDir dir;
    const QByteArray ini = "[webhook]\nALLOWED_HOST_LIST = loopback\n" + qgetenv("WEBHOOK_BENCH_INI").replace("\\n", "\n");
    Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
    if (!started) {
        std::fprintf(stderr, "engine: %s\n", qPrintable(started.status().message()));
        return 1;
    }
    Engine &engine = **started;
    Hook hook;
    hook.isSystem = true;
    hook.url = QString::fromLatin1(receiver.url("/hook"));
    hook.secret = QStringLiteral("s3cret");
    hook.events.pushOnly = true;
    if (!engine.webhooks().create(hook)) {
        std::fprintf(stderr, "hook not created\n");
        return 1;
    }

    // 1. Throughput, with the peer measured just before.
    const double plain = plainLoop(receiver, n, body);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < n; ++i)
        engine.webhooks().prepare(CancelToken(), {1, 1}, HookEventType::Push, body, QStringLiteral("refs/heads/main"), {});
    if (!engine.queues().flushAll(CancelToken(), 600s)) {
        std::fprintf(stderr, "deliveries did not finish\n");
        return 1;
    }
    const double delivered = n / (double(timer.nsecsElapsed()) / 1e9);
    TaskFilter failed;
    failed.outcome = TaskOutcome::Failed;
    const qint64 failures = engine.webhooks().tasks(failed)->total;
    std::printf("deliveries/s with history (SQLite): %.0f   plain signed POST loop: %.0f   ratio %.0f %%   (%d deliveries, %lld failed)\n",
                delivered, plain, 100 * delivered / plain, n, static_cast<long long>(failures));

    // 2. Latency at a steady rate: created → delivered, from the history.
    const int events = rate * seconds;
    const auto gap = std::chrono::microseconds(1'000'000 / std::max(rate, 1));
    auto next = std::chrono::steady_clock::now();
    for (int i = 0; i < events; ++i) {
        std::this_thread::sleep_until(next); // a paced producer (a benchmark, not a test)
        next += gap;
        engine.webhooks().prepare(CancelToken(), {1, 1}, HookEventType::Push, body, QStringLiteral("refs/heads/main"), {});
    }
    engine.queues().flushAll(CancelToken(), 120s);
    std::vector<double> ms;
    TaskFilter newest;
    newest.limit = 500;
    for (qint64 page = 1; qint64(ms.size()) < events; ++page) {
        newest.page = page;
        const Result<TaskPage> rows = engine.webhooks().tasks(newest);
        if (!rows || rows->rows.empty())
            break;
        for (const HookTask &t : rows->rows)
            if (qint64(ms.size()) < events && t.deliveredNs > 0)
                ms.push_back(double(t.deliveredNs) / 1e6 - double(t.created.toMSecsSinceEpoch()));
    }
    std::printf("enqueue → delivered at %d/s for %d s: p50 %.1f ms, p95 %.1f ms, p99 %.1f ms (target p95 < 250 ms)\n", rate, seconds,
                Bench::percentile(ms, 0.5), Bench::percentile(ms, 0.95), Bench::percentile(ms, 0.99));
    std::printf("resident memory: %lld KiB before, %lld KiB after %d deliveries\n", static_cast<long long>(rssBefore),
                static_cast<long long>(Bench::residentKiB()), n + events);
    engine.shutdown();
    return 0;
}
