// The Redis locker against private redis-servers: single node and Redlock over 3 and 5 nodes,
// other processes as competitors and as crashing holders.
#include "engine/globallock/globallock.h"
#include "engine/settings/config.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QDir>
#include "engine/core/childprocess.h"
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

LockerOptions fastOptions(const QString &instance)
{
    LockerOptions options;
    options.instanceId = instance;
    options.ttl = 1000ms;
    options.extendInterval = 300ms;
    options.retryMin = 2ms;
    options.retryMax = 20ms;
    options.connectAttempts = 2;
    options.connectInterval = 20ms;
    options.releaseTimeout = 500ms;
    return options;
}

} // namespace

class TestRedisLocker : public QObject
{
    Q_OBJECT

    std::vector<std::unique_ptr<Test::RedisServer>> m_servers;

    Status startServers(int count)
    {
        m_servers.clear();
        for (int i = 0; i < count; ++i) {
            m_servers.push_back(std::make_unique<Test::RedisServer>());
            if (Status started = m_servers.back()->start(); !started)
                return started;
        }
        return Status::ok();
    }
    QStringList urls() const
    {
        QStringList list;
        for (const auto &server : m_servers)
            list.append(server->url());
        return list;
    }
    std::unique_ptr<Locker> locker(const QString &instance, LockerOptions options = {})
    {
        if (options.instanceId.isEmpty())
            options = fastOptions(instance);
        auto created = createRedisLocker(CancelToken(), urls(), options);
        if (!created)
            qFatal("%s", qPrintable(created.status().message()));
        return std::move(created).value();
    }
    QByteArray redis(const QStringList &args, int server = 0) { return m_servers[size_t(server)]->command(args).valueOr("<error>"); }

    void runExclusiveChildren(const QString &key)
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("inside"));
        std::vector<std::unique_ptr<ChildProcess>> children;
        ChildProcess::Options spawn;
        spawn.output = ChildProcess::Output::Inherit;
        for (int i = 0; i < 2; ++i) {
            children.push_back(std::make_unique<ChildProcess>());
            QVERIFY(children.back()->start(QStringLiteral(LOCKCHILD_PATH), {QStringLiteral("--urls"), urls().join(QLatin1Char(',')),
                                                                             QStringLiteral("--key"), key, QStringLiteral("--exclusive"),
                                                                             QStringLiteral("150"), QStringLiteral("--marker"), marker},
                                           spawn));
        }
        for (auto &child : children) {
            QVERIFY(child->waitForFinished(120000));
            QVERIFY(!child->crashed());
            QCOMPARE(child->exitCode(), 0); // 3 = two processes were inside at once
        }
    }

