#pragma once

#include <pthread.h>

namespace Switchyard {

// A mutex that spins briefly before it sleeps (glibc's adaptive mutex), for locks held a few
// hundred nanoseconds by threads on different cores: std::mutex sleeps on the first collision,
// and on a small virtual machine a sleep and its wake-up cost tens of times the critical section.
// Lockable, so std::unique_lock and std::lock_guard take it; not for std::condition_variable.
class SpinMutex
{
public:
    SpinMutex() = default;
    SpinMutex(const SpinMutex &) = delete;
    SpinMutex &operator=(const SpinMutex &) = delete;
    ~SpinMutex() { pthread_mutex_destroy(&m_mutex); }

    void lock() { pthread_mutex_lock(&m_mutex); }
    bool try_lock() { return pthread_mutex_trylock(&m_mutex) == 0; }
    void unlock() { pthread_mutex_unlock(&m_mutex); }

private:
    pthread_mutex_t m_mutex = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
};

} // namespace Switchyard
