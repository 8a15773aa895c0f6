// Instances in the store: the node lock, registration, the heartbeat thread and its recoverers.
#include "instances.h"

#include "store.h"

#include "engine/core/cancellation.h"
#include "engine/core/lifecycle.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHostInfo>
#include <QLoggingCategory>
#include <QUuid>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Switchyard {

namespace {

constexpr qint64 kKeepEndedMs = 7LL * 24 * 3600 * 1000;  // a week of ended instances stays listed

// Opens <data>/node-id and takes its lock; reads the id, or writes a new one. The descriptor (to
// keep for the lock) and the id; descriptor -1 when another engine holds the lock.
Result<std::pair<int, QString>> takeNode(const QString &dataPath)
{
    if (!QDir().mkpath(dataPath))
        return Status::unavailable(QStringLiteral("cannot create the data directory %1").arg(dataPath));
    const QByteArray path = QFile::encodeName(QDir(dataPath).filePath(QStringLiteral("node-id")));
    const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return Status::unavailable(QStringLiteral("cannot open %1: %2")
                                       .arg(QString::fromLocal8Bit(path), QString::fromLocal8Bit(strerror(errno))));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return std::pair{-1, QString()};
    }
    char buffer[128] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    QString id = n > 0 ? QString::fromLatin1(buffer, int(n)).trimmed() : QString();
    if (id.isEmpty() || id.size() > 64) {
        id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        const QByteArray bytes = id.toLatin1() + '\n';
        if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, bytes.constData(), size_t(bytes.size()), 0) != bytes.size() ||
            ::fsync(fd) != 0) {
            const QString why = QString::fromLocal8Bit(strerror(errno));
            ::close(fd);
            return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(QString::fromLocal8Bit(path), why));
        }
    }
    return std::pair{fd, id};
}

QDateTime timeOf(qint64 ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC) : QDateTime();
}

}  // namespace

InstanceRegistry::InstanceRegistry(Store &store, QString instanceId, InstanceOptions options)
    : m_store(store), m_instanceId(std::move(instanceId)), m_options(std::move(options))
{}

InstanceRegistry::~InstanceRegistry()
{
    if (m_nodeLock >= 0)
        ::close(m_nodeLock);  // the lock goes with the descriptor
}

Result<std::unique_ptr<InstanceRegistry>> InstanceRegistry::start(Store &store, const QString &instanceId,
                                                                  const QString &dataPath, InstanceOptions options)
{
    std::unique_ptr<InstanceRegistry> registry(new InstanceRegistry(store, instanceId, std::move(options)));
    Result<std::pair<int, QString>> node = takeNode(dataPath);
    if (!node)
        return node.status();
    registry->m_nodeLock = node->first;
    registry->m_node = node->second;
    if (registry->m_nodeLock < 0) {
        registry->m_node = QUuid::createUuid().toString(QUuid::WithoutBraces);
        qCWarning(lcStore).noquote() << "another engine runs on the data directory" << dataPath << "- this one ("
                                     << instanceId
                                     << ") gets a node of its own, and does not take over that engine's claims";
    }
    if (Status registered = registry->registerSelf(false); !registered)
        return registered;
    return registry;
}

QString InstanceRegistry::clockSql() const
{
    return m_store.backend() == StoreBackend::Postgres
               ? QStringLiteral("(CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT))")
               : QStringLiteral("(CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER))");
}

std::chrono::milliseconds InstanceRegistry::trustAfter() const
{
    return m_options.trustAfter.count() >= 0 ? m_options.trustAfter : m_options.grace;
}

bool InstanceRegistry::trusted() const
{
    const qint64 since = m_beatingSince.load();
    const qint64 now = std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch()).count();
    return since > 0 && now - since >= std::chrono::duration_cast<std::chrono::nanoseconds>(trustAfter()).count();
}

QString InstanceRegistry::notLive(const QString &column) const
{
    // The instance's id and the grace are ours, not input: written into the statement.
    QString self = m_instanceId;
    self.replace(u'\'', QStringLiteral("''"));
    if (!trusted()) // not beating long enough yet to judge others' heartbeats: only the ended are not live
        return QStringLiteral("(%1 <> '%2' AND %1 NOT IN (SELECT id FROM instance WHERE stopped_ms = 0))").arg(column, self);
    return QStringLiteral("(%1 <> '%2' AND %1 NOT IN (SELECT id FROM instance WHERE stopped_ms = 0 AND heartbeat_ms >= %3 - %4))")
        .arg(column, self, clockSql())
        .arg(m_options.grace.count());
}

