#include "auditlog.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>

namespace Switchyard::Admin {

AuditLog::AuditLog(QString path, std::size_t memoryLimit) : m_path(std::move(path)), m_memoryLimit(memoryLimit) {}

Result<std::unique_ptr<AuditLog>> AuditLog::open(const QString &dataPath, std::size_t memoryLimit)
{
    if (!QDir().mkpath(dataPath))
        return Status::unavailable(QStringLiteral("cannot create the data directory %1").arg(dataPath));
    std::unique_ptr<AuditLog> log(new AuditLog(QDir(dataPath).filePath(QLatin1String(kFileName)), memoryLimit));
    log->m_file.setFileName(log->m_path);
    if (!log->m_file.open(QIODevice::ReadWrite | QIODevice::Append))
        return Status::unavailable(QStringLiteral("cannot open the audit log %1: %2").arg(log->m_path, log->m_file.errorString()));
    log->m_file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    log->m_file.seek(0);
    while (!log->m_file.atEnd()) {
        const QByteArray line = log->m_file.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        const QDateTime at = QDateTime::fromString(o.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs);
        if (o.isEmpty() || !at.isValid()) {
            ++log->m_skipped;
            continue;
        }
        AuditEntry entry{qint64(o.value(QStringLiteral("id")).toDouble()),
                         at.toUTC(),
                         o.value(QStringLiteral("actor")).toString(),
                         o.value(QStringLiteral("remote_addr")).toString(),
                         o.value(QStringLiteral("action")).toString(),
                         o.value(QStringLiteral("target")).toString(),
                         o.value(QStringLiteral("result")).toString()};
        log->m_nextId = std::max(log->m_nextId, entry.id + 1);
        log->m_entries.push_back(std::move(entry));
        if (log->m_entries.size() > memoryLimit)
            log->m_entries.pop_front();
    }
    log->m_file.seek(log->m_file.size());
    return log;
}

AuditEntry AuditLog::record(AuditEntry entry)
{
    std::lock_guard lock(m_mutex);
    entry.id = m_nextId++;
    entry.at = QDateTime::currentDateTimeUtc();
    const QJsonObject o{{QStringLiteral("id"), entry.id},
                        {QStringLiteral("at"), entry.at.toString(Qt::ISODateWithMs)},
                        {QStringLiteral("actor"), entry.actor},
                        {QStringLiteral("remote_addr"), entry.remoteAddr},
                        {QStringLiteral("action"), entry.action},
                        {QStringLiteral("target"), entry.target},
                        {QStringLiteral("result"), entry.result}};
    if (m_file.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n') < 0 || !m_file.flush())
        qWarning("audit log %s: cannot append: %s", qPrintable(m_path), qPrintable(m_file.errorString()));
    m_entries.push_back(entry);
    if (m_entries.size() > m_memoryLimit)
        m_entries.pop_front();
    return entry;
}

AuditPage AuditLog::query(const AuditQuery &query) const
{
    AuditPage page;
    const qint64 skip = qint64(query.page - 1) * query.limit;
    std::lock_guard lock(m_mutex);
    for (auto it = m_entries.rbegin(); it != m_entries.rend(); ++it) {
        if (!query.action.isEmpty() && it->action != query.action)
            continue;
        if (query.since.isValid() && it->at < query.since)
            continue;
        if (page.total >= skip && qint64(page.entries.size()) < query.limit)
            page.entries.push_back(*it);
        ++page.total;
    }
    return page;
}

} // namespace Switchyard::Admin
