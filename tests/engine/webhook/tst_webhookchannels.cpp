// The chat channels: every event type a hook is sent (26), converted by each of the nine channels
// and pinned by golden files in tests/golden/webhook/channels/<type>/ — the inputs are the
// notifier's golden payloads (tests/golden/webhook/payloads) and, for the events the notifier has
// no sample of, Gitea-shaped payloads in tests/golden/webhook/channel-inputs. Then Gitea's own
// test expectations (services/webhook/*_test.go, on general_test.go's fixtures) checked directly,
// so a golden regeneration cannot accept a wrong sentence; and what a channel promises beyond
// Gitea: its size limits, and the events it refuses.
// SWITCHYARD_UPDATE_GOLDEN=1 rewrites the golden files (read the diff before committing them).
#include "engine/webhook/channels/channels.h"
#include "engine/webhook/channels/summary.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include "support/goldensamples.h"
#include "support/testutil.h"

#include <QJsonDocument>
#include <QTest>

#include <set>

using namespace Switchyard;
using namespace Switchyard::Webhook;

namespace {

using Test::readFile;

QString dataPath(const QString &relative)
{
    return QStringLiteral(SWITCHYARD_GOLDEN "/webhook/") + relative;
}

struct Sample
{
    QString name;  // the golden file's name
    QString input; // its file: payloads/… or channel-inputs/…
    HookEventType event;
};

// Every sample (tests/support/goldensamples.h), with the event its name says.
std::vector<Sample> samples()
{
    std::vector<Sample> list;
    const QMap<QString, QString> all = Test::webhookSamples(QStringLiteral(SWITCHYARD_GOLDEN));
    for (auto it = all.cbegin(); it != all.cend(); ++it)
        if (const std::optional<HookEventType> e = Test::eventOfSample(it.key()))
            list.push_back({it.key(), it.value(), *e});
    return list;
}

// The settings each channel is tested with.
QJsonObject metaFor(HookType type)
{
    switch (type) {
        case HookType::Slack:
            return {{QStringLiteral("channel"), QStringLiteral("#ops")}, {QStringLiteral("username"), QStringLiteral("forge")}};
        case HookType::Discord: return {{QStringLiteral("username"), QStringLiteral("forge")}};
        case HookType::Telegram: return {{QStringLiteral("chat_id"), QStringLiteral("-1001")}};
        case HookType::Packagist: return {{QStringLiteral("package_url"), QStringLiteral("https://git.example.com/alice/engine")}};
        default: return {};
    }
}

QJsonObject converted(HookType type, HookEventType event, const QByteArray &payload, const QJsonObject &meta = {})
{
    const Result<Channels::Message> m = Channels::convert(type, meta.isEmpty() ? metaFor(type) : meta, event, payload, QStringLiteral("d-1"));
    return m ? m->body : QJsonObject{{QStringLiteral("error"), m.status().message()}};
}

// JSON written with single quotes (moc does not read raw string literals inside the class).
QByteArray quoted(const char *json)
{
    return QByteArray(json).replace('\'', '"');
}

const QByteArray kIssue = quoted("{'action':'opened','number':3,'issue':{'number':3,'title':'a < b & c','body':'x <y>','html_url':'https://f.example/o/r/issues/3'},"
                                 "'repository':{'full_name':'o/r','html_url':'https://f.example/o/r'},'sender':{'login':'eve'}}");

// general_test.go's fixtures in the API's JSON. The sender's html_url gives Gitea's test AppURL
// (https://try.gitea.io/), as in Gitea's expected strings.
#define GITEA_REPO "'repository':{'html_url':'http://localhost:3000/test/repo','name':'repo','full_name':'test/repo'}"
#define GITEA_SENDER "'sender':{'login':'user1','avatar_url':'http://localhost:3000/user1/avatar','html_url':'https://try.gitea.io/user1'}"
#define GITEA_USER "{'login':'user1','avatar_url':'http://localhost:3000/user1/avatar'}"
#define GITEA_COMMIT                                                                                                                      \
    "{'id':'2020558fe2e34debb818a514715839cabd25e778','message':'commit message','url':'http://localhost:3000/test/repo/commit/" \
    "2020558fe2e34debb818a514715839cabd25e778','author':{'name':'user1','email':'user1@localhost','username':'user1'}," \
    "'committer':{'name':'user1','email':'user1@localhost','username':'user1'}}"

const QByteArray kGiteaPush = quoted("{'ref':'refs/heads/test','before':'2020558fe2e34debb818a514715839cabd25e777','after':"
                                     "'2020558fe2e34debb818a514715839cabd25e778','compare_url':'','head_commit':" GITEA_COMMIT ",'commits':[" GITEA_COMMIT
                                     "," GITEA_COMMIT "],'total_commits':2," GITEA_REPO ",'pusher':" GITEA_USER "," GITEA_SENDER "}");
const QByteArray kGiteaIssue = quoted("{'action':'opened','number':2," GITEA_SENDER "," GITEA_REPO ",'issue':{'id':2,'number':2,'url':"
                                      "'http://localhost:3000/api/v1/repos/test/repo/issues/2','html_url':'http://localhost:3000/test/repo/issues/2',"
                                      "'title':'crash','body':'issue body','user':" GITEA_USER ",'assignees':[" GITEA_USER "],'milestone':{'id':1,"
                                      "'title':'Milestone Title','description':'Milestone Description'}}}");
const QByteArray kGiteaPull = quoted("{'action':'opened','number':12," GITEA_SENDER "," GITEA_REPO ",'pull_request':{'id':12,'number':12,"
                                     "'url':'http://localhost:3000/test/repo/pulls/12','html_url':'http://localhost:3000/test/repo/pulls/12','title':"
                                     "'Fix bug','body':'fixes bug #2','mergeable':true,'user':" GITEA_USER ",'assignees':[" GITEA_USER "],"
                                     "'milestone':{'id':1,'title':'Milestone Title','description':'Milestone Description'}},'review':{'content':'good job'}}");
const QByteArray kGiteaWiki = quoted("{'action':'created'," GITEA_REPO "," GITEA_SENDER ",'page':'index','comment':'Wiki change comment'}");
const QByteArray kGiteaRelease = quoted("{'action':'published'," GITEA_SENDER "," GITEA_REPO ",'release':{'tag_name':'v1.0','target_commitish':'master',"
                                        "'name':'First stable release','body':'Note of first stable release','html_url':"
                                        "'http://localhost:3000/test/repo/releases/tag/v1.0'}}");
const QByteArray kGiteaPackage = quoted("{'action':'created'," GITEA_SENDER ",'repository':null,'organization':{'username':'org1','avatar_url':"
                                        "'http://localhost:3000/org1/avatar'},'package':{'owner':" GITEA_USER ",'repository':null,'creator':" GITEA_USER
                                        ",'type':'container','name':'GiteaContainer','version':'latest','html_url':"
                                        "'http://localhost:3000/user1/-/packages/container/GiteaContainer/latest'}}");

QJsonObject gitea(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

class tst_WebhookChannels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void goldenMessages_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("input");
        QTest::addColumn<int>("event");
        for (HookType type : everyHookType()) {
            if (!Channels::isChannel(type))
                continue;
            for (const Sample &s : samples())
                QTest::newRow(qPrintable(name(type) + u'/' + s.name)) << int(type) << s.name << s.input << int(s.event);
        }
    }
    void goldenMessages()
    {
        QFETCH(int, type);
        QFETCH(QString, sample);
        QFETCH(QString, input);
        QFETCH(int, event);
        const QByteArray payload = readFile(input);
        QVERIFY2(!payload.isEmpty(), qPrintable(input));
        const QJsonObject body = converted(HookType(type), HookEventType(event), payload);
        const QString golden = dataPath(QStringLiteral("channels/%1/%2.json").arg(name(HookType(type)), sample));
        if (qEnvironmentVariableIsSet("SWITCHYARD_UPDATE_GOLDEN")) {
            QDir().mkpath(QFileInfo(golden).path());
            QFile out(golden);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(QJsonDocument(body).toJson(QJsonDocument::Indented));
        }
        const QJsonObject expected = QJsonDocument::fromJson(readFile(golden)).object();
        QVERIFY2(!expected.isEmpty(), qPrintable(QStringLiteral("no golden file %1 (run with SWITCHYARD_UPDATE_GOLDEN=1)").arg(golden)));
        if (body != expected)
            QFAIL(qPrintable(QStringLiteral("%1 differs from its golden file:\n%2").arg(golden, QString::fromUtf8(QJsonDocument(body).toJson()))));
        // Every channel but packagist carries every event; packagist only the push.
        const bool refused = body.contains(QStringLiteral("error"));
        QCOMPARE(refused, HookType(type) == HookType::Packagist && HookEventType(event) != HookEventType::Push);
    }

