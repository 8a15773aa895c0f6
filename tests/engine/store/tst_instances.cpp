// Instances sharing a store ($SWITCHYARD_STORE: SQLite or PostgreSQL): registration, the node
// lock of a data directory, who is live, and the heartbeat's recovery rounds.
#include "engine/core/cancellation.h"
#include "engine/store/instances.h"
#include "engine/store/store.h"
#include "support/postgresserver.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;

class tst_Instances : public QObject
{
    Q_OBJECT

    bool postgres() const { return qgetenv("SWITCHYARD_STORE") == "postgres"; }

    std::unique_ptr<Store> freshStore()
    {
        ++m_databases;
        DatabaseSettings settings;
        if (!postgres()) {
            settings.path = m_dir.filePath(QStringLiteral("db%1/switchyard.db").arg(m_databases));
        } else {
            Result<Test::PostgresServer *> server = Test::PostgresServer::shared();
            if (!server)
                qFatal("%s", qPrintable(server.status().message()));
            Result<DatabaseSettings> created =
                (*server)->createDatabase(QStringLiteral("instances_%1").arg(m_databases));
            if (!created)
                qFatal("%s", qPrintable(created.status().message()));
            settings = *created;
        }
        Result<std::unique_ptr<Store>> store = Store::open(CancelToken(), settings);
        if (!store)
            qFatal("%s", qPrintable(store.status().message()));
        return std::move(store).value();
    }

    std::unique_ptr<InstanceRegistry> registry(Store &store, const QString &id, const QString &dataDir,
                                               InstanceOptions options = {})
    {
        Result<std::unique_ptr<InstanceRegistry>> r = InstanceRegistry::start(store, id, dataDir, options);
        if (!r)
            qFatal("%s", qPrintable(r.status().message()));
        return std::move(r).value();
    }

    // Which of `holders` a statement using notLive() finds not live, as `judge` sees it.
    QStringList notLive(Store &store, const InstanceRegistry &judge, const QStringList &holders)
    {
        QStringList found;
        const Status read = store.read([&](SqlTransaction &tx) -> Status {
            found.clear();
            for (const QString &holder : holders) {
                Result<qint64> n =
                    tx.scalar(QStringLiteral("SELECT COUNT(*) FROM (SELECT CAST(? AS TEXT) AS claimed_by) c WHERE %1")
                                  .arg(judge.notLive(QStringLiteral("claimed_by"))),
                              {holder});
                if (!n)
                    return n.status();
                if (*n > 0)
                    found << holder;
            }
            return Status::ok();
        });
        if (!read)
            qFatal("%s", qPrintable(read.message()));
        return found;
    }

    void setHeartbeat(Store &store, const QString &id, qint64 ms)
    {
        QVERIFY(store.write([&](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("UPDATE instance SET heartbeat_ms = ? WHERE id = ?"), {ms, id}).status();
        }));
    }

    QTemporaryDir m_dir;
    int m_databases = 0;

