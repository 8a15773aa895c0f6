// Webhook delivery: what the history, the claim and the queue cost next to sending the same signed
// POSTs by hand. Three figures, each beside its same-run peer:
//   1. deliveries/s through WebhookService (SQLite history, the webhook_sender queue with its
//      default one worker and batch of one) against a loop that signs and POSTs the same payload
//      to the same receiver, one at a time, with QNetworkAccessManager — the ratio is the figure;
//   2. enqueue → delivered latency (p50, p95) at a steady rate (default 100 events/s);
//   3. a fast receiver's deliveries/s next to a hanging one, against the same alone;
//   4. resident memory across one delivery answered by a 1 GiB body;
//   5. the history search: filters on --search-rows tasks (default 1 000 000) and text (`q`) on
//      the first tenth of them, each against a COUNT(*) of the whole table in the same run.
// The receiver is the tests' loopback HttpReceiver (one request per connection, as deliveries are).
//
//   webhook_bench [--deliveries N] [--rate R] [--seconds S] [--search-rows N]
//                 (defaults 2000, 100, 5, 1000000; --search-rows 0 skips 5)
#include "benchutil.h"
#include "hookhistory.h"

#include "engine/engine.h"
#include "engine/store/store.h"
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

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

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

// The receiver's own ceiling: one kept connection, a request written and its answer read with
// blocking socket calls, one at a time — no HTTP library in between.
double rawKeptLoop(const Test::HttpReceiver &receiver, int n, const QByteArray &body)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(receiver.port());
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return 0;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    const QByteArray request = "POST /raw HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Hub-Signature-256: sha256="
                               + hmacSha256Hex("s3cret", body) + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    QElapsedTimer timer;
    timer.start();
    char buffer[4096];
    for (int i = 0; i < n; ++i) {
        if (::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL) != ssize_t(request.size()))
            break;
        QByteArray answer;
        qsizetype end = -1;
        qsizetype length = 0;
        while (end < 0 || answer.size() < end + 4 + length) {
            const ssize_t got = ::recv(fd, buffer, sizeof(buffer), 0);
            if (got <= 0) {
                ::close(fd);
                return 0;
            }
            answer.append(buffer, got);
            if (end < 0 && (end = answer.indexOf("\r\n\r\n")) >= 0) {
                const qsizetype at = answer.indexOf("Content-Length: ");
                length = at >= 0 ? answer.mid(at + 16, answer.indexOf('\r', at) - at - 16).toLongLong() : 0;
            }
        }
    }
    ::close(fd);
    return n / (double(timer.nsecsElapsed()) / 1e9);
}

// CPU time (all threads, the receiver's included) per item while `run` moves `n` items, in µs.
template<typename Run>
double cpuPerItem(int n, double &rate, Run run)
{
    const qint64 before = Bench::cpuMicros();
    rate = run();
    return double(Bench::cpuMicros() - before) / std::max(n, 1);
}

// `n` push events through the engine until the queue is flushed and every one is recorded as
// delivered: events per second, or 0 when they did not all succeed.
double pushesDelivered(Engine &engine, int n, const QByteArray &body)
{
    TaskFilter succeeded;
    succeeded.outcome = TaskOutcome::Succeeded;
    const qint64 before = engine.webhooks().count(succeeded).valueOr(0);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < n; ++i)
        engine.webhooks().prepare(CancelToken(), {1, 1}, HookEventType::Push, body, QStringLiteral("refs/heads/main"), {});
    if (!engine.queues().flushAll(CancelToken(), 600s)) {
        std::fprintf(stderr, "deliveries did not finish\n");
        return 0;
    }
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    // Every one recorded as delivered: a delivery the engine put off would flatter the rate.
    if (const qint64 done = engine.webhooks().count(succeeded).valueOr(0) - before; done != n) {
        std::fprintf(stderr, "only %lld of %d deliveries had succeeded when the flush returned\n", static_cast<long long>(done), n);
        return 0;
    }
    return n / seconds;
}

