// What a hook's URL may reach and what of it is shown: the address classes of [webhook]
// ALLOWED_HOST_LIST (Gitea's hostmatcher: every reserved range, one row each), a URL whose host
// is a refused address refused when the hook is written, deliveries to refused addresses blocked
// at connect time (listeners that would answer), credentials masked in URLs and in the recorded
// request, and the Authorization header dropped when the URL changes.
#include "engine/engine.h"
#include "engine/store/store.h"
#include "engine/webhook/webhook.h"

#include "support/httpreceiver.h"
#include "support/testutil.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Webhook;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(Switchyard::Webhook::AddressClass::Kind)

namespace {

// An engine with the default egress policy (`external`) unless `ini` says otherwise.
struct Fixture
{
    explicit Fixture(const QByteArray &ini = {}, WebhookOptions options = {})
    {
        EngineOptions engineOptions;
        engineOptions.webhookOptions = std::move(options);
        Result<std::unique_ptr<Engine>> started =
            Engine::start(CancelToken(), Test::configFrom("[webhook]\nDELIVER_TIMEOUT = 2\n" + ini, dir.path()), engineOptions);
        if (!started)
            qFatal("engine: %s", qPrintable(started.status().message()));
        engine = std::move(started).value();
    }
    ~Fixture() { engine->shutdown(); }

    WebhookService &hooks() { return engine->webhooks(); }
    static Hook hook(const QString &url)
    {
        Hook h;
        h.isSystem = true; // a test push needs no repository in the store
        h.url = url;
        h.events.pushOnly = true;
        return h;
    }
    // A test delivery to `hookId`, sent and recorded.
    HookTask delivered(qint64 hookId)
    {
        Result<HookTask> queued = hooks().test(CancelToken(), hookId);
        if (!queued || !engine->queues().flushAll(CancelToken(), 60s))
            return {};
        Result<HookTask> task = hooks().task(queued->uuid);
        return task ? *task : HookTask{};
    }

    QTemporaryDir dir;
    std::unique_ptr<Engine> engine;
};

} // namespace

