// Webhooks: Gitea's 28 event types and how they group and fold (one row each), the events JSON
// and its three exclusive modes, branch filters, hook types and methods; secrets sealed at rest.
#include "engine/core/secretbox.h"
#include "engine/webhook/hookevents.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Webhook;

Q_DECLARE_METATYPE(HookEventType)

namespace {
// JSON written with single quotes (moc does not read raw string literals).
QByteArray quoted(const char *json)
{
    return QByteArray(json).replace('\'', '"');
}
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
