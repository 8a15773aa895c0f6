// The request framer on its own: what it learns from a head however the bytes are split, what it
// refuses and when (before any body byte for the head's refusals), and which requests may leave
// HTTP. The edge around it is tested against a real daemon in tst_apiedge.
#include "server/requestframer.h"

#include <QTest>

using namespace Switchyard::Server;

namespace {

struct Judge
{
    qint64 limit = 1000;
    std::optional<Refusal> refusal;
    bool upgrade = false;
    int admitted = 0; // heads the policy was asked about

    FramerPolicy policy()
    {
        FramerPolicy p;
        p.bodyLimit = [this](const RequestHead &) { return limit; };
        p.admit = [this](const RequestHead &) {
            ++admitted;
            return refusal;
        };
        p.mayUpgrade = [this](const RequestHead &head) { return upgrade && head.path == "/api/v1/stream"; };
        return p;
    }
};

RequestFramer::Phase feedAll(RequestFramer &framer, const QByteArray &bytes, int step)
{
    RequestFramer::Phase phase = framer.phase();
    for (qsizetype i = 0; i < bytes.size(); i += step)
        phase = framer.feed(bytes.constData() + i, size_t(std::min<qsizetype>(step, bytes.size() - i)));
    return phase;
}

} // namespace

class TestRequestFramer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theHeadIsTheSameHoweverTheBytesAreSplit()
    {
        const QByteArray request = "POST /api/v1/events?source=gitea HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sy_abc\r\n"
                                   "X-Gitea-Signature: 0f\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello";
        for (int step : {1, 2, 3, 7, 64, 4096}) {
            Judge judge;
            RequestFramer framer(judge.policy());
            QCOMPARE(feedAll(framer, request, step), RequestFramer::Phase::Complete);
            const RequestHead &head = framer.head();
            QCOMPARE(head.method, QByteArray("POST"));
            QCOMPARE(head.path, QByteArray("/api/v1/events"));
            QCOMPARE(head.query, QByteArray("source=gitea"));
            QCOMPARE(head.authorization, QByteArray("Bearer sy_abc"));
            QVERIFY(head.signature);
            QVERIFY(head.expectContinue);
            QVERIFY(!head.upgradeHeader);
            QCOMPARE(head.contentLength, qint64(5));
            QCOMPARE(framer.bodyBytes(), qint64(5));
            QCOMPARE(judge.admitted, 1);
        }
    }

    void aRefusedHeadReadsNoBody()
    {
        Judge judge;
        judge.refusal = Refusal{401, QStringLiteral("unauthorized"), QString(), {{"WWW-Authenticate", "Bearer"}}};
        RequestFramer framer(judge.policy());
        // The body holds what looks like more requests: none of them is framed (each would be
        // judged, and its refusal would replace the first).
        const QByteArray smuggled = "GET /y HTTP/1.1\r\n\r\nGET /z HTTP/1.1\r\n\r\n";
        const QByteArray request =
            "POST /x HTTP/1.1\r\nContent-Length: " + QByteArray::number(smuggled.size()) + "\r\n\r\n" + smuggled;
        judge.refusal->status = 401;
        QCOMPARE(framer.feed(request.constData(), size_t(request.size())), RequestFramer::Phase::Refused);
        QCOMPARE(framer.refusal()->status, 401);
        QCOMPARE(judge.admitted, 1);
        QCOMPARE(framer.head().path, QByteArray("/x"));
        QCOMPARE(framer.bodyBytes(), qint64(0));
        QCOMPARE(framer.feed("more", 4), RequestFramer::Phase::Refused); // nothing more is framed
    }

    void bodiesOverTheLimitAre413()
    {
        Judge declared;
        RequestFramer early(declared.policy());
        const QByteArray request = "PUT /x HTTP/1.1\r\nContent-Length: 1001\r\n\r\n";
        QCOMPARE(early.feed(request.constData(), size_t(request.size())), RequestFramer::Phase::Refused);
        QCOMPARE(early.refusal()->status, 413);
        QCOMPARE(early.refusal()->field, QStringLiteral("body"));
        QCOMPARE(declared.admitted, 0); // the limit is judged first: nothing else matters then

        Judge chunked;
        RequestFramer growing(chunked.policy());
        QCOMPARE(feedAll(growing, "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 9), RequestFramer::Phase::Body);
        const QByteArray chunk = "200\r\n" + QByteArray(0x200, 'c') + "\r\n";
        QCOMPARE(growing.feed(chunk.constData(), size_t(chunk.size())), RequestFramer::Phase::Body);
        QCOMPARE(growing.feed(chunk.constData(), size_t(chunk.size())), RequestFramer::Phase::Refused);
        QCOMPARE(growing.refusal()->status, 413);
        QVERIFY(growing.bodyBytes() <= 1000 + 0x200);
    }

    void onlyTheStreamMayUpgrade()
    {
        Judge judge;
        judge.upgrade = true;
        {
            RequestFramer framer(judge.policy());
            const QByteArray head = "GET /api/v1/stream HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x05hello";
            QCOMPARE(framer.feed(head.constData(), size_t(head.size())), RequestFramer::Phase::Upgraded);
            QCOMPARE(framer.feed("\x81\x01x", 3), RequestFramer::Phase::Upgraded);
        }
        const QByteArray refused[] = {
            "POST /api/v1/events HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET /api/v1/stream HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nContent-Length: 4\r\n\r\nabcd",
            "GET /api/v1/health HTTP/1.1\r\nUpgrade: h2c\r\n\r\n", // no Connection: upgrade, still refused
            "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
        };
        for (const QByteArray &request : refused) {
            RequestFramer framer(judge.policy());
            QCOMPARE(framer.feed(request.constData(), size_t(request.size())), RequestFramer::Phase::Refused);
            QCOMPARE(framer.refusal()->status, 400);
        }
        judge.upgrade = false;
        RequestFramer framer(judge.policy());
        const QByteArray head = "GET /api/v1/stream HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
        QCOMPARE(framer.feed(head.constData(), size_t(head.size())), RequestFramer::Phase::Refused);
    }

    void keepAliveRequestsAreFramedOneByOne()
    {
        Judge judge;
        RequestFramer framer(judge.policy());
        const QByteArray two = "GET /a HTTP/1.1\r\nAuthorization: Bearer one\r\n\r\nGET /b HTTP/1.1\r\n\r\n";
        QCOMPARE(framer.feed(two.constData(), size_t(two.size())), RequestFramer::Phase::Complete);
        QCOMPARE(framer.requests(), qint64(2));
        QCOMPARE(framer.head().path, QByteArray("/b"));
        QVERIFY(framer.head().authorization.isEmpty()); // nothing carried over from the first
    }

    void malformedAndOversizedHeadsAreRefused()
    {
        Judge judge;
        RequestFramer garbage(judge.policy());
        QCOMPARE(garbage.feed("\x16\x03\x01\x02\x00", 5), RequestFramer::Phase::Refused); // a TLS hello
        QCOMPARE(garbage.refusal()->status, 400);
        RequestFramer longUrl(judge.policy());
        const QByteArray url = "GET /" + QByteArray(RequestFramer::kMaxUrlBytes + 1, 'a');
        QCOMPARE(longUrl.feed(url.constData(), size_t(url.size())), RequestFramer::Phase::Refused);
        QCOMPARE(longUrl.refusal()->status, 414);
        RequestFramer longHead(judge.policy());
        const QByteArray head = "GET / HTTP/1.1\r\nX: " + QByteArray(100 << 10, 'h');
        QCOMPARE(longHead.feed(head.constData(), size_t(head.size())), RequestFramer::Phase::Refused);
        QCOMPARE(longHead.refusal()->status, 431);
        // A kept header's value is bounded too (the head as a whole is, by http_parser).
        RequestFramer bigToken(judge.policy());
        const QByteArray token = "GET / HTTP/1.1\r\nAuthorization: " + QByteArray(20 << 10, 't') + "\r\n\r\n";
        QCOMPARE(feedAll(bigToken, token, 3000), RequestFramer::Phase::Complete);
        QVERIFY(bigToken.head().authorization.isEmpty()); // not kept with pieces missing
    }
};

QTEST_GUILESS_MAIN(TestRequestFramer)
#include "tst_requestframer.moc"
