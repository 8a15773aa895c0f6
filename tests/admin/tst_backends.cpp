// One conformance suite for both AdminBackends (SPEC §12: a page works the same on either): run as
// tst_backends_local (the embedded engine) and tst_backends_remote (a test daemon over the admin
// API). Same data on both: two queues ("slow" batches take 200 ms), a held lock, a user cron task
// that sleeps.
#include "admin/localbackend.h"
#include "admin/remotebackend.h"

#include "support/daemonprocess.h"
#include "support/httpreceiver.h"
#include "support/testengine.h"
#include "support/testutil.h"
#include "support/opcall.h"
#include "support/wait.h"

#include <QFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QFile>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace Switchyard;
using namespace std::chrono_literals;
using Admin::AdminBackend;

using Switchyard::Test::await;

namespace {

const QByteArray kConfig = "[queue]\nTYPE = channel\n[webhook]\nALLOWED_HOST_LIST = loopback\n"
                           "[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = Switchyard <sy@example.com>\n"
                           "[cron.slow_task]\nCOMMAND = sleep 30\nSCHEDULE = @every 1h\nTITLE = Sleeps\n";

const Test::TestEngineSpec kSpec{{{QStringLiteral("slow"), 200}, {QStringLiteral("fast"), 0}},
                                 {{QStringLiteral("slow"), 200}},
                                 QStringLiteral("demo-lock")};

bool remote()
{
    return qgetenv("SY_BACKEND") == "remote";
}


} // namespace

