#pragma once

// The audit log (GET /audit, the console's Audit page): one entry per mutating admin call — who
// (the token's name, never the token), from where, what, on what, and how it ended. Appended to
// audit.jsonl in the data directory (one JSON object per line, flushed per line, created 0600) and
// kept in memory for queries, the newest `memoryLimit` entries. Thread-safe.
//
// Audit before acting: a change first writes its entry with the result "started" (begin()); when
// that line cannot be written (a full disk, a read-only file system) the change is refused and
// nothing is changed. finish() then appends the same id with its result; on reading, the later
// line wins, so an entry left "started" is a change whose end was not recorded (a crash, or the
// disk filled in between). healthy() says whether the last write succeeded (/self-check).
//
// Fields are cleaned before they are written: control characters are escaped (\n, \x1b …) and each
// field is cut to kMaxField characters, so a hostile path cannot flood the file or a terminal.
// The file rotates at `maxSize` bytes: audit.jsonl → audit.jsonl.1 → … → audit.jsonl.<keep>, the
// oldest dropped; queries read across the rotated files (they are loaded at open).

#include "admintypes.h"

#include "engine/core/status.h"

#include <QDateTime>
#include <QFile>
#include <QString>

#include <deque>
#include <mutex>
#include <vector>

namespace Switchyard {
class EngineConfig;
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

struct AuditOptions
{
    std::size_t memoryLimit = 100000;
    qint64 maxSize = 16 << 20; // bytes before rotation
    int keep = 5;              // rotated files kept
};

class AuditLog
{
public:
    static constexpr const char *kFileName = "audit.jsonl";
    static constexpr int kMaxField = 256;
    static constexpr const char *kStarted = "started";

    // Reads what earlier runs wrote, rotated files included (a damaged line is skipped and
    // counted, not fatal). Creates the data directory 0700 and the file 0600 when missing.
    static Result<std::unique_ptr<AuditLog>> open(const QString &dataPath, AuditOptions options = {});
    // In the configuration's data path, rotating as [server] AUDIT_MAX_SIZE / AUDIT_KEEP say.
    static Result<std::unique_ptr<AuditLog>> open(const EngineConfig &config);

    // Writes `entry` as started and returns its id; Unavailable (naming the file and the error)
    // when the line cannot be written — the caller must then not act.
    Result<qint64> begin(AuditEntry entry);
    // Records how the change begun as `id` ended (and its target, known only now).
    void finish(qint64 id, const QString &target, const QString &result);
    // One finished entry at once (refusals: nothing was changed either way).
    AuditEntry record(AuditEntry entry);

    AuditPage query(const AuditQuery &query) const;
    qint64 skippedLines() const { return m_skipped; }
    // Ok, or why the last write failed (the log is then refusing changes until a write succeeds).
    Status healthy() const;
    // healthy() as a self-check row ("audit").
    SelfCheckItem check() const
    {
        const Status health = healthy();
        return {QStringLiteral("audit"), health.isOk(), health ? QStringLiteral("appending") : health.message(), 0};
    }

    // Escapes control characters and cuts to kMaxField characters.
    static QString clean(const QString &field) { return escapeControl(field, kMaxField); }
    // Control characters (C0, DEL, C1, bidi and other format characters) as \n, \x1b, \u202e …;
    // cut to `max` characters (then "…"). For anything a terminal or a log line will show.
    static QString escapeControl(const QString &text, qsizetype max);

private:
    AuditLog(QString path, AuditOptions options);
    Status append(const AuditEntry &entry); // m_mutex held
    void stamp(AuditEntry &entry);          // id, time, cleaned fields; m_mutex held
    void rotate();                          // m_mutex held
    void readFile(const QString &path);

    const QString m_path;
    const AuditOptions m_options;
    mutable std::mutex m_mutex;
    QFile m_file;                     // guarded by m_mutex
    std::deque<AuditEntry> m_entries; // guarded by m_mutex; oldest first
    qint64 m_nextId = 1;              // guarded by m_mutex
    qint64 m_skipped = 0;
    Status m_health = Status::ok(); // guarded by m_mutex
};

} // namespace Switchyard::Admin