Result<QStringList> InstanceRegistry::declareLost(SqlTransaction &tx, const QString &where, const QVariantList &values)
{
    Result<QSqlQuery> q = tx.exec(
        QStringLiteral("UPDATE instance SET stopped_ms = %1, ended = 'lost', ended_by = ? WHERE stopped_ms = 0 AND %2 "
                       "RETURNING id")
            .arg(clockSql(), where),
        QVariantList{m_instanceId} + values);
    if (!q)
        return q.status();
    QStringList ids;
    while (q->next())
        ids << q->value(0).toString();
    return ids;
}

Status InstanceRegistry::registerSelf(bool again)
{
    QStringList lost;
    const Status written = m_store.write([&](SqlTransaction &tx) -> Status {
        lost.clear();
        if (!again) {
            Result<QStringList> earlier =
                declareLost(tx, QStringLiteral("node = ? AND id <> ?"), {m_node, m_instanceId});
            if (!earlier)
                return earlier.status();
            lost = *earlier;
            if (Status s = tx.exec(QStringLiteral("DELETE FROM instance WHERE stopped_ms > 0 AND stopped_ms < %1 - ?")
                                       .arg(clockSql()),
                                   {kKeepEndedMs})
                               .status();
                !s)
                return s;
        }
        return tx
            .exec(QStringLiteral(
                      "INSERT INTO instance (id, node, host, pid, version, started_ms, heartbeat_ms) VALUES (?, ?, ?, "
                      "?, ?, %1, %1) "
                      "ON CONFLICT (id) DO UPDATE SET heartbeat_ms = %1, stopped_ms = 0, ended = '', ended_by = ''")
                      .arg(clockSql()),
                  {m_instanceId, m_node, QHostInfo::localHostName(), QCoreApplication::applicationPid(),
                   m_options.version})
            .status();
    });
    if (!written)
        return Status(
            written.code(),
            QStringLiteral("cannot register instance %1 in the store: %2").arg(m_instanceId, written.message()));
    if (!again) {
        m_beatingSince = std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch()).count();
        m_lastEndSeen = m_store
                            .readValue<qint64>([&](SqlTransaction &tx) {
                                return tx.scalar(QStringLiteral("SELECT COALESCE(MAX(stopped_ms), 0) FROM instance WHERE id <> ?"),
                                                 {m_instanceId});
                            })
                            .valueOr(0);
    }
    if (!lost.isEmpty()) {
        m_lostAtStart = lost;
        qCWarning(lcStore).noquote() << "the previous run of this data directory (" << lost.join(QStringLiteral(", "))
                                     << ") ended without stopping: its claims are taken over now";
    }
    return Status::ok();
}

void InstanceRegistry::addRecoverer(const QString &name, Recoverer recoverer)
{
    std::lock_guard lock(m_mutex);
    m_recoverers.emplace_back(name, std::move(recoverer));
}

Result<bool> InstanceRegistry::beat()
{
    bool declaredDead = false;
    QStringList lost;
    qint64 lastEnd = 0;
    const bool judge = trusted();
    const Status written = m_store.write([&](SqlTransaction &tx) -> Status {
        lost.clear();
        Result<QSqlQuery> q = tx.exec(QStringLiteral("UPDATE instance SET heartbeat_ms = %1 WHERE id = ? AND stopped_ms = 0").arg(clockSql()),
                                      {m_instanceId});
        if (!q)
            return q.status();
        declaredDead = q->numRowsAffected() == 0;
        if (judge) {
            Result<QStringList> silent = declareLost(tx, QStringLiteral("id <> ? AND heartbeat_ms < %1 - ?").arg(clockSql()),
                                                     {m_instanceId, qint64(m_options.grace.count())});
            if (!silent)
                return silent.status();
            lost = *silent;
        }
        Result<qint64> ended = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(stopped_ms), 0) FROM instance WHERE id <> ?"), {m_instanceId});
        if (!ended)
            return ended.status();
        lastEnd = *ended;
        return Status::ok();
    });
    if (!written) {
        if (!m_beatFailed)
            qCWarning(lcStore).noquote() << "instance" << m_instanceId << ": the heartbeat cannot be written:" << written.message();
        m_beatFailed = true;
        m_beatingSince = 0; // an outage: others' heartbeats say nothing until this one has beaten for the grace again
        return written;
    }
    if (m_beatFailed) {
        qCInfo(lcStore).noquote() << "instance" << m_instanceId << ": the heartbeat is written again";
        m_beatingSince = std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch()).count();
    }
    m_beatFailed = false;
    if (declaredDead) {
        // Another instance found this one silent past the grace and took its claims over; what
        // this one still finishes is fenced (its writes name it as the claimant).
        qCWarning(lcStore).noquote() << "instance" << m_instanceId << "was declared lost (its heartbeat was late by more than"
                                     << m_options.grace.count() << "ms); it registers again";
        if (Status again = registerSelf(true); !again)
            return again;
    }
    if (!lost.isEmpty())
        qCWarning(lcStore).noquote() << "instance(s)" << lost.join(QStringLiteral(", ")) << "stopped beating for more than"
                                     << m_options.grace.count() << "ms: declared lost; their claims are taken over";
    const bool ended = lastEnd > m_lastEndSeen;
    m_lastEndSeen = std::max(m_lastEndSeen, lastEnd);
    return ended;
}

