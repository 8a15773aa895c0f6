// What a receiver gets, byte for byte: every sample event (the notifier's payloads in
// tests/golden/webhook/payloads, and tests/golden/webhook/channel-inputs for the events only a
// channel test needs) × payload version 1 and 2 × the eleven hook types, composed as a delivery
// sends it (composeRequest: method, URL, every header, the body) and compared with
// tests/golden/webhook/requests/<type>/<sample>.v<version>.http. Then the facts of Gitea's own
// tests (services/webhook/deliver_test.go) that a regenerated golden file must not lose.
// scripts/update-golden.sh (SWITCHYARD_UPDATE_GOLDEN=1) rewrites the files: read the diff first.
#include "engine/webhook/channels/channels.h"
#include "engine/webhook/request.h"

#include "support/goldensamples.h"
#include "support/testutil.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QSet>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Webhook;

namespace {

using Test::readFile;

const QString kGolden = QStringLiteral(SWITCHYARD_GOLDEN "/webhook/");
const QString kUuid = QStringLiteral("6f1c2a9e-4b7d-4e21-9a3f-0c5d8e7b1a24");
const QString kTrace = QStringLiteral("0d3b5f7a-1c2e-4f60-8a9b-2c4d6e8f0a1b");

std::optional<HookEventType> eventOf(const QString &sample)
{
    return Test::eventOfSample(sample);
}

QMap<QString, QString> samples()
{
    return Test::webhookSamples(QStringLiteral(SWITCHYARD_GOLDEN));
}

// The settings each channel is composed with (as tst_webhookchannels converts).
QString metaFor(HookType type)
{
    switch (type) {
        case HookType::Slack: return QStringLiteral("{\"channel\":\"#ops\",\"username\":\"forge\"}");
        case HookType::Discord: return QStringLiteral("{\"username\":\"forge\"}");
        case HookType::Telegram: return QStringLiteral("{\"chat_id\":\"-1001\"}");
        case HookType::Matrix: return QStringLiteral("{\"message_type\":1}");
        case HookType::Packagist: return QStringLiteral("{\"package_url\":\"https://git.example.com/alice/engine\"}");
        default: return QString();
    }
}

Hook hookFor(HookType type)
{
    Hook h;
    h.id = 7;
    h.repoId = 1;
    h.type = type;
    h.url = QStringLiteral("https://hooks.example.com/") + name(type);
    h.httpMethod = type == HookType::Matrix ? QStringLiteral("PUT") : QStringLiteral("POST");
    h.secret = QStringLiteral("golden-secret");
    h.meta = metaFor(type);
    return h;
}

HookTask taskFor(HookEventType event, const QByteArray &payload, int version)
{
    HookTask t;
    t.id = 11;
    t.hookId = 7;
    t.uuid = kUuid;
    t.traceId = kTrace;
    t.eventType = event;
    t.payload = payload;
    t.payloadVersion = version;
    return t;
}

// The request as a receiver reads it: the request line, the headers in order, a blank line, the body.
QByteArray render(const Result<OutgoingRequest> &r)
{
    if (!r)
        return "refused: " + r.status().message().toUtf8() + '\n';
    QByteArray out = r->method.toLatin1() + ' ' + r->url.toEncoded() + '\n';
    for (const auto &[k, v] : r->headers)
        out += k + ": " + v + '\n';
    return out + '\n' + r->body + '\n';
}

// `json` without the whitespace between its tokens, its members in their order (the golden
// payloads are the notifier's compact bytes indented for reading; QJsonDocument would sort them).
QByteArray compact(const QByteArray &json)
{
    QByteArray out;
    bool inString = false, escaped = false;
    for (char c : json) {
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            out += c;
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out += c;
        }
    }
    return out;
}

// The payload a version stores: v2 the event's (as the notifier writes it, compact); v1 what
// Gitea stored before 1.22 — the message already converted for a chat hook.
Result<QByteArray> storedPayload(HookType type, HookEventType event, const QByteArray &sample, int version)
{
    const QByteArray v2 = compact(sample);
    if (version == 2 || !Channels::isChannel(type))
        return v2;
    Result<OutgoingRequest> converted = composeRequest(hookFor(type), taskFor(event, v2, 2), false);
    if (!converted)
        return converted.status();
    return converted->payload;
}