    // The samples cover every event type a hook is sent.
    void everySentEventHasASample()
    {
        std::set<HookEventType> covered;
        for (const Sample &s : samples())
            covered.insert(s.event);
        for (HookEventType e : allEvents())
            QVERIFY2(covered.count(e), qPrintable(name(e)));
        QCOMPARE(allEvents().size(), size_t(26));
    }

    // Link syntax and escaping where the format has markup, on a title with < and &.
    void linksAndEscaping()
    {
        const QJsonObject slack = converted(HookType::Slack, HookEventType::Issues, kIssue);
        QCOMPARE(slack.value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<https://f.example/o/r|o/r>] Issue opened: <https://f.example/o/r/issues/3|#3 a &lt; b &amp; c> by <https://f.example/eve|eve>"));
        const QJsonObject attachment = slack.value(QStringLiteral("attachments")).toArray().at(0).toObject();
        QCOMPARE(attachment.value(QStringLiteral("text")).toString(), QStringLiteral("x &lt;y&gt;"));
        QCOMPARE(attachment.value(QStringLiteral("color")).toString(), QStringLiteral("eb6420")); // bare hex, as slack.go's %x

        const QJsonObject telegram = converted(HookType::Telegram, HookEventType::Issues, kIssue);
        QCOMPARE(telegram.value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<a href=\"https://f.example/o/r\" rel=\"nofollow\">o/r</a>] Issue opened: <a href=\"https://f.example/o/r/issues/3\" "
                                "rel=\"nofollow\">#3 a &lt; b &amp; c</a> by <a href=\"https://f.example/eve\" rel=\"nofollow\">eve</a>\n\nx &lt;y&gt;"));

        const QString wechat = converted(HookType::Wechatwork, HookEventType::Issues, kIssue).value(QStringLiteral("markdown")).toObject().value(QStringLiteral("content")).toString();
        QVERIFY2(wechat.startsWith(QLatin1String(" ><font color=\"info\">[o/r] Issue opened: #3 a < b & c by eve</font>")), qPrintable(wechat));

        const QJsonObject embed = converted(HookType::Discord, HookEventType::Issues, kIssue).value(QStringLiteral("embeds")).toArray().at(0).toObject();
        QCOMPARE(embed.value(QStringLiteral("title")).toString(), QStringLiteral("[o/r] Issue opened: #3 a < b & c"));
        QCOMPARE(embed.value(QStringLiteral("url")).toString(), QStringLiteral("https://f.example/o/r/issues/3"));
        QCOMPARE(embed.value(QStringLiteral("color")).toInt(), Channels::Colour::Orange);
    }

