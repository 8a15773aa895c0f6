// The console over a LocalBackend on a real engine (LevelDB queues in a temporary folder, the
// memory locker, and a private redis-server for the Redis lock page), under the offscreen
// platform. Also renders every page with realistic data to PNG files under the build tree
// (tests/screenshots/) for a person to look at, and for docs/console.md.

#include "admin/localbackend.h"
#include "admin/ops/queueops.h"
#include "app/mainwindow.h"
#include "models/cronmodel.h"
#include "models/lockmodel.h"
#include "models/noticemodel.h"
#include "models/queuemodel.h"
#include "engine/store/store.h"
#include "pages/auditpage.h"
#include "pages/cachepage.h"
#include "pages/cronpage.h"
#include "pages/lockspage.h"
#include "pages/pageregistry.h"
#include "widgets/theme.h"
#include "widgets/statuscolors.h"
#include "pages/queueitemsview.h"
#include "pages/noticespage.h"
#include "pages/notificationspage.h"
#include "models/notificationmodels.h"
#include "pages/overviewpage.h"
#include "pages/intakebox.h"
#include "widgets/historychart.h"
#include "widgets/livechart.h"
#include "pages/processespage.h"
#include "pages/queuespage.h"
#include "pages/hookdialog.h"
#include "pages/tracedialog.h"
#include "pages/webhookspage.h"
#include "widgets/format.h"
#include "widgets/icons.h"

#include "support/httpreceiver.h"
#include "support/redisserver.h"
#include "support/testengine.h"
#include "support/testutil.h"
#include "support/opcall.h"
#include "support/wait.h"

#include <QGuiApplication>
#include <QLineEdit>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTreeWidget>
#include <QTabWidget>
#include <QCheckBox>
#include <QSpinBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QGroupBox>
#include <QJsonDocument>
#include <QScrollBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QHeaderView>
#include <QInputDialog>
#include <QTranslator>
#include <QTreeView>

#include <condition_variable>
#include <mutex>

using namespace Switchyard;
using namespace Switchyard::Console;
using namespace std::chrono_literals;

namespace {

// Lets a handler through one batch at a time; open() lets everything through.
class Gate
{
public:
    void wait()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_open || m_permits > 0; });
        if (!m_open)
            --m_permits;
        ++m_passed;
        m_changed.notify_all();
    }
    void allow(int n)
    {
        std::lock_guard lock(m_mutex);
        m_permits += n;
        m_changed.notify_all();
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    int passed()
    {
        std::lock_guard lock(m_mutex);
        return m_passed;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_permits = 0;
    int m_passed = 0;
    bool m_open = false;
};

const QByteArray kIni = R"(
[server]
GRACEFUL_HAMMER_TIME = 2s
[queue]
TYPE = level
BATCH_LENGTH = 1
[queue.mail]
MAX_WORKERS = 1
[queue.repo_stats_update]
TYPE = channel
[queue.issue_indexer]
TYPE = channel
)";

// One console window over one engine.
struct ConsoleFixture
{
    QTemporaryDir dir;
    std::unique_ptr<Admin::LocalBackend> backend;
    std::unique_ptr<MainWindow> window;
    std::shared_ptr<Gate> gate = std::make_shared<Gate>();
    std::map<QString, std::shared_ptr<WorkerPool>> pools;

    explicit ConsoleFixture(const QByteArray &extraIni = QByteArray())
    {
        EngineConfig config = Test::configFrom(kIni + extraIni, dir.path());
        EngineOptions options;
        options.queueTiming.statsInterval = 50ms;
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), config, options);
        if (!engine)
            qFatal("engine: %s", qPrintable(engine.status().toString()));
        Admin::LocalBackendOptions backendOptions;
        backendOptions.eventInterval = 100ms;
        backendOptions.progressInterval = 20ms;
        backendOptions.doer = QStringLiteral("test operator");
        backend = std::make_unique<Admin::LocalBackend>(std::move(engine).value(), backendOptions);
        // Handlers finish at once when the console closes (a real handler would watch its token).
        QObject::connect(backend.get(), &Admin::AdminBackend::stateChanged, backend.get(),
                         [gate = gate](Admin::AdminBackend::State state) {
                             if (state == Admin::AdminBackend::State::Closing)
                                 gate->open();
                         });
        window = std::make_unique<MainWindow>(*backend);
        window->resize(1280, 800);
    }

    ~ConsoleFixture()
    {
        gate->open();
        window.reset();
        backend.reset();
    }

    Engine &engine() { return *backend->engine(); }

    // Shows the window on `page` with every page read once.
    MainWindow &open(const QString &page)
    {
        window->show();
        window->showPage(page);
        window->refreshAll();
        return *window;
    }

    std::shared_ptr<WorkerPool> queue(const QString &name, bool gated)
    {
        RawBatchHandler handler = [gate = gate, gated](std::vector<QByteArray> &) {
            if (gated)
                gate->wait();
            return RawBatchResult{};
        };
        auto pool = engine().queues().createPool(CancelToken(), name, false, handler);
        if (!pool)
            qFatal("queue: %s", qPrintable(pool.status().toString()));
        pools[name] = *pool;
        return *pool;
    }

    // The manager's qid of a queue (WorkerPool::stats() alone does not know it).
    qint64 qid(const QString &name)
    {
        for (const QueueStats &stats : engine().queues().list())
            if (stats.name == name)
                return stats.qid;
        return -1;
    }

    // A saved webhook payload (tests/data/events) ingested as a forge would post it, processed.
    qint64 ingest(const char *file, const char *event, const QString &delivery = {})
    {
        return Test::ingestSample(engine(), file, event, delivery).id;
    }
    void settleEvents()
    {
        for (const char *name : {"event_ingest", "notification-service"})
            QVERIFY(engine().queues().find(qid(QLatin1String(name)))->flush(CancelToken(), 10s));
    }

    void push(const QString &name, int count)
    {
        for (int i = 0; i < count; ++i)
            QVERIFY(pools[name]->push(CancelToken(), QByteArray::number(i)));
    }

    // A cron task whose runs wait for `release`.
    void blockingTask(const QString &name, std::shared_ptr<Gate> release)
    {
        CronTaskDefinition task;
        task.name = name;
        task.title = QStringLiteral("Rebuild the search index");
        task.defaults.schedule = QStringLiteral("0 3 * * *");
        task.run = [release](const CronRunContext &) -> Result<QString> {
            release->wait();
            return QStringLiteral("indexed 1 204 repositories");
        };
        QVERIFY(engine().cron().registerTask(std::move(task)));
    }
};

QMessageBox *waitForBox(QWidget *parent, const QString &name)
{
    QMessageBox *box = nullptr;
    Test::eventually([&] {
        box = parent->findChild<QMessageBox *>(name);
        return box && box->isVisible();
    });
    return box;
}

void clickButtonWithText(QMessageBox *box, const QString &prefix)
{
    for (QAbstractButton *button : box->buttons()) {
        if (button->text().startsWith(prefix)) {
            button->click();
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("no button starting with %1").arg(prefix)));
}

} // namespace

