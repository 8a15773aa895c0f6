// The console under load: 200 queues, 100 cron tasks, 100 held locks and 10 000 notices, live
// updates every second, while one queue handles ≥ 100 000 items/s in the same process and forge
// events are ingested at 200/s (the Notifications page's live feed), and one webhook has a history
// of 100 000 deliveries (the Webhooks page, shown from 16 s on: run 24 s or more to see it).
//
//   QT_QPA_PLATFORM=offscreen console_bench [--seconds N] [--events-per-second E] [--slow-events MS]
//
// Reports the first paint (window created → the Queues table painted with all 200 rows), the GUI
// thread's event-loop stall (lateness of a 5 ms timer: p50/p99/max, target p99 < 16 ms) while the
// pages are switched every 2 s — overall and while the Notifications page was shown — the hot
// queue's throughput, the events ingested and the resident memory.

#include "benchutil.h"
#include "hookhistory.h"
#include "admin/localbackend.h"
#include "app/mainwindow.h"
#include "engine/events/events.h"
#include "models/noticemodel.h"
#include "models/notificationmodels.h"
#include "models/queuemodel.h"
#include "pages/noticespage.h"
#include "pages/notificationspage.h"
#include "pages/page.h"
#include "pages/queuespage.h"
#include "pages/webhookspage.h"
#include "models/webhookmodels.h"
#include "engine/webhook/webhook.h"

#include "support/testutil.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

using namespace Switchyard;
using Bench::percentile;
using Bench::residentKiB;
using namespace std::chrono_literals;

namespace {

// Counts paints of a widget.
class PaintWatch : public QObject
{
public:
    std::function<void()> onPaint;
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && onPaint)
            onPaint();
        return false;
    }
};

// With --slow-events MS: prints each event the GUI thread took longer than MS to deliver (the
// outermost delivery only), with its receiver and type, to find what a stall was made of.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    double slowMs = -1;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (slowMs < 0 || m_depth > 0)
            return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer timer;
        timer.start();
        const int type = event->type();
        const bool result = QApplication::notify(receiver, event);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        --m_depth;
        if (ms >= slowMs)
            std::fprintf(stderr, "slow event at %.1f ms: %.1f ms, type %d, to %s \"%s\"\n", double(m_clock.nsecsElapsed()) / 1e6 - ms, ms, type,
                         receiver->metaObject()->className(),
                         qPrintable(receiver->objectName()));
        return result;
    }

