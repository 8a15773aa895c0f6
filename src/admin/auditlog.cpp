#include "auditlog.h"

#include "engine/core/wholenumber.h"
#include "engine/store/store.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <QSqlQuery>

#include <algorithm>
#include <map>

namespace Switchyard::Admin {



Result<std::unique_ptr<AuditLog>> AuditLog::open(Store &store, const QString &dataPath)
{
    std::unique_ptr<AuditLog> log(new AuditLog(store));
    if (Status imported = log->importFiles(dataPath); !imported)
        return imported;
    return log;
}

// audit.jsonl.N … audit.jsonl.1, audit.jsonl: oldest first. A finishing line (the same id again)
// replaces the result of its started line. Ids are not kept: the table numbers its rows, in the
// files' order.
Status AuditLog::importFiles(const QString &dataPath)
{
    const QDir dir(dataPath);
    QStringList files = dir.entryList({QLatin1String(kFileName) + QStringLiteral(".*")}, QDir::Files);
    files.removeIf([](const QString &name) { return name.endsWith(QLatin1String(".imported")); });
    std::sort(files.begin(), files.end(), [](const QString &a, const QString &b) {
        return a.section(u'.', -1).toInt() > b.section(u'.', -1).toInt(); // .5 before .1
    });
    if (dir.exists(QLatin1String(kFileName)))
        files.append(QLatin1String(kFileName));
    if (files.isEmpty())
        return Status::ok();
    std::vector<AuditEntry> entries;
    std::map<qint64, std::size_t> byId; // the file's id → position, for the finishing lines
    for (const QString &name : std::as_const(files)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            return Status::unavailable(QStringLiteral("cannot read the former audit log %1: %2").arg(file.fileName(), file.errorString()));
        byId.clear();
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const QDateTime at = QDateTime::fromString(o.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs);
            if (o.isEmpty() || !at.isValid()) {
                ++m_skipped;
                continue;
            }
            // Without a whole id in range (no cast of 1e30, #48) the line counts as id 0, as one without an id always did.
            const qint64 id = wholeNumber<qint64>(o.value(QStringLiteral("id"))).value_or(0);
            if (auto found = byId.find(id); found != byId.end()) {
                entries[found->second].target = o.value(QStringLiteral("target")).toString();
                entries[found->second].result = o.value(QStringLiteral("result")).toString();
                continue;
            }
            byId[id] = entries.size();
            entries.push_back({0, at.toUTC(), o.value(QStringLiteral("actor")).toString(), o.value(QStringLiteral("remote_addr")).toString(),
                               o.value(QStringLiteral("action")).toString(), o.value(QStringLiteral("target")).toString(),
                               o.value(QStringLiteral("result")).toString()});
        }
    }
    const Status written = m_store.write([&](SqlTransaction &tx) -> Status {
        for (const AuditEntry &e : entries)
            if (Status s = tx.exec(QStringLiteral("INSERT INTO audit (at_ms, actor, remote_addr, action, target, result) VALUES (?, ?, ?, ?, ?, ?)"),
                                   {toStoreMs(e.at), clean(e.doer), clean(e.remoteAddr), clean(e.action), clean(e.target), clean(e.result)})
                               .status();
                !s)
                return s;
        return Status::ok();
    });
    if (!written)
        return Status::unavailable(QStringLiteral("cannot import the former audit log into the database: %1").arg(written.message()));
    for (const QString &name : std::as_const(files))
        QFile::rename(dir.filePath(name), dir.filePath(name + QStringLiteral(".imported")));
    qInfo("audit: imported %lld entries of %s into the database (%lld damaged lines skipped)", qlonglong(entries.size()),
          qPrintable(dir.filePath(QLatin1String(kFileName))), qlonglong(m_skipped));
    return Status::ok();
}

