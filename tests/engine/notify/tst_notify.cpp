// The notify bus: every event reaches every notifier in registration order; the gates drop
// pending-review comments and events whose required relations cannot be loaded; a notifier that
// throws does not keep the event from the others.
#include "engine/notify/notify.h"

#include <QTest>

#include <functional>
#include <stdexcept>

using namespace Switchyard;

using Call = std::function<void(Notifier &)>;
Q_DECLARE_METATYPE(Call)

namespace {

ForgeUser user(const QString &login)
{
    ForgeUser u;
    u.id = qHash(login) % 100000 + 1;
    u.login = login;
    return u;
}

// Arguments for any event, with the relations the gates want already loaded.
template<typename T>
T sample()
{
    return T{};
}
template<>
NotifyContext sample()
{
    return {user(QStringLiteral("doer")), QStringLiteral("trace-1")};
}
template<>
ForgePullRequest sample()
{
    ForgePullRequest pr;
    pr.id = 5;
    pr.issue = ForgeIssue{};
    pr.issue->poster = user(QStringLiteral("poster"));
    return pr;
}
template<>
ForgeReview sample()
{
    ForgeReview review;
    review.id = 6;
    review.type = ReviewType::Approve;
    review.reviewer = user(QStringLiteral("reviewer"));
    return review;
}
template<>
ForgeComment sample()
{
    ForgeComment comment;
    comment.id = 7;
    comment.poster = user(QStringLiteral("commenter"));
    return comment;
}
template<>
ForgeRelease sample()
{
    ForgeRelease release;
    release.id = 8;
    release.publisher = user(QStringLiteral("publisher"));
    release.repo = ForgeRepo{};
    return release;
}

template<typename... A>
Call callWithSamples(void (Notifier::*method)(A...))
{
    return [method](Notifier &n) { (n.*method)(sample<std::decay_t<A>>()...); };
}

// Logs "<name>:<event>" for every event, and what the gates loaded.
class Recorder final : public NullNotifier
{
public:
    Recorder(QString name, QStringList &log) : m_name(std::move(name)), m_log(log) {}
    int runs = 0;
    QStringList loaded; // logins of the relations the events carried
    Status run() override
    {
        ++runs;
        return Status::ok();
    }
#define RECORD(name, params, args)                                  \
    void name params override                                       \
    {                                                               \
        m_log << m_name + QLatin1Char(':') + QLatin1String(#name); \
        noteAll args;                                               \
    }
    SWITCHYARD_NOTIFY_EVENTS(RECORD, RECORD)
#undef RECORD

private:
    void note(const ForgePullRequest &pr)
    {
        if (pr.issue && pr.issue->poster)
            loaded << pr.issue->poster->login;
    }
    void note(const ForgeReview &review)
    {
        if (review.reviewer)
            loaded << review.reviewer->login;
    }
    void note(const ForgeComment &comment)
    {
        if (comment.poster)
            loaded << comment.poster->login;
    }
    void note(const ForgeRelease &release)
    {
        if (release.publisher)
            loaded << release.publisher->login;
    }
    template<typename T>
    void note(const T &)
    {
    }
    template<typename... A>
    void noteAll(const A &...args)
    {
        (note(args), ...);
    }
    const QString m_name;
    QStringList &m_log;
};

// Fills every relation with a user named "loaded", or fails.
class Loader final : public NotifyLoader
{
public:
    bool fail = false;
    int calls = 0;
    Status load()
    {
        ++calls;
        return fail ? Status::unavailable(QStringLiteral("sqlite3 database busy")) : Status::ok();
    }
    Status loadPullIssue(ForgePullRequest &pr) override
    {
        if (Status s = load(); !s)
            return s;
        pr.issue = ForgeIssue{};
        pr.issue->poster = user(QStringLiteral("loaded"));
        return Status::ok();
    }
    Status loadReviewer(ForgeReview &review) override
    {
        if (Status s = load(); !s)
            return s;
        review.reviewer = user(QStringLiteral("loaded"));
        return Status::ok();
    }
    Status loadCommentPoster(ForgeComment &comment) override
    {
        if (Status s = load(); !s)
            return s;
        comment.poster = user(QStringLiteral("loaded"));
        return Status::ok();
    }
    Status loadCommentReview(ForgeComment &comment) override
    {
        if (Status s = load(); !s)
            return s;
        comment.review = ForgeReview{comment.reviewId, 0, pendingReviews ? ReviewType::Pending : ReviewType::Comment, {}, {}, 0};
        return Status::ok();
    }
    Status loadReleaseAttributes(ForgeRelease &release) override
    {
        if (Status s = load(); !s)
            return s;
        release.publisher = user(QStringLiteral("loaded"));
        release.repo = ForgeRepo{};
        return Status::ok();
    }
    bool pendingReviews = false;
};

class Thrower final : public NullNotifier
{
public:
    void newIssue(const NotifyContext &, const ForgeIssue &, const std::vector<ForgeUser> &) override
    {
        throw std::runtime_error("feed table is gone");
    }
};

class FailsToStart final : public NullNotifier
{
public:
    Status run() override { return Status::unavailable(QStringLiteral("mail queue cannot open")); }
};

} // namespace

class tst_Notify : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyEventReachesEveryNotifierInOrder_data()
    {
        QTest::addColumn<Call>("call");
#define ROW(name, params, args) QTest::newRow(#name) << callWithSamples(&Notifier::name);
        SWITCHYARD_NOTIFY_EVENTS(ROW, ROW)
#undef ROW
    }
    void everyEventReachesEveryNotifierInOrder()
    {
        QFETCH(Call, call);
        QStringList log;
        Recorder first(QStringLiteral("webhook"), log), second(QStringLiteral("feed"), log);
        NotifyBus bus;
        QVERIFY(bus.registerNotifier(QStringLiteral("webhook"), first));
        QVERIFY(bus.registerNotifier(QStringLiteral("feed"), second));
        call(bus);
        const QString event = QString::fromLatin1(QTest::currentDataTag());
        QCOMPARE(log, (QStringList{QStringLiteral("webhook:") + event, QStringLiteral("feed:") + event}));
        QCOMPARE(bus.stats().delivered, qint64(1));
        QVERIFY(bus.stats().dropped.empty());
    }

