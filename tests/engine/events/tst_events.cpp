// Event ingestion and in-app notifications on a real engine (SQLite in a temporary folder): each
// payload sample becomes its bus method; acceptance refuses what it must and writes nothing
// then; a repeated delivery is processed once; unfinished events are processed after a restart;
// each recipient rule of seed 001 §12.4.3 has its row; the status service tells count changes.
#include "engine/engine.h"
#include "engine/forge/forgedata.h"

#include "support/wait.h"

#include "support/testutil.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <functional>
#include <mutex>

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

// Logs every bus event by name.
class Recorder final : public NullNotifier
{
public:
#define SWITCHYARD_RECORD(name, params, args) \
    void name params override                 \
    {                                         \
        NotifyDetail::ignore args;            \
        std::lock_guard lock(m_mutex);        \
        m_log << QStringLiteral(#name);       \
    }
    SWITCHYARD_NOTIFY_EVENTS(SWITCHYARD_RECORD, SWITCHYARD_RECORD)
#undef SWITCHYARD_RECORD
    QStringList take()
    {
        std::lock_guard lock(m_mutex);
        return std::exchange(m_log, {});
    }

private:
    std::mutex m_mutex;
    QStringList m_log;
};

struct Fixture
{
    explicit Fixture(const QByteArray &ini = {})
    {
        Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
        if (!started)
            qFatal("engine: %s", qPrintable(started.status().message()));
        engine = std::move(started).value();
        if (!engine->notifyBus().registerNotifier(QStringLiteral("recorder"), recorder))
            qFatal("recorder not registered");
    }
    ~Fixture() { engine->shutdown(); }

    Result<EventAccepted> post(const QString &file, const QString &event, const QString &delivery = {})
    {
        IncomingEvent in;
        in.event = event;
        in.payload = sample(file);
        if (privateRepo) {  // the forge says so in every payload
            QJsonObject payload = QJsonDocument::fromJson(in.payload).object();
            QJsonObject repository = payload.value(QStringLiteral("repository")).toObject();
            repository.insert(QStringLiteral("private"), true);
            if (orgRepo) // organisation acme (external id 90) owns it
                repository.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("id"), 90}, {QStringLiteral("login"), QStringLiteral("acme")},
                                                                       {QStringLiteral("type"), QStringLiteral("Organization")}});
            payload.insert(QStringLiteral("repository"), repository);
            in.payload = QJsonDocument(payload).toJson();
        }
        in.deliveryId = delivery;
        in.byToken = true;
        return engine->events().accept(CancelToken(), in);
    }
    // Both queues drained: the event processed, then its notifications written.
    void settle()
    {
        for (int i = 0; i < 2; ++i)
            QVERIFY(engine->queues().flushAll(CancelToken(), 10s));
    }
    EventRecord event(qint64 id) { return *engine->events().get(id); }
    qint64 userId(const QString &login)
    {
        return engine->store()
            .readValue<qint64>([&](SqlTransaction &tx) {
                return tx.scalar(QStringLiteral("SELECT id FROM forge_user WHERE login = ?"), {login});
            })
            .valueOr(-1);
    }
    qint64 repoId(const QString &name)
    {
        return engine->store()
            .readValue<qint64>([&](SqlTransaction &tx) {
                return tx.scalar(QStringLiteral("SELECT id FROM repo WHERE name = ?"), {name});
            })
            .valueOr(-1);
    }
    // (Not nested in another transaction: take ids first.)
    void write(const std::function<Status(SqlTransaction &)> &work) { QVERIFY(engine->store().write(work)); }
    // Logins with a notification, and their statuses.
    QStringList notified()
    {
        Result<NotificationPage> page = engine->notifications().list({});
        QStringList who;
        for (const NotificationRow &row : page->rows)
            who << row.user;
        who.sort();
        return who;
    }
    // A user known before the events that mention them.
    void seedUser(qint64 externalId, const QString &login, bool bot = false)
    {
        write([&](SqlTransaction &tx) {
            ForgeUser u;
            u.login = login;
            u.isBot = bot;
            return ForgeDb::upsertUser(tx, QStringLiteral("default"), externalId, u).status();
        });
    }

    // The world before the event: the repository and its people, seen in earlier events (for a
    // comment, the issue too, with what it wrote into `table` cleared).
    void prepareWorld(const QString &file, const QString &table)
    {
        QVERIFY(post(QStringLiteral("gitea-workflow-job.json"), QStringLiteral("workflow_job")));
        settle();
        seedUser(3, QStringLiteral("carol"));
        seedUser(4, QStringLiteral("dave"));
        if (file == QLatin1String("gitea-issue-comment-created.json")) {
            QVERIFY(post(QStringLiteral("gitea-issues-opened.json"), QStringLiteral("issues")));
            settle();
            write([&](SqlTransaction &tx) { return tx.exec(QStringLiteral("DELETE FROM ") + table).status(); });
        }
    }
    // Posts the event and waits until it and its notifications are processed.
    void postSettled(const QString &file, const QString &event)
    {
        const Result<EventAccepted> accepted = post(file, event);
        QVERIFY2(accepted, qPrintable(accepted.status().message()));
        settle();
        QCOMPARE(this->event(accepted->id).status, QStringLiteral("done"));
    }

    QTemporaryDir dir;
    std::unique_ptr<Engine> engine;
    Recorder recorder;
    bool privateRepo = false;
    bool orgRepo = false; // with privateRepo: the repository is organisation acme's
};

using Setup = std::function<void(Fixture &)>;

// A setup: `login` watches alice/engine (mode normal).
Setup watching(const QString &login)
{
    return [login](Fixture &f) {
        const qint64 repo = f.repoId(QStringLiteral("engine"));
        const qint64 user = f.userId(login);
        f.write([&](SqlTransaction &tx) { return ForgeDb::setWatch(tx, user, repo, WatchMode::Normal); });
    };
}

// Gitea's names of the op types these tests meet (ActionType's numbers are Gitea's).
QString opName(ActionType type)
{
    switch (type) {
    case ActionType::CreateIssue: return QStringLiteral("create_issue");
    case ActionType::CommitRepo: return QStringLiteral("commit_repo");
    case ActionType::DeleteBranch: return QStringLiteral("delete_branch");
    case ActionType::PublishRelease: return QStringLiteral("publish_release");
    case ActionType::CommentIssue: return QStringLiteral("comment_issue");
    default: return QString::number(int(type));
    }
}

QStringList names(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *name : list)
        out << QLatin1String(name);
    return out;
}

}  // namespace

Q_DECLARE_METATYPE(Setup)

namespace {
// The columns of a table of events in a prepared world (Fixture::prepareWorld).
void addWorldColumns()
{
    QTest::addColumn<Setup>("setup");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("event");
    QTest::addColumn<QStringList>("expected");
}
} // namespace

