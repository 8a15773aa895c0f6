// The chat channels: every sample payload (the notifier's golden files in
// tests/golden/webhook/payloads) converted by each of the nine channels, pinned by golden files in
// tests/golden/webhook/channels/<type>/; then what a channel promises beyond them — its link syntax
// and escaping, the review words, its size limits, and the events it refuses.
// SWITCHYARD_UPDATE_GOLDEN=1 rewrites the golden files (read the diff before committing them).
#include "engine/webhook/channels/channels.h"
#include "engine/webhook/channels/summary.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include "support/testutil.h"

#include <QJsonDocument>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Webhook;

namespace {

using Test::readFile;

QString dataPath(const QString &relative)
{
    return QStringLiteral(SWITCHYARD_GOLDEN "/webhook/") + relative;
}

// The sample payloads and the event each stands for.
const std::vector<std::pair<QString, HookEventType>> &samples()
{
    static const std::vector<std::pair<QString, HookEventType>> list{
        {QStringLiteral("create"), HookEventType::Create},
        {QStringLiteral("delete"), HookEventType::Delete},
        {QStringLiteral("fork"), HookEventType::Fork},
        {QStringLiteral("issue-comment"), HookEventType::IssueComment},
        {QStringLiteral("issues-closed"), HookEventType::Issues},
        {QStringLiteral("issues-opened"), HookEventType::Issues},
        {QStringLiteral("package"), HookEventType::Package},
        {QStringLiteral("pull-request-merged"), HookEventType::PullRequest},
        {QStringLiteral("pull-request-opened"), HookEventType::PullRequest},
        {QStringLiteral("push"), HookEventType::Push},
        {QStringLiteral("release"), HookEventType::Release},
        {QStringLiteral("repository-created"), HookEventType::Repository},
        {QStringLiteral("review-approved"), HookEventType::PullRequestReviewApproved},
        {QStringLiteral("status"), HookEventType::Status},
        {QStringLiteral("wiki"), HookEventType::Wiki},
        {QStringLiteral("workflow-job"), HookEventType::WorkflowJob},
        {QStringLiteral("workflow-run"), HookEventType::WorkflowRun},
    };
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

const QByteArray kIssue = quoted("{'action':'opened','issue':{'number':3,'title':'a < b & c','body':'x <y>','html_url':'https://f.example/o/r/issues/3'},"
                                 "'repository':{'full_name':'o/r','html_url':'https://f.example/o/r'},'sender':{'login':'eve'}}");

} // namespace

class tst_WebhookChannels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void goldenMessages_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("sample");
        QTest::addColumn<int>("event");
        for (HookType type : everyHookType()) {
            if (!Channels::isChannel(type))
                continue;
            for (const auto &[sample, event] : samples())
                QTest::newRow(qPrintable(name(type) + u'/' + sample)) << int(type) << sample << int(event);
        }
    }
    void goldenMessages()
    {
        QFETCH(int, type);
        QFETCH(QString, sample);
        QFETCH(int, event);
        const QByteArray payload = readFile(dataPath(QStringLiteral("payloads/%1.json").arg(sample)));
        QVERIFY2(!payload.isEmpty(), qPrintable(sample));
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
        // Every channel but packagist carries every sample; packagist only the push.
        const bool refused = body.contains(QStringLiteral("error"));
        QCOMPARE(refused, HookType(type) == HookType::Packagist && HookEventType(event) != HookEventType::Push);
    }

    // Each channel's link syntax, and its escaping where the format has markup.
    void linksAndEscaping()
    {
        const QJsonObject slack = converted(HookType::Slack, HookEventType::Issues, kIssue);
        QCOMPARE(slack.value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<https://f.example/o/r|o/r>] Issue opened: <https://f.example/o/r/issues/3|#3 a &lt; b &amp; c> by <https://f.example/eve|eve>"));
        QCOMPARE(slack.value(QStringLiteral("attachments")).toArray().at(0).toObject().value(QStringLiteral("text")).toString(), QStringLiteral("x &lt;y&gt;"));

        const QJsonObject telegram = converted(HookType::Telegram, HookEventType::Issues, kIssue);
        QCOMPARE(telegram.value(QStringLiteral("text")).toString(),
                 QStringLiteral("[<a href=\"https://f.example/o/r\">o/r</a>] Issue opened: <a href=\"https://f.example/o/r/issues/3\">#3 a &lt; b &amp; c</a> by "
                                "<a href=\"https://f.example/eve\">eve</a>\n\nx &lt;y&gt;"));
        QCOMPARE(telegram.value(QStringLiteral("parse_mode")).toString(), QStringLiteral("HTML"));

        const QJsonObject wechat = converted(HookType::Wechatwork, HookEventType::Issues, kIssue);
        QVERIFY(wechat.value(QStringLiteral("markdown")).toObject().value(QStringLiteral("content")).toString().contains(
            QLatin1String("[#3 a < b & c](https://f.example/o/r/issues/3)")));

        const QJsonObject discord = converted(HookType::Discord, HookEventType::Issues, kIssue);
        const QJsonObject embed = discord.value(QStringLiteral("embeds")).toArray().at(0).toObject();
        QCOMPARE(embed.value(QStringLiteral("title")).toString(), QStringLiteral("[o/r] Issue opened: #3 a < b & c"));
        QCOMPARE(embed.value(QStringLiteral("url")).toString(), QStringLiteral("https://f.example/o/r/issues/3"));
        QCOMPARE(embed.value(QStringLiteral("color")).toInt(), Channels::Colour::Orange);
    }

    // The review events read approved / rejected / commented, with their colours.
    void reviewWords_data()
    {
        QTest::addColumn<int>("event");
        QTest::addColumn<QString>("word");
        QTest::addColumn<int>("colour");
        QTest::newRow("approved") << int(HookEventType::PullRequestReviewApproved) << "approved" << Channels::Colour::Green;
        QTest::newRow("rejected") << int(HookEventType::PullRequestReviewRejected) << "rejected" << Channels::Colour::Red;
        QTest::newRow("comment") << int(HookEventType::PullRequestReviewComment) << "commented" << Channels::Colour::Yellow;
    }
    void reviewWords()
    {
        QFETCH(int, event);
        QFETCH(QString, word);
        QFETCH(int, colour);
        const QByteArray payload = readFile(dataPath(QStringLiteral("payloads/review-approved.json")));
        const Result<Channels::Summary> s = Channels::summarize(HookEventType(event), QJsonDocument::fromJson(payload).object(), Channels::noLink);
        QVERIFY(s);
        QVERIFY2(s->text.contains(QStringLiteral("Pull request review %1: #2 Fix the stall").arg(word)), qPrintable(s->text));
        QCOMPARE(s->colour, colour);
        QCOMPARE(s->extra, QStringLiteral("Looks good"));
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
        QVERIFY(m->body.value(QStringLiteral("formatted_body")).toString().contains(QLatin1String("<br>x &lt;y&gt;")));
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
