// Credentials in a hook's URL through the admin API of a real daemon: a read-only token never
// sees them (hook lists, one hook, the delivery history, the search, the CSV and JSON exports),
// an admin sees the URL in clear only where the edit form reads it (GET /hooks/{id}); the
// daemon's log never carries them; a URL with a refused address is refused with the reason; a new
// URL drops the stored Authorization header unless it is given again, and the answer says so.
#include "admin/tokens.h"

#include "support/daemonprocess.h"
#include "support/httpreceiver.h"
#include "support/wait.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Test;

namespace {

const QString kTestDaemon = QStringLiteral(TEST_DAEMON_PATH);

// AUTO_DISABLE_AFTER = 1: the failing delivery makes the hook inactive, and that notice is logged
// with the hook's URL.
const QByteArray kConfig = "[webhook]\nALLOWED_HOST_LIST = loopback\nAUTO_DISABLE_AFTER = 1\n";

const QByteArray kPassword = "pa55word-in-url";
const QByteArray kToken = "t0ken-in-query";
const QByteArray kHeader = "Bearer s3cret-header";

QString describe(const HttpResult &r)
{
    return QStringLiteral("%1 %2").arg(r.status).arg(QString::fromUtf8(r.body.left(600)));
}

bool leaks(const QByteArray &text)
{
    return text.contains(kPassword) || text.contains(kToken) || text.contains(kHeader);
}

} // namespace

