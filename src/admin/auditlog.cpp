#include "auditlog.h"

#include "startup.h"

#include "engine/settings/config.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Switchyard::Admin {

namespace {

QJsonObject toJson(const AuditEntry &entry)
{
    return QJsonObject{{QStringLiteral("id"), entry.id},
                       {QStringLiteral("at"), entry.at.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("actor"), entry.doer},
                       {QStringLiteral("remote_addr"), entry.remoteAddr},
                       {QStringLiteral("action"), entry.action},
                       {QStringLiteral("target"), entry.target},
                       {QStringLiteral("result"), entry.result}};
}

} // namespace

QString AuditLog::escapeControl(const QString &field, qsizetype max)
{
    QString out;
    out.reserve(std::min<qsizetype>(field.size(), max));
    for (QChar c : field) {
        if (out.size() >= max) {
            out.append(u'…');
            break;
        }
        const ushort u = c.unicode();
        if (u == '\n')
            out.append(QLatin1String("\\n"));
        else if (u == '\r')
            out.append(QLatin1String("\\r"));
        else if (u == '\t')
            out.append(QLatin1String("\\t"));
        else if (u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0))
            out.append(QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0')));
        else if (c.category() == QChar::Other_Format) // bidi overrides and friends
            out.append(QStringLiteral("\\u%1").arg(u, 4, 16, QLatin1Char('0')));
        else
            out.append(c);
    }
    return out;
}

AuditLog::AuditLog(QString path, AuditOptions options) : m_path(std::move(path)), m_options(options) {}

Result<std::unique_ptr<AuditLog>> AuditLog::open(const QString &dataPath, AuditOptions options)
{
    if (!makePrivateDirectory(dataPath))
        return Status::unavailable(QStringLiteral("cannot create the data directory %1: %2")
                                       .arg(dataPath, QString::fromLocal8Bit(std::strerror(errno))));
    std::unique_ptr<AuditLog> log(new AuditLog(QDir(dataPath).filePath(QLatin1String(kFileName)), options));
    for (int i = options.keep; i >= 1; --i)
        log->readFile(log->m_path + u'.' + QString::number(i));
    // Created 0600 (never wider, whatever the umask), so no other user ever sees a line.
    const int fd = ::open(QFile::encodeName(log->m_path).constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return Status::unavailable(QStringLiteral("cannot open the audit log %1: %2")
                                       .arg(log->m_path, QString::fromLocal8Bit(std::strerror(errno))));
    ::fchmod(fd, 0600);
    if (!log->m_file.open(fd, QIODevice::ReadWrite | QIODevice::Append | QIODevice::Unbuffered, QFileDevice::AutoCloseHandle))
        return Status::unavailable(QStringLiteral("cannot open the audit log %1: %2").arg(log->m_path, log->m_file.errorString()));
    log->readFile(log->m_path);
    return log;
}

Result<std::unique_ptr<AuditLog>> AuditLog::open(const EngineConfig &config)
{
    AuditOptions options;
    options.maxSize = config.server.auditMaxSize;
    options.keep = config.server.auditKeep;
    return open(config.dataPath(), options);
}

void AuditLog::readFile(const QString &path)
{
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly))
        return;
    std::map<qint64, std::size_t> index; // id → position in m_entries, for the finishing lines
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
        AuditEntry entry{qint64(o.value(QStringLiteral("id")).toDouble()),
                         at.toUTC(),
                         o.value(QStringLiteral("actor")).toString(),
                         o.value(QStringLiteral("remote_addr")).toString(),
                         o.value(QStringLiteral("action")).toString(),
                         o.value(QStringLiteral("target")).toString(),
                         o.value(QStringLiteral("result")).toString()};
        m_nextId = std::max(m_nextId, entry.id + 1);
        // A finishing line replaces its started line (searched among the recent entries).
        bool replaced = false;
        for (auto it = m_entries.rbegin(); it != m_entries.rend() && it - m_entries.rbegin() < 1024; ++it) {
            if (it->id == entry.id) {
                it->target = entry.target;
                it->result = entry.result;
                replaced = true;
                break;
            }
        }
        if (replaced)
            continue;
        m_entries.push_back(std::move(entry));
        if (m_entries.size() > m_options.memoryLimit)
            m_entries.pop_front();
    }
}

