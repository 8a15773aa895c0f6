// The Locker contract every backend shares: one suite, run on the memory locker, a single Redis
// and Redlock over three nodes (SWITCHYARD_LOCKER = memory | redis | redlock), as the queue
// conformance suite does for the queue backends.
#include "engine/globallock/globallock.h"

#include "support/redisserver.h"
#include "support/wait.h"

#include <QTest>

#include <atomic>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

class TestLocker : public QObject
{
    Q_OBJECT

    QString m_backend = qEnvironmentVariable("SWITCHYARD_LOCKER", QStringLiteral("memory"));
    std::vector<std::unique_ptr<Test::RedisServer>> m_servers;

    bool isMemory() const { return m_backend == QLatin1String("memory"); }
    // Loops shrink on Redis: each cycle is two round trips.
    int scaled(int memoryCount) const { return isMemory() ? memoryCount : std::max(1, memoryCount / 10); }

    std::unique_ptr<Locker> makeLocker()
    {
        LockerOptions options;
        options.instanceId = QStringLiteral("test-instance");
        if (isMemory())
            return createMemoryLocker(options);
        options.ttl = 2000ms;
        options.extendInterval = 500ms;
        options.retryMin = 2ms;
        options.retryMax = 20ms;
        options.connectAttempts = 2;
        options.connectInterval = 20ms;
        options.releaseTimeout = 500ms;
        QStringList urls;
        for (const auto &server : m_servers)
            urls.append(server->url());
        Result<std::unique_ptr<Locker>> created = createRedisLocker(CancelToken(), urls, options);
        if (!created)
            qFatal("%s", qPrintable(created.status().message()));
        return std::move(created).value();
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY2(m_backend == QLatin1String("memory") || m_backend == QLatin1String("redis") || m_backend == QLatin1String("redlock"),
                 qPrintable(m_backend));
        m_servers.clear();
        const int nodes = isMemory() ? 0 : m_backend == QLatin1String("redis") ? 1 : 3;
        for (int i = 0; i < nodes; ++i) {
            m_servers.push_back(std::make_unique<Test::RedisServer>());
            const Status started = m_servers.back()->start();
            QVERIFY2(started, qPrintable(started.message()));
        }
    }
    void cleanup() { m_servers.clear(); }

    void tryLockReportsHeldWithoutError()
    {
        auto locker = makeLocker();
        Result<LockGuard> first = locker->tryLock(CancelToken(), QStringLiteral("cron_task:cleanup"));
        QVERIFY(first);
        QVERIFY(first->acquired());
        QVERIFY(first->isHeld());
        QCOMPARE(first->key(), QStringLiteral("cron_task:cleanup"));
        Result<LockGuard> second = locker->tryLock(CancelToken(), QStringLiteral("cron_task:cleanup"));
        QVERIFY(second); // no error...
        QVERIFY(!second->acquired()); // ...just not acquired
        second->release();            // safe on a guard that acquired nothing
        QVERIFY(locker->tryLock(CancelToken(), QStringLiteral("other"))->acquired());
        first->release();
        QVERIFY(locker->tryLock(CancelToken(), QStringLiteral("cron_task:cleanup"))->acquired());
    }

    void releaseIsIdempotentAndDestructionReleases()
    {
        auto locker = makeLocker();
        {
            Result<LockGuard> guard = locker->lock(CancelToken(), QStringLiteral("k"));
            QVERIFY(guard);
            const CancelToken token = guard->token();
            guard->release();
            QVERIFY(token.isCancelled());
            QVERIFY(!guard->isHeld());
            Result<LockGuard> other = locker->tryLock(CancelToken(), QStringLiteral("k"));
            QVERIFY(other->acquired());
            guard->release(); // twice: must not release the new holder's lock
            QVERIFY(!locker->tryLock(CancelToken(), QStringLiteral("k"))->acquired());
        } // `other` released here
        QVERIFY(locker->tryLock(CancelToken(), QStringLiteral("k"))->acquired());
        LockGuard empty;
        empty.release();
        QCOMPARE(empty.fencingToken(), qint64(0));
    }

    void lockWaitsForTheReleaseWithoutPolling()
    {
        auto locker = makeLocker();
        Result<LockGuard> holder = locker->lock(CancelToken(), QStringLiteral("k"));
        std::atomic<bool> acquired = false;
        std::thread waiter([&] {
            Result<LockGuard> guard = locker->lock(CancelToken(), QStringLiteral("k"));
            acquired = guard && guard->acquired();
        });
        QVERIFY(Test::eventually([&] { return !locker->list(CancelToken())->empty() && locker->list(CancelToken())->front().waiters == 1; }));
        QVERIFY(!acquired);
        holder->release();
        waiter.join();
        QVERIFY(acquired);
    }

    void cancellationWakesABlockedLock()
    {
        auto locker = makeLocker();
        Result<LockGuard> holder = locker->lock(CancelToken(), QStringLiteral("k"));
        CancelSource source;
        Status result;
        std::thread waiter([&] { result = locker->lock(source.token(), QStringLiteral("k")).status(); });
        QVERIFY(Test::eventually([&] { return locker->list(CancelToken())->front().waiters == 1; }));
        source.cancel(QStringLiteral("operator gave up"));
        waiter.join();
        QCOMPARE(result.code(), Status::Code::Cancelled);
        QCOMPARE(result.message(), QStringLiteral("operator gave up"));
        QCOMPARE(locker->list(CancelToken())->front().waiters, 0);
    }

