// The store on SQLite and on PostgreSQL ($SWITCHYARD_STORE): migrations, transactions, one
// connection per thread, busy retries and reconnection.
#include "engine/core/cancellation.h"
#include "engine/store/journals.h"
#include "engine/store/store.h"
#include "support/postgresserver.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace Switchyard;
using Switchyard::Test::PostgresServer;

class tst_Store : public QObject
{
    Q_OBJECT

    bool postgres() const { return qgetenv("SWITCHYARD_STORE") == "postgres"; }

    // A fresh, empty database for one test.
    DatabaseSettings freshDatabase()
    {
        ++m_databases;
        if (!postgres()) {
            DatabaseSettings settings;
            settings.path = m_dir.filePath(QStringLiteral("db%1/switchyard.db").arg(m_databases));
            return settings;
        }
        Result<PostgresServer *> server = Test::PostgresServer::shared();
        if (!server)
            qFatal("%s", qPrintable(server.status().message()));
        Result<DatabaseSettings> settings = (*server)->createDatabase(QStringLiteral("store_%1").arg(m_databases));
        if (!settings)
            qFatal("%s", qPrintable(settings.status().message()));
        return *settings;
    }

    std::unique_ptr<Store> open(const DatabaseSettings &settings, StoreOptions options = {})
    {
        Result<std::unique_ptr<Store>> store = Store::open(CancelToken(), settings, options);
        if (!store)
            qFatal("%s", qPrintable(store.status().message()));
        return std::move(store).value();
    }

    qint64 count(Store &store, const QString &table)
    {
        qint64 n = -1;
        const Status read = store.read([&](SqlTransaction &tx) -> Status {
            Result<qint64> c = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM ") + table);
            if (!c)
                return c.status();
            n = *c;
            return Status::ok();
        });
        return read ? n : -1;
    }

    static Status insertNotice(Store &store, const QString &text, qint64 *id = nullptr)
    {
        return store.write([&](SqlTransaction &tx) -> Status {
            Result<qint64> inserted = tx.insertReturningId(
                QStringLiteral("INSERT INTO notice (type, description, created_ms) VALUES (?, ?, ?) RETURNING id"),
                {QStringLiteral("test"), text, qint64(1)});
            if (!inserted)
                return inserted.status();
            if (id)
                *id = *inserted;
            return Status::ok();
        });
    }

    QTemporaryDir m_dir;
    int m_databases = 0;

private Q_SLOTS:
    void opensAndMigratesOnce()
    {
        const DatabaseSettings settings = freshDatabase();
        {
            std::unique_ptr<Store> store = open(settings);
            QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
            QCOMPARE(store->backendName(), postgres() ? QStringLiteral("postgres") : QStringLiteral("sqlite3"));
            QCOMPARE(count(*store, QStringLiteral("schema_version")), qint64(Store::currentSchemaVersion()));
            QVERIFY(insertNotice(*store, QStringLiteral("kept")));
        }
        // Reopening migrates nothing and keeps the data.
        std::unique_ptr<Store> again = open(settings);
        QCOMPARE(again->schemaVersion(), Store::currentSchemaVersion());
        QCOMPARE(count(*again, QStringLiteral("schema_version")), qint64(Store::currentSchemaVersion()));
        QCOMPARE(count(*again, QStringLiteral("notice")), qint64(1));
        if (!postgres())
            QVERIFY(QFile::exists(settings.path + QStringLiteral("-wal")) || QFile::exists(settings.path));
    }