class TestHookUrls : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each range the review named, and Gitea's special-purpose ones: its class, and `external`
    // (the default) refuses all but the public internet.
    void addressClasses_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<AddressClass::Kind>("kind");
        const auto row = [](const char *a, AddressClass::Kind k) { QTest::newRow(a) << QString::fromLatin1(a) << k; };
        row("0.0.0.0", AddressClass::Reserved);
        row("0.1.2.3", AddressClass::Reserved);
        row("10.1.2.3", AddressClass::Private);
        row("100.64.0.1", AddressClass::Private);
        row("100.127.255.254", AddressClass::Private);
        row("127.0.0.2", AddressClass::Loopback);
        row("168.63.129.16", AddressClass::Private);
        row("169.254.169.254", AddressClass::Reserved);
        row("172.16.0.1", AddressClass::Private);
        row("192.0.0.8", AddressClass::Private);
        row("192.0.2.1", AddressClass::Private);
        row("192.88.99.1", AddressClass::Private);
        row("192.168.1.1", AddressClass::Private);
        row("198.18.0.1", AddressClass::Private);
        row("198.19.255.254", AddressClass::Private);
        row("198.51.100.7", AddressClass::Private);
        row("203.0.113.9", AddressClass::Private);
        row("224.0.0.251", AddressClass::Reserved);
        row("239.255.255.250", AddressClass::Reserved);
        row("240.0.0.1", AddressClass::Reserved);
        row("255.255.255.255", AddressClass::Reserved);
        row("::", AddressClass::Reserved);
        row("::1", AddressClass::Loopback);
        row("::7f00:1", AddressClass::Reserved); // IPv4-compatible 127.0.0.1
        row("::ffff:127.0.0.1", AddressClass::Loopback);
        row("::ffff:169.254.169.254", AddressClass::Reserved);
        row("::ffff:198.18.0.1", AddressClass::Private);
        row("::ffff:8.8.8.8", AddressClass::External);
        row("64:ff9b::a9fe:a9fe", AddressClass::Private); // NAT64 of 169.254.169.254
        row("64:ff9b:1::1", AddressClass::Private);
        row("100::1", AddressClass::Private);
        row("2001::1", AddressClass::Private);
        row("2001:db8::1", AddressClass::Private);
        row("2002:a9fe:a9fe::1", AddressClass::Private);
        row("fc00::1", AddressClass::Private);
        row("fd12:3456::1", AddressClass::Private);
        row("fe80::1", AddressClass::Reserved);
        row("febf::1", AddressClass::Reserved);
        row("fec0::1", AddressClass::Private);
        row("ff02::1", AddressClass::Reserved);
        row("8.8.8.8", AddressClass::External);
        row("93.184.216.34", AddressClass::External);
        row("2606:4700::1111", AddressClass::External);
        row("1000::1", AddressClass::External); // as Gitea: outside every special range
    }
    void addressClasses()
    {
        QFETCH(QString, address);
        QFETCH(AddressClass::Kind, kind);
        const QHostAddress a(address);
        QVERIFY(!a.isNull());
        const AddressClass got = classifyAddress(a);
        QCOMPARE(got.kind, kind);
        const Status external = checkEgress({QStringLiteral("external")}, QStringLiteral("h"), a);
        QCOMPARE(external.isOk(), kind == AddressClass::External);
        if (!external) {
            QCOMPARE(external.code(), Status::Code::PermissionDenied);
            QVERIFY2(external.message().startsWith(QLatin1String("egress blocked: h (") + a.toString() + u')'), qPrintable(external.message()));
            QVERIFY2(external.message().contains(got.range), qPrintable(external.message()));
            QVERIFY2(external.message().contains(QLatin1String("ALLOWED_HOST_LIST = external")), qPrintable(external.message()));
        }
        QCOMPARE(checkEgress({QStringLiteral("private")}, QStringLiteral("h"), a).isOk(), kind == AddressClass::Private);
        QCOMPARE(checkEgress({QStringLiteral("loopback")}, QStringLiteral("h"), a).isOk(), kind == AddressClass::Loopback);
        QVERIFY(checkEgress({QStringLiteral("*")}, QStringLiteral("h"), a));
        // A reserved range is reachable only when a CIDR names it.
        if (kind == AddressClass::Reserved && !got.range.isEmpty())
            QVERIFY(checkEgress({got.range}, QStringLiteral("h"), a));
    }

    // A URL whose host is a refused address is refused when written (create and update), naming
    // `url` and the range; a name is left to the delivery's lookup.
    void refusedAddressesAreRefusedWhenWritten()
    {
        Fixture f;
        for (const char *url : {"http://198.18.0.1/", "http://100.64.0.1/", "http://169.254.169.254/latest/meta-data",
                                "http://[::ffff:169.254.169.254]/", "http://[64:ff9b::a9fe:a9fe]/", "http://0.0.0.0:8080/",
                                "http://240.0.0.1/", "http://224.0.0.1/", "http://[::]/", "http://[fe80::1]/",
                                "http://[fd00::1]/", "http://127.0.0.1/", "http://[::1]/"}) {
            const Result<Hook> created = f.hooks().create(Fixture::hook(QString::fromLatin1(url)));
            QVERIFY2(!created, url);
            QCOMPARE(created.status().code(), Status::Code::InvalidArgument);
            QCOMPARE(created.status().field(), QStringLiteral("url"));
            QVERIFY2(created.status().message().contains(QLatin1String("egress blocked")), qPrintable(created.status().message()));
        }
        const Result<Hook> benchmark = f.hooks().create(Fixture::hook(QStringLiteral("http://198.18.0.1/")));
        QVERIFY2(benchmark.status().message().contains(QLatin1String("198.18.0.0/15 (benchmarking, RFC 2544)")),
                 qPrintable(benchmark.status().message()));

        Result<Hook> hook = f.hooks().create(Fixture::hook(QStringLiteral("http://93.184.216.34/hook")));
        QVERIFY2(hook, qPrintable(hook.status().message()));
        QVERIFY(f.hooks().create(Fixture::hook(QStringLiteral("http://hooks.example.test/hook"))));
        Hook moved = *hook;
        moved.url = QStringLiteral("http://198.18.0.1/hook");
        const Result<Hook> updated = f.hooks().update(moved);
        QVERIFY(!updated);
        QCOMPARE(updated.status().field(), QStringLiteral("url"));
        QCOMPARE(f.hooks().get(hook->id)->url, QStringLiteral("http://93.184.216.34/hook"));

        Fixture permissive("ALLOWED_HOST_LIST = 198.18.0.0/15\n");
        QVERIFY(permissive.hooks().create(Fixture::hook(QStringLiteral("http://198.18.0.1/"))));
    }

    // At connect time, on the address the name resolved to: a listener that would answer on each
    // bindable refused address (another loopback, ::1, the unspecified addresses, an IPv4-mapped
    // loopback) gets nothing, and the delivery is recorded as failed with the reason. So does a
    // literal refused address stored before the policy refused it.
    void refusedAddressesAreBlockedAtConnect()
    {
        struct Target
        {
            const char *name;
            QHostAddress bind;
            QHostAddress resolved;
        };
        const std::vector<Target> targets{
            {"second-loopback.test", QHostAddress(QStringLiteral("127.0.0.2")), QHostAddress(QStringLiteral("127.0.0.2"))},
            {"v6-loopback.test", QHostAddress(QStringLiteral("::1")), QHostAddress(QStringLiteral("::1"))},
            {"any.test", QHostAddress(QHostAddress::AnyIPv4), QHostAddress(QStringLiteral("0.0.0.0"))},
            {"v6-any.test", QHostAddress(QHostAddress::AnyIPv6), QHostAddress(QStringLiteral("::"))},
            {"mapped.test", QHostAddress(QStringLiteral("127.0.0.1")), QHostAddress(QStringLiteral("::ffff:127.0.0.1"))},
        };
        std::map<QString, QHostAddress> dns;
        for (const Target &t : targets)
            dns[QLatin1String(t.name)] = t.resolved;
        WebhookOptions options;
        options.resolve = [dns](const QString &host) {
            const auto it = dns.find(host);
            return it == dns.end() ? QList<QHostAddress>{} : QList<QHostAddress>{it->second};
        };
        Fixture f({}, options);

        for (const Target &t : targets) {
            QTcpServer listener;
            QVERIFY2(listener.listen(t.bind), qPrintable(listener.errorString()));
            // The listener answers there: without the check the delivery would arrive.
            QTcpSocket probe;
            probe.connectToHost(t.resolved, listener.serverPort());
            QVERIFY2(probe.waitForConnected(5000), qPrintable(QLatin1String(t.name) + probe.errorString()));
            QVERIFY(listener.waitForNewConnection(5000));
            delete listener.nextPendingConnection();

            const Result<Hook> hook =
                f.hooks().create(Fixture::hook(QStringLiteral("http://%1:%2/hook").arg(QLatin1String(t.name)).arg(listener.serverPort())));
            QVERIFY2(hook, qPrintable(hook.status().message()));
            const HookTask task = f.delivered(hook->id);
            QCOMPARE(task.outcome, TaskOutcome::Failed);
            QVERIFY2(task.response.contains(QLatin1String("egress blocked: ") + QLatin1String(t.name)), qPrintable(task.response));
            QVERIFY2(task.response.contains(QLatin1String("ALLOWED_HOST_LIST = external")), qPrintable(task.response));
            QVERIFY2(!listener.waitForNewConnection(0), t.name); // the refusal came before any connect
        }

        // A literal address written before the policy refused it (an older version, an edit of
        // the store): still blocked when it is sent.
        QTcpServer listener;
        QVERIFY(listener.listen(QHostAddress(QStringLiteral("127.0.0.2"))));
        const Result<Hook> hook = f.hooks().create(Fixture::hook(QStringLiteral("http://hooks.example.test/")));
        QVERIFY(hook);
        const QString literal = QStringLiteral("http://127.0.0.2:%1/hook").arg(listener.serverPort());
        QVERIFY(f.engine->store().write([&](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("UPDATE webhook SET url = ? WHERE id = ?"), {literal, hook->id}).status();
        }));
        const HookTask task = f.delivered(hook->id);
        QCOMPARE(task.outcome, TaskOutcome::Failed);
        QVERIFY2(task.response.contains(QLatin1String("egress blocked: 127.0.0.2")), qPrintable(task.response));
        QVERIFY(!listener.waitForNewConnection(0));
    }

    void maskedUrls_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("shown");
        const auto row = [](const char *name, const char *url, const char *shown) {
            QTest::newRow(name) << QString::fromUtf8(url) << QString::fromUtf8(shown);
        };
        row("plain", "https://ci.example.com/hook?event=push", "https://ci.example.com/hook?event=push");
        row("userinfo", "https://alice:s3cret@ci.example.com/hook", "https://***@ci.example.com/hook");
        row("user only", "https://tok3n@ci.example.com/", "https://***@ci.example.com/");
        row("token", "https://ci.example.com/hook?token=abc&event=push", "https://ci.example.com/hook?token=***&event=push");
        for (const char *key : {"secret", "key", "password", "passwd", "pass", "auth", "access_token", "api_key", "apikey",
                                "sig", "signature", "credential", "credentials", "TOKEN", "Access-Token", "api-key",
                                "accessToken", "apiKey", "private_token", "X-Amz-Signature", "client_secret"})
            QTest::newRow(key) << QStringLiteral("http://h/p?a=1&%1=v4lue&b=2").arg(QLatin1String(key))
                               << QStringLiteral("http://h/p?a=1&%1=***&b=2").arg(QLatin1String(key));
        row("not secret", "http://h/p?keyword=x&passage=y&monkey=z&chat_id=1", "http://h/p?keyword=x&passage=y&monkey=z&chat_id=1");
        row("encoded key", "http://h/p?api%5Fkey=v", "http://h/p?api_key=***");
        row("both", "http://u:p@h:8080/p?sig=1#frag", "http://***@h:8080/p?sig=***#frag");
        row("masked again", "http://***@h/p?token=***", "http://***@h/p?token=***");
    }
    void maskedUrls()
    {
        QFETCH(QString, url);
        QFETCH(QString, shown);
        bool masked = false;
        QCOMPARE(maskedUrl(url, &masked), shown);
        QCOMPARE(masked, url.contains(QLatin1String("***")) || shown != url);
        QVERIFY(!shown.contains(QLatin1String("v4lue")));
    }

    // The delivery's recorded request keeps the URL masked; the receiver still gets the clear
    // one (its query and Basic credentials).
    void theRecordedRequestIsMasked()
    {
        Test::HttpReceiver receiver;
        Fixture f("ALLOWED_HOST_LIST = loopback\n");
        const QString url = QStringLiteral("http://ci:pa55word@127.0.0.1:%1/hook?token=t0ken&event=push").arg(receiver.port());
        const Result<Hook> hook = f.hooks().create(Fixture::hook(url));
        QVERIFY(hook);
        const HookTask task = f.delivered(hook->id);
        QCOMPARE(task.outcome, TaskOutcome::Succeeded);
        QVERIFY2(!task.request.contains(QLatin1String("pa55word")) && !task.request.contains(QLatin1String("t0ken")),
                 qPrintable(task.request));
        QCOMPARE(QJsonDocument::fromJson(task.request.toUtf8()).object().value(QStringLiteral("url")).toString(),
                 QStringLiteral("http://***@127.0.0.1:%1/hook?token=***&event=push").arg(receiver.port()));
        QCOMPARE(receiver.requests().size(), 1);
        QCOMPARE(receiver.requests().front().path, QByteArray("/hook?token=t0ken&event=push"));
        QCOMPARE(receiver.requests().front().header("Authorization"), "Basic " + QByteArray("ci:pa55word").toBase64());
    }

    // A new URL drops the stored Authorization header unless it is given again; other changes,
    // and the same URL, keep it.
    void aNewUrlDropsTheAuthorizationHeader()
    {
        Fixture f("ALLOWED_HOST_LIST = loopback\n");
        Result<Hook> hook = f.hooks().create(Fixture::hook(QStringLiteral("http://127.0.0.1:1/a")), QStringLiteral("Bearer one"));
        QVERIFY(hook && hook->hasAuthorization);
        Hook h = *hook;
        h.name = QStringLiteral("renamed");
        QVERIFY(f.hooks().update(h)->hasAuthorization);
        h.url = QStringLiteral("http://127.0.0.1:1/b");
        QVERIFY(f.hooks().update(h, QStringLiteral("Bearer two"))->hasAuthorization);
        h.url = QStringLiteral("http://127.0.0.1:2/b");
        const Result<Hook> moved = f.hooks().update(h);
        QVERIFY(moved);
        QVERIFY(!moved->hasAuthorization);
    }
};

QTEST_GUILESS_MAIN(TestHookUrls)
#include "tst_hookurls.moc"