Status AuditLog::noteWrite(const Status &written)
{
    std::lock_guard lock(m_mutex);
    m_health = written ? Status::ok()
                       : Status::unavailable(QStringLiteral("the audit log cannot be written to the database: %1").arg(written.message()));
    return m_health;
}

namespace {

// An entry's fields as stored: stamped now, each cleaned.
QVariantList storedFields(const AuditEntry &e, const QString &result)
{
    return {QDateTime::currentMSecsSinceEpoch(), AuditLog::clean(e.doer), AuditLog::clean(e.remoteAddr), AuditLog::clean(e.action),
            AuditLog::clean(e.target), AuditLog::clean(result)};
}

const QString kInsert = QStringLiteral("INSERT INTO audit (at_ms, actor, remote_addr, action, target, result) VALUES (?, ?, ?, ?, ?, ?) RETURNING id");

AuditEntry rowFrom(const QSqlQuery &q)
{
    return {q.value(0).toLongLong(), fromStoreMs(q.value(1).toLongLong()), q.value(2).toString(), q.value(3).toString(),
            q.value(4).toString(),   q.value(5).toString(),                q.value(6).toString()};
}

} // namespace

Result<qint64> AuditLog::begin(AuditEntry entry)
{
    const QVariantList fields = storedFields(entry, QLatin1String(kStarted));
    Result<qint64> id = m_store.writeValue<qint64>([&](SqlTransaction &tx) { return tx.insertReturningId(kInsert, fields); });
    if (Status noted = noteWrite(id.status()); !noted)
        return noted;
    return id;
}

void AuditLog::finish(qint64 id, const QString &target, const QString &result)
{
    // A failure leaves the entry "started" and the log unhealthy (the self-check says so).
    noteWrite(m_store.write([&](SqlTransaction &tx) {
        if (target.isEmpty())
            return tx.exec(QStringLiteral("UPDATE audit SET result = ? WHERE id = ?"), {clean(result), id}).status();
        return tx.exec(QStringLiteral("UPDATE audit SET result = ?, target = ? WHERE id = ?"), {clean(result), clean(target), id}).status();
    }));
}

AuditEntry AuditLog::record(AuditEntry entry)
{
    const QVariantList fields = storedFields(entry, entry.result);
    Result<qint64> id = m_store.writeValue<qint64>([&](SqlTransaction &tx) { return tx.insertReturningId(kInsert, fields); });
    noteWrite(id.status());
    return {id.valueOr(0), fromStoreMs(fields[0].toLongLong()), fields[1].toString(), fields[2].toString(),
            fields[3].toString(), fields[4].toString(), fields[5].toString()};
}

Status AuditLog::healthy() const
{
    std::lock_guard lock(m_mutex);
    return m_health;
}

Result<AuditPage> AuditLog::query(const AuditQuery &query) const
{
    return m_store.readValue<AuditPage>([&](SqlTransaction &tx) -> Result<AuditPage> {
        QString where = QStringLiteral(" WHERE 1 = 1");
        QVariantList values;
        if (!query.action.isEmpty()) {
            where += QStringLiteral(" AND action = ?");
            values.append(query.action);
        }
        if (query.since.isValid()) {
            where += QStringLiteral(" AND at_ms >= ?");
            values.append(toStoreMs(query.since));
        }
        AuditPage page;
        Result<qint64> total = tx.scalar(QStringLiteral("SELECT COUNT(*) FROM audit") + where, values);
        if (!total)
            return total.status();
        page.total = *total;
        Result<QSqlQuery> rows =
            tx.exec(QStringLiteral("SELECT id, at_ms, actor, remote_addr, action, target, result FROM audit") + where +
                        QStringLiteral(" ORDER BY id DESC LIMIT ? OFFSET ?"),
                    values + QVariantList{query.limit, qint64(query.page - 1) * query.limit});
        if (!rows)
            return rows.status();
        while (rows->next())
            page.entries.push_back(rowFrom(*rows));
        return page;
    });
}

} // namespace Switchyard::Admin