Status AuditLog::append(const AuditEntry &entry)
{
    const QByteArray line = QJsonDocument(toJson(entry)).toJson(QJsonDocument::Compact) + '\n';
    const qint64 before = m_file.size();
    if (m_file.write(line) != line.size()) { // unbuffered: this is the write(2)
        const QString error = m_file.errorString();
        m_file.unsetError();
        // What was not written is not kept either: the caller refuses the change.
        m_health = Status::unavailable(
            QStringLiteral("the audit log %1 cannot be written: %2").arg(m_path, error.isEmpty() ? QStringLiteral("write failed") : error));
        // A partial line would corrupt the next: cut the file back to its last full line.
        m_file.resize(before);
        return m_health;
    }
    m_health = Status::ok();
    if (m_file.size() >= m_options.maxSize)
        rotate();
    return Status::ok();
}

void AuditLog::rotate()
{
    const QString oldest = m_path + u'.' + QString::number(m_options.keep);
    QFile::remove(oldest);
    for (int i = m_options.keep - 1; i >= 1; --i)
        QFile::rename(m_path + u'.' + QString::number(i), m_path + u'.' + QString::number(i + 1));
    m_file.close();
    QFile::rename(m_path, m_path + QStringLiteral(".1"));
    const int fd = ::open(QFile::encodeName(m_path).constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || !m_file.open(fd, QIODevice::ReadWrite | QIODevice::Append | QIODevice::Unbuffered, QFileDevice::AutoCloseHandle)) {
        m_health = Status::unavailable(QStringLiteral("the audit log %1 cannot be reopened after rotation: %2")
                                           .arg(m_path, QString::fromLocal8Bit(std::strerror(errno))));
        if (fd >= 0)
            ::close(fd);
        return;
    }
    ::fchmod(fd, 0600);
}

void AuditLog::stamp(AuditEntry &entry)
{
    entry.id = m_nextId++;
    entry.at = QDateTime::currentDateTimeUtc();
    entry.doer = clean(entry.doer);
    entry.remoteAddr = clean(entry.remoteAddr);
    entry.action = clean(entry.action);
    entry.target = clean(entry.target);
}

Result<qint64> AuditLog::begin(AuditEntry entry)
{
    std::lock_guard lock(m_mutex);
    if (!m_file.isOpen())
        return m_health;
    stamp(entry);
    entry.result = QLatin1String(kStarted);
    if (Status written = append(entry); !written)
        return written;
    m_entries.push_back(entry);
    if (m_entries.size() > m_options.memoryLimit)
        m_entries.pop_front();
    return entry.id;
}

void AuditLog::finish(qint64 id, const QString &target, const QString &result)
{
    std::lock_guard lock(m_mutex);
    auto it = std::find_if(m_entries.rbegin(), m_entries.rend(), [id](const AuditEntry &e) { return e.id == id; });
    if (it == m_entries.rend())
        return;
    if (!target.isEmpty())
        it->target = clean(target);
    it->result = clean(result);
    if (m_file.isOpen())
        append(*it); // a failure here leaves the entry "started" on disk and the log unhealthy
}

AuditEntry AuditLog::record(AuditEntry entry)
{
    std::lock_guard lock(m_mutex);
    stamp(entry);
    entry.result = clean(entry.result);
    if (m_file.isOpen())
        append(entry);
    m_entries.push_back(entry);
    if (m_entries.size() > m_options.memoryLimit)
        m_entries.pop_front();
    return entry;
}

Status AuditLog::healthy() const
{
    std::lock_guard lock(m_mutex);
    return m_health;
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
