// The delivery loop's HTTP/1.1 client against real sockets: a scripted loopback server on the
// test's own thread (each connection answers its requests from a script of raw bytes), and the
// tests' HttpReceiver for keep-alive and one-request connections.
#include "engine/webhook/httpclient.h"

#include "support/httpreceiver.h"
#include "support/wait.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <deque>
#include <memory>
#include <vector>

using namespace Switchyard;
using namespace Switchyard::Webhook;

namespace {

// Answers each connection's requests with the next raw answers of its script, in turn; an empty
// answer closes the connection without one, "hang" sends nothing.
class ScriptedServer
{
public:
    explicit ScriptedServer(std::vector<std::vector<QByteArray>> scripts) : m_scripts(std::move(scripts))
    {
        QVERIFY(m_server.listen(QHostAddress::LocalHost));
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                const std::size_t index = m_connections++;
                auto script = std::make_shared<std::deque<QByteArray>>();
                if (index < m_scripts.size())
                    script->assign(m_scripts[index].begin(), m_scripts[index].end());
                auto buffer = std::make_shared<QByteArray>();
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, script, buffer] {
                    buffer->append(socket->readAll());
                    while (true) {
                        const qsizetype end = buffer->indexOf("\r\n\r\n");
                        if (end < 0)
                            return;
                        qsizetype length = 0;
                        const qsizetype at = buffer->toLower().indexOf("content-length: ");
                        if (at >= 0 && at < end)
                            length = buffer->mid(at + 16, buffer->indexOf("\r\n", at) - at - 16).toLongLong();
                        if (buffer->size() < end + 4 + length)
                            return;
                        m_requests.append(buffer->left(end + 4 + length));
                        buffer->remove(0, end + 4 + length);
                        const QByteArray answer = script->empty() ? QByteArray() : script->front();
                        if (!script->empty())
                            script->pop_front();
                        if (answer == "hang")
                            continue;
                        if (answer.isEmpty()) {
                            socket->close();
                            return;
                        }
                        socket->write(answer);
                        if (answer.contains("Connection: close") || !answer.contains("HTTP/1.1")) {
                            socket->disconnectFromHost();
                            return;
                        }
                    }
                });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    quint16 port() const { return m_server.serverPort(); }
    std::size_t connections() const { return m_connections; }
    const QList<QByteArray> &requests() const { return m_requests; }

private:
    QTcpServer m_server;
    std::vector<std::vector<QByteArray>> m_scripts;
    std::size_t m_connections = 0;
    QList<QByteArray> m_requests;
};

HttpDestination local(quint16 port, qint64 pool = 1)
{
    HttpDestination to;
    to.pool = pool;
    to.host = QStringLiteral("127.0.0.1");
    to.port = port;
    return to;
}

// A POST of `body`, finished when done.
std::unique_ptr<HttpExchange> post(const QByteArray &body = "{}")
{
    auto e = std::make_unique<HttpExchange>();
    e->method = "POST";
    e->target = "/hook?x=1";
    e->headers = {{"Host", "receiver.example"}, {"Content-Type", "application/json"}};
    e->body = body;
    e->finished = [] {};
    return e;
}

bool finish(HttpClient &client, HttpExchange &e)
{
    const bool done = Test::eventually([&] { return e.done; });
    client.reap();
    return done;
}

const QByteArray kKept = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

} // namespace

class TestHttpClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aKeptConnectionCarriesTheNextRequests()
    {
        Test::HttpReceiver receiver;
        receiver.setKeepAlive(true);
        receiver.respond(201, "made");
        HttpClient client;
        for (int i = 0; i < 3; ++i) {
            auto e = post(QByteArray::number(i));
            client.start(local(receiver.port()), *e);
            QVERIFY(finish(client, *e));
            QCOMPARE(e->error, QString());
            QCOMPARE(e->status, 201);
            QCOMPARE(e->responseBody, QByteArray("made"));
            QCOMPARE(client.openConnections(), 1);
        }
        const QList<Test::HttpReceiver::Request> got = receiver.requests();
        QCOMPARE(got.size(), 3);
        QCOMPARE(got.at(2).body, QByteArray("2"));
        QCOMPARE(got.at(2).path, QByteArray("/hook?x=1"));
        QCOMPARE(got.at(2).header("Host"), QByteArray("receiver.example"));
        QCOMPARE(got.at(2).header("Content-Length"), QByteArray("1"));
        // Another pool gets a connection of its own; closing a pool closes only its idle ones.
        auto other = post();
        client.start(local(receiver.port(), 2), *other);
        QVERIFY(finish(client, *other));
        QCOMPARE(client.openConnections(), 2);
        client.closePool(2);
        client.reap();
        QCOMPARE(client.openConnections(), 1);
    }

    void aReceiverThatClosesGetsANewConnectionEachTime()
    {
        Test::HttpReceiver receiver; // one request per connection, Connection: close
        HttpClient client;
        for (int i = 0; i < 2; ++i) {
            auto e = post();
            client.start(local(receiver.port()), *e);
            QVERIFY(finish(client, *e));
            QCOMPARE(e->status, 200);
            QCOMPARE(e->error, QString());
            QVERIFY(Test::eventually([&] { client.reap(); return client.openConnections() == 0; }));
        }
        QCOMPARE(receiver.requests().size(), 2);
    }

    void aKeptConnectionLostAsTheRequestGoesIsSentOnceMore()
    {
        // The first connection answers once, then closes at the second request without an answer
        // (a receiver's idle timeout meeting our send); the second connection answers it.
        ScriptedServer server({{kKept, QByteArray()}, {"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"}});
        HttpClient client;
        auto first = post("1");
        client.start(local(server.port()), *first);
        QVERIFY(finish(client, *first));
        QCOMPARE(first->status, 200);
        QVERIFY(!first->resent);
        auto second = post("2");
        client.start(local(server.port()), *second);
        QVERIFY(finish(client, *second));
        QCOMPARE(second->error, QString());
        QCOMPARE(second->status, 202);
        QVERIFY(second->resent);
        QCOMPARE(server.connections(), std::size_t(2));
        QCOMPARE(server.requests().size(), 3); // the second twice: at least once, as documented
    }

    void aNewConnectionThatClosesIsAnErrorNotARetry()
    {
        ScriptedServer server({{QByteArray()}});
        HttpClient client;
        auto e = post();
        client.start(local(server.port()), *e);
        QVERIFY(finish(client, *e));
        QCOMPARE(e->status, 0);
        QVERIFY(!e->resent);
        QVERIFY2(!e->error.isEmpty(), "no error");
        QCOMPARE(server.connections(), std::size_t(1));
    }

    void chunkedAndCloseDelimitedAnswersAreRead()
    {
        ScriptedServer server({{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\nX-A: 2\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
                                "HTTP/1.1 500 Oops\r\nContent-Length: 4\r\n\r\nfail"},
                               {"HTTP/1.0 200 OK\r\n\r\nread to the close"}});
        HttpClient client;
        auto chunked = post();
        client.start(local(server.port()), *chunked);
        QVERIFY(finish(client, *chunked));
        QCOMPARE(chunked->responseBody, QByteArray("abcde"));
        QCOMPARE(chunked->responseHeaders.size(), 3);
        QCOMPARE(chunked->responseHeaders.at(2), qMakePair(QByteArray("X-A"), QByteArray("2")));
        auto failed = post();
        client.start(local(server.port()), *failed);
        QVERIFY(finish(client, *failed));
        QCOMPARE(failed->status, 500);
        QCOMPARE(failed->responseBody, QByteArray("fail"));
        QCOMPARE(server.connections(), std::size_t(1)); // both on the kept connection
        client.closePool(1);
        auto closeDelimited = post();
        client.start(local(server.port()), *closeDelimited);
        QVERIFY(finish(client, *closeDelimited));
        QCOMPARE(closeDelimited->error, QString());
        QCOMPARE(closeDelimited->status, 200);
        QCOMPARE(closeDelimited->responseBody, QByteArray("read to the close"));
    }

    void aLongAnswerIsCutAtTheBoundAndItsConnectionClosed()
    {
        const QByteArray big(100'000, 'x');
        ScriptedServer server({{"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + big}});
        HttpClient client;
        auto e = post();
        e->maxBody = 1000;
        client.start(local(server.port()), *e);
        QVERIFY(finish(client, *e));
        QCOMPARE(e->status, 200);
        QVERIFY(e->truncated);
        QCOMPARE(e->responseBody, big.left(1000));
        QCOMPARE(e->error, QString());
        QCOMPARE(client.openConnections(), 0);
    }

    void anAnswerCutAfterItsHeadKeepsItsStatusWithTheError()
    {
        ScriptedServer server({{"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"}});
        HttpClient client;
        auto e = post();
        client.start(local(server.port()), *e);
        // The head and 3 of the 10 body bytes arrive; the rest never does.
        QVERIFY(Test::eventually([&] { return e->responseBody == "abc"; }));
        client.abort(*e, QStringLiteral("cut by the test"));
        QVERIFY(e->done);
        QCOMPARE(e->status, 200);
        QCOMPARE(e->error, QStringLiteral("cut by the test"));
        client.reap();
        QCOMPARE(client.openConnections(), 0);
    }

    void refusedAndUnsafeRequestsFailWithTheReason()
    {
        quint16 closedPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            closedPort = probe.serverPort();
        }
        HttpClient client;
        auto refused = post();
        client.start(local(closedPort), *refused);
        QVERIFY(finish(client, *refused));
        QVERIFY2(refused->error.contains(QLatin1String("refused")), qPrintable(refused->error));

        Test::HttpReceiver receiver;
        auto unsafe = post();
        unsafe->headers.append(qMakePair(QByteArray("Authorization"), QByteArray("token a\r\nX-Injected: 1")));
        bool called = false;
        unsafe->finished = [&] { called = true; };
        client.start(local(receiver.port()), *unsafe);
        QVERIFY(called); // at once: nothing was sent
        QVERIFY2(unsafe->error.contains(QLatin1String("Authorization")), qPrintable(unsafe->error));
        QVERIFY(receiver.requests().isEmpty());
    }

    void abortEndsAHangingExchangeAtOnce()
    {
        ScriptedServer server({{"hang"}});
        HttpClient client;
        auto e = post();
        int calls = 0;
        e->finished = [&] { ++calls; };
        client.start(local(server.port()), *e);
        QVERIFY(Test::eventually([&] { return !server.requests().isEmpty(); }));
        client.abort(*e, QStringLiteral("no complete answer within DELIVER_TIMEOUT"));
        QCOMPARE(calls, 1);
        QVERIFY(e->done);
        QCOMPARE(e->status, 0);
        client.abort(*e, QStringLiteral("again")); // not running any more: nothing
        QCOMPARE(calls, 1);
        client.reap();
        QCOMPARE(client.openConnections(), 0);
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "tst_httpclient.moc"