QByteArray header(const OutgoingRequest &r, const char *name)
{
    for (const auto &[k, v] : r.headers)
        if (k == name)
            return v;
    return "(absent)";
}

} // namespace

class tst_WebhookGolden : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void requests_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("version");
        const QMap<QString, QString> all = samples();
        QVERIFY2(!all.isEmpty(), "no samples under tests/golden/webhook/payloads");
        for (HookType type : everyHookType())
            for (const QString &sample : all.keys())
                for (int version : {1, 2})
                    QTest::newRow(qPrintable(QStringLiteral("%1/%2.v%3").arg(name(type), sample).arg(version)))
                        << sample << int(type) << version;
    }
    void requests()
    {
        QFETCH(QString, sample);
        QFETCH(int, type);
        QFETCH(int, version);
        const std::optional<HookEventType> event = eventOf(sample);
        QVERIFY2(event, qPrintable(QStringLiteral("%1: name a sample <event_type>[-<action>].json").arg(sample)));
        const QByteArray input = readFile(samples().value(sample));
        QVERIFY2(!input.isEmpty(), qPrintable(sample));
        const Result<QByteArray> stored = storedPayload(HookType(type), *event, input, version);
        const QByteArray got = stored ? render(composeRequest(hookFor(HookType(type)), taskFor(*event, *stored, version), false))
                                      : render(stored.status());
        const QString golden = kGolden + QStringLiteral("requests/%1/%2.v%3.http").arg(name(HookType(type)), sample).arg(version);
        if (qEnvironmentVariableIsSet("SWITCHYARD_UPDATE_GOLDEN")) {
            QDir().mkpath(QFileInfo(golden).path());
            QFile out(golden);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(got);
        }
        const QByteArray expected = readFile(golden);
        QVERIFY2(!expected.isEmpty(), qPrintable(QStringLiteral("no golden file %1 (scripts/update-golden.sh writes it)").arg(golden)));
        if (got != expected)
            QFAIL(qPrintable(QStringLiteral("%1 differs from its golden file; now:\n%2").arg(golden, QString::fromUtf8(got))));
    }

    // Every event a hook is sent has a sample (all but the review group and schedule, which
    // Gitea never sends to a hook).
    void everySentEventHasASample()
    {
        QSet<HookEventType> covered;
        for (const QString &sample : samples().keys())
            if (const std::optional<HookEventType> e = eventOf(sample))
                covered.insert(*e);
        QStringList missing;
        for (HookEventType type : everyHookEventType())
            if (type != HookEventType::PullRequestReview && type != HookEventType::Schedule && !covered.contains(type))
                missing << name(type);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("no sample for: ") + missing.join(QStringLiteral(", "))));
    }

    // deliver_test.go: a v1 matrix task PUTs its payload as is to <url>/<SHA-1 of the payload>,
    // with no Content-Type; a v2 one sends JSON.
    void matrixVersion1PutsToTheSha1OfThePayload()
    {
        const Result<OutgoingRequest> v1 = composeRequest(hookFor(HookType::Matrix), taskFor(HookEventType::Push, "{\"data\": 42}", 1), false);
        QVERIFY(v1);
        QCOMPARE(v1->method, QStringLiteral("PUT"));
        QCOMPARE(v1->url.path(), QStringLiteral("/matrix/66d222a5d6349e1311f551e50722d837e30fce98"));
        QCOMPARE(header(*v1, "Content-Type"), QByteArray("(absent)"));
        QCOMPARE(v1->body, QByteArray("{\"data\": 42}"));
        QCOMPARE(header(*v1, "X-GitHub-Event"), QByteArray("push"));
    }

    // deliver.go signs t.PayloadContent: a form hook's signature is over the JSON payload, not
    // the payload= body (a receiver verifying as for JSON accepts it); a GET sends no body, the
    // payload in ?payload= (Go's query escaping: a space is '+'), and is signed the same.
    void formAndGetAreSignedOverThePayload()
    {
        const QByteArray payload = "{\"ref\":\"refs/heads/main\",\"message\":\"a b&c\"}";
        const QByteArray sha256 = QMessageAuthenticationCode::hash(payload, "golden-secret", QCryptographicHash::Sha256).toHex();
        Hook form = hookFor(HookType::Gitea);
        form.contentType = ContentType::Form;
        const Result<OutgoingRequest> f = composeRequest(form, taskFor(HookEventType::Push, payload, 2), false);
        QVERIFY(f);
        QCOMPARE(f->body, QByteArray("payload=%7B%22ref%22%3A%22refs%2Fheads%2Fmain%22%2C%22message%22%3A%22a+b%26c%22%7D"));
        QCOMPARE(header(*f, "Content-Type"), QByteArray("application/x-www-form-urlencoded"));
        QCOMPARE(header(*f, "X-Gitea-Signature"), sha256);
        QCOMPARE(header(*f, "X-Hub-Signature-256"), "sha256=" + sha256);
        QCOMPARE(f->payload, payload);

        Hook get = hookFor(HookType::Gitea);
        get.httpMethod = QStringLiteral("GET");
        get.url += QStringLiteral("?z=1&a=2&q=b+c"); // Go reads '+' as a space and writes it back so
        const Result<OutgoingRequest> g = composeRequest(get, taskFor(HookEventType::Push, payload, 2), false);
        QVERIFY(g);
        QVERIFY(g->body.isEmpty());
        QCOMPARE(header(*g, "Content-Type"), QByteArray("(absent)"));
        QCOMPARE(g->url.query(QUrl::FullyEncoded),
                 QStringLiteral("a=2&payload=%7B%22ref%22%3A%22refs%2Fheads%2Fmain%22%2C%22message%22%3A%22a+b%26c%22%7D&q=b+c&z=1"));
        QCOMPARE(header(*g, "X-Gitea-Signature"), sha256);
    }

    // addDefaultHeaders: the three families of names, the signatures keep their prefixes with no
    // secret; the installation target from the hook's scope.
    void headersAreGiteas()
    {
        Hook h = hookFor(HookType::Gitea);
        h.secret.clear();
        h.repoId = 0;
        h.ownerId = 3;
        const Result<OutgoingRequest> r = composeRequest(h, taskFor(HookEventType::PullRequestReviewApproved, "{}", 2), true);
        QVERIFY(r);
        QByteArrayList names;
        for (const auto &[k, v] : r->headers)
            names << k;
        QCOMPARE(names, (QByteArrayList{"X-Gitea-Delivery", "X-Gitea-Event", "X-Gitea-Event-Type", "X-Gitea-Signature", "X-Gogs-Delivery",
                                     "X-Gogs-Event", "X-Gogs-Event-Type", "X-Gogs-Signature", "X-Hub-Signature", "X-Hub-Signature-256",
                                     "X-GitHub-Delivery", "X-GitHub-Event", "X-GitHub-Event-Type",
                                     "X-Gitea-Hook-Installation-Target-Type", "X-GitHub-Hook-Installation-Target-Type", "User-Agent",
                                     "X-Switchyard-Trace", "Content-Type"}));
        QCOMPARE(header(*r, "X-Gitea-Event"), QByteArray("pull_request_approved"));
        QCOMPARE(header(*r, "X-Gitea-Event-Type"), QByteArray("pull_request_review_approved"));
        QCOMPARE(header(*r, "X-Gitea-Signature"), QByteArray());
        QCOMPARE(header(*r, "X-Hub-Signature"), QByteArray("sha1="));
        QCOMPARE(header(*r, "X-Hub-Signature-256"), QByteArray("sha256="));
        QCOMPARE(header(*r, "X-Gitea-Hook-Installation-Target-Type"), QByteArray("organization"));
        QCOMPARE(header(*r, "Content-Type"), QByteArray("application/json"));
    }
};

QTEST_GUILESS_MAIN(tst_WebhookGolden)
#include "tst_webhookgolden.moc"
