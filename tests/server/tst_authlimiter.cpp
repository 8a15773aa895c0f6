// The failed-authentication limiter's rules on an injected clock: per network and per credential,
// a window that forgets, and a table that stays bounded whatever the peers do.
#include "server/authlimiter.h"
#include "server/httpedge.h"

#include <QHostAddress>
#include <QTest>

using namespace Switchyard::Server;
using namespace std::chrono_literals;

class TestAuthLimiter : public QObject
{
    Q_OBJECT

    AuthLimiter::Clock::time_point m_now = AuthLimiter::Clock::time_point(1h);
    AuthLimiter make(int limit) { return AuthLimiter(limit, 60s, [this] { return m_now; }); }

private Q_SLOTS:
    void networksGroupLoopbackAndIpv6Prefixes()
    {
        QCOMPARE(HttpEdge::networkOf(QHostAddress(QStringLiteral("127.0.0.1"))), HttpEdge::networkOf(QHostAddress(QStringLiteral("127.9.8.7"))));
        QCOMPARE(HttpEdge::networkOf(QHostAddress(QStringLiteral("::1"))), HttpEdge::networkOf(QHostAddress(QStringLiteral("127.0.0.1"))));
        QCOMPARE(HttpEdge::networkOf(QHostAddress(QStringLiteral("::ffff:192.0.2.1"))), QStringLiteral("192.0.2.1"));
        QVERIFY(HttpEdge::networkOf(QHostAddress(QStringLiteral("192.0.2.1"))) != HttpEdge::networkOf(QHostAddress(QStringLiteral("192.0.2.2"))));
        QCOMPARE(HttpEdge::networkOf(QHostAddress(QStringLiteral("2001:db8:1:2::1"))),
                 HttpEdge::networkOf(QHostAddress(QStringLiteral("2001:db8:1:2:ffff:eeee:dddd:cccc"))));
        QVERIFY(HttpEdge::networkOf(QHostAddress(QStringLiteral("2001:db8:1:2::1")))
                != HttpEdge::networkOf(QHostAddress(QStringLiteral("2001:db8:1:3::1"))));
    }

    void aNetworkIsLimitedAfterItsFailuresThenForgiven()
    {
        AuthLimiter limiter = make(3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(limiter.retryAfter(QStringLiteral("192.0.2.1"), "cred" + QByteArray::number(i)), 0);
            limiter.fail(QStringLiteral("192.0.2.1"), "cred" + QByteArray::number(i));
        }
        const qint64 wait = limiter.retryAfter(QStringLiteral("192.0.2.1"), "fresh");
        QVERIFY(wait >= 1 && wait <= 61);
        QCOMPARE(limiter.retryAfter(QStringLiteral("192.0.2.9"), "fresh"), 0); // another network is not affected
        m_now += 61s;
        QCOMPARE(limiter.retryAfter(QStringLiteral("192.0.2.1"), "fresh"), 0);
        QCOMPARE(limiter.size(), std::size_t(0)); // expired entries are dropped, not kept
    }

    void oneCredentialIsLimitedFromEveryNetwork()
    {
        AuthLimiter limiter = make(3);
        for (int i = 0; i < 3; ++i)
            limiter.fail(QStringLiteral("198.51.100.%1").arg(i), "leaked");
        QVERIFY(limiter.retryAfter(QStringLiteral("203.0.113.5"), "leaked") > 0);
        QCOMPARE(limiter.retryAfter(QStringLiteral("203.0.113.5"), "other"), 0);
    }

    void theTableStaysBounded()
    {
        AuthLimiter limiter = make(3);
        for (int i = 0; i < 20000; ++i) {
            m_now += 1ms;
            limiter.fail(QStringLiteral("net-%1").arg(i), "c" + QByteArray::number(i));
        }
        QVERIFY(limiter.size() <= AuthLimiter::kMaxEntries);
        // The newest survive: a network still failing is still counted.
        for (int i = 0; i < 2; ++i)
            limiter.fail(QStringLiteral("net-19999"), "x");
        QVERIFY(limiter.retryAfter(QStringLiteral("net-19999"), "y") > 0);
    }
};

QTEST_GUILESS_MAIN(TestAuthLimiter)
#include "tst_authlimiter.moc"