class TestBackends : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Test::DaemonProcess m_daemon;
    std::optional<LockGuard> m_heldLock;
    std::unique_ptr<AdminBackend> m_backend;
    Admin::LocalBackend *m_local = nullptr;

    AdminBackend &backend() { return *m_backend; }

    qint64 qid(const QString &name)
    {
        const auto queues = Test::call(backend(), Admin::Ops::queueList, {});
        for (const Admin::QueueRow &q : queues.value())
            if (q.name == name)
                return q.qid;
        return -1;
    }
    Admin::CronRow cron(const QString &name)
    {
        const auto tasks = Test::call(backend(), Admin::Ops::cronList, {});
        for (const Admin::CronRow &t : tasks.value())
            if (t.name == name)
                return t;
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (remote()) {
            const Test::DaemonProcess::Options options = Test::DaemonProcess::standardFixture(QStringLiteral(TEST_DAEMON_PATH), m_dir.path(), kConfig);
            QVERIFY2(m_daemon.start(options), m_daemon.output().constData());
            Admin::RemoteBackendOptions remoteOptions;
            remoteOptions.url = m_daemon.baseUrl();
            remoteOptions.token = m_daemon.adminToken();
            remoteOptions.progressInterval = 50ms;
            auto backend = std::make_unique<Admin::RemoteBackend>(remoteOptions);
            backend->start();
            m_backend = std::move(backend);
        } else {
            const EngineConfig config = Test::configFrom(kConfig, m_dir.path());
            Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), config);
            QVERIFY2(engine.isOk(), qPrintable(engine.status().toString()));
            QVERIFY(Test::prepareTestEngine(**engine, kSpec, m_heldLock));
            Admin::LocalBackendOptions options;
            options.eventInterval = 200ms;
            options.progressInterval = 50ms;
            options.doer = QStringLiteral("tester");
            auto backend = std::make_unique<Admin::LocalBackend>(std::move(engine).value(), options);
            m_local = backend.get();
            m_backend = std::move(backend);
        }
        QVERIFY(Test::eventually([&] { return backend().state() == AdminBackend::State::Connected; }));
        QVERIFY(backend().canMutate());
        // "slow" holds its items until a test asks for them (a flush drains a paused queue too): how
        // fast the machine or a sanitizer runs must not decide whether a flush finds work.
        QVERIFY(Test::call(backend(), Admin::Ops::queuePause, {qid(QStringLiteral("slow"))}).status());
    }

    void cleanupTestCase()
    {
        QSignalSpy closed(m_backend.get(), &AdminBackend::closed);
        m_heldLock.reset();
        backend().close(QStringLiteral("test over"));
        QVERIFY(closed.wait(30000) || closed.count() == 1);
        QCOMPARE(closed.at(0).at(0).toBool(), true);
        QCOMPARE(backend().state(), AdminBackend::State::Closed);
        if (remote())
            QCOMPARE(m_daemon.stop(), 0);
    }

    void repliesArriveOnTheContextsThreadNeverInsideTheCall()
    {
        // A context on this thread: the reply comes from the event loop, not from inside the call.
        QObject here;
        bool answered = false;
        backend().call(Admin::Ops::instance, {}, &here, [&](Result<Admin::InstanceInfo> info) { answered = info.isOk(); });
        QVERIFY(!answered);
        QVERIFY(Test::eventually([&] { return answered; }));

        // A context living on a worker thread: the reply runs there, as adminbackend.h promises.
        QThread worker;
        worker.start();
        QObject there;
        there.moveToThread(&worker);
        std::atomic<QThread *> ranOn = nullptr;
        backend().call(Admin::Ops::instance, {}, &there, [&](Result<Admin::InstanceInfo>) { ranOn = QThread::currentThread(); });
        QVERIFY(Test::eventually([&] { return ranOn.load() != nullptr; }));
        QCOMPARE(ranOn.load(), &worker);

        // A context gone before the answer: nothing runs, nothing leaks (ASan).
        bool late = false;
        {
            QObject gone;
            backend().call(Admin::Ops::queueList, {}, &gone, [&](Result<std::vector<Admin::QueueRow>>) { late = true; });
        }
        QObject later;
        bool after = false;
        backend().call(Admin::Ops::instance, {}, &later, [&](Result<Admin::InstanceInfo>) { after = true; });
        QVERIFY(Test::eventually([&] { return after; }));
        QVERIFY(!late);
        worker.quit();
        worker.wait();
    }

    void readsEveryList()
    {
        const Result<Admin::InstanceInfo> instance = Test::call(backend(), Admin::Ops::instance, {});
        QVERIFY(instance.isOk());
        QVERIFY(!instance->instanceId.isEmpty());
        QVERIFY(instance->startedAt.isValid());
        QCOMPARE(instance->lockService, QStringLiteral("memory"));
        // This instance among those sharing the store: itself, live, with its heartbeat.
        const auto peers = Test::call(backend(), Admin::Ops::instanceList, {});
        QVERIFY2(peers, qPrintable(peers.status().toString()));
        const auto self = std::find_if(peers->begin(), peers->end(), [&](const InstanceRecord &r) { return r.id == instance->instanceId; });
        QVERIFY(self != peers->end());
        QVERIFY(self->live);
        QVERIFY(self->heartbeatAt.isValid());
        QVERIFY(self->ended.isEmpty());

        const auto queues = Test::call(backend(), Admin::Ops::queueList, {});
        QVERIFY(queues.isOk());
        QCOMPARE(queues->size(), std::size_t(6)); // webhook_sender, mail, notification-service, event_ingest, slow, fast
        QVERIFY(qid(QStringLiteral("slow")) > 0);
        const auto settings = Test::settingsOf(Test::call(backend(), Admin::Ops::queueGet, {qid(QStringLiteral("slow"))}));
        QVERIFY(settings.isOk());
        QCOMPARE(settings->type, QStringLiteral("channel"));

        QCOMPARE(cron(QStringLiteral("slow_task")).title, QStringLiteral("Sleeps"));
        QVERIFY(!Test::call(backend(), Admin::Ops::processList, {})->empty());
        QVERIFY(Test::call(backend(), Admin::Ops::noticeList, {}).isOk());
        const auto locks = Test::call(backend(), Admin::Ops::lockList, {});
        QCOMPARE(locks->size(), std::size_t(1));
        QCOMPARE(locks->front().key, QStringLiteral("demo-lock"));
        QCOMPARE(Test::call(backend(), Admin::Ops::cacheInfo, {})->adapter, QStringLiteral("memory"));
        QVERIFY(Test::call(backend(), Admin::Ops::cacheStats, {}).isOk());
        QVERIFY(Test::call(backend(), Admin::Ops::cacheCheck, {})->ok);
        QVERIFY(!Test::call(backend(), Admin::Ops::qos, {})->enabled);
        const auto checks = Test::call(backend(), Admin::Ops::selfCheck, {});
        QVERIFY(checks->size() >= 3);
    }

    void errorsKeepTheirCodes()
    {
        QCOMPARE(Test::call(backend(), Admin::Ops::queuePause, {999}).status().code(), Status::Code::NotFound);
        QCOMPARE(Test::settingsOf(Test::call(backend(), Admin::Ops::queueGet, {999})).status().code(),
                 Status::Code::NotFound);
        const Status workers = Test::call(backend(), Admin::Ops::queueSetMaxWorkers, {qid(QStringLiteral("fast")), 0}).status();
        QCOMPARE(workers.code(), Status::Code::InvalidArgument);
        QVERIFY2(workers.message().startsWith(QStringLiteral("max_workers:")), qPrintable(workers.message()));
        const Status three = Test::call(backend(), Admin::Ops::queueSetMaxWorkers, {qid(QStringLiteral("fast")), 3}).status();
        QVERIFY2(three.isOk(), qPrintable(three.toString()));
        QCOMPARE(Test::call(backend(), Admin::Ops::cronRun, {QStringLiteral("nope")}).status().code(), Status::Code::NotFound);
        QCOMPARE(Test::call(backend(), Admin::Ops::lockForceRelease, {QStringLiteral("nope")}).status().code(),
                 Status::Code::NotFound);
        QCOMPARE(Test::call(backend(), Admin::Ops::processCancel, {99999999}).status().code(), Status::Code::NotFound);
    }

    void cronRunTwiceIsAConflict()
    {
        QVERIFY(Test::call(backend(), Admin::Ops::cronRun, {QStringLiteral("slow_task")}).status());
        QCOMPARE(Test::call(backend(), Admin::Ops::cronRun, {QStringLiteral("slow_task")}).status().code(), Status::Code::Conflict);
        QVERIFY(cron(QStringLiteral("slow_task")).running);
        qint64 pid = 0;
        const auto processes = Test::call(backend(), Admin::Ops::processList, {});
        for (const Admin::ProcessRow &p : processes.value())
            if (p.description.contains(QStringLiteral("slow_task")) && p.cancellable)
                pid = p.pid;
        QVERIFY(pid > 0);
        QVERIFY(Test::call(backend(), Admin::Ops::processCancel, {pid}).status());
        QVERIFY(Test::eventually([&] { return !cron(QStringLiteral("slow_task")).running; }));
        const auto runs = Test::call(backend(), Admin::Ops::cronRuns, {QStringLiteral("slow_task")});
        QCOMPARE(runs->front().status, QStringLiteral("cancelled"));
        QCOMPARE(runs->front().trigger, QStringLiteral("manual"));

        QVERIFY(Test::call(backend(), Admin::Ops::cronPause, {QStringLiteral("slow_task")}).status());
        QVERIFY(cron(QStringLiteral("slow_task")).paused);
        QVERIFY(Test::call(backend(), Admin::Ops::cronResume, {QStringLiteral("slow_task")}).status());
        QVERIFY(!cron(QStringLiteral("slow_task")).paused);
    }

    // "slow" has items waiting and a worker busy on one batch at a time: the peek shows the
    // waiting ones from the head, the in-flight view the one in a worker's hands.
    void peekAndInFlight()
    {
        const qint64 slow = qid(QStringLiteral("slow"));
        const Result<std::vector<Admin::QueueItem>> items = Test::call(backend(), Admin::Ops::queueItems, {slow, 5, 0});
        QVERIFY2(items, qPrintable(items.status().toString()));
        QCOMPARE(items->size(), std::size_t(5));
        for (std::size_t i = 0; i < items->size(); ++i) {
            QCOMPARE((*items)[i].position, qint64(i));
            QVERIFY((*items)[i].body.sizeBytes > 0);
            QVERIFY((*items)[i].body.payload || !(*items)[i].body.preview.isEmpty());
        }
        const Result<std::vector<Admin::QueueItem>> second = Test::call(backend(), Admin::Ops::queueItems, {slow, 2, 3});
        QVERIFY(second);
        QCOMPARE(second->size(), std::size_t(2));
        QCOMPARE(second->front().position, qint64(3));

        // Paused (initTestCase), nothing is taken: let a worker take a batch, look, pause again.
        QVERIFY(Test::call(backend(), Admin::Ops::queueResume, {slow}));
        auto pauseAgain = qScopeGuard([&] { Test::call(backend(), Admin::Ops::queuePause, {slow}); });
        Result<std::vector<Admin::InFlightRow>> held = Status::notFound(QString());
        QVERIFY(Test::eventually([&] {
            held = Test::call(backend(), Admin::Ops::queueInFlight, {slow, 50, 0});
            return held && std::any_of(held->begin(), held->end(), [](const Admin::InFlightRow &r) {
                       return r.holder.startsWith(QStringLiteral("worker ")) && r.since.isValid();
                   });
        }));
        QVERIFY(!held->front().instance.isEmpty());
        pauseAgain.dismiss();
        QVERIFY(Test::call(backend(), Admin::Ops::queuePause, {slow}));
        QCOMPARE(Test::call(backend(), Admin::Ops::queueItems, {999, 5, 0}).status().code(), Status::Code::NotFound);
        QCOMPARE(Test::call(backend(), Admin::Ops::queueItems, {slow, 501, 0}).status().code(), Status::Code::InvalidArgument);
    }

    void flushJobsTimeOutCancelAndComplete()
    {
        const qint64 slow = qid(QStringLiteral("slow"));
        // Too short: DeadlineExceeded, with progress reported on the way.
        Admin::AdminJob *short_ = backend().flushQueue(slow, 100ms, this);
        QSignalSpy shortDone(short_, &Admin::AdminJob::finished);
        QVERIFY(shortDone.wait(30000));
        QCOMPARE(shortDone.at(0).at(0).value<Status>().code(), Status::Code::DeadlineExceeded);

        Admin::AdminJob *cancelled = backend().flushQueue(slow, 60s, this);
        QSignalSpy progress(cancelled, &Admin::AdminJob::progress);
        QSignalSpy cancelledDone(cancelled, &Admin::AdminJob::finished);
        QVERIFY(progress.wait(30000));
        QVERIFY(progress.last().at(1).toLongLong() > 0); // the total: items waiting at the start
        cancelled->cancel();
        QVERIFY(cancelledDone.count() == 1 || cancelledDone.wait(30000));
        QCOMPARE(cancelledDone.at(0).at(0).value<Status>().code(), Status::Code::Cancelled);

        const Result<qint64> waiting = Test::countOf(Test::call(backend(), Admin::Ops::queueRemoveAll, {slow, true}));
        QVERIFY(waiting.isOk());
        const Result<qint64> removed = Test::removedOf(Test::call(backend(), Admin::Ops::queueRemoveAll, {slow, false}));
        QVERIFY(removed.isOk());

        Admin::AdminJob *complete = backend().flushQueue(slow, 60s, this);
        QSignalSpy completeDone(complete, &Admin::AdminJob::finished);
        QVERIFY(completeDone.wait(60000));
        QVERIFY(completeDone.at(0).at(0).value<Status>().isOk());
    }

    void theStreamCarriesEveryKind()
    {
        QSignalSpy events(m_backend.get(), &AdminBackend::event);
        auto seen = [&](Admin::AdminEvent::Type type, const std::function<bool(const Admin::AdminEvent &)> &accept) {
            return Test::eventually([&] {
                for (const QList<QVariant> &args : std::as_const(events)) {
                    const auto e = args.at(0).value<Admin::AdminEvent>();
                    if (e.type == type && accept(e))
                        return true;
                }
                return false;
            });
        };
        QVERIFY(seen(Admin::AdminEvent::Type::QueueStats, [](const Admin::AdminEvent &e) { return e.queues.size() == 6; }));
        QVERIFY(Test::call(backend(), Admin::Ops::cronRun, {QStringLiteral("delete_old_system_notices")}).status());
        QVERIFY(seen(Admin::AdminEvent::Type::CronStatus,
                     [](const Admin::AdminEvent &e) { return e.cron.name == QLatin1String("delete_old_system_notices") && e.cron.execTimes >= 1; }));
        QVERIFY(Test::call(backend(), Admin::Ops::lockForceRelease, {QStringLiteral("demo-lock")}).status());
        QVERIFY(seen(Admin::AdminEvent::Type::Lock,
                     [](const Admin::AdminEvent &e) { return e.lock.key == QLatin1String("demo-lock") && e.lock.action == QLatin1String("released"); }));
        Admin::NoticeRow notice;
        QVERIFY(seen(Admin::AdminEvent::Type::Notice, [&](const Admin::AdminEvent &e) {
            notice = e.notice;
            return e.notice.description.contains(QStringLiteral("demo-lock"));
        }));
        QVERIFY(await<Status>([&](QObject *c, auto r) { backend().deleteNotices({notice.id}, c, r); }));
        QVERIFY(seen(Admin::AdminEvent::Type::NoticeRemoved, [&](const Admin::AdminEvent &e) { return e.notice.id == notice.id; }));
        QCOMPARE(await<Status>([&](QObject *c, auto r) { backend().deleteNotices({notice.id}, c, r); }).code(), Status::Code::NotFound);
    }

    void mutatingCallsAreAudited()
    {
        const auto entries = Test::auditOf(Test::call(backend(), Admin::Ops::auditList, {1, 500, QStringLiteral("cron.run"), {}}));
        QVERIFY2(entries.isOk(), qPrintable(entries.status().message()));
        QVERIFY(entries->size() >= 2);
        for (const Admin::AuditEntry &e : *entries)
            QCOMPARE(e.action, QStringLiteral("cron.run"));
        QCOMPARE(entries->front().doer, remote() ? QStringLiteral("admin") : QStringLiteral("tester"));
        QCOMPARE(entries->front().remoteAddr, remote() ? QStringLiteral("127.0.0.1") : QStringLiteral("local"));
        bool conflict = false;
        for (const Admin::AuditEntry &e : *entries)
            conflict = conflict || (e.target == QLatin1String("slow_task") && e.result != QLatin1String("ok"));
        QVERIFY(conflict);
    }

    // The entries the other tests reach through helpers (jobs, batches) or not at all.
    void theRestOfTheCatalogue()
    {
        const Result<Admin::Health> health = Test::call(backend(), Admin::Ops::health);
        QVERIFY2(health, qPrintable(health.status().toString()));
        QCOMPARE(health->apiVersion, 1);
        QVERIFY(!health->instanceId.isEmpty()); // a token came along: the detail too
        const Result<Admin::Text> metrics = Test::call(backend(), Admin::Ops::metrics);
        QVERIFY2(metrics, qPrintable(metrics.status().toString()));
        QVERIFY(metrics->body.contains("switchyard_queue_length{queue=\"fast\""));
        const qint64 fast = qid(QStringLiteral("fast"));
        QVERIFY(Test::call(backend(), Admin::Ops::queuePause, {fast}));
        QVERIFY(Test::call(backend(), Admin::Ops::queueResume, {fast}));
        QCOMPARE(Test::call(backend(), Admin::Ops::queueResume, {999}).status().code(), Status::Code::NotFound);
        QVERIFY(Test::call(backend(), Admin::Ops::queueFlush, {fast, 30000}));
        const Result<Admin::Done> all = Test::call(backend(), Admin::Ops::queueFlushAll, {30000, true});
        QVERIFY2(all, qPrintable(all.status().toString()));
        QVERIFY(all->accepted);
        QCOMPARE(Test::call(backend(), Admin::Ops::noticeDelete, {987654}).status().code(), Status::Code::NotFound);

        const auto history = Test::call(backend(), Admin::Ops::queueHistory, {fast, QStringLiteral("hour")});
        QVERIFY2(history, qPrintable(history.status().toString()));
        QCOMPARE(history->size(), std::size_t(168));
        QVERIFY(history->back().at <= QDateTime::currentDateTimeUtc());
        QVERIFY(history->back().at.secsTo(QDateTime::currentDateTimeUtc()) < 3600);
        const Status badResolution = Test::call(backend(), Admin::Ops::queueHistory, {0, QStringLiteral("week")}).status();
        QCOMPARE(badResolution.code(), Status::Code::InvalidArgument);
        QCOMPARE(badResolution.field(), QStringLiteral("resolution"));
    }

    // A forge's events in, notifications out, read and marked through the backend.
    void eventsAndNotifications()
    {
        const auto sample = [](const char *name) {
            QFile file(QStringLiteral(SWITCHYARD_TEST_DATA "/events/") + QLatin1String(name));
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        Admin::EventPost post;
        post.payload = sample("gitea-issues-opened.json");
        post.giteaEventType = QStringLiteral("issues");
        post.giteaDelivery = QStringLiteral("backend-1");
        const Result<Admin::EventAcceptedRow> opened = Test::call(backend(), Admin::Ops::eventIngest, post);
        QVERIFY2(opened, qPrintable(opened.status().toString()));
        QVERIFY(opened->id > 0);
        post.payload = sample("gitea-issue-comment-created.json"); // carol comments on bob's issue
        post.giteaEventType = QStringLiteral("issue_comment");
        post.giteaDelivery = QStringLiteral("backend-2");
        const Result<Admin::EventAcceptedRow> commented = Test::call(backend(), Admin::Ops::eventIngest, post);
        QVERIFY(commented);
        post.payload = "{";
        post.giteaDelivery = QStringLiteral("backend-3");
        const Result<Admin::EventAcceptedRow> malformed = Test::call(backend(), Admin::Ops::eventIngest, post);
        QCOMPARE(malformed.status().code(), Status::Code::InvalidArgument);
        QCOMPARE(malformed.status().field(), QStringLiteral("body"));
        for (const char *queue : {"event_ingest", "notification-service"})
            QVERIFY(Test::call(backend(), Admin::Ops::queueFlush, {qid(QLatin1String(queue)), 30000}));

        const Result<Admin::Page<EventRecord>> events = Test::call(backend(), Admin::Ops::eventList, {});
        QVERIFY2(events, qPrintable(events.status().toString()));
        QCOMPARE(events->total, qint64(2));
        QCOMPARE(events->rows.front().event, QStringLiteral("issue_comment")); // newest first
        const Result<Admin::EventDetail> detail = Test::call(backend(), Admin::Ops::eventGet, {opened->id});
        QVERIFY2(detail, qPrintable(detail.status().toString()));
        QCOMPARE(detail->event.status, QStringLiteral("done"));
        QCOMPARE(detail->payload.toObject().value(QStringLiteral("action")).toString(), QStringLiteral("opened"));

        // The feed: bob's issue (bob and alice, the owner) and carol's comment (carol and alice).
        const Result<Admin::Page<ActionRow>> feed = Test::call(backend(), Admin::Ops::feedList, {});
        QVERIFY2(feed, qPrintable(feed.status().toString()));
        QCOMPARE(feed->total, qint64(4));
        QCOMPARE(feed->rows.front().opType, ActionType::CommentIssue); // newest first
        QCOMPARE(feed->rows.back().opType, ActionType::CreateIssue);
        QCOMPARE(feed->rows.back().content.section(u'|', 0, 0), QStringLiteral("1"));
        QCOMPARE(feed->rows.back().repo, QStringLiteral("alice/engine"));
        const Result<Admin::Page<ActionRow>> secondPage = Test::call(backend(), Admin::Ops::feedList, {2, 3, 0, 0});
        QCOMPARE(secondPage->rows.size(), std::size_t(1));

        // The comment's trace: the event first (the root), then carol's and alice's feed rows and
        // bob's notification (the issue's poster), each once. (Not the issue's: whether its
        // mention of carol notifies depends on whether carol was known when it was processed.)
        const Result<Admin::Trace> trace = Test::call(backend(), Admin::Ops::traceGet, {commented->traceId});
        QVERIFY2(trace, qPrintable(trace.status().toString()));
        QCOMPARE(trace->root.kind, QStringLiteral("event"));
        QCOMPARE(trace->root.id, commented->id);
        QCOMPARE(trace->root.status, QStringLiteral("done"));
        // The event names the instance that processed it; forge rows name none.
        QVERIFY(!events->rows.front().claimedBy.isEmpty());
        QCOMPARE(trace->root.instance, events->rows.front().claimedBy);
        QStringList kinds;
        for (const Admin::TraceItem &item : trace->items) {
            kinds << item.kind + u' ' + item.status;
            if (item.kind != QLatin1String("event"))
                QVERIFY2(item.instance.isEmpty(), qPrintable(item.kind));
        }
        kinds.sort();
        QVERIFY2(kinds.size() == 4, qPrintable(kinds.join(u',')));
        QCOMPARE(kinds, (QStringList{QStringLiteral("event done"), QStringLiteral("feed comment_issue"), QStringLiteral("feed comment_issue"),
                                     QStringLiteral("notification unread")}));
        const Status unknown = Test::call(backend(), Admin::Ops::traceGet, {QStringLiteral("no-such-trace")}).status();
        QCOMPARE(unknown.code(), Status::Code::NotFound);
        QCOMPARE(unknown.field(), QStringLiteral("trace_id"));

        const Result<Admin::Page<ForgeUserRow>> users = Test::call(backend(), Admin::Ops::userList, {});
        QVERIFY(users);
        qint64 bob = 0;
        for (const ForgeUserRow &u : users->rows)
            if (u.login == QLatin1String("bob"))
                bob = u.id;
        QVERIFY(bob > 0);
        QCOMPARE(Test::call(backend(), Admin::Ops::notificationNew, {bob})->count, qint64(1));
        const Result<Admin::Page<NotificationRow>> list = Test::call(backend(), Admin::Ops::notificationList, {1, 50, bob, QStringLiteral("unread")});
        QVERIFY2(list, qPrintable(list.status().toString()));
        QCOMPARE(list->rows.size(), std::size_t(1));
        QCOMPARE(list->rows.front().repo, QStringLiteral("alice/engine"));
        const Result<NotificationRow> pinned = Test::call(backend(), Admin::Ops::notificationUpdate, {list->rows.front().id, QStringLiteral("pinned")});
        QVERIFY2(pinned, qPrintable(pinned.status().toString()));
        QCOMPARE(pinned->status, NotificationStatus::Pinned);
        QCOMPARE(Test::call(backend(), Admin::Ops::notificationUpdate, {pinned->id, QStringLiteral("gone")}).status().field(), QStringLiteral("status"));
        QVERIFY(Test::call(backend(), Admin::Ops::notificationUpdate, {pinned->id, QStringLiteral("unread")}));
        QVERIFY(Test::call(backend(), Admin::Ops::notificationReadAll, {bob}));
        QCOMPARE(Test::call(backend(), Admin::Ops::notificationNew, {bob})->count, qint64(0));

        // Watches, mutes and access, set by an operator.
        const Result<Admin::Page<RepoRow>> repos = Test::call(backend(), Admin::Ops::repoList, {});
        QVERIFY2(repos, qPrintable(repos.status().toString()));
        QCOMPARE(repos->rows.size(), std::size_t(1));
        const qint64 repo = repos->rows.front().id;
        QCOMPARE(repos->rows.front().fullName, QStringLiteral("alice/engine"));
        QVERIFY(Test::call(backend(), Admin::Ops::repoWatch, {repo, bob, QStringLiteral("normal"), QStringLiteral("issues")}));
        QCOMPARE(Test::call(backend(), Admin::Ops::repoWatch, {repo, bob, QStringLiteral("often"), {}}).status().field(), QStringLiteral("mode"));
        QCOMPARE(Test::call(backend(), Admin::Ops::repoWatch, {repo, 999999, QStringLiteral("normal"), {}}).status().code(), Status::Code::NotFound);
        // Which mail bob gets: set, shown in the users list, refused when it is not a preference.
        QVERIFY(Test::call(backend(), Admin::Ops::userMail, {bob, QStringLiteral("onmention")}));
        const auto mailers = Test::call(backend(), Admin::Ops::userList, {});
        bool shown = false;
        for (const ForgeUserRow &u : mailers->rows)
            shown = shown || (u.id == bob && u.emailNotifications == QLatin1String("onmention"));
        QVERIFY(shown);
        const Status badPreference = Test::call(backend(), Admin::Ops::userMail, {bob, QStringLiteral("sometimes")}).status();
        QCOMPARE(badPreference.field(), QStringLiteral("email_notifications"));
        QCOMPARE(Test::call(backend(), Admin::Ops::userMail, {999999, QStringLiteral("disabled")}).status().code(), Status::Code::NotFound);
        QVERIFY(Test::call(backend(), Admin::Ops::repoMute, {repo, bob}));
        QVERIFY(Test::call(backend(), Admin::Ops::repoCollaborator, {repo, bob, 2}));
        Result<std::vector<RepoPersonRow>> people = Test::call(backend(), Admin::Ops::repoPeople, {repo});
        QVERIFY2(people, qPrintable(people.status().toString()));
        QCOMPARE(people->size(), std::size_t(1));
        QCOMPARE(people->front().mode, WatchMode::Normal);
        QVERIFY(people->front().kinds.issues && !people->front().kinds.pulls);
        QVERIFY(people->front().muted);
        QCOMPARE(people->front().access, 2);
        // Organisations and teams: bob is a user, not an organisation, and alice's repository has no
        // teams; both are refused naming the id (tst_adminapi sets them on an organisation).
        QCOMPARE(Test::call(backend(), Admin::Ops::orgMember, {bob, bob, QStringLiteral("member")}).status().field(), QStringLiteral("id"));
        QCOMPARE(Test::call(backend(), Admin::Ops::repoTeamAccess, {repo, bob, 1}).status().field(), QStringLiteral("id"));
        QVERIFY(Test::call(backend(), Admin::Ops::repoUnmute, {repo, bob}));
        QVERIFY(!Test::call(backend(), Admin::Ops::repoPeople, {repo})->front().muted);
        QCOMPARE(Test::call(backend(), Admin::Ops::repoPeople, {424242}).status().code(), Status::Code::NotFound);
    }

    // Webhooks: a repository hook, a test delivery to a real receiver, its history, redeliver,
    // changes by PATCH, bad input named by field; secrets never come back.
    void webhooksAndTheirHistory()
    {
        Test::HttpReceiver receiver;
        receiver.respond(202, "queued");
        const Result<Admin::Page<RepoRow>> repos = Test::call(backend(), Admin::Ops::repoList, {});
        QVERIFY2(repos && !repos->rows.empty(), "eventsAndNotifications made alice/engine");
        const qint64 repo = repos->rows.front().id;

        Admin::HookCreateArgs create;
        create.repoId = repo;
        create.url = QString::fromLatin1(receiver.url("/ci"));
        create.name = QStringLiteral("ci");
        create.secret = QStringLiteral("hush");
        create.authorizationHeader = QStringLiteral("Bearer hidden-token");
        create.events = QJsonObject{{QStringLiteral("push_only"), true}, {QStringLiteral("branch_filter"), QStringLiteral("release-*")}};
        const Result<Admin::HookRow> hook = Test::call(backend(), Admin::Ops::hookCreate, create);
        QVERIFY2(hook, qPrintable(hook.status().toString()));
        QCOMPARE(hook->scope, QStringLiteral("repository"));
        QCOMPARE(hook->repoId, repo);
        QCOMPARE(hook->type, QStringLiteral("gitea"));
        QVERIFY(hook->hasSecret && hook->hasAuthorization);
        QCOMPARE(hook->events.toObject().value(QStringLiteral("branch_filter")).toString(), QStringLiteral("release-*"));
        const QByteArray listed = QJsonDocument(Admin::Json::encode(*hook).toObject()).toJson();
        QVERIFY(!listed.contains("hush") && !listed.contains("hidden-token"));

        // Bad input names its field and writes nothing.
        Admin::HookCreateArgs bad = create;
        bad.url = QStringLiteral("ftp://example.com/");
        QCOMPARE(Test::call(backend(), Admin::Ops::hookCreate, bad).status().field(), QStringLiteral("url"));
        bad = create;
        bad.type = QStringLiteral("carrier-pigeon");
        QCOMPARE(Test::call(backend(), Admin::Ops::hookCreate, bad).status().field(), QStringLiteral("type"));
        bad = create;
        bad.events = QJsonObject{{QStringLiteral("push_only"), true}, {QStringLiteral("send_everything"), true}};
        QVERIFY(Test::call(backend(), Admin::Ops::hookCreate, bad).status().field().startsWith(QLatin1String("events")));
        bad = create;
        bad.repoId = 0;
        QCOMPARE(Test::call(backend(), Admin::Ops::hookCreate, bad).status().field(), QStringLiteral("scope"));
        bad.repoId = 424242;
        QCOMPARE(Test::call(backend(), Admin::Ops::hookCreate, bad).status().code(), Status::Code::NotFound);
        const Result<std::vector<Admin::HookRow>> hooks = Test::call(backend(), Admin::Ops::hookList, {});
        QVERIFY2(hooks, qPrintable(hooks.status().toString()));
        QCOMPARE(hooks->size(), std::size_t(1));
        QCOMPARE(Test::call(backend(), Admin::Ops::hookList, {QStringLiteral("system"), 0, 0})->size(), std::size_t(0));
        QCOMPARE(Test::call(backend(), Admin::Ops::hookGet, {hook->id})->url, create.url);

        // A test push goes out whatever the branch filter says, signed and authorised.
        const Result<Admin::HookTaskCreated> tested = Test::call(backend(), Admin::Ops::hookTest, {hook->id});
        QVERIFY2(tested, qPrintable(tested.status().toString()));
        QVERIFY(Test::call(backend(), Admin::Ops::queueFlush, {qid(QStringLiteral("webhook_sender")), 30000}));
        QCOMPARE(receiver.requests().size(), 1);
        QCOMPARE(receiver.requests().front().header("Authorization"), QByteArray("Bearer hidden-token"));
        QCOMPARE(receiver.requests().front().header("X-Gitea-Delivery"), tested->uuid.toLatin1());
        Result<Admin::Page<Admin::HookTaskRow>> history = Test::call(backend(), Admin::Ops::hookTasks, {hook->id});
        QVERIFY2(history, qPrintable(history.status().toString()));
        QCOMPARE(history->total, qint64(1));
        const Admin::HookTaskRow first = history->rows.front();
        QCOMPARE(first.status, QStringLiteral("succeeded"));
        QCOMPARE(first.eventType, QStringLiteral("push"));
        QCOMPARE(first.response.toObject().value(QStringLiteral("status")).toInt(), 202);
        QCOMPARE(first.response.toObject().value(QStringLiteral("body")).toString(), QStringLiteral("queued"));
        QCOMPARE(first.request.toObject().value(QStringLiteral("method")).toString(), QStringLiteral("POST"));
        QCOMPARE(first.request.toObject().value(QStringLiteral("headers")).toObject().value(QStringLiteral("Authorization")).toString(),
                 QStringLiteral("******"));
        QVERIFY(first.request.toObject().value(QStringLiteral("body")).toString().contains(QLatin1String("This is a fake commit")));

        // Redeliver: a new task with a new delivery id; the history keeps both.
        const Result<Admin::HookTaskCreated> again = Test::call(backend(), Admin::Ops::hookRedeliver, {hook->id, tested->uuid});
        QVERIFY2(again, qPrintable(again.status().toString()));
        QVERIFY(again->uuid != tested->uuid);
        QCOMPARE(Test::call(backend(), Admin::Ops::hookRedeliver, {hook->id, QStringLiteral("no-such-delivery")}).status().field(),
                 QStringLiteral("uuid"));
        QVERIFY(Test::call(backend(), Admin::Ops::queueFlush, {qid(QStringLiteral("webhook_sender")), 30000}));
        history = Test::call(backend(), Admin::Ops::hookTasks, {hook->id});
        QCOMPARE(history->total, qint64(2));
        QCOMPARE(history->rows.front().redeliveryOf, first.id);
        // The test delivery's trace: both deliveries, the redelivery saying which one it repeats,
        // each with the instance that claimed it.
        QVERIFY(!first.traceId.isEmpty() && !first.claimedBy.isEmpty());
        const Result<Admin::Trace> trace = Test::call(backend(), Admin::Ops::traceGet, {first.traceId});
        QVERIFY2(trace, qPrintable(trace.status().toString()));
        QCOMPARE(trace->items.size(), std::size_t(2));
        QCOMPARE(trace->root.kind, QStringLiteral("hook-task"));
        QCOMPARE(trace->root.id, first.id);
        QCOMPARE(trace->items.front().id, first.id);
        QCOMPARE(trace->items.front().redeliveryOf, std::nullopt);
        QCOMPARE(trace->items.back().id, again->id);
        QCOMPARE(trace->items.back().redeliveryOf, std::optional<qint64>(first.id));
        for (const Admin::TraceItem &item : trace->items) {
            QCOMPARE(item.kind, QStringLiteral("hook-task"));
            QCOMPARE(item.status, QStringLiteral("succeeded"));
            QCOMPARE(item.instance, first.claimedBy);
            QCOMPARE(item.summary, QStringLiteral("hook %1: push").arg(hook->id));
        }
        QCOMPARE(Test::call(backend(), Admin::Ops::hookTasks, {hook->id, 1, 50, QStringLiteral("failed")})->total, qint64(0));
        QCOMPARE(Test::call(backend(), Admin::Ops::hookTasks, {hook->id, 1, 50, QStringLiteral("lost")}).status().field(),
                 QStringLiteral("status"));

        // PATCH changes what it names: inactive now, so a test is recorded as skipped.
        Admin::HookUpdateArgs change;
        change.id = hook->id;
        change.active = false;
        change.name = QStringLiteral("ci (paused)");
        change.authorizationHeader = QStringLiteral("");
        const Result<Admin::HookRow> changed = Test::call(backend(), Admin::Ops::hookUpdate, change);
        QVERIFY2(changed, qPrintable(changed.status().toString()));
        QVERIFY(!changed->active && !changed->hasAuthorization && changed->hasSecret);
        QCOMPARE(changed->name, QStringLiteral("ci (paused)"));
        QCOMPARE(changed->url, create.url);
        change = {};
        change.id = hook->id;
        change.active = QStringLiteral("sometimes");
        QCOMPARE(Test::call(backend(), Admin::Ops::hookUpdate, change).status().field(), QStringLiteral("active"));
        QVERIFY(Test::call(backend(), Admin::Ops::hookTest, {hook->id}));
        QVERIFY(Test::call(backend(), Admin::Ops::queueFlush, {qid(QStringLiteral("webhook_sender")), 30000}));
        QCOMPARE(Test::call(backend(), Admin::Ops::hookTasks, {hook->id, 1, 50, QStringLiteral("skipped")})->total, qint64(1));
        QCOMPARE(receiver.requests().size(), 2);

        // The deliveries are counted in /metrics.
        const Result<Admin::Text> metrics = Test::call(backend(), Admin::Ops::metrics);
        QVERIFY(metrics);
        QVERIFY(metrics->body.contains("switchyard_webhook_deliveries_total{outcome=\"succeeded\"} 2\n"));
        QVERIFY(metrics->body.contains("switchyard_webhook_deliveries_total{outcome=\"skipped\"} 1\n"));
        QVERIFY(metrics->body.contains("switchyard_webhook_deliveries_in_flight 0\n"));
        // And in /deliveries/stats, with the recent latency (the two sent ones; the skipped one is not).
        const Result<Webhook::DeliveryStats> stats = Test::call(backend(), Admin::Ops::deliveryStats);
        QVERIFY2(stats, qPrintable(stats.status().toString()));
        QVERIFY(stats->succeeded >= 2 && stats->skipped >= 1);
        QCOMPARE(stats->inFlight, qint64(0));
        QVERIFY(stats->recent >= 2);
        QVERIFY(stats->latencyP50Ms > 0 && stats->latencyP99Ms >= stats->latencyP50Ms);

        QVERIFY(Test::call(backend(), Admin::Ops::hookDelete, {hook->id}));
        QCOMPARE(Test::call(backend(), Admin::Ops::hookGet, {hook->id}).status().code(), Status::Code::NotFound);
    }

    // The history across hooks: search by status, event and text, a bad filter named by field;
    // the failed ones counted (dry run), then redelivered by a job whose progress /processes shows.
    void deliveriesAreSearchedAndRedeliveredInBulk()
    {
        Test::HttpReceiver receiver;
        receiver.respond(500, "down for maintenance");
        const Result<Admin::Page<RepoRow>> repos = Test::call(backend(), Admin::Ops::repoList, {});
        QVERIFY2(repos && !repos->rows.empty(), "eventsAndNotifications made alice/engine");
        Admin::HookCreateArgs create;
        create.repoId = repos->rows.front().id;
        create.url = QString::fromLatin1(receiver.url("/flaky"));
        const Result<Admin::HookRow> hook = Test::call(backend(), Admin::Ops::hookCreate, create);
        QVERIFY2(hook, qPrintable(hook.status().toString()));
        QSignalSpy events(m_backend.get(), &AdminBackend::event);
        for (int i = 0; i < 3; ++i)
            QVERIFY(Test::call(backend(), Admin::Ops::hookTest, {hook->id}));
        QVERIFY(Test::call(backend(), Admin::Ops::queueFlush, {qid(QStringLiteral("webhook_sender")), 30000}));
        QCOMPARE(receiver.requests().size(), 3);
        // The stream tells of each delivery as it is queued and as it ends, without its bodies.
        QVERIFY(Test::eventually([&] {
            for (const QList<QVariant> &args : std::as_const(events)) {
                const auto e = args.at(0).value<Admin::AdminEvent>();
                const QJsonObject response = e.hookTask.response.toObject();
                if (e.type == Admin::AdminEvent::Type::HookTask && e.hookTask.hookId == hook->id && e.hookTask.status == QLatin1String("failed")
                    && response.value(QStringLiteral("status")).toInt() == 500 && !response.contains(QStringLiteral("body")))
                    return true;
            }
            return false;
        }));

        Admin::DeliverySearchArgs search;
        search.hook = hook->id;
        search.status = QStringLiteral("failed");
        Result<Admin::Page<Admin::HookTaskRow>> found = Test::call(backend(), Admin::Ops::deliverySearch, search);
        QVERIFY2(found, qPrintable(found.status().toString()));
        QCOMPARE(found->total, qint64(3));
        QCOMPARE(found->rows.size(), std::size_t(3));
        QVERIFY(found->rows.front().id > found->rows.back().id); // newest first
        QCOMPARE(found->rows.front().response.toObject().value(QStringLiteral("status")).toInt(), 500);
        search.q = QStringLiteral("DOWN FOR"); // the response's text, ASCII case ignored
        search.event = QStringLiteral("push");
        QCOMPARE(Test::call(backend(), Admin::Ops::deliverySearch, search)->total, qint64(3));
        search.q = QStringLiteral("nowhere in any body");
        QCOMPARE(Test::call(backend(), Admin::Ops::deliverySearch, search)->total, qint64(0));
        search = {};
        search.status = QStringLiteral("lost");
        QCOMPARE(Test::call(backend(), Admin::Ops::deliverySearch, search).status().field(), QStringLiteral("status"));
        search = {};
        search.event = QStringLiteral("pushed");
        QCOMPARE(Test::call(backend(), Admin::Ops::deliverySearch, search).status().field(), QStringLiteral("event"));
        search = {};
        search.since = QDateTime::currentDateTimeUtc();
        search.until = search.since.addSecs(-1);
        QCOMPARE(Test::call(backend(), Admin::Ops::deliverySearch, search).status().field(), QStringLiteral("until"));
        search = {};
        search.format = QStringLiteral("xml");
        QCOMPARE(Test::call(backend(), Admin::Ops::deliverySearch, search).status().field(), QStringLiteral("format"));

        // A dry run counts and changes nothing; a bulk redelivery takes failed or unknown only.
        Admin::DeliveryRedeliverArgs bulk;
        bulk.hook = hook->id;
        bulk.status = QStringLiteral("failed");
        bulk.dryRun = true;
        Result<Admin::BulkRedelivery> counted = Test::call(backend(), Admin::Ops::deliveryRedeliver, bulk);
        QVERIFY2(counted, qPrintable(counted.status().toString()));
        QCOMPARE(counted->matched, qint64(3));
        QVERIFY(counted->dryRun);
        bulk.status = QStringLiteral("succeeded");
        QCOMPARE(Test::call(backend(), Admin::Ops::deliveryRedeliver, bulk).status().field(), QStringLiteral("status"));

        receiver.respond(200, "back");
        bulk.status = QStringLiteral("failed");
        bulk.dryRun = false;
        const Result<Admin::BulkRedelivery> started = Test::call(backend(), Admin::Ops::deliveryRedeliver, bulk);
        QVERIFY2(started, qPrintable(started.status().toString()));
        QCOMPARE(started->matched, qint64(3));
        QVERIFY(started->jobId > 0);
        QVERIFY(!started->dryRun);
        // The job leaves /processes when it is done; the copies then wait in the queue.
        QVERIFY(Test::eventually([&] {
            const Result<std::vector<Admin::ProcessRow>> processes = Test::call(backend(), Admin::Ops::processList, {});
            return processes && std::none_of(processes->begin(), processes->end(),
                                             [&](const Admin::ProcessRow &p) { return p.pid == started->jobId; });
        }));
        QCOMPARE(Test::call(backend(), Admin::Ops::processCancel, {started->jobId}).status().code(), Status::Code::NotFound);
        QVERIFY(Test::call(backend(), Admin::Ops::queueFlush, {qid(QStringLiteral("webhook_sender")), 30000}));
        QCOMPARE(receiver.requests().size(), 6);
        search = {};
        search.hook = hook->id;
        search.status = QStringLiteral("succeeded");
        found = Test::call(backend(), Admin::Ops::deliverySearch, search);
        QCOMPARE(found->total, qint64(3));
        for (const Admin::HookTaskRow &copy : found->rows)
            QVERIFY(copy.redeliveryOf > 0);
        QVERIFY(Test::call(backend(), Admin::Ops::hookDelete, {hook->id}));
    }

    // The mailer (dummy: the wire is tst_mailsend's): its settings, a test mail, a bad address.
    void mailInfoAndTestMail()
    {
        const Result<Admin::MailInfo> before = Test::call(backend(), Admin::Ops::mailInfo);
        QVERIFY2(before, qPrintable(before.status().toString()));
        QVERIFY(before->enabled);
        QVERIFY(!before->notify);
        QCOMPARE(before->protocol, QStringLiteral("dummy"));
        QCOMPARE(before->from, QStringLiteral("Switchyard <sy@example.com>"));
        QCOMPARE(before->envelopeFrom, QStringLiteral("sy@example.com"));
        const Result<Admin::MailTestResult> sent = Test::call(backend(), Admin::Ops::mailTest, {QStringLiteral("ops@example.com")});
        QVERIFY2(sent, qPrintable(sent.status().toString()));
        QVERIFY2(sent->ok, qPrintable(sent->error));
        const Status bad = Test::call(backend(), Admin::Ops::mailTest, {QStringLiteral("ops at example")}).status();
        QCOMPARE(bad.code(), Status::Code::InvalidArgument);
        QCOMPARE(bad.field(), QStringLiteral("to"));
        const Result<Admin::MailInfo> after = Test::call(backend(), Admin::Ops::mailInfo);
        QCOMPARE(after->sentTotal, before->sentTotal + 1);
        const auto audit = Test::auditOf(Test::call(backend(), Admin::Ops::auditList, {1, 10, QStringLiteral("mail.test"), {}}));
        QVERIFY2(audit, qPrintable(audit.status().message()));
        QCOMPARE(audit->size(), std::size_t(2)); // the refused address too
        const Result<Admin::Text> metrics = Test::call(backend(), Admin::Ops::metrics);
        QVERIFY(metrics->body.contains("switchyard_mail_messages_total{result=\"sent\"}"));
    }

    // Last: the suite called every entry of the catalogue, on this backend.
    void everyEntryWasExercised()
    {
        QStringList missing;
        for (const Admin::OpBase *op : Admin::Catalogue::all()) {
            if (!Test::calledActions().contains(op->action()))
                missing << op->action();
        }
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not exercised: ") + missing.join(QStringLiteral(", "))));
    }
};

QTEST_GUILESS_MAIN(TestBackends)
#include "tst_backends.moc"
