#pragma once

// The audit log (GET /audit, the console's Audit page): one entry per mutating admin call — who
// (the token's name, never the token), from where, what, on what, and how it ended. Kept in the
// store's `audit` table (storage.md), so instances sharing PostgreSQL share one log and GET /audit
// pages in SQL. Thread-safe.
//
// Audit before acting: a change first writes its entry with the result "started" (begin()); when
// it cannot be written (a full disk, a database that is down) the change is refused and nothing
// is changed. finish() then records the result; an entry left "started" is a change whose end was
// not recorded (a crash, or the database failed in between). healthy() says whether the last
// write succeeded (/self-check).
//
// Fields are cleaned before they are written: control characters are escaped (\n, \x1b …) and each
// field is cut to kMaxField characters, so a hostile path cannot flood the log or a terminal.
// Versions before the store wrote audit.jsonl (and rotated audit.jsonl.N) in the data directory:
// open() imports those files once, oldest first, and renames each to <file>.imported.

#include "admintypes.h"

#include "engine/core/escape.h"
#include "engine/core/status.h"

#include <QDateTime>
#include <QString>

#include <mutex>
#include <vector>

namespace Switchyard {
class Store;
}

namespace Switchyard::Admin {

struct AuditEntry
{
    qint64 id = 0;
    QDateTime at; // UTC
    QString doer; // the API's "actor": a token's name or "console (<user>)"
    QString remoteAddr; // "local" for the console's embedded engine
    QString action;     // e.g. "queue.flush", "cron.run", "lock.force-release"
    QString target;     // the queue id, task name, lock key …
    QString result;     // "ok", "started" (not finished), or "<http status> <message>"

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
    static constexpr const char *kFileName = "audit.jsonl"; // the former file, imported once
    static constexpr int kMaxField = 256;
    static constexpr const char *kStarted = "started";

    // The log in `store` (not owned); imports the former files of `dataPath` first. Fails when
    // they cannot be read or imported (nothing is renamed then: the next start tries again).
    static Result<std::unique_ptr<AuditLog>> open(Store &store, const QString &dataPath);

    // Writes `entry` as started and returns its id; Unavailable (naming the database's error)
    // when it cannot be written — the caller must then not act.
    Result<qint64> begin(AuditEntry entry);
    // Records how the change begun as `id` ended (and its target, known only now).
    void finish(qint64 id, const QString &target, const QString &result);
    // One finished entry at once (refusals: nothing was changed either way).
    AuditEntry record(AuditEntry entry);

    Result<AuditPage> query(const AuditQuery &query) const;
    qint64 skippedLines() const { return m_skipped; } // damaged lines of the imported files
    // Ok, or why the last write failed (the log is then refusing changes until a write succeeds).
    Status healthy() const;
    // healthy() as a self-check row ("audit").
    SelfCheckItem check() const
    {
        const Status health = healthy();
        return {QStringLiteral("audit"), health.isOk(), health ? QStringLiteral("writing to the database") : health.message(), 0};
    }

    // Escapes control characters and cuts to kMaxField characters.
    static QString clean(const QString &field) { return escapeControl(field, kMaxField); }
    // Control characters escaped (engine/core/escape.h), cut to `max` characters.
    static QString escapeControl(const QString &text, qsizetype max) { return Switchyard::escapeControl(text, max); }

private:
    explicit AuditLog(Store &store) : m_store(store) {}
    Status importFiles(const QString &dataPath);
    Status noteWrite(const Status &written); // keeps the health; returns `written`

    Store &m_store;
    qint64 m_skipped = 0;
    mutable std::mutex m_mutex;
    Status m_health = Status::ok(); // guarded by m_mutex
};

} // namespace Switchyard::Admin
