#include "unixsignals.h"

#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/signalfd.h>
#include <unistd.h>

namespace {

sigset_t setOf(std::initializer_list<int> signalNumbers)
{
    sigset_t set;
    sigemptyset(&set);
    for (int signalNumber : signalNumbers)
        sigaddset(&set, signalNumber);
    return set;
}

} // namespace

void UnixSignals::blockSignals(std::initializer_list<int> signalNumbers)
{
    const sigset_t set = setOf(signalNumbers);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

UnixSignals::UnixSignals(std::initializer_list<int> signalNumbers, QObject *parent) : QObject(parent)
{
    const sigset_t set = setOf(signalNumbers);
    pthread_sigmask(SIG_BLOCK, &set, nullptr); // in case blockSignals() was not called
    m_fd = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (m_fd < 0) {
        std::perror("switchyardd: signalfd");
        return;
    }
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &UnixSignals::readPending);
}

UnixSignals::~UnixSignals()
{
    delete m_notifier;
    m_notifier = nullptr;
    if (m_fd >= 0)
        ::close(m_fd); // the signals stay blocked: a late one cannot kill the clean exit
}

void UnixSignals::readPending()
{
    signalfd_siginfo info{};
    while (::read(m_fd, &info, sizeof(info)) == ssize_t(sizeof(info)))
        Q_EMIT received(int(info.ssi_signo));
}