    void threadsNeverOverlapInTheCriticalSection()
    {
        auto locker = makeLocker();
        std::atomic<int> inside = 0;
        std::atomic<bool> overlap = false;
        int counter = 0; // protected by the lock only
        std::vector<std::thread> threads;
        const int rounds = scaled(500);
        for (int t = 0; t < 8; ++t) {
            threads.emplace_back([&] {
                for (int i = 0; i < rounds; ++i) {
                    Result<LockGuard> guard = locker->lock(CancelToken(), QStringLiteral("shared"));
                    if (++inside != 1)
                        overlap = true;
                    ++counter;
                    --inside;
                }
            });
        }
        for (std::thread &t : threads)
            t.join();
        QVERIFY(!overlap);
        QCOMPARE(counter, 8 * rounds);
        QVERIFY(locker->list(CancelToken())->empty());
    }

    void fencingTokensStrictlyIncrease()
    {
        auto locker = makeLocker();
        qint64 last = 0;
        for (int i = 0; i < scaled(100); ++i) {
            Result<LockGuard> guard = locker->lock(CancelToken(), QStringLiteral("k%1").arg(i % 3));
            QVERIFY(guard->fencingToken() > last);
            last = guard->fencingToken();
        }
    }

    void listShowsHeldLocks()
    {
        auto locker = makeLocker();
        const QDateTime before = QDateTime::currentDateTimeUtc();
        Result<LockGuard> guard = locker->lock(CancelToken(), QStringLiteral("cron_task:gc"));
        const std::vector<LockInfo> infos = *locker->list(CancelToken());
        QCOMPARE(infos.size(), size_t(1));
        QCOMPARE(infos[0].key, QStringLiteral("cron_task:gc"));
        QCOMPARE(infos[0].backend, m_backend);
        QCOMPARE(infos[0].owner, QStringLiteral("test-instance"));
        QCOMPARE(infos[0].tokenPrefix.size(), 8);
        QVERIFY(infos[0].acquiredAt >= before.addSecs(-1));
        if (isMemory())
            QCOMPARE(infos[0].ttlMs, qint64(-1)); // no lease
        else
            QVERIFY(infos[0].ttlMs > 0 && infos[0].ttlMs <= 2000);
        QCOMPARE(infos[0].fencingToken, guard->fencingToken());
    }

    void forceReleaseTellsTheHolderAndTheObserver()
    {
        auto locker = makeLocker();
        QString observed;
        locker->setForceReleaseObserver([&](const LockInfo &info, const QString &doer) { observed = info.key + QLatin1Char('/') + doer; });
        Result<LockGuard> guard = locker->lock(CancelToken(), QStringLiteral("stuck"));
        QVERIFY(locker->forceRelease(CancelToken(), QStringLiteral("stuck"), QStringLiteral("admin")));
        QVERIFY(guard->token().isCancelled());
        QVERIFY(guard->token().cause().message().contains(QLatin1String("force-released by admin")));
        QVERIFY(!guard->isHeld());
        QCOMPARE(observed, QStringLiteral("stuck/admin"));
        Result<LockGuard> next = locker->tryLock(CancelToken(), QStringLiteral("stuck"));
        QVERIFY(next->acquired());
        guard->release(); // the old holder's release must not free the new holder
        QVERIFY(!locker->tryLock(CancelToken(), QStringLiteral("stuck"))->acquired());
        QCOMPARE(locker->forceRelease(CancelToken(), QStringLiteral("nothing"), QStringLiteral("admin")).code(), Status::Code::NotFound);
    }

    void lockAndDoHelpers()
    {
        auto locker = makeLocker();
        qint64 seenFence = 0;
        QVERIFY(lockAndDo(*locker, CancelToken(), QStringLiteral("k"), [&](const CancelToken &token, qint64 fence) {
            seenFence = fence;
            return token.isCancelled() ? Status::internal(QStringLiteral("cancelled")) : Status::ok();
        }));
        QVERIFY(seenFence > 0);
        QVERIFY(locker->list(CancelToken())->empty());

        Result<LockGuard> holder = locker->lock(CancelToken(), QStringLiteral("k"));
        bool ran = false;
        Result<bool> skipped = tryLockAndDo(*locker, CancelToken(), QStringLiteral("k"), [&](const CancelToken &, qint64) {
            ran = true;
            return Status::ok();
        });
        QVERIFY(skipped);
        QVERIFY(!*skipped);
        QVERIFY(!ran);
        holder->release();
        const Result<bool> failed = tryLockAndDo(*locker, CancelToken(), QStringLiteral("k"), [](const CancelToken &, qint64) {
            return Status::internal(QStringLiteral("task failed"));
        });
        QCOMPARE(failed.status().message(), QStringLiteral("task failed"));
        QVERIFY(locker->list(CancelToken())->empty()); // released despite the failure
    }

    void aGuardMayOutliveItsLocker()
    {
        LockGuard guard;
        {
            auto locker = makeLocker();
            guard = std::move(locker->lock(CancelToken(), QStringLiteral("k")).value());
        }
        guard.release(); // no crash, nothing to do
        QVERIFY(!guard.isHeld());
    }
};

QTEST_GUILESS_MAIN(TestLocker)
#include "tst_locker.moc"
