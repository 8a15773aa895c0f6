#include "processregistry.h"

namespace Switchyard {

QString processTypeName(ProcessType type)
{
    switch (type) {
    case ProcessType::System: return QStringLiteral("system");
    case ProcessType::Normal: return QStringLiteral("normal");
    case ProcessType::Request: return QStringLiteral("request");
    }
    return QStringLiteral("normal");
}

ProcessRegistry::Handle::Handle(Handle &&other) noexcept
    : m_registry(std::exchange(other.m_registry, nullptr)), m_pid(std::exchange(other.m_pid, 0)),
      m_cancel(std::move(other.m_cancel))
{
}

ProcessRegistry::Handle &ProcessRegistry::Handle::operator=(Handle &&other) noexcept
{
    if (this != &other) {
        reset();
        m_registry = std::exchange(other.m_registry, nullptr);
        m_pid = std::exchange(other.m_pid, 0);
        m_cancel = std::move(other.m_cancel);
    }
    return *this;
}

void ProcessRegistry::Handle::reset()
{
    if (m_registry)
        m_registry->remove(m_pid);
    m_registry = nullptr;
    m_pid = 0;
    m_cancel.reset(); // the last owner's destructor cancels the token: the process has ended
}

void ProcessRegistry::Handle::setProgress(qint64 done, qint64 total) const
{
    if (m_registry)
        m_registry->setProgress(m_pid, done, total);
}

void ProcessRegistry::setProgress(qint64 pid, qint64 done, qint64 total)
{
    std::lock_guard lock(m_mutex);
    if (auto it = m_processes.find(pid); it != m_processes.end()) {
        it->second.info.done = done;
        it->second.info.total = total;
    }
}

ProcessRegistry::Handle ProcessRegistry::add(ProcessType type, const QString &description, qint64 parentPid)
{
    return insert(type, description, parentPid, nullptr);
}

ProcessRegistry::Handle ProcessRegistry::addCancellable(const CancelToken &parent, ProcessType type,
                                                        const QString &description, qint64 parentPid)
{
    return insert(type, description, parentPid, std::make_shared<CancelSource>(parent));
}

ProcessRegistry::Handle ProcessRegistry::insert(ProcessType type, const QString &description, qint64 parentPid,
                                                std::shared_ptr<CancelSource> cancel)
{
    std::lock_guard lock(m_mutex);
    const qint64 pid = ++m_nextPid;
    Entry entry;
    entry.info.pid = pid;
    entry.info.parentPid = parentPid;
    entry.info.type = type;
    entry.info.description = description;
    entry.info.startedAt = QDateTime::currentDateTimeUtc();
    entry.info.cancellable = cancel != nullptr;
    entry.cancel = cancel;
    m_processes.emplace(pid, std::move(entry));
    return Handle(this, pid, std::move(cancel));
}

std::vector<ProcessInfo> ProcessRegistry::list() const
{
    std::lock_guard lock(m_mutex);
    std::vector<ProcessInfo> result;
    result.reserve(m_processes.size());
    for (const auto &[pid, entry] : m_processes)
        result.push_back(entry.info);
    return result;
}

std::size_t ProcessRegistry::size() const
{
    std::lock_guard lock(m_mutex);
    return m_processes.size();
}

Status ProcessRegistry::cancelProcess(qint64 pid, const QString &reason)
{
    std::shared_ptr<CancelSource> cancel;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_processes.find(pid);
        if (it == m_processes.end())
            return Status::notFound(QStringLiteral("no process with pid %1").arg(pid));
        if (!it->second.cancel)
            return Status::conflict(QStringLiteral("process %1 (%2) cannot be cancelled")
                                               .arg(pid)
                                               .arg(it->second.info.description));
        cancel = it->second.cancel;
    }
    // Outside the lock: the token's callbacks may end the process, which removes its entry. The
    // shared source stays alive for this call whatever the process does meanwhile.
    cancel->cancel(reason);
    return Status::ok();
}

void ProcessRegistry::remove(qint64 pid)
{
    std::lock_guard lock(m_mutex);
    m_processes.erase(pid);
}

} // namespace Switchyard