Status InstanceRegistry::recover(const CancelToken &cancel, bool adopted)
{
    std::vector<std::pair<QString, Recoverer>> recoverers;
    {
        std::lock_guard lock(m_mutex);
        recoverers = m_recoverers;
    }
    Status result = Status::ok();
    for (const auto &[name, recoverOne] : recoverers) {
        if (cancel.isCancelled())
            break;
        if (Status s = recoverOne(cancel, adopted); !s) {
            qCWarning(lcStore).noquote() << "recovery of" << name << "failed:" << s.message();
            result = s;
        }
    }
    return result;
}

Status InstanceRegistry::beatAndRecover(const CancelToken &cancel)
{
    Result<bool> ended = beat();
    if (!ended)
        return ended.status();
    return recover(cancel, *ended);
}

Status InstanceRegistry::run(Lifecycle &lifecycle)
{
    // The recovery thread: a round after each beat, until the shutdown begins (the queues the
    // recoverers push to stop then); rounds asked for while one runs fold into the next.
    const CancelToken shuttingDown = lifecycle.shutdownToken();
    if (Status recovering = lifecycle.runWithCancel(QStringLiteral("instance recovery"), [this, shuttingDown](const CancelToken &) {
            for (;;) {
                bool adopted = false;
                {
                    std::unique_lock lock(m_mutex);
                    if (!shuttingDown.wait(m_beaten, lock, [this] { return m_rounds > 0; }))
                        return;
                    m_rounds = 0;
                    adopted = std::exchange(m_adopted, false);
                }
                recover(shuttingDown, adopted);
            }
        });
        !recovering)
        return recovering;
    return lifecycle.runWithCancel(QStringLiteral("instance heartbeat"), [this](const CancelToken &cancel) {
        while (cancel.sleepFor(m_options.heartbeat)) {
            const Result<bool> ended = beat();
            if (!ended)
                continue;
            {
                std::lock_guard lock(m_mutex);
                ++m_rounds;
                m_adopted = m_adopted || *ended;
            }
            m_beaten.notify_all();
        }
        if (Status stopped = stop(); !stopped)
            qCWarning(lcStore).noquote() << "instance" << m_instanceId << "could not be marked stopped (it is declared lost"
                                         << m_options.grace.count() << "ms after its last heartbeat):" << stopped.message();
    });
}

Status InstanceRegistry::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return Status::ok();
        m_stopped = true;
    }
    return m_store.write([&](SqlTransaction &tx) {
        return tx
            .exec(
                QStringLiteral("UPDATE instance SET stopped_ms = %1, ended = 'stopped' WHERE id = ? AND stopped_ms = 0")
                    .arg(clockSql()),
                {m_instanceId})
            .status();
    });
}

Result<std::vector<InstanceRecord>> InstanceRegistry::list()
{
    return m_store.readValue<std::vector<InstanceRecord>>(
        [&](SqlTransaction &tx) -> Result<std::vector<InstanceRecord>> {
            Result<QSqlQuery> q = tx.exec(
                QStringLiteral(
                    "SELECT id, node, host, pid, version, started_ms, heartbeat_ms, stopped_ms, ended, ended_by, "
                    "CASE WHEN stopped_ms = 0 AND heartbeat_ms >= %1 - ? THEN 1 ELSE 0 END "
                    "FROM instance ORDER BY started_ms DESC, id")
                    .arg(clockSql()),
                {qint64(m_options.grace.count())});
            if (!q)
                return q.status();
            std::vector<InstanceRecord> rows;
            while (q->next()) {
                InstanceRecord r;
                r.id = q->value(0).toString();
                r.node = q->value(1).toString();
                r.host = q->value(2).toString();
                r.pid = q->value(3).toLongLong();
                r.version = q->value(4).toString();
                r.startedAt = timeOf(q->value(5).toLongLong());
                r.heartbeatAt = timeOf(q->value(6).toLongLong());
                r.stoppedAt = timeOf(q->value(7).toLongLong());
                r.ended = q->value(8).toString();
                r.endedBy = q->value(9).toString();
                r.live = q->value(10).toInt() != 0 || r.id == m_instanceId;
                rows.push_back(std::move(r));
            }
            return rows;
        });
}

}  // namespace Switchyard
