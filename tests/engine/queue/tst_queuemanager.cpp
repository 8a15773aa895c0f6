// The queue manager: creation from [queue] / [queue.<name>], qids, list, and the admin actions.
#include "engine/core/lifecycle.h"
#include "engine/queue/queue.h"
#include "engine/settings/config.h"

#include "support/testutil.h"
#include "support/wait.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

using Test::configFrom;

QueueManagerOptions fastOptions()
{
    QueueManagerOptions options;
    options.timing.batchDebounce = 5ms;
    options.timing.workerIdle = 50ms;
    options.timing.flushPoll = 5ms;
    options.timing.connectAttempts = 2;
    options.timing.connectInterval = 10ms;
    options.instanceId = QStringLiteral("test-instance");
    return options;
}

std::vector<qint64> handleAll(std::vector<qint64>)
{
    return {};
}

} // namespace

class TestQueueManager : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void createsQueuesFromTheirSections()
    {
        QTemporaryDir dir;
        const EngineConfig config = configFrom("[queue]\nTYPE = channel\nBATCH_LENGTH = 3\n"
                                               "[queue.mail]\nTYPE = level\nMAX_WORKERS = 2\nLENGTH = 77\n",
                                               dir.path());
        ProcessRegistry processes;
        Lifecycle lifecycle(processes);
        QueueManager manager(config, lifecycle, fastOptions());
        auto task = manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("task"), handleAll);
        auto mail = manager.createUniqueQueue<qint64>(CancelToken(), QStringLiteral("mail"), handleAll);
        QVERIFY2(task, qPrintable(task.status().message()));
        QVERIFY2(mail, qPrintable(mail.status().message()));

        const std::vector<QueueStats> list = manager.list();
        QCOMPARE(list.size(), size_t(2));
        QCOMPARE(list[0].qid, qint64(1));
        QCOMPARE(list[0].name, QStringLiteral("task"));
        QCOMPARE(list[0].type, QStringLiteral("channel"));
        QCOMPARE(list[0].unique, false);
        QCOMPARE(list[0].batchLength, 3);
        QCOMPARE(list[1].qid, qint64(2));
        QCOMPARE(list[1].type, QStringLiteral("level"));
        QCOMPARE(list[1].unique, true);
        QCOMPARE(list[1].maxWorkers, 2);
        QCOMPARE(list[1].capacity, 77);
        QCOMPARE(list[1].batchLength, 3); // from [queue]
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("queues/common/mail_queue"))));
        // The lifecycle lists the statistics sampler and each queue as running components.
        QCOMPARE(processes.list().size(), size_t(3));
        QCOMPARE(processes.list()[0].description, QStringLiteral("queue statistics"));
        QCOMPARE(processes.list()[1].description, QStringLiteral("queue task"));
    }

    void duplicateNamesAreRefused()
    {
        QTemporaryDir dir;
        const EngineConfig config = configFrom("[queue]\nTYPE = channel\n", dir.path());
        ProcessRegistry processes;
        Lifecycle lifecycle(processes);
        QueueManager manager(config, lifecycle, fastOptions());
        QVERIFY(manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("task"), handleAll));
        auto again = manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("task"), handleAll);
        QCOMPARE(again.status().code(), Status::Code::AlreadyExists);
    }

    void aQueueWithoutHandlerIsDummy()
    {
        QTemporaryDir dir;
        const EngineConfig config = configFrom("", dir.path());
        ProcessRegistry processes;
        Lifecycle lifecycle(processes);
        QueueManager manager(config, lifecycle, fastOptions());
        auto queue = manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("nobody"), {});
        QVERIFY(queue);
        QCOMPARE((*queue)->stats().type, QStringLiteral("dummy"));
        QVERIFY((*queue)->push(CancelToken(), 1));
    }

    void adminActions()
    {
        QTemporaryDir dir;
        const EngineConfig config = configFrom("[queue]\nTYPE = channel\n", dir.path());
        ProcessRegistry processes;
        Lifecycle lifecycle(processes);
        QueueManager manager(config, lifecycle, fastOptions());
        std::atomic<int> handled = 0;
        auto queue = manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("task"), [&](std::vector<qint64> items) {
            handled += int(items.size());
            return std::vector<qint64>();
        });
        QVERIFY(queue);
        QVERIFY(manager.pause(CancelToken(), 1));
        QVERIFY(manager.list()[0].paused);
        for (int i = 0; i < 10; ++i)
            QVERIFY((*queue)->push(CancelToken(), i));
        QCOMPARE(*manager.removeAll(CancelToken(), 1), qint64(10));
        for (int i = 0; i < 5; ++i)
            QVERIFY((*queue)->push(CancelToken(), i));
        QVERIFY(manager.resume(1));
        QVERIFY(manager.flushAll(CancelToken(), 10s));
        QCOMPARE(handled.load(), 5);
        QVERIFY(manager.setMaxWorkers(1, 7));
        QCOMPARE(manager.stats(1)->maxWorkers, 7);

        QCOMPARE(manager.pause(CancelToken(), 99).code(), Status::Code::NotFound);
        QCOMPARE(manager.setMaxWorkers(99, 1).code(), Status::Code::NotFound);
        QCOMPARE(manager.removeAll(CancelToken(), 99).status().code(), Status::Code::NotFound);
        QVERIFY(manager.stats(99).status().message().contains(QLatin1String("99")));
    }

    void shutdownKeepsPersistedItemsForTheNextStart()
    {
        QTemporaryDir dir;
        const EngineConfig config = configFrom("[queue]\nTYPE = level\n", dir.path());
        ProcessRegistry processes;
        {
            Lifecycle lifecycle(processes);
            QueueManager manager(config, lifecycle, fastOptions());
            auto queue = manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("task"), handleAll);
            QVERIFY(queue);
            manager.pause(CancelToken(), 1);
            for (int i = 0; i < 3; ++i)
                QVERIFY((*queue)->push(CancelToken(), i));
            lifecycle.shutdown();
            QVERIFY(lifecycle.waitForTerminated().clean());
            QVERIFY(!(*queue)->pool().isRunning());
        }
        // A new manager on the same data directory handles them.
        Lifecycle lifecycle(processes);
        QueueManager manager(config, lifecycle, fastOptions());
        std::mutex mutex;
        std::vector<qint64> seen;
        auto queue = manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("task"), [&](std::vector<qint64> items) {
            std::lock_guard lock(mutex);
            seen.insert(seen.end(), items.begin(), items.end());
            return std::vector<qint64>();
        });
        QVERIFY(queue);
        QVERIFY((*queue)->flush(CancelToken(), 10s));
        std::lock_guard lock(mutex);
        QCOMPARE(seen, (std::vector<qint64>{0, 1, 2}));
    }

    void unreachableRedisFailsCreationClearly()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close(); // nothing listens there now
        QTemporaryDir dir;
        const EngineConfig config = configFrom("[queue]\nTYPE = redis\nCONN_STR = redis://127.0.0.1:"
                                                   + QByteArray::number(port) + "/0\n",
                                               dir.path());
        ProcessRegistry processes;
        Lifecycle lifecycle(processes);
        QueueManager manager(config, lifecycle, fastOptions());
        auto queue = manager.createSimpleQueue<qint64>(CancelToken(), QStringLiteral("webhook_sender"), handleAll);
        QVERIFY(!queue);
        QCOMPARE(queue.status().code(), Status::Code::Unavailable);
        const QString message = queue.status().message();
        QVERIFY2(message.contains(QLatin1String("webhook_sender")) && message.contains(QLatin1String("did not answer PING after 2 attempts"))
                     && message.contains(QString::number(port)),
                 qPrintable(message));
        QVERIFY(manager.list().empty());
    }
};

QTEST_GUILESS_MAIN(TestQueueManager)
#include "tst_queuemanager.moc"
