// Webhooks: Gitea's 28 event types and how they group and fold (one row each), the events JSON
// and its three exclusive modes, branch filters, hook types and methods; secrets sealed at rest;
// hooks in the store and signed delivery to a real local receiver, with history and redeliver.
#include "engine/core/secretbox.h"
#include "engine/engine.h"
#include "engine/webhook/hookevents.h"
#include "engine/webhook/webhook.h"

#include "support/httpproxy.h"
#include "support/httpreceiver.h"
#include "support/postgresserver.h"
#include "support/testutil.h"
#include "support/wait.h"

#include <QMessageAuthenticationCode>

#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Switchyard;
using namespace Switchyard::Webhook;

Q_DECLARE_METATYPE(HookEventType)

namespace {
// JSON written with single quotes (moc does not read raw string literals).
QByteArray quoted(const char *json)
{
    return QByteArray(json).replace('\'', '"');
}

using namespace std::chrono_literals;

qint64 senderQid(Engine &engine)
{
    for (const QueueStats &q : engine.queues().list())
        if (q.name == QLatin1String("webhook_sender"))
            return q.qid;
    return -1;
}

// An engine whose hooks may call the loopback receiver.
// The tst_webhook_postgres variant (SWITCHYARD_STORE=postgres) runs the fixtures' engines on a
// fresh database of the executable's private PostgreSQL cluster each; the default is SQLite.
bool onPostgres()
{
    return qgetenv("SWITCHYARD_STORE") == "postgres";
}

DatabaseSettings freshPostgres()
{
    static int databases = 0;
    Result<Test::PostgresServer *> server = Test::PostgresServer::shared();
    if (!server)
        qFatal("%s", qPrintable(server.status().message()));
    Result<DatabaseSettings> settings = (*server)->createDatabase(QStringLiteral("webhook_%1").arg(++databases));
    if (!settings)
        qFatal("%s", qPrintable(settings.status().message()));
    return *settings;
}

// `ini` for `dataDir`, on PostgreSQL `database` (a fresh one when empty) in the variant.
EngineConfig fixtureConfig(const QByteArray &ini, const QString &dataDir, std::optional<DatabaseSettings> database = {})
{
    EngineConfig config = Test::configFrom(ini, dataDir);
    if (onPostgres()) {
        config.database = database ? *database : freshPostgres();
        config.security.secretKey = QStringLiteral("tst_webhook: every instance opens what another sealed");
    }
    return config;
}

struct HookFixture
{
    explicit HookFixture(const QByteArray &extra = {}, Webhook::WebhookOptions options = {})
    {
        EngineOptions engineOptions;
        engineOptions.webhookOptions = std::move(options);
        const QByteArray ini = "[webhook]\nALLOWED_HOST_LIST = loopback\nDELIVER_TIMEOUT = 2\n" + extra;
        const EngineConfig config = fixtureConfig(ini, dir.path());
        database = config.database;
        Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), config, engineOptions);
        if (!started)
            qFatal("engine: %s", qPrintable(started.status().message()));
        engine = std::move(started).value();
    }
    ~HookFixture()
    {
        if (engine)
            engine->shutdown();
    }

    WebhookService &hooks() { return engine->webhooks(); }
    Hook hook(const QByteArray &path = "/hook", const QString &secret = QStringLiteral("s3cret"))
    {
        Hook h;
        h.repoId = 7;
        h.url = QString::fromLatin1(receiver.url(path));
        h.secret = secret;
        h.events.pushOnly = true;
        return h;
    }
    // Delivered: the queue drained.
    void settle() { QVERIFY(engine->queues().flushAll(CancelToken(), 60s)); } // a bound, for sanitizer builds
    HookTask only(qint64 hookId)
    {
        TaskFilter f;
        f.hookId = hookId;
        Result<TaskPage> page = hooks().tasks(f);
        return page && !page->rows.empty() ? page->rows.front() : HookTask{};
    }

    QTemporaryDir dir;
    DatabaseSettings database; // for a restart on the same store
    Test::HttpReceiver receiver;
    std::unique_ptr<Engine> engine;
};

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitized = true;
#else
constexpr bool kThreadSanitized = false;
#endif

// This process's resident set (VmRSS), or 0 where /proc does not say.
qint64 residentBytes()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    return 0;
}

// total_commits as Gitea's push payload has it: the chat channels count commits from it.
const QByteArray kPush = quoted("{'ref':'refs/heads/main','commits':[{'id':'abc'}],'total_commits':1,'repository':{'id':7}}");
} // namespace