private Q_SLOTS:
    void init()
    {
        const Status started = startServers(1);
        QVERIFY2(started, qPrintable(started.message()));
    }
    void cleanup() { m_servers.clear(); }

    void keyTokenAndLease()
    {
        auto a = locker(QStringLiteral("a"));
        QCOMPARE(a->backend(), QStringLiteral("redis"));
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("cron_task:gc"));
        QVERIFY(guard && guard->acquired());
        const QByteArray value = redis({QStringLiteral("GET"), QStringLiteral("gitea:globallock:cron_task:gc")});
        QCOMPARE(value.size(), 32); // 128 random bits, hex
        const qint64 pttl = redis({QStringLiteral("PTTL"), QStringLiteral("gitea:globallock:cron_task:gc")}).toLongLong();
        QVERIFY(pttl > 0 && pttl <= 1000);
        guard->release();
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("gitea:globallock:cron_task:gc")}), QByteArray("0"));
    }

    void anotherHolderMeansFalseNotError()
    {
        auto a = locker(QStringLiteral("a"));
        auto b = locker(QStringLiteral("b"));
        Result<LockGuard> held = a->tryLock(CancelToken(), QStringLiteral("k"));
        QVERIFY(held->acquired());
        Result<LockGuard> other = b->tryLock(CancelToken(), QStringLiteral("k"));
        QVERIFY(other);
        QVERIFY(!other->acquired());
        held->release();
        held->release();
        QVERIFY(b->tryLock(CancelToken(), QStringLiteral("k"))->acquired());
    }

    void aStaleHolderCannotDeleteTheNewHoldersLock()
    {
        auto a = locker(QStringLiteral("a"));
        auto b = locker(QStringLiteral("b"));
        Result<LockGuard> stale = a->lock(CancelToken(), QStringLiteral("k"));
        // A's lease runs out (simulated: the key disappears) and B takes the lock.
        redis({QStringLiteral("DEL"), QStringLiteral("gitea:globallock:k")});
        Result<LockGuard> fresh = b->lock(CancelToken(), QStringLiteral("k"));
        QVERIFY(fresh->acquired());
        const QByteArray freshToken = redis({QStringLiteral("GET"), QStringLiteral("gitea:globallock:k")});
        stale->release(); // compare-and-delete with A's old token: no effect
        QCOMPARE(redis({QStringLiteral("GET"), QStringLiteral("gitea:globallock:k")}), freshToken);
        QVERIFY(fresh->fencingToken() > stale->fencingToken());
    }

    void extensionKeepsALongHolder()
    {
        auto a = locker(QStringLiteral("a"));
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("long"));
        // Three leases' worth of time: without extension it would be gone.
        QVERIFY(guard->token().sleepFor(3s)); // the full time passes: never lost
        QVERIFY(guard->isHeld());
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("gitea:globallock:long")}), QByteArray("1"));
        const std::vector<LockInfo> infos = *a->list(CancelToken());
        QCOMPARE(infos.size(), size_t(1));
        QVERIFY2(infos[0].extensions >= 5, qPrintable(QString::number(infos[0].extensions)));
    }

    void extensionStopsAtTheCap()
    {
        LockerOptions options = fastOptions(QStringLiteral("a"));
        options.maxHold = 1500ms;
        auto a = locker(QStringLiteral("a"), options);
        const auto started = SteadyClock::now();
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("capped"));
        QVERIFY(Test::eventually([&] { return guard->token().isCancelled(); }, 10s));
        const auto held = SteadyClock::now() - started;
        QVERIFY(held >= 1000ms); // extended past one lease
        QVERIFY(held < 1500ms + options.ttl + 500ms);
        QVERIFY2(guard->token().cause().message().contains(QLatin1String("maximum hold time")),
                 qPrintable(guard->token().cause().message()));
        QVERIFY(Test::eventually([&] { return redis({QStringLiteral("EXISTS"), QStringLiteral("gitea:globallock:capped")}) == "0"; }));
    }

    void aHolderWhoseRedisHangsLearnsItLostTheLock()
    {
        auto a = locker(QStringLiteral("a"));
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("paused"));
        QVERIFY(guard->acquired());
        m_servers[0]->pause(); // kill -STOP: no extension gets through
        const bool told = Test::eventually([&] { return guard->token().isCancelled(); }, 5s);
        const bool stillPaused = m_servers[0]->isRunning();
        m_servers[0]->resume();
        QVERIFY(told);
        QVERIFY(stillPaused);
        QVERIFY(guard->token().cause().message().contains(QLatin1String("expired")));
        // Redis expired the key meanwhile: another process takes the lock.
        auto b = locker(QStringLiteral("b"));
        CancelSource limit = CancelSource::withTimeout(CancelToken(), 10s);
        Result<LockGuard> taken = b->lock(limit.token(), QStringLiteral("paused"));
        QVERIFY2(taken && taken->acquired(), qPrintable(taken.status().message()));
    }

    void fencingTokensStrictlyIncreaseAcrossLockers()
    {
        auto a = locker(QStringLiteral("a"));
        auto b = locker(QStringLiteral("b"));
        qint64 last = 0;
        for (int i = 0; i < 50; ++i) {
            Locker &which = i % 2 ? *a : *b;
            Result<LockGuard> guard = which.lock(CancelToken(), QStringLiteral("fenced"));
            QVERIFY(guard->fencingToken() > last);
            last = guard->fencingToken();
        }
    }

    void aBlockedLockIsCancelled()
    {
        auto a = locker(QStringLiteral("a"));
        auto b = locker(QStringLiteral("b"));
        Result<LockGuard> held = a->lock(CancelToken(), QStringLiteral("k"));
        CancelSource source;
        Status result;
        std::thread waiter([&] { result = b->lock(source.token(), QStringLiteral("k")).status(); });
        // Cancel only once the waiter is really waiting (it found the key held).
        QVERIFY(Test::eventually([&] {
            const Result<std::vector<LockInfo>> infos = b->list(CancelToken());
            return infos && infos->size() == 1 && infos->front().waiters == 1;
        }));
        source.cancel(QStringLiteral("stop waiting"));
        waiter.join();
        QCOMPARE(result.message(), QStringLiteral("stop waiting"));
    }

    void aLocalReleaseWakesALocalWaiterAtOnce()
    {
        LockerOptions options = fastOptions(QStringLiteral("a"));
        options.retryMin = 1s; // a waiter that only polled would take a second
        options.retryMax = 1s;
        auto a = locker(QStringLiteral("a"), options);
        Result<LockGuard> held = a->lock(CancelToken(), QStringLiteral("k"));
        std::atomic<bool> got = false;
        std::thread waiter([&] { got = a->lock(CancelToken(), QStringLiteral("k"))->acquired(); });
        QVERIFY(Test::eventually([&] { // the waiter's first attempt found it held
            const Result<std::vector<LockInfo>> infos = a->list(CancelToken());
            return infos && infos->size() == 1 && infos->front().waiters == 1;
        }));
        const auto released = SteadyClock::now();
        held->release();
        waiter.join();
        QVERIFY(got);
        QVERIFY(SteadyClock::now() - released < 900ms);
    }

    void inspectionAndForcedRelease()
    {
        auto a = locker(QStringLiteral("holder-a"));
        auto admin = locker(QStringLiteral("admin-instance"));
        QString observed;
        admin->setForceReleaseObserver([&](const LockInfo &info, const QString &doer) { observed = info.owner + QLatin1Char('/') + doer; });
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("inspect:me"));
        const std::vector<LockInfo> infos = *admin->list(CancelToken());
        QCOMPARE(infos.size(), size_t(1));
        QCOMPARE(infos[0].key, QStringLiteral("inspect:me"));
        QCOMPARE(infos[0].backend, QStringLiteral("redis"));
        QCOMPARE(infos[0].owner, QStringLiteral("holder-a"));
        QCOMPARE(infos[0].fencingToken, guard->fencingToken());
        QVERIFY(infos[0].ttlMs > 0);
        QCOMPARE(infos[0].tokenPrefix, QString::fromLatin1(redis({QStringLiteral("GET"), QStringLiteral("gitea:globallock:inspect:me")}).left(8)));
        QVERIFY(infos[0].acquiredAt.isValid());

        QVERIFY(admin->forceRelease(CancelToken(), QStringLiteral("inspect:me"), QStringLiteral("operator")));
        QCOMPARE(observed, QStringLiteral("holder-a/operator"));
        // The holder is another locker: it learns at its next extension.
        QVERIFY(Test::eventually([&] { return guard->token().isCancelled(); }, 5s));
        QVERIFY(guard->token().cause().message().contains(QLatin1String("refused")));
        QCOMPARE(admin->forceRelease(CancelToken(), QStringLiteral("inspect:me"), QStringLiteral("operator")).code(), Status::Code::NotFound);

        // A holder in the same locker learns at once.
        Result<LockGuard> local = admin->lock(CancelToken(), QStringLiteral("mine"));
        QVERIFY(admin->forceRelease(CancelToken(), QStringLiteral("mine"), QStringLiteral("operator")));
        QVERIFY(local->token().isCancelled());
    }

    void manyThreadsOnTwoLockersNeverOverlap()
    {
        auto a = locker(QStringLiteral("a"));
        auto b = locker(QStringLiteral("b"));
        std::atomic<int> inside = 0;
        std::atomic<bool> overlap = false;
        int counter = 0; // protected by the lock only
        std::vector<std::thread> threads;
        for (int t = 0; t < 6; ++t) {
            threads.emplace_back([&, t] {
                Locker &which = t % 2 ? *a : *b;
                for (int i = 0; i < 60; ++i) {
                    Result<LockGuard> guard = which.lock(CancelToken(), QStringLiteral("counter"));
                    if (!guard || ++inside != 1)
                        overlap = true;
                    ++counter;
                    --inside;
                }
            });
        }
        for (std::thread &t : threads)
            t.join();
        QVERIFY(!overlap);
        QCOMPARE(counter, 6 * 60);
    }

    void twoProcessesNeverOverlap() { runExclusiveChildren(QStringLiteral("exclusive")); }

    void aCrashedHoldersLockExpiresWithinItsLease()
    {
        ChildProcess holder;
        ChildProcess::Options spawn;
        spawn.output = ChildProcess::Output::StdoutOnly;
        QVERIFY(holder.start(QStringLiteral(LOCKCHILD_PATH), {QStringLiteral("--urls"), urls().join(QLatin1Char(',')), QStringLiteral("--key"),
                                                               QStringLiteral("crash"), QStringLiteral("--hold"), QStringLiteral("--ttl"), QStringLiteral("1000")},
                             spawn));
        QByteArray said;
        QVERIFY(Test::eventually([&] { said += holder.read(0); return said.contains('\n') || holder.finished(); }));
        QVERIFY2(said.startsWith("locked"), said.constData());
        holder.kill(); // SIGKILL: a crash
        const auto killed = SteadyClock::now();
        auto b = locker(QStringLiteral("b"));
        CancelSource limit = CancelSource::withTimeout(CancelToken(), 10s);
        Result<LockGuard> taken = b->lock(limit.token(), QStringLiteral("crash"));
        QVERIFY(taken && taken->acquired());
        QVERIFY(SteadyClock::now() - killed <= 1000ms + 300ms); // within the lease (its last extension) plus retry slack
    }

    void redlockOverThreeNodesWithOneDown()
    {
        QVERIFY(startServers(3));
        auto a = locker(QStringLiteral("a"));
        auto b = locker(QStringLiteral("b"));
        QCOMPARE(a->backend(), QStringLiteral("redlock"));
        m_servers[2]->stop();
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("r"));
        QVERIFY2(guard && guard->acquired(), qPrintable(guard.status().message()));
        QVERIFY(!b->tryLock(CancelToken(), QStringLiteral("r"))->acquired());
        guard->release();
        // Both other nodes were released too.
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("gitea:globallock:r")}, 0), QByteArray("0"));
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("gitea:globallock:r")}, 1), QByteArray("0"));
        QVERIFY(b->tryLock(CancelToken(), QStringLiteral("r"))->acquired());

        m_servers[1]->stop(); // no majority left: an error, not "held"
        const Result<LockGuard> noQuorum = a->tryLock(CancelToken(), QStringLiteral("r2"));
        QCOMPARE(noQuorum.status().code(), Status::Code::Unavailable);
        QVERIFY(noQuorum.status().message().contains(QLatin1String("2 needed")));
    }

    // A node that applied SET NX after its reply timed out still gets the release: the key must
    // not linger there for a whole lease.
    void redlockReleasesEveryNodeEvenWhereTheAcquireReplyWasLost()
    {
        QVERIFY(startServers(3));
        auto a = locker(QStringLiteral("a"));
        QVERIFY(a->lock(CancelToken(), QStringLiteral("warm"))); // scripts loaded everywhere (EVALSHA only below)
        const QStringList exists{QStringLiteral("EXISTS"), QStringLiteral("gitea:globallock:late")};
        m_servers[2]->pause();
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("late"));
        QVERIFY2(guard && guard->acquired(), qPrintable(guard.status().message()));
        m_servers[2]->resume(); // it now runs the acquire it had in its socket buffer
        QVERIFY(Test::eventually([&] { return redis(exists, 2) == "1"; }));
        guard->release();
        for (int node = 0; node < 3; ++node)
            QCOMPARE(redis(exists, node), QByteArray("0"));
    }

    // Every majority overlaps the previous one; the counter raised on the majority keeps tokens
    // increasing even though the counters of the nodes differ.
    void fencingTokensIncreaseWhileTheMajorityRotates()
    {
        m_servers.clear();
        for (int i = 0; i < 3; ++i) {
            m_servers.push_back(std::make_unique<Test::RedisServer>());
            QVERIFY(m_servers.back()->start({true, {}})); // survives its restart
        }
        const QString counter = QStringLiteral("gitea:globallock:{fencing}");
        QVERIFY(m_servers[0]->command({QStringLiteral("SET"), counter, QStringLiteral("100")}));
        QVERIFY(m_servers[1]->command({QStringLiteral("SET"), counter, QStringLiteral("1")}));
        QVERIFY(m_servers[2]->command({QStringLiteral("SET"), counter, QStringLiteral("1")}));
        LockerOptions options = fastOptions(QStringLiteral("a"));
        options.ttl = 10s; // each node gets ttl / 20: room for an fsync on every write
        auto a = locker(QStringLiteral("a"), options);
        qint64 last = 0;
        for (int round = 0; round < 6; ++round) {
            const int down = (2 + round) % 3;
            m_servers[size_t(down)]->stop();
            Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("rotating"));
            QVERIFY2(guard && guard->acquired(), qPrintable(guard.status().message()));
            QVERIFY2(guard->fencingToken() > last, qPrintable(QStringLiteral("round %1: %2 after %3").arg(round).arg(guard->fencingToken()).arg(last)));
            last = guard->fencingToken();
            guard->release();
            QVERIFY(m_servers[size_t(down)]->restart());
        }
    }

    // A Redis without persistence forgets the counter when it restarts; it starts again from the
    // current time in microseconds, above every token handed out before.
    void tokensKeepIncreasingAcrossARestartWithoutPersistence()
    {
        auto a = locker(QStringLiteral("a"));
        const qint64 before = a->lock(CancelToken(), QStringLiteral("k"))->fencingToken();
        m_servers[0]->stop();
        QVERIFY(m_servers[0]->restart());
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("gitea:globallock:{fencing}")}), QByteArray("0"));
        const Result<LockGuard> after = a->lock(CancelToken(), QStringLiteral("k"));
        QVERIFY2(after, qPrintable(after.status().message()));
        QVERIFY(after->fencingToken() > before);
    }

    void redlockKeepsTheLockWhenOneNodeHangs()
    {
        QVERIFY(startServers(3));
        auto a = locker(QStringLiteral("a"));
        Result<LockGuard> guard = a->lock(CancelToken(), QStringLiteral("r"));
        m_servers[0]->pause();
        const bool lost = guard->token().sleepFor(2500ms) == false; // two leases' worth
        m_servers[0]->resume();
        QVERIFY(!lost);
        QVERIFY(guard->isHeld());
    }

    void redlockOverFiveNodes()
    {
        QVERIFY(startServers(5));
        m_servers[4]->stop();
        m_servers[3]->stop();
        auto a = locker(QStringLiteral("a"));
        auto b = locker(QStringLiteral("b"));
        qint64 last = 0;
        for (int i = 0; i < 20; ++i) {
            Locker &which = i % 2 ? *a : *b;
            Result<LockGuard> guard = which.lock(CancelToken(), QStringLiteral("five"));
            QVERIFY2(guard && guard->acquired(), qPrintable(guard.status().message()));
            QVERIFY(guard->fencingToken() > last);
            last = guard->fencingToken();
        }
        runExclusiveChildren(QStringLiteral("five-exclusive"));
    }

    void createdFromGlobalLockSettings()
    {
        const QByteArray ini = "[redis]\nCONN_STR = " + m_servers[0]->url().toUtf8()
                               + "\n[global_lock]\nSERVICE_TYPE = redis\nKEY_PREFIX = sy:lock:\nMAX_HOLD_TIME = 1h\n";
        Result<EngineConfig> config = EngineConfig::load(Settings(*IniFile::parse(QStringLiteral("app.ini"), ini)), QDir::tempPath(), QString());
        QVERIFY2(config, qPrintable(config.status().message()));
        QCOMPARE(config->globalLock.serviceConnStr, m_servers[0]->url()); // fell back to [redis]
        auto created = createLocker(CancelToken(), *config, fastOptions(QStringLiteral("a")));
        QVERIFY(created);
        QCOMPARE((*created)->backend(), QStringLiteral("redis"));
        Result<LockGuard> guard = (*created)->lock(CancelToken(), QStringLiteral("k"));
        QCOMPARE(redis({QStringLiteral("EXISTS"), QStringLiteral("sy:lock:k")}), QByteArray("1"));

        Result<EngineConfig> memory = EngineConfig::load(Settings(), QDir::tempPath(), QString());
        QCOMPARE((*createLocker(CancelToken(), *memory, fastOptions(QStringLiteral("a"))))->backend(), QStringLiteral("memory"));
    }

    void unreachableRedisFailsCreation()
    {
        m_servers[0]->stop();
        LockerOptions options = fastOptions(QStringLiteral("a"));
        const auto created = createRedisLocker(CancelToken(), urls(), options);
        QCOMPARE(created.status().code(), Status::Code::Unavailable);
        QVERIFY(created.status().message().contains(QLatin1String("0 of 1")));
    }
};

QTEST_GUILESS_MAIN(TestRedisLocker)
#include "tst_redislocker.moc"