    // general_test.go's TestGetIssuesPayloadInfo and TestGetPullRequestPayloadInfo: every action's
    // sentence and colour.
    void issueAndPullSentences_data()
    {
        QTest::addColumn<bool>("pull");
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("colour");
        const struct
        {
            const char *action, *words;
            int issueColour, pullColour;
        } rows[] = {
            {"opened", "opened", Channels::Colour::Orange, Channels::Colour::Green},
            {"closed", "closed", Channels::Colour::Red, Channels::Colour::Red},
            {"reopened", "re-opened", Channels::Colour::Yellow, Channels::Colour::Yellow},
            {"edited", "edited", Channels::Colour::Yellow, Channels::Colour::Yellow},
            {"assigned", "assigned to user1", Channels::Colour::Green, Channels::Colour::Green},
            {"unassigned", "unassigned", Channels::Colour::Yellow, Channels::Colour::Yellow},
            {"label_updated", "labels updated", Channels::Colour::Yellow, Channels::Colour::Yellow},
            {"label_cleared", "labels cleared", Channels::Colour::Yellow, Channels::Colour::Yellow},
            {"synchronized", "synchronized", Channels::Colour::Yellow, Channels::Colour::Yellow},
            {"milestoned", "milestoned to Milestone Title", Channels::Colour::Yellow, Channels::Colour::Yellow},
            {"demilestoned", "milestone cleared", Channels::Colour::Yellow, Channels::Colour::Yellow},
        };
        for (const auto &r : rows) {
            QTest::newRow(qPrintable(QStringLiteral("issue %1").arg(QLatin1String(r.action))))
                << false << r.action << QStringLiteral("[test/repo] Issue %1: #2 crash by user1").arg(QLatin1String(r.words)) << r.issueColour;
            QTest::newRow(qPrintable(QStringLiteral("pull %1").arg(QLatin1String(r.action))))
                << true << r.action << QStringLiteral("[test/repo] Pull request %1: #12 Fix bug by user1").arg(QLatin1String(r.words)) << r.pullColour;
        }
    }
    void issueAndPullSentences()
    {
        QFETCH(bool, pull);
        QFETCH(QString, action);
        QFETCH(QString, text);
        QFETCH(int, colour);
        QJsonObject p = gitea(pull ? kGiteaPull : kGiteaIssue);
        p.insert(QStringLiteral("action"), action);
        const Channels::Info info = pull ? Channels::pullRequestInfo(p, Channels::noneLink, true) : Channels::issuesInfo(p, Channels::noneLink, true);
        QCOMPARE(info.text, text);
        QCOMPARE(info.colour, colour);
    }

