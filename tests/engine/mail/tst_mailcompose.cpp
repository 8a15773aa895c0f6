// The mail notifier with a recording sender: who gets mail for each event (seed 001 §12.5.2, one
// row per rule), which template and subject, the threading and filing headers, batches, the
// body limit, and a template that fails. The wire (SMTP, sendmail) is tst_mailsend's.
#include "mailfixture.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Mail;
using namespace std::chrono_literals;

namespace {

QStringList words(const char *list)
{
    return QString::fromLatin1(list).split(u' ', Qt::SkipEmptyParts);
}

} // namespace

class tst_MailCompose : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void registeredThirdOnlyWhenMailNotifies()
    {
        {
            Fixture f;
            const QStringList names = f.engine->notifyBus().notifierNames();
            QVERIFY(names.size() >= 3);
            QCOMPARE(names.at(2), QStringLiteral("mail"));
        }
        for (const QByteArray &off : {QByteArray("[service]\nENABLE_NOTIFY_MAIL = false\n"), QByteArray("[mailer]\nENABLED = false\n")}) {
            QTemporaryDir dir;
            const QByteArray ini = "[service]\nENABLE_NOTIFY_MAIL = true\n[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = f@example.com\n" + off;
            Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
            QVERIFY(e);
            QVERIFY(!(*e)->notifyBus().notifierNames().contains(QStringLiteral("mail")));
            QVERIFY(!(*e)->mailNotifier());
            (*e)->shutdown();
        }
    }

    // One row per rule of the recipient chain: a comment on alice's issue #7 by bob.
    void commentRecipients_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("poster, watcher, participant, assignee; not the doer") << "plain" << words("alice carol dave erin");
        QTest::newRow("the doer with andyourown hears it too") << "andyourown" << words("alice bob carol dave erin");
        QTest::newRow("a muter hears nothing, mentioned or not") << "mute" << words("alice dave erin");
        QTest::newRow("an unwatcher is out of the broadcast") << "unwatch" << words("alice dave erin");
        QTest::newRow("… but a mention reaches them") << "unwatch-mentioned" << words("alice carol dave erin");
        QTest::newRow("onmention: only when mentioned") << "onmention" << words("alice dave erin");
        QTest::newRow("onmention and mentioned") << "onmention-mentioned" << words("alice carol dave erin");
        QTest::newRow("disabled: never, not even a mention") << "disabled" << words("alice dave erin");
        QTest::newRow("an inactive user gets nothing") << "inactive" << words("alice dave erin");
        QTest::newRow("a user without an address gets nothing") << "no-email" << words("alice dave erin");
        QTest::newRow("private: a watcher who cannot read is out") << "private" << words("alice dave");
        QTest::newRow("private: a collaborator may read") << "private-collaborator" << words("alice carol dave");
        // An organisation's private repository (Gitea's team access): its owners and the members
        // whose teams have the repository read it; membership alone does not.
        QTest::newRow("org: a member without team access is out") << "org-member" << words("alice dave");
        QTest::newRow("org: a member whose team has the repository reads") << "org-team" << words("alice carol dave");
        QTest::newRow("org: team access ends with the membership") << "org-left" << words("alice dave");
        QTest::newRow("a watcher of pulls only hears nothing of issues") << "pulls-only" << words("alice dave erin");
    }
    void commentRecipients()
    {
        QFETCH(QString, rule);
        QFETCH(QStringList, expected);
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"), rule == QLatin1String("andyourown") ? QStringLiteral("andyourown") : QStringLiteral("enabled"));
        QString carolPref = QStringLiteral("enabled");
        if (rule.startsWith(QLatin1String("onmention")))
            carolPref = QStringLiteral("onmention");
        if (rule == QLatin1String("disabled"))
            carolPref = QStringLiteral("disabled");
        const qint64 carol = f.user(QStringLiteral("carol"), carolPref, {}, rule == QLatin1String("no-email") ? QString() : QStringLiteral("<login>"),
                                    rule != QLatin1String("inactive"));
        const qint64 dave = f.user(QStringLiteral("dave"));
        const qint64 erin = f.user(QStringLiteral("erin"));
        const ForgeIssue issue = f.issue(7, f.alice);
        f.watch(carol, rule == QLatin1String("pulls-only") ? WatchKinds{false, true, true} : WatchKinds{});
        f.sql(QStringLiteral("INSERT INTO issue_participant (issue_id, user_id) VALUES (?, ?)"), {issue.id, dave});
        f.sql(QStringLiteral("INSERT INTO issue_participant (issue_id, user_id) VALUES (?, ?)"), {issue.id, bob}); // the commenter
        f.sql(QStringLiteral("INSERT INTO issue_assignee (issue_id, user_id) VALUES (?, ?)"), {issue.id, erin});
        f.watch(erin);
        if (rule == QLatin1String("mute"))
            f.mute(carol);
        if (rule.startsWith(QLatin1String("unwatch")))
            f.write([&](SqlTransaction &tx) { return ForgeDb::setIssueWatch(tx, carol, issue.id, false); });
        if (rule.startsWith(QLatin1String("private"))) {
            f.sql(QStringLiteral("UPDATE repo SET is_private = 1 WHERE id = ?"), {f.repoId});
            f.write([&](SqlTransaction &tx) { return ForgeDb::setCollaborator(tx, f.repoId, dave, 1); });
            if (rule == QLatin1String("private-collaborator"))
                f.write([&](SqlTransaction &tx) { return ForgeDb::setCollaborator(tx, f.repoId, carol, 1); });
        }
        if (rule.startsWith(QLatin1String("org-"))) {
            // The repository moves to organisation acme, owned by alice (the poster).
            const qint64 acme = f.user(QStringLiteral("acme"));
            f.sql(QStringLiteral("UPDATE forge_user SET is_org = 1 WHERE id = ?"), {acme});
            f.sql(QStringLiteral("UPDATE repo SET is_private = 1, owner_id = ? WHERE id = ?"), {acme, f.repoId});
            f.write([&](SqlTransaction &tx) { return ForgeDb::setOrgMember(tx, acme, f.alice, true, true); });
            f.write([&](SqlTransaction &tx) { return ForgeDb::setCollaborator(tx, f.repoId, dave, 1); });
            f.write([&](SqlTransaction &tx) { return ForgeDb::setOrgMember(tx, acme, carol, true); });
            if (rule != QLatin1String("org-member"))
                f.write([&](SqlTransaction &tx) { return ForgeDb::setTeamAccess(tx, f.repoId, carol, 1); });
            if (rule == QLatin1String("org-left"))
                f.write([&](SqlTransaction &tx) { return ForgeDb::setOrgMember(tx, acme, carol, false); });
        }
        std::vector<ForgeUser> mentions;
        if (rule.endsWith(QLatin1String("mentioned")) || rule == QLatin1String("mute") || rule == QLatin1String("disabled"))
            mentions.push_back(f.forgeUser(carol));
        ForgeComment comment;
        comment.id = 55;
        comment.issueId = issue.id;
        comment.content = QStringLiteral("Same here, @carol.");
        comment.htmlUrl = issue.htmlUrl + QStringLiteral("#issuecomment-55");
        f.engine->notifyBus().createIssueComment(f.as(bob), {}, issue, comment, mentions);
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), expected);
        // One message per recipient, never several addresses.
        QSet<QString> seen;
        for (const Message &m : sent) {
            QVERIFY(!m.toAddress.contains(u','));
            QVERIFY(!seen.contains(m.toAddress));
            seen.insert(m.toAddress);
        }
    }

    void mentionsGetTheirOwnBatchAndReason()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const qint64 carol = f.user(QStringLiteral("carol"));
        const qint64 dave = f.user(QStringLiteral("dave"));
        f.watch(carol);
        f.watch(dave);
        const ForgeIssue issue = f.issue(7, f.alice);
        ForgeComment comment;
        comment.id = 9;
        comment.content = QStringLiteral("@carol look");
        f.engine->notifyBus().createIssueComment(f.as(bob), {}, issue, comment, {f.forgeUser(carol)});
        std::map<QString, QString> reasons;
        for (const Message &m : f.mailed()) {
            reasons[m.toAddress.section(u'@', 0, 0)] = m.header(QStringLiteral("X-Gitea-Reason"));
            QCOMPARE(m.header(QStringLiteral("X-GitHub-Reason")), m.header(QStringLiteral("X-Gitea-Reason")));
            if (m.toAddress.startsWith(QLatin1String("carol")))
                QVERIFY2(m.text.contains(QLatin1String("@bob mentioned you:")), qPrintable(m.text));
            else
                QVERIFY(!m.text.contains(QLatin1String("mentioned you")));
        }
        QCOMPARE(reasons, (std::map<QString, QString>{{QStringLiteral("alice"), QStringLiteral("author")},
                                                      {QStringLiteral("carol"), QStringLiteral("mention")},
                                                      {QStringLiteral("dave"), QStringLiteral("subscribed")}}));
    }

    void workInProgressPullsSpareRepositoryWatchers()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const qint64 carol = f.user(QStringLiteral("carol"));
        f.watch(carol);
        const ForgeIssue pull = f.issue(8, bob, true, QStringLiteral("WIP: new engine"));
        ForgePullRequest pr;
        pr.id = pull.id;
        pr.issue = pull;
        // Created: watchers hear of it even while it is a work in progress.
        f.engine->notifyBus().newPullRequest(f.as(bob), pr, {});
        QCOMPARE(Fixture::recipients(f.mailed()), words("carol"));
        // A comment on it: not the watchers.
        ForgeComment comment;
        comment.id = 3;
        comment.content = QStringLiteral("progress");
        f.engine->notifyBus().createIssueComment(f.as(f.alice), {}, pull, comment, {});
        QCOMPARE(Fixture::recipients(f.mailed()), words("bob"));
        // Ready for review: everyone, with the ready_for_review sentence.
        ForgeIssue ready = pull;
        ready.title = QStringLiteral("new engine");
        f.sql(QStringLiteral("UPDATE issue SET title = ?, is_wip = 0 WHERE id = ?"), {ready.title, pull.id});
        f.engine->notifyBus().issueChangeTitle(f.as(bob), ready, QStringLiteral("WIP: new engine"));
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), words("carol"));
        QVERIFY(sent.front().text.contains(QLatin1String("marked this pull request ready for review")));
        QVERIFY(sent.front().header(QStringLiteral("Message-ID")).contains(QRegularExpression(QStringLiteral("^<alice/engine/pulls/8/ready/[0-9a-f]{16}@git.example.com>$"))));
        // A title change that is not WIP → ready mails no one.
        f.engine->notifyBus().issueChangeTitle(f.as(bob), ready, QStringLiteral("engine"));
        QVERIFY(f.mailed().empty());
    }

    void autoMergeMailsTheDoerToo()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const ForgeIssue pull = f.issue(8, f.alice, true, QStringLiteral("Faster start"));
        f.sql(QStringLiteral("INSERT INTO issue_participant (issue_id, user_id) VALUES (?, ?)"), {pull.id, bob}); // scheduled it
        ForgePullRequest pr;
        pr.id = pull.id;
        f.engine->notifyBus().mergePullRequest(f.as(bob), pr);
        QCOMPARE(Fixture::recipients(f.mailed()), words("alice"));
        f.engine->notifyBus().autoMergePullRequest(f.as(bob), pr);
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), words("alice bob"));
        QVERIFY(sent.front().text.contains(QLatin1String("@bob merged #8 into main.")));
    }

    void assignmentsAndReviewRequestsGoToThatUserAlone()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const qint64 carol = f.user(QStringLiteral("carol"), QStringLiteral("onmention"));
        const qint64 dave = f.user(QStringLiteral("dave"), QStringLiteral("disabled"));
        f.watch(carol);
        const ForgeIssue issue = f.issue(7, f.alice);
        f.engine->notifyBus().issueChangeAssignee(f.as(bob), issue, f.forgeUser(carol), false, {});
        std::vector<Message> sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), words("carol"));
        QCOMPARE(sent.front().header(QStringLiteral("X-Gitea-Reason")), QStringLiteral("assign"));
        QCOMPARE(sent.front().subject, QStringLiteral("Re: [alice/engine] Crash on start (#7)"));
        QVERIFY(sent.front().text.contains(QLatin1String("@bob assigned you to issue #7 in repository alice/engine.")));
        // Not the doer assigning themself, not a removal, not someone who disabled mail.
        f.engine->notifyBus().issueChangeAssignee(f.as(carol), issue, f.forgeUser(carol), false, {});
        f.engine->notifyBus().issueChangeAssignee(f.as(bob), issue, f.forgeUser(carol), true, {});
        f.engine->notifyBus().issueChangeAssignee(f.as(bob), issue, f.forgeUser(dave), false, {});
        QVERIFY(f.mailed().empty());
        const ForgeIssue pull = f.issue(9, f.alice, true, QStringLiteral("Refactor"));
        f.engine->notifyBus().pullRequestReviewRequest(f.as(bob), pull, f.forgeUser(carol), true, {});
        sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), words("carol"));
        QCOMPARE(sent.front().header(QStringLiteral("X-Gitea-Reason")), QStringLiteral("review_requested"));
        QVERIFY(sent.front().text.contains(QLatin1String("asked you to review pull request #9")));
        f.engine->notifyBus().pullRequestReviewRequest(f.as(bob), pull, f.forgeUser(carol), false, {});
        QVERIFY(f.mailed().empty());
    }

    void releasesGoToReleaseWatchersButThePublisher()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const qint64 carol = f.user(QStringLiteral("carol"));
        const qint64 dave = f.user(QStringLiteral("dave"));
        const qint64 erin = f.user(QStringLiteral("erin"));
        f.watch(bob);
        f.watch(carol);
        f.watch(dave, WatchKinds{true, true, false}); // not releases
        f.watch(erin);
        f.mute(erin);
        ForgeRelease release;
        release.repoId = f.repoId;
        release.tagName = QStringLiteral("v1.2");
        release.title = QStringLiteral("Spring");
        release.note = QStringLiteral("See [the notes](docs/notes.md).");
        release.publisher = f.forgeUser(bob);
        f.write([&](SqlTransaction &tx) -> Status {
            Result<ForgeRelease> saved = ForgeDb::upsertRelease(tx, QStringLiteral("default"), 31, release);
            if (saved)
                release = *saved; // with its forge id, as the bus has it
            return saved.status();
        });
        f.engine->notifyBus().newRelease(f.as(bob), release);
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), words("carol"));
        const Message &m = sent.front();
        QCOMPARE(m.subject, QStringLiteral("v1.2 in alice/engine released"));
        QCOMPARE(m.header(QStringLiteral("Message-ID")), QStringLiteral("<alice/engine/releases/31@git.example.com>")); // the forge's id
        QVERIFY(release.id != 31);
        // Relative links made absolute against the repository.
        QVERIFY2(m.html.contains(QLatin1String("href=\"https://git.example.com/alice/engine/docs/notes.md\"")), qPrintable(m.html));
        // Drafts, pre-releases and bare tags mail no one.
        for (int kind = 0; kind < 3; ++kind) {
            ForgeRelease quiet = release;
            quiet.isDraft = kind == 0;
            quiet.isPrerelease = kind == 1;
            quiet.isTag = kind == 2;
            f.engine->notifyBus().newRelease(f.as(bob), quiet);
        }
        QVERIFY(f.mailed().empty());
    }

    void threadingAndFilingHeaders()
    {
        Fixture f("[mailer]\nSUBJECT_PREFIX = [Forge]\n[mailer.override_header]\nX-Team = platform, core\nList-Archive = <https://lists.example.com/>\n");
        const qint64 bob = f.user(QStringLiteral("bob"));
        const ForgeIssue issue = f.issue(7, f.alice);
        f.engine->notifyBus().newIssue(f.as(bob), issue, {});
        std::vector<Message> sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(1)); // alice, the poster (bob is the doer)
        const Message first = sent.front();
        QCOMPARE(first.subject, QStringLiteral("[Forge] [alice/engine] Crash on start (#7)"));
        QCOMPARE(first.header(QStringLiteral("Message-ID")), QStringLiteral("<alice/engine/issues/7@git.example.com>"));
        // Gitea names the thread on its first message too.
        QCOMPARE(first.header(QStringLiteral("In-Reply-To")), QStringLiteral("<alice/engine/issues/7@git.example.com>"));
        QCOMPARE(first.header(QStringLiteral("References")), QStringLiteral("<alice/engine/issues/7@git.example.com>"));
        QCOMPARE(first.header(QStringLiteral("X-Auto-Response-Suppress")), QStringLiteral("All"));
        QCOMPARE(first.fromName, QStringLiteral("Bob"));
        QCOMPARE(first.fromAddress, QStringLiteral("forge@example.com"));
        QCOMPARE(first.envelopeFrom, QStringLiteral("forge@example.com"));
        const std::map<QString, QString> expected{
            {QStringLiteral("List-ID"), QStringLiteral("alice/engine <engine.alice.git.example.com>")},
            {QStringLiteral("List-Archive"), QStringLiteral("<https://lists.example.com/>")}, // overridden
            {QStringLiteral("List-Unsubscribe"), QStringLiteral("<https://git.example.com/alice/engine/issues/7>")},
            {QStringLiteral("X-Mailer"), QStringLiteral("Switchyard")},
            {QStringLiteral("X-Gitea-Sender"), QStringLiteral("bob")},
            {QStringLiteral("X-Gitea-Recipient"), QStringLiteral("alice")},
            {QStringLiteral("X-Gitea-Recipient-Address"), QStringLiteral("alice@example.com")},
            {QStringLiteral("X-Gitea-Repository"), QStringLiteral("engine")},
            {QStringLiteral("X-Gitea-Repository-Path"), QStringLiteral("alice/engine")},
            {QStringLiteral("X-Gitea-Repository-Link"), QStringLiteral("https://git.example.com/alice/engine")},
            {QStringLiteral("X-Gitea-Issue-ID"), QStringLiteral("7")},
            {QStringLiteral("X-Gitea-Issue-Link"), QStringLiteral("https://git.example.com/alice/engine/issues/7")},
            {QStringLiteral("X-GitHub-Sender"), QStringLiteral("bob")},
            {QStringLiteral("X-GitHub-Recipient"), QStringLiteral("alice")},
            {QStringLiteral("X-GitHub-Recipient-Address"), QStringLiteral("alice@example.com")},
            {QStringLiteral("X-GitLab-NotificationReason"), QStringLiteral("author")},
            {QStringLiteral("X-GitLab-Project"), QStringLiteral("engine")},
            {QStringLiteral("X-GitLab-Project-Path"), QStringLiteral("alice/engine")},
            {QStringLiteral("X-GitLab-Issue-IID"), QStringLiteral("7")},
            {QStringLiteral("X-Switchyard-Trace"), QStringLiteral("trace-1")},
            {QStringLiteral("X-Team"), QStringLiteral("platform, core")},
        };
        for (const auto &[name, value] : expected)
            QCOMPARE(first.header(name), value);
        int archives = 0;
        for (const auto &[name, value] : first.headers)
            archives += name == QLatin1String("List-Archive");
        QCOMPARE(archives, 1); // replaced, not added
        QVERIFY(first.html.contains(QLatin1String("<p>It crashes.</p>")));

        // A follow-up threads under the issue and answers with Re:.
        ForgeComment comment;
        comment.id = 3;
        comment.externalId = 77; // the forge's id names the message, not the row's
        comment.content = QStringLiteral("Fixed :tada:");
        f.engine->notifyBus().issueChangeStatus(f.as(bob), issue, comment, true);
        sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(1));
        const Message &close = sent.front();
        QCOMPARE(close.subject, QStringLiteral("[Forge] Re: [alice/engine] Crash on start (#7)"));
        QCOMPARE(close.header(QStringLiteral("Message-ID")), QStringLiteral("<alice/engine/issues/7/comment/77@git.example.com>"));
        QCOMPARE(close.header(QStringLiteral("In-Reply-To")), QStringLiteral("<alice/engine/issues/7@git.example.com>"));
        QCOMPARE(close.header(QStringLiteral("References")), QStringLiteral("<alice/engine/issues/7@git.example.com>"));
        QVERIFY(close.text.contains(QLatin1String("@bob closed #7.")));
        // Reopens without a comment: two events are two messages to a mail client; the same
        // event dispatched again (its trace) is the same message.
        NotifyContext second = f.as(bob);
        second.traceId = QStringLiteral("trace-2");
        f.engine->notifyBus().issueChangeStatus(f.as(bob), issue, {}, false);
        f.engine->notifyBus().issueChangeStatus(second, issue, {}, false);
        f.engine->notifyBus().issueChangeStatus(f.as(bob), issue, {}, false);
        sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(3));
        QVERIFY(sent[0].header(QStringLiteral("Message-ID")).contains(QRegularExpression(QStringLiteral("^<alice/engine/issues/7/reopen/[0-9a-f]{16}@git.example.com>$"))));
        QVERIFY(sent[0].header(QStringLiteral("Message-ID")) != sent[1].header(QStringLiteral("Message-ID")));
        QCOMPARE(sent[0].header(QStringLiteral("Message-ID")), sent[2].header(QStringLiteral("Message-ID")));
    }

    void subjectsAreOneLineOf256RunesWithEmoji()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const QString title = QStringLiteral("启动时崩溃 :bug: ") + QString(300, u'x') + QStringLiteral("\nsecond line");
        const ForgeIssue issue = f.issue(7, f.alice, false, title);
        f.engine->notifyBus().newIssue(f.as(bob), issue, {});
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(1));
        const QString subject = sent.front().subject;
        QVERIFY(subject.startsWith(QStringLiteral("[alice/engine] 启动时崩溃 🐛 xxx")));
        QVERIFY(!subject.contains(u'\n'));
        // 256 runes, then :bug: became one (Gitea truncates before it replaces aliases).
        QCOMPARE(subject.toUcs4().size(), qsizetype(256 - 4));
    }

    void fromDisplayNameFollowsTheFormat()
    {
        Fixture f("[mailer]\nFROM_DISPLAY_NAME_FORMAT = {{ .DisplayName }} via {{AppName}} ({{Domain}})\n");
        const qint64 bob = f.user(QStringLiteral("bob"));
        f.engine->notifyBus().newIssue(f.as(bob), f.issue(7, f.alice), {});
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(sent.front().fromName, QStringLiteral("Bob via Forge (git.example.com)"));
    }

    void languagesMakeTheirOwnBatchesOfAHundred()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        // 150 English and 120 Chinese watchers, in one transaction.
        f.write([&](SqlTransaction &tx) -> Status {
            for (int i = 0; i < 270; ++i) {
                ForgeUser u;
                u.login = QStringLiteral("w%1").arg(i, 3, 10, QLatin1Char('0'));
                u.email = u.login + QStringLiteral("@example.com");
                u.language = i < 150 ? QStringLiteral("en-US") : QStringLiteral("zh_CN");
                Result<ForgeUser> saved = ForgeDb::upsertUser(tx, QStringLiteral("default"), 5000 + i, u);
                if (!saved)
                    return saved.status();
                if (Status s = ForgeDb::setWatch(tx, saved->id, f.repoId, WatchMode::Normal); !s)
                    return s;
            }
            return Status::ok();
        });
        f.engine->notifyBus().newIssue(f.as(bob), f.issue(7, f.alice), {});
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(271)); // the watchers and alice
        int chinese = 0;
        for (const Message &m : sent) {
            const bool zh = m.text.contains(QStringLiteral("在 Forge 上查看"));
            chinese += zh;
            QCOMPARE(zh, m.toAddress >= QLatin1String("w150") && m.toAddress.startsWith(u'w'));
        }
        QCOMPARE(chinese, 120);
        // Batches cut from the tail (Gitea): English alice + w000…w149 (151) → 51, then 100.
        QCOMPARE(sent[0].toAddress, QStringLiteral("w099@example.com"));
    }

    void aBodyOverNineMegabytesIsCutWithALink()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const ForgeIssue issue = f.issue(7, f.alice);
        ForgeComment comment;
        comment.id = 5;
        comment.htmlUrl = issue.htmlUrl + QStringLiteral("#issuecomment-5");
        comment.content = QString(9'500'000, u'a');
        f.engine->notifyBus().createIssueComment(f.as(bob), {}, issue, comment, {});
        const std::vector<Message> sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(1));
        QVERIFY(sent.front().text.size() < 9'100'000);
        QVERIFY(sent.front().text.contains(QLatin1String("cut at 9 MB; read the rest at https://git.example.com/alice/engine/issues/7#issuecomment-5")));
    }

    void aTemplateThatFailsIsCountedAndTheRestStillGoOut()
    {
        Fixture f({}, {{QStringLiteral("repo/issue/default"), QStringLiteral("---\n{{#unclosed}}")}});
        const qint64 bob = f.user(QStringLiteral("bob"));
        const qint64 carol = f.user(QStringLiteral("carol"));
        const ForgeIssue issue = f.issue(7, f.alice);
        f.engine->notifyBus().newIssue(f.as(bob), issue, {});
        QVERIFY(f.mailed().empty());
        const MailStats stats = f.engine->mail().stats();
        QCOMPARE(stats.failed, qint64(1));
        QVERIFY2(stats.lastError.contains(QLatin1String("repo/issue/default")), qPrintable(stats.lastError));
        QCOMPARE(f.engine->mailNotifier()->stats().failed, qint64(1));
        // Another template still works.
        f.engine->notifyBus().issueChangeAssignee(f.as(bob), issue, f.forgeUser(carol), false, {});
        QCOMPARE(Fixture::recipients(f.mailed()), words("carol"));
    }

    void plainTextOnlyWhenAsked()
    {
        Fixture f("[mailer]\nSEND_AS_PLAIN_TEXT = true\n");
        const qint64 bob = f.user(QStringLiteral("bob"));
        f.engine->notifyBus().newIssue(f.as(bob), f.issue(7, f.alice), {});
        const std::vector<Message> sent = f.mailed();
        QVERIFY(sent.front().html.isEmpty());
        QVERIFY(sent.front().text.contains(QLatin1String("It crashes.")));
        QVERIFY(!sent.front().toMime().contains("multipart"));
    }

    void pushesAndReviewsUseTheirSentences()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        const ForgeIssue pull = f.issue(8, f.alice, true, QStringLiteral("Refactor"));
        ForgePullRequest pr;
        pr.id = pull.id;
        pr.issue = pull;
        ForgeComment push;
        push.content = QStringLiteral(R"({"is_force_push":false,"commit_ids":["1111111111aa","2222222222bb"]})");
        f.engine->notifyBus().pullRequestPushCommits(f.as(bob), pr, push);
        std::vector<Message> sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(1));
        QVERIFY2(sent.front().text.contains(QLatin1String("@bob pushed 2 commits to feature")), qPrintable(sent.front().text));
        QVERIFY(sent.front().html.contains(QLatin1String("https://git.example.com/alice/engine/commit/1111111111aa")));
        push.content = QStringLiteral(R"({"is_force_push":true,"commit_ids":["aaaaaaaaaaaa","bbbbbbbbbbbb"]})");
        f.engine->notifyBus().pullRequestPushCommits(f.as(bob), pr, push);
        sent = f.mailed();
        QVERIFY(sent.front().text.contains(QLatin1String("bob force-pushed the feature from aaaaaaaaaa to bbbbbbbbbb.")));

        ForgeReview review;
        review.id = 0;
        review.type = ReviewType::Approve;
        review.reviewer = f.forgeUser(bob);
        review.issueId = pull.id;
        ForgeComment body;
        body.content = QStringLiteral("LGTM");
        body.review = review;
        f.engine->notifyBus().pullRequestReview(f.as(bob), pr, review, body, {});
        sent = f.mailed();
        QCOMPARE(sent.size(), std::size_t(1));
        QVERIFY(sent.front().text.contains(QLatin1String("@bob approved this pull request.")));
        review.type = ReviewType::Reject;
        body.review = review;
        f.engine->notifyBus().pullRequestReview(f.as(bob), pr, review, body, {});
        QVERIFY(f.mailed().front().text.contains(QLatin1String("@bob requested changes on this pull request.")));
    }

    void transfersAndFailedRunsGoToWhomTheyConcern()
    {
        Fixture f;
        const qint64 bob = f.user(QStringLiteral("bob"));
        ForgeRepo repo;
        repo.id = f.repoId;
        repo.name = QStringLiteral("engine");
        repo.owner = f.forgeUser(f.alice);
        f.engine->notifyBus().repoPendingTransfer(f.as(f.alice), f.forgeUser(bob), repo);
        std::vector<Message> sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), words("bob"));
        QCOMPARE(sent.front().subject, QStringLiteral("Alice would like to transfer \"alice/engine\" to you"));

        WorkflowRun run;
        run.id = 4;
        run.name = QStringLiteral("CI");
        run.runNumber = 12;
        run.headBranch = QStringLiteral("main");
        run.headSha = QStringLiteral("0123456789abcdef");
        run.path = QStringLiteral("ci.yml@refs/heads/main");
        run.status = QStringLiteral("completed");
        run.conclusion = QStringLiteral("success");
        f.engine->notifyBus().workflowRunStatusUpdate(f.as(bob), repo, run);
        QVERIFY(f.mailed().empty()); // Gitea's default: failures only
        run.conclusion = QStringLiteral("failure");
        f.engine->notifyBus().workflowRunStatusUpdate(f.as(bob), repo, run);
        sent = f.mailed();
        QCOMPARE(Fixture::recipients(sent), words("bob"));
        QCOMPARE(sent.front().subject, QStringLiteral("[alice/engine] Failure: ci.yml (main - 0123456789)"));
        QCOMPARE(sent.front().header(QStringLiteral("Message-ID")), QStringLiteral("<alice/engine/actions/runs/12@git.example.com>"));
        run.conclusion = QStringLiteral("cancelled"); // Gitea's "failure only": a cancelled run is none
        f.engine->notifyBus().workflowRunStatusUpdate(f.as(bob), repo, run);
        QVERIFY(f.mailed().empty());
    }

    void theQueueSurvivesARestart()
    {
        // Gitea keeps its mail queue in memory; ours is `level`: queued mail outlives the process.
        QTemporaryDir dir;
        const QByteArray ini = "[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = f@example.com\n";
        {
            Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()));
            QVERIFY(e);
            QCOMPARE((*e)->mail().queue()->stats().type, QStringLiteral("level"));
            QVERIFY((*e)->mail().queue()->pool().pause(CancelToken()));
            Message m = (*e)->mail().newMessage(QStringLiteral("test"), {});
            m.toAddress = QStringLiteral("kept@example.com");
            m.subject = QStringLiteral("kept");
            (*e)->mail().sendAsync({m});
            (*e)->shutdown();
        }
        auto box = std::make_shared<Outbox>();
        EngineOptions options;
        options.mailOptions.makeSender = [box] { return std::make_unique<RecordingSender>(box); };
        Result<std::unique_ptr<Engine>> again = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()), std::move(options));
        QVERIFY(again);
        QVERIFY((*again)->queues().flushAll(CancelToken(), 10s));
        const std::vector<Message> sent = box->take();
        QCOMPARE(sent.size(), std::size_t(1));
        QCOMPARE(sent.front().subject, QStringLiteral("kept"));
        (*again)->shutdown();
    }

    // The outbox: a mail is a row before it is a queue item. Queued twice under one key (an
    // event dispatched again), it is sent once; the queue pushing it twice (a restart's requeue
    // beside the LevelDB item) sends it once; a mail an instance that ended was sending is sent
    // again, with its interrupted attempt recorded; an item queued by a version without the
    // outbox is sent as it is.
    void theOutboxSendsEachMailOnce()
    {
        QTemporaryDir dir;
        const QByteArray ini = "[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = f@example.com\n"
                               "[database]\nINSTANCE_HEARTBEAT = 30m\nINSTANCE_GRACE = 1h\n"; // the test calls the recovery itself
        auto box = std::make_shared<Outbox>();
        EngineOptions options;
        options.mailOptions.makeSender = [box] { return std::make_unique<RecordingSender>(box); };
        Result<std::unique_ptr<Engine>> e = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()), std::move(options));
        QVERIFY(e);
        const auto mail = [&](const QString &to) {
            Message m = (*e)->mail().newMessage(QStringLiteral("test"), QStringLiteral("trace-outbox"));
            m.toAddress = to;
            m.subject = to;
            return m;
        };
        // Paused, so both calls find the rows pending: each queues both mails, each row sends once.
        QVERIFY((*e)->mail().queue()->pool().pause(CancelToken()));
        QVERIFY((*e)->mail().sendAsync({mail(QStringLiteral("a@example.com")), mail(QStringLiteral("b@example.com"))}, QStringLiteral("mail#0")));
        QVERIFY((*e)->mail().sendAsync({mail(QStringLiteral("a@example.com")), mail(QStringLiteral("b@example.com"))}, QStringLiteral("mail#0")));
        QCOMPARE((*e)->mail().queue()->stats().length, qint64(4));
        (*e)->mail().queue()->pool().resume();
        QVERIFY((*e)->queues().flushAll(CancelToken(), 10s));
        QCOMPARE(box->take().size(), std::size_t(2));
        QVERIFY((*e)->mail().sendAsync({mail(QStringLiteral("a@example.com"))}, QStringLiteral("mail#0"))); // sent: nothing again
        QVERIFY((*e)->mail().recover(CancelToken(), true)); // everything unsent queued again: nothing
        QVERIFY((*e)->queues().flushAll(CancelToken(), 10s));
        QCOMPARE(box->take().size(), std::size_t(0));

        // Claimed by an instance that is gone, never answered: taken over and sent again.
        Message lost = mail(QStringLiteral("lost@example.com"));
        QVERIFY((*e)->store().write([&](SqlTransaction &tx) {
            return tx.exec(QStringLiteral("INSERT INTO mail_outbox (uuid, message, to_address, created_ms, is_claimed, claimed_by, claimed_ms) "
                                          "VALUES ('lost-mail', ?, ?, 0, 1, 'gone-instance', 1)"),
                           {QString::fromUtf8(QJsonDocument(lost.toJson()).toJson()), lost.toAddress})
                .status();
        }));
        const Result<qint64> recovered = (*e)->mail().recover(CancelToken(), false);
        QVERIFY(recovered);
        QCOMPARE(*recovered, qint64(1));
        QVERIFY((*e)->queues().flushAll(CancelToken(), 10s));
        const std::vector<Message> again = box->take();
        QCOMPARE(again.size(), std::size_t(1));
        QCOMPARE(again.front().toAddress, QStringLiteral("lost@example.com"));
        const QString history = (*e)->store()
                                    .readValue<QString>([](SqlTransaction &tx) -> Result<QString> {
                                        Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT outcome || ' ' || interrupted FROM mail_outbox WHERE uuid = 'lost-mail'"));
                                        if (!q || !q->next())
                                            return Status::notFound(QStringLiteral("no row"));
                                        return q->value(0).toString();
                                    })
                                    .valueOr({});
        QVERIFY2(history.startsWith(QLatin1String("sent ")) && history.contains(QLatin1String("gone-instance")), qPrintable(history));

        // An item of a version without the outbox (no row): sent as it is.
        QVERIFY((*e)->mail().queue()->push(CancelToken(), mail(QStringLiteral("legacy@example.com"))));
        QVERIFY((*e)->queues().flushAll(CancelToken(), 10s));
        QCOMPARE(box->take().size(), std::size_t(1));
        (*e)->shutdown();
    }
};

QTEST_GUILESS_MAIN(tst_MailCompose)
#include "tst_mailcompose.moc"