class TestHookSecrets : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    DaemonProcess m_daemon;
    QByteArray m_admin;
    QByteArray m_readOnly;

    HttpResult call(const QByteArray &method, const QString &path, const QByteArray &token, const QByteArray &body = {},
                    const QString &query = {})
    {
        return http(method, m_daemon.apiUrl(path, query), token, body);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_daemon.start(DaemonProcess::standardFixture(kTestDaemon, m_dir.path(), kConfig)), m_daemon.output().constData());
        m_admin = m_daemon.adminToken();
        Result<QString> readOnly = Admin::TokenStore(m_dir.path()).create(QStringLiteral("viewer"), Admin::Role::ReadOnly);
        QVERIFY2(readOnly, qPrintable(readOnly.status().message()));
        m_readOnly = readOnly->toLatin1();
    }

    void cleanupTestCase()
    {
        if (m_daemon.running())
            QCOMPARE(m_daemon.stop(), 0);
    }

    // One hook with a password in its URL, a token in its query and an Authorization header,
    // delivered once (and failing, so the daemon logs the hook's deactivation): every view but
    // the admin's GET /hooks/{id} masks the URL; the receiver got it in clear.
    void credentialsInTheUrlAreMaskedForEveryViewButTheEditForm()
    {
        HttpReceiver receiver;
        receiver.respond(500, "down");
        const QByteArray clear = "http://ci:" + kPassword + "@127.0.0.1:" + QByteArray::number(receiver.port()) +
                                 "/hook?token=" + kToken + "&event=push";
        HttpResult r = call("POST", QStringLiteral("/hooks"), m_admin,
                            "{\"scope\":\"system\",\"url\":\"" + clear + "\",\"authorization_header\":\"" + kHeader + "\"}");
        QCOMPARE(r.status, 201);
        QVERIFY2(!leaks(r.body), r.body.constData());
        QCOMPARE(r.json().object().value(QStringLiteral("url_masked")).toBool(), true);
        const qint64 id = r.json().object().value(QStringLiteral("id")).toInteger();
        const QString hook = QStringLiteral("/hooks/%1").arg(id);

        QCOMPARE(call("POST", hook + QStringLiteral("/test"), m_admin).status, 201);
        QVERIFY(eventually([&] {
            const QJsonArray tasks = call("GET", hook + QStringLiteral("/tasks"), m_admin).json().array();
            return !tasks.isEmpty() && tasks.first()[QStringLiteral("status")].toString() == QLatin1String("failed");
        }));
        QCOMPARE(receiver.requests().size(), 1);
        QCOMPARE(receiver.requests().front().path, "/hook?token=" + kToken + "&event=push");
        QCOMPARE(receiver.requests().front().header("Authorization"), kHeader);

        for (const QByteArray &token : {m_readOnly, m_admin}) {
            for (const auto &[path, query] : std::vector<std::pair<QString, QString>>{
                     {QStringLiteral("/hooks"), QString()},
                     {hook + QStringLiteral("/tasks"), QString()},
                     {QStringLiteral("/deliveries"), QStringLiteral("hook=%1").arg(id)},
                     {QStringLiteral("/deliveries"), QStringLiteral("hook=%1&format=csv").arg(id)},
                     {QStringLiteral("/deliveries"), QStringLiteral("hook=%1&format=json").arg(id)}}) {
                r = call("GET", path, token, {}, query);
                QVERIFY2(r.status == 200, qPrintable(describe(r)));
                QVERIFY2(r.body.contains("***@127.0.0.1"), qPrintable(path + u'?' + query + u' ' + describe(r)));
                QVERIFY2(!leaks(r.body), qPrintable(path + u'?' + query + u' ' + describe(r)));
            }
        }
        r = call("GET", QStringLiteral("/deliveries"), m_readOnly, {}, QStringLiteral("hook=%1&format=csv").arg(id));
        QVERIFY2(r.body.contains("token=***&event=push"), r.body.constData());

        r = call("GET", hook, m_readOnly);
        QCOMPARE(r.status, 200);
        QVERIFY2(!leaks(r.body), r.body.constData());
        QCOMPARE(r.json().object().value(QStringLiteral("url_masked")).toBool(), true);
        r = call("GET", hook, m_admin); // the edit form's source
        QCOMPARE(r.json().object().value(QStringLiteral("url")).toString(), QString::fromLatin1(clear));
        QCOMPARE(r.json().object().value(QStringLiteral("url_masked")).toBool(), false);
        QVERIFY(!r.body.contains(kHeader)); // the header is never shown

        // The daemon logged the hook (its deactivation names it), never its credentials.
        QVERIFY(m_daemon.waitForMarker("was made inactive"));
        const QByteArray log = m_daemon.output();
        QVERIFY2(log.contains("http://***@127.0.0.1"), log.right(2000).constData());
        QVERIFY2(!leaks(log), log.right(2000).constData());
    }

    // A URL whose host is a refused address is refused when written, naming `url` and the range.
    void aRefusedAddressIsRefusedWhenWritten()
    {
        const HttpResult r = call("POST", QStringLiteral("/hooks"), m_admin, "{\"scope\":\"system\",\"url\":\"http://198.18.0.1/\"}");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorField(), QStringLiteral("url"));
        QVERIFY2(r.message().contains(QLatin1String("198.18.0.0/15 (benchmarking, RFC 2544)")), qPrintable(describe(r)));
    }

    // PATCH: another setting keeps the Authorization header, so does a new URL given with one; a
    // new URL without one drops it, and the answer says so.
    void aNewUrlAsksForTheAuthorizationHeaderAgain()
    {
        HttpResult r = call("POST", QStringLiteral("/hooks"), m_admin,
                            "{\"scope\":\"system\",\"url\":\"http://127.0.0.1:1/a\",\"authorization_header\":\"Bearer one\"}");
        QCOMPARE(r.status, 201);
        const QString hook = QStringLiteral("/hooks/%1").arg(r.json().object().value(QStringLiteral("id")).toInteger());

        r = call("PATCH", hook, m_admin, "{\"name\":\"renamed\"}");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.json().object().value(QStringLiteral("has_authorization")).toBool(), true);
        QVERIFY(!r.json().object().contains(QStringLiteral("authorization_cleared")));
        r = call("PATCH", hook, m_admin, "{\"url\":\"http://127.0.0.1:1/a\"}"); // the same URL
        QCOMPARE(r.json().object().value(QStringLiteral("has_authorization")).toBool(), true);
        r = call("PATCH", hook, m_admin, "{\"url\":\"http://127.0.0.1:2/b\",\"authorization_header\":\"Bearer two\"}");
        QCOMPARE(r.json().object().value(QStringLiteral("has_authorization")).toBool(), true);
        QVERIFY(!r.json().object().contains(QStringLiteral("authorization_cleared")));

        r = call("PATCH", hook, m_admin, "{\"url\":\"http://127.0.0.1:3/c\"}");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject moved = r.json().object();
        QCOMPARE(moved.value(QStringLiteral("has_authorization")).toBool(), false);
        QCOMPARE(moved.value(QStringLiteral("authorization_cleared")).toBool(), true);
        QVERIFY2(moved.value(QStringLiteral("notice")).toString().contains(QLatin1String("Authorization header was removed")),
                 qPrintable(describe(r)));
        QCOMPARE(call("GET", hook, m_admin).json().object().value(QStringLiteral("has_authorization")).toBool(), false);
    }
};

QTEST_GUILESS_MAIN(TestHookSecrets)
#include "tst_hooksecrets.moc"