    void pendingReviewCommentsAreNotBroadcast_data()
    {
        QTest::addColumn<Call>("call");
        QTest::addColumn<bool>("pending");
        QTest::addColumn<QString>("event");
        for (const bool pending : {true, false}) {
            ForgeComment comment = sample<ForgeComment>();
            comment.reviewId = 9;
            comment.review = ForgeReview{9, 0, pending ? ReviewType::Pending : ReviewType::Comment, {}, {}, 0};
            const char *kind = pending ? "pending" : "submitted";
            QTest::addRow("create, %s", kind) << Call([comment](Notifier &n) {
                n.createIssueComment(sample<NotifyContext>(), {}, {}, comment, {});
            }) << pending << QStringLiteral("createIssueComment");
            QTest::addRow("update, %s", kind) << Call([comment](Notifier &n) {
                n.updateComment(sample<NotifyContext>(), comment, QStringLiteral("old"));
            }) << pending << QStringLiteral("updateComment");
            QTest::addRow("delete, %s", kind) << Call([comment](Notifier &n) { n.deleteComment(sample<NotifyContext>(), comment); })
                                              << pending << QStringLiteral("deleteComment");
        }
    }
    void pendingReviewCommentsAreNotBroadcast()
    {
        QFETCH(Call, call);
        QFETCH(bool, pending);
        QFETCH(QString, event);
        QStringList log;
        Recorder recorder(QStringLiteral("uinotification"), log);
        NotifyBus bus;
        QVERIFY(bus.registerNotifier(QStringLiteral("uinotification"), recorder));
        call(bus);
        QCOMPARE(log, pending ? QStringList() : QStringList{QStringLiteral("uinotification:") + event});
        QCOMPARE(bus.stats().dropped[QStringLiteral("pending_review")], qint64(pending ? 1 : 0));
    }

    // A comment that names its review without carrying it: the bus loads the review to decide.
    void aCommentsReviewIsLoadedForTheGate()
    {
        QStringList log;
        Recorder recorder(QStringLiteral("feed"), log);
        Loader loader;
        NotifyBus bus(&loader);
        QVERIFY(bus.registerNotifier(QStringLiteral("feed"), recorder));
        ForgeComment comment = sample<ForgeComment>();
        comment.reviewId = 3;
        loader.pendingReviews = true;
        bus.updateComment(sample<NotifyContext>(), comment, QString());
        QVERIFY(log.isEmpty());
        loader.pendingReviews = false;
        bus.updateComment(sample<NotifyContext>(), comment, QString());
        QCOMPARE(log, QStringList{QStringLiteral("feed:updateComment")});
        QCOMPARE(loader.calls, 2);
    }

