// The mail golden suite (#50): every kind of mail the mail notifier sends, for one fixed set of
// forge values, compared whole — every header and both bodies, as on the wire — with
// tests/golden/mail/<kind>.eml. Only what must vary is normalised: the Date and the MIME
// boundary. SWITCHYARD_UPDATE_GOLDEN=1 rewrites the golden files (read the diff, and check each
// changed line against Gitea's services/mailer and templates/mail, before committing them).
#include "mailfixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

#include <functional>

using namespace Switchyard;
using namespace Switchyard::Mail;

namespace {

QString goldenPath(const QString &kind)
{
    return QStringLiteral(SWITCHYARD_GOLDEN "/mail/%1.eml").arg(kind);
}

// The wire form with its Date and boundary named, not valued. (All ASCII: encoded headers,
// quoted-printable bodies.)
QByteArray normalised(const Message &m)
{
    QString mime = QString::fromLatin1(m.toMime());
    mime.replace(QRegularExpression(QStringLiteral("(?m)^Date: [^\r\n]*")), QStringLiteral("Date: <date>"));
    const QRegularExpressionMatch boundary = QRegularExpression(QStringLiteral("boundary=\"([^\"]+)\"")).match(mime);
    if (boundary.hasMatch())
        mime.replace(boundary.captured(1), QStringLiteral("<boundary>"));
    return mime.toLatin1();
}

// The first line where two messages differ, for the failure's text.
QString firstDifference(const QByteArray &expected, const QByteArray &actual)
{
    const QList<QByteArray> a = expected.split('\n'), b = actual.split('\n');
    for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
        const QByteArray x = i < a.size() ? a[i] : QByteArray("<end>"), y = i < b.size() ? b[i] : QByteArray("<end>");
        if (x != y)
            return QStringLiteral("line %1\n  golden: %2\n  now:    %3").arg(i + 1).arg(QString::fromUtf8(x.trimmed()), QString::fromUtf8(y.trimmed()));
    }
    return QStringLiteral("(same lines)");
}

// The forge: alice owns alice/engine and watches it; bob acts; carol reviews and is assigned;
// dave is mentioned; li reads Chinese and watches too. Issue #7 is alice's, pull #8 (feature →
// main) bob's.
struct Scene
{
    Fixture f;
    qint64 bob = f.user(QStringLiteral("bob"));
    qint64 carol = f.user(QStringLiteral("carol"));
    qint64 dave = f.user(QStringLiteral("dave"));
    qint64 li = f.user(QStringLiteral("li"), QStringLiteral("enabled"), QStringLiteral("zh-CN"));
    ForgeIssue issue = f.issue(7, f.alice);
    ForgeIssue pull = f.issue(8, bob, true, QStringLiteral("Refactor the engine"));
    ForgePullRequest pr;

    Scene()
    {
        f.watch(f.alice);
        f.watch(li);
        pr.id = pull.id;
        pr.issue = pull;
        pr.headBranch = QStringLiteral("feature");
        pr.baseBranch = QStringLiteral("main");
    }

    ForgeComment comment(const ForgeIssue &on, qint64 externalId, const QString &content)
    {
        ForgeComment c;
        c.externalId = externalId;
        c.issueId = on.id;
        c.content = content;
        c.htmlUrl = on.htmlUrl + QStringLiteral("#issuecomment-%1").arg(externalId);
        return c;
    }

    ForgeRepo repo()
    {
        return *f.engine->store().readValue<ForgeRepo>([&](SqlTransaction &tx) { return ForgeDb::repo(tx, f.repoId); });
    }

    // A submitted review stored with its code comment (the notifier reads those from the store).
    ForgeReview review(ReviewType type, qint64 externalId, const QString &content, bool withCodeComment)
    {
        ForgeReview r;
        r.type = type;
        r.reviewer = f.forgeUser(carol);
        r.issueId = pull.id;
        r.content = content;
        f.write([&](SqlTransaction &tx) -> Status {
            Result<ForgeReview> saved = ForgeDb::upsertReview(tx, QStringLiteral("default"), externalId, r);
            if (!saved)
                return saved.status();
            r = *saved;
            if (!withCodeComment)
                return Status::ok();
            ForgeComment code = comment(pull, externalId + 1, QStringLiteral("Use `std::optional` here."));
            code.poster = r.reviewer;
            code.reviewId = r.id;
            code.treePath = QStringLiteral("src/engine.cpp");
            code.line = 42;
            return ForgeDb::upsertComment(tx, QStringLiteral("default"), code.externalId, code).status();
        });
        return r;
    }

    void approve(ReviewType type, qint64 externalId, const QString &content, bool withCodeComment = false)
    {
        const ForgeReview r = review(type, externalId, content, withCodeComment);
        ForgeComment body;
        body.issueId = pull.id;
        body.content = content;
        body.reviewId = r.id;
        body.review = r;
        f.engine->notifyBus().pullRequestReview(f.as(carol), pr, r, body, {});
    }