    // Gitea's converter tests (slack_test.go, telegram_test.go, discord_test.go, msteams_test.go,
    // dingtalk_test.go, feishu_test.go, matrix_test.go) on general_test.go's fixtures.
    void giteaExpectations()
    {
        const QJsonObject slackPush = converted(HookType::Slack, HookEventType::Push, kGiteaPush);
        QCOMPARE(slackPush.value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<http://localhost:3000/test/repo|test/repo>:<http://localhost:3000/test/repo/src/branch/test|test>] 2 new commits pushed by user1"));
        QJsonObject review = gitea(kGiteaPull);
        review.insert(QStringLiteral("action"), QStringLiteral("reviewed"));
        const QByteArray reviewed = QJsonDocument(review).toJson();
        QCOMPARE(converted(HookType::Slack, HookEventType::PullRequestReviewApproved, reviewed).value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<http://localhost:3000/test/repo|test/repo>] Pull request review approved: [#12 Fix bug](http://localhost:3000/test/repo/pulls/12) "
                                "by <https://try.gitea.io/user1|user1>"));
        QCOMPARE(converted(HookType::Slack, HookEventType::Package, kGiteaPackage).value(QStringLiteral("text")).toString(),
                 QStringLiteral("Package created: <http://localhost:3000/user1/-/packages/container/GiteaContainer/latest|GiteaContainer:latest> by "
                                "<https://try.gitea.io/user1|user1>"));

        const QString commitLink = QStringLiteral("<a href=\"http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778\" rel=\"nofollow\">2020558</a>");
        QCOMPARE(converted(HookType::Telegram, HookEventType::Push, kGiteaPush).value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<a href=\"http://localhost:3000/test/repo\" rel=\"nofollow\">test/repo</a>:<a href=\"http://localhost:3000/test/repo/src/test\" "
                                "rel=\"nofollow\">test</a>] 2 new commits\n[%1] commit message - user1\n[%1] commit message - user1")
                     .arg(commitLink));
        QCOMPARE(converted(HookType::Telegram, HookEventType::Wiki, kGiteaWiki).value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<a href=\"http://localhost:3000/test/repo\" rel=\"nofollow\">test/repo</a>] New wiki page &#39;<a "
                                "href=\"http://localhost:3000/test/repo/wiki/index\" rel=\"nofollow\">index</a>&#39; (Wiki change comment) by <a "
                                "href=\"https://try.gitea.io/user1\" rel=\"nofollow\">user1</a>"));

        const QJsonObject embed =
            converted(HookType::Discord, HookEventType::PullRequestReviewRejected, reviewed).value(QStringLiteral("embeds")).toArray().at(0).toObject();
        QCOMPARE(embed.value(QStringLiteral("title")).toString(), QStringLiteral("[test/repo] Pull request review rejected: #12 Fix bug"));
        QCOMPARE(embed.value(QStringLiteral("description")).toString(), QStringLiteral("good job"));
        QCOMPARE(embed.value(QStringLiteral("color")).toInt(), 0xff3232);
        QCOMPARE(embed.value(QStringLiteral("author")).toObject().value(QStringLiteral("icon_url")).toString(), QStringLiteral("http://localhost:3000/user1/avatar"));

        const QJsonObject teams = converted(HookType::Msteams, HookEventType::Release, kGiteaRelease);
        QCOMPARE(teams.value(QStringLiteral("title")).toString(), QStringLiteral("[test/repo] Release created: v1.0"));
        QCOMPARE(teams.value(QStringLiteral("themeColor")).toString(), QStringLiteral("1ac600"));
        const QJsonArray facts = teams.value(QStringLiteral("sections")).toArray().at(0).toObject().value(QStringLiteral("facts")).toArray();
        QCOMPARE(facts.size(), 2);
        QCOMPARE(facts.at(1).toObject().value(QStringLiteral("value")).toString(), QStringLiteral("v1.0"));
        QCOMPARE(teams.value(QStringLiteral("potentialAction")).toArray().at(0).toObject().value(QStringLiteral("targets")).toArray().at(0).toObject().value(
                     QStringLiteral("uri")).toString(),
                 QStringLiteral("http://localhost:3000/test/repo/releases/tag/v1.0"));

    }

    // The same for DingTalk's card, Feishu's text and Matrix's message.
    void giteaExpectationsCardsAndRooms()
    {
        QJsonObject opened = gitea(kGiteaIssue);
        opened.insert(QStringLiteral("action"), QStringLiteral("opened"));
        const QByteArray issueOpened = QJsonDocument(opened).toJson();
        const QJsonObject card = converted(HookType::Dingtalk, HookEventType::Issues, issueOpened).value(QStringLiteral("actionCard")).toObject();
        QCOMPARE(card.value(QStringLiteral("title")).toString(), QStringLiteral("#2 crash"));
        QCOMPARE(card.value(QStringLiteral("text")).toString(), QStringLiteral("[test/repo] Issue opened: #2 crash by user1\r\n\r\nissue body"));
        QCOMPARE(card.value(QStringLiteral("singleTitle")).toString(), QStringLiteral("view issue"));
        QCOMPARE(card.value(QStringLiteral("singleURL")).toString(),
                 QStringLiteral("dingtalk://dingtalkclient/page/link?pc_slide=false&url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fissues%2F2"));

        QCOMPARE(converted(HookType::Feishu, HookEventType::Issues, issueOpened).value(QStringLiteral("content")).toObject().value(QStringLiteral("text")).toString(),
                 QStringLiteral("[Issue-test/repo #2]: opened\ncrash\nhttp://localhost:3000/test/repo/issues/2\nIssue by user1\nOperator: user1\n"
                                "Assignees: user1\n\nissue body"));

        const QJsonObject matrix = converted(HookType::Matrix, HookEventType::Push, kGiteaPush);
        const QString commit = QStringLiteral("[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778): commit message - user1");
        QCOMPARE(matrix.value(QStringLiteral("body")).toString(),
                 QStringLiteral("[[test/repo](http://localhost:3000/test/repo)] user1 pushed 2 commits to [test](http://localhost:3000/test/repo/src/branch/test):\n%1\n%1")
                     .arg(commit));
        QCOMPARE(matrix.value(QStringLiteral("io.gitea.commits")).toArray().size(), 2);
    }

    // What cannot be converted is an error the delivery records, never a message with holes.
    void whatCannotBeSentIsAnError()
    {
        for (HookEventType never : {HookEventType::Schedule, HookEventType::PullRequestReview}) {
            const Result<Channels::Message> m = Channels::convert(HookType::Slack, metaFor(HookType::Slack), never, kIssue, QStringLiteral("d"));
            QVERIFY(!m);
            QVERIFY2(m.status().message().contains(name(never)), qPrintable(m.status().message()));
        }
        const Result<Channels::Message> broken = Channels::convert(HookType::Discord, {}, HookEventType::Push, "{not json", QStringLiteral("d"));
        QVERIFY(!broken);
        QVERIFY2(broken.status().message().contains(QLatin1String("not a JSON object")), qPrintable(broken.status().message()));
        const Result<Channels::Message> gitea = Channels::convert(HookType::Gitea, {}, HookEventType::Push, kIssue, QStringLiteral("d"));
        QVERIFY(!gitea);
    }

    // Matrix: PUT to the room with the delivery id (percent-encoded) as transaction id; m.text
    // when meta asks for it.
    void matrixUsesTheDeliveryIdAsTransaction()
    {
        const Result<Channels::Message> m = Channels::convert(HookType::Matrix, {{QStringLiteral("message_type"), 2}}, HookEventType::Issues, kIssue,
                                                              QStringLiteral("a/b c"));
        QVERIFY(m);
        QCOMPARE(m->method, QStringLiteral("PUT"));
        QCOMPARE(m->urlSuffix, QStringLiteral("/a%2Fb%20c"));
        QCOMPARE(m->body.value(QStringLiteral("msgtype")).toString(), QStringLiteral("m.text"));
        QVERIFY(m->body.value(QStringLiteral("formatted_body")).toString().contains(QLatin1String("<a href=\"https://f.example/o/r/issues/3\">#3 a &lt; b &amp; c</a>")));
        QVERIFY(m->body.value(QStringLiteral("body")).toString().contains(QLatin1String("[#3 a &lt; b &amp; c](https://f.example/o/r/issues/3)")));
        QVERIFY(Channels::validateUrl(HookType::Matrix, QStringLiteral("https://m.example/_matrix/client/v3/rooms/!a:m.example/send/m.room.message")));
        QCOMPARE(Channels::validateUrl(HookType::Matrix, QStringLiteral("https://m.example/hook")).field(), QStringLiteral("url"));
    }

    // The channels' size limits: Discord's title (256) and description (4096), Telegram's 4096
    // characters, WeCom's 4096 bytes of UTF-8.
    void limitsAreKept()
    {
        QJsonObject p = QJsonDocument::fromJson(kIssue).object();
        QJsonObject issue = p.value(QStringLiteral("issue")).toObject();
        issue.insert(QStringLiteral("title"), QString(1000, u'T'));
        issue.insert(QStringLiteral("body"), QString(10000, QChar(0x00e9))); // é: 2 bytes in UTF-8
        p.insert(QStringLiteral("issue"), issue);
        const QByteArray big = QJsonDocument(p).toJson(QJsonDocument::Compact);
        const QJsonObject embed = converted(HookType::Discord, HookEventType::Issues, big).value(QStringLiteral("embeds")).toArray().at(0).toObject();
        QCOMPARE(embed.value(QStringLiteral("title")).toString().size(), 256);
        QCOMPARE(embed.value(QStringLiteral("description")).toString().size(), 4096);
        QVERIFY(embed.value(QStringLiteral("title")).toString().endsWith(QChar(0x2026)));
        QCOMPARE(converted(HookType::Telegram, HookEventType::Issues, big).value(QStringLiteral("text")).toString().size(), 4096);
        const QString content = converted(HookType::Wechatwork, HookEventType::Issues, big).value(QStringLiteral("markdown")).toObject().value(QStringLiteral("content")).toString();
        QVERIFY(content.toUtf8().size() <= 4096);
        QVERIFY(content.toUtf8().size() > 3900);
    }

    // The settings a hook is written with: the key that is wrong is named.
    void metaIsChecked_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QByteArray>("meta");
        QTest::addColumn<QString>("field");
        QTest::newRow("slack without channel") << int(HookType::Slack) << QByteArray("{}") << "meta.channel";
        QTest::newRow("slack channel #") << int(HookType::Slack) << quoted("{'channel':'#'}") << "meta.channel";
        QTest::newRow("slack icon") << int(HookType::Slack) << quoted("{'channel':'#o','icon_url':'nope'}") << "meta.icon_url";
        QTest::newRow("slack colour type") << int(HookType::Slack) << quoted("{'channel':'#o','color':5}") << "meta.color";
        QTest::newRow("discord name") << int(HookType::Discord) << quoted("{'username':[]}") << "meta.username";
        QTest::newRow("matrix type") << int(HookType::Matrix) << quoted("{'message_type':'m.image'}") << "meta.message_type";
        QTest::newRow("packagist") << int(HookType::Packagist) << QByteArray("{}") << "meta.package_url";
        QTest::newRow("telegram chat") << int(HookType::Telegram) << quoted("{'chat_id':true}") << "meta.chat_id";
        QTest::newRow("slack ok") << int(HookType::Slack) << quoted("{'channel':'#ops','color':'good'}") << "";
        QTest::newRow("matrix ok") << int(HookType::Matrix) << quoted("{'message_type':1}") << "";
        QTest::newRow("dingtalk ok") << int(HookType::Dingtalk) << QByteArray("{}") << "";
    }
    void metaIsChecked()
    {
        QFETCH(int, type);
        QFETCH(QByteArray, meta);
        QFETCH(QString, field);
        const Status s = Channels::validateMeta(HookType(type), QJsonDocument::fromJson(meta).object());
        QCOMPARE(bool(s), field.isEmpty());
        QCOMPARE(s.field(), field);
    }
};

QTEST_GUILESS_MAIN(tst_WebhookChannels)
#include "tst_webhookchannels.moc"
