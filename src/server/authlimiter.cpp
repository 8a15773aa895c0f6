#include "authlimiter.h"

#include <algorithm>
#include <vector>

namespace Switchyard::Server {

namespace {

QString networkKey(const QString &network)
{
    return QStringLiteral("net:") + network;
}

QString credentialKey(const QByteArray &credential)
{
    return QStringLiteral("cred:") + QString::fromLatin1(credential.left(16).toHex());
}

} // namespace

AuthLimiter::AuthLimiter(int limit, std::chrono::milliseconds window, std::function<Clock::time_point()> now)
    : m_limit(limit), m_window(window), m_now(std::move(now))
{
}

qint64 AuthLimiter::retryAfter(const QString &network, const QByteArray &credential)
{
    const Clock::time_point now = m_now();
    expire(now);
    return std::max(wait(networkKey(network), now), credential.isEmpty() ? 0 : wait(credentialKey(credential), now));
}

void AuthLimiter::fail(const QString &network, const QByteArray &credential)
{
    const Clock::time_point now = m_now();
    count(networkKey(network), now);
    if (!credential.isEmpty())
        count(credentialKey(credential), now);
}

qint64 AuthLimiter::wait(const QString &key, Clock::time_point now)
{
    const auto it = m_failures.find(key);
    if (it == m_failures.end())
        return 0;
    auto &times = it->second;
    while (!times.empty() && now - times.front() > m_window)
        times.pop_front();
    if (int(times.size()) < m_limit)
        return 0;
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(m_window - (now - times.front()));
    return std::max<qint64>(1, left.count() + 1);
}

void AuthLimiter::count(const QString &key, Clock::time_point now)
{
    auto it = m_failures.find(key);
    if (it == m_failures.end()) {
        if (m_failures.size() >= kMaxEntries) {
            expire(now, true); // drop what has expired
            if (m_failures.size() >= kMaxEntries) {
                // Still full: forget the eighth whose newest failures are oldest (amortised, not per insert).
                std::vector<decltype(m_failures)::iterator> all;
                all.reserve(m_failures.size());
                for (auto entry = m_failures.begin(); entry != m_failures.end(); ++entry)
                    all.push_back(entry);
                const auto cut = all.begin() + std::ptrdiff_t(kMaxEntries / 8);
                std::nth_element(all.begin(), cut, all.end(),
                                 [](const auto &a, const auto &b) { return a->second.back() < b->second.back(); });
                for (auto stale = all.begin(); stale != cut; ++stale)
                    m_failures.erase(*stale);
            }
        }
        it = m_failures.emplace(key, std::deque<Clock::time_point>()).first;
    }
    it->second.push_back(now);
    // Only the newest `limit` failures matter.
    while (int(it->second.size()) > m_limit)
        it->second.pop_front();
}

void AuthLimiter::expire(Clock::time_point now, bool force)
{
    if (!force && now - m_lastExpiry < m_window / 4)
        return;
    m_lastExpiry = now;
    std::erase_if(m_failures, [&](const auto &entry) { return entry.second.empty() || now - entry.second.back() > m_window; });
}

} // namespace Switchyard::Server
