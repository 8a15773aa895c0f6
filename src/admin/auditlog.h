#pragma once

// The audit log (GET /audit, the console's Audit page): one entry per mutating admin call — who
// (the token's name, never the token), from where, what, on what, and how it ended. Appended to
// audit.jsonl in the data directory (one JSON object per line, flushed per entry) and kept in
// memory for queries, the newest `memoryLimit` entries. Thread-safe.

#include "engine/core/status.h"

#include <QDateTime>
#include <QFile>
#include <QString>

#include <deque>
#include <mutex>
#include <vector>

namespace Switchyard::Admin {

struct AuditEntry
{
    qint64 id = 0;
    QDateTime at; // UTC
    QString actor;
    QString remoteAddr; // "local" for the console's embedded engine
    QString action;     // e.g. "queue.flush", "cron.run", "lock.force-release"
    QString target;     // the queue id, task name, lock key …
    QString result;     // "ok" or "<http status> <message>"

    bool operator==(const AuditEntry &) const = default;
};

struct AuditQuery
{
    QString action;  // exact match; empty: any
    QDateTime since; // invalid: any
    int page = 1;
    int limit = 50;
};

struct AuditPage
{
    std::vector<AuditEntry> entries; // newest first
    qint64 total = 0;                // matching entries, for X-Total-Count
};

class AuditLog
{
public:
    static constexpr const char *kFileName = "audit.jsonl";

    // Reads what earlier runs wrote (a damaged line is skipped and counted, not fatal).
    static Result<std::unique_ptr<AuditLog>> open(const QString &dataPath, std::size_t memoryLimit = 100000);

    // Stamps id and time, appends, returns the entry.
    AuditEntry record(AuditEntry entry);
    AuditPage query(const AuditQuery &query) const;
    qint64 skippedLines() const { return m_skipped; }

private:
    AuditLog(QString path, std::size_t memoryLimit);

    const QString m_path;
    const std::size_t m_memoryLimit;
    mutable std::mutex m_mutex;
    QFile m_file;                   // guarded by m_mutex
    std::deque<AuditEntry> m_entries; // guarded by m_mutex; oldest first
    qint64 m_nextId = 1;            // guarded by m_mutex
    qint64 m_skipped = 0;
};

} // namespace Switchyard::Admin