private:
    int m_depth = 0;
    QElapsedTimer m_clock = [] {
        QElapsedTimer clock;
        clock.start();
        return clock;
    }();
};

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_LOGGING_RULES", "switchyard.*.info=false");
    TimedApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int seconds = 20;
    const QStringList args = app.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--seconds")); i >= 0 && i + 1 < args.size())
        seconds = args[i + 1].toInt();
    const int eventsPerSecond = Bench::option(args, "--events-per-second", 200);
    app.slowMs = Bench::option(args, "--slow-events", -1);

    QTemporaryDir dir;
    const QByteArray ini = "[server]\nGRACEFUL_HAMMER_TIME = 5s\n[queue]\nTYPE = channel\nBATCH_LENGTH = 100\nLENGTH = 1000000\n[queue.hot]\nMAX_WORKERS = 2\n";
    Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
    if (!started) {
        std::fprintf(stderr, "engine: %s\n", qPrintable(started.status().toString()));
        return 1;
    }
    Engine &engine = **started;
    for (int i = 0; i < 199; ++i)
        engine.queues().createPool(CancelToken(), QStringLiteral("queue-%1").arg(i, 3, 10, QLatin1Char('0')), false,
                                   [](std::vector<QByteArray> &) { return RawBatchResult{}; });
    std::shared_ptr<WorkerPool> hot =
        *engine.queues().createPool(CancelToken(), QStringLiteral("hot"), false, [](std::vector<QByteArray> &) { return RawBatchResult{}; });
    for (int i = 0; i < 100; ++i) {
        CronTaskDefinition task;
        task.name = QStringLiteral("task_%1").arg(i);
        task.title = QStringLiteral("Benchmark task %1").arg(i);
        task.defaults.schedule = QStringLiteral("%1 3 * * *").arg(i % 60);
        task.run = [](const CronRunContext &) -> Result<QString> { return QStringLiteral("done"); };
        engine.cron().registerTask(std::move(task));
    }
    std::vector<LockGuard> locks;
    for (int i = 0; i < 100; ++i)
        locks.push_back(engine.locker().tryLock(CancelToken(), QStringLiteral("repo:%1:archive").arg(i)).value());
    for (int i = 0; i < 10000; ++i)
        engine.notices().add(QStringLiteral("cron"), QStringLiteral("Cron task task_%1 failed: benchmark notice").arg(i % 100));
    // One webhook with a history of 100 000 deliveries (the Webhooks page's history pane).
    Webhook::Hook hook;
    hook.isSystem = true;
    hook.url = QStringLiteral("http://127.0.0.1:9/never");
    hook.active = false;
    hook.events.pushOnly = true;
    const qint64 hookId = engine.webhooks().create(hook).value().id;
    if (!Bench::fillHistory(engine.store(), 0, 100'000, hookId, 1))
        return 1;

    // The hot queue: one producer pushing batches of 1 000 as fast as the queue takes them.
    std::atomic<bool> stop{false};
    std::thread producer([&] {
        std::vector<QByteArray> batch(1000, QByteArray("{\"repo\":42,\"event\":\"push\"}"));
        while (!stop.load())
            hot->pushMany(CancelToken(), batch);
    });

    // Forge events at a steady rate: a push to one of 20 repositories, as a forge's webhook would
    // send it (each is stored, processed, and shown in the Notifications page's feed).
    std::atomic<qint64> ingested{0};
    std::thread feeder([&] {
        const auto period = std::chrono::nanoseconds(1'000'000'000 / std::max(1, eventsPerSecond));
        auto due = std::chrono::steady_clock::now();
        for (qint64 n = 0; !stop.load(); ++n) {
            const QJsonObject sender{{QStringLiteral("id"), 2}, {QStringLiteral("login"), QStringLiteral("bob")}};
            const QJsonObject repo{{QStringLiteral("id"), 10 + n % 20}, {QStringLiteral("name"), QStringLiteral("repo%1").arg(n % 20)},
                                   {QStringLiteral("full_name"), QStringLiteral("alice/repo%1").arg(n % 20)},
                                   {QStringLiteral("owner"), QJsonObject{{QStringLiteral("id"), 1}, {QStringLiteral("login"), QStringLiteral("alice")}}}};
            IncomingEvent in;
            in.event = QStringLiteral("push");
            in.byToken = true;
            in.payload = QJsonDocument(QJsonObject{{QStringLiteral("ref"), QStringLiteral("refs/heads/main")},
                                                   {QStringLiteral("before"), QString(40, u'0')},
                                                   {QStringLiteral("after"), QStringLiteral("%1").arg(n, 40, 16, QLatin1Char('0'))},
                                                   {QStringLiteral("commits"), QJsonArray()},
                                                   {QStringLiteral("repository"), repo},
                                                   {QStringLiteral("pusher"), sender},
                                                   {QStringLiteral("sender"), sender}})
                             .toJson(QJsonDocument::Compact);
            if (engine.events().accept(CancelToken(), in))
                ++ingested;
            due += period;
            std::this_thread::sleep_until(due);
        }
    });

    Admin::LocalBackend backend(std::move(started).value());
    QElapsedTimer sinceStart;
    sinceStart.start();
    Console::MainWindow window(backend);
    window.resize(1280, 800);
    window.showPage(QStringLiteral("queues"));
    qint64 firstPaintMs = -1;
    PaintWatch watch;
    watch.onPaint = [&] {
        if (firstPaintMs < 0 && window.page<Console::QueuesPage>(QStringLiteral("queues"))->model().rowCount() >= 200)
            firstPaintMs = sinceStart.elapsed();
    };
    window.page<Console::QueuesPage>(QStringLiteral("queues"))->view()->viewport()->installEventFilter(&watch);
    window.show();

    // The stall probe: a 5 ms timer; lateness beyond its interval is time the loop could not run.
    std::vector<double> lateness;
    double worst = 0;
    double worstAfterStart = 0; // after the first 2 s, when the initial lists have been applied
    double worstAtStart = 0;    // in the first 2 s: start-up, 10 000 notices read and shown
    std::vector<double> feedLateness; // while the Notifications page (the live feed) was shown
    std::vector<double> historyLateness; // while the Webhooks page was shown
    QString worstAt; // the page shown when the worst stall ended
    QElapsedTimer probeClock;
    probeClock.start();
    qint64 last = probeClock.nsecsElapsed();
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = probeClock.nsecsElapsed();
        lateness.push_back(std::max(0.0, double(now - last) / 1e6 - 5.0));
        if (probeClock.elapsed() > 2000)
            worstAfterStart = std::max(worstAfterStart, lateness.back());
        else
            worstAtStart = std::max(worstAtStart, lateness.back());
        if (window.currentPage() && window.currentPage()->id() == QLatin1String("notifications"))
            feedLateness.push_back(lateness.back());
        if (window.currentPage() && window.currentPage()->id() == QLatin1String("webhooks"))
            historyLateness.push_back(lateness.back());
        if (lateness.back() > worst) {
            worst = lateness.back();
            worstAt = window.currentPage() ? window.currentPage()->id() : QString();
        }
        last = now;
    });
    probe.start();

    // Switch pages every 2 s, as an operator would.
    const QStringList pages{QStringLiteral("queues"), QStringLiteral("cron"), QStringLiteral("locks"), QStringLiteral("notices"),
                            QStringLiteral("overview"), QStringLiteral("cache"), QStringLiteral("processes"), QStringLiteral("notifications"),
                            QStringLiteral("webhooks")};
    int next = 0;
    QTimer switcher;
    // The Webhooks page: how long its first page of deliveries takes to show, then the list is
    // scrolled to its end every 100 ms (each end reads the next 100 rows) while it is shown.
    auto *webhooks = window.page<Console::WebhooksPage>(QStringLiteral("webhooks"));
    QElapsedTimer webhooksShown;
    qint64 firstRowsMs = -1;
    QTimer historyScroll;
    QObject::connect(&historyScroll, &QTimer::timeout, [&] {
        if (firstRowsMs < 0 && webhooks->tasks().rowCount() > 0)
            firstRowsMs = webhooksShown.elapsed();
        if (window.currentPage() == webhooks)
            webhooks->taskView()->scrollToBottom();
    });
    historyScroll.start(100);
    QObject::connect(&switcher, &QTimer::timeout, [&] {
        const QString page = pages[++next % pages.size()];
        if (page == QLatin1String("webhooks") && !webhooksShown.isValid())
            webhooksShown.start();
        window.showPage(page);
    });
    switcher.start(2000);

    const qint64 handledBefore = hot->stats().handledTotal;
    QElapsedTimer run;
    run.start();
    // At the end the operator closes the window: that stops the backend and shuts the engine down
    // (the stream stops first, so the figures below are read from a quiet engine).
    QElapsedTimer closing;
    double elapsedAtClose = 0;
    qint64 handledAtClose = 0;
    QTimer::singleShot(seconds * 1000, &window, [&] {
        elapsedAtClose = double(run.elapsed()) / 1000.0;
        handledAtClose = hot->stats().handledTotal;
        stop = true;
        feeder.join(); // the producers stop before the engine does
        closing.start();
        window.close();
    });
    QObject::connect(&backend, &Admin::AdminBackend::closed, &app, &QCoreApplication::quit);
    app.exec();
    const qint64 closeMs = closing.elapsed();
    const double elapsed = elapsedAtClose;
    const qint64 handled = handledAtClose - handledBefore;
    const qint64 rss = residentKiB();
    const int noticeRows = window.page<Console::NoticesPage>(QStringLiteral("notices"))->model().rowCount();
    const int eventRows = window.page<Console::NotificationsPage>(QStringLiteral("notifications"))->events().rowCount();
    stop = true;
    producer.join();
    probe.stop();
    switcher.stop();

    std::printf("console_bench: 200 queues, 100 cron tasks, 100 locks, %d notices shown, %d s\n", noticeRows, seconds);
    std::printf("first paint (Queues table with 200 rows): %lld ms\n", static_cast<long long>(firstPaintMs));
    std::printf("event-loop stall (5 ms timer lateness, %zu samples): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
                lateness.size(), percentile(lateness, 0.5), percentile(lateness, 0.99),
                lateness.empty() ? 0.0 : *std::max_element(lateness.begin(), lateness.end()));
    std::printf("worst stall while showing: %s; worst after the first 2 s: %.2f ms\n", qPrintable(worstAt), worstAfterStart);
    std::printf("start-up (the first 2 s: every page read, %d notices shown): worst stall %.2f ms (target < 50 ms)\n", noticeRows, worstAtStart);
    std::printf("feed (Notifications page shown, %zu samples): p50 %.2f ms, p99 %.2f ms, max %.2f ms; %lld events ingested (%.0f/s), %d rows in the feed\n",
                feedLateness.size(), percentile(feedLateness, 0.5), percentile(feedLateness, 0.99),
                feedLateness.empty() ? 0.0 : *std::max_element(feedLateness.begin(), feedLateness.end()), static_cast<long long>(ingested.load()),
                double(ingested.load()) / elapsed, eventRows);
    if (!webhooksShown.isValid()) {
        std::printf("history pane (100 000 deliveries): the Webhooks page was not shown (run 18 s or more); %d rows read while hidden\n",
                    webhooks->tasks().rowCount());
    } else {
        std::printf("history pane (100 000 deliveries): first page shown %lld ms after the page (target < 300 ms); %d rows read by scrolling; "
                    "stall while shown (%zu samples): p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 < 16 ms)\n",
                    static_cast<long long>(firstRowsMs), webhooks->tasks().rowCount(), historyLateness.size(), Bench::percentile(historyLateness, 0.5),
                    Bench::percentile(historyLateness, 0.99), historyLateness.empty() ? 0.0 : *std::max_element(historyLateness.begin(), historyLateness.end()));
    }
    std::printf("hot queue: %.0f items/s handled while the console ran\n", double(handled) / elapsed);
    std::printf("resident memory: %lld MiB\n", static_cast<long long>(rss / 1024));
    std::printf("close (window closed → engine shut down): %lld ms\n", static_cast<long long>(closeMs));
    return 0;
}
