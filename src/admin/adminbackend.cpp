#include "adminbackend.h"

namespace Switchyard::Admin {

void AdminJob::setProgress(qint64 done, qint64 total)
{
    if (m_finished || (done == m_done && total == m_total))
        return;
    m_done = done;
    m_total = total;
    Q_EMIT progress(done, total);
}

void AdminJob::finish(Status result)
{
    if (m_finished)
        return;
    m_finished = true;
    m_result = std::move(result);
    Q_EMIT finished(m_result);
    deleteLater();
}

AdminBackend::~AdminBackend()
{
    // Deliveries never sent, or sent but not yet handed over: no reply reaches its context any more
    // (it could call into a backend being destroyed).
    for (QObject *carrier : std::exchange(m_carriers, {})) {
        carrier->disconnect();
        delete carrier;
    }
}

void AdminBackend::setState(State state, const QString &message)
{
    if (state == m_state && message == m_stateMessage)
        return;
    m_state = state;
    m_stateMessage = message;
    Q_EMIT stateChanged(state, message);
}

} // namespace Switchyard::Admin