    void push(const QByteArray &json)
    {
        ForgeComment c;
        c.issueId = pull.id;
        c.content = QString::fromUtf8(json);
        f.engine->notifyBus().pullRequestPushCommits(f.as(bob), pr, c);
    }
};

using Scenario = std::function<void(Scene &)>;

// Each kind: what happens, and whose message is kept (one recipient's; the others differ only
// in To and the recipient headers).
const std::map<QString, std::pair<Scenario, QString>> &scenarios()
{
    static const std::map<QString, std::pair<Scenario, QString>> all{
        {QStringLiteral("issue_new"), {[](Scene &s) { s.f.engine->notifyBus().newIssue(s.f.as(s.bob), s.issue, {}); }, QStringLiteral("alice")}},
        {QStringLiteral("issue_comment"),
         {[](Scene &s) {
              s.f.engine->notifyBus().createIssueComment(s.f.as(s.bob), {}, s.issue,
                                                         s.comment(s.issue, 7001, QStringLiteral("Looks like a **null** pointer; see `main.cpp` :eyes:")), {});
          },
          QStringLiteral("alice")}},
        // Chinese: the zh-CN catalogue, an RFC 2047 subject with an emoji, UTF-8 bodies.
        {QStringLiteral("issue_comment_zh"),
         {[](Scene &s) {
              const ForgeIssue issue = s.f.issue(9, s.f.alice, false, QStringLiteral("启动时崩溃 :bug:"));
              s.f.engine->notifyBus().createIssueComment(s.f.as(s.bob), {}, issue, s.comment(issue, 7009, QStringLiteral("已在 **main** 上修复。")), {});
          },
          QStringLiteral("li")}},
        {QStringLiteral("issue_mention"),
         {[](Scene &s) {
              s.f.engine->notifyBus().createIssueComment(s.f.as(s.bob), {}, s.issue, s.comment(s.issue, 7002, QStringLiteral("@dave can you look at this?")),
                                                         {s.f.forgeUser(s.dave)});
          },
          QStringLiteral("dave")}},
        {QStringLiteral("issue_closed"),
         {[](Scene &s) {
              s.f.engine->notifyBus().issueChangeStatus(s.f.as(s.bob), s.issue, s.comment(s.issue, 7003, QStringLiteral("Fixed in the next release.")), true);
          },
          QStringLiteral("alice")}},
        {QStringLiteral("issue_reopened"), {[](Scene &s) { s.f.engine->notifyBus().issueChangeStatus(s.f.as(s.bob), s.issue, {}, false); }, QStringLiteral("alice")}},
        {QStringLiteral("issue_assigned"),
         {[](Scene &s) { s.f.engine->notifyBus().issueChangeAssignee(s.f.as(s.bob), s.issue, s.f.forgeUser(s.carol), false, {}); }, QStringLiteral("carol")}},
        {QStringLiteral("pull_new"), {[](Scene &s) { s.f.engine->notifyBus().newPullRequest(s.f.as(s.bob), s.pr, {}); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_comment"),
         {[](Scene &s) {
              s.f.engine->notifyBus().createIssueComment(s.f.as(s.carol), {}, s.pull, s.comment(s.pull, 7004, QStringLiteral("Nice cleanup.")), {});
          },
          QStringLiteral("alice")}},
        {QStringLiteral("pull_review_approved"), {[](Scene &s) { s.approve(ReviewType::Approve, 8001, QStringLiteral("LGTM")); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_review_rejected"),
         {[](Scene &s) { s.approve(ReviewType::Reject, 8011, QStringLiteral("Please split this.")); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_review_comment"),
         {[](Scene &s) { s.approve(ReviewType::Comment, 8021, QStringLiteral("A few notes."), true); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_code_comment"),
         {[](Scene &s) {
              ForgeComment c = s.comment(s.pull, 7005, QStringLiteral("@alice is this right?"));
              c.poster = s.f.forgeUser(s.carol);
              c.treePath = QStringLiteral("src/engine.cpp");
              c.line = 12;
              s.f.engine->notifyBus().pullRequestCodeComment(s.f.as(s.carol), s.pr, c, {s.f.forgeUser(s.f.alice)});
          },
          QStringLiteral("alice")}},
        {QStringLiteral("pull_push"),
         {[](Scene &s) { s.push(R"({"is_force_push":false,"commit_ids":["1111111111aaaaaaaaaa","2222222222bbbbbbbbbb"]})"); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_force_push"),
         {[](Scene &s) { s.push(R"({"is_force_push":true,"commit_ids":["aaaaaaaaaa1111111111","bbbbbbbbbb2222222222"]})"); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_review_request"),
         {[](Scene &s) { s.f.engine->notifyBus().pullRequestReviewRequest(s.f.as(s.bob), s.pull, s.f.forgeUser(s.carol), true, {}); }, QStringLiteral("carol")}},
        {QStringLiteral("pull_ready_for_review"),
         {[](Scene &s) { s.f.engine->notifyBus().issueChangeTitle(s.f.as(s.bob), s.pull, QStringLiteral("WIP: Refactor the engine")); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_review_dismissed"),
         {[](Scene &s) {
              ForgeReview r;
              r.reviewer = s.f.forgeUser(s.carol);
              r.issueId = s.pull.id;
              r.type = ReviewType::Reject;
              s.f.engine->notifyBus().pullReviewDismiss(s.f.as(s.bob), r, {});
          },
          QStringLiteral("alice")}},
        {QStringLiteral("pull_merged"), {[](Scene &s) { s.f.engine->notifyBus().mergePullRequest(s.f.as(s.bob), s.pr); }, QStringLiteral("alice")}},
        {QStringLiteral("pull_auto_merged"), {[](Scene &s) { s.f.engine->notifyBus().autoMergePullRequest(s.f.as(s.bob), s.pr); }, QStringLiteral("alice")}},
        {QStringLiteral("release"),
         {[](Scene &s) {
              ForgeRelease release;
              release.repoId = s.f.repoId;
              release.tagName = QStringLiteral("v1.2.0");
              release.title = QStringLiteral("Spring");
              release.note = QStringLiteral("## Fixed\n\n- the crash on start (#7)\n- see [the notes](docs/notes.md)");
              release.publisher = s.f.forgeUser(s.bob);
              s.f.write([&](SqlTransaction &tx) -> Status {
                  Result<ForgeRelease> saved = ForgeDb::upsertRelease(tx, QStringLiteral("default"), 9001, release);
                  if (saved)
                      release = *saved;
                  return saved.status();
              });
              s.f.engine->notifyBus().newRelease(s.f.as(s.bob), release);
          },
          QStringLiteral("alice")}},
        {QStringLiteral("repo_transfer"),
         {[](Scene &s) { s.f.engine->notifyBus().repoPendingTransfer(s.f.as(s.f.alice), s.f.forgeUser(s.carol), s.repo()); }, QStringLiteral("carol")}},
        {QStringLiteral("actions_run_failed"),
         {[](Scene &s) {
              WorkflowRun run;
              run.id = 5501;
              run.name = QStringLiteral("CI");
              run.event = QStringLiteral("push");
              run.status = QStringLiteral("completed");
              run.conclusion = QStringLiteral("failure");
              run.headBranch = QStringLiteral("main");
              run.runNumber = 12;
              run.headSha = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
              run.path = QStringLiteral("ci.yml@refs/heads/main");
              run.htmlUrl = QStringLiteral("https://git.example.com/alice/engine/actions/runs/12");
              s.f.engine->notifyBus().workflowRunStatusUpdate(s.f.as(s.bob), s.repo(), run);
          },
          QStringLiteral("bob")}},
    };
    return all;
}

} // namespace

class tst_MailGolden : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyKindIsCovered()
    {
        // A kind added to the notifier without a golden file shows here: one per scenario, no strays.
        QStringList files = QDir(QStringLiteral(SWITCHYARD_GOLDEN "/mail")).entryList({QStringLiteral("*.eml")}, QDir::Files, QDir::Name);
        QStringList kinds;
        for (const auto &[kind, scenario] : scenarios())
            kinds << kind + QStringLiteral(".eml");
        if (!qEnvironmentVariableIsSet("SWITCHYARD_UPDATE_GOLDEN"))
            QCOMPARE(files, kinds);
    }

    void goldenMail_data()
    {
        QTest::addColumn<QString>("kind");
        for (const auto &[kind, scenario] : scenarios())
            QTest::newRow(qPrintable(kind)) << kind;
    }

    void goldenMail()
    {
        QFETCH(QString, kind);
        Scene scene; // a fresh forge each time: no kind depends on another's mail
        const auto &[happen, recipient] = scenarios().at(kind);
        happen(scene);
        const std::vector<Message> sent = scene.f.mailed();
        const auto it = std::find_if(sent.begin(), sent.end(), [&](const Message &m) { return m.toAddress == recipient + QStringLiteral("@example.com"); });
        QVERIFY2(it != sent.end(), qPrintable(QStringLiteral("%1: no mail to %2 (%3 sent)").arg(kind, recipient).arg(sent.size())));
        const QByteArray actual = normalised(*it);
        const QString golden = goldenPath(kind);
        if (qEnvironmentVariableIsSet("SWITCHYARD_UPDATE_GOLDEN")) {
            QDir().mkpath(QFileInfo(golden).path());
            QFile out(golden);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(actual);
            return;
        }
        QFile in(golden);
        QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(QStringLiteral("no golden file %1 (run with SWITCHYARD_UPDATE_GOLDEN=1)").arg(golden)));
        const QByteArray expected = in.readAll();
        if (expected != actual)
            QFAIL(qPrintable(QStringLiteral("%1 differs from its golden file at %2").arg(golden, firstDifference(expected, actual))));
    }
};

QTEST_GUILESS_MAIN(tst_MailGolden)
#include "tst_mailgolden.moc"
