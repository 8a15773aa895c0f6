// What guards ingestion beyond the forge's own signature: Standard Webhooks signatures with their
// timestamp window, a payload seen again under another delivery id (logged, or refused when the
// source says so), and the retention of processed events (cleanup_event_table). On a real engine
// with SQLite in a temporary folder.
#include "engine/engine.h"
#include "engine/cron/cron.h"
#include "engine/events/events.h"
#include "engine/store/store.h"

#include "support/testutil.h"

#include <QDateTime>
#include <QFile>
#include <QMessageAuthenticationCode>
#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;

namespace {

QByteArray sample(const QString &name)
{
    QFile file(QStringLiteral(SWITCHYARD_TEST_DATA "/events/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing sample %s", qPrintable(name));
    return file.readAll();
}

struct Fixture
{
    explicit Fixture(const QByteArray &ini)
    {
        Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
        if (!started)
            qFatal("engine: %s", qPrintable(started.status().message()));
        engine = std::move(started).value();
    }
    ~Fixture() { engine->shutdown(); }

    Result<EventAccepted> accept(IncomingEvent in) { return engine->events().accept(CancelToken(), in); }
    qint64 count(const QString &where = QStringLiteral("1 = 1"))
    {
        return engine->store()
            .readValue<qint64>([&](SqlTransaction &tx) { return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM event WHERE ") + where, {}); })
            .valueOr(-1);
    }

    QTemporaryDir dir;
    std::unique_ptr<Engine> engine;
};

// A Standard Webhooks request as a sender signs it (standardwebhooks.com): the key is the base64
// after "whsec_", the signature base64(HMAC-SHA256(key, "id.timestamp.payload")).
IncomingEvent standard(const QByteArray &key, const QByteArray &id, qint64 timestamp, const QByteArray &payload)
{
    IncomingEvent in;
    in.source = QStringLiteral("svc");
    in.event = QStringLiteral("push");
    in.payload = payload;
    in.webhookId = id;
    in.deliveryId = QString::fromLatin1(id);
    in.webhookTimestamp = QByteArray::number(timestamp);
    const QByteArray signature =
        QMessageAuthenticationCode::hash(id + '.' + in.webhookTimestamp + '.' + payload, key, QCryptographicHash::Sha256).toBase64();
    in.webhookSignature = "v1,bm90LXRoaXMtb25l v1," + signature; // a rotated-out key's signature first
    return in;
}

} // namespace

class TestEventGuard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void standardWebhooksAreSignedAndTimed()
    {
        const QByteArray key = "0123456789abcdef0123456789abcdef";
        Fixture f("[event_source.svc]\nSECRET = whsec_" + key.toBase64() + "\nREPLAY_WINDOW = 5m\n");
        const QByteArray payload = sample(QStringLiteral("gitea-push.json"));
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const Result<EventAccepted> first = f.accept(standard(key, "msg_1", now, payload));
        QVERIFY(first);
        // Played back with another (unsigned) delivery header: still the signed webhook-id's event.
        IncomingEvent replayed = standard(key, "msg_1", now, payload);
        replayed.deliveryId = QStringLiteral("a-new-gitea-delivery");
        const Result<EventAccepted> again = f.accept(replayed);
        QVERIFY(again && again->duplicate && again->id == first->id);

        IncomingEvent forged = standard("another key", "msg_2", now, payload);
        QCOMPARE(f.accept(forged).status().code(), Status::Code::Unauthenticated);
        IncomingEvent tampered = standard(key, "msg_3", now, payload);
        tampered.webhookTimestamp = QByteArray::number(now + 1); // the signature covers the timestamp
        QCOMPARE(f.accept(tampered).status().code(), Status::Code::Unauthenticated);
        // Outside the window, even rightly signed: an old capture played back, or a clock far off.
        const Result<EventAccepted> late = f.accept(standard(key, "msg_4", now - 6 * 60, payload));
        QCOMPARE(late.status().code(), Status::Code::Unauthenticated);
        QVERIFY2(late.status().message().contains(QLatin1String("REPLAY_WINDOW")), qPrintable(late.status().message()));
        QCOMPARE(f.accept(standard(key, "msg_5", now + 6 * 60, payload)).status().code(), Status::Code::Unauthenticated);
        IncomingEvent noTime = standard(key, "msg_6", now, payload);
        noTime.webhookTimestamp.clear();
        const Result<EventAccepted> refused = f.accept(noTime);
        QCOMPARE(refused.status().code(), Status::Code::InvalidArgument);
        QCOMPARE(refused.status().field(), QStringLiteral("webhook-timestamp"));
        QCOMPARE(f.count(), qint64(1));
    }

    // The same signed payload under a new delivery id: a replay (or a forge's manual resend).
    // Logged and processed by default; refused with 409 when the source says so. A repeat of the
    // same delivery id stays a duplicate (answered with the first event), never a replay.
    void aReplayedPayloadIsLoggedOrRefused()
    {
        for (const bool refuse : {false, true}) {
            Fixture f("[event_source.gitea]\nSECRET = s3cret\nREFUSE_REPLAYS = " + QByteArray(refuse ? "true" : "false") + "\n");
            IncomingEvent in;
            in.source = QStringLiteral("gitea");
            in.event = QStringLiteral("push");
            in.payload = sample(QStringLiteral("gitea-push.json"));
            in.giteaSignature = eventSignature("s3cret", in.payload);
            in.deliveryId = QStringLiteral("first");
            const Result<EventAccepted> first = f.accept(in);
            QVERIFY(first);
            const Result<EventAccepted> again = f.accept(in);
            QVERIFY(again && again->duplicate);
            in.deliveryId = QStringLiteral("second");
            const Result<EventAccepted> replay = f.accept(in);
            if (refuse) {
                QCOMPARE(replay.status().code(), Status::Code::Conflict);
                QVERIFY2(replay.status().message().contains(QStringLiteral("event %1").arg(first->id)), qPrintable(replay.status().message()));
                QCOMPARE(f.count(), qint64(1));
            } else {
                QVERIFY(replay && !replay->duplicate);
                QCOMPARE(f.count(), qint64(2));
            }
            // Another payload is no replay.
            in.payload.replace("\"ref\"", "\"ref\" ");
            in.giteaSignature = eventSignature("s3cret", in.payload);
            in.deliveryId = QStringLiteral("third");
            QVERIFY(f.accept(in));
        }
    }

    // Processed events go after OLDER_THAN, failed ones after FAILED_OLDER_THAN; pending and
    // processing ones stay whatever their age. The task is registered, enabled, and runs by hand.
    void oldProcessedEventsAreRemoved()
    {
        Fixture f("[cron.cleanup_event_table]\nOLDER_THAN = 24h\nFAILED_OLDER_THAN = 72h\n");
        const qint64 day = 24 * 3600 * 1000;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const Status written = f.engine->store().write([&](SqlTransaction &tx) -> Status {
            int n = 0;
            for (const auto &[status, ageDays] : std::initializer_list<std::pair<const char *, qint64>>{
                     {"done", 2}, {"ignored", 2}, {"done", 0}, {"failed", 2}, {"failed", 4}, {"pending", 9}, {"processing", 9}}) {
                Result<QSqlQuery> q = tx.exec(QStringLiteral("INSERT INTO event (source, delivery_id, event, payload, received_ms, status) "
                                                             "VALUES ('default', ?, 'push', '{}', ?, ?)"),
                                              {QStringLiteral("d%1").arg(++n), now - ageDays * day - 1000, QString::fromLatin1(status)});
                if (!q)
                    return q.status();
            }
            return Status::ok();
        });
        QVERIFY2(written, qPrintable(written.message()));
        const Result<CronTaskInfo> task = f.engine->cron().task(QStringLiteral("cleanup_event_table"));
        QVERIFY2(task, qPrintable(task.status().message()));
        QCOMPARE(*f.engine->cron().runNow(QStringLiteral("cleanup_event_table"), QStringLiteral("alice")), CronService::Trigger::Started);
        f.engine->cron().waitIdle();
        QCOMPARE(f.count(), qint64(4));
        QCOMPARE(f.count(QStringLiteral("status = 'done'")), qint64(1));      // the young one
        QCOMPARE(f.count(QStringLiteral("status = 'failed'")), qint64(1));    // two days old: kept
        QCOMPARE(f.count(QStringLiteral("status IN ('pending', 'processing')")), qint64(2));
        const Result<std::vector<CronRunRecord>> runs = f.engine->cron().history(QStringLiteral("cleanup_event_table"));
        QVERIFY(runs && !runs->empty());
        QVERIFY2(runs->front().message.contains(QLatin1String("removed 3 event(s)")), qPrintable(runs->front().message));
    }
};

QTEST_GUILESS_MAIN(TestEventGuard)
#include "tst_eventguard.moc"
