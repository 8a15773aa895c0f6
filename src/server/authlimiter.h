#pragma once

// The admin API's failed-authentication limiter (docs/security.md). The right token is never
// refused by it: only a request whose token does not match is checked and counted. Failures count
// against the presented credential and against the peer's network (an IPv4 address, all of
// 127.0.0.0/8 as one, an IPv6 /64 — HttpEdge::networkOf), so neither many loopback addresses nor
// many addresses of one /64 give a guesser fresh budgets, and one leaked-then-revoked credential
// tried from many networks is limited too. A request without any token guesses nothing and is not
// counted (a web page's background requests cannot lock the operator out).
//
// The table is bounded (kMaxEntries keys) and forgets a key once its newest failure is older than
// the window. Not thread-safe: the server's thread uses it.

#include <QByteArray>
#include <QString>

#include <chrono>
#include <deque>
#include <functional>
#include <map>

namespace Switchyard::Server {

class AuthLimiter
{
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::size_t kMaxEntries = 4096;

    AuthLimiter(int limit, std::chrono::milliseconds window, std::function<Clock::time_point()> now = &Clock::now);

    // Seconds to wait when `network` or `credential` has `limit` failures within the window; 0 otherwise.
    qint64 retryAfter(const QString &network, const QByteArray &credential);
    void fail(const QString &network, const QByteArray &credential);
    std::size_t size() const { return m_failures.size(); }

private:
    void expire(Clock::time_point now, bool force = false);
    void count(const QString &key, Clock::time_point now);
    qint64 wait(const QString &key, Clock::time_point now);

    const int m_limit;
    const std::chrono::milliseconds m_window;
    const std::function<Clock::time_point()> m_now;
    std::map<QString, std::deque<Clock::time_point>> m_failures; // "net:…" / "cred:…" → times, oldest first
    Clock::time_point m_lastExpiry{};
};

} // namespace Switchyard::Server
