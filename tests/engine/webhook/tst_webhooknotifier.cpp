// The webhook notifier: a forge event goes in through event ingestion (the samples of
// tests/data/events), the bus hands it to the webhook notifier, and a real receiver gets the
// Gitea payload — its event type, its action and, pinned by golden files in
// tests/golden/webhook/payloads, every field. SWITCHYARD_UPDATE_GOLDEN=1 rewrites the golden files.
#include "engine/engine.h"
#include "engine/webhook/notifier.h"
#include "engine/webhook/orderedjson.h"
#include "engine/webhook/payloads.h"
#include "engine/webhook/webhook.h"

#include "support/httpreceiver.h"
#include "support/testutil.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Switchyard;
using namespace Switchyard::Webhook;
using namespace std::chrono_literals;

namespace {

using Test::readFile;

QByteArray sample(const QString &name)
{
    const QByteArray bytes = readFile(QStringLiteral(SWITCHYARD_TEST_DATA "/events/") + name);
    if (bytes.isEmpty())
        qFatal("missing sample %s", qPrintable(name));
    return bytes;
}

QString goldenPath(const QString &name)
{
    return QStringLiteral(SWITCHYARD_GOLDEN "/webhook/payloads/") + name + QStringLiteral(".json");
}

// An engine with one system hook that wants everything, pointed at the receiver.
struct Fixture
{
    explicit Fixture(HookEvents events = everything())
    {
        const QByteArray ini = "[webhook]\nALLOWED_HOST_LIST = loopback\nDELIVER_TIMEOUT = 2\n";
        Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
        if (!started)
            qFatal("engine: %s", qPrintable(started.status().message()));
        engine = std::move(started).value();
        Hook h;
        h.isSystem = true;
        h.url = QString::fromLatin1(receiver.url("/system"));
        h.events = std::move(events);
        Result<Hook> created = engine->webhooks().create(h);
        if (!created)
            qFatal("hook: %s", qPrintable(created.status().message()));
        hookId = created->id;
    }
    ~Fixture() { engine->shutdown(); }

    static HookEvents everything()
    {
        HookEvents e;
        e.sendEverything = true;
        return e;
    }

    bool post(const QString &file, const QString &event)
    {
        IncomingEvent in;
        in.event = event;
        in.payload = sample(file);
        in.byToken = true;
        return bool(engine->events().accept(CancelToken(), in));
    }
    // The event processed, its webhook tasks queued and delivered.
    bool settle()
    {
        for (int i = 0; i < 3; ++i)
            if (!engine->queues().flushAll(CancelToken(), 10s))
                return false;
        return true;
    }

    QTemporaryDir dir;
    Test::HttpReceiver receiver;
    std::unique_ptr<Engine> engine;
    qint64 hookId = 0;
};

} // namespace

