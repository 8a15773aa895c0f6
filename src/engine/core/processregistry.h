#pragma once

#include "processinfo.h"
#include "cancellation.h"
#include "status.h"

#include <QDateTime>
#include <QString>

#include <memory>
#include <map>
#include <mutex>
#include <vector>

namespace Switchyard {

// Lists what the instance is doing right now, for the console's Processes page and the admin API.
// Thread-safe. The registry must outlive every Handle it hands out.
//
// A cancellable process runs on a token the registry hands out: the registry owns the matching
// CancelSource (shared with the Handle), so cancelProcess() never calls into code that may have
// returned meanwhile — there is no caller-supplied callback to outlive its stack frame.
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
        // The process's token: cancelled by cancelProcess(), by its parent token, or when the
        // handle is reset. Never cancelled for a process registered with add().
        CancelToken token() const { return m_cancel ? m_cancel->token() : CancelToken(); }
        void reset();
        // Publishes the process's progress (ProcessInfo::done/total). Any thread.
        void setProgress(qint64 done, qint64 total) const;

    private:
        friend class ProcessRegistry;
        Handle(ProcessRegistry *registry, qint64 pid, std::shared_ptr<CancelSource> cancel)
            : m_registry(registry), m_pid(pid), m_cancel(std::move(cancel))
        {
        }

        ProcessRegistry *m_registry = nullptr; // Not owned.
        qint64 m_pid = 0;
        std::shared_ptr<CancelSource> m_cancel; // shared with the registry entry; null when not cancellable
    };

    // Registers a process that cannot be cancelled from the registry.
    [[nodiscard]] Handle add(ProcessType type, const QString &description, qint64 parentPid = 0);
    // Registers a cancellable process: its token (Handle::token()) is a child of `parent`, and
    // cancelProcess() cancels it.
    [[nodiscard]] Handle addCancellable(const CancelToken &parent, ProcessType type, const QString &description,
                                        qint64 parentPid = 0);

    // Every live process, ordered by pid (so parents come before their children).
    std::vector<ProcessInfo> list() const;
    std::size_t size() const;

    // NotFound for an unknown pid, InvalidArgument for a process that cannot be cancelled.
    // Returns at once; the process sees its token cancelled with `reason`.
    Status cancelProcess(qint64 pid, const QString &reason = QStringLiteral("cancelled by an administrator"));

private:
    struct Entry
    {
        ProcessInfo info;
        std::shared_ptr<CancelSource> cancel;
    };

    Handle insert(ProcessType type, const QString &description, qint64 parentPid, std::shared_ptr<CancelSource> cancel);

    void remove(qint64 pid);
    void setProgress(qint64 pid, qint64 done, qint64 total);

    mutable std::mutex m_mutex;
    std::map<qint64, Entry> m_processes; // guarded by m_mutex
    qint64 m_nextPid = 0;                // guarded by m_mutex
};

} // namespace Switchyard