class TestEvents : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // One row per event → method mapping (Gitea's fine types and GitHub's names).
    void eachEventCallsItsMethod_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QStringList>("methods");
        const auto row = [](const char *name, const char *file, const char *event,
                            std::initializer_list<const char *> methods) {
            QTest::newRow(name) << QString::fromLatin1(file) << QString::fromLatin1(event) << names(methods);
        };
        row("push", "gitea-push.json", "push", {"pushCommits"});
        row("create", "gitea-create.json", "create", {"createRef"});
        row("delete", "gitea-delete.json", "delete", {"deleteRef"});
        row("issues opened", "gitea-issues-opened.json", "issues", {"newIssue"});
        row("issues closed", "gitea-issues-closed.json", "issues", {"issueChangeStatus"});
        row("issue comment", "gitea-issue-comment-created.json", "issue_comment", {"createIssueComment"});
        row("pull request opened", "gitea-pull-request-opened.json", "pull_request", {"newPullRequest"});
        row("pull request merged", "gitea-pull-request-merged.json", "pull_request", {"mergePullRequest"});
        row("gitea review approved", "gitea-pull-request-review-approved.json", "pull_request_review_approved",
            {"pullRequestReview"});
        row("release", "gitea-release-published.json", "release", {"newRelease"});
        row("repository created", "gitea-repository-created.json", "repository", {"createRepository"});
        row("fork", "gitea-fork.json", "fork", {"forkRepository"});
        row("status", "gitea-status.json", "status", {"createCommitStatus"});
        row("package", "gitea-package.json", "package", {"packageCreate"});
        row("wiki", "gitea-wiki.json", "wiki", {"newWikiPage"});
        row("workflow run", "gitea-workflow-run.json", "workflow_run", {"workflowRunStatusUpdate"});
        row("workflow job", "gitea-workflow-job.json", "workflow_job", {"workflowJobStatusUpdate"});
        row("ping", "ping.json", "ping", {});
        row("github review", "github-pull-request-review.json", "pull_request_review", {"pullRequestReview"});
        row("github issue", "github-issues-opened.json", "issues", {"newIssue"});
        row("github line comment", "github-pull-request-review-comment.json", "pull_request_review_comment",
            {"pullRequestCodeComment"});
        row("github gollum", "github-gollum.json", "gollum", {"editWikiPage"});
    }
    void eachEventCallsItsMethod()
    {
        QFETCH(QString, file);
        QFETCH(QString, event);
        QFETCH(QStringList, methods);
        Fixture f;
        const Result<EventAccepted> accepted = f.post(file, event);
        QVERIFY2(accepted, qPrintable(accepted.status().message()));
        f.settle();
        const EventRecord record = f.event(accepted->id);
        QCOMPARE(record.status, methods.isEmpty() ? QStringLiteral("ignored") : QStringLiteral("done"));
        QVERIFY2(record.error.isEmpty(), qPrintable(record.error));
        QStringList seen = f.recorder.take();
        seen.removeAll(QStringLiteral("notificationCountChange"));
        QCOMPARE(seen, methods);
        QCOMPARE(record.event, event);
        QVERIFY(!record.traceId.isEmpty());
    }

    // Refusals name the field and write nothing.
    void badInputIsRefusedAndNothingIsWritten_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<bool>("byToken");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("field");
        const auto invalid = int(Status::Code::InvalidArgument);
        const auto unauthenticated = int(Status::Code::Unauthenticated);
        const QByteArray push = sample(QStringLiteral("gitea-push.json"));
        QTest::newRow("unknown source") << "elsewhere"
                                        << "push" << push << true << invalid << "source";
        QTest::newRow("no event type") << "default"
                                       << "" << push << true << invalid << "event";
        QTest::newRow("unknown event") << "default"
                                       << "no_such_event" << push << true << invalid << "event";
        QTest::newRow("malformed JSON") << "default"
                                        << "push" << QByteArray("{\"ref\": ") << true << invalid << "body";
        QTest::newRow("not an object") << "default"
                                       << "push" << QByteArray("[1]") << true << invalid << "body";
        QTest::newRow("missing field") << "default"
                                       << "issues" << push << true << invalid << "action";
        QTest::newRow("no token, no secret") << "default"
                                             << "push" << push << false << unauthenticated << "";
        // Numbers that fit no integer (#48): refused by their path, not read as 0 or cut.
        const QByteArray opened = sample(QStringLiteral("gitea-issues-opened.json"));
        QByteArray senderId = push;
        senderId.replace("\"sender\": {\n    \"id\": 2,", "\"sender\": {\n    \"id\": 1e30,");
        QTest::newRow("an id beyond qint64") << "default"
                                             << "push" << senderId << true << invalid << "sender.id";
        QTest::newRow("total_commits beyond an int")
            << "default"
            << "push" << QByteArray(push).replace("\"total_commits\": 1,", "\"total_commits\": 4294967296,") << true << invalid
            << "total_commits";
        QTest::newRow("a fraction for a number")
            << "default"
            << "issues" << QByteArray(opened).replace("\"number\": 1,\n    \"user\"", "\"number\": 1.5,\n    \"user\"") << true
            << invalid << "issue.number";
    }
    void badInputIsRefusedAndNothingIsWritten()
    {
        QFETCH(QString, source);
        QFETCH(QString, event);
        QFETCH(QByteArray, payload);
        QFETCH(bool, byToken);
        QFETCH(int, code);
        QFETCH(QString, field);
        Fixture f;
        IncomingEvent in;
        in.source = source;
        in.event = event;
        in.payload = payload;
        in.byToken = byToken;
        QVERIFY(QJsonDocument::fromJson(payload).isObject() || field == QLatin1String("body"));
        const Result<EventAccepted> refused = f.engine->events().accept(CancelToken(), in);
        QVERIFY2(!refused, qPrintable(QString::fromUtf8(payload.left(200))));
        QCOMPARE(int(refused.status().code()), code);
        QCOMPARE(refused.status().field(), field);
        QCOMPARE(f.engine->events().list({})->total, qint64(0));
    }

    // GitHub events Gitea has no counterpart for are answered, ignored and counted — a hook that
    // sends everything stays healthy — but only when authentic; nothing is stored.
    void githubEventsWithoutACounterpartAreIgnored()
    {
        Fixture f("[event_source.github]\nSECRET = s3cret\n");
        const QByteArray payload = "{\"action\":\"created\",\"check_run\":{\"id\":1}}";
        for (const char *name : {"check_run", "star", "deployment", "label", "membership", "check_run"}) {
            IncomingEvent in;
            in.source = QStringLiteral("github");
            in.event = QLatin1String(name);
            in.payload = payload;
            in.hubSignature256 = "sha256=" + eventSignature("s3cret", payload);
            const Result<EventAccepted> ignored = f.engine->events().accept(CancelToken(), in);
            QVERIFY2(ignored, qPrintable(ignored.status().message()));
            QCOMPARE(ignored->ignored, QLatin1String(name));
            QCOMPARE(ignored->id, qint64(0));
        }
        QCOMPARE(f.engine->events().list({})->total, qint64(0));
        const std::map<QString, qint64> counts = f.engine->events().ignoredCounts();
        QCOMPARE(counts.at(QStringLiteral("check_run")), qint64(2));
        QCOMPARE(counts.at(QStringLiteral("star")), qint64(1));
        // A stranger is refused before anything is counted.
        IncomingEvent forged;
        forged.source = QStringLiteral("github");
        forged.event = QStringLiteral("star");
        forged.payload = payload;
        forged.hubSignature256 = "sha256=00";
        QCOMPARE(f.engine->events().accept(CancelToken(), forged).status().code(), Status::Code::Unauthenticated);
        QCOMPARE(f.engine->events().ignoredCounts().at(QStringLiteral("star")), qint64(1));
    }

    // GitHub's release actions as Gitea sees one release: created, published and released for the
    // same release make one newRelease; a draft's publication is not one.
    void oneReleaseIsAnnouncedOnce()
    {
        Fixture f;
        QJsonObject payload = QJsonDocument::fromJson(sample(QStringLiteral("gitea-release-published.json"))).object();
        QStringList seen;
        for (const char *action : {"created", "published", "released"}) {
            payload.insert(QStringLiteral("action"), QLatin1String(action));
            IncomingEvent in;
            in.event = QStringLiteral("release");
            in.byToken = true;
            in.payload = QJsonDocument(payload).toJson();
            const Result<EventAccepted> accepted = f.engine->events().accept(CancelToken(), in);
            QVERIFY(accepted);
            f.settle();
            QCOMPARE(f.event(accepted->id).status, QStringLiteral("done"));
            seen += f.recorder.take();
        }
        seen.removeAll(QStringLiteral("notificationCountChange"));
        QCOMPARE(seen, QStringList{QStringLiteral("newRelease")});
    }

    // Gitea's assigned event carries the issue with all its assignees: only the one added is
    // told; a redelivery of the same state tells no one; pinning has no bus event and says so.
    void onlyTheNewAssigneeIsTold()
    {
        Fixture f;
        QJsonObject payload = QJsonDocument::fromJson(sample(QStringLiteral("gitea-issues-opened.json"))).object();
        const auto post = [&](const char *action, const QJsonValue &assignees) {
            QJsonObject issue = payload.value(QStringLiteral("issue")).toObject();
            issue.insert(QStringLiteral("assignees"), assignees);
            payload.insert(QStringLiteral("issue"), issue);
            payload.insert(QStringLiteral("action"), QLatin1String(action));
            IncomingEvent in;
            in.event = QStringLiteral("issues");
            in.byToken = true;
            in.payload = QJsonDocument(payload).toJson();
            const Result<EventAccepted> accepted = f.engine->events().accept(CancelToken(), in);
            if (!accepted)
                qFatal("%s", qPrintable(accepted.status().message()));
            f.settle();
            QStringList seen = f.recorder.take();
            seen.removeAll(QStringLiteral("notificationCountChange"));
            return std::pair{f.event(accepted->id), seen};
        };
        const QJsonObject carol{{QStringLiteral("id"), 3}, {QStringLiteral("login"), QStringLiteral("carol")}};
        const QJsonObject dave{{QStringLiteral("id"), 4}, {QStringLiteral("login"), QStringLiteral("dave")}};
        QCOMPARE(post("opened", QJsonArray{}).second, QStringList{QStringLiteral("newIssue")});
        QCOMPARE(post("assigned", QJsonArray{carol}).second, QStringList{QStringLiteral("issueChangeAssignee")});
        QCOMPARE(post("assigned", QJsonArray{carol, dave}).second, QStringList{QStringLiteral("issueChangeAssignee")});
        QCOMPARE(f.notified(), (QStringList{QStringLiteral("carol"), QStringLiteral("dave")}));
        QCOMPARE(post("assigned", QJsonArray{carol, dave}).second, QStringList()); // the same state again
        QCOMPARE(post("unassigned", QJsonArray{dave}).second, QStringList{QStringLiteral("issueChangeAssignee")});
        const auto [pinned, calls] = post("pinned", QJsonArray{dave});
        QCOMPARE(calls, QStringList());
        QCOMPARE(pinned.status, QStringLiteral("done"));
        QVERIFY2(pinned.error.contains(QLatin1String("pinned: Gitea has no notification or webhook event")), qPrintable(pinned.error));
        // Gitea sends "assignees": null when the last one goes: dave is removed, and told again
        // when assigned once more.
        QCOMPARE(post("unassigned", QJsonValue(QJsonValue::Null)).second, QStringList{QStringLiteral("issueChangeAssignee")});
        QCOMPARE(post("assigned", QJsonArray{dave}).second, QStringList{QStringLiteral("issueChangeAssignee")});
    }

    // A pull request's synchronize: the hook's sync event and "pushed N commits" to the
    // participants, with the commits of the push to its head branch the forge sent just before.
    void aSynchronizedPullTellsItsPushedCommits()
    {
        struct Catcher final : NullNotifier
        {
            void pullRequestPushCommits(const NotifyContext &, const ForgePullRequest &, const ForgeComment &comment) override
            {
                std::lock_guard lock(mutex);
                contents << comment.content;
            }
            std::mutex mutex;
            QStringList contents;
        } catcher;
        Fixture f;
        QVERIFY(f.engine->notifyBus().registerNotifier(QStringLiteral("catcher"), catcher));
        QVERIFY(f.post(QStringLiteral("gitea-pull-request-opened.json"), QStringLiteral("pull_request")));
        f.settle();
        QJsonObject push = QJsonDocument::fromJson(sample(QStringLiteral("gitea-push.json"))).object();
        push.insert(QStringLiteral("ref"), QStringLiteral("refs/heads/feature"));
        push.insert(QStringLiteral("after"), QStringLiteral("cccccccccccccccccccccccccccccccccccccccc"));
        QJsonArray commits;
        for (const char *id : {"cccccccccccccccccccccccccccccccccccccccc", "dddddddddddddddddddddddddddddddddddddddd"})  // newest first
            commits.append(QJsonObject{{QStringLiteral("id"), QLatin1String(id)}, {QStringLiteral("message"), QStringLiteral("m")}});
        push.insert(QStringLiteral("commits"), commits);
        IncomingEvent in;
        in.event = QStringLiteral("push");
        in.byToken = true;
        in.payload = QJsonDocument(push).toJson();
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        f.settle();
        f.recorder.take();

        QJsonObject sync = QJsonDocument::fromJson(sample(QStringLiteral("gitea-pull-request-opened.json"))).object();
        sync.insert(QStringLiteral("action"), QStringLiteral("synchronized"));
        QJsonObject pr = sync.value(QStringLiteral("pull_request")).toObject();
        pr.insert(QStringLiteral("head"), QJsonObject{{QStringLiteral("ref"), QStringLiteral("feature")},
                                                      {QStringLiteral("sha"), QStringLiteral("cccccccccccccccccccccccccccccccccccccccc")}});
        sync.insert(QStringLiteral("pull_request"), pr);
        in.event = QStringLiteral("pull_request_sync");
        in.payload = QJsonDocument(sync).toJson();
        const Result<EventAccepted> accepted = f.engine->events().accept(CancelToken(), in);
        QVERIFY(accepted);
        f.settle();
        QStringList seen = f.recorder.take();
        seen.removeAll(QStringLiteral("notificationCountChange"));
        QCOMPARE(seen, (QStringList{QStringLiteral("pullRequestSynchronized"), QStringLiteral("pullRequestPushCommits")}));
        const auto contents = [&] {
            std::lock_guard lock(catcher.mutex); // (the bus's thread writes them)
            return catcher.contents;
        };
        QCOMPARE(contents().size(), 1);
        const QJsonObject content = QJsonDocument::fromJson(contents().front().toUtf8()).object();
        QCOMPARE(content.value(QStringLiteral("is_force_push")).toBool(), false);
        QCOMPARE(content.value(QStringLiteral("commit_ids")).toArray(),
                 (QJsonArray{QStringLiteral("dddddddddddddddddddddddddddddddddddddddd"), QStringLiteral("cccccccccccccccccccccccccccccccccccccccc")}));
        QVERIFY2(f.event(accepted->id).error.isEmpty(), qPrintable(f.event(accepted->id).error));

        // GitHub lists a push's commits oldest first: the comment still has them oldest first.
        push.insert(QStringLiteral("after"), QStringLiteral("ffffffffffffffffffffffffffffffffffffffff"));
        QJsonArray oldestFirst;
        for (const char *id : {"eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "ffffffffffffffffffffffffffffffffffffffff"})
            oldestFirst.append(QJsonObject{{QStringLiteral("id"), QLatin1String(id)}, {QStringLiteral("message"), QStringLiteral("m")}});
        push.insert(QStringLiteral("commits"), oldestFirst);
        in.event = QStringLiteral("push");
        in.payload = QJsonDocument(push).toJson();
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        f.settle();
        pr.insert(QStringLiteral("head"), QJsonObject{{QStringLiteral("ref"), QStringLiteral("feature")},
                                                      {QStringLiteral("sha"), QStringLiteral("ffffffffffffffffffffffffffffffffffffffff")}});
        sync.insert(QStringLiteral("pull_request"), pr);
        in.event = QStringLiteral("pull_request_sync");
        in.payload = QJsonDocument(sync).toJson();
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        f.settle();
        QCOMPARE(contents().size(), 2);
        QCOMPARE(QJsonDocument::fromJson(contents().back().toUtf8()).object().value(QStringLiteral("commit_ids")).toArray(),
                 (QJsonArray{QStringLiteral("eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"), QStringLiteral("ffffffffffffffffffffffffffffffffffffffff")}));
    }

    // A source with a secret: a right signature needs no token, a wrong one is refused even with one.
    void signaturesAreChecked()
    {
        Fixture f("[event_source.gitea]\nSECRET = s3cret\n");
        const QByteArray payload = sample(QStringLiteral("gitea-push.json"));
        IncomingEvent in;
        in.source = QStringLiteral("gitea");
        in.event = QStringLiteral("push");
        in.payload = payload;
        in.giteaSignature = eventSignature("s3cret", payload);
        in.deliveryId = QStringLiteral("d-1");
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        in.giteaSignature.clear();
        in.hubSignature256 = "sha256=" + eventSignature("s3cret", payload).toUpper();  // hex in either case
        in.deliveryId = QStringLiteral("d-2");
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        in.hubSignature256 = "sha256=" + eventSignature("wrong", payload);
        in.byToken = true;
        in.deliveryId = QStringLiteral("d-3");
        const Result<EventAccepted> forged = f.engine->events().accept(CancelToken(), in);
        QCOMPARE(forged.status().code(), Status::Code::Unauthenticated);
        in.hubSignature256.clear();
        in.byToken = false;
        QCOMPARE(f.engine->events().accept(CancelToken(), in).status().code(), Status::Code::Unauthenticated);
        QCOMPARE(f.engine->events().list({})->total, qint64(2));
    }

    void aRepeatedDeliveryIsProcessedOnce()
    {
        Fixture f;
        const Result<EventAccepted> first =
            f.post(QStringLiteral("gitea-push.json"), QStringLiteral("push"), QStringLiteral("same"));
        QVERIFY(first);
        QVERIFY(!first->duplicate);
        f.settle();
        const Result<EventAccepted> again =
            f.post(QStringLiteral("gitea-push.json"), QStringLiteral("push"), QStringLiteral("same"));
        QVERIFY(again);
        QVERIFY(again->duplicate);
        QCOMPARE(again->id, first->id);
        QCOMPARE(again->traceId, first->traceId);
        f.settle();
        QCOMPARE(f.recorder.take(), QStringList{QStringLiteral("pushCommits")});
        QCOMPARE(f.engine->events().list({})->total, qint64(1));
    }

    // What a crash leaves behind is processed when the engine starts again, at once: a pending
    // row, a row held by an instance that is gone, by no one known, or by this data directory's
    // earlier run. A row held by a live instance is left to it — until it stops being live.
    void unfinishedEventsAreProcessedAfterARestart()
    {
        QTemporaryDir dir;
        QTemporaryDir otherData;
        QString earlierRun;
        {
            Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom({}, dir.path()));
            QVERIFY(engine);
            earlierRun = (*engine)->instanceId();
            (*engine)->shutdown();
        }
        // Another instance on the same store, live (its heartbeat is fresh), and the rows.
        DatabaseSettings database;
        database.path = dir.filePath(QStringLiteral("data/switchyard.db"));
        Result<std::unique_ptr<Store>> store = Store::open(CancelToken(), database);
        QVERIFY(store);
        Result<std::unique_ptr<InstanceRegistry>> alive = InstanceRegistry::start(**store, QStringLiteral("alive-instance"), otherData.path());
        QVERIFY(alive);
        const qint64 now = toStoreMs(QDateTime::currentDateTimeUtc());
        QVERIFY((*store)->write([&](SqlTransaction &tx) -> Status {
            const QString insert = QStringLiteral("INSERT INTO event (source, delivery_id, event, payload, received_ms, status, claimed_ms, claimed_by) "
                                                  "VALUES ('default', ?, 'push', ?, ?, ?, ?, ?)");
            for (const auto &[delivery, status, holder] :
                 {std::tuple{"pending", "pending", QString()}, std::tuple{"gone", "processing", QStringLiteral("gone-instance")},
                  std::tuple{"nobody", "processing", QString()}, std::tuple{"earlier", "processing", earlierRun},
                  std::tuple{"alive", "processing", QStringLiteral("alive-instance")}})
                if (Status s = tx.exec(insert, {QLatin1String(delivery), sample(QStringLiteral("gitea-push.json")), now, QLatin1String(status), now, holder})
                                   .status();
                    !s)
                    return s;
            return Status::ok();
        }));
        // The heartbeat and its recovery are left out of this test (the cron task is run by hand),
        // and heartbeats are judged only after an hour: the never-beating "alive" one stays live.
        const QByteArray slowHeartbeat = "[database]\nINSTANCE_HEARTBEAT = 30m\nINSTANCE_GRACE = 1h\n";
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom(slowHeartbeat, dir.path()));
        QVERIFY(engine);
        QVERIFY((*engine)->queues().flushAll(CancelToken(), 10s));
        const auto statuses = [&] {
            std::map<QString, QString> status;
            const std::vector<EventRecord> rows = (*engine)->events().list({})->rows;
            for (const EventRecord &r : rows)
                status[r.deliveryId] = r.status;
            return status;
        };
        std::map<QString, QString> status = statuses();
        for (const char *done : {"pending", "gone", "nobody", "earlier"})
            QVERIFY2(status[QLatin1String(done)] == QLatin1String("done"), done);
        QCOMPARE(status[QStringLiteral("alive")], QStringLiteral("processing"));

        // Once it stops, the cron task (or the next heartbeat) takes its event over.
        QVERIFY((*alive)->stop());
        QVERIFY((*engine)->cron().runNow(QStringLiteral("resume_unfinished_events"), QStringLiteral("test")));
        (*engine)->cron().waitIdle();
        QVERIFY2((*engine)->cron().task(QStringLiteral("resume_unfinished_events"))->message.endsWith(QLatin1String("1 taken over from instances no longer live")),
                 qPrintable((*engine)->cron().task(QStringLiteral("resume_unfinished_events"))->message));
        QVERIFY((*engine)->queues().flushAll(CancelToken(), 10s));
        for (const auto &[delivery, state] : statuses())
            QVERIFY2(state == QLatin1String("done"), qPrintable(delivery));
        (*engine)->shutdown();
    }

    // The store busy (another connection holds its write lock) is waited out by the worker that
    // holds the event: nothing is marked failed, nothing is dropped; it is processed once the
    // lock goes.
    void aBusyStoreIsWaitedOut()
    {
        EngineOptions options;
        options.storeOptions.busyTimeout = 20ms;
        options.storeOptions.writeAttempts = 1;
        QTemporaryDir dir;
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom({}, dir.path()), options);
        QVERIFY(engine);
        Recorder recorder;
        QVERIFY((*engine)->notifyBus().registerNotifier(QStringLiteral("recorder"), recorder));
        qint64 ingest = 0;
        for (const QueueStats &q : (*engine)->queues().list())
            if (q.name == QLatin1String("event_ingest"))
                ingest = q.qid;
        QVERIFY((*engine)->queues().pause(CancelToken(), ingest));
        IncomingEvent in;
        in.event = QStringLiteral("push");
        in.payload = sample(QStringLiteral("gitea-push.json"));
        in.byToken = true;
        const Result<EventAccepted> accepted = (*engine)->events().accept(CancelToken(), in);
        QVERIFY(accepted);

        QSqlDatabase lock = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
        lock.setDatabaseName(dir.filePath(QStringLiteral("data/switchyard.db")));
        QVERIFY(lock.open());
        QVERIFY(QSqlQuery(lock).exec(QStringLiteral("BEGIN IMMEDIATE"))); // the write lock, held
        (*engine)->queues().resume(ingest);
        // A worker holds the event and cannot claim it: it waits, holding it.
        QVERIFY(Test::eventually([&] {
            const Result<QueueStats> q = (*engine)->queues().stats(ingest);
            return q && q->activeWorkers > 0 && q->length == 0;
        }));
        QVERIFY(recorder.take().isEmpty());
        QSqlQuery(lock).exec(QStringLiteral("ROLLBACK"));
        lock.close();
        QVERIFY((*engine)->queues().flushAll(CancelToken(), 10s));
        QCOMPARE((*engine)->events().get(accepted->id)->status, QStringLiteral("done"));
        QCOMPARE(recorder.take(), QStringList{QStringLiteral("pushCommits")});
        (*engine)->shutdown();
        lock = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("locker"));
    }

    // A notifier that cannot finish (the store or its queue unavailable) gets the event again;
    // those that finished do not. When the instance stops first, the event goes back to pending
    // with the notifiers that finished, and the next run dispatches it only to the others.
    void aNotifierThatCannotFinishGetsTheEventAgainAlone()
    {
        class Flaky final : public NullNotifier
        {
        public:
            void pushCommits(const NotifyContext &c, const ForgeRepo &, const PushUpdate &) override
            {
                if (calls.fetch_add(1) < failures)
                    c.retryLater(Status::unavailable(QStringLiteral("probe: the store is full")));
            }
            std::atomic<int> calls{0};
            int failures = 0;
        };
        QTemporaryDir dir;
        EngineOptions options;
        options.queueTiming.unhandledBackoff = 10ms;
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom({}, dir.path()), options);
        QVERIFY(engine);
        Recorder recorder;
        Flaky flaky;
        flaky.failures = 2;
        QVERIFY((*engine)->notifyBus().registerNotifier(QStringLiteral("recorder"), recorder));
        QVERIFY((*engine)->notifyBus().registerNotifier(QStringLiteral("flaky"), flaky));
        IncomingEvent in;
        in.event = QStringLiteral("push");
        in.payload = sample(QStringLiteral("gitea-push.json"));
        in.byToken = true;
        Result<EventAccepted> accepted = (*engine)->events().accept(CancelToken(), in);
        QVERIFY(accepted);
        QVERIFY((*engine)->queues().flushAll(CancelToken(), 10s));
        QCOMPARE((*engine)->events().get(accepted->id)->status, QStringLiteral("done"));
        QCOMPARE(flaky.calls.load(), 3);
        QCOMPARE(recorder.take(), QStringList{QStringLiteral("pushCommits")}); // once, not three times

        // Now it never finishes: the stop gives the event back, remembering who had it.
        flaky.failures = 1000;
        in.deliveryId = QStringLiteral("second");
        accepted = (*engine)->events().accept(CancelToken(), in);
        QVERIFY(accepted);
        QVERIFY(Test::eventually([&] { return flaky.calls.load() > 4; }));
        (*engine)->shutdown();
        // Given back: pending, with every notifier but the flaky one recorded as finished.
        const QString notified = (*engine)->store().readValue<QString>([&](SqlTransaction &tx) -> Result<QString> {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT status || ' ' || notified FROM event WHERE id = ?"), {accepted->id});
            if (!q || !q->next())
                return Status::notFound(QStringLiteral("no event"));
            return q->value(0).toString();
        }).valueOr({});
        QVERIFY2(notified.startsWith(QLatin1String("pending ")) && notified.contains(QLatin1String("recorder"))
                     && notified.contains(QLatin1String("feed")) && !notified.contains(QLatin1String("flaky")),
                 qPrintable(notified));
        (*engine).reset();
        engine = Engine::start(CancelToken(), Test::configFrom({}, dir.path()));
        QVERIFY(engine);
        QVERIFY((*engine)->queues().flushAll(CancelToken(), 10s));
        const EventRecord second = *(*engine)->events().get(accepted->id);
        QCOMPARE(second.status, QStringLiteral("done"));
        QCOMPARE(recorder.take(), QStringList{QStringLiteral("pushCommits")}); // the first run's only
        const qint64 feedRows = (*engine)->store().readValue<qint64>([&](SqlTransaction &tx) {
            return tx.scalar(QStringLiteral("SELECT COUNT(*) FROM action WHERE trace_id = ?"), {second.traceId});
        }).valueOr(-1);
        QVERIFY(feedRows > 0);
        // The feed wrote its rows in the first run; the second run left the feed out.
        const qint64 distinctUsers = (*engine)->store().readValue<qint64>([&](SqlTransaction &tx) {
            return tx.scalar(QStringLiteral("SELECT COUNT(DISTINCT user_id) FROM action WHERE trace_id = ?"), {second.traceId});
        }).valueOr(-1);
        QCOMPARE(feedRows, distinctUsers);
        (*engine)->shutdown();
    }

    // One row per recipient rule: who has a notification after the event.
    void recipients_data()
    {
        addWorldColumns();
        const auto watch = watching;
        const Setup nothing = [](Fixture &) {
        };
        // Issue #1 opened by bob, mentioning @carol (known) and `@nobody` (in code).
        QTest::newRow("a repository watcher hears of a new issue; the author does not")
            << Setup(watch(QStringLiteral("alice"))) << "gitea-issues-opened.json"
            << "issues" << names({"alice", "carol"});
        QTest::newRow("a mention reaches a user who watches nothing") << nothing << "gitea-issues-opened.json"
                                                                      << "issues" << names({"carol"});
        QTest::newRow("a mute beats a mention") << Setup([](Fixture &f) {
            const qint64 userId0 = f.userId(QStringLiteral("carol"));
            const qint64 repoId1 = f.repoId(QStringLiteral("engine"));
            f.write([&](SqlTransaction &tx) { return ForgeDb::setMute(tx, userId0, repoId1, true); });
        }) << "gitea-issues-opened.json"
                                                << "issues" << QStringList();
        QTest::newRow("a watcher who muted hears nothing") << Setup([watch](Fixture &f) {
            watch(QStringLiteral("alice"))(f);
            const qint64 userId0 = f.userId(QStringLiteral("alice"));
            const qint64 repoId1 = f.repoId(QStringLiteral("engine"));
            f.write([&](SqlTransaction &tx) { return ForgeDb::setMute(tx, userId0, repoId1, true); });
        }) << "gitea-issues-opened.json"
                                                           << "issues" << names({"carol"});
        QTest::newRow("bots are skipped") << Setup([watch](Fixture &f) {
            f.seedUser(60, QStringLiteral("renovate"), true);
            watch(QStringLiteral("renovate"))(f);
        }) << "gitea-issues-opened.json"
                                          << "issues" << names({"carol"});
        QTest::newRow("a watcher without access to a private repository is skipped") << Setup([watch](Fixture &f) {
            watch(QStringLiteral("dave"))(f);
            f.privateRepo = true;
        }) << "gitea-issue-comment-created.json"
                                                                                     << "issue_comment"
                                                                                     << QStringList();
        QTest::newRow("a collaborator of a private repository is notified") << Setup([watch](Fixture &f) {
            watch(QStringLiteral("dave"))(f);
            f.privateRepo = true;
            const qint64 repoId0 = f.repoId(QStringLiteral("engine"));
            const qint64 userId1 = f.userId(QStringLiteral("dave"));
            f.write([&](SqlTransaction &tx) -> Status { return ForgeDb::setCollaborator(tx, repoId0, userId1, 1); });
        }) << "gitea-issue-comment-created.json"
                                                                            << "issue_comment" << names({"dave"});
        // An organisation's private repository: a member reads it only through a team that has it
        // (Gitea's team access); membership alone is not access.
        const auto orgMember = [watch](bool teamAccess) {
            return Setup([watch, teamAccess](Fixture &f) {
                watch(QStringLiteral("dave"))(f);
                f.privateRepo = true;
                f.orgRepo = true;
                f.seedUser(90, QStringLiteral("acme"));
                const qint64 acme = f.userId(QStringLiteral("acme"));
                const qint64 repo = f.repoId(QStringLiteral("engine"));
                const qint64 dave = f.userId(QStringLiteral("dave"));
                f.write([&](SqlTransaction &tx) { return ForgeDb::setOrgMember(tx, acme, dave, true); });
                if (teamAccess)
                    f.write([&](SqlTransaction &tx) { return ForgeDb::setTeamAccess(tx, repo, dave, 1); });
            });
        };
        // GitHub's member event keeps who collaborates on a repository (Gitea sends no such event).
        const auto collaborator = [](bool removedAgain) {
            return Setup([removedAgain](Fixture &f) {
                f.privateRepo = true;
                QJsonObject repository =
                    QJsonDocument::fromJson(sample(QStringLiteral("gitea-issue-comment-created.json"))).object().value(QStringLiteral("repository")).toObject();
                repository.insert(QStringLiteral("private"), true);
                for (const char *action : {"added", "removed"}) {
                    if (QLatin1String(action) == QLatin1String("removed") && !removedAgain)
                        break;
                    const QJsonObject payload{
                        {QStringLiteral("action"), QLatin1String(action)},
                        {QStringLiteral("member"), QJsonObject{{QStringLiteral("id"), 4}, {QStringLiteral("login"), QStringLiteral("dave")}}},
                        {QStringLiteral("changes"), QJsonObject{{QStringLiteral("permission"), QJsonObject{{QStringLiteral("to"), QStringLiteral("write")}}}}},
                        {QStringLiteral("repository"), repository},
                        {QStringLiteral("sender"), QJsonObject{{QStringLiteral("id"), 1}, {QStringLiteral("login"), QStringLiteral("alice")}}}};
                    IncomingEvent in;
                    in.event = QStringLiteral("member");
                    in.byToken = true;
                    in.payload = QJsonDocument(payload).toJson();
                    const Result<EventAccepted> accepted = f.engine->events().accept(CancelToken(), in);
                    QVERIFY2(accepted && accepted->ignored.isEmpty(), "a member event is kept, not ignored");
                    f.settle();
                    QCOMPARE(f.event(accepted->id).status, QStringLiteral("done"));
                }
            });
        };
        QTest::newRow("a collaborator GitHub's member event added hears of the private repository")
            << collaborator(false) << "gitea-issue-comment-created.json" << "issue_comment" << names({"dave"});
        QTest::newRow("a collaborator GitHub's member event removed again does not")
            << collaborator(true) << "gitea-issue-comment-created.json" << "issue_comment" << QStringList();
        QTest::newRow("an organisation member without team access to its private repository is skipped")
            << orgMember(false) << "gitea-issue-comment-created.json" << "issue_comment" << QStringList();
        QTest::newRow("an organisation member whose team has the private repository is notified")
            << orgMember(true) << "gitea-issue-comment-created.json" << "issue_comment" << names({"dave"});
        // Carol comments on bob's issue, mentioning @dave: bob takes part (the poster).
        QTest::newRow("a participant hears of a comment; a mention too")
            << nothing << "gitea-issue-comment-created.json"
            << "issue_comment" << names({"bob", "dave"});
        QTest::newRow("an explicit unwatcher is left out of the broadcast") << Setup([watch](Fixture &f) {
            watch(QStringLiteral("alice"))(f);
            const qint64 userId0 = f.userId(QStringLiteral("alice"));
            f.write([&](SqlTransaction &tx) {
                return tx
                    .exec(QStringLiteral(
                              "INSERT INTO issue_watch (user_id, issue_id, is_watching, created_unix, updated_unix) "
                              "SELECT ?, id, 0, 0, 0 FROM issue"),
                          {userId0})
                    .status();
            });
        }) << "gitea-issue-comment-created.json"
                                                                            << "issue_comment"
                                                                            << names({"bob", "dave"});
        QTest::newRow("an issue watcher who watches nothing else is notified") << Setup([](Fixture &f) {
            const qint64 userId0 = f.userId(QStringLiteral("alice"));
            f.write([&](SqlTransaction &tx) {
                return tx
                    .exec(QStringLiteral(
                              "INSERT INTO issue_watch (user_id, issue_id, is_watching, created_unix, updated_unix) "
                              "SELECT ?, id, 1, 0, 0 FROM issue"),
                          {userId0})
                    .status();
            });
        }) << "gitea-issue-comment-created.json"
                                                                               << "issue_comment"
                                                                               << names({"alice", "bob", "dave"});
        QTest::newRow("a watcher of pulls only does not hear of issues") << Setup([](Fixture &f) {
            const qint64 userId0 = f.userId(QStringLiteral("alice"));
            const qint64 repoId1 = f.repoId(QStringLiteral("engine"));
            f.write([&](SqlTransaction &tx) {
                return ForgeDb::setWatch(tx, userId0, repoId1, WatchMode::Normal, {false, true, true});
            });
        }) << "gitea-issues-opened.json"
                                                                         << "issues" << names({"carol"});
        // Dave opens pull #2 mentioning @carol: pull watchers ∪ participants − poster ∪ mentions.
        QTest::newRow("a new pull request reaches pull watchers and mentions")
            << Setup(watch(QStringLiteral("alice"))) << "gitea-pull-request-opened.json"
            << "pull_request" << names({"alice", "carol"});
    }
    void recipients()
    {
        QFETCH(Setup, setup);
        QFETCH(QString, file);
        QFETCH(QString, event);
        QFETCH(QStringList, expected);
        Fixture f;
        f.prepareWorld(file, QStringLiteral("notification"));
        setup(f);
        f.postSettled(file, event);
        QCOMPARE(f.notified(), expected);
    }

    // The feed notifier: one action row for the doer, the owner and each watcher who may read
    // the repository, with Gitea's op type ("login op" for each row, sorted).
    void feedRecordsWhatHappened_data()
    {
        addWorldColumns();
        const auto watch = watching;
        const Setup nothing = [](Fixture &) {
        };
        // Bob opens issue #1 in alice/engine; carol and dave are known.
        QTest::newRow("a new issue: the doer, the owner and a watcher")
            << Setup(watch(QStringLiteral("carol"))) << "gitea-issues-opened.json" << "issues"
            << names({"alice create_issue", "bob create_issue", "carol create_issue"});
        QTest::newRow("a watcher who cannot read a private repository sees nothing") << Setup([watch](Fixture &f) {
            watch(QStringLiteral("dave"))(f);
            f.privateRepo = true;
        }) << "gitea-issues-opened.json" << "issues" << names({"alice create_issue", "bob create_issue"});
        QTest::newRow("a collaborator watching a private repository sees the row") << Setup([watch](Fixture &f) {
            watch(QStringLiteral("dave"))(f);
            watch(QStringLiteral("carol"))(f);
            f.privateRepo = true;
            const qint64 repoId0 = f.repoId(QStringLiteral("engine"));
            const qint64 userId1 = f.userId(QStringLiteral("dave"));
            f.write([&](SqlTransaction &tx) -> Status { return ForgeDb::setCollaborator(tx, repoId0, userId1, 1); });
        }) << "gitea-issues-opened.json" << "issues" << names({"alice create_issue", "bob create_issue", "dave create_issue"});
        QTest::newRow("a watcher who is the doer gets one row") << Setup(watch(QStringLiteral("bob"))) << "gitea-issues-opened.json"
                                                                << "issues" << names({"alice create_issue", "bob create_issue"});
        QTest::newRow("a push to a branch") << nothing << "gitea-push.json" << "push" << names({"alice commit_repo", "bob commit_repo"});
        QTest::newRow("a created branch") << nothing << "gitea-create.json" << "create" << names({"alice commit_repo", "bob commit_repo"});
        QTest::newRow("a deleted branch") << nothing << "gitea-delete.json" << "delete" << names({"alice delete_branch", "bob delete_branch"});
        QTest::newRow("the owner publishes a release: one row, theirs")
            << nothing << "gitea-release-published.json" << "release" << names({"alice publish_release"});
        QTest::newRow("a comment on an issue") << Setup(watch(QStringLiteral("dave"))) << "gitea-issue-comment-created.json"
                                               << "issue_comment"
                                               << names({"alice comment_issue", "carol comment_issue", "dave comment_issue"});
    }
    void feedRecordsWhatHappened()
    {
        QFETCH(Setup, setup);
        QFETCH(QString, file);
        QFETCH(QString, event);
        QFETCH(QStringList, expected);
        Fixture f;
        f.prepareWorld(file, QStringLiteral("action"));
        setup(f);
        f.postSettled(file, event);
        qint64 total = 0;
        const Result<std::vector<ActionRow>> rows = f.engine->feed().list({}, &total);
        QVERIFY2(rows, qPrintable(rows.status().message()));
        QStringList seen;
        for (const ActionRow &row : *rows) {
            QVERIFY(!row.traceId.isEmpty());
            QCOMPARE(row.repo, QStringLiteral("alice/engine"));
            QCOMPARE(row.isPrivate, f.privateRepo);
            seen << row.user + u' ' + opName(row.opType);
        }
        seen.sort();
        QCOMPARE(seen, expected);
        QCOMPARE(total, qint64(expected.size()));
        if (event == QLatin1String("issues"))
            QVERIFY2(rows->front().content.startsWith(QStringLiteral("1|")), qPrintable(rows->front().content));
        if (event == QLatin1String("push")) {
            const QJsonObject content = QJsonDocument::fromJson(rows->front().content.toUtf8()).object();
            QVERIFY2(content.value(QStringLiteral("Commits")).toArray().size() > 0, qPrintable(rows->front().content));
            QCOMPARE(rows->front().refName, QStringLiteral("refs/heads/main"));
        }
        // Each user's feed holds their row only.
        ActionFilter alice;
        alice.userId = f.userId(QStringLiteral("alice"));
        QCOMPARE(f.engine->feed().list(alice, &total)->size(), std::size_t(1));
    }

    // The audit notifier: a repository's lifecycle lands in the audit table, with the forge's
    // doer and the event's trace id.
    void repositoryLifecycleIsAudited()
    {
        Fixture f;
        const Result<EventAccepted> created = f.post(QStringLiteral("gitea-repository-created.json"), QStringLiteral("repository"));
        QVERIFY2(created, qPrintable(created.status().message()));
        const Result<EventAccepted> forked = f.post(QStringLiteral("gitea-fork.json"), QStringLiteral("fork"));
        QVERIFY(forked);
        f.settle();
        QStringList rows;
        QVERIFY(f.engine->store().read([&](SqlTransaction &tx) -> Status {
            Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT actor, remote_addr, action, target, result, trace_id FROM audit ORDER BY id"));
            if (!q)
                return q.status();
            while (q->next())
                rows << QStringList{q->value(0).toString(), q->value(1).toString(), q->value(2).toString(), q->value(3).toString(),
                                    q->value(4).toString(), q->value(5).toString().isEmpty() ? QStringLiteral("no trace") : QStringLiteral("traced")}
                            .join(QStringLiteral(" | "));
            return Status::ok();
        }));
        QVERIFY2(rows.size() >= 2, qPrintable(rows.join(u'\n')));
        QCOMPARE(rows.at(0), QStringLiteral("alice (forge) | forge | repo.create | alice/engine | ok | traced"));
        QVERIFY2(rows.at(1).startsWith(QStringLiteral("bob (forge) | forge | repo.fork | ")) && rows.at(1).contains(QStringLiteral("forked from alice/engine")),
                 qPrintable(rows.at(1)));
        QCOMPARE(f.event(forked->id).traceId.isEmpty(), false);
    }

    // Content over 65 535 bytes: JSON becomes {}, text is cut on a character boundary.
    void feedContentIsBounded()
    {
        const QString big = QString(40000, QChar(0xe9)); // 80 000 bytes of UTF-8
        QCOMPARE(FeedNotifier::bounded(big, true), QStringLiteral("{}"));
        const QString cut = FeedNotifier::bounded(big, false);
        QVERIFY(cut.toUtf8().size() <= FeedNotifier::kMaxContentBytes);
        QVERIFY(cut.toUtf8().size() >= FeedNotifier::kMaxContentBytes - 1);
        QVERIFY(big.startsWith(cut));
        QCOMPARE(FeedNotifier::bounded(QStringLiteral("1|short"), false), QStringLiteral("1|short"));
    }

    // A work-in-progress pull spares repository watchers until its title says it is ready.
    void aWorkInProgressPullRequestWaitsForItsTitle()
    {
        Fixture f;
        QVERIFY(f.post(QStringLiteral("gitea-workflow-job.json"), QStringLiteral("workflow_job")));
        f.settle();
        const qint64 userId0 = f.userId(QStringLiteral("alice"));
        const qint64 repoId1 = f.repoId(QStringLiteral("engine"));
        f.write([&](SqlTransaction &tx) { return ForgeDb::setWatch(tx, userId0, repoId1, WatchMode::Normal); });
        QJsonObject payload =
            QJsonDocument::fromJson(sample(QStringLiteral("gitea-pull-request-merged.json"))).object();
        QJsonObject pull = payload.value(QStringLiteral("pull_request")).toObject();
        pull.insert(QStringLiteral("title"), QStringLiteral("WIP: Fix the stall"));
        pull.insert(QStringLiteral("state"), QStringLiteral("open"));
        pull.insert(QStringLiteral("merged"), false);
        payload.insert(QStringLiteral("pull_request"), pull);
        payload.insert(QStringLiteral("action"), QStringLiteral("reopened"));
        payload.insert(QStringLiteral("sender"), QJsonDocument::fromJson(sample(QStringLiteral("gitea-push.json")))
                                                     .object()
                                                     .value(QStringLiteral("sender")));  // bob
        IncomingEvent in;
        in.event = QStringLiteral("pull_request");
        in.byToken = true;
        in.payload = QJsonDocument(payload).toJson();
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        f.settle();
        QCOMPARE(f.notified(), QStringList{QStringLiteral("dave")});  // the poster takes part; the watcher waits
        pull.insert(QStringLiteral("title"), QStringLiteral("Fix the stall"));
        payload.insert(QStringLiteral("pull_request"), pull);
        payload.insert(QStringLiteral("action"), QStringLiteral("edited"));
        payload.insert(QStringLiteral("changes"),
                       QJsonObject{{QStringLiteral("title"),
                                    QJsonObject{{QStringLiteral("from"), QStringLiteral("WIP: Fix the stall")}}}});
        in.payload = QJsonDocument(payload).toJson();
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        f.settle();
        QCOMPARE(f.notified(), (QStringList{QStringLiteral("alice"), QStringLiteral("dave")}));
    }

    // An update makes the row unread; its comment moves only when it had been read. Status changes
    // tell the bus (and the user's topic) only when the unread count changed.
    void updatesAndStatusChanges()
    {
        Fixture f;
        QVERIFY(f.post(QStringLiteral("gitea-workflow-job.json"), QStringLiteral("workflow_job")));
        f.settle();
        f.seedUser(3, QStringLiteral("carol"));
        f.seedUser(4, QStringLiteral("dave"));
        QVERIFY(f.post(QStringLiteral("gitea-issues-opened.json"), QStringLiteral("issues")));  // carol is mentioned
        f.settle();
        const qint64 carol = f.userId(QStringLiteral("carol"));
        QCOMPARE(*f.engine->notifications().countUnread(carol), qint64(1));
        f.recorder.take();
        const std::unique_ptr<Subscription> topic = f.engine->broker().subscribe(userTopic(carol));

        NotificationRow row = f.engine->notifications().list({carol})->rows.at(0);
        QCOMPARE(row.status, NotificationStatus::Unread);
        QCOMPARE(row.commentId, qint64(0));
        QVERIFY(f.engine->notifications().setStatus(row.id, NotificationStatus::Pinned));
        QVERIFY(f.engine->notifications().setStatus(row.id, NotificationStatus::Pinned));  // no change: no count event
        QCOMPARE(f.recorder.take(), QStringList{QStringLiteral("notificationCountChange")});
        QCOMPARE(
            *topic->tryNext(),
            QByteArray("notification-count\n{\"count\":0,\"user_id\":%1}").replace("%1", QByteArray::number(carol)));
        QVERIFY(!topic->tryNext());

        // A comment mentioning carol again: her pinned row is unread again, the comment stays.
        QJsonObject payload =
            QJsonDocument::fromJson(sample(QStringLiteral("gitea-issue-comment-created.json"))).object();
        QJsonObject comment = payload.value(QStringLiteral("comment")).toObject();
        comment.insert(QStringLiteral("body"), QStringLiteral("@carol again"));
        comment.insert(QStringLiteral("user"),
                       payload.value(QStringLiteral("issue")).toObject().value(QStringLiteral("user")));
        payload.insert(QStringLiteral("comment"), comment);
        IncomingEvent in;
        in.event = QStringLiteral("issue_comment");
        in.byToken = true;
        in.payload = QJsonDocument(payload).toJson();
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        f.settle();
        row = f.engine->notifications().list({carol})->rows.at(0);
        QCOMPARE(row.status, NotificationStatus::Unread);
        QCOMPARE(row.commentId, qint64(0));

        // Read, then another comment: now the comment moves.
        QVERIFY(f.engine->notifications().setStatus(row.id, NotificationStatus::Read));
        comment.insert(QStringLiteral("id"), 901);
        payload.insert(QStringLiteral("comment"), comment);
        in.payload = QJsonDocument(payload).toJson();
        QVERIFY(f.engine->events().accept(CancelToken(), in));
        f.settle();
        row = f.engine->notifications().list({carol})->rows.at(0);
        QCOMPARE(row.status, NotificationStatus::Unread);
        QVERIFY(row.commentId > 0);
        QCOMPARE(f.engine->notifications().list({carol})->total, qint64(1));

        f.recorder.take();
        QCOMPARE(*f.engine->notifications().markAllRead(carol), qint64(1));
        QCOMPARE(*f.engine->notifications().markAllRead(carol), qint64(0));
        QCOMPARE(f.recorder.take(), QStringList{QStringLiteral("notificationCountChange")});
        QCOMPARE(*f.engine->notifications().countUnread(carol), qint64(0));
        QCOMPARE(f.engine->notifications().setStatus(424242, NotificationStatus::Read).status().code(),
                 Status::Code::NotFound);
    }

    // An email that is no mail address (RFC 5321 Mailbox) is stored as none — the user still
    // exists, and is not mailed at an address stored before — and the event says which field
    // it dropped and why, its control characters escaped.
    void anEmailThatIsNoMailAddressIsStoredAsNone()
    {
        struct PushCatcher final : NullNotifier
        {
            std::mutex mutex;
            std::vector<PushUpdate> pushes; // guarded by mutex
            void pushCommits(const NotifyContext &, const ForgeRepo &, const PushUpdate &push) override
            {
                std::lock_guard lock(mutex);
                pushes.push_back(push);
            }
        };
        PushCatcher catcher; // outlives the engine
        Fixture f;
        QVERIFY(f.engine->notifyBus().registerNotifier(QStringLiteral("push-catcher"), catcher));
        const auto emailOf = [&](const QString &login) {
            return f.engine->store()
                .readValue<QString>([&](SqlTransaction &tx) -> Result<QString> {
                    Result<std::vector<ForgeUser>> found = ForgeDb::usersByLogin(tx, QStringLiteral("default"), {login});
                    if (!found)
                        return found.status();
                    return found->empty() ? QStringLiteral("(no user)") : found->front().email;
                })
                .valueOr(QStringLiteral("(unreadable)"));
        };
        const Result<EventAccepted> first = f.post(QStringLiteral("gitea-issues-opened.json"), QStringLiteral("issues"), QStringLiteral("e-1"));
        QVERIFY(first);
        f.settle();
        QCOMPARE(emailOf(QStringLiteral("bob")), QStringLiteral("bob@example.com"));
        QCOMPARE(f.event(first->id).error, QString());

        // Bob's email now carries an SMTP command: the security review's injection.
        IncomingEvent forged;
        forged.event = QStringLiteral("issues");
        forged.deliveryId = QStringLiteral("e-2");
        forged.byToken = true;
        forged.payload = sample(QStringLiteral("gitea-issues-opened.json"))
                             .replace("\"bob@example.com\"", "\"bob@example.com\\r\\nRCPT TO:<victim@evil.test>\"")
                             .replace("\"alice@example.com\"", "\"Alice@B\u00fccher.example\"");
        const Result<EventAccepted> second = f.engine->events().accept(CancelToken(), forged);
        QVERIFY2(second, qPrintable(second.status().message()));
        f.settle();
        const EventRecord record = f.event(second->id);
        QCOMPARE(record.status, QStringLiteral("done"));
        QVERIFY2(record.error.contains(QLatin1String("user \"bob\" (id 2): email dropped: \"bob@example.com\\r\\nRCPT TO:<victim@evil.test>\" "
                                                     "is not a mail address: a control character (\\r) at character 16")),
                 qPrintable(record.error));
        QCOMPARE(record.error.count(QLatin1String("dropped")), 1); // bob is the sender and the poster: one note
        QVERIFY(!record.error.contains(u'\r') && !record.error.contains(u'\n'));
        QCOMPARE(emailOf(QStringLiteral("bob")), QString()); // forgotten, not kept from the first event
        QCOMPARE(emailOf(QStringLiteral("alice")), QStringLiteral("Alice@xn--bcher-kva.example")); // IDN: its ACE form
        QVERIFY(f.recorder.take().contains(QStringLiteral("newIssue"))); // the event itself goes on

        // A commit author's email with a space.
        IncomingEvent push;
        push.event = QStringLiteral("push");
        push.byToken = true;
        QByteArray payload = sample(QStringLiteral("gitea-push.json"));
        const qsizetype author = payload.indexOf("\"bob@example.com\"");
        payload.replace(author, qsizetype(strlen("\"bob@example.com\"")), "\"grace smith@example.com\"");
        push.payload = payload;
        const Result<EventAccepted> pushed = f.engine->events().accept(CancelToken(), push);
        QVERIFY(pushed);
        f.settle();
        const EventRecord pushRecord = f.event(pushed->id);
        QCOMPARE(pushRecord.status, QStringLiteral("done"));
        QVERIFY2(pushRecord.error.contains(QLatin1String("commits[0].author.email dropped: \"grace smith@example.com\" is not a mail address: "
                                                         "white space before @")),
                 qPrintable(pushRecord.error));
        std::lock_guard lock(catcher.mutex);
        QCOMPARE(catcher.pushes.size(), std::size_t(1));
        QCOMPARE(catcher.pushes.front().commits.at(0).authorEmail, QString());
        QCOMPARE(catcher.pushes.front().commits.at(0).authorName, QStringLiteral("Bob"));
    }

    void mentionsSkipCode()
    {
        QCOMPARE(ForgeDb::mentionedLogins(QStringLiteral(
                     "@alice and (@bob), not a@mail.com nor `@carol`\n```\n@dave\n```\n@Alice again @eve.")),
                 (QStringList{QStringLiteral("alice"), QStringLiteral("bob"), QStringLiteral("eve")}));
    }
};

QTEST_GUILESS_MAIN(TestEvents)
#include "tst_events.moc"