// Waits until `hookId` has `n` ended deliveries; the seconds that took, or -1 after `bound`.
double secondsUntilEnded(WebhookService &hooks, qint64 hookId, qint64 n, std::chrono::seconds bound)
{
    QElapsedTimer timer;
    timer.start();
    TaskFilter ended;
    ended.hookId = hookId;
    ended.outcome = TaskOutcome::Succeeded;
    while (hooks.count(ended).valueOr(0) < n) {
        if (timer.elapsed() > std::chrono::milliseconds(bound).count())
            return -1;
        std::this_thread::sleep_for(2ms); // a benchmark's poll
    }
    return double(timer.nsecsElapsed()) / 1e9;
}

// The median of `rounds` runs of `query`, in milliseconds.
double medianMs(int rounds, const std::function<void()> &query)
{
    std::vector<double> ms;
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        query();
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return Bench::percentile(ms, 0.5);
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
    double plain = 0, delivered = 0;
    const double plainCpu = cpuPerItem(n, plain, [&] { return plainLoop(receiver, n, body); });
    const double deliveredCpu = cpuPerItem(n, delivered, [&] { return pushesDelivered(engine, n, body); });
    if (delivered <= 0)
        return 1;
    TaskFilter failed;
    failed.outcome = TaskOutcome::Failed;
    const qint64 failures = engine.webhooks().tasks(failed)->total;
    std::printf("deliveries/s with history (SQLite): %.0f   plain signed POST loop: %.0f   ratio %.0f %%   (%d deliveries, %lld failed)\n"
                "  CPU per delivery (every thread, the receiver's too): %.0f µs   the plain loop: %.0f µs\n",
                delivered, plain, 100 * delivered / plain, n, static_cast<long long>(failures), deliveredCpu, plainCpu);

    // 1b. The same against a receiver that keeps its connections (as one behind a web server).
    {
        Test::HttpReceiver kept;
        kept.setKeepAlive(true);
        Hook reused = hook;
        reused.url = QString::fromLatin1(kept.url("/hook"));
        Hook first = *engine.webhooks().get(1);
        first.active = false; // the first receiver's hook sits this one out
        const Result<Hook> keptHook = engine.webhooks().create(reused);
        if (!keptHook || !engine.webhooks().update(first))
            return 1;
        double plainKept = 0, deliveredKept = 0;
        const double plainKeptCpu = cpuPerItem(n, plainKept, [&] { return plainLoop(kept, n, body); });
        const double raw = rawKeptLoop(kept, n, body);
        const double deliveredKeptCpu = cpuPerItem(n, deliveredKept, [&] { return pushesDelivered(engine, n, body); });
        if (deliveredKept <= 0)
            return 1;
        std::printf("… to a receiver that keeps its connections: %.0f/s   plain signed POST loop: %.0f/s   ratio %.0f %%   "
                    "(the receiver's ceiling, raw sockets one at a time: %.0f/s)\n"
                    "  CPU per delivery: %.0f µs   the plain loop: %.0f µs\n",
                    deliveredKept, plainKept, 100 * deliveredKept / plainKept, raw, deliveredKeptCpu, plainKeptCpu);
        first.active = true;
        engine.webhooks().remove(keptHook->id);
        engine.webhooks().update(first);
    }

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

    // 3. A fast receiver alone, then next to one that never answers (both get every event).
    using How = Test::HttpReceiver::Misbehaviour;
    receiver.misbehave("/hang", How::Hang);
    receiver.misbehave("/huge", How::Huge);
    if (!engine.webhooks().update([&] {
            Hook off = *engine.webhooks().get(1);
            off.active = false;
            return off;
        }()))
        return 1;
    Hook fast;
    fast.repoId = 0;
    fast.isSystem = true;
    fast.url = QString::fromLatin1(receiver.url("/fast"));
    fast.events.pushOnly = true;
    const qint64 fastId = engine.webhooks().create(fast)->id;
    const int side = std::max(50, n / 40);
    for (int i = 0; i < side; ++i)
        engine.webhooks().prepare(CancelToken(), {1, 1}, HookEventType::Push, body, QStringLiteral("refs/heads/main"), {});
    const double alone = secondsUntilEnded(engine.webhooks(), fastId, side, 300s);
    Hook hanging = fast;
    hanging.url = QString::fromLatin1(receiver.url("/hang"));
    const qint64 hangId = engine.webhooks().create(hanging)->id;
    for (int i = 0; i < side; ++i)
        engine.webhooks().prepare(CancelToken(), {1, 1}, HookEventType::Push, body, QStringLiteral("refs/heads/main"), {});
    const double beside = secondsUntilEnded(engine.webhooks(), fastId, 2 * side, 600s);
    std::printf("fast receiver: %.0f deliveries/s alone, %.1f/s next to a hanging one (%.1f %%; target >= 80 %%)%s\n", side / alone,
                beside > 0 ? side / beside : 0.0, beside > 0 ? 100 * alone / beside : 0.0, beside < 0 ? " -- gave up after 600 s" : "");
    engine.webhooks().remove(hangId);
    engine.webhooks().remove(fastId);
    engine.queues().flushAll(CancelToken(), 120s);

    // 4. One answer of a gigabyte: what it costs in memory.
    Hook huge = fast;
    huge.url = QString::fromLatin1(receiver.url("/huge"));
    const qint64 hugeId = engine.webhooks().create(huge)->id;
    const qint64 rssHuge = Bench::residentKiB();
    engine.webhooks().test(CancelToken(), hugeId);
    engine.queues().flushAll(CancelToken(), 120s);
    std::printf("1 GiB answer: resident memory %+lld KiB (target < +10 MiB); the receiver sent %lld MiB before the reader stopped\n",
                static_cast<long long>(Bench::residentKiB() - rssHuge), static_cast<long long>(receiver.hugeBytesSent() >> 20));
    engine.webhooks().remove(hugeId);

    // 5. The history search.
    const int searchRows = Bench::option(args, "--search-rows", 1'000'000);
    if (searchRows > 0) {
        const qint64 tenth = searchRows / 10;
        if (!Bench::fillHistory(engine.store(), 0, tenth, 100))
            return 1;
        TaskFilter text;
        text.text = QStringLiteral("bad gateway 50457"); // one failed delivery's response
        const auto countAll = [&] {
            (void)engine.store().readValue<qint64>([](SqlTransaction &tx) { return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM hook_task")); });
        };
        qint64 textMatched = -1;
        const double textMs = medianMs(3, [&] { textMatched = engine.webhooks().tasks(text).valueOr(TaskPage{{}, -1}).total; });
        const double countTenth = medianMs(3, countAll);
        if (!Bench::fillHistory(engine.store(), tenth, searchRows, 100))
            return 1;
        TaskFilter filters;
        filters.hookId = 103;
        filters.outcome = TaskOutcome::Failed;
        filters.event = HookEventType::Push;
        filters.since = QDateTime::currentDateTimeUtc().addDays(-7);
        TaskFilter byStatus;
        byStatus.outcome = TaskOutcome::Unknown;
        qint64 filterMatched = -1;
        qint64 statusMatched = -1;
        const double filterMs = medianMs(5, [&] { filterMatched = engine.webhooks().tasks(filters).valueOr(TaskPage{{}, -1}).total; });
        const double statusMs = medianMs(5, [&] { statusMatched = engine.webhooks().tasks(byStatus).valueOr(TaskPage{{}, -1}).total; });
        const double countAllMs = medianMs(3, countAll);
        std::printf("search on %lld tasks (page 1 and the total): hook+status+event+7 days %.2f ms (%lld match), status only %.2f ms (%lld match) "
                    "(target < 100 ms); COUNT(*) of the table %.1f ms\n",
                    static_cast<long long>(searchRows), filterMs, static_cast<long long>(filterMatched), statusMs,
                    static_cast<long long>(statusMatched), countAllMs);
        std::printf("text search (q) on %lld tasks: %.1f ms, %lld match (target < 2 s); COUNT(*) of the table %.1f ms\n",
                    static_cast<long long>(tenth), textMs, static_cast<long long>(textMatched), countTenth);
    }
    engine.shutdown();
    return 0;
}