class TestConsole : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        Test::isolateSettings(m_settings.path(), QStringLiteral("console-test"));
    }

    void everyPageIsPopulated()
    {
        ConsoleFixture c;
        c.queue(QStringLiteral("mail"), false);
        c.queue(QStringLiteral("repo_stats_update"), false);
        auto release = std::make_shared<Gate>();
        release->open();
        c.blockingTask(QStringLiteral("index_repos"), release);
        Result<LockGuard> lock = c.engine().locker().tryLock(CancelToken(), QStringLiteral("repo:42:archive"));
        QVERIFY(lock && lock->acquired());
        c.engine().notices().add(QStringLiteral("cron"), QStringLiteral("Cron task delete_old_actions failed: disk full"));

        MainWindow &w = *c.window;
        QAbstractItemModelTester queueTester(&w.page<QueuesPage>(QStringLiteral("queues"))->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester cronTester(&w.page<CronPage>(QStringLiteral("cron"))->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester lockTester(&w.page<LocksPage>(QStringLiteral("locks"))->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester noticeTester(&w.page<NoticesPage>(QStringLiteral("notices"))->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester processTester(&w.page<ProcessesPage>(QStringLiteral("processes"))->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.show();
        w.refreshAll();
        w.showPage(QStringLiteral("processes"));
        QVERIFY(Test::eventually([&] { return w.page<QueuesPage>(QStringLiteral("queues"))->model().rowCount() == 5; }));
        QVERIFY(Test::eventually([&] { return w.page<CronPage>(QStringLiteral("cron"))->model().indexOfKey(QStringLiteral("index_repos")) >= 0; }));
        QVERIFY(Test::eventually([&] { return w.page<LocksPage>(QStringLiteral("locks"))->model().rowCount() == 1; }));
        QVERIFY(Test::eventually([&] { return w.page<NoticesPage>(QStringLiteral("notices"))->model().rowCount() == 1; }));
        QVERIFY(Test::eventually([&] { return w.page<ProcessesPage>(QStringLiteral("processes"))->model().processCount() > 0; }));
        QVERIFY(Test::eventually([&] { return w.page<OverviewPage>(QStringLiteral("overview"))->selfCheckRows() == 6; })); // database, cache, locks, queues, disk, audit
        QCOMPARE(w.page<OverviewPage>(QStringLiteral("overview"))->instance().instanceId, c.engine().instanceId());

        // What the rows say.
        QueueModel &queues = w.page<QueuesPage>(QStringLiteral("queues"))->model();
        const int mail = queues.indexOfKey(c.qid(QStringLiteral("mail")));
        QCOMPARE(queues.index(mail, QueueModel::Name).data().toString(), QStringLiteral("mail"));
        QCOMPARE(queues.index(mail, QueueModel::Type).data().toString(), QStringLiteral("level"));
        LockModel &locks = w.page<LocksPage>(QStringLiteral("locks"))->model();
        QCOMPARE(locks.index(0, LockModel::Key).data().toString(), QStringLiteral("repo:42:archive"));
        QVERIFY(locks.index(0, LockModel::Holder).data().toString().contains(QStringLiteral("this instance")));
        CronModel &cron = w.page<CronPage>(QStringLiteral("cron"))->model();
        const int task = cron.indexOfKey(QStringLiteral("index_repos"));
        QCOMPARE(cron.index(task, CronModel::Task).data().toString(), QStringLiteral("Rebuild the search index"));
        QVERIFY(cron.index(task, CronModel::Schedule).data().toString().contains(QStringLiteral("At 03:00 every day")));
        QVERIFY(cron.index(task, CronModel::Next).data().toString().startsWith(QStringLiteral("in ")));

        // Cache & QoS read while shown.
        w.showPage(QStringLiteral("cache"));
        QVERIFY(Test::eventually([&] { return w.page<CachePage>(QStringLiteral("cache"))->statsLabel()->text().contains(QStringLiteral("Hits")); }));
        QVERIFY(w.page<CachePage>(QStringLiteral("cache"))->qosLabel()->text().contains(QStringLiteral("Disabled")));

        // Empty states explain themselves.
        ConsoleFixture empty;
        empty.window->show();
        empty.window->refreshAll();
        QVERIFY(Test::eventually([&] { return empty.window->page<QueuesPage>(QStringLiteral("queues"))->findChild<QLabel *>(QStringLiteral("emptyLabel"))->isVisibleTo(empty.window->page<QueuesPage>(QStringLiteral("queues"))); }));
        QVERIFY(empty.window->page<QueuesPage>(QStringLiteral("queues"))->findChild<QLabel *>(QStringLiteral("emptyLabel"))->text().contains(QStringLiteral("[queue.&lt;name&gt;]")));
    }

    void runNowEndToEndAndAlreadyRunning()
    {
        ConsoleFixture c;
        auto release = std::make_shared<Gate>();
        c.blockingTask(QStringLiteral("index_repos"), release);
        MainWindow &w = c.open(QStringLiteral("cron"));
        CronPage &page = *w.page<CronPage>(QStringLiteral("cron"));
        QVERIFY(Test::eventually([&] { return page.selectKey(QStringLiteral("index_repos")); }));
        QVERIFY(page.runAction()->isEnabled());

        page.runAction()->trigger();
        QVERIFY(!page.runAction()->isEnabled()); // claimed at once, before the reply
        QVERIFY(Test::eventually([&] {
            const Admin::CronRow *row = page.model().find(QStringLiteral("index_repos"));
            return row && row->running;
        }));
        QVERIFY(!page.runAction()->isEnabled());
        QVERIFY(w.lastOperation().contains(QStringLiteral("Started Rebuild the search index")));

        // Finishes: the status turns Finished, the history shows the run with its doer.
        release->allow(1);
        QVERIFY(Test::eventually([&] {
            const Admin::CronRow *row = page.model().find(QStringLiteral("index_repos"));
            return row && !row->running && row->status == QLatin1String("finished");
        }));
        QVERIFY(Test::eventually([&] { return page.runAction()->isEnabled(); }));
        QVERIFY(Test::eventually([&] { return page.history().rowCount() == 1; }));
        QCOMPARE(page.history().index(0, CronRunModel::Doer).data().toString(), QStringLiteral("test operator"));
        QCOMPARE(page.history().index(0, CronRunModel::Trigger).data().toString(), QStringLiteral("manual"));
        QCOMPARE(page.history().index(0, CronRunModel::Message).data().toString(), QStringLiteral("indexed 1 204 repositories"));

        // Someone else starts it; this console has not heard yet and presses Run now: a polite
        // note in the status bar, no error.
        QCOMPARE(*c.engine().cron().runNow(QStringLiteral("index_repos"), QStringLiteral("another console")),
                 CronService::Trigger::Started);
        QVERIFY(page.runAction()->isEnabled());
        page.runAction()->trigger();
        QVERIFY(Test::eventually([&] { return w.lastOperation().contains(QStringLiteral("already running")); }));
        QVERIFY(w.lastError().isEmpty());
        QVERIFY(!w.findChild<QMessageBox *>());
        release->open();
        c.engine().cron().waitIdle();
    }

    void flushShowsProgressAndCancels()
    {
        ConsoleFixture c;
        c.queue(QStringLiteral("mail"), true);
        c.push(QStringLiteral("mail"), 20);
        MainWindow &w = c.open(QStringLiteral("queues"));
        QueuesPage &page = *w.page<QueuesPage>(QStringLiteral("queues"));
        const qint64 qid = c.qid(QStringLiteral("mail"));
        QVERIFY(Test::eventually([&] { return page.selectKey(qid); }));
        QVERIFY(Test::eventually([&] { return page.model().find(qid)->length >= 15; }));

        page.flushAction()->trigger();
        QVERIFY(page.flushProgress()->isVisible());
        QVERIFY(page.cancelFlushButton()->isVisible());
        QVERIFY(!page.flushAction()->isEnabled());
        // The job counts the queue first (its range is set then); items handled before that count
        // would not show as progress, so the handler is let go only once the count is in.
        QVERIFY(Test::eventually([&] { return page.flushProgress()->maximum() == 1000; }));
        c.gate->allow(8);
        QVERIFY(Test::eventually([&] { return page.flushProgress()->value() >= 300; }));

        QTest::mouseClick(page.cancelFlushButton(), Qt::LeftButton);
        QVERIFY2(Test::eventually([&] { return !page.runningFlush(); }, 5s), qPrintable(w.lastOperation() + w.lastError()));
        QVERIFY(w.lastOperation().contains(QStringLiteral("cancelled")));
        QVERIFY(!page.flushProgress()->isVisible());
        QVERIFY(page.flushAction()->isEnabled());
        QVERIFY(c.pools[QStringLiteral("mail")]->stats().length >= 8); // the rest stays queued

        // A flush that times out says so and leaves the queue intact.
        page.flushTimeout()->setValue(1);
        const qint64 before = c.pools[QStringLiteral("mail")]->stats().length;
        page.flushAction()->trigger();
        QVERIFY(Test::eventually([&] { return !page.runningFlush(); }, 10s));
        QVERIFY2(w.lastError().contains(QStringLiteral("timed out")), qPrintable(w.lastError()));
        QVERIFY(c.pools[QStringLiteral("mail")]->stats().length >= before - 1);
        // The error is in the status bar; its detail opens without blocking the window.
        auto *details = w.findChild<QToolButton *>(QStringLiteral("errorDetailsButton"));
        QVERIFY(details && details->isVisible());
        details->click();
        auto *box = w.findChild<QMessageBox *>(QStringLiteral("errorDetails"));
        QVERIFY(box && box->isVisible() && !box->isModal());
        QVERIFY2(box->detailedText().contains(QStringLiteral("did not finish within 1000 ms")), qPrintable(box->detailedText()));
        box->close();

        // And one that completes reports what it did.
        c.gate->open();
        page.flushTimeout()->setValue(60);
        page.flushAction()->trigger();
        QVERIFY(Test::eventually([&] { return !page.runningFlush(); }));
        QVERIFY2(w.lastOperation().contains(QStringLiteral("Flushed mail")), qPrintable(w.lastOperation()));
        QCOMPARE(c.pools[QStringLiteral("mail")]->stats().length, 0);
    }

    void removeAllAsksWithTheCount()
    {
        ConsoleFixture c;
        auto pool = c.queue(QStringLiteral("mail"), false);
        QVERIFY(pool->pause(CancelToken()));
        c.push(QStringLiteral("mail"), 12);
        MainWindow &w = c.open(QStringLiteral("queues"));
        QueuesPage &page = *w.page<QueuesPage>(QStringLiteral("queues"));
        const qint64 qid = c.qid(QStringLiteral("mail"));
        QVERIFY(Test::eventually([&] { return page.selectKey(qid) && page.model().find(qid)->length == 12; }));

        page.removeAllAction()->trigger();
        QMessageBox *box = waitForBox(&page, QStringLiteral("confirmation"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("Remove 12 items from mail")), qPrintable(box->text()));
        box->button(QMessageBox::Cancel)->click();
        QVERIFY(Test::eventually([&] { return !page.findChild<QMessageBox *>(QStringLiteral("confirmation")); }));
        QCOMPARE(pool->stats().length, 12);

        page.removeAllAction()->trigger();
        box = waitForBox(&page, QStringLiteral("confirmation"));
        QVERIFY(box);
        clickButtonWithText(box, QStringLiteral("Remove 12 items"));
        QVERIFY(Test::eventually([&] { return w.lastOperation().contains(QStringLiteral("Removed 12 items from mail")); }));
        QCOMPARE(pool->stats().length, 0);
    }

    // A fresh engine has no queue: the page says why, its toolbar shows which settings would make
    // one, and the chart shows an empty state instead of axes without data.
    void anEmptyQueuesPageExplainsItself()
    {
        ConsoleFixture c;
        MainWindow &w = c.open(QStringLiteral("queues"));
        QueuesPage &page = *w.page<QueuesPage>(QStringLiteral("queues"));
        QVERIFY(page.settingsHelpAction()->isEnabled());
        auto *chartEmpty = page.findChild<QLabel *>(QStringLiteral("chartEmptyState"));
        QVERIFY(chartEmpty);
        QCOMPARE(chartEmpty->text(), QStringLiteral("No queue selected."));
        page.settingsHelpAction()->trigger();
        QMessageBox *help = nullptr;
        QVERIFY(Test::eventually([&] { return (help = page.findChild<QMessageBox *>(QStringLiteral("queueSettingsHelp"))) && help->isVisible(); }));
        // kIni: [queue] TYPE = level; [queue.mail] and [queue.repo_stats_update] have sections of their own.
        QVERIFY2(help->text().contains(QStringLiteral("<code>[queue.mail]</code>")), qPrintable(help->text()));
        QVERIFY(help->text().contains(QStringLiteral("issue_indexer")));
        QVERIFY(help->text().contains(QStringLiteral("TYPE here: <b>level</b>")));
        help->accept();

        QVERIFY(chartEmpty->isVisibleTo(&page));
        // A queue selected: the chart replaces the empty state once it has two samples.
        c.queue(QStringLiteral("mail"), false);
        const qint64 qid = c.qid(QStringLiteral("mail"));
        QVERIFY(Test::eventually([&] { return page.selectKey(qid); }));
        QVERIFY(Test::eventually([&] { return !chartEmpty->isVisibleTo(&page); }));
        QVERIFY(page.model().history(qid).size() >= 2);
    }

    // At 1280×800 the tables fit: no sideways scrolling on Locks (nine columns) or Queues; a
    // long lock key is elided with its full text in the tooltip.
    void tablesFitTheWindow()
    {
        ConsoleFixture c;
        c.queue(QStringLiteral("repo_stats_update"), false);
        const QString longKey = QStringLiteral("repo:12345:migrate:") + QString(80, u'x');
        Result<LockGuard> held = c.engine().locker().tryLock(CancelToken(), longKey);
        QVERIFY(held);
        MainWindow &w = c.open(QStringLiteral("locks"));
        w.resize(1280, 800);
        LocksPage &locks = *w.page<LocksPage>(QStringLiteral("locks"));
        QVERIFY(Test::eventually([&] { return locks.model().rowCount() == 1 && locks.view()->isVisible(); }));
        QVERIFY(Test::eventually([&] { return locks.view()->horizontalScrollBar()->maximum() == 0; }));
        const QModelIndex key = locks.proxy()->index(0, LockModel::Key);
        QCOMPARE(key.data(Qt::ToolTipRole).toString(), longKey);

        w.showPage(QStringLiteral("queues"));
        QueuesPage &queues = *w.page<QueuesPage>(QStringLiteral("queues"));
        QVERIFY(Test::eventually([&] { return queues.model().rowCount() == 4 && queues.view()->isVisible(); }));
        QVERIFY(Test::eventually([&] { return queues.view()->horizontalScrollBar()->maximum() == 0; }));
    }

    // Lock keys carry ids: the Locks page lists them by value (repo:9, repo:10, repo:100), not
    // as text, which would put repo:10 and repo:100 before repo:9.
    void lockKeysSortByTheirNumbers()
    {
        ConsoleFixture c;
        std::vector<LockGuard> held;
        for (const char *key : {"repo:100", "repo:9", "repo:10"}) {
            Result<LockGuard> lock = c.engine().locker().tryLock(CancelToken(), QString::fromLatin1(key));
            QVERIFY(lock && lock->acquired());
            held.push_back(std::move(*lock));
        }
        MainWindow &w = c.open(QStringLiteral("locks"));
        LocksPage &locks = *w.page<LocksPage>(QStringLiteral("locks"));
        QVERIFY(Test::eventually([&] { return locks.model().rowCount() == 3; }));
        QStringList order;
        for (int row = 0; row < 3; ++row)
            order.append(locks.proxy()->index(row, LockModel::Key).data().toString());
        QCOMPARE(order, (QStringList{QStringLiteral("repo:9"), QStringLiteral("repo:10"), QStringLiteral("repo:100")}));
    }

    // The Items tab peeks at the waiting items (JSON pretty-printed, copyable); In flight shows the
    // batch a worker holds, with the worker and since when.
    void itemsAndInFlightTabs()
    {
        ConsoleFixture c;
        auto pool = c.queue(QStringLiteral("mail"), true); // the handler waits at the gate
        for (int i = 0; i < 4; ++i)
            QVERIFY(pool->push(CancelToken(), QStringLiteral(R"({"to":"user%1@example.com","subject":"hello"})").arg(i).toUtf8()));
        MainWindow &w = c.open(QStringLiteral("queues"));
        QueuesPage &page = *w.page<QueuesPage>(QStringLiteral("queues"));
        const qint64 qid = c.qid(QStringLiteral("mail"));
        QVERIFY(Test::eventually([&] { return page.selectKey(qid); }));
        // BATCH_LENGTH = 1, MAX_WORKERS = 1: one item in the worker's hands (it gathered it), the
        // other three in the queue — no second worker may gather the next one.
        QVERIFY2(Test::eventually([&] { return pool->stats().length == 3 && pool->stats().activeWorkers == 1; }),
                 qPrintable(QStringLiteral("length %1, active %2").arg(pool->stats().length).arg(pool->stats().activeWorkers)));

        page.detailTabs()->setCurrentWidget(page.itemsView());
        QTreeWidget *items = page.itemsView()->list();
        QVERIFY(Test::eventually([&] { return items->topLevelItemCount() == 3; }));
        QCOMPARE(items->topLevelItem(0)->text(0), QStringLiteral("0"));
        QVERIFY(items->topLevelItem(0)->text(2).contains(QStringLiteral("user1@example.com")));
        QVERIFY(items->topLevelItem(2)->text(2).contains(QStringLiteral("user3@example.com")));
        QVERIFY2(page.itemsView()->status()->text().contains(QStringLiteral("3 waiting")), qPrintable(page.itemsView()->status()->text()));
        items->setCurrentItem(items->topLevelItem(0));
        QVERIFY(page.itemsView()->viewer()->toPlainText().contains(QStringLiteral("\n    \"subject\": \"hello\"")));
        QVERIFY(page.itemsView()->copyButton()->isEnabled());
        page.itemsView()->copyButton()->click();
        QCOMPARE(QApplication::clipboard()->text(), page.itemsView()->viewer()->toPlainText());
        QCOMPARE(pool->stats().length, qint64(3)); // the peek consumed nothing

        page.detailTabs()->setCurrentWidget(page.inFlightView());
        QTreeWidget *held = page.inFlightView()->list();
        QVERIFY(Test::eventually([&] { return held->topLevelItemCount() == 1; }));
        QCOMPARE(held->topLevelItem(0)->text(0), c.engine().instanceId());
        QCOMPARE(held->topLevelItem(0)->text(1), QStringLiteral("worker 1"));
        QVERIFY(held->topLevelItem(0)->text(2) != QStringLiteral("unknown")); // since when
        QVERIFY(held->topLevelItem(0)->text(4).contains(QStringLiteral("user0@example.com")));
        c.gate->open();
    }

    // Every page of the registry is in the window in its order; the keyboard reaches each: Ctrl+N
    // for the first nine, Ctrl+PgDown/PgUp for all of them, wrapping.
    void pagesComeFromTheRegistryAndTheKeyboardReachesThem()
    {
        ConsoleFixture c;
        MainWindow &w = c.open(QStringLiteral("overview"));
        QStringList ids;
        for (const PageEntry &entry : pageRegistry())
            ids << QLatin1String(entry.id);
        QStringList shown;
        for (Page *page : w.pages())
            shown << page->id();
        QCOMPARE(shown, ids);
        QVERIFY(w.page<QueuesPage>(QStringLiteral("queues")));
        QVERIFY(!w.page<QueuesPage>(QStringLiteral("locks"))); // another type: no page
        QCOMPARE(w.pages().at(1)->title(), QStringLiteral("Queues"));

        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w)); // shortcuts go to the active window
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(w.currentPage()->id(), ids.at(2));
        for (qsizetype i = 3; i < ids.size(); ++i) {
            QTest::keyClick(&w, Qt::Key_PageDown, Qt::ControlModifier);
            QCOMPARE(w.currentPage()->id(), ids.at(i));
        }
        QTest::keyClick(&w, Qt::Key_PageDown, Qt::ControlModifier); // wraps
        QCOMPARE(w.currentPage()->id(), ids.first());
        QTest::keyClick(&w, Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(w.currentPage()->id(), ids.last());
    }

    // Pages and their actions show real icons (Adwaita symbolic SVGs, compiled in), drawn at the
    // device-pixel size asked for and tinted from the palette, so they follow the theme.
    void iconsAreReal()
    {
        ConsoleFixture c;
        MainWindow &w = c.open(QStringLiteral("overview"));
        auto coverage = [](const QImage &image) {
            int opaque = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    opaque += qAlpha(image.pixel(x, y)) > 128;
            return double(opaque) / (image.width() * image.height());
        };
        for (const PageEntry &entry : pageRegistry()) {
            QVERIFY2(Icons::exists(QString::fromUtf8(entry.iconName)), entry.id);
            const QImage badge = entry.icon().pixmap(QSize(48, 48)).toImage();
            QCOMPARE(badge.size(), QSize(48, 48));
            QVERIFY2(coverage(badge) > 0.5, entry.id); // the coloured square
            // The glyph is white on the page's colour: some pixels are white, most are the colour.
            int white = 0;
            for (int y = 0; y < 48; ++y)
                for (int x = 0; x < 48; ++x)
                    white += QColor(badge.pixel(x, y)).lightness() > 240;
            QVERIFY2(white > 20, entry.id);
        }
        QVERIFY(!Icons::exists(QStringLiteral("no-such-icon")));
        QVERIFY(Icons::symbolic(QStringLiteral("no-such-icon")).isNull());

        // High-DPI: a 2× request is drawn at 2× from the SVG, not scaled up.
        const QPixmap sharp = Icons::symbolic(QStringLiteral("media-playback-start")).pixmap(QSize(16, 16), 2.0);
        QCOMPARE(sharp.size(), QSize(32, 32));
        QVERIFY(coverage(sharp.toImage()) > 0.2);

        // Every page action has an icon, in the palette's text colour; the dark theme repaints it.
        int actions = 0;
        for (Page *page : w.pages()) {
            for (QAction *action : page->findChildren<QAction *>()) {
                if (action->text().isEmpty() || action->isSeparator() || action->isCheckable())
                    continue;
                QVERIFY2(!action->icon().isNull(), qPrintable(page->id() + QStringLiteral(": ") + action->text()));
                ++actions;
            }
        }
        QVERIFY(actions >= 10);
        auto tint = [&] {
            const QImage image = Icons::symbolic(QStringLiteral("media-playback-pause")).pixmap(QSize(24, 24)).toImage();
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    if (qAlpha(image.pixel(x, y)) == 255)
                        return QColor(image.pixel(x, y));
            return QColor();
        };
        QCOMPARE(tint(), QApplication::palette().color(QPalette::WindowText));
        w.findChild<QAction *>(QStringLiteral("theme-dark"))->trigger();
        QCOMPARE(tint(), QApplication::palette().color(QPalette::WindowText));
        QVERIFY(tint().lightness() > 150);
        w.findChild<QAction *>(QStringLiteral("theme-system"))->trigger();
    }

    void pauseAndResume()
    {
        ConsoleFixture c;
        auto pool = c.queue(QStringLiteral("mail"), false);
        MainWindow &w = c.open(QStringLiteral("queues"));
        QueuesPage &page = *w.page<QueuesPage>(QStringLiteral("queues"));
        const qint64 qid = c.qid(QStringLiteral("mail"));
        QVERIFY(Test::eventually([&] { return page.selectKey(qid); }));
        QVERIFY(page.pauseAction()->isEnabled());
        QVERIFY(!page.resumeAction()->isEnabled());

        page.pauseAction()->trigger();
        QVERIFY(Test::eventually([&] { return page.model().find(qid)->paused; }));
        QVERIFY(pool->isPaused());
        QVERIFY(Test::eventually([&] { return page.resumeAction()->isEnabled() && !page.pauseAction()->isEnabled(); }));
        const int row = page.model().indexOfKey(qid);
        QCOMPARE(page.model().index(row, QueueModel::State).data().toString(), QStringLiteral("Paused"));
        QVERIFY(Test::eventually([&] { return page.badge() == 1; })); // a paused queue needs attention

        page.resumeAction()->trigger();
        QVERIFY(Test::eventually([&] { return !page.model().find(qid)->paused; }));
        QVERIFY(!pool->isPaused());
        QVERIFY(Test::eventually([&] { return page.badge() == 0; }));

        // Set max workers asks for the number, then applies it live.
        page.setWorkersAction()->trigger();
        QInputDialog *dialog = nullptr;
        QVERIFY(Test::eventually([&] { return (dialog = page.findChild<QInputDialog *>(QStringLiteral("setWorkers"))) && dialog->isVisible(); }));
        QCOMPARE(dialog->intValue(), 1);
        dialog->setIntValue(4);
        dialog->accept();
        QVERIFY(Test::eventually([&] { return page.model().find(qid)->maxWorkers == 4; }));
        QCOMPARE(pool->stats().maxWorkers, 4);
        QVERIFY(w.lastOperation().contains(QStringLiteral("mail now runs at most 4 workers")));
    }

    void forceReleaseOnTheRedisLocker()
    {
        Test::RedisServer redis;
        QVERIFY(redis.start());
        ConsoleFixture c(QStringLiteral("[global_lock]\nSERVICE_TYPE = redis\nSERVICE_CONN_STR = redis://127.0.0.1:%1/0\n")
                      .arg(redis.port())
                      .toUtf8());
        Result<LockGuard> lock = c.engine().locker().tryLock(CancelToken(), QStringLiteral("cron:archive_cleanup"));
        QVERIFY(lock && lock->acquired());
        const CancelToken lost = lock->token();
        MainWindow &w = c.open(QStringLiteral("locks"));
        LocksPage &page = *w.page<LocksPage>(QStringLiteral("locks"));
        QVERIFY(Test::eventually([&] { return page.selectKey(QStringLiteral("cron:archive_cleanup")); }));
        LockModel &model = page.model();
        QCOMPARE(model.index(0, LockModel::Backend).data().toString(), QStringLiteral("redis"));
        QVERIFY(model.index(0, LockModel::Ttl).data(RawRole).toLongLong() > 0);
        QVERIFY(Test::eventually([&] { return model.index(0, LockModel::Holder).data().toString().contains(QStringLiteral("this instance")); }));

        page.forceReleaseAction()->trigger();
        QMessageBox *box = waitForBox(&page, QStringLiteral("confirmation"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QStringLiteral("cron:archive_cleanup")));
        QVERIFY(box->text().contains(c.engine().instanceId()));
        QVERIFY(box->text().contains(QStringLiteral("not protected")));
        clickButtonWithText(box, QStringLiteral("Force release"));
        QVERIFY(Test::eventually([&] { return lost.isCancelled(); }));
        QVERIFY(Test::eventually([&] { return model.rowCount() == 0; }));
        QVERIFY(w.lastOperation().contains(QStringLiteral("Released cron:archive_cleanup")));

        // Released by its holder while the question was open: said so, no error.
        Result<LockGuard> again = c.engine().locker().tryLock(CancelToken(), QStringLiteral("cron:archive_cleanup"));
        QVERIFY(again && again->acquired());
        page.refresh();
        QVERIFY(Test::eventually([&] { return page.selectKey(QStringLiteral("cron:archive_cleanup")); }));
        page.forceReleaseAction()->trigger();
        box = waitForBox(&page, QStringLiteral("confirmation"));
        QVERIFY(box);
        again->release();
        clickButtonWithText(box, QStringLiteral("Force release"));
        QVERIFY(Test::eventually([&] { return w.lastOperation().contains(QStringLiteral("already released")); }));
        QVERIFY(w.lastError().isEmpty());
    }

    void selfCheckShowsTheThreshold()
    {
        ConsoleFixture c;
        MainWindow &w = *c.window;
        w.show();
        w.showPage(QStringLiteral("cache"));
        CachePage &page = *w.page<CachePage>(QStringLiteral("cache"));
        QTest::mouseClick(page.selfCheckButton(), Qt::LeftButton);
        QVERIFY(Test::eventually([&] { return page.selfCheckResult()->text().contains(QStringLiteral("OK in")); }));
        QVERIFY(page.selfCheckResult()->text().contains(QStringLiteral("threshold 30 ms")));
        QVERIFY(w.lastOperation().contains(QStringLiteral("Cache self-check passed")));
    }

    void liveUpdateKeepsTheSelection()
    {
        ConsoleFixture c;
        c.queue(QStringLiteral("mail"), false);
        auto webhooks = c.queue(QStringLiteral("repo_stats_update"), false);
        c.queue(QStringLiteral("issue_indexer"), false);
        MainWindow &w = *c.window;
        w.show();
        w.showPage(QStringLiteral("queues"));
        QueuesPage &page = *w.page<QueuesPage>(QStringLiteral("queues"));
        QVERIFY(Test::eventually([&] { return page.model().rowCount() == 6; }));
        const qint64 qid = c.qid(QStringLiteral("repo_stats_update"));
        QVERIFY(page.selectKey(qid));
        page.view()->sortByColumn(QueueModel::Handled, Qt::DescendingOrder);
        QSignalSpy resets(&page.model(), &QAbstractItemModel::modelReset);
        QSignalSpy changes(&page.model(), &QAbstractItemModel::dataChanged);

        int frames = 0;
        qint64 lastSeen = -1;
        connect(c.backend.get(), &Admin::AdminBackend::event, this, [&](const Admin::AdminEvent &e) {
            if (e.type != Admin::AdminEvent::Type::QueueStats)
                return;
            ++frames;
            for (const Admin::QueueRow &row : e.queues)
                if (row.qid == qid)
                    lastSeen = row.handledTotal;
        });
        c.push(QStringLiteral("repo_stats_update"), 50);
        QVERIFY2(Test::eventually([&] { return page.model().find(qid)->handledTotal == 50; }),
                 qPrintable(QStringLiteral("frames %5 (last handled %6), shown %1, engine %2, pushed %3, length %4")
                                .arg(page.model().find(qid)->handledTotal)
                                .arg(webhooks->stats().handledTotal)
                                .arg(webhooks->stats().pushedTotal)
                                .arg(webhooks->stats().length)
                                .arg(frames)
                                .arg(lastSeen)));
        QVERIFY(changes.count() > 0);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(page.currentKey().toLongLong(), qid);
        QCOMPARE(page.selectedKeys().size(), 1);
        // Re-sorted by the live numbers, still the same row selected.
        QCOMPARE(page.view()->currentIndex().data(KeyRole).toLongLong(), qid);
        QCOMPARE(page.proxy()->index(0, 0).data(KeyRole).toLongLong(), qid);
    }

    void closingDuringAFlushCancelsItAndShutsDown()
    {
        ConsoleFixture c;
        c.queue(QStringLiteral("mail"), true);
        c.push(QStringLiteral("mail"), 5);
        MainWindow &w = c.open(QStringLiteral("queues"));
        QueuesPage &page = *w.page<QueuesPage>(QStringLiteral("queues"));
        const qint64 qid = c.qid(QStringLiteral("mail"));
        QVERIFY(Test::eventually([&] { return page.selectKey(qid); }));
        page.flushAction()->trigger();
        QPointer<Admin::AdminJob> job = page.runningFlush();
        QVERIFY(job);
        QSignalSpy finished(job.data(), &Admin::AdminJob::finished);
        QSignalSpy closed(c.backend.get(), &Admin::AdminBackend::closed);
        w.close();
        QVERIFY(Test::eventually([&] { return closed.count() == 1; }));
        QCOMPARE(closed.first().first().toBool(), true); // a graceful shutdown
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().value<Status>().code(), Status::Code::Cancelled);
        QVERIFY(!w.isVisible());
        QCOMPARE(c.backend->state(), Admin::AdminBackend::State::Closed);
    }

    void deleteNoticesAndCancelAProcess()
    {
        ConsoleFixture c;
        for (int i = 0; i < 5; ++i)
            c.engine().notices().add(QStringLiteral("cron"), QStringLiteral("notice %1").arg(i));
        ProcessRegistry::Handle job =
            c.engine().processes().addCancellable(CancelToken(), ProcessType::Normal, QStringLiteral("export of repo 42"));
        MainWindow &w = c.open(QStringLiteral("notices"));
        NoticesPage &notices = *w.page<NoticesPage>(QStringLiteral("notices"));
        QVERIFY(Test::eventually([&] { return notices.model().rowCount() == 5; }));
        notices.view()->selectAll();
        QCOMPARE(notices.deleteAction()->text(), QStringLiteral("Delete 5"));
        notices.deleteAction()->trigger();
        QVERIFY(Test::eventually([&] { return notices.model().rowCount() == 0; }));
        QVERIFY(c.engine().notices().list().empty());
        // The stream removes the rows as each goes; the reply comes after the last.
        QVERIFY(Test::eventually([&] { return w.lastOperation().contains(QStringLiteral("Deleted 5 notice")); }));

        w.showPage(QStringLiteral("processes"));
        ProcessesPage &processes = *w.page<ProcessesPage>(QStringLiteral("processes"));
        QVERIFY(Test::eventually([&] { return processes.selectKey(job.pid()); }));
        QVERIFY(processes.cancelAction()->isEnabled());
        processes.cancelAction()->trigger();
        QVERIFY(Test::eventually([&] { return job.token().isCancelled(); }));
        QVERIFY(Test::eventually([&] { return w.lastOperation().contains(QStringLiteral("Cancelled export of repo 42")); }));
    }

    void remembersTheLastPageAndColumns()
    {
        {
            ConsoleFixture c;
            c.window->show();
            c.window->showPage(QStringLiteral("locks"));
            c.window->page<LocksPage>(QStringLiteral("locks"))->view()->header()->resizeSection(LockModel::Key, 333);
            c.window->close(); // saves, then closes the backend
            QVERIFY(Test::eventually([&] { return c.backend->state() == Admin::AdminBackend::State::Closed; }));
        }
        ConsoleFixture again;
        QCOMPARE(again.window->currentPage()->id(), QStringLiteral("locks"));
        QCOMPARE(again.window->page<LocksPage>(QStringLiteral("locks"))->view()->header()->sectionSize(LockModel::Key), 333);
    }

    // A fresh instance tells a newcomer how work arrives; the "nothing yet" hint goes once an
    // event has come. (An engine without an API of its own shows a template URL; the desktop
    // app's, which serves one, is tested in tst_desktopapp.)
    void overviewExplainsHowEventsArrive()
    {
        ConsoleFixture c;
        MainWindow &w = c.open(QStringLiteral("overview"));
        OverviewPage &overview = *w.page<OverviewPage>(QStringLiteral("overview"));
        IntakeBox &intake = *overview.intake();
        auto *hint = intake.findChild<QLabel *>(QStringLiteral("intakeHint"));
        QVERIFY(Test::eventually([&] { return intake.isVisible() && hint->text().contains(QStringLiteral("No event has arrived yet")); }));
        auto *url = intake.findChild<QLineEdit *>(QStringLiteral("eventUrl"));
        QCOMPARE(url->text(), QStringLiteral("http://HOST:3300/api/v1/events?source=default"));
        auto *copy = intake.findChild<QPushButton *>(QStringLiteral("copyEventUrl"));
        QVERIFY(copy && !copy->accessibleName().isEmpty() && !copy->isEnabled()); // nothing real to copy
        QVERIFY(!intake.findChild<QLineEdit *>(QStringLiteral("eventSecret"))->isVisible()); // the console knows no secret here
        c.ingest("gitea-push.json", "push");
        QVERIFY(Test::eventually([&] { return !hint->text().contains(QStringLiteral("No event has arrived yet")); }));
    }

    // What a backend says is shown as text: a message quoting a payload's title or a hook's URL
    // with markup in it is not rendered (it used to be, the labels being AutoText).
    void backendWordsAreNeverMarkup()
    {
        ConsoleFixture c;
        MainWindow &w = c.open(QStringLiteral("overview"));
        OverviewPage &overview = *w.page<OverviewPage>(QStringLiteral("overview"));
        const QString hostile = QStringLiteral("<img src='http://evil.test/x.png'><b>pwned</b>");
        Q_EMIT overview.operationFailed(QStringLiteral("Saving %1 failed").arg(hostile), hostile);
        auto *error = w.findChild<QLabel *>(QStringLiteral("lastError"));
        QVERIFY(error);
        QCOMPARE(error->textFormat(), Qt::PlainText);
        QVERIFY2(error->text().contains(hostile), qPrintable(error->text()));
        for (const char *name : {"lastOperation", "connectionBanner"}) {
            auto *label = w.findChild<QLabel *>(QLatin1String(name));
            QVERIFY2(label && label->textFormat() == Qt::PlainText, name);
        }
    }

    // The Overview's Mail box: the settings and totals, a test mail through its dialog, a bad
    // address reported with the field, the button off while the mailer is.
    void overviewMailBoxSendsATestMail()
    {
        {
            ConsoleFixture off;
            MainWindow &w = off.open(QStringLiteral("overview"));
            OverviewPage &overview = *w.page<OverviewPage>(QStringLiteral("overview"));
            QVERIFY(Test::eventually([&] { return overview.mailTestButton()->toolTip().contains(QStringLiteral("ENABLED")); }));
            QVERIFY(!overview.mailTestButton()->isEnabled());
            QVERIFY(!overview.mailTestButton()->accessibleName().isEmpty());
        }
        ConsoleFixture c("[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = Forge <forge@example.com>\n");
        MainWindow &w = c.open(QStringLiteral("overview"));
        OverviewPage &overview = *w.page<OverviewPage>(QStringLiteral("overview"));
        QVERIFY(Test::eventually([&] { return overview.mailInfo().enabled && overview.mailTestButton()->isEnabled(); }));
        QCOMPARE(overview.mailInfo().protocol, QStringLiteral("dummy"));
        auto *box = w.findChild<QGroupBox *>(QStringLiteral("mailBox"));
        QVERIFY(box && box->isVisible());
        const auto send = [&](const QString &to) {
            overview.mailTestButton()->click();
            QInputDialog *dialog = nullptr;
            QVERIFY(Test::eventually([&] { return (dialog = overview.findChild<QInputDialog *>(QStringLiteral("testMail"))) && dialog->isVisible(); }));
            dialog->setTextValue(to);
            dialog->accept();
        };
        send(QStringLiteral("ops@example.com"));
        QVERIFY(Test::eventually([&] { return w.lastOperation().contains(QStringLiteral("Test mail sent to ops@example.com")); }));
        QVERIFY(Test::eventually([&] { return overview.mailInfo().sentTotal == 1; }));
        send(QStringLiteral("not an address"));
        QVERIFY(Test::eventually([&] { return w.lastError().contains(QStringLiteral("not a mail address")); }));
        QVERIFY(Test::eventually([&] { return overview.mailTestButton()->isEnabled(); })); // ready for the next try
    }

    // The Overview's history chart: processed items, for all queues or the one chosen, per
    // minute or per hour; the summary line says the totals (what a screen reader reads).
    void overviewChartsProcessedAndFailed()
    {
        ConsoleFixture c;
        c.queue(QStringLiteral("counted"), false);
        c.push(QStringLiteral("counted"), 25);
        QVERIFY(c.pools[QStringLiteral("counted")]->flush(CancelToken(), 30s));
        QVERIFY(c.engine().sampleQueueHistory());
        MainWindow &w = c.open(QStringLiteral("overview"));
        OverviewPage &overview = *w.page<OverviewPage>(QStringLiteral("overview"));
        HistoryChart &chart = *overview.history();
        QVERIFY2(Test::eventually([&] { return chart.summary().startsWith(QStringLiteral("25 processed · 0 failed in the last hour")); }),
                 qPrintable(chart.summary()));
        auto *queue = chart.findChild<QComboBox *>(QStringLiteral("historyQueue"));
        auto *period = chart.findChild<QComboBox *>(QStringLiteral("historyPeriod"));
        QVERIFY(queue && period && !queue->accessibleName().isEmpty() && !period->accessibleName().isEmpty());
        QVERIFY(Test::eventually([&] { return queue->findText(QStringLiteral("counted")) > 0; })); // from the stream's queue list
        queue->setCurrentIndex(queue->findText(QStringLiteral("notification-service")));
        QVERIFY(Test::eventually([&] { return chart.summary().startsWith(QStringLiteral("0 processed")); }));
        queue->setCurrentIndex(queue->findText(QStringLiteral("counted")));
        period->setCurrentIndex(1);
        QVERIFY(Test::eventually([&] { return chart.summary() == QStringLiteral("25 processed · 0 failed in the last 7 days"); }));
        QCOMPARE(chart.qid(), c.qid(QStringLiteral("counted")));
    }

    // The Notifications page: the feed fills from the store and the stream; a user's unread count
    // follows their notifications as they are marked, live.
    void notificationsPageFollowsTheFeed()
    {
        ConsoleFixture c;
        c.ingest("gitea-issues-opened.json", "issues");
        c.settleEvents();
        MainWindow &w = c.open(QStringLiteral("notifications"));
        NotificationsPage &page = *w.page<NotificationsPage>(QStringLiteral("notifications"));
        QVERIFY(Test::eventually([&] { return page.events().rowCount() == 1; }));
        // Carol comments on bob's issue: the event arrives over the stream, bob is notified.
        c.ingest("gitea-issue-comment-created.json", "issue_comment");
        c.settleEvents();
        QVERIFY(Test::eventually([&] { return page.events().rowCount() == 2; }));
        QVERIFY(Test::eventually([&] {
            const int at = page.events().indexOfKey(2);
            return at >= 0 && page.events().rowAt(at)->status == QLatin1String("done");
        }));
        qint64 bob = 0;
        QVERIFY(Test::eventually([&] {
            for (const ForgeUserRow &u : page.users().rows())
                if (u.login == QLatin1String("bob") && u.unread == 1)
                    bob = u.id;
            return bob > 0;
        }));
        // The user with the most unread notifications is selected at first.
        QVERIFY(Test::eventually([&] { return page.selectedUser() == bob; }));
        QVERIFY(page.selectUser(bob));
        QVERIFY(Test::eventually([&] { return page.notifications().rowCount() == 1; }));
        QVERIFY(page.markAllReadAction()->isEnabled());
        QVERIFY(!page.markReadAction()->isEnabled()); // no notification selected
        page.notificationView()->selectionModel()->setCurrentIndex(page.notificationView()->model()->index(0, 0),
                                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(page.pinAction()->isEnabled());
        page.pinAction()->trigger();
        QVERIFY(Test::eventually([&] { return page.notifications().rows().at(0).status == NotificationStatus::Pinned; }));
        QVERIFY(Test::eventually([&] { return page.users().find(bob)->unread == 0; })); // the count frame
        QVERIFY(!page.markAllReadAction()->isEnabled()); // nothing unread
        page.markUnreadAction()->trigger();
        QVERIFY(Test::eventually([&] { return page.users().find(bob)->unread == 1 && page.markAllReadAction()->isEnabled(); }));
        page.markAllReadAction()->trigger();
        QVERIFY(Test::eventually([&] { return page.users().find(bob)->unread == 0; }));
        QVERIFY(Test::eventually([&] { return page.notifications().rows().at(0).status == NotificationStatus::Read; }));
        // Following the newest, or not.
        QVERIFY(page.followAction()->isChecked());
        for (QAction *action : {page.followAction(), page.markReadAction(), page.markUnreadAction(), page.pinAction(), page.markAllReadAction()})
            QVERIFY(!action->text().isEmpty());
        QVERIFY(!page.userView()->accessibleName().isEmpty() && !page.notificationView()->accessibleName().isEmpty());

        // Show trace: the comment's event began it; bob's notification and the feed rows follow.
        QVERIFY(!page.traceAction()->isEnabled()); // nothing selected
        QVERIFY(page.selectKey(qint64(2)));
        QVERIFY(page.traceAction()->isEnabled());
        page.traceAction()->trigger();
        QVERIFY(page.traceDialog() && page.traceDialog()->isVisible());
        page.traceDialog()->setMode(TraceDialog::Mode::Timeline); // tst_consoletools covers the tree
        auto *items = page.traceDialog()->findChild<QTreeWidget *>(QStringLiteral("traceItems"));
        QVERIFY(items && !items->accessibleName().isEmpty());
        QVERIFY(Test::eventually([&] { return items->topLevelItemCount() >= 3; }));
        QCOMPARE(items->topLevelItem(0)->data(TraceDialog::Item, TraceDialog::KindRole).toString(), QStringLiteral("event"));
        QCOMPARE(items->topLevelItem(0)->text(TraceDialog::Id), QStringLiteral("2"));
        QStringList kinds;
        for (int i = 0; i < items->topLevelItemCount(); ++i)
            kinds << items->topLevelItem(i)->data(TraceDialog::Item, TraceDialog::KindRole).toString();
        QVERIFY2(kinds.contains(QStringLiteral("notification")) && kinds.contains(QStringLiteral("feed")), qPrintable(kinds.join(u',')));
        page.traceDialog()->close();
    }

    // A history table reads the newest page, and the next one each time it is scrolled to its end.
    void theAuditPageReadsOlderPagesAsItScrolls()
    {
        ConsoleFixture c;
        QVERIFY(c.engine().store().write([](SqlTransaction &tx) -> Status {
            for (int i = 0; i < 450; ++i)
                if (Status s = tx.exec(QStringLiteral("INSERT INTO audit (at_ms, actor, remote_addr, action, target, result) "
                                                      "VALUES (?, 'ops', 'local', 'queue.flush', ?, 'ok')"),
                                       {qint64(1'700'000'000'000) + i, QString::number(i)})
                                   .status();
                    !s)
                    return s;
            return Status::ok();
        }));
        // Read while hidden (every page reads at connect): page 1 only. QTreeView asks for more at
        // each layout of its rows; a hidden table must not read its history to the end.
        MainWindow &w = c.open(QStringLiteral("queues"));
        AuditPage &page = *w.page<AuditPage>(QStringLiteral("audit"));
        QVERIFY(Test::eventually([&] { return page.model().rowCount() == 200; }));
        QCOMPARE(page.model().total(), qint64(450));
        page.view()->doItemsLayout();
        QVERIFY(!page.model().canFetchMore({}));
        w.showPage(QStringLiteral("audit"));
        QVERIFY(Test::eventually([&] { return page.view()->isVisible() && page.view()->verticalScrollBar()->maximum() > 0; }));
        page.view()->doItemsLayout();
        QVERIFY(!page.model().canFetchMore({})); // shown, at the top: nothing more yet
        QCOMPARE(page.model().rowCount(), 200);
        for (int expected : {400, 450}) {
            page.view()->scrollToBottom();
            QVERIFY2(Test::eventually([&] { return page.model().rowCount() == expected; }), qPrintable(QString::number(page.model().rowCount())));
        }
        QVERIFY(!page.model().canFetchMore({}));
        // Sorted newest first across pages: the oldest row is the last one.
        const QModelIndex last = page.view()->model()->index(page.view()->model()->rowCount() - 1, AuditModel::Target);
        QCOMPARE(last.data().toString(), QStringLiteral("0"));
    }

    // The hook dialog offers Gitea's default scope: no target, and the list shows the scope.
    void webhooksDialogAddsADefaultHook()
    {
        ConsoleFixture c("[webhook]\nALLOWED_HOST_LIST = loopback\n");
        MainWindow &w = c.open(QStringLiteral("webhooks"));
        WebhooksPage &page = *w.page<WebhooksPage>(QStringLiteral("webhooks"));
        page.addAction()->trigger();
        HookDialog *dialog = page.dialog();
        QVERIFY(dialog && dialog->isVisible());
        auto *scope = qobject_cast<QComboBox *>(dialog->fieldWidget(QStringLiteral("scope")));
        QVERIFY(scope && !scope->accessibleName().isEmpty());
        const int index = scope->findData(QStringLiteral("default"));
        QVERIFY(index >= 0 && !scope->itemText(index).isEmpty() && !scope->itemData(index, Qt::ToolTipRole).toString().isEmpty());
        scope->setCurrentIndex(index);
        QVERIFY(!dialog->fieldWidget(QStringLiteral("repo_id"))->isEnabled());
        qobject_cast<QLineEdit *>(dialog->fieldWidget(QStringLiteral("url")))->setText(QStringLiteral("http://127.0.0.1:9/new"));
        Q_EMIT dialog->submitted();
        QVERIFY(Test::eventually([&] { return page.dialog() == nullptr && page.hooks().rowCount() == 1; }));
        QCOMPARE(page.hooks().rows().front().scope, QStringLiteral("default"));
        QCOMPARE(page.hooks().rows().front().repoId, 0);
    }

    // The Webhooks page: add a hook through the dialog (a refusal is shown in the dialog, with
    // the field focused and nothing lost), test it against a real receiver, read the request and
    // the response, redeliver, delete after a confirmation.
    void webhooksPageAddsTestsAndRedelivers()
    {
        Test::HttpReceiver receiver;
        receiver.respond(200, "{\"ok\":true}");
        ConsoleFixture c("[webhook]\nALLOWED_HOST_LIST = loopback\n");
        c.ingest("gitea-issues-opened.json", "issues");
        c.settleEvents();
        MainWindow &w = c.open(QStringLiteral("webhooks"));
        WebhooksPage &page = *w.page<WebhooksPage>(QStringLiteral("webhooks"));
        QVERIFY(!page.editAction()->isEnabled() && !page.testAction()->isEnabled() && !page.redeliverAction()->isEnabled());
        for (QAction *action : {page.addAction(), page.editAction(), page.testAction(), page.deleteAction(), page.redeliverAction()})
            QVERIFY(!action->text().isEmpty() && !action->toolTip().isEmpty());
        QVERIFY(!page.taskView()->accessibleName().isEmpty() && !page.requestText()->accessibleName().isEmpty());

        page.addAction()->trigger();
        HookDialog *dialog = page.dialog();
        QVERIFY(dialog && dialog->isVisible());
        for (const char *field : {"scope", "repo_id", "url", "name", "type", "http_method", "content_type", "secret",
                                  "authorization_header", "events", "active"}) {
            QWidget *widget = dialog->fieldWidget(QLatin1String(field));
            QVERIFY2(widget && !widget->accessibleName().isEmpty(), field);
        }
        qobject_cast<QSpinBox *>(dialog->fieldWidget(QStringLiteral("repo_id")))->setValue(1);
        auto *url = qobject_cast<QLineEdit *>(dialog->fieldWidget(QStringLiteral("url")));
        url->setText(QStringLiteral("not a url"));
        qobject_cast<QLineEdit *>(dialog->fieldWidget(QStringLiteral("secret")))->setText(QStringLiteral("s3cret"));
        Q_EMIT dialog->submitted();
        auto *error = dialog->findChild<QLabel *>(QStringLiteral("errorLabel"));
        QVERIFY(Test::eventually([&] { return error->isVisible() && error->text().contains(QLatin1String("url")); }));
        QVERIFY(dialog->isVisible());
        QCOMPARE(QApplication::focusWidget() == url || !dialog->isActiveWindow(), true);
        QCOMPARE(qobject_cast<QLineEdit *>(dialog->fieldWidget(QStringLiteral("secret")))->text(), QStringLiteral("s3cret"));
        url->setText(QString::fromLatin1(receiver.url("/hook")));
        Q_EMIT dialog->submitted();
        QVERIFY(Test::eventually([&] { return page.dialog() == nullptr && page.hooks().rowCount() == 1; }));
        const Admin::HookRow hook = page.hooks().rows().front();
        QCOMPARE(hook.scope, QStringLiteral("repository"));
        QVERIFY(hook.hasSecret);
        QVERIFY(Test::eventually([&] { return page.selectedHook() == hook.id; }));
        QVERIFY(page.testAction()->isEnabled());

        // Test delivery: the receiver gets the fake push; its row ends succeeded with both sides.
        page.testAction()->trigger();
        QVERIFY(Test::eventually([&] { return receiver.requests().size() == 1; }));
        QVERIFY(Test::eventually([&] { return page.tasks().rowCount() == 1 && page.tasks().rows().front().status == QLatin1String("succeeded"); }));
        QVERIFY(page.selectTask(page.tasks().rows().front().id));
        QVERIFY(page.requestText()->toPlainText().contains(QLatin1String("X-Gitea-Event: push")));
        QVERIFY(page.requestText()->toPlainText().contains(QLatin1String("This is a fake commit")));
        QVERIFY(page.responseText()->toPlainText().startsWith(QLatin1String("HTTP 200")));

        // Redeliver: a second row, a second request with another delivery id.
        QVERIFY(page.redeliverAction()->isEnabled());
        page.redeliverAction()->trigger();
        QVERIFY(Test::eventually([&] { return receiver.requests().size() == 2; }));
        QVERIFY(receiver.requests().at(0).header("X-Gitea-Delivery") != receiver.requests().at(1).header("X-Gitea-Delivery"));
        QVERIFY(Test::eventually([&] { return page.tasks().rowCount() == 2; }));
        // The instance's figures and the latency chart follow the deliveries.
        QVERIFY(Test::eventually([&] {
            page.refresh();
            return page.figuresLabel()->text().contains(QLatin1String("2 succeeded")) && page.figuresLabel()->text().contains(QLatin1String("2 sent"));
        }));
        QVERIFY(page.latencyChart()->sampleCount() > 0);
        QVERIFY(!page.latencyChart()->accessibleName().isEmpty());

        // Edit keeps what it does not show (the secret), then Delete asks first.
        page.editAction()->trigger();
        QVERIFY(page.dialog() && page.dialog()->isEdit());
        qobject_cast<QCheckBox *>(page.dialog()->fieldWidget(QStringLiteral("active")))->setChecked(false);
        Q_EMIT page.dialog()->submitted();
        QVERIFY(Test::eventually([&] { return page.dialog() == nullptr && !page.hooks().rows().front().active; }));
        QVERIFY(page.hooks().rows().front().hasSecret);
        page.deleteAction()->trigger();
        QMessageBox *box = waitForBox(&page, QStringLiteral("confirmation"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QLatin1String("history of 2 deliver")));
        clickButtonWithText(box, QStringLiteral("Delete"));
        QVERIFY(Test::eventually([&] { return page.hooks().rowCount() == 0; }));
        QCOMPARE(c.engine().webhooks().list()->size(), std::size_t(0));
    }

    // A delivery whose instance ended during it: the row says it was resent, its tooltip says
    // why, and the Attempts tab lists the interrupted attempt (who held it, who took it over)
    // before the last one.
    void anInterruptedDeliveryShowsItsAttempts()
    {
        Test::HttpReceiver receiver;
        receiver.respond(200, "ok");
        ConsoleFixture c("[webhook]\nALLOWED_HOST_LIST = loopback\n");
        Webhook::Hook hook;
        hook.isSystem = true;
        hook.url = QString::fromLatin1(receiver.url("/hook"));
        hook.events.sendEverything = true;
        const Result<Webhook::Hook> created = c.engine().webhooks().create(hook);
        QVERIFY(created);
        // A task claimed by an instance that is gone, as a crash leaves it.
        QVERIFY(c.engine().store().write([&](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, created_ms, "
                                          "is_delivered, claimed_ms, claimed_by) VALUES (?, 'abandoned-delivery', ?, 2, 'push', ?, 1, ?, "
                                          "'gone-instance')"),
                           {created->id, QByteArray(R"({"ref":"refs/heads/main","commits":[]})"), QDateTime::currentMSecsSinceEpoch(),
                            QDateTime::currentMSecsSinceEpoch()})
                .status();
        }));
        MainWindow &w = c.open(QStringLiteral("webhooks"));
        WebhooksPage &page = *w.page<WebhooksPage>(QStringLiteral("webhooks"));
        QVERIFY(c.engine().webhooks().recoverInterrupted(CancelToken()));
        QVERIFY(Test::eventually([&] { return receiver.requests().size() == 1; }));
        QCOMPARE(receiver.requests().front().header("X-Gitea-Delivery"), QByteArray("abandoned-delivery"));
        QVERIFY(Test::eventually([&] {
            page.refresh();
            return page.tasks().rowCount() == 1 && page.tasks().rows().front().status == QLatin1String("succeeded");
        }));
        const QModelIndex status = page.tasks().index(0, HookTaskModel::Status);
        QVERIFY2(status.data().toString().endsWith(QLatin1String("resent")), qPrintable(status.data().toString()));
        QVERIFY(status.data(Qt::ToolTipRole).toString().contains(QLatin1String("gone-instance")));
        QVERIFY(page.selectTask(page.tasks().rows().front().id));
        const QString attempts = page.attemptsText()->toPlainText();
        QVERIFY2(attempts.contains(QStringLiteral("Attempt 1 — unknown (interrupted)")) && attempts.contains(QLatin1String("gone-instance"))
                     && attempts.contains(QLatin1String("sent again under the same delivery id")) && attempts.contains(QStringLiteral("Attempt 2 — succeeded")),
                 qPrintable(attempts));
        QVERIFY(!page.attemptsText()->accessibleName().isEmpty());
    }

    // A chat channel through the dialog: choosing slack shows its settings (named, reachable by
    // Tab), a missing channel is refused with that field focused, and the hook then delivers a
    // Slack message to the receiver.
    void aSlackHookIsAddedWithItsChannelSettings()
    {
        Test::HttpReceiver receiver;
        receiver.respond(200, "ok");
        ConsoleFixture c("[webhook]\nALLOWED_HOST_LIST = loopback\n");
        c.ingest("gitea-issues-opened.json", "issues"); // repository 1
        c.settleEvents();
        MainWindow &w = c.open(QStringLiteral("webhooks"));
        WebhooksPage &page = *w.page<WebhooksPage>(QStringLiteral("webhooks"));
        page.addAction()->trigger();
        HookDialog *dialog = page.dialog();
        QVERIFY(dialog);
        auto *channelBox = dialog->findChild<QGroupBox *>(QStringLiteral("channelBox"));
        QVERIFY(channelBox && channelBox->isHidden()); // gitea: no channel settings
        auto *type = qobject_cast<QComboBox *>(dialog->fieldWidget(QStringLiteral("type")));
        QCOMPARE(type->count(), 11);
        type->setCurrentIndex(type->findData(QStringLiteral("slack")));
        QVERIFY(!channelBox->isHidden());
        auto *channel = qobject_cast<QLineEdit *>(dialog->fieldWidget(QStringLiteral("meta.channel")));
        QVERIFY(channel && channel->accessibleName() == QLatin1String("Channel"));
        QVERIFY(!qobject_cast<QComboBox *>(dialog->fieldWidget(QStringLiteral("content_type")))->isEnabled());
        qobject_cast<QSpinBox *>(dialog->fieldWidget(QStringLiteral("repo_id")))->setValue(1);
        qobject_cast<QLineEdit *>(dialog->fieldWidget(QStringLiteral("url")))->setText(QString::fromLatin1(receiver.url("/slack")));
        Q_EMIT dialog->submitted();
        auto *error = dialog->findChild<QLabel *>(QStringLiteral("errorLabel"));
        QVERIFY2(Test::eventually([&] { return error->isVisible() && error->text().contains(QLatin1String("meta.channel")); }), qPrintable(error->text()));
        QCOMPARE(QApplication::focusWidget() == channel || !dialog->isActiveWindow(), true);
        channel->setText(QStringLiteral("#ops"));
        Q_EMIT dialog->submitted();
        QVERIFY(Test::eventually([&] { return page.dialog() == nullptr && page.hooks().rowCount() == 1; }));
        QCOMPARE(page.hooks().rows().front().type, QStringLiteral("slack"));
        QCOMPARE(page.hooks().rows().front().meta.toObject().value(QStringLiteral("channel")).toString(), QStringLiteral("#ops"));
        QVERIFY(Test::eventually([&] { return page.selectedHook() == page.hooks().rows().front().id; }));
        page.testAction()->trigger();
        QVERIFY(Test::eventually([&] { return receiver.requests().size() == 1; }));
        const QJsonObject sent = QJsonDocument::fromJson(receiver.requests().front().body).object();
        QCOMPARE(sent.value(QStringLiteral("channel")).toString(), QStringLiteral("#ops"));
        QVERIFY(sent.value(QStringLiteral("text")).toString().contains(QLatin1String("pushed by")));

        // Editing shows the stored settings back.
        page.editAction()->trigger();
        QVERIFY(page.dialog());
        QCOMPARE(qobject_cast<QLineEdit *>(page.dialog()->fieldWidget(QStringLiteral("meta.channel")))->text(), QStringLiteral("#ops"));
        page.dialog()->reject();
    }

    // The deliveries filter: all webhooks, failed only, text in the response; "Redeliver
    // matching…" counts, asks, and runs its job to the end; Export writes every match as CSV.
    void deliveriesAreFilteredRedeliveredInBulkAndExported()
    {
        Test::HttpReceiver ok;
        Test::HttpReceiver flaky;
        flaky.respond(502, "bad gateway");
        ConsoleFixture c("[webhook]\nALLOWED_HOST_LIST = loopback\n");
        for (Test::HttpReceiver *receiver : {&ok, &flaky}) {
            Webhook::Hook hook;
            hook.isSystem = true;
            hook.url = QString::fromLatin1(receiver->url("/hook"));
            hook.events.sendEverything = true;
            QVERIFY(c.engine().webhooks().create(hook));
        }
        c.ingest("gitea-issues-opened.json", "issues");
        c.ingest("gitea-push.json", "push");
        c.settleEvents();
        Webhook::TaskFilter failed;
        failed.outcome = Webhook::TaskOutcome::Failed;
        QVERIFY(Test::eventually([&] { return c.engine().webhooks().count(failed).valueOr(0) == 2; }));

        MainWindow &w = c.open(QStringLiteral("webhooks"));
        WebhooksPage &page = *w.page<WebhooksPage>(QStringLiteral("webhooks"));
        for (QWidget *widget : std::initializer_list<QWidget *>{page.scopeBox(), page.statusBox(), page.eventBox(), page.periodBox(),
                                                                page.searchField(), page.cancelJobButton(), page.jobProgress()})
            QVERIFY(!widget->accessibleName().isEmpty());
        QVERIFY(Test::eventually([&] { return page.tasks().rowCount() == 2; })); // the first hook's
        QVERIFY(page.taskView()->isColumnHidden(HookTaskModel::Hook));
        QVERIFY(!page.redeliverMatchingAction()->isEnabled()); // any status: nothing to redeliver in bulk
        page.scopeBox()->setCurrentIndex(page.scopeBox()->findData(1)); // all webhooks
        QVERIFY(Test::eventually([&] { return page.tasks().rowCount() == 4; }));
        QVERIFY(!page.taskView()->isColumnHidden(HookTaskModel::Hook));
        page.statusBox()->setCurrentIndex(page.statusBox()->findData(QStringLiteral("failed")));
        QVERIFY(Test::eventually([&] {
            const auto &rows = page.tasks().rows();
            return rows.size() == 2 && std::all_of(rows.begin(), rows.end(), [](const Admin::HookTaskRow &r) { return r.status == QLatin1String("failed"); });
        }));
        QVERIFY(page.redeliverMatchingAction()->isEnabled());
        page.searchField()->setText(QStringLiteral("nothing like this"));
        Q_EMIT page.searchField()->returnPressed();
        QVERIFY(Test::eventually([&] { return page.tasks().rowCount() == 0; }));
        page.searchField()->setText(QStringLiteral("BAD GATEWAY"));
        Q_EMIT page.searchField()->returnPressed();
        QVERIFY(Test::eventually([&] { return page.tasks().rowCount() == 2; }));

        // Bulk: counted, confirmed, run; the job's end is reported and the copies are delivered.
        flaky.respond(200, "recovered");
        page.redeliverMatchingAction()->trigger();
        QMessageBox *box = waitForBox(&page, QStringLiteral("confirmation"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QLatin1String("Each of the 2 failed")), qPrintable(box->text()));
        clickButtonWithText(box, QStringLiteral("Redeliver"));
        QVERIFY(Test::eventually([&] { return w.lastOperation().contains(QLatin1String("redelivery job for 2 deliveries ended")); }));
        QVERIFY(!page.runningJob());
        QVERIFY(Test::eventually([&] { return flaky.requests().size() == 4; }));

        // Export: every match of the filter (the failed originals stay failed), then everything.
        QTemporaryDir dir;
        const QString failedCsv = dir.filePath(QStringLiteral("failed.csv"));
        page.exportTo(failedCsv);
        QVERIFY(page.runningJob());
        QVERIFY(!page.exportAction()->isEnabled());
        QVERIFY(Test::eventually([&] { return !page.runningJob(); }));
        QVERIFY2(w.lastOperation().contains(QLatin1String("Exported 2 deliveries")), qPrintable(w.lastOperation()));
        QList<QByteArray> lines = Test::readFile(failedCsv).split('\n');
        QCOMPARE(lines.size(), 4); // header, two rows, the empty rest
        QCOMPARE(lines.at(0) + '\n', Admin::deliveryCsvHeader());
        QVERIFY(lines.at(1).contains(",failed,"));
        page.searchField()->clear();
        page.statusBox()->setCurrentIndex(0);
        const QString allCsv = dir.filePath(QStringLiteral("all.csv"));
        QVERIFY(Test::eventually([&] { return page.exportAction()->isEnabled(); }));
        page.exportTo(allCsv);
        QVERIFY(Test::eventually([&] { return !page.runningJob(); }));
        QCOMPARE(Test::readFile(allCsv).count('\n'), 1 + 6); // four originals and two copies
    }

    // scripts/screenshots.sh runs this once per language and window size:
    // SWITCHYARD_SCREENSHOT_LANG (zh_CN), SWITCHYARD_SCREENSHOT_SIZE (1920x1080) and
    // SWITCHYARD_SCREENSHOTS (the folder) — each name gets "-<lang>" / "-<size>" when not the default.
    void rendersEveryPage()
    {
        const QString language = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_LANG");
        const QString size = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_SIZE", QStringLiteral("1280x800"));
        QTranslator translator;
        if (!language.isEmpty()) {
            QVERIFY2(translator.load(QStringLiteral(":/i18n/console_%1.qm").arg(language)), qPrintable(language));
            QCoreApplication::installTranslator(&translator);
        }
        const QString suffix = (language.isEmpty() ? QString() : QLatin1Char('-') + language)
                               + (size == QLatin1String("1280x800") ? QString() : QLatin1Char('-') + size);
        ConsoleFixture c("[webhook]\nALLOWED_HOST_LIST = loopback\n");
        c.window->resize(size.section(QLatin1Char('x'), 0, 0).toInt(), size.section(QLatin1Char('x'), 1, 1).toInt());
        // Two system hooks: a CI that answers, a relay that fails (red on the Webhooks page).
        Test::HttpReceiver ci;
        Test::HttpReceiver relay;
        relay.respond(500, "upstream unavailable");
        for (const auto &[receiver, name] : {std::pair{&ci, "ci"}, std::pair{&relay, "chat relay"}}) {
            Webhook::Hook hook;
            hook.isSystem = true;
            hook.url = QString::fromLatin1(receiver->url("/hooks/gitea"));
            hook.name = QLatin1String(name);
            hook.secret = QStringLiteral("s3cret");
            hook.events.sendEverything = true;
            QVERIFY(c.engine().webhooks().create(hook));
        }
        for (const auto &[file, event] : {std::pair{"gitea-issues-opened.json", "issues"}, std::pair{"gitea-issue-comment-created.json", "issue_comment"},
                                          std::pair{"gitea-push.json", "push"}, std::pair{"gitea-pull-request-opened.json", "pull_request"},
                                          std::pair{"gitea-release-published.json", "release"}, std::pair{"github-pull-request-review.json", "pull_request_review"}})
            c.ingest(file, event);
        c.settleEvents();
        auto mail = c.queue(QStringLiteral("mail"), true);
        auto webhooks = c.queue(QStringLiteral("repo_stats_update"), false);
        c.queue(QStringLiteral("issue_indexer"), false);
        QVERIFY(mail->pause(CancelToken()));
        c.push(QStringLiteral("mail"), 1204);
        auto release = std::make_shared<Gate>();
        release->open();
        c.blockingTask(QStringLiteral("index_repos"), release);
        QVERIFY(c.engine().cron().runNow(QStringLiteral("index_repos"), QStringLiteral("admin")));
        Result<LockGuard> a = c.engine().locker().tryLock(CancelToken(), QStringLiteral("repo:42:archive"));
        Result<LockGuard> b = c.engine().locker().tryLock(CancelToken(), QStringLiteral("cron:delete_old_actions"));
        QVERIFY(a && b);
        c.engine().notices().add(QStringLiteral("cron"), QStringLiteral("Cron task delete_old_actions failed: database is locked"));
        c.engine().notices().add(QStringLiteral("lock"), QStringLiteral("Lock repo:7:migrate force-released by admin"));
        for (int i = 0; i < 30; ++i) {
            c.push(QStringLiteral("repo_stats_update"), 40 + (i % 7) * 25);
            QTest::qWait(100); // the throughput history needs samples spread over time
        }
        c.engine().cron().waitIdle();
        // Changes made through the console are audited (the Audit page lists them).
        std::optional<Status> audited;
        c.backend->call(Admin::Ops::queueSetMaxWorkers, {c.qid(QStringLiteral("repo_stats_update")), 4}, c.window.get(),
                        [&](Result<Admin::Done> s) { audited = s.status(); });
        QVERIFY(Test::eventually([&] { return audited.has_value(); }));
        QVERIFY(*audited);

        MainWindow &w = *c.window;
        w.show();
        w.refreshAll();
        const QString dir = qEnvironmentVariable("SWITCHYARD_SCREENSHOTS", QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("screenshots")));
        QVERIFY(QDir().mkpath(dir));
        for (Page *page : w.pages()) {
            w.showPage(page->id());
            if (auto *table = qobject_cast<TablePage *>(page)) {
                QVERIFY(Test::eventually([&] { return table->view()->model()->rowCount() > 0; }));
                table->view()->selectionModel()->setCurrentIndex(table->view()->model()->index(0, 0),
                                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            }
            if (auto *queuesPage = qobject_cast<QueuesPage *>(page)) // the busy queue, not the engine's idle ones
                QVERIFY(queuesPage->selectKey(c.qid(QStringLiteral("mail"))));
            QTest::qWait(1200); // a second of live updates and countdowns
            const QString file = QDir(dir).filePath(page->id() + suffix + QStringLiteral(".png"));
            QVERIFY(w.grab().save(file));
            QVERIFY(QFileInfo(file).size() > 10000);
        }
        // Nothing scrolls sideways in the Notifications page's narrow Users pane (it did at 1280 × 800).
        w.showPage(QStringLiteral("notifications"));
        QTreeView *users = w.page<NotificationsPage>(QStringLiteral("notifications"))->userView();
        QVERIFY(Test::eventually([&] { return users->model()->rowCount() > 0; }));
        QCOMPARE(users->horizontalScrollBar()->maximum(), 0);
        QVERIFY(users->header()->sectionSize(ForgeUserModel::Source) >= users->header()->sectionSizeHint(ForgeUserModel::Source));
        // The same pages in the dark theme (View ▸ Theme ▸ Dark): the palette, the status colours
        // and the header follow; the choice is remembered.
        const QColor lightError = statusColor(StatusColor::Error);
        auto *dark = w.findChild<QAction *>(QStringLiteral("theme-dark"));
        QVERIFY(dark);
        dark->trigger();
        QVERIFY(isDark(QApplication::palette()));
        QCOMPARE(QSettings().value(QStringLiteral("theme")).toString(), QStringLiteral("dark"));
        QVERIFY(statusColor(StatusColor::Error).lightness() > lightError.lightness()); // readable on a dark window
        auto *header = w.findChild<QLabel *>(QStringLiteral("instanceHeader"));
        QVERIFY(header->palette().color(QPalette::Window).lightness() < 100);
        for (Page *page : w.pages()) {
            w.showPage(page->id());
            QTest::qWait(200);
            const QString file = QDir(dir).filePath(page->id() + QStringLiteral("-dark") + suffix + QStringLiteral(".png"));
            QVERIFY(w.grab().save(file));
            QVERIFY(QFileInfo(file).size() > 10000);
        }
        w.findChild<QAction *>(QStringLiteral("theme-system"))->trigger();
        QVERIFY(!isDark(QApplication::palette()));

        // The selected queue's waiting items, the first one opened.
        w.showPage(QStringLiteral("queues"));
        QueuesPage &queues = *w.page<QueuesPage>(QStringLiteral("queues"));
        QVERIFY(queues.selectKey(c.qid(QStringLiteral("mail"))));
        queues.detailTabs()->setCurrentWidget(queues.itemsView());
        QVERIFY(Test::eventually([&] { return queues.itemsView()->list()->topLevelItemCount() > 0; }));
        queues.itemsView()->list()->setCurrentItem(queues.itemsView()->list()->topLevelItem(0));
        const QString items = QDir(dir).filePath(QStringLiteral("queues-items") + suffix + QStringLiteral(".png"));
        QVERIFY(w.grab().save(items));
        mail->resume();
        c.gate->open();
    }
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