class tst_Webhook : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eventTypes_data()
    {
        QTest::addColumn<HookEventType>("type");
        QTest::addColumn<QString>("wire");    // name(), X-Gitea-Event-Type
        QTest::addColumn<QString>("grouped"); // event(), X-Gitea-Event
        QTest::addColumn<bool>("inAll");      // sent by "send everything"
        QTest::addColumn<bool>("review");     // folds into pull_request_review
        const auto row = [](HookEventType t, const char *wire, const char *grouped, bool all, bool review) {
            QTest::newRow(wire) << t << QString::fromLatin1(wire) << QString::fromLatin1(grouped) << all << review;
        };
        using T = HookEventType;
        row(T::Create, "create", "create", true, false);
        row(T::Delete, "delete", "delete", true, false);
        row(T::Fork, "fork", "fork", true, false);
        row(T::Push, "push", "push", true, false);
        row(T::Issues, "issues", "issues", true, false);
        row(T::IssueAssign, "issue_assign", "issues", true, false);
        row(T::IssueLabel, "issue_label", "issues", true, false);
        row(T::IssueMilestone, "issue_milestone", "issues", true, false);
        row(T::IssueComment, "issue_comment", "issue_comment", true, false);
        row(T::PullRequest, "pull_request", "pull_request", true, false);
        row(T::PullRequestAssign, "pull_request_assign", "pull_request", true, false);
        row(T::PullRequestLabel, "pull_request_label", "pull_request", true, false);
        row(T::PullRequestMilestone, "pull_request_milestone", "pull_request", true, false);
        row(T::PullRequestComment, "pull_request_comment", "issue_comment", true, false);
        row(T::PullRequestReviewApproved, "pull_request_review_approved", "pull_request_approved", true, true);
        row(T::PullRequestReviewRejected, "pull_request_review_rejected", "pull_request_rejected", true, true);
        row(T::PullRequestReviewComment, "pull_request_review_comment", "pull_request_comment", true, true);
        row(T::PullRequestSync, "pull_request_sync", "pull_request", true, false);
        row(T::PullRequestReviewRequest, "pull_request_review_request", "pull_request", true, false);
        row(T::Wiki, "wiki", "wiki", true, false);
        row(T::Repository, "repository", "repository", true, false);
        row(T::Release, "release", "release", true, false);
        row(T::Package, "package", "package", true, false);
        row(T::Status, "status", "status", true, false);
        row(T::PullRequestReview, "pull_request_review", "pull_request_review", false, false);
        row(T::Schedule, "schedule", "schedule", false, false);
        row(T::WorkflowRun, "workflow_run", "workflow_run", true, false);
        row(T::WorkflowJob, "workflow_job", "workflow_job", true, false);
    }
    void eventTypes()
    {
        QFETCH(HookEventType, type);
        QFETCH(QString, wire);
        QFETCH(QString, grouped);
        QFETCH(bool, inAll);
        QFETCH(bool, review);
        QCOMPARE(name(type), wire);
        QCOMPARE(hookEventFromName(wire), std::optional<HookEventType>(type));
        QCOMPARE(Webhook::event(type), grouped);
        const std::vector<HookEventType> &all = allEvents();
        QCOMPARE(std::find(all.begin(), all.end(), type) != all.end(), inAll);
        QCOMPARE(isPullRequestReview(type), review);

        // Subscribed to this one type alone: it arrives; a review arrives through the group.
        HookEvents chosen;
        chosen.chooseEvents = true;
        chosen.events = {type};
        QCOMPARE(chosen.has(type), !review);
        HookEvents reviews;
        reviews.chooseEvents = true;
        reviews.events = {HookEventType::PullRequestReview};
        QCOMPARE(reviews.has(type), review || type == HookEventType::PullRequestReview);
        // Send everything has every type; push only has push.
        HookEvents everything;
        everything.sendEverything = true;
        QVERIFY(everything.has(type));
        HookEvents pushOnly;
        pushOnly.pushOnly = true;
        QCOMPARE(pushOnly.has(type), type == HookEventType::Push);
    }

    void theCounts()
    {
        QCOMPARE(int(everyHookEventType().size()), 28);
        QCOMPARE(int(allEvents().size()), 26);
        QCOMPARE(int(everyHookType().size()), 11);
        QCOMPARE(hookEventFromName(u"pull_request_reviewed"), std::nullopt);
        QStringList types;
        for (HookType t : everyHookType())
            types << name(t);
        QCOMPARE(types.join(u','), QStringLiteral("gitea,gogs,slack,discord,dingtalk,telegram,msteams,feishu,matrix,wechatwork,packagist"));
        QCOMPARE(hookTypeFromName(u"matrix"), std::optional<HookType>(HookType::Matrix));
        QCOMPARE(hookTypeFromName(u"mastodon"), std::nullopt);
    }

    void eventsJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error"); // empty: accepted
        QTest::addColumn<QString>("subscribed"); // the names received, comma-separated
        QTest::newRow("Gitea's stored form") << quoted("{'push_only':false,'send_everything':false,'choose_events':true,'branch_filter':'main','events':{'push':true,'issues':true,'wiki':false}}")
                                             << QString() << "push,issues";
        QTest::newRow("a list of names") << quoted("{'choose_events':true,'events':['release','pull_request_review']}") << QString()
                                         << "release,pull_request_review";
        QTest::newRow("nothing: push only") << QByteArray("{}") << QString() << "push";
        QTest::newRow("events without a mode: choose events") << quoted("{'events':['fork']}") << QString() << "fork";
        QTest::newRow("send everything") << quoted("{'send_everything':true,'events':{'fork':true}}") << QString()
                                         << QStringLiteral("26 types");
        QTest::newRow("two modes") << quoted("{'push_only':true,'send_everything':true}") << "exclude each other" << QString();
        QTest::newRow("an unknown event") << quoted("{'choose_events':true,'events':['pushed']}") << "unknown event 'pushed'" << QString();
        QTest::newRow("a mode that is not a boolean") << quoted("{'push_only':'yes'}") << "events.push_only must be true or false" << QString();
        QTest::newRow("a filter that does not compile") << quoted("{'branch_filter':'{main,dev'}") << "events.branch_filter '{main,dev' does not compile"
                                                        << QString();
        QTest::newRow("an unclosed class") << quoted("{'branch_filter':'release/[0-9'}") << "is not closed" << QString();
    }
    void eventsJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QFETCH(QString, subscribed);
        const Result<HookEvents> parsed = HookEvents::fromJson(QJsonDocument::fromJson(json).object());
        if (!error.isEmpty()) {
            QVERIFY(!parsed);
            QVERIFY2(parsed.status().message().contains(error), qPrintable(parsed.status().message()));
            QVERIFY(parsed.status().field().startsWith(QLatin1String("events")));
            return;
        }
        QVERIFY2(parsed, qPrintable(parsed.status().message()));
        QStringList names;
        for (HookEventType t : parsed->subscribed())
            names << name(t);
        if (subscribed.endsWith(QLatin1String(" types")))
            QCOMPARE(QString::number(names.size()) + QStringLiteral(" types"), subscribed);
        else {
            const QStringList expected = subscribed.split(u',');
            QCOMPARE(QSet<QString>(names.begin(), names.end()), QSet<QString>(expected.begin(), expected.end()));
        }
        // What is stored reads back the same.
        const Result<HookEvents> again = HookEvents::fromJson(parsed->toJson());
        QVERIFY(again);
        QCOMPARE(*again, *parsed);
    }

    void branchFilters_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("ref");
        QTest::addColumn<bool>("passes");
        QTest::newRow("empty passes") << "" << "refs/heads/anything" << true;
        QTest::newRow("* passes") << "*" << "refs/heads/feature/x" << true;
        QTest::newRow("** passes") << "**" << "refs/tags/v1" << true;
        QTest::newRow("the branch name") << "main" << "refs/heads/main" << true;
        QTest::newRow("another branch") << "main" << "refs/heads/develop" << false;
        QTest::newRow("alternatives") << "{main,release/*}" << "refs/heads/release/1.2" << true;
        QTest::newRow("alternatives, neither") << "{main,release/*}" << "refs/heads/feature/1.2" << false;
        QTest::newRow("* crosses /") << "feature*" << "refs/heads/feature/a/b" << true;
        QTest::newRow("the full ref") << "refs/tags/v*" << "refs/tags/v2.0" << true;
        QTest::newRow("a class") << "release-[0-9]" << "refs/heads/release-7" << true;
        QTest::newRow("a negated class") << "release-[!0-9]" << "refs/heads/release-7" << false;
        QTest::newRow("? is one character") << "v?" << "refs/tags/v10" << false;
        QTest::newRow("an escaped *") << "a\\*" << "refs/heads/ab" << false;
        QTest::newRow("a short ref") << "main" << "main" << true;
    }
    void branchFilters()
    {
        QFETCH(QString, filter);
        QFETCH(QString, ref);
        QFETCH(bool, passes);
        HookEvents e;
        e.pushOnly = true;
        e.branchFilter = filter;
        QVERIFY(validateBranchFilter(filter));
        QCOMPARE(e.passesBranchFilter(ref), passes);
    }

    void methodsAndTargets()
    {
        QCOMPARE(*checkHttpMethod(QString(), HookType::Gitea), QStringLiteral("POST"));
        QCOMPARE(*checkHttpMethod(QStringLiteral("get"), HookType::Slack), QStringLiteral("GET"));
        QCOMPARE(*checkHttpMethod(QStringLiteral("PUT"), HookType::Matrix), QStringLiteral("PUT"));
        const Result<QString> put = checkHttpMethod(QStringLiteral("PUT"), HookType::Gitea);
        QVERIFY(!put);
        QCOMPARE(put.status().field(), QStringLiteral("http_method"));
        QVERIFY2(put.status().message().contains(QLatin1String("matrix")), qPrintable(put.status().message()));
        QVERIFY(!checkHttpMethod(QStringLiteral("DELETE"), HookType::Gitea));

        QCOMPARE(name(targetType(7, 3, false, false)), QStringLiteral("repository"));
        QCOMPARE(name(targetType(0, 3, false, true)), QStringLiteral("organization"));
        QCOMPARE(name(targetType(0, 3, false, false)), QStringLiteral("user"));
        QCOMPARE(name(targetType(0, 0, true, false)), QStringLiteral("system"));
        QCOMPARE(contentTypeFromName(u"form"), std::optional<ContentType>(ContentType::Form));
        QCOMPARE(int(ContentType::Json), 1);
        QCOMPARE(int(HookStatus::Fail), 2);
    }

    // A hook that does not validate is refused naming the field, and nothing is written.
    void badHooksNameTheField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::newRow("url") << "url";
        QTest::newRow("meta.channel") << "meta.channel";
        QTest::newRow("meta.package_url") << "meta.package_url";
        QTest::newRow("content_type") << "content_type";
        QTest::newRow("matrix url") << "url";
        QTest::newRow("http_method") << "http_method";
        QTest::newRow("events.branch_filter") << "events.branch_filter";
        QTest::newRow("secret") << "secret";
        QTest::newRow("authorization") << "authorization";
        QTest::newRow("meta") << "meta";
        QTest::newRow("repo_id") << "repo_id";
    }
    void badHooksNameTheField()
    {
        QFETCH(QString, field);
        HookFixture f;
        Hook h = f.hook();
        QString authorization;
        if (field == QLatin1String("url") && QByteArray(QTest::currentDataTag()) == "matrix url")
            h.type = HookType::Matrix; // not a room's send endpoint
        else if (field == QLatin1String("url"))
            h.url = QStringLiteral("ftp://example.com/hook");
        else if (field == QLatin1String("meta.channel"))
            h.type = HookType::Slack; // without a channel
        else if (field == QLatin1String("meta.package_url")) {
            h.type = HookType::Packagist;
            h.meta = QStringLiteral("{\"package_url\":\"not a url\"}");
        } else if (field == QLatin1String("content_type")) {
            h.type = HookType::Discord; // chat channels are sent JSON
            h.contentType = ContentType::Form;
        }
        else if (field == QLatin1String("http_method"))
            h.httpMethod = QStringLiteral("PUT");
        else if (field == QLatin1String("events.branch_filter"))
            h.events.branchFilter = QStringLiteral("{main");
        else if (field == QLatin1String("secret"))
            h.secret = QString(2000, u'x');
        else if (field == QLatin1String("authorization"))
            authorization = QStringLiteral("Bearer a\r\nX-Injected: 1");
        else if (field == QLatin1String("meta"))
            h.meta = QStringLiteral("[1]");
        else if (field == QLatin1String("repo_id"))
            h.repoId = 0;
        const Result<Hook> created = f.hooks().create(h, authorization);
        QVERIFY(!created);
        QCOMPARE(created.status().code(), Status::Code::InvalidArgument);
        QCOMPARE(created.status().field(), field);
        QCOMPARE(f.hooks().list()->size(), std::size_t(0));
    }

    // A push to repository 7: the hook gets a task, signed with exact-body HMACs the receiver can
    // check on its own, with Gitea's, Gogs' and GitHub's headers; the Authorization header is sent
    // but recorded as ******, and sealed in the store.
    void aPushIsDeliveredSignedAndRecorded()
    {
        HookFixture f;
        f.receiver.respond(200, "thanks");
        const Result<Hook> created = f.hooks().create(f.hook(), QStringLiteral("Bearer t0ken"));
        QVERIFY2(created, qPrintable(created.status().message()));
        QVERIFY(created->hasAuthorization);
        const QString sealed = *f.engine->store().readValue<QString>([](SqlTransaction &tx) -> Result<QString> {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT header_authorization FROM webhook"));
            if (!q || !q->next())
                return QString();
            return q->value(0).toString();
        });
        QVERIFY(sealed.startsWith(QLatin1String("gcm1:")) && !sealed.contains(QLatin1String("t0ken")));

        const Result<int> queued = f.hooks().prepare(CancelToken(), {7, 3}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), QStringLiteral("trace-1"));
        QVERIFY2(queued, qPrintable(queued.status().message()));
        QCOMPARE(*queued, 1);
        f.settle();
        const QList<Test::HttpReceiver::Request> got = f.receiver.requests();
        QCOMPARE(got.size(), 1);
        const Test::HttpReceiver::Request &r = got.front();
        QCOMPARE(r.method, QByteArray("POST"));
        QCOMPARE(r.path, QByteArray("/hook"));
        QCOMPARE(r.body, kPush);
        const QByteArray sha256 = QMessageAuthenticationCode::hash(kPush, "s3cret", QCryptographicHash::Sha256).toHex();
        const QByteArray sha1 = QMessageAuthenticationCode::hash(kPush, "s3cret", QCryptographicHash::Sha1).toHex();
        QCOMPARE(r.header("X-Hub-Signature-256"), "sha256=" + sha256);
        QCOMPARE(r.header("X-Hub-Signature"), "sha1=" + sha1);
        QCOMPARE(r.header("X-Gitea-Signature"), sha256);
        QCOMPARE(r.header("X-Gogs-Signature"), sha256);
        QCOMPARE(r.header("X-Gitea-Event"), QByteArray("push"));
        QCOMPARE(r.header("X-Gitea-Event-Type"), QByteArray("push"));
        QCOMPARE(r.header("X-GitHub-Event"), QByteArray("push"));
        QCOMPARE(r.header("X-Gitea-Hook-Installation-Target-Type"), QByteArray("repository"));
        QCOMPARE(r.header("X-GitHub-Hook-Installation-Target-Type"), QByteArray("repository"));
        QCOMPARE(r.header("Authorization"), QByteArray("Bearer t0ken"));
        QCOMPARE(r.header("X-Switchyard-Trace"), QByteArray("trace-1"));
        QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
        const QByteArray uuid = r.header("X-Gitea-Delivery");
        QCOMPARE(r.header("X-GitHub-Delivery"), uuid);
        QCOMPARE(r.header("X-Gogs-Delivery"), uuid);
        QCOMPARE(r.header("Host"), QByteArray("127.0.0.1:") + QByteArray::number(f.receiver.port()));

        const HookTask task = f.only(created->id);
        QCOMPARE(task.uuid.toLatin1(), uuid);
        QCOMPARE(task.outcome, TaskOutcome::Succeeded);
        QVERIFY(task.isDelivered && task.isSucceed && task.deliveredNs > 0);
        QCOMPARE(task.traceId, QStringLiteral("trace-1"));
        const QJsonObject request = QJsonDocument::fromJson(task.request.toUtf8()).object();
        QCOMPARE(request.value(QStringLiteral("headers")).toObject().value(QStringLiteral("Authorization")).toString(), QStringLiteral("******"));
        QVERIFY(!task.request.contains(QLatin1String("t0ken")));
        const QJsonObject response = QJsonDocument::fromJson(task.response.toUtf8()).object();
        QCOMPARE(response.value(QStringLiteral("status")).toInt(), 200);
        QCOMPARE(response.value(QStringLiteral("body")).toString(), QStringLiteral("thanks"));
        QCOMPARE(f.hooks().get(created->id)->lastStatus, HookStatus::Succeed);
    }

    // The gates: subscription, branch filter, an empty push, an inactive hook, another
    // repository; the owner's and the system's hooks are asked too.
    void onlyTheHooksThatWantAnEventGetATask()
    {
        HookFixture f;
        Hook main = f.hook("/main");
        main.events.branchFilter = QStringLiteral("main");
        Hook dev = f.hook("/dev");
        dev.events.branchFilter = QStringLiteral("dev*");
        Hook issues = f.hook("/issues");
        issues.events = {};
        issues.events.chooseEvents = true;
        issues.events.events = {HookEventType::Issues};
        Hook inactive = f.hook("/inactive");
        inactive.active = false;
        Hook elsewhere = f.hook("/elsewhere");
        elsewhere.repoId = 8;
        Hook owner = f.hook("/owner");
        owner.repoId = 0;
        owner.ownerId = 3;
        Hook system = f.hook("/system");
        system.repoId = 0;
        system.isSystem = true;
        system.events = {};
        system.events.sendEverything = true;
        for (const Hook &h : {main, dev, issues, inactive, elsewhere, owner, system})
            QVERIFY(f.hooks().create(h));
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 3}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 3); // main, owner, system
        f.settle();
        QStringList paths;
        for (const auto &r : f.receiver.requests())
            paths << QString::fromLatin1(r.path);
        paths.sort();
        QCOMPARE(paths, (QStringList{QStringLiteral("/main"), QStringLiteral("/owner"), QStringLiteral("/system")}));
        QCOMPARE(f.receiver.requests().front().header("X-Gitea-Hook-Installation-Target-Type").isEmpty(), false);
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 3}, HookEventType::Issues, "{}", {}, {}), 2); // issues, system
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 3}, HookEventType::IssueLabel, "{}", {}, {}), 1); // a type of its own: system only
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 3}, HookEventType::Push, quoted("{'commits':[]}"), QStringLiteral("refs/heads/main"), {}), 3);
        f.settle();
    }

    // [security] DISABLE_WEBHOOKS: the first gate, before any hook is asked.
    void disabledWebhooksMakeNoTask()
    {
        HookFixture f("[security]\nDISABLE_WEBHOOKS = true\n");
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 0);
        QCOMPARE(f.hooks().tasks({})->total, qint64(0));
    }

    // 500, a receiver that is gone, a redirect to a closed port: failed with what happened, never retried;
    // redeliver makes a new task with a new delivery id, and the history keeps both.
    void failuresAreRecordedAndRedeliverIsANewTask()
    {
        HookFixture f;
        f.receiver.respond(500, "boom");
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 1);
        f.settle();
        const HookTask failed = f.only(h->id);
        QCOMPARE(failed.outcome, TaskOutcome::Failed);
        QCOMPARE(QJsonDocument::fromJson(failed.response.toUtf8()).object().value(QStringLiteral("status")).toInt(), 500);
        QCOMPARE(f.hooks().get(h->id)->lastStatus, HookStatus::Fail);
        QCOMPARE(f.receiver.requests().size(), 1); // no retry

        f.receiver.respond(302, "", "Location: http://127.0.0.1:1/elsewhere\r\n");
        const Result<HookTask> again = f.hooks().redeliver(CancelToken(), failed.id);
        QVERIFY(again);
        f.settle();
        QCOMPARE(f.hooks().task(again->id)->outcome, TaskOutcome::Failed); // followed, to a closed port
        QCOMPARE(f.receiver.requests().size(), 2);

        f.receiver.respond(204, "");
        const Result<HookTask> third = f.hooks().redeliver(CancelToken(), failed.id);
        QVERIFY(third);
        f.settle();
        const HookTask ok = *f.hooks().task(third->id);
        QCOMPARE(ok.outcome, TaskOutcome::Succeeded);
        QCOMPARE(ok.redeliveryOf, failed.id);
        QVERIFY(ok.uuid != failed.uuid);
        QCOMPARE(ok.payload, failed.payload);
        QCOMPARE(f.hooks().get(h->id)->lastStatus, HookStatus::Succeed);
        TaskFilter all;
        all.hookId = h->id;
        QCOMPARE(f.hooks().tasks(all)->total, qint64(3));
        all.outcome = TaskOutcome::Failed;
        QCOMPARE(f.hooks().tasks(all)->total, qint64(2));

        // The receiver is gone: the connection error is the record.
        Hook gone = f.hook();
        gone.url = QStringLiteral("http://127.0.0.1:1/hook");
        const Result<Hook> g = f.hooks().create(gone);
        QVERIFY(g);
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        const HookTask refused = f.only(g->id);
        QCOMPARE(refused.outcome, TaskOutcome::Failed);
        QVERIFY2(QJsonDocument::fromJson(refused.response.toUtf8()).object().value(QStringLiteral("error")).toString().contains(QLatin1String("refused")),
                 qPrintable(refused.response));
    }

    // The search spans hooks; each filter narrows it, `text` finds payload and response words
    // (a LIKE wildcard is taken literally); a bulk redelivery takes failed or unknown ones only.
    void deliveriesAreSearchedAcrossHooksAndRedeliveredInBulk()
    {
        HookFixture f;
        const Result<Hook> a = f.hooks().create(f.hook());
        QVERIFY(a);
        const auto push = [&](const char *word) {
            const QByteArray body = quoted("{'ref':'refs/heads/main','commits':[{'id':'abc','message':'") + word + quoted("'}],'repository':{'id':7}}");
            QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, body, QStringLiteral("refs/heads/main"), {}));
            f.settle();
        };
        f.receiver.respond(200, "fine");
        push("alpha");
        f.receiver.respond(500, "upstream sad");
        push("beta");
        Hook gone = f.hook();
        gone.url = QStringLiteral("http://127.0.0.1:1/hook");
        const Result<Hook> b = f.hooks().create(gone);
        QVERIFY(b);
        push("gamma"); // a: 500, b: connection refused

        const auto matching = [&](const std::function<void(TaskFilter &)> &narrow) {
            TaskFilter filter;
            narrow(filter);
            const Result<TaskPage> page = f.hooks().tasks(filter);
            const Result<qint64> counted = f.hooks().count(filter);
            if (!page || !counted || *counted != page->total)
                return qint64(-1);
            return page->total;
        };
        QCOMPARE(matching([](TaskFilter &) {}), qint64(4));
        QCOMPARE(matching([](TaskFilter &t) { t.outcome = TaskOutcome::Failed; }), qint64(3));
        QCOMPARE(matching([&](TaskFilter &t) { t.outcome = TaskOutcome::Failed; t.hookId = b->id; }), qint64(1));
        QCOMPARE(matching([](TaskFilter &t) { t.text = QStringLiteral("BETA"); }), qint64(1));
        QCOMPARE(matching([](TaskFilter &t) { t.text = QStringLiteral("upstream sad"); }), qint64(2));
        QCOMPARE(matching([](TaskFilter &t) { t.text = QStringLiteral("%"); }), qint64(0));
        QCOMPARE(matching([](TaskFilter &t) { t.text = QStringLiteral("al_ha"); }), qint64(0));
        QCOMPARE(matching([](TaskFilter &t) { t.event = HookEventType::Push; }), qint64(4));
        QCOMPARE(matching([](TaskFilter &t) { t.event = HookEventType::Issues; }), qint64(0));
        QCOMPARE(matching([](TaskFilter &t) { t.since = QDateTime::currentDateTimeUtc().addSecs(60); }), qint64(0));
        QCOMPARE(matching([](TaskFilter &t) { t.until = QDateTime::currentDateTimeUtc().addSecs(60); }), qint64(4));

        // The walk: newest first, page by page, and the sink can stop it.
        std::vector<qint64> walked;
        QVERIFY(f.hooks().forEach(CancelToken(), TaskFilter{}, [&](const std::vector<HookTask> &rows) {
            for (const HookTask &t : rows)
                walked.push_back(t.id);
            return Status::ok();
        }, 1));
        QCOMPARE(walked.size(), std::size_t(4));
        QVERIFY(std::is_sorted(walked.rbegin(), walked.rend()));
        int pages = 0;
        const Status stopped = f.hooks().forEach(CancelToken(), TaskFilter{}, [&](const std::vector<HookTask> &) {
            ++pages;
            return Status::cancelled(QStringLiteral("enough"));
        }, 1);
        QCOMPARE(stopped.code(), Status::Code::Cancelled);
        QCOMPARE(pages, 1);

        // Only failed or unknown ones are redelivered in bulk.
        QCOMPARE(f.hooks().redeliverMatching(CancelToken(), TaskFilter{}).status().field(), QStringLiteral("status"));
        TaskFilter succeeded;
        succeeded.outcome = TaskOutcome::Succeeded;
        QCOMPARE(f.hooks().redeliverMatching(CancelToken(), succeeded).status().code(), Status::Code::InvalidArgument);
        TaskFilter failedOfA;
        failedOfA.outcome = TaskOutcome::Failed;
        failedOfA.hookId = a->id;
        CancelSource cancelled;
        cancelled.cancel(QStringLiteral("not now"));
        QCOMPARE(f.hooks().redeliverMatching(cancelled.token(), failedOfA).status().code(), Status::Code::Cancelled);
        QCOMPARE(matching([](TaskFilter &) {}), qint64(4)); // nothing was sent

        f.receiver.respond(200, "fine again");
        std::vector<std::pair<qint64, qint64>> heard;
        const Result<qint64> redelivered = f.hooks().redeliverMatching(CancelToken(), failedOfA, [&](qint64 done, qint64 total) {
            heard.emplace_back(done, total);
        });
        QCOMPARE(*redelivered, qint64(2));
        QCOMPARE(heard.front(), std::make_pair(qint64(0), qint64(2)));
        QCOMPARE(heard.back(), std::make_pair(qint64(2), qint64(2)));
        f.settle();
        QCOMPARE(matching([&](TaskFilter &t) { t.hookId = a->id; t.outcome = TaskOutcome::Succeeded; }), qint64(3));
        QCOMPARE(matching([](TaskFilter &t) { t.outcome = TaskOutcome::Failed; }), qint64(3)); // the history keeps the originals
        TaskFilter newest;
        newest.hookId = a->id;
        newest.limit = 2;
        const Result<TaskPage> latest = f.hooks().tasks(newest); // kept: a loop over a temporary's member outlives it
        QVERIFY(latest);
        for (const HookTask &t : latest->rows)
            QVERIFY(t.redeliveryOf > 0);

        // One bulk redelivery at a time (in the store: across instances): the slot is claimed
        // before anything runs; the job's row says how it ended.
        QVERIFY(f.engine->store().write([](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("INSERT INTO bulk_job (kind, args, doer, claimed_by, created_ms, state) "
                                          "VALUES ('redeliver', '{}', 'someone', 'other-instance', 0, 'running')"))
                .status();
        }));
        const Result<WebhookService::BulkJob> second = f.hooks().startBulkRedelivery(failedOfA, QStringLiteral("tester"));
        QCOMPARE(second.status().code(), Status::Code::Conflict);
        QVERIFY2(second.status().message().contains(QLatin1String("someone")), qPrintable(second.status().message()));
        QVERIFY(f.engine->store().write([](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("UPDATE bulk_job SET state = 'finished' WHERE claimed_by = 'other-instance'")).status();
        }));
        const auto states = [&] {
            return f.engine->store()
                .readValue<QStringList>([](SqlTransaction &tx) -> Result<QStringList> {
                    Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT state FROM bulk_job ORDER BY id"));
                    if (!q)
                        return q.status();
                    QStringList out;
                    while (q->next())
                        out << q->value(0).toString();
                    return out;
                })
                .valueOr({});
        };
        QCOMPARE(states(), (QStringList{QStringLiteral("cancelled"), QStringLiteral("finished"), QStringLiteral("finished")}));
    }

    // A bulk redelivery whose instance ended is resumed where it stopped by a live one: the
    // originals it had redelivered are not redelivered again, the others are; started as a job,
    // it runs as a process of this instance and finishes.
    void aBulkRedeliveryIsResumedWhereItStopped()
    {
        HookFixture f("[database]\nINSTANCE_HEARTBEAT = 30m\nINSTANCE_GRACE = 1h\n"); // this test calls the recovery itself
        f.receiver.respond(500, "no");
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        for (int i = 0; i < 6; ++i)
            QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        TaskFilter failed;
        failed.hookId = h->id;
        failed.outcome = TaskOutcome::Failed;
        std::vector<qint64> originals;
        const std::vector<HookTask> failedRows = f.hooks().tasks(failed)->rows;
        for (const HookTask &t : failedRows)
            originals.insert(originals.begin(), t.id); // oldest first
        QCOMPARE(originals.size(), std::size_t(6));
        f.receiver.respond(200, "fine");
        // A job a dead instance ran: it had redelivered the first two (its copies exist).
        QVERIFY(f.engine->store().write([&](SqlTransaction &tx) -> Status {
            for (int i = 0; i < 2; ++i)
                if (Status s = tx.exec(QStringLiteral("INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, "
                                                      "created_ms, redelivery_of, outcome, is_delivered) SELECT hook_id, ?, payload, "
                                                      "payload_version, event_type, 0, id, 'succeeded', 1 FROM hook_task WHERE id = ?"),
                                       {QStringLiteral("copy-%1").arg(i), originals[std::size_t(i)]})
                                   .status();
                    !s)
                    return s;
            return tx.exec(QStringLiteral("INSERT INTO bulk_job (kind, args, doer, claimed_by, created_ms, total, done, after_id, bound_id) "
                                          "VALUES ('redeliver', ?, 'someone', 'dead-instance', 0, 6, 2, ?, ?)"),
                           {QStringLiteral(R"({"hook_id":%1,"status":"failed"})").arg(h->id), originals[1], originals.back()})
                .status();
        }));
        const Result<qint64> resumed = f.hooks().resumeBulkJobs();
        QVERIFY(resumed);
        QCOMPARE(*resumed, qint64(1));
        QVERIFY(Test::eventually([&] {
            return f.engine->store()
                       .readValue<qint64>([](SqlTransaction &tx) { return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM bulk_job WHERE state = 'finished'")); })
                       .valueOr(0) == 1;
        }));
        f.settle();
        std::map<qint64, int> copies;
        TaskFilter all;
        all.hookId = h->id;
        all.limit = 100;
        const std::vector<HookTask> allRows = f.hooks().tasks(all)->rows;
        for (const HookTask &t : allRows)
            if (t.redeliveryOf > 0)
                ++copies[t.redeliveryOf];
        for (qint64 original : originals)
            QVERIFY2(copies[original] == 1, qPrintable(QString::number(original)));
        QCOMPARE(f.receiver.requests().size(), 6 + 4); // the first deliveries, then the four the job had left

        // Started by an operator: a process with its progress, and it finishes.
        f.receiver.respond(500, "no");
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        f.receiver.respond(200, "fine");
        const Result<WebhookService::BulkJob> job = f.hooks().startBulkRedelivery(failed, QStringLiteral("tester"));
        QVERIFY2(job, qPrintable(job.status().message()));
        QCOMPARE(job->matched, qint64(7));
        QVERIFY(job->pid > 0);
        QVERIFY(Test::eventually([&] {
            return f.engine->store()
                       .readValue<qint64>([](SqlTransaction &tx) { return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM bulk_job WHERE state = 'finished'")); })
                       .valueOr(0) == 2;
        }));
    }

    // The default egress policy refuses loopback and private addresses, checked on the address
    // the name resolved to (an injected resolver plays a DNS that answers a private address).
    void egressIsCheckedOnTheResolvedAddress()
    {
        const QStringList external{QStringLiteral("external")};
        QVERIFY(!checkEgress(external, QStringLiteral("127.0.0.1"), QHostAddress(QStringLiteral("127.0.0.1"))));
        QVERIFY(!checkEgress(external, QStringLiteral("x"), QHostAddress(QStringLiteral("10.1.2.3"))));
        QVERIFY(!checkEgress(external, QStringLiteral("x"), QHostAddress(QStringLiteral("192.168.0.9"))));
        QVERIFY(!checkEgress(external, QStringLiteral("x"), QHostAddress(QStringLiteral("::ffff:127.0.0.1"))));
        QVERIFY(!checkEgress(external, QStringLiteral("x"), QHostAddress(QStringLiteral("fd00::1"))));
        QVERIFY(!checkEgress(external, QStringLiteral("x"), QHostAddress(QStringLiteral("169.254.169.254"))));
        QVERIFY(checkEgress(external, QStringLiteral("x"), QHostAddress(QStringLiteral("93.184.216.34"))));
        QVERIFY(checkEgress({QStringLiteral("private")}, QStringLiteral("x"), QHostAddress(QStringLiteral("10.1.2.3"))));
        QVERIFY(checkEgress({QStringLiteral("10.0.0.0/8")}, QStringLiteral("x"), QHostAddress(QStringLiteral("10.1.2.3"))));
        QVERIFY(!checkEgress({QStringLiteral("10.0.0.0/8")}, QStringLiteral("x"), QHostAddress(QStringLiteral("11.1.2.3"))));
        QVERIFY(checkEgress({QStringLiteral("*.example.com")}, QStringLiteral("hooks.example.com"), QHostAddress(QStringLiteral("10.0.0.1"))));
        QVERIFY(checkEgress({QStringLiteral("*")}, QStringLiteral("x"), QHostAddress(QStringLiteral("127.0.0.1"))));

        Webhook::WebhookOptions options;
        options.resolve = [](const QString &) { return QList<QHostAddress>{QHostAddress(QStringLiteral("127.0.0.1"))}; };
        HookFixture f("[webhook]\nALLOWED_HOST_LIST = external\n", options);
        Hook h = f.hook();
        h.url = QStringLiteral("http://rebinding.example:%1/hook").arg(f.receiver.port());
        const Result<Hook> created = f.hooks().create(h);
        QVERIFY(created);
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        const HookTask task = f.only(created->id);
        QCOMPARE(task.outcome, TaskOutcome::Failed);
        QVERIFY2(task.response.contains(QLatin1String("ALLOWED_HOST_LIST")), qPrintable(task.response));
        QCOMPARE(f.receiver.requests().size(), 0);
    }

    // [webhook] PROXY_URL: a delivery to a host of PROXY_HOSTS goes through the proxy (a real
    // tinyproxy, with basic authentication), the others connect directly; the history names the
    // proxy without its credentials; a proxied name is still vetted against ALLOWED_HOST_LIST.
    void proxyHostsGoThroughTheProxy()
    {
        Test::HttpProxy proxy;
        const Status started = proxy.start(QStringLiteral("ops"), QStringLiteral("pr0xy"));
        QVERIFY2(started, qPrintable(started.message()));
        Webhook::WebhookOptions options;
        options.resolve = [](const QString &host) {
            return QList<QHostAddress>{QHostAddress(host == QLatin1String("private.example.test") ? QStringLiteral("10.0.0.7")
                                                                                                   : QStringLiteral("127.0.0.1"))};
        };
        HookFixture f("PROXY_URL = http://ops:pr0xy@127.0.0.1:" + QByteArray::number(proxy.port()) +
                          "\nPROXY_HOSTS = localhost, *.example.test\n",
                      options);
        Hook viaProxy = f.hook();
        viaProxy.url = QStringLiteral("http://localhost:%1/proxied").arg(f.receiver.port());
        Hook refused = f.hook();
        refused.url = QStringLiteral("http://private.example.test:%1/refused").arg(f.receiver.port());
        const Result<Hook> proxied = f.hooks().create(viaProxy);
        const Result<Hook> direct = f.hooks().create(f.hook("/direct"));
        const Result<Hook> denied = f.hooks().create(refused);
        QVERIFY(proxied && direct && denied);
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 3);
        f.settle();

        const HookTask throughProxy = f.only(proxied->id);
        QVERIFY2(throughProxy.outcome == TaskOutcome::Succeeded, qPrintable(throughProxy.response + QString::fromUtf8(proxy.log())));
        const QJsonObject request = QJsonDocument::fromJson(throughProxy.request.toUtf8()).object();
        QCOMPARE(request.value(QStringLiteral("proxy")).toString(), QStringLiteral("http://127.0.0.1:%1").arg(proxy.port()));
        QVERIFY(!throughProxy.request.contains(QLatin1String("pr0xy")));
        QCOMPARE(f.only(direct->id).outcome, TaskOutcome::Succeeded);
        QVERIFY(!f.only(direct->id).request.contains(QLatin1String("\"proxy\"")));
        const HookTask vetted = f.only(denied->id);
        QCOMPARE(vetted.outcome, TaskOutcome::Failed);
        QVERIFY2(vetted.response.contains(QLatin1String("ALLOWED_HOST_LIST")), qPrintable(vetted.response));

        QCOMPARE(f.receiver.requests().size(), 2);
        for (const Test::HttpReceiver::Request &r : f.receiver.requests()) {
            if (r.path == "/proxied") {
                QVERIFY2(r.header("Via").contains("switchyard-test-proxy"), r.header("Via").constData());
                QCOMPARE(r.header("X-Hub-Signature-256"), "sha256=" + QMessageAuthenticationCode::hash(r.body, "s3cret", QCryptographicHash::Sha256).toHex());
            } else {
                QCOMPARE(r.path, QByteArray("/direct"));
                QVERIFY(r.header("Via").isEmpty());
            }
        }
        QVERIFY(proxy.log().contains("localhost"));
    }

    // PROXY_URL and PROXY_HOSTS are checked with the configuration, naming the line and the valid form.
    void badProxySettingsStopTheStart()
    {
        QTemporaryDir dir;
        const auto startWith = [&](const QByteArray &ini) {
            Result<IniFile> parsed = IniFile::parse(QStringLiteral("app.ini"), "[webhook]\n" + ini);
            if (!parsed)
                return parsed.status().message();
            const Result<EngineConfig> config = EngineConfig::load(Settings(std::move(parsed).value()), dir.path(), QString());
            return config ? QString() : config.status().message();
        };
        QString error = startWith("PROXY_URL = ftp://proxy.example:21\n");
        QVERIFY2(error.contains(QLatin1String("PROXY_URL = ftp://proxy.example:21 is not valid; expected http://host[:port] or socks5://")),
                 qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("app.ini:2")), qPrintable(error));
        error = startWith("PROXY_HOSTS = *.example.com\n");
        QVERIFY2(error.contains(QLatin1String("PROXY_URL is empty")), qPrintable(error));
        error = startWith("PROXY_URL = http://proxy.example:3128\nPROXY_HOSTS = good.example, bad host\n");
        QVERIFY2(error.contains(QLatin1String("\"bad host\" is not a host name or glob")), qPrintable(error));
    }

    // Redirects are followed as Gitea's Go client follows them (#50 item 4): 307/308 keep the
    // method and the body, 301/302/303 become a GET without one; the Authorization header goes on
    // only to the same host (or a subdomain); every hop is checked against ALLOWED_HOST_LIST like
    // the first; at most 10 hops; the history records each hop and the final URL.
    void redirectsAreFollowedWithinTheEgressPolicy()
    {
        Webhook::WebhookOptions options;
        options.resolve = [](const QString &host) {
            return host == QLatin1String("receiver-b.test") ? QList<QHostAddress>{QHostAddress::LocalHost} : QList<QHostAddress>{};
        };
        HookFixture f({}, options);
        Test::HttpReceiver b;
        const auto history = [&](qint64 taskId) {
            return QJsonDocument::fromJson(f.hooks().task(taskId)->request.toUtf8()).object();
        };

        // 307 to the same host: POST, body and Authorization go on.
        f.receiver.respond(307, "", "Location: " + b.url("/moved") + "\r\n");
        const Result<Hook> h = f.hooks().create(f.hook("/first"), QStringLiteral("Bearer t0ken"));
        QVERIFY(h);
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        const HookTask moved = f.only(h->id);
        QCOMPARE(moved.outcome, TaskOutcome::Succeeded);
        QCOMPARE(b.requests().size(), 1);
        const auto atB = b.requests().front();
        QCOMPARE(atB.method, QByteArray("POST"));
        QCOMPARE(atB.path, QByteArray("/moved"));
        QCOMPARE(atB.body, kPush);
        QCOMPARE(atB.header("Authorization"), QByteArray("Bearer t0ken"));
        QCOMPARE(atB.header("X-Gitea-Delivery"), moved.uuid.toLatin1());
        QCOMPARE(history(moved.id).value(QStringLiteral("final_url")).toString(), QString::fromLatin1(b.url("/moved")));
        QCOMPARE(history(moved.id).value(QStringLiteral("redirects")).toArray().size(), 1);

        // 302 to another host: a GET without a body, and without the Authorization header.
        f.receiver.respond(302, "", "Location: http://receiver-b.test:" + QByteArray::number(b.port()) + "/other\r\n");
        const Result<HookTask> second = f.hooks().redeliver(CancelToken(), moved.id);
        QVERIFY(second);
        f.settle();
        QCOMPARE(f.hooks().task(second->id)->outcome, TaskOutcome::Succeeded);
        QCOMPARE(b.requests().size(), 2);
        const auto other = b.requests().at(1);
        QCOMPARE(other.method, QByteArray("GET"));
        QVERIFY(other.body.isEmpty());
        QCOMPARE(other.header("Authorization"), QByteArray());
        QCOMPARE(other.header("Host"), "receiver-b.test:" + QByteArray::number(b.port()));

        // A hop the policy forbids is refused, and nothing goes there.
        f.receiver.respond(301, "", "Location: http://10.1.2.3/inside\r\n");
        const Result<HookTask> third = f.hooks().redeliver(CancelToken(), moved.id);
        QVERIFY(third);
        f.settle();
        const HookTask refused = *f.hooks().task(third->id);
        QCOMPARE(refused.outcome, TaskOutcome::Failed);
        const QString why = QJsonDocument::fromJson(refused.response.toUtf8()).object().value(QStringLiteral("error")).toString();
        QVERIFY2(why.startsWith(QLatin1String("redirect refused:")) && why.contains(QLatin1String("10.1.2.3")), qPrintable(why));

        // A host that does not resolve (looked up without blocking the loop).
        f.receiver.respond(308, "", "Location: http://no-such-host.invalid/x\r\n");
        const Result<HookTask> fourth = f.hooks().redeliver(CancelToken(), moved.id);
        QVERIFY(fourth);
        f.settle();
        QCOMPARE(f.hooks().task(fourth->id)->outcome, TaskOutcome::Failed);

        // A loop stops as Go's client does: "stopped after 10 redirects", 10 requests sent.
        const int before = f.receiver.requests().size();
        f.receiver.respond(302, "", "Location: " + f.receiver.url("/first") + "\r\n");
        const Result<HookTask> fifth = f.hooks().redeliver(CancelToken(), moved.id);
        QVERIFY(fifth);
        f.settle();
        const HookTask looped = *f.hooks().task(fifth->id);
        QCOMPARE(looped.outcome, TaskOutcome::Failed);
        QCOMPARE(f.receiver.requests().size() - before, 10); // Go's limit: 10 requests, 9 redirects followed
        QVERIFY(looped.response.contains(QLatin1String("stopped after 10 redirects")));
        QCOMPARE(b.requests().size(), 2);
    }

    // Form content and GET: the payload as payload=, signed as the JSON document.
    void formAndGetSendThePayloadField()
    {
        HookFixture f;
        Hook form = f.hook("/form");
        form.contentType = ContentType::Form;
        Hook get = f.hook("/get");
        get.httpMethod = QStringLiteral("GET");
        QVERIFY(f.hooks().create(form));
        QVERIFY(f.hooks().create(get));
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        QCOMPARE(f.receiver.requests().size(), 2);
        for (const auto &r : f.receiver.requests()) {
            if (r.path == "/form") {
                QCOMPARE(r.header("Content-Type"), QByteArray("application/x-www-form-urlencoded"));
                QCOMPARE(QByteArray::fromPercentEncoding(r.body.mid(8).replace('+', ' ')), kPush);
                // Signed over the JSON payload, as Gitea's deliver.go (not over payload=…).
                QCOMPARE(r.header("X-Hub-Signature-256"), "sha256=" + QMessageAuthenticationCode::hash(kPush, "s3cret", QCryptographicHash::Sha256).toHex());
            } else {
                QCOMPARE(r.method, QByteArray("GET"));
                QVERIFY2(r.path.startsWith("/get?payload="), r.path.constData());
                QCOMPARE(r.header("X-Hub-Signature-256"), "sha256=" + QMessageAuthenticationCode::hash(kPush, "s3cret", QCryptographicHash::Sha256).toHex());
            }
        }
    }

    // A chat channel's hook gets its own message, converted at delivery, signed over the bytes
    // sent; matrix PUTs to the room with the delivery id as transaction id; a packagist hook
    // records an event it cannot carry as a failure naming it; a redelivery converts again with
    // the hook's current settings.
    void channelsGetTheirOwnMessages()
    {
        HookFixture f;
        Hook slackHook = f.hook("/slack");
        slackHook.type = HookType::Slack;
        slackHook.meta = QStringLiteral("{\"channel\":\"#ops\",\"username\":\"forge\"}");
        Hook matrixHook = f.hook("/_matrix/client/v3/rooms/!r:example.org/send/m.room.message");
        matrixHook.type = HookType::Matrix;
        matrixHook.httpMethod = QStringLiteral("PUT");
        Hook packagistHook = f.hook("/packagist");
        packagistHook.type = HookType::Packagist;
        packagistHook.meta = QStringLiteral("{\"package_url\":\"https://git.example.com/alice/engine\"}");
        packagistHook.events = HookEvents{};
        packagistHook.events.sendEverything = true;
        const Result<Hook> slack = f.hooks().create(slackHook);
        const Result<Hook> matrix = f.hooks().create(matrixHook, QStringLiteral("Bearer syt_token"));
        const Result<Hook> packagist = f.hooks().create(packagistHook);
        QVERIFY2(slack && matrix && packagist, qPrintable((slack ? matrix ? packagist.status() : matrix.status() : slack.status()).message()));

        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        const QByteArray issue = quoted("{'action':'opened','issue':{'number':1,'title':'Stalls','body':'b','html_url':'https://git.example.com/a/e/issues/1'},"
                                        "'repository':{'id':7,'full_name':'a/e','html_url':'https://git.example.com/a/e'},'sender':{'login':'bob'}}");
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Issues, issue, {}, {}));
        f.settle();

        // The push reaches all three (slack and matrix subscribe to pushes only); the issue only
        // packagist's history, as a failure.
        const QList<Test::HttpReceiver::Request> got = f.receiver.requests();
        QCOMPARE(got.size(), 3);
        int seenSlack = 0, seenMatrix = 0, seenPackagist = 0;
        for (const Test::HttpReceiver::Request &r : got) {
            const QJsonObject body = QJsonDocument::fromJson(r.body).object();
            QCOMPARE(r.header("X-Hub-Signature-256"), "sha256=" + QMessageAuthenticationCode::hash(r.body, "s3cret", QCryptographicHash::Sha256).toHex());
            QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
            QCOMPARE(r.header("X-Gitea-Event"), QByteArray("push"));
            if (r.path == "/slack") {
                ++seenSlack;
                QCOMPARE(r.method, QByteArray("POST"));
                QCOMPARE(body.value(QStringLiteral("channel")).toString(), QStringLiteral("#ops"));
                QCOMPARE(body.value(QStringLiteral("username")).toString(), QStringLiteral("forge"));
                QVERIFY2(body.value(QStringLiteral("text")).toString().contains(QLatin1String("1 new commit")), r.body.constData());
            } else if (r.path.startsWith("/_matrix/")) {
                ++seenMatrix;
                QCOMPARE(r.method, QByteArray("PUT"));
                QCOMPARE(r.path, "/_matrix/client/v3/rooms/!r:example.org/send/m.room.message/" + r.header("X-Gitea-Delivery"));
                QCOMPARE(r.header("Authorization"), QByteArray("Bearer syt_token"));
                QCOMPARE(body.value(QStringLiteral("msgtype")).toString(), QStringLiteral("m.notice"));
                QCOMPARE(body.value(QStringLiteral("format")).toString(), QStringLiteral("org.matrix.custom.html"));
            } else {
                ++seenPackagist;
                QCOMPARE(r.path, QByteArray("/packagist"));
                QCOMPARE(body, QJsonDocument::fromJson(quoted("{'repository':{'url':'https://git.example.com/alice/engine'}}")).object());
            }
        }
        QCOMPARE(seenSlack, 1);
        QCOMPARE(seenMatrix, 1);
        QCOMPARE(seenPackagist, 1);
        TaskFilter failed;
        failed.hookId = packagist->id;
        failed.outcome = TaskOutcome::Failed;
        const Result<TaskPage> refused = f.hooks().tasks(failed);
        QVERIFY(refused);
        QCOMPARE(refused->rows.size(), std::size_t(1));
        QCOMPARE(refused->rows.front().eventType, HookEventType::Issues);
        QVERIFY2(refused->rows.front().response.contains(QLatin1String("pushes only")), qPrintable(refused->rows.front().response));

        // Redeliver after the hook moved to another channel: converted again, for #dev.
        Hook moved = *slack;
        moved.meta = QStringLiteral("{\"channel\":\"#dev\"}");
        QVERIFY(f.hooks().update(moved));
        QVERIFY(f.hooks().redeliver(CancelToken(), f.only(slack->id).id));
        f.settle();
        QCOMPARE(f.receiver.requests().size(), 4);
        const Test::HttpReceiver::Request again = f.receiver.requests().back();
        QCOMPARE(again.path, QByteArray("/slack"));
        QCOMPARE(QJsonDocument::fromJson(again.body).object().value(QStringLiteral("channel")).toString(), QStringLiteral("#dev"));
        // The new meta has no username: sent empty, as Gitea's SlackPayload always carries the key.
        QCOMPARE(QJsonDocument::fromJson(again.body).object().value(QStringLiteral("username")), QJsonValue(QString()));
    }

    // A claim left by an instance that is gone (here: one that names nobody, as a version before
    // instances were recorded left them) is an interrupted delivery at the next start: sent again
    // under its delivery id (RESEND_INTERRUPTED, the default), or `unknown` without it; the
    // history keeps the interrupted attempt either way. Undelivered tasks go out then.
    void aStartTakesOverInterruptedDeliveries_data()
    {
        QTest::addColumn<bool>("resend");
        QTest::newRow("sent again (default)") << true;
        QTest::newRow("RESEND_INTERRUPTED = false: unknown") << false;
    }

    void aStartTakesOverInterruptedDeliveries()
    {
        QFETCH(bool, resend);
        QTemporaryDir dir;
        Test::HttpReceiver receiver;
        const QByteArray ini = "[webhook]\nALLOWED_HOST_LIST = loopback\nRESEND_INTERRUPTED = " + QByteArray(resend ? "true" : "false")
                               + "\n[queue.webhook_sender]\nTYPE = level\n";
        qint64 hookId = 0;
        QString interruptedUuid;
        {
            Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
            QVERIFY(e);
            Hook h;
            h.repoId = 7;
            h.url = QString::fromLatin1(receiver.url("/hook"));
            h.events.pushOnly = true;
            hookId = (*e)->webhooks().create(h)->id;
            const Status paused = (*e)->queues().pause(CancelToken(), senderQid(**e));
            QVERIFY2(paused, qPrintable(paused.message()));
            QCOMPARE(*(*e)->webhooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 1);
            QCOMPARE(*(*e)->webhooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 1);
            // The first was claimed an hour ago, by no instance we know, and never finished.
            QVERIFY((*e)->store().write([](SqlTransaction &tx) {
                return tx.exec(QStringLiteral("UPDATE hook_task SET is_delivered = 1, claimed_ms = ?, claimed_by = '' "
                                              "WHERE id = (SELECT MIN(id) FROM hook_task)"),
                               {QDateTime::currentMSecsSinceEpoch() - 3'600'000})
                    .status();
            }));
            TaskFilter filter;
            filter.hookId = hookId;
            interruptedUuid = (*e)->webhooks().tasks(filter)->rows.back().uuid;
            (*e)->shutdown();
        }
        Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
        QVERIFY(e);
        QVERIFY((*e)->queues().flushAll(CancelToken(), 10s));
        const HookTask interrupted = *(*e)->webhooks().task(interruptedUuid);
        QCOMPARE(interrupted.outcome, resend ? TaskOutcome::Succeeded : TaskOutcome::Unknown);
        QCOMPARE(interrupted.interruptions.size(), std::size_t(1));
        QCOMPARE(interrupted.interruptions.front().reason, QStringLiteral("lost"));
        QCOMPARE(interrupted.interruptions.front().resent, resend);
        QCOMPARE(interrupted.interruptions.front().endedBy, (*e)->instanceId());
        TaskFilter filter;
        filter.hookId = hookId;
        const std::vector<HookTask> rows = (*e)->webhooks().tasks(filter)->rows; // newest first
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows.at(0).outcome, TaskOutcome::Succeeded);
        QCOMPARE(receiver.requests().size(), resend ? 2 : 1);
        if (resend) // under its own delivery id
            QCOMPARE(receiver.requests().front().header("X-Gitea-Delivery") == interruptedUuid.toLatin1()
                         || receiver.requests().back().header("X-Gitea-Delivery") == interruptedUuid.toLatin1(),
                     true);
        (*e)->shutdown();
    }

    // kill -9 with one delivery in flight (its receiver hangs) and the rest still queued: the next
    // start takes the interrupted one over — its history says so, and it goes again under the same
    // delivery id — and sends every other once.
    void aKilledInstanceLosesNoDelivery()
    {
        if (onPostgres())
            QSKIP("the child runs on SQLite; the claim it tests is the same SQL on both stores");
        QTemporaryDir dir;
        Test::HttpReceiver receiver;
        receiver.misbehave("/hang", Test::HttpReceiver::Misbehaviour::Hang);
        const QByteArray ini = "[webhook]\nALLOWED_HOST_LIST = loopback\n[queue.webhook_sender]\nTYPE = level\n";
        qint64 hanging = 0;
        qint64 issues = 0;
        {
            Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
            QVERIFY(e);
            Hook push;
            push.repoId = 7;
            push.url = QString::fromLatin1(receiver.url("/hang"));
            push.events.pushOnly = true;
            Hook issue = push;
            issue.url = QString::fromLatin1(receiver.url("/issues"));
            issue.events = HookEvents{};
            issue.events.chooseEvents = true;
            issue.events.events = {HookEventType::Issues};
            hanging = (*e)->webhooks().create(push)->id;
            issues = (*e)->webhooks().create(issue)->id;
            (*e)->shutdown();
        }
        constexpr int kIssues = 12;
        ChildProcess child;
        ChildProcess::Options spawn;
        spawn.output = ChildProcess::Output::StdoutOnly;
        QVERIFY(child.start(QStringLiteral(HOOKCHILD_PATH), {QStringLiteral("--data"), dir.path(), QStringLiteral("--issues"), QString::number(kIssues)}, spawn));
        QByteArray said;
        QVERIFY2(Test::waitForOutput(child, said, "queued"), said.constData());
        // The push is being delivered (its receiver holds it); the issues wait behind it.
        QVERIFY(Test::eventually([&] { return !receiver.requests().isEmpty() || child.finished(); }));
        QCOMPARE(receiver.requests().size(), 1);
        QCOMPARE(receiver.requests().front().path, QByteArray("/hang"));
        child.kill();
        QVERIFY(child.crashed());

        // The child's claim is taken over at once: its data directory started again.
        const QByteArray again = "[webhook]\nALLOWED_HOST_LIST = loopback\nDELIVER_TIMEOUT = 1\n[queue.webhook_sender]\nTYPE = level\n";
        Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), Test::configFrom(again, dir.path()));
        QVERIFY(e);
        QVERIFY((*e)->queues().flushAll(CancelToken(), 30s));
        TaskFilter of;
        of.hookId = hanging;
        const std::vector<HookTask> interrupted = (*e)->webhooks().tasks(of)->rows;
        QCOMPARE(interrupted.size(), std::size_t(1));
        QCOMPARE(interrupted.front().interruptions.size(), std::size_t(1));
        QVERIFY(interrupted.front().interruptions.front().resent);
        QCOMPARE(interrupted.front().outcome, TaskOutcome::Failed); // the receiver hangs again: DELIVER_TIMEOUT
        int hangs = 0;
        for (const Test::HttpReceiver::Request &r : receiver.requests())
            if (r.path == "/hang") {
                QCOMPARE(r.header("X-Gitea-Delivery"), interrupted.front().uuid.toLatin1());
                ++hangs;
            }
        QCOMPARE(hangs, 2);
        of.hookId = issues;
        of.limit = 100;
        const std::vector<HookTask> sent = (*e)->webhooks().tasks(of)->rows;
        QCOMPARE(sent.size(), std::size_t(kIssues));
        for (const HookTask &t : sent)
            QCOMPARE(t.outcome, TaskOutcome::Succeeded);
        QSet<QByteArray> deliveries;
        int issueRequests = 0;
        for (const Test::HttpReceiver::Request &r : receiver.requests())
            if (r.path == "/issues") {
                deliveries.insert(r.header("X-Gitea-Delivery"));
                ++issueRequests;
            }
        QCOMPARE(deliveries.size(), kIssues);
        QCOMPARE(issueRequests, kIssues); // each once: the LevelDB queue and the start's resync both had them
        (*e)->shutdown();
    }

    // cleanup_hook_task_table removes what ended, by age or keeping the newest per hook; pending
    // and in-flight tasks stay. resync_undelivered_hook_tasks queues what the queue never took.
    void theCronTasksCleanUpAndResync()
    {
        HookFixture f("[cron.cleanup_hook_task_table]\nCLEANUP_TYPE = PerWebhook\nNUMBER_TO_KEEP = 2\n");
        f.receiver.respond(200, "ok");
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        for (int i = 0; i < 5; ++i)
            QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        // Three more that the queue never took, written straight to the store: one never queued,
        // one claimed by a live instance (another one on this store), one by an instance that is
        // gone.
        QTemporaryDir otherData;
        Result<std::unique_ptr<InstanceRegistry>> other = InstanceRegistry::start(f.engine->store(), QStringLiteral("other-live"), otherData.path());
        QVERIFY(other);
        QVERIFY(f.engine->store().write([&](SqlTransaction &tx) -> Status {
            for (const char *uuid : {"never-queued", "in-flight", "abandoned"})
                if (Status s = tx.exec(QStringLiteral("INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, created_ms) "
                                                      "VALUES (?, ?, ?, 2, 'push', 0)"),
                                       {h->id, QLatin1String(uuid), kPush})
                                   .status();
                    !s)
                    return s;
            if (Status s = tx.exec(QStringLiteral("UPDATE hook_task SET is_delivered = 1, claimed_ms = ?, claimed_by = ? WHERE uuid = 'in-flight'"),
                                   {QDateTime::currentMSecsSinceEpoch(), QStringLiteral("other-live")})
                               .status();
                !s)
                return s;
            return tx.exec(QStringLiteral("UPDATE hook_task SET is_delivered = 1, claimed_ms = ?, claimed_by = 'gone-instance' "
                                          "WHERE uuid = 'abandoned'"),
                           {QDateTime::currentMSecsSinceEpoch()})
                .status();
        }));
        const auto run = [&](const char *task) {
            const auto started = f.engine->cron().runNow(QLatin1String(task), QStringLiteral("tester"));
            QVERIFY2(started, qPrintable(started.status().message()));
            f.engine->cron().waitIdle();
            const Result<std::vector<CronRunRecord>> runs = f.engine->cron().history(QLatin1String(task));
            QVERIFY(runs && !runs->empty());
            QVERIFY2(runs->front().status == QLatin1String("finished"), qPrintable(runs->front().message));
        };
        run("cleanup_hook_task_table");
        TaskFilter all;
        all.hookId = h->id;
        std::vector<HookTask> rows = f.hooks().tasks(all)->rows;
        QStringList left;
        for (const HookTask &t : rows)
            left << (t.uuid.size() > 20 ? name(t.outcome) : t.uuid);
        QCOMPARE(left.mid(0, 3), (QStringList{QStringLiteral("abandoned"), QStringLiteral("in-flight"), QStringLiteral("never-queued")}));
        QCOMPARE(left.mid(3), (QStringList{QStringLiteral("succeeded"), QStringLiteral("succeeded")}));
        run("resync_undelivered_hook_tasks");
        f.settle();
        QCOMPARE(f.hooks().task(QStringLiteral("never-queued"))->outcome, TaskOutcome::Succeeded);
        QCOMPARE(f.hooks().task(QStringLiteral("in-flight"))->outcome, TaskOutcome::Pending); // a live instance holds it
        const HookTask abandoned = *f.hooks().task(QStringLiteral("abandoned"));
        QCOMPARE(abandoned.outcome, TaskOutcome::Succeeded); // taken over and sent again
        QCOMPARE(abandoned.interruptions.size(), std::size_t(1));
        QCOMPARE(abandoned.interruptions.front().instance, QStringLiteral("gone-instance"));
        QCOMPARE(f.receiver.requests().size(), 7);

        // By age: everything that ended before now − 0 s goes; the in-flight claim stays.
        QVERIFY(f.hooks().cleanupOlderThan(std::chrono::milliseconds(-1000)));
        rows = f.hooks().tasks(all)->rows;
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows.front().uuid, QStringLiteral("in-flight"));
    }

    // A call of an event's dispatch (its key) makes its tasks once: preparing it again — the
    // event dispatched again after a crash — finds them by their derived delivery ids, queues
    // those still undelivered, and makes nothing new. Another call, or another cause, is new.
    void aDispatchedCallMakesItsTasksOnce()
    {
        HookFixture f;
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        const auto prepare = [&](const QString &trace, const QString &key) {
            return *f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), trace, key);
        };
        QCOMPARE(prepare(QStringLiteral("trace-a"), QStringLiteral("webhook#0")), 1);
        f.settle();
        QCOMPARE(prepare(QStringLiteral("trace-a"), QStringLiteral("webhook#0")), 0); // delivered: nothing to queue
        QCOMPARE(prepare(QStringLiteral("trace-a"), QStringLiteral("webhook#1")), 1);
        QCOMPARE(prepare(QStringLiteral("trace-b"), QStringLiteral("webhook#0")), 1);
        f.settle();
        TaskFilter all;
        all.hookId = h->id;
        const std::vector<HookTask> rows = f.hooks().tasks(all)->rows;
        QCOMPARE(rows.size(), std::size_t(3));
        QSet<QString> ids;
        for (const HookTask &t : rows)
            ids.insert(t.uuid);
        QCOMPARE(ids.size(), 3);
        QCOMPARE(f.receiver.requests().size(), 3);

        // Undelivered (the queue paused: it waits), prepared again: the same task, queued again.
        QVERIFY(f.engine->queues().pause(CancelToken(), senderQid(*f.engine)));
        QCOMPARE(prepare(QStringLiteral("trace-c"), QStringLiteral("webhook#0")), 1);
        QCOMPARE(prepare(QStringLiteral("trace-c"), QStringLiteral("webhook#0")), 1);
        QCOMPARE(f.hooks().tasks(all)->total, qint64(4));
        QVERIFY(f.engine->queues().resume(senderQid(*f.engine)));
        f.settle();
        QCOMPARE(f.receiver.requests().size(), 4);
    }

    // A result is fenced by its claim: when another instance took the task over meanwhile (this
    // one was declared lost while its request was on the wire), the answer that comes back here
    // is not written over the taker's account.
    void aResultForATaskTakenOverIsNotRecorded()
    {
        HookFixture f("[database]\nINSTANCE_HEARTBEAT = 30m\nINSTANCE_GRACE = 1h\n"); // no recovery round meanwhile
        f.receiver.misbehave("/hook", Test::HttpReceiver::Misbehaviour::Hang); // on the wire until DELIVER_TIMEOUT (2 s)
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 1);
        QVERIFY(Test::eventually([&] { return !f.receiver.requests().isEmpty(); }));
        // On the wire: another instance takes it over (and, say, sends it again itself).
        QVERIFY(f.engine->store().write([](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("UPDATE hook_task SET claimed_by = 'the-taker'")).status();
        }));
        f.settle(); // the delivery was cut at DELIVER_TIMEOUT, and recorded — or not
        const HookTask t = f.only(h->id);
        QCOMPARE(t.outcome, TaskOutcome::Pending);
        QCOMPARE(t.claimedBy, QStringLiteral("the-taker"));
        QCOMPARE(f.hooks().get(h->id)->lastStatus, HookStatus::None);
    }

    // AUTO_DISABLE_AFTER: that many failures in a row make the hook inactive, with a notice; a
    // success in between starts the count again.
    void aHookThatKeepsFailingIsDisabled()
    {
        HookFixture f("AUTO_DISABLE_AFTER = 2\n");
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        const auto deliverOne = [&](int status) {
            f.receiver.respond(status, "answer");
            QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
            f.settle();
        };
        deliverOne(500);
        deliverOne(200);
        deliverOne(500);
        QVERIFY(f.hooks().get(h->id)->active); // fail, success, fail: not two in a row
        deliverOne(502);
        QVERIFY(!f.hooks().get(h->id)->active);
        bool noticed = false;
        for (const SystemNotice &n : f.engine->notices().list())
            noticed = noticed || (n.type == QLatin1String("webhook") && n.description.contains(QLatin1String("made inactive after 2 failed")));
        QVERIFY(noticed);
        // Inactive: the next event makes no task.
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 0);
        QCOMPARE(f.receiver.requests().size(), 4);
    }

    // RETRY_SCHEDULE: each failure is tried again after the next delay, as a new task (a new
    // delivery id) linked to the first; a success ends the chain, and so does the schedule's end.
    void failedDeliveriesAreRetriedOnSchedule()
    {
        WebhookOptions options;
        options.retrySchedule = {20ms, 20ms};
        HookFixture f({}, options);
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        f.receiver.respond(503, "busy");
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        TaskFilter all;
        all.hookId = h->id;
        const auto ended = [&](qint64 total) {
            const Result<TaskPage> page = f.hooks().tasks(all);
            return page && page->total == total
                   && std::none_of(page->rows.begin(), page->rows.end(), [](const HookTask &t) { return t.outcome == TaskOutcome::Pending; });
        };
        QVERIFY(Test::eventually([&] { return ended(3); })); // the failure retried twice, no more
        std::vector<HookTask> rows = f.hooks().tasks(all)->rows;
        const HookTask first = rows.back();
        QCOMPARE(first.attempt, 0);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(rows[std::size_t(1 - i)].attempt, i + 1);
            QCOMPARE(rows[std::size_t(1 - i)].redeliveryOf, first.id);
            QCOMPARE(rows[std::size_t(1 - i)].outcome, TaskOutcome::Failed);
            QVERIFY(rows[std::size_t(1 - i)].deliverAfterMs >= first.created.toMSecsSinceEpoch());
        }
        QCOMPARE(f.receiver.requests().size(), 3);
        QSet<QByteArray> deliveries;
        for (const Test::HttpReceiver::Request &r : f.receiver.requests())
            deliveries.insert(r.header("X-Gitea-Delivery"));
        QCOMPARE(deliveries.size(), 3);

        // Fails once, then the retry succeeds: the chain ends there.
        f.receiver.respondInTurn({{500, "no"}, {200, "yes"}});
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        QVERIFY(Test::eventually([&] { return ended(5); }));
        rows = f.hooks().tasks(all)->rows;
        QCOMPARE(rows.front().outcome, TaskOutcome::Succeeded);
        QCOMPARE(rows.front().attempt, 1);
        QCOMPARE(rows.front().redeliveryOf, rows[1].id);
        QCOMPARE(f.receiver.requests().size(), 5);
    }

    // A retry is written with the failure and held until it is due, across a restart too: the
    // requeue at start does not send it early.
    void aRetryNotYetDueIsHeldAcrossARestart()
    {
        WebhookOptions options;
        options.retrySchedule = {std::chrono::hours(1)};
        HookFixture f({}, options);
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        f.receiver.respond(500, "down");
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        TaskFilter pending;
        pending.hookId = h->id;
        pending.outcome = TaskOutcome::Pending;
        QCOMPARE(f.hooks().count(pending).valueOr(0), qint64(1));
        f.engine->shutdown();
        f.engine.reset(); // its queue files closed
        EngineOptions again;
        again.webhookOptions = options;
        Result<std::unique_ptr<Engine>> restarted = Engine::start(
            CancelToken(), fixtureConfig("[webhook]\nALLOWED_HOST_LIST = loopback\nDELIVER_TIMEOUT = 2\n", f.dir.path(), f.database), again);
        QVERIFY2(restarted, qPrintable(restarted.status().message()));
        f.engine = std::move(restarted).value();
        f.settle(); // the requeued retry reached a worker, which held it back
        const Result<TaskPage> held = f.hooks().tasks(pending);
        QVERIFY(held);
        QCOMPARE(held->total, qint64(1));
        QCOMPARE(held->rows.front().attempt, 1);
        QVERIFY(held->rows.front().deliverAfterMs > QDateTime::currentMSecsSinceEpoch() + 3'000'000);
        QCOMPARE(f.receiver.requests().size(), 1);
    }

    // Receivers that hang, trickle or reset hurt only their own delivery: each ends by
    // DELIVER_TIMEOUT, and the fast receiver beside them is recorded at once with its own short
    // duration. A gigabyte answer is read to 1 MiB and no further.
    void misbehavingReceiversHurtOnlyThemselves()
    {
        HookFixture f;
        using How = Test::HttpReceiver::Misbehaviour;
        f.receiver.misbehave("/hang", How::Hang);
        f.receiver.misbehave("/trickle", How::Trickle);
        f.receiver.misbehave("/huge", How::Huge);
        f.receiver.misbehave("/reset", How::Reset);
        std::map<QByteArray, qint64> hooks;
        for (const QByteArray path : {"/fast", "/hang", "/trickle", "/huge", "/reset"}) {
            const Result<Hook> h = f.hooks().create(f.hook(path));
            QVERIFY(h);
            hooks[path] = h->id;
        }
        const qint64 rssBefore = residentBytes();
        QCOMPARE(*f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 5);
        // The fast one is recorded while the others still hang (DELIVER_TIMEOUT is 2 s here).
        QVERIFY(Test::eventually([&] { return f.only(hooks["/fast"]).outcome == TaskOutcome::Succeeded; }));
        QVERIFY(f.only(hooks["/hang"]).outcome == TaskOutcome::Pending);
        f.settle();
        const HookTask fast = f.only(hooks["/fast"]);
        QVERIFY2(fast.durationMs < 1000, qPrintable(QString::number(fast.durationMs)));
        const auto errorOf = [&](const QByteArray &path) {
            return QJsonDocument::fromJson(f.only(hooks[path]).response.toUtf8()).object().value(QStringLiteral("error")).toString();
        };
        for (const QByteArray path : {"/hang", "/trickle"}) {
            QCOMPARE(f.only(hooks[path]).outcome, TaskOutcome::Failed);
            QVERIFY2(errorOf(path).contains(QLatin1String("within DELIVER_TIMEOUT")), qPrintable(errorOf(path)));
        }
        QCOMPARE(f.only(hooks["/reset"]).outcome, TaskOutcome::Failed);
        QVERIFY(!errorOf("/reset").isEmpty());
        // The gigabyte, in the same batch: a 200 (success by status), its body cut at 1 MiB, never
        // held whole, and its reads do not hold back the others' deadlines (checked above). Under
        // ThreadSanitizer the worker reads far slower than the receiver sends, so the answer may
        // still be incomplete at DELIVER_TIMEOUT: then it fails by the deadline like any slow one.
        const HookTask huge = f.only(hooks["/huge"]);
        const QString body = QJsonDocument::fromJson(huge.response.toUtf8()).object().value(QStringLiteral("body")).toString();
        if (kThreadSanitized && huge.outcome == TaskOutcome::Failed) {
            QVERIFY2(errorOf("/huge").contains(QLatin1String("within DELIVER_TIMEOUT")), qPrintable(errorOf("/huge")));
        } else {
            QCOMPARE(huge.outcome, TaskOutcome::Succeeded);
            QVERIFY(body.endsWith(QLatin1String("(cut at 1048576 bytes)")));
        }
        QVERIFY(body.size() < (1 << 20) + 100);
        // Qt reads ahead of the worker (docs/webhooks.md "Known limits"): on a normal build the cut
        // comes after a few MiB; a sanitizer's slower worker lets the local sender finish.
        if (!kSanitized)
            QVERIFY2(f.receiver.hugeBytesSent() < (qint64(1) << 30), "the reader stopped early");
        // A sanitizer's allocator keeps freed memory in quarantine, so RSS says nothing there.
        if (rssBefore > 0 && !kSanitized)
            QVERIFY2(residentBytes() - rssBefore < (64 << 20), qPrintable(QString::number(residentBytes() - rssBefore)));
    }

    // The cleanup task's settings are checked at start, naming the key and the valid values.
    void badCleanupSettingsStopTheStart()
    {
        QTemporaryDir dir;
        const Result<std::unique_ptr<Engine>> e = Engine::start(
            CancelToken(), Test::configFrom("[cron.cleanup_hook_task_table]\nCLEANUP_TYPE = Sometimes\nNUMBER_TO_KEEP = many\n", dir.path()));
        QVERIFY(!e);
        QVERIFY2(e.status().message().contains(QLatin1String("CLEANUP_TYPE = \"Sometimes\" is not valid; expected one of OlderThan, PerWebhook")),
                 qPrintable(e.status().message()));
        QVERIFY(e.status().message().contains(QLatin1String("NUMBER_TO_KEEP = \"many\"")));
    }

    // Two workers given the same task: one claims it, the receiver sees it once.
    void aTaskIsDeliveredOnce()
    {
        HookFixture f;
        const Result<Hook> h = f.hooks().create(f.hook());
        QVERIFY(h);
        const Status paused = f.engine->queues().pause(CancelToken(), senderQid(*f.engine));
        QVERIFY2(paused, qPrintable(paused.message()));
        QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        const qint64 id = f.only(h->id).id;
        std::thread other([&] { f.hooks().deliver(CancelToken(), {id}); });
        f.hooks().deliver(CancelToken(), {id});
        other.join();
        QVERIFY(f.hooks().settle(CancelToken(), 20s));
        QCOMPARE(f.receiver.requests().size(), 1);
        QCOMPARE(f.hooks().task(id)->outcome, TaskOutcome::Succeeded);
    }

    // A receiver that hangs holds only its own deliveries: a fast hook's, queued between them,
    // all land while the hanging hook's are still on the wire (six, its connections) or waiting
    // for one (four). At a stop the waiting ones go back unsent and those on the wire, after the
    // grace, are recorded as interrupted — `unknown` here, with RESEND_INTERRUPTED off; the next
    // start sends the four, and each reached the receiver once.
    void aHangingReceiverHoldsOnlyItsOwnDeliveries()
    {
        WebhookOptions options;
        options.stopGrace = 50ms;
        auto f = std::make_unique<HookFixture>("[webhook]\nDELIVER_TIMEOUT = 600\nRESEND_INTERRUPTED = false\n", options);
        f->receiver.misbehave("/hang", Test::HttpReceiver::Misbehaviour::Hang);
        const Result<Hook> hanging = f->hooks().create(f->hook("/hang"));
        const Result<Hook> fast = f->hooks().create(f->hook("/fast"));
        QVERIFY(hanging && fast);
        constexpr int kEvents = 10;
        for (int i = 0; i < kEvents; ++i)
            QVERIFY(f->hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        const auto requestsTo = [](const Test::HttpReceiver &receiver, const QByteArray &path) {
            QSet<QByteArray> deliveries;
            int n = 0;
            for (const Test::HttpReceiver::Request &r : receiver.requests())
                if (r.path == path) {
                    deliveries.insert(r.header("X-Gitea-Delivery"));
                    ++n;
                }
            return std::pair{n, int(deliveries.size())};
        };
        TaskFilter succeeded;
        succeeded.hookId = fast->id;
        succeeded.outcome = TaskOutcome::Succeeded;
        QVERIFY(Test::eventually([&] { return f->hooks().count(succeeded).valueOr(0) == kEvents; }));
        QVERIFY(Test::eventually([&] { return requestsTo(f->receiver, "/hang").first == 6; }));
        TaskFilter pending;
        pending.hookId = hanging->id;
        pending.outcome = TaskOutcome::Pending;
        QCOMPARE(f->hooks().count(pending).valueOr(-1), qint64(kEvents));
        // The fast hook's room comes back just after its results are written.
        QVERIFY(Test::eventually([&] { return f->hooks().stats().inFlight == kEvents; }));
        QCOMPARE(f->hooks().settle(CancelToken(), 20ms).code(), Status::Code::DeadlineExceeded);

        f->engine->shutdown();
        f->engine.reset(); // lets go of the queue's files
        TaskFilter unknown;
        unknown.hookId = hanging->id;
        unknown.outcome = TaskOutcome::Unknown;
        {
            EngineOptions restart;
            restart.webhookOptions.stopGrace = 50ms;
            Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), fixtureConfig("[webhook]\nALLOWED_HOST_LIST = loopback\n"
                                                                                          "DELIVER_TIMEOUT = 600\nRESEND_INTERRUPTED = false\n",
                                                                                          f->dir.path(), f->database),
                                                            restart);
            QVERIFY2(e, qPrintable(e.status().message()));
            QCOMPARE((*e)->webhooks().count(unknown).valueOr(-1), qint64(6));
            const std::vector<HookTask> unknownRows = (*e)->webhooks().tasks(unknown)->rows;
            for (const HookTask &t : unknownRows) {
                QCOMPARE(t.interruptions.size(), std::size_t(1));
                QCOMPARE(t.interruptions.front().reason, QStringLiteral("stopped"));
                QVERIFY(!t.interruptions.front().resent);
            }
            QVERIFY(Test::eventually([&] { return requestsTo(f->receiver, "/hang").first == kEvents; }));
            (*e)->shutdown();
            QCOMPARE((*e)->webhooks().count(unknown).valueOr(-1), qint64(kEvents));
        }
        QCOMPARE(requestsTo(f->receiver, "/hang"), (std::pair{kEvents, kEvents}));
        QCOMPARE(requestsTo(f->receiver, "/fast"), (std::pair{kEvents, kEvents}));
    }

    // A shutdown while the loop is full (room for one, held by a receiver that hangs) and a worker
    // waits for room: the worker gives up at once, the queue stops, the hanging delivery is cut
    // after the grace (interrupted: it goes again after the next start, under its delivery id),
    // and the events still waiting stay pending for the next start.
    void aShutdownDoesNotWaitForRoomInTheLoop()
    {
        WebhookOptions options;
        options.maxInFlight = 1;
        options.stopGrace = 50ms;
        auto f = std::make_unique<HookFixture>("[webhook]\nDELIVER_TIMEOUT = 600\n[server]\nGRACEFUL_HAMMER_TIME = 20s\n"
                                               "[queue.webhook_sender]\nBATCH_LENGTH = 1\n",
                                               options);
        f->receiver.misbehave("/hang", Test::HttpReceiver::Misbehaviour::Hang);
        const Result<Hook> hanging = f->hooks().create(f->hook("/hang"));
        QVERIFY(hanging);
        for (int i = 0; i < 3; ++i)
            QVERIFY(f->hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        QVERIFY(Test::eventually([&] { return f->receiver.requests().size() == 1; }));
        QElapsedTimer stopping;
        stopping.start();
        const ShutdownReport report = f->engine->shutdown();
        // Not a timing test: a worker that kept waiting would hold the queue's shutdown for its
        // whole shutdownTimeout (the loop only goes after the queue), so this bound cannot be
        // met by luck, and a sanitizer build stays far inside it.
        QVERIFY2(stopping.elapsed() < QueueTiming{}.shutdownTimeout.count(), qPrintable(QString::number(stopping.elapsed())));
        QVERIFY(!report.hammered);
        QVERIFY(report.clean());
        TaskFilter of;
        of.hookId = hanging->id;
        of.outcome = TaskOutcome::Unknown;
        QCOMPARE(f->hooks().count(of).valueOr(-1), qint64(0));
        of.outcome = TaskOutcome::Pending;
        const std::vector<HookTask> pending = f->hooks().tasks(of)->rows;
        QCOMPARE(pending.size(), std::size_t(3));
        int interrupted = 0;
        for (const HookTask &t : pending) {
            QVERIFY(!t.isDelivered); // none stays claimed
            if (!t.interruptions.empty()) {
                ++interrupted;
                QCOMPARE(t.interruptions.front().reason, QStringLiteral("stopped"));
                QVERIFY(t.interruptions.front().resent);
            }
        }
        QCOMPARE(interrupted, 1);
    }

    // Deleting a hook while six of its deliveries hang on the wire and four wait for a connection:
    // the six are cut, the four never sent, and nothing is left in the loop.
    void aDeletedHooksDeliveriesLeaveTheLoop()
    {
        WebhookOptions options;
        options.retrySchedule = {1ms}; // a cut delivery of a deleted hook is not retried even so
        HookFixture f("[webhook]\nDELIVER_TIMEOUT = 600\n", options);
        f.receiver.misbehave("/hang", Test::HttpReceiver::Misbehaviour::Hang);
        const Result<Hook> hanging = f.hooks().create(f.hook("/hang"));
        QVERIFY(hanging);
        for (int i = 0; i < 10; ++i)
            QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        QVERIFY(Test::eventually([&] { return f.receiver.requests().size() == 6; }));
        QVERIFY(Test::eventually([&] { return f.hooks().stats().inFlight == 10; }));
        QVERIFY(f.hooks().remove(hanging->id));
        QVERIFY(f.hooks().settle(CancelToken(), 20s));
        QCOMPARE(f.hooks().stats().inFlight, qint64(0));
        QCOMPARE(f.receiver.requests().size(), 6);
        TaskFilter all;
        QCOMPARE(f.hooks().count(all).valueOr(-1), qint64(0)); // no retry was written for it
    }

    // A hook over its share of the delivery loop (its receiver hangs) gets its further tasks back
    // in the store, due later (when its backlog should have been sent at the pace seen so far);
    // with room for one delivery at a time, twenty to a fast receiver still all go out, one after
    // another.
    void aHookOverItsShareWaitsInTheStore()
    {
        WebhookOptions options;
        options.maxHeldPerHook = 6;
        options.stopGrace = 50ms;
        HookFixture f("[webhook]\nDELIVER_TIMEOUT = 600\n", options);
        f.receiver.misbehave("/hang", Test::HttpReceiver::Misbehaviour::Hang);
        const Result<Hook> hanging = f.hooks().create(f.hook("/hang"));
        QVERIFY(hanging);
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < 10; ++i)
            QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        TaskFilter of;
        of.hookId = hanging->id;
        const auto rows = [&] { return f.hooks().tasks(of)->rows; };
        QVERIFY(Test::eventually([&] {
            const std::vector<HookTask> all = rows();
            return std::count_if(all.begin(), all.end(), [](const HookTask &t) { return !t.isDelivered; }) == 4;
        }));
        for (const HookTask &t : rows())
            if (!t.isDelivered)
                QVERIFY2(t.deliverAfterMs > before, qPrintable(QString::number(t.deliverAfterMs - before)));
        QVERIFY(Test::eventually([&] { return f.receiver.requests().size() >= 6; }));
        QCOMPARE(f.receiver.requests().size(), 6); // the four were not sent beside the six that hang
        // The room the worker took for the four comes back just after they are given back.
        QVERIFY(Test::eventually([&] { return f.hooks().stats().inFlight == 6; }));

        WebhookOptions narrow;
        narrow.maxInFlight = 1;
        HookFixture g({}, narrow);
        const Result<Hook> one = g.hooks().create(g.hook());
        QVERIFY(one);
        for (int i = 0; i < 20; ++i)
            QVERIFY(g.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        g.settle();
        TaskFilter succeeded;
        succeeded.hookId = one->id;
        succeeded.outcome = TaskOutcome::Succeeded;
        QCOMPARE(g.hooks().count(succeeded).valueOr(-1), qint64(20));
        QCOMPARE(g.receiver.requests().size(), 20);
    }

    // A hook over its share whose receiver keeps up is not put off: the worker waits for its room
    // (WebhookOptions::busyHookWait), so a burst to a fast receiver goes out at once and none of
    // its tasks is given back to the store with a later due time.
    void aBusyHookThatKeepsUpIsNotPutOff()
    {
        WebhookOptions options;
        options.maxHeldPerHook = 6;
        options.keepingUp = 60s; // longer than any answer of this receiver, even under a sanitizer
        options.busyHookWait = 60s;
        HookFixture f({}, options);
        const Result<Hook> fast = f.hooks().create(f.hook());
        QVERIFY(fast);
        for (int i = 0; i < 60; ++i)
            QVERIFY(f.hooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}));
        f.settle();
        TaskFilter of;
        of.hookId = fast->id;
        of.limit = 100;
        const std::vector<HookTask> all = f.hooks().tasks(of)->rows;
        QCOMPARE(int(all.size()), 60);
        for (const HookTask &t : all) {
            QCOMPARE(t.outcome, TaskOutcome::Succeeded);
            QCOMPARE(t.deliverAfterMs, qint64(0)); // never given back
        }
        QCOMPARE(f.receiver.requests().size(), 60);
    }

    // Two instances on one PostgreSQL database, both handed every task (each instance's resync
    // queues what is undelivered): the compare-and-set claim sends each delivery once.
    void twoEnginesOnOnePostgresDeliverOnce()
    {
        if (!onPostgres())
            QSKIP("two instances share a PostgreSQL database: the tst_webhook_postgres variant runs this");
        Test::HttpReceiver receiver;
        const DatabaseSettings shared = freshPostgres();
        const QByteArray ini = "[webhook]\nALLOWED_HOST_LIST = loopback\n[queue.webhook_sender]\nBATCH_LENGTH = 4\nMAX_WORKERS = 2\n";
        QTemporaryDir dirA;
        QTemporaryDir dirB;
        Result<std::unique_ptr<Engine>> a = Engine::start(CancelToken(), fixtureConfig(ini, dirA.path(), shared));
        QVERIFY2(a, qPrintable(a.status().message()));
        Result<std::unique_ptr<Engine>> b = Engine::start(CancelToken(), fixtureConfig(ini, dirB.path(), shared));
        QVERIFY2(b, qPrintable(b.status().message()));
        Hook h;
        h.repoId = 7;
        h.url = QString::fromLatin1(receiver.url("/both"));
        h.secret = QStringLiteral("s3cret");
        h.events.pushOnly = true;
        const Result<Hook> hook = (*a)->webhooks().create(h, QStringLiteral("Bearer shared"));
        QVERIFY(hook);
        for (Engine *e : {a->get(), b->get()})
            QVERIFY(e->queues().pause(CancelToken(), senderQid(*e)));
        constexpr int kTasks = 40;
        for (int i = 0; i < kTasks; ++i)
            QCOMPARE(*(*a)->webhooks().prepare(CancelToken(), {7, 0}, HookEventType::Push, kPush, QStringLiteral("refs/heads/main"), {}), 1);
        QCOMPARE(*(*b)->webhooks().requeueUndelivered(CancelToken()), qint64(kTasks));
        for (Engine *e : {a->get(), b->get()})
            QVERIFY(e->queues().resume(senderQid(*e)));
        QVERIFY((*a)->queues().flushAll(CancelToken(), 30s));
        QVERIFY((*b)->queues().flushAll(CancelToken(), 30s));

        QCOMPARE(receiver.requests().size(), kTasks);
        QSet<QByteArray> deliveries;
        for (const Test::HttpReceiver::Request &r : receiver.requests()) {
            deliveries.insert(r.header("X-Gitea-Delivery"));
            QCOMPARE(r.header("Authorization"), QByteArray("Bearer shared")); // B opened what A sealed
        }
        QCOMPARE(deliveries.size(), kTasks);
        TaskFilter succeeded;
        succeeded.hookId = hook->id;
        succeeded.outcome = TaskOutcome::Succeeded;
        QCOMPARE(*(*b)->webhooks().count(succeeded), qint64(kTasks));
        const qint64 byA = (*a)->webhooks().stats().succeeded;
        const qint64 byB = (*b)->webhooks().stats().succeeded;
        QCOMPARE(byA + byB, qint64(kTasks));
        qInfo("instance A delivered %lld, B %lld", byA, byB);
        (*b)->shutdown();
        (*a)->shutdown();
    }

    // Sealed at rest: opens with the same key only; an altered text is refused, not mis-read.
    void secretsAreSealed()
    {
        const SecretBox box = SecretBox::fromPassphrase("correct horse battery staple");
        const QString sealed = box.seal("Bearer s3cr3t");
        QVERIFY(sealed.startsWith(QLatin1String("gcm1:")));
        QVERIFY(!sealed.contains(QLatin1String("s3cr3t")));
        QVERIFY(box.seal("Bearer s3cr3t") != sealed); // a fresh nonce each time
        QCOMPARE(*box.open(sealed), QByteArray("Bearer s3cr3t"));
        QCOMPARE(*box.open(QString()), QByteArray());
        QCOMPARE(box.seal(QByteArray()), QString());

        const Result<QByteArray> other = SecretBox::fromPassphrase("another key").open(sealed);
        QVERIFY(!other);
        QCOMPARE(other.status().code(), Status::Code::Corruption);
        QVERIFY2(other.status().message().contains(QLatin1String("SECRET_KEY")), qPrintable(other.status().message()));
        QByteArray raw = QByteArray::fromBase64(sealed.mid(5).toLatin1());
        raw[14] = char(raw[14] ^ 1);
        QVERIFY(!box.open(QStringLiteral("gcm1:") + QString::fromLatin1(raw.toBase64())));
        QVERIFY(!box.open(QStringLiteral("plain text")));
    }

    void theKeyFileIsTheOwnersAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secret.key"));
        const Result<SecretBox> made = SecretBox::fromKeyFile(path);
        QVERIFY2(made, qPrintable(made.status().message()));
        QCOMPARE(QFile(path).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther), QFile::Permissions());
        QCOMPARE(QFile(path).size(), qint64(32));
        const QString sealed = made->seal("token");
        const Result<SecretBox> again = SecretBox::fromKeyFile(path); // the next start
        QVERIFY(again);
        QCOMPARE(*again->open(sealed), QByteArray("token"));

        QVERIFY(QFile(path).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
        const Result<SecretBox> exposed = SecretBox::fromKeyFile(path);
        QVERIFY(!exposed);
        QVERIFY2(exposed.status().message().contains(path) && exposed.status().message().contains(QLatin1String("chmod 600")),
                 qPrintable(exposed.status().message()));

        const QString shortKey = dir.filePath(QStringLiteral("short.key"));
        QFile f(shortKey);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("abc") == 3 && f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        f.close();
        const Result<SecretBox> bad = SecretBox::fromKeyFile(shortKey);
        QVERIFY(!bad);
        QVERIFY2(bad.status().message().contains(QLatin1String("3 bytes")), qPrintable(bad.status().message()));
    }
};

QTEST_GUILESS_MAIN(tst_Webhook)
#include "tst_webhook.moc"