    void newerSchemaStopsStartNamingBothVersions()
    {
        const DatabaseSettings settings = freshDatabase();
        const int newer = Store::currentSchemaVersion() + 1;
        {
            std::unique_ptr<Store> store = open(settings);
            QVERIFY(store->write([&](SqlTransaction &tx) {
                return tx.exec(QStringLiteral("INSERT INTO schema_version (version, name, applied_ms) VALUES (?, 'from the future', 0)"),
                               {newer}).status();
            }));
        }
        Result<std::unique_ptr<Store>> store = Store::open(CancelToken(), settings);
        QVERIFY(!store);
        const QString message = store.status().message();
        QVERIFY2(message.contains(QStringLiteral("schema version %1").arg(newer)), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("this Switchyard's %1").arg(Store::currentSchemaVersion())), qPrintable(message));
    }

    void failedWorkRollsBackEverything()
    {
        std::unique_ptr<Store> store = open(freshDatabase());
        qint64 first = 0;
        QVERIFY(insertNotice(*store, QStringLiteral("one"), &first));
        // A nested transaction is refused without disturbing the outer one.
        QString nested;
        QVERIFY(store->write([&](SqlTransaction &tx) -> Status {
            nested = insertNotice(*store, QStringLiteral("nested")).message();
            return tx.exec(QStringLiteral("INSERT INTO notice (type, description, created_ms) VALUES ('t', 'two', 1)")).status();
        }));
        QVERIFY2(nested.contains(QLatin1String("do not nest")), qPrintable(nested));
        QCOMPARE(count(*store, QStringLiteral("notice")), qint64(2));
        const Status rolledBack = store->write([&](SqlTransaction &tx) -> Status {
            if (Status s = tx.exec(QStringLiteral("INSERT INTO notice (type, description, created_ms) VALUES ('t', 'three', 1)")).status(); !s)
                return s;
            return Status::invalidArgument(QStringLiteral("the caller changed its mind"));
        });
        QCOMPARE(rolledBack.code(), Status::Code::InvalidArgument);
        QVERIFY(store->read([&](SqlTransaction &tx) -> Status {
            Result<qint64> three = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM notice WHERE description = ?"), {QStringLiteral("three")});
            if (!three)
                return three.status();
            return *three == 0 ? Status::ok() : Status::internal(QStringLiteral("a rolled-back row is visible"));
        }));
        qint64 second = 0;
        QVERIFY(insertNotice(*store, QStringLiteral("four"), &second));
        QVERIFY(second > first);
    }

    // A transaction of one store may use another store on the same thread (each has its own
    // connection), however many connections that opens.
    void aTransactionMayUseAnotherStore()
    {
        std::unique_ptr<Store> outer = open(freshDatabase());
        std::vector<std::unique_ptr<Store>> others;
        QVERIFY(outer->write([&](SqlTransaction &tx) -> Status {
            others.clear(); // a retried transaction starts again
            for (int i = 0; i < 8; ++i) { // each opens its connection here, inside the transaction
                others.push_back(open(freshDatabase()));
                if (Status written = insertNotice(*others.back(), QStringLiteral("inner")); !written)
                    return written;
            }
            return tx.exec(QStringLiteral("INSERT INTO notice (type, description, created_ms) VALUES ('t', 'outer', 1)")).status();
        }));
        QCOMPARE(count(*outer, QStringLiteral("notice")), qint64(1));
        for (const std::unique_ptr<Store> &other : others)
            QCOMPARE(count(*other, QStringLiteral("notice")), qint64(1));
        // And the outer one is not left marked as in a transaction.
        QVERIFY(insertNotice(*outer, QStringLiteral("after")));
    }

        void errorsNameTheStatementAndTheDatabaseMessage()
    {
        std::unique_ptr<Store> store = open(freshDatabase());
        const Status status = store->read([](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("SELECT missing_column FROM no_such_table WHERE 1 = ?"), {1}).status();
        });
        QVERIFY(!status);
        QVERIFY2(status.message().contains(QLatin1String("SELECT missing_column FROM")), qPrintable(status.message()));
        QVERIFY2(status.message().contains(QLatin1String("no_such_table")), qPrintable(status.message()));
        QVERIFY2(status.message().contains(store->backendName()), qPrintable(status.message()));
    }

    // Each thread writes through its own connection; every transaction lands exactly once.
    void threadsWriteConcurrently()
    {
        std::unique_ptr<Store> store = open(freshDatabase());
        constexpr int kThreads = 4, kEach = 100;
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < kEach; ++i) {
                    if (!insertNotice(*store, QStringLiteral("%1-%2").arg(t).arg(i)))
                        ++failures;
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join(); // their connections close as they end
        QCOMPARE(failures.load(), 0);
        QCOMPARE(count(*store, QStringLiteral("notice")), qint64(kThreads * kEach));
        QVERIFY(store->ping());
    }

    // Two instances starting at once on one database: the migrations run once.
    void concurrentOpensMigrateOnce()
    {
        const DatabaseSettings settings = freshDatabase();
        Result<std::unique_ptr<Store>> a = Status::internal(QStringLiteral("not run"));
        Result<std::unique_ptr<Store>> b = Status::internal(QStringLiteral("not run"));
        std::thread first([&] { a = Store::open(CancelToken(), settings); });
        std::thread second([&] { b = Store::open(CancelToken(), settings); });
        first.join();
        second.join();
        QVERIFY2(a, qPrintable(a.status().message()));
        QVERIFY2(b, qPrintable(b.status().message()));
        std::unique_ptr<Store> store = open(settings);
        QCOMPARE(count(*store, QStringLiteral("schema_version")), qint64(Store::currentSchemaVersion()));
    }

    // SQLite: a writer blocked by another connection's write lock gives up after the busy timeout
    // and its retries, with a clear message, and writes once the lock is gone.
    void busyDatabaseIsRetriedThenReported()
    {
        if (postgres())
            QSKIP("PostgreSQL writers wait on row locks instead of failing busy; its retries (serialization failures) are exercised by the benchmarks' concurrent writers");
        const DatabaseSettings settings = freshDatabase();
        StoreOptions options;
        options.busyTimeout = std::chrono::milliseconds(20);
        options.writeAttempts = 3;
        std::unique_ptr<Store> store = open(settings, options);

        QSqlDatabase blocker = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("blocker"));
        blocker.setDatabaseName(settings.path);
        QVERIFY(blocker.open());
        QSqlQuery hold(blocker);
        QVERIFY(hold.exec(QStringLiteral("BEGIN IMMEDIATE")));

        const Status blocked = insertNotice(*store, QStringLiteral("blocked"));
        QCOMPARE(blocked.code(), Status::Code::Unavailable);
        QVERIFY2(blocked.message().contains(QLatin1String("busy after 3 attempts")), qPrintable(blocked.message()));

        QVERIFY(hold.exec(QStringLiteral("ROLLBACK")));
        hold = QSqlQuery();
        blocker.close();
        blocker = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("blocker"));
        QVERIFY(insertNotice(*store, QStringLiteral("after")));
        QCOMPARE(count(*store, QStringLiteral("notice")), qint64(1));
    }

    // PostgreSQL: a restarted server drops every connection; the next transaction reconnects.
    void reconnectsAfterTheServerRestarts()
    {
        if (!postgres())
            QSKIP("SQLite has no server to lose");
        std::unique_ptr<Store> store = open(freshDatabase());
        QVERIFY(insertNotice(*store, QStringLiteral("before")));
        Result<PostgresServer *> server = Test::PostgresServer::shared();
        QVERIFY(server);
        QVERIFY((*server)->restart());
        const Status after = insertNotice(*store, QStringLiteral("after"));
        QVERIFY2(after, qPrintable(after.message()));
        QCOMPARE(count(*store, QStringLiteral("notice")), qint64(2));
    }

    void unreachableDatabaseIsRetriedThenNamed()
    {
        DatabaseSettings settings;
        if (postgres()) {
            settings = freshDatabase();
            settings.host = QStringLiteral("127.0.0.1:1"); // nothing listens there
        } else {
            settings.path = QStringLiteral("/proc/switchyard-cannot-create/switchyard.db");
        }
        StoreOptions options;
        options.connectAttempts = 2;
        options.connectInterval = std::chrono::milliseconds(10);
        Result<std::unique_ptr<Store>> store = Store::open(CancelToken(), settings, options);
        QVERIFY(!store);
        QCOMPARE(store.status().code(), Status::Code::Unavailable);
        QVERIFY2(store.status().message().contains(postgres() ? QStringLiteral("127.0.0.1:1") : QStringLiteral("/proc/switchyard-cannot-create")),
                 qPrintable(store.status().message()));

        // A cancelled start-up returns the cause instead of retrying.
        if (postgres()) {
            CancelSource cancel;
            cancel.cancel(QStringLiteral("shutting down"));
            options.connectAttempts = 100;
            options.connectInterval = std::chrono::seconds(10);
            Result<std::unique_ptr<Store>> cancelled = Store::open(cancel.token(), settings, options);
            QCOMPARE(cancelled.status().code(), Status::Code::Cancelled);
        }
    }

    // [database] SSL_MODE reaches libpq: the private cluster has no TLS, so `require` is refused
    // with libpq's reason and `disable` connects (before, no sslmode was passed at all).
    void theSslModeReachesTheServer()
    {
        if (!postgres())
            QSKIP("SQLite is a file");
        DatabaseSettings settings = freshDatabase();
        settings.sslMode = QStringLiteral("require");
        StoreOptions options;
        options.connectAttempts = 1;
        Result<std::unique_ptr<Store>> refused = Store::open(CancelToken(), settings, options);
        QVERIFY(!refused);
        QVERIFY2(refused.status().message().contains(QLatin1String("SSL")), qPrintable(refused.status().message()));
        settings.sslMode = QStringLiteral("disable");
        Result<std::unique_ptr<Store>> plain = Store::open(CancelToken(), settings, options);
        QVERIFY2(plain, qPrintable(plain.status().message()));
    }

    void vacuumRuns()
    {
        std::unique_ptr<Store> store = open(freshDatabase());
        QVERIFY(insertNotice(*store, QStringLiteral("x")));
        Result<QString> done = store->vacuum();
        QVERIFY2(done, qPrintable(done.status().message()));
        QVERIFY(done->contains(QLatin1String("VACUUM")));
        QCOMPARE(count(*store, QStringLiteral("notice")), qint64(1));
    }

    // Run history: every field round-trips, newest first, and each task keeps only its newest.
    void cronRunsRoundTripAndAreTrimmedPerTask()
    {
        std::unique_ptr<Store> store = open(freshDatabase());
        const std::unique_ptr<CronRunJournal> runs = makeStoredCronRuns(*store, 3);
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(1700000000123, Qt::UTC);
        for (int i = 0; i < 5; ++i) {
            const CronRunRecord record{0, QStringLiteral("host-1"), QStringLiteral("manual"), QStringLiteral("api (ops)"),
                                       at.addSecs(i), 40 + i, QStringLiteral("finished"), QStringLiteral("run %1").arg(i),
                                       QStringLiteral("trace-%1").arg(i)};
            QVERIFY(runs->append(QStringLiteral("a"), record));
        }
        QVERIFY(runs->append(QStringLiteral("b"), {0, QStringLiteral("host-2"), QStringLiteral("schedule"), QStringLiteral("system"),
                                                   at, 0, QStringLiteral("skipped"), QStringLiteral("lock_held"), QString()}));
        const Result<std::vector<CronRunRecord>> a = runs->newest(QStringLiteral("a"));
        QVERIFY2(a, qPrintable(a.status().message()));
        QCOMPARE(a->size(), size_t(3));
        QCOMPARE(a->front().message, QStringLiteral("run 4"));
        QCOMPARE(a->back().message, QStringLiteral("run 2"));
        QVERIFY(a->front().id > a->back().id);
        const CronRunRecord &newest = a->front();
        QCOMPARE(newest.instanceId, QStringLiteral("host-1"));
        QCOMPARE(newest.trigger, QStringLiteral("manual"));
        QCOMPARE(newest.doer, QStringLiteral("api (ops)"));
        QCOMPARE(newest.startedAt, at.addSecs(4));
        QCOMPARE(newest.durationMs, qint64(44));
        QCOMPARE(newest.status, QStringLiteral("finished"));
        QCOMPARE(newest.traceId, QStringLiteral("trace-4"));
        const Result<std::vector<CronRunRecord>> b = runs->newest(QStringLiteral("b"));
        QCOMPARE(b->size(), size_t(1));
        QCOMPARE(b->front().message, QStringLiteral("lock_held"));
        QCOMPARE(count(*store, QStringLiteral("cron_run")), qint64(4));
    }

    // Queue history: the recorder adds differences of the totals to minute, hour and day buckets;
    // reads are dense windows; old buckets fall out; a recreated queue counts from zero; a
    // second instance's counts add up; a failed write is carried to the next sample.
    void queueHistoryBucketsDifferencesInWindows()
    {
        const DatabaseSettings settings = freshDatabase();
        std::unique_ptr<Store> store = open(settings);
        const std::unique_ptr<QueueHistoryJournal> journal = makeStoredQueueHistory(*store);
        const QDateTime t0 = QDateTime::fromMSecsSinceEpoch(1'700'000'040'000, Qt::UTC); // 09:34:00 (a minute start)
        QDateTime now = t0;
        std::vector<QueueStats> queues(2);
        queues[0].name = QStringLiteral("mail");
        queues[1].name = QStringLiteral("webhook_sender");
        QueueHistoryRecorder recorder(*journal, [&] { return queues; }, [&] { return now; });

        queues[0].handledTotal = 10;
        queues[0].failedTotal = 1;
        QVERIFY(recorder.sample());
        now = t0.addSecs(30);
        queues[0].handledTotal = 25; // +15 in the same minute
        queues[1].handledTotal = 7;
        queues[1].failedTotal = 2;
        QVERIFY(recorder.sample());
        now = t0.addSecs(70);
        queues[0].handledTotal = 3; // the queue was created anew: counts from zero
        queues[0].failedTotal = 0;
        QVERIFY(recorder.sample());
        QVERIFY(recorder.sample()); // nothing changed: nothing written

        Result<std::vector<HistoryBucket>> mail = journal->read(QStringLiteral("mail"), HistoryResolution::Minute, now);
        QVERIFY2(mail, qPrintable(mail.status().message()));
        QCOMPARE(mail->size(), size_t(60));
        QCOMPARE(mail->back().at, t0.addSecs(60));
        QCOMPARE(mail->back(), (HistoryBucket{t0.addSecs(60), 3, 0}));
        QCOMPARE((*mail)[58], (HistoryBucket{t0, 25, 1}));
        QCOMPARE((*mail)[0].processed, qint64(0));
        QCOMPARE(mail->front().at, t0.addSecs(60 - 59 * 60));

        Result<std::vector<HistoryBucket>> all = journal->read(QString(), HistoryResolution::Hour, now);
        QVERIFY(all);
        QCOMPARE(all->size(), size_t(168));
        QCOMPARE(all->back().processed, qint64(25 + 7 + 3));
        QCOMPARE(all->back().failed, qint64(1 + 2));
        Result<std::vector<HistoryBucket>> days = journal->read(QString(), HistoryResolution::Day, now);
        QCOMPARE(days->size(), size_t(90));
        QCOMPARE(days->back().processed, qint64(35));

        // Another instance on the same database adds its own counts to the same buckets.
        std::unique_ptr<Store> other = open(settings);
        const std::unique_ptr<QueueHistoryJournal> otherJournal = makeStoredQueueHistory(*other);
        QVERIFY(otherJournal->add(now, {{QStringLiteral("mail"), 100, 4}}));
        mail = journal->read(QStringLiteral("mail"), HistoryResolution::Minute, now);
        QCOMPARE(mail->back(), (HistoryBucket{t0.addSecs(60), 103, 4}));

        // Two hours on, the minute buckets of then have gone; hour and day rows stay.
        now = t0.addSecs(2 * 3600);
        queues[1].handledTotal = 8;
        QVERIFY(recorder.sample());
        mail = journal->read(QStringLiteral("mail"), HistoryResolution::Minute, now);
        qint64 processed = 0;
        for (const HistoryBucket &b : *mail)
            processed += b.processed;
        QCOMPARE(processed, qint64(0));
        QCOMPARE(count(*store, QStringLiteral("queue_history WHERE resolution = 0")), qint64(1)); // webhook_sender's newest
        all = journal->read(QString(), HistoryResolution::Hour, now);
        QCOMPARE(all->back().processed, qint64(1));
        QCOMPARE((*all)[165].processed, qint64(25 + 7 + 103));
    }

    // A write that fails (here: the table is gone) keeps the difference for the next sample.
    void queueHistoryCarriesAFailedWriteOver()
    {
        std::unique_ptr<Store> store = open(freshDatabase());
        const std::unique_ptr<QueueHistoryJournal> journal = makeStoredQueueHistory(*store);
        const QDateTime now = QDateTime::fromMSecsSinceEpoch(1'700'000'040'000, Qt::UTC);
        std::vector<QueueStats> queues(1);
        queues[0].name = QStringLiteral("q");
        QueueHistoryRecorder recorder(*journal, [&] { return queues; }, [&] { return now; });
        QVERIFY(store->write([](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("ALTER TABLE queue_history RENAME TO queue_history_away")).status();
        }));
        queues[0].handledTotal = 5;
        QVERIFY(!recorder.sample());
        QVERIFY(store->write([](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("ALTER TABLE queue_history_away RENAME TO queue_history")).status();
        }));
        queues[0].handledTotal = 9;
        QVERIFY(recorder.sample());
        const Result<std::vector<HistoryBucket>> q = journal->read(QStringLiteral("q"), HistoryResolution::Minute, now);
        QCOMPARE(q->back().processed, qint64(9));
    }

    // Instances sharing the database agree on ticks (one claim wins) and on pauses.
    void cronCoordinatorsShareTicksAndPauses()
    {
        const DatabaseSettings settings = freshDatabase();
        std::unique_ptr<Store> one = open(settings);
        std::unique_ptr<Store> two = open(settings);
        Result<std::unique_ptr<CronCoordinator>> a = makeStoredCronCoordinator(*one, QStringLiteral("a"), QString());
        Result<std::unique_ptr<CronCoordinator>> b = makeStoredCronCoordinator(*two, QStringLiteral("b"), QString());
        QVERIFY(a && b);
        const QDateTime tick = QDateTime::fromMSecsSinceEpoch(1700000000000, Qt::UTC);
        QCOMPARE(*(*a)->claimTick(QStringLiteral("t"), tick, std::chrono::seconds(60)), true);
        QCOMPARE(*(*b)->claimTick(QStringLiteral("t"), tick, std::chrono::seconds(60)), false);
        QCOMPARE(*(*b)->claimTick(QStringLiteral("t"), tick.addSecs(60), std::chrono::seconds(60)), true);
        QCOMPARE(*(*a)->claimTick(QStringLiteral("other"), tick, std::chrono::seconds(60)), true);

        QCOMPARE(*(*b)->isPaused(QStringLiteral("t")), false);
        QVERIFY((*a)->setPaused(QStringLiteral("t"), true));
        QVERIFY((*a)->setPaused(QStringLiteral("t"), true)); // twice is once
        QCOMPARE(*(*b)->isPaused(QStringLiteral("t")), true);
        QVERIFY((*b)->setPaused(QStringLiteral("t"), false));
        QCOMPARE(*(*a)->isPaused(QStringLiteral("t")), false);
    }

    // The pause file of a version without the store is taken over once and renamed.
    void cronPauseFileIsImportedOnce()
    {
        std::unique_ptr<Store> store = open(freshDatabase());
        const QString file = m_dir.filePath(QStringLiteral("cron-state-%1.json").arg(m_databases));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"paused": ["cache_self_check", "nightly"]})");
        out.close();
        Result<std::unique_ptr<CronCoordinator>> first = makeStoredCronCoordinator(*store, QStringLiteral("a"), file);
        QVERIFY2(first, qPrintable(first.status().message()));
        QVERIFY(*(*first)->isPaused(QStringLiteral("nightly")));
        QVERIFY(*(*first)->isPaused(QStringLiteral("cache_self_check")));
        QVERIFY(!QFile::exists(file));
        QVERIFY(QFile::exists(file + QStringLiteral(".imported")));
        // Resumed in the store: a later start does not bring the old pause back.
        QVERIFY((*first)->setPaused(QStringLiteral("nightly"), false));
        Result<std::unique_ptr<CronCoordinator>> again = makeStoredCronCoordinator(*store, QStringLiteral("a"), file);
        QVERIFY(again);
        QVERIFY(!*(*again)->isPaused(QStringLiteral("nightly")));
    }

    // System notices: the board writes through to the store and shows the newest after a restart.
    void noticesPersistThroughTheBoard()
    {
        const DatabaseSettings settings = freshDatabase();
        qint64 kept = 0;
        {
            std::unique_ptr<Store> store = open(settings);
            const std::unique_ptr<NoticeJournal> journal = makeStoredNotices(*store);
            NoticeBoard board(3);
            board.add(QStringLiteral("cron"), QStringLiteral("before the store")); // written at attach
            QVERIFY(board.attach(journal.get()));
            for (int i = 0; i < 4; ++i)
                kept = board.add(QStringLiteral("cron"), QStringLiteral("notice %1").arg(i));
            QVERIFY(kept > 0);
            QCOMPARE(board.list().size(), size_t(3));
            QVERIFY(board.remove(kept));
            board.attach(nullptr);
        }
        std::unique_ptr<Store> store = open(settings);
        QCOMPARE(count(*store, QStringLiteral("notice")), qint64(4)); // 5 added, 1 removed
        const std::unique_ptr<NoticeJournal> journal = makeStoredNotices(*store);
        NoticeBoard board(10);
        QVERIFY(board.attach(journal.get()));
        const std::vector<SystemNotice> shown = board.list();
        QCOMPARE(shown.size(), size_t(4));
        QCOMPARE(shown.front().description, QStringLiteral("notice 2")); // newest first; notice 3 was removed
        QCOMPARE(shown.back().description, QStringLiteral("before the store"));
        QCOMPARE(board.removeOlderThan(std::chrono::seconds(0), QDateTime::currentDateTimeUtc().addSecs(1)), qint64(4));
        QCOMPARE(count(*store, QStringLiteral("notice")), qint64(0));
        board.attach(nullptr);
    }

    void timesRoundTrip()
    {
        const QDateTime now = QDateTime::fromMSecsSinceEpoch(QDateTime::currentMSecsSinceEpoch(), Qt::UTC);
        QCOMPARE(fromStoreMs(toStoreMs(now)), now);
        QVERIFY(!fromStoreMs(toStoreMs(QDateTime())).isValid());
    }
};

QTEST_GUILESS_MAIN(tst_Store)
#include "tst_store.moc"