private Q_SLOTS:
    // A data directory keeps its node id; a registry that starts where an earlier one ended
    // without stopping (a crash: the lock went with the process) declares it lost at once.
    void anEarlierRunOfTheDataDirectoryIsLostAtOnce()
    {
        std::unique_ptr<Store> store = freshStore();
        QTemporaryDir data;
        QString node;
        {
            std::unique_ptr<InstanceRegistry> first = registry(*store, QStringLiteral("host-1-a"), data.path());
            node = first->node();
            QVERIFY(!node.isEmpty());
            QVERIFY(first->lostAtStart().isEmpty());
            // Destroyed without stop(): as after kill -9, its row still says it runs.
        }
        std::unique_ptr<InstanceRegistry> second = registry(*store, QStringLiteral("host-2-b"), data.path());
        QCOMPARE(second->node(), node);
        QCOMPARE(second->lostAtStart(), QStringList{QStringLiteral("host-1-a")});
        const std::vector<InstanceRecord> rows = *second->list();
        QCOMPARE(rows.size(), std::size_t(2));
        for (const InstanceRecord &r : rows) {
            QCOMPARE(r.node, node);
            if (r.id == QLatin1String("host-1-a")) {
                QVERIFY(!r.live);
                QCOMPARE(r.ended, QStringLiteral("lost"));
                QCOMPARE(r.endedBy, QStringLiteral("host-2-b"));
                QVERIFY(r.stoppedAt.isValid());
            } else {
                QVERIFY(r.live);
                QVERIFY(r.ended.isEmpty());
            }
        }
        QCOMPARE(notLive(*store, *second, {QStringLiteral("host-1-a"), QStringLiteral("host-2-b")}),
                 QStringList{QStringLiteral("host-1-a")});
    }

    // Two engines on one data directory at once (tests, or a misconfiguration): the second gets a
    // node of its own and does not declare the first lost.
    void aSecondEngineOnTheSameDataDirectoryGetsANodeOfItsOwn()
    {
        std::unique_ptr<Store> store = freshStore();
        QTemporaryDir data;
        std::unique_ptr<InstanceRegistry> first = registry(*store, QStringLiteral("one"), data.path());
        std::unique_ptr<InstanceRegistry> second = registry(*store, QStringLiteral("two"), data.path());
        QVERIFY(second->node() != first->node());
        QVERIFY(second->lostAtStart().isEmpty());
        QVERIFY(notLive(*store, *second, {QStringLiteral("one")}).isEmpty());
        QVERIFY(notLive(*store, *first, {QStringLiteral("two")}).isEmpty());
    }

    // Live: running and heard from within the grace. Not live: stopped, silent past the grace,
    // unknown, or no one (a claim from before instances were recorded). Never oneself.
    void whoIsLive()
    {
        std::unique_ptr<Store> store = freshStore();
        QTemporaryDir a, b, c;
        InstanceOptions options;
        options.grace = 5s;
        options.trustAfter = 0ms; // judges heartbeats from its first beat
        std::unique_ptr<InstanceRegistry> judge = registry(*store, QStringLiteral("judge"), a.path(), options);
        std::unique_ptr<InstanceRegistry> stopped = registry(*store, QStringLiteral("stopped"), b.path(), options);
        std::unique_ptr<InstanceRegistry> silent = registry(*store, QStringLiteral("silent"), c.path(), options);
        QVERIFY(stopped->stop());
        setHeartbeat(*store, QStringLiteral("silent"), 1);
        setHeartbeat(*store, QStringLiteral("judge"), 1);  // its own claims are never judged by its heartbeat
        QCOMPARE(notLive(*store, *judge,
                         {QStringLiteral("judge"), QStringLiteral("stopped"), QStringLiteral("silent"),
                          QStringLiteral("gone"), QString()}),
                 (QStringList{QStringLiteral("stopped"), QStringLiteral("silent"), QStringLiteral("gone"), QString()}));
        QCOMPARE(notLive(*store, *silent, {QStringLiteral("judge")}), QStringList{QStringLiteral("judge")});
    }

    // A beat writes the heartbeat, declares the silent lost (once: by the first live instance to
    // see them), and runs the recoverers — adopted when it declared someone.
    void aBeatDeclaresTheSilentLostAndRunsTheRecoverers()
    {
        std::unique_ptr<Store> store = freshStore();
        QTemporaryDir a, b, c;
        InstanceOptions options;
        options.grace = 5s;
        options.trustAfter = 0ms;
        std::unique_ptr<InstanceRegistry> live = registry(*store, QStringLiteral("live"), a.path(), options);
        std::unique_ptr<InstanceRegistry> other = registry(*store, QStringLiteral("other"), b.path(), options);
        std::unique_ptr<InstanceRegistry> silent = registry(*store, QStringLiteral("silent"), c.path(), options);
        std::vector<bool> rounds;
        live->addRecoverer(QStringLiteral("probe"), [&](const CancelToken &, bool adopted) {
            rounds.push_back(adopted);
            return Status::ok();
        });
        std::vector<bool> otherRounds;
        other->addRecoverer(QStringLiteral("probe"), [&](const CancelToken &, bool adopted) {
            otherRounds.push_back(adopted);
            return Status::ok();
        });
        QVERIFY(live->beatAndRecover(CancelToken()));
        QCOMPARE(rounds, std::vector<bool>{false});
        setHeartbeat(*store, QStringLiteral("silent"), 1);
        QVERIFY(live->beatAndRecover(CancelToken()));
        QCOMPARE(rounds, (std::vector<bool>{false, true}));
        QVERIFY(other->beatAndRecover(CancelToken())); // too late to declare it: it hears of the end all the same
        QCOMPARE(otherRounds, std::vector<bool>{true});
        QVERIFY(live->beatAndRecover(CancelToken()));
        QCOMPARE(rounds, (std::vector<bool>{false, true, false}));
        const std::vector<InstanceRecord> rows = *live->list();
        for (const InstanceRecord &r : rows)
            if (r.id == QLatin1String("silent")) {
                QCOMPARE(r.ended, QStringLiteral("lost"));
                QCOMPARE(r.endedBy, QStringLiteral("live"));
            }

        // The "silent" one was only slow: its next beat finds itself declared, and it registers
        // again (what it held has been taken over; its writes are fenced by their claims).
        QVERIFY(silent->beatAndRecover(CancelToken()));
        QVERIFY(notLive(*store, *live, {QStringLiteral("silent")}).isEmpty());
    }

    // An instance judges others by their heartbeats only once it has beaten without a break for
    // the grace (after an outage of the store every heartbeat is old): until then only the ended
    // and the unknown are not live to it, and its beat declares nobody lost.
    void aNewcomerDoesNotJudgeHeartbeats()
    {
        std::unique_ptr<Store> store = freshStore();
        QTemporaryDir a, b, c, d;
        InstanceOptions newcomer;
        newcomer.grace = 5s;
        newcomer.trustAfter = std::chrono::hours(1);
        std::unique_ptr<InstanceRegistry> fresh = registry(*store, QStringLiteral("fresh"), a.path(), newcomer);
        std::unique_ptr<InstanceRegistry> quiet = registry(*store, QStringLiteral("quiet"), b.path());
        std::unique_ptr<InstanceRegistry> ended = registry(*store, QStringLiteral("ended"), c.path());
        QVERIFY(ended->stop());
        setHeartbeat(*store, QStringLiteral("quiet"), 1);
        QCOMPARE(notLive(*store, *fresh, {QStringLiteral("quiet"), QStringLiteral("ended"), QStringLiteral("nobody")}),
                 (QStringList{QStringLiteral("ended"), QStringLiteral("nobody")}));
        QVERIFY(fresh->beat());
        const std::vector<InstanceRecord> rows = *fresh->list();
        for (const InstanceRecord &r : rows)
            if (r.id == QLatin1String("quiet"))
                QVERIFY(r.ended.isEmpty()); // not declared
        InstanceOptions trusted = newcomer;
        trusted.trustAfter = 0ms;
        std::unique_ptr<InstanceRegistry> old = registry(*store, QStringLiteral("old"), d.path(), trusted);
        QCOMPARE(notLive(*store, *old, {QStringLiteral("quiet")}), QStringList{QStringLiteral("quiet")});
    }

    // A recoverer that fails does not keep the others from running; the beat reports it.
    void aFailingRecovererDoesNotStopTheOthers()
    {
        std::unique_ptr<Store> store = freshStore();
        QTemporaryDir a;
        std::unique_ptr<InstanceRegistry> r = registry(*store, QStringLiteral("r"), a.path());
        int after = 0;
        r->addRecoverer(QStringLiteral("broken"),
                        [](const CancelToken &, bool) { return Status::unavailable(QStringLiteral("down")); });
        r->addRecoverer(QStringLiteral("fine"), [&](const CancelToken &, bool) {
            ++after;
            return Status::ok();
        });
        const Status beat = r->beatAndRecover(CancelToken());
        QCOMPARE(beat.code(), Status::Code::Unavailable);
        QCOMPARE(after, 1);
    }

    // Stopped instances leave the list a week after they ended; the stop is idempotent.
    void stopIsIdempotentAndOldRowsGo()
    {
        std::unique_ptr<Store> store = freshStore();
        QTemporaryDir a, b;
        std::unique_ptr<InstanceRegistry> old = registry(*store, QStringLiteral("old"), a.path());
        QVERIFY(old->stop());
        QVERIFY(old->stop());
        QVERIFY(store->write([&](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("UPDATE instance SET stopped_ms = 1 WHERE id = 'old'")).status();
        }));
        std::unique_ptr<InstanceRegistry> next = registry(*store, QStringLiteral("next"), b.path());
        const std::vector<InstanceRecord> rows = *next->list();
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows.front().id, QStringLiteral("next"));
    }
};

QTEST_GUILESS_MAIN(tst_Instances)
#include "tst_instances.moc"