    // The four events whose relations every notifier needs: loaded once when missing, dropped
    // (and counted) when there is no loader or the load fails.
    void requiredRelationsAreLoadedOrTheEventIsDropped_data()
    {
        QTest::addColumn<Call>("call");
        QTest::addColumn<QString>("event");
        const NotifyContext c = sample<NotifyContext>();
        QTest::newRow("NewPullRequest: issue and poster")
            << Call([c](Notifier &n) { n.newPullRequest(c, ForgePullRequest{}, {}); }) << QStringLiteral("newPullRequest");
        QTest::newRow("NewPullRequest: poster only") << Call([c](Notifier &n) {
            ForgePullRequest pr;
            pr.issue = ForgeIssue{};
            n.newPullRequest(c, pr, {});
        }) << QStringLiteral("newPullRequest");
        QTest::newRow("PullRequestReview: reviewer")
            << Call([c](Notifier &n) { n.pullRequestReview(c, sample<ForgePullRequest>(), ForgeReview{}, {}, {}); })
            << QStringLiteral("pullRequestReview");
        QTest::newRow("PullRequestCodeComment: poster")
            << Call([c](Notifier &n) { n.pullRequestCodeComment(c, sample<ForgePullRequest>(), ForgeComment{}, {}); })
            << QStringLiteral("pullRequestCodeComment");
        QTest::newRow("NewRelease: publisher and repository")
            << Call([c](Notifier &n) { n.newRelease(c, ForgeRelease{}); }) << QStringLiteral("newRelease");
    }
    void requiredRelationsAreLoadedOrTheEventIsDropped()
    {
        QFETCH(Call, call);
        QFETCH(QString, event);
        {
            QStringList log;
            Recorder recorder(QStringLiteral("webhook"), log);
            NotifyBus bus; // no loader
            QVERIFY(bus.registerNotifier(QStringLiteral("webhook"), recorder));
            call(bus);
            QVERIFY(log.isEmpty());
            QCOMPARE(bus.stats().dropped[QStringLiteral("not_loaded")], qint64(1));
        }
        {
            QStringList log;
            Recorder recorder(QStringLiteral("webhook"), log);
            Loader loader;
            loader.fail = true;
            NotifyBus bus(&loader);
            QVERIFY(bus.registerNotifier(QStringLiteral("webhook"), recorder));
            call(bus);
            QVERIFY(log.isEmpty());
            QCOMPARE(bus.stats().dropped[QStringLiteral("load_failed")], qint64(1));
        }
        QStringList log;
        Recorder recorder(QStringLiteral("webhook"), log);
        Loader loader;
        NotifyBus bus(&loader);
        QVERIFY(bus.registerNotifier(QStringLiteral("webhook"), recorder));
        call(bus);
        QCOMPARE(log, QStringList{QStringLiteral("webhook:") + event});
        QVERIFY2(recorder.loaded.contains(QStringLiteral("loaded")), qPrintable(recorder.loaded.join(u',')));
        QCOMPARE(loader.calls, 1);
    }

    // Loaded already: the loader is not asked.
    void completeEventsAreNotReloaded()
    {
        QStringList log;
        Recorder recorder(QStringLiteral("feed"), log);
        Loader loader;
        NotifyBus bus(&loader);
        QVERIFY(bus.registerNotifier(QStringLiteral("feed"), recorder));
        bus.newPullRequest(sample<NotifyContext>(), sample<ForgePullRequest>(), {});
        bus.newRelease(sample<NotifyContext>(), sample<ForgeRelease>());
        QCOMPARE(loader.calls, 0);
        QCOMPARE(recorder.loaded, (QStringList{QStringLiteral("poster"), QStringLiteral("publisher")}));
    }

    void aThrowingNotifierIsCountedAndTheOthersStillRun()
    {
        QStringList log;
        Recorder before(QStringLiteral("webhook"), log), after(QStringLiteral("stream"), log);
        Thrower feed;
        NotifyBus bus;
        QVERIFY(bus.registerNotifier(QStringLiteral("webhook"), before));
        QVERIFY(bus.registerNotifier(QStringLiteral("feed"), feed));
        QVERIFY(bus.registerNotifier(QStringLiteral("stream"), after));
        QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(QStringLiteral("notifier feed threw on newIssue : feed table is gone")));
        bus.newIssue(sample<NotifyContext>(), ForgeIssue{}, {});
        QCOMPARE(log, (QStringList{QStringLiteral("webhook:newIssue"), QStringLiteral("stream:newIssue")}));
        QCOMPARE(bus.stats().failures[QStringLiteral("feed")], qint64(1));
        bus.newIssue(sample<NotifyContext>(), ForgeIssue{}, {});
        QCOMPARE(bus.stats().failures[QStringLiteral("feed")], qint64(2));
    }

    void registrationStartsTheNotifierAndRefusesOneThatCannotStart()
    {
        QStringList log;
        Recorder recorder(QStringLiteral("audit"), log);
        FailsToStart mail;
        NotifyBus bus;
        QVERIFY(bus.registerNotifier(QStringLiteral("audit"), recorder));
        QCOMPARE(recorder.runs, 1);
        const Status refused = bus.registerNotifier(QStringLiteral("mail"), mail);
        QVERIFY(!refused);
        QVERIFY2(refused.message().contains(QLatin1String("mail queue cannot open")), qPrintable(refused.message()));
        QCOMPARE(bus.registerNotifier(QStringLiteral("audit"), recorder).code(), Status::Code::InvalidArgument);
        QCOMPARE(recorder.runs, 1);
        QCOMPARE(bus.notifierNames(), QStringList{QStringLiteral("audit")});
        bus.notificationCountChange(42);
        QCOMPARE(log, QStringList{QStringLiteral("audit:notificationCountChange")});
    }
};

QTEST_GUILESS_MAIN(tst_Notify)
#include "tst_notify.moc"