class tst_WebhookNotifier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void isFirstOnTheBus()
    {
        Fixture f;
        const QStringList names = f.engine->notifyBus().notifierNames();
        QVERIFY(!names.isEmpty());
        QCOMPARE(names.front(), QStringLiteral("webhook"));
    }

    void eventsBecomeGiteaPayloads_data()
    {
        QTest::addColumn<QString>("before"); // a sample the event needs first (the issue of a comment)
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("eventType"); // X-Gitea-Event-Type
        QTest::addColumn<QString>("grouped");   // X-Gitea-Event
        QTest::addColumn<QString>("action");    // empty: the payload has none
        const auto row = [](const char *name, const char *before, const char *file, const char *event, const char *type,
                            const char *grouped, const char *action) {
            QTest::newRow(name) << QString::fromLatin1(before) << QString::fromLatin1(file) << QString::fromLatin1(event)
                                << QString::fromLatin1(type) << QString::fromLatin1(grouped) << QString::fromLatin1(action);
        };
        // One row per event type a hook is sent (the golden file is <type>[-<action>]).
        const char *opened = "gitea-issues-opened.json";
        const char *pull = "gitea-pull-request-opened.json";
        row("create", "", "gitea-create.json", "create", "create", "create", "");
        row("delete", "", "gitea-delete.json", "delete", "delete", "delete", "");
        row("fork", "", "gitea-fork.json", "fork", "fork", "fork", "");
        row("push", "", "gitea-push.json", "push", "push", "push", "");
        row("issues-opened", "", opened, "issues", "issues", "issues", "opened");
        row("issues-closed", "", "gitea-issues-closed.json", "issues", "issues", "issues", "closed");
        row("issue_assign-assigned", opened, "gitea-issues-assigned.json", "issues", "issue_assign", "issues", "assigned");
        row("issue_label-label_updated", opened, "gitea-issues-label-updated.json", "issues", "issue_label", "issues", "label_updated");
        row("issue_milestone-milestoned", opened, "gitea-issues-milestoned.json", "issues", "issue_milestone", "issues", "milestoned");
        row("issue_comment-created", opened, "gitea-issue-comment-created.json", "issue_comment", "issue_comment", "issue_comment",
            "created");
        row("pull_request-opened", "", pull, "pull_request", "pull_request", "pull_request", "opened");
        row("pull_request-closed", "", "gitea-pull-request-merged.json", "pull_request", "pull_request", "pull_request", "closed");
        row("pull_request_assign-assigned", pull, "gitea-pull-request-assigned.json", "pull_request", "pull_request_assign",
            "pull_request", "assigned");
        row("pull_request_label-label_updated", pull, "gitea-pull-request-label-updated.json", "pull_request", "pull_request_label",
            "pull_request", "label_updated");
        row("pull_request_milestone-milestoned", pull, "gitea-pull-request-milestoned.json", "pull_request", "pull_request_milestone",
            "pull_request", "milestoned");
        row("pull_request_comment-created", pull, "gitea-pull-request-comment-created.json", "issue_comment", "pull_request_comment",
            "issue_comment", "created");
        row("pull_request_review_approved-reviewed", pull, "gitea-pull-request-review-approved.json", "pull_request_review_approved",
            "pull_request_review_approved", "pull_request_approved", "reviewed");
        row("pull_request_review_rejected-reviewed", pull, "gitea-pull-request-review-rejected.json", "pull_request_review_rejected",
            "pull_request_review_rejected", "pull_request_rejected", "reviewed");
        row("pull_request_review_comment-reviewed", pull, "gitea-pull-request-review-comment.json", "pull_request_review_comment",
            "pull_request_review_comment", "pull_request_comment", "reviewed");
        row("pull_request_sync-synchronized", pull, "gitea-pull-request-synchronized.json", "pull_request_sync", "pull_request_sync",
            "pull_request", "synchronized");
        row("pull_request_review_request-review_requested", pull, "gitea-pull-request-review-requested.json", "pull_request",
            "pull_request_review_request", "pull_request", "review_requested");
        row("wiki-created", "", "gitea-wiki.json", "wiki", "wiki", "wiki", "created");
        row("repository-created", "", "gitea-repository-created.json", "repository", "repository", "repository", "created");
        row("release-published", "", "gitea-release-published.json", "release", "release", "release", "published");
        row("package-created", "", "gitea-package.json", "package", "package", "package", "created");
        row("status", "", "gitea-status.json", "status", "status", "status", "");
        row("workflow_run-completed", "", "gitea-workflow-run.json", "workflow_run", "workflow_run", "workflow_run", "completed");
        row("workflow_job-completed", "", "gitea-workflow-job.json", "workflow_job", "workflow_job", "workflow_job", "completed");
    }

    void eventsBecomeGiteaPayloads()
    {
        QFETCH(QString, before);
        QFETCH(QString, file);
        QFETCH(QString, event);
        QFETCH(QString, eventType);
        QFETCH(QString, grouped);
        QFETCH(QString, action);

        Fixture f;
        if (!before.isEmpty()) {
            const QString beforeEvent = before.contains(QLatin1String("pull-request")) ? QStringLiteral("pull_request") : QStringLiteral("issues");
            QVERIFY(f.post(before, beforeEvent));
            QVERIFY(f.settle());
        }
        const qsizetype seen = f.receiver.requests().size();
        QVERIFY(f.post(file, event));
        QVERIFY(f.settle());
        const QList<Test::HttpReceiver::Request> got = f.receiver.requests().mid(seen);
        QCOMPARE(got.size(), 1);
        const Test::HttpReceiver::Request &r = got.front();
        QCOMPARE(QString::fromLatin1(r.header("X-Gitea-Event-Type")), eventType);
        QCOMPARE(QString::fromLatin1(r.header("X-Gitea-Event")), grouped);
        QCOMPARE(QString::fromLatin1(r.header("X-Gitea-Hook-Installation-Target-Type")), QStringLiteral("system"));
        const QJsonObject payload = QJsonDocument::fromJson(r.body).object();
        QVERIFY2(!payload.isEmpty(), r.body.constData());
        QCOMPARE(payload.value(QStringLiteral("action")).toString(), action);
        QCOMPARE(payload.value(QStringLiteral("sender")).toObject().value(QStringLiteral("login")).toString().isEmpty(), false);

        // Every field in its place (Gitea's struct order), byte for byte against the golden file.
        const QString name = QString::fromLatin1(QTest::currentDataTag());
        const QByteArray shown = indentJson(r.body);
        if (qEnvironmentVariableIsSet("SWITCHYARD_UPDATE_GOLDEN")) {
            QDir().mkpath(QFileInfo(goldenPath(name)).path());
            QFile out(goldenPath(name));
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(shown);
            qInfo("rewrote %s", qPrintable(goldenPath(name)));
        }
        const QByteArray golden = readFile(goldenPath(name));
        QVERIFY2(!golden.isEmpty(), qPrintable(QStringLiteral("no golden file %1 (run with SWITCHYARD_UPDATE_GOLDEN=1)").arg(goldenPath(name))));
        QVERIFY2(QJsonDocument::fromJson(golden).object() == payload, qPrintable(name)); // the golden file is the payload's JSON
        if (shown != golden)
            QFAIL(qPrintable(QStringLiteral("%1 differs from its golden file:\n%2").arg(name, QString::fromUtf8(shown))));
    }

    // What the payloads promise beyond the golden files: short refs for create, the full ref for
    // the branch filter, absolute status URLs, merged pulls.
    void theDetailsGiteaReceiversRelyOn()
    {
        QCOMPARE(Payload::shortRefName(QStringLiteral("refs/heads/feature/x")), QStringLiteral("feature/x"));
        QCOMPARE(Payload::shortRefName(QStringLiteral("refs/tags/v1.2")), QStringLiteral("v1.2"));
        QCOMPARE(Payload::shortRefName(QStringLiteral("main")), QStringLiteral("main"));
        const QString repo = QStringLiteral("https://forge.example.com:8443/alice/engine");
        QCOMPARE(Payload::absoluteUrl(QStringLiteral("/alice/engine/actions/runs/3"), repo),
                 QStringLiteral("https://forge.example.com:8443/alice/engine/actions/runs/3"));
        QCOMPARE(Payload::absoluteUrl(QStringLiteral("https://ci.example.com/b/1"), repo), QStringLiteral("https://ci.example.com/b/1"));
        QCOMPARE(Payload::absoluteUrl(QStringLiteral("/x"), QString()), QStringLiteral("/x"));

        Fixture f;
        QVERIFY(f.post(QStringLiteral("gitea-create.json"), QStringLiteral("create")));
        QVERIFY(f.settle());
        const QJsonObject input = QJsonDocument::fromJson(sample(QStringLiteral("gitea-create.json"))).object();
        const QJsonObject sent = QJsonDocument::fromJson(f.receiver.requests().back().body).object();
        QCOMPARE(sent.value(QStringLiteral("ref")).toString(), Payload::shortRefName(input.value(QStringLiteral("ref")).toString()));
        QVERIFY(!sent.value(QStringLiteral("ref")).toString().startsWith(QLatin1String("refs/")));

        QVERIFY(f.post(QStringLiteral("gitea-pull-request-merged.json"), QStringLiteral("pull_request")));
        QVERIFY(f.settle());
        const QJsonObject merged = QJsonDocument::fromJson(f.receiver.requests().back().body).object();
        QCOMPARE(merged.value(QStringLiteral("pull_request")).toObject().value(QStringLiteral("merged")).toBool(), true);
        QCOMPARE(merged.value(QStringLiteral("pull_request")).toObject().value(QStringLiteral("state")).toString(), QStringLiteral("closed"));
    }

    // The branch filter sees the full ref of a create event while the payload carries the short
    // one; a hook that wants only issues hears nothing of a push.
    void theGatesApplyToNotifierEvents()
    {
        HookEvents onlyMain;
        onlyMain.sendEverything = true;
        onlyMain.branchFilter = QStringLiteral("refs/heads/release-*");
        Fixture f(onlyMain);
        QVERIFY(f.post(QStringLiteral("gitea-create.json"), QStringLiteral("create"))); // a branch not matching
        QVERIFY(f.post(QStringLiteral("gitea-issues-opened.json"), QStringLiteral("issues")));
        QVERIFY(f.settle());
        const QList<Test::HttpReceiver::Request> got = f.receiver.requests();
        QCOMPARE(got.size(), 1);
        QCOMPARE(got.front().header("X-Gitea-Event-Type"), QByteArray("issues"));
        QCOMPARE(f.engine->webhookNotifier().stats().failed, 0);
        QCOMPARE(f.engine->webhookNotifier().stats().prepared, 2);
    }

    // A fork into an organisation also tells the organisation's hooks that a repository was
    // created (Gitea's two events).
    void aForkIntoAnOrganisationIsAlsoARepositoryCreated()
    {
        Fixture f;
        QJsonObject payload = QJsonDocument::fromJson(sample(QStringLiteral("gitea-fork.json"))).object();
        QJsonObject forkee = payload.value(QStringLiteral("forkee")).toObject();
        QJsonObject owner = forkee.value(QStringLiteral("owner")).toObject();
        owner.insert(QStringLiteral("type"), QStringLiteral("Organization"));
        owner.insert(QStringLiteral("login"), QStringLiteral("acme"));
        owner.insert(QStringLiteral("id"), 99);
        forkee.insert(QStringLiteral("owner"), owner);
        payload.insert(QStringLiteral("forkee"), forkee);
        IncomingEvent in;
        in.event = QStringLiteral("fork");
        in.payload = QJsonDocument(payload).toJson();
        in.byToken = true;
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        QVERIFY(f.settle());
        QStringList types;
        for (const Test::HttpReceiver::Request &r : f.receiver.requests())
            types << QString::fromLatin1(r.header("X-Gitea-Event-Type"));
        types.sort();
        QCOMPARE(types, (QStringList{QStringLiteral("fork"), QStringLiteral("repository")}));
    }

    // Gitea's default hooks: never sent themselves; a new repository gets a copy of each as its
    // own hook, before its repository/created event is prepared (so the copy hears it), once —
    // a redelivered creation copies nothing more. A user's fork gets copies too.
    void aDefaultHookIsCopiedOnceIntoANewRepository()
    {
        Fixture f;
        Hook def;
        def.isDefault = true;
        def.url = QString::fromLatin1(f.receiver.url("/default"));
        def.name = QStringLiteral("audit");
        def.secret = QStringLiteral("hush");
        def.events.sendEverything = true;
        def.events.branchFilter = QStringLiteral("main");
        Result<Hook> created = f.engine->webhooks().create(def, QStringLiteral("Bearer copied"));
        QVERIFY2(created, qPrintable(created.status().toString()));
        QVERIFY(created->isDefault && !created->isSystem);
        Hook stray = def; // repo 0, owner 0 without saying so is refused
        stray.isDefault = false;
        QCOMPARE(f.engine->webhooks().create(stray).status().field(), QStringLiteral("repo_id"));

        const auto copies = [&] {
            std::vector<Hook> out;
            const Result<std::vector<Hook>> all = f.engine->webhooks().list();
            for (const Hook &h : *all)
                if (h.repoId != 0)
                    out.push_back(h);
            return out;
        };
        const auto toDefault = [&] {
            int n = 0;
            for (const Test::HttpReceiver::Request &r : f.receiver.requests())
                n += r.path == "/default";
            return n;
        };
        QVERIFY(f.post(QStringLiteral("gitea-push.json"), QStringLiteral("push"))); // not a creation: no copy, not sent
        QVERIFY(f.settle());
        QCOMPARE(copies().size(), std::size_t(0));
        QCOMPARE(toDefault(), 0);

        QVERIFY(f.post(QStringLiteral("gitea-repository-created.json"), QStringLiteral("repository")));
        QVERIFY(f.settle());
        std::vector<Hook> copied = copies();
        QCOMPARE(copied.size(), std::size_t(1));
        const Hook &copy = copied.front();
        QVERIFY(!copy.isDefault && !copy.isSystem && copy.ownerId == 0 && copy.id != created->id);
        QCOMPARE(copy.url, def.url);
        QCOMPARE(copy.name, def.name);
        QCOMPARE(copy.secret, def.secret);
        QCOMPARE(copy.events, created->events);
        QCOMPARE(copy.type, created->type);
        QCOMPARE(copy.active, true);
        QVERIFY(copy.hasAuthorization);
        QCOMPARE(toDefault(), 1); // the copy heard the creation
        const QList<Test::HttpReceiver::Request> got = f.receiver.requests();
        const auto sent = std::find_if(got.cbegin(), got.cend(), [](const auto &r) { return r.path == "/default"; });
        QCOMPARE(sent->header("Authorization"), QByteArray("Bearer copied"));
        QCOMPARE(sent->header("X-Gitea-Hook-Installation-Target-Type"), QByteArray("repository"));
        TaskFilter ofDefault;
        ofDefault.hookId = created->id;
        QCOMPARE(f.engine->webhooks().count(ofDefault).value(), qint64(0));

        // The creation told again (another delivery, the same repository): no second copy.
        QJsonObject again = QJsonDocument::fromJson(sample(QStringLiteral("gitea-repository-created.json"))).object();
        again.insert(QStringLiteral("redelivered"), true);
        IncomingEvent in;
        in.event = QStringLiteral("repository");
        in.payload = QJsonDocument(again).toJson();
        in.byToken = true;
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        QVERIFY(f.settle());
        QCOMPARE(copies().size(), std::size_t(1));
        QCOMPARE(f.engine->webhooks().count(ofDefault).value(), qint64(0));

        // A fork into a user's account: no repository event, a copy all the same.
        QVERIFY(f.post(QStringLiteral("gitea-fork.json"), QStringLiteral("fork")));
        QVERIFY(f.settle());
        QCOMPARE(copies().size(), std::size_t(2));
        QCOMPARE(f.engine->webhooks().count(ofDefault).value(), qint64(0));
        QCOMPARE(f.engine->webhookNotifier().stats().failed, 0);
    }
};

QTEST_GUILESS_MAIN(tst_WebhookNotifier)
#include "tst_webhooknotifier.moc"
