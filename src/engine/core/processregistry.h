#pragma once

#include "status.h"

#include <QDateTime>
#include <QString>

#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace Switchyard {

// What a registered process is (Gitea's process manager types).
enum class ProcessType {
    System,  // a long-running component: a queue's worker pool, the cron scheduler
    Normal,  // a unit of work: a cron run, a flush, a delivery, an admin job
    Request, // an admin API request
};

QString processTypeName(ProcessType type);

struct ProcessInfo
{
    qint64 pid = 0;
    qint64 parentPid = 0; // 0: no parent
    ProcessType type = ProcessType::Normal;
    QString description;
    QDateTime startedAt; // UTC
    bool cancellable = false;
};

// Lists what the instance is doing right now, for the console's Processes page and the admin API.
// Thread-safe. The registry must outlive every Handle it hands out.
class ProcessRegistry
{
public:
    // Keeps a process listed; destroying (or reset()) removes it. Move-only.
    class Handle
    {
    public:
        Handle() = default;
        Handle(Handle &&other) noexcept;
        Handle &operator=(Handle &&other) noexcept;
        Handle(const Handle &) = delete;
        Handle &operator=(const Handle &) = delete;
        ~Handle() { reset(); }

        qint64 pid() const { return m_pid; }
        void reset();

    private:
        friend class ProcessRegistry;
        Handle(ProcessRegistry *registry, qint64 pid) : m_registry(registry), m_pid(pid) {}

        ProcessRegistry *m_registry = nullptr; // Not owned.
        qint64 m_pid = 0;
    };

    // Registers a process. `cancel`, when given, is what cancelProcess() calls; it must not block.
    [[nodiscard]] Handle add(ProcessType type, const QString &description, qint64 parentPid = 0,
                             std::function<void()> cancel = {});

    // Every live process, ordered by pid (so parents come before their children).
    std::vector<ProcessInfo> list() const;
    std::size_t size() const;

    // NotFound for an unknown pid, InvalidArgument for a process that cannot be cancelled.
    Status cancelProcess(qint64 pid);

private:
    struct Entry
    {
        ProcessInfo info;
        std::function<void()> cancel;
    };

    void remove(qint64 pid);

    mutable std::mutex m_mutex;
    std::map<qint64, Entry> m_processes; // guarded by m_mutex
    qint64 m_nextPid = 0;                // guarded by m_mutex
};

} // namespace Switchyard
