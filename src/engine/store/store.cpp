#include "store.h"

#include "store_p.h"

#include "engine/core/cancellation.h"
#include "engine/settings/config.h"

#include <QCache>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSqlRecord>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

Q_LOGGING_CATEGORY(lcStore, "switchyard.store", QtInfoMsg)

namespace Switchyard {

// A connection's prepared statements by their SQL, least recently used evicted: PostgreSQL
// prepares a statement in a server round trip (and deallocates it in another), SQLite parses it
// again.
struct StatementCache : QCache<QString, QSqlQuery>
{
    using QCache::QCache;
};

namespace {

std::atomic<quint64> g_nextStoreId{1};
std::mutex g_liveMutex;
std::set<quint64> g_liveStores; // guarded by g_liveMutex

constexpr qsizetype kCachedStatements = 64;

// A cached statement may run again unless its last result may still be read: a SELECT (or
// RETURNING) whose rows were not read to the end could be a caller's outer loop.
bool reusable(const QSqlQuery &query)
{
    return !query.isActive() || !query.isSelect() || query.at() == QSql::AfterLastRow;
}

// Another handle on the same prepared statement and result: the cache keeps one, the caller
// reads the other. Qt 6 deprecates copying a QSqlQuery because copies share their result, which
// is what the cache needs.
QSqlQuery shared(const QSqlQuery &query)
{
    QT_WARNING_PUSH
    QT_WARNING_DISABLE_DEPRECATED
    return QSqlQuery(query);
    QT_WARNING_POP
}

void closeConnection(const QString &name)
{
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        if (db.isValid())
            db.close();
    } // no handle may outlive removeDatabase()
    QSqlDatabase::removeDatabase(name);
}

// This thread's open connections, one per store; closed when the thread ends.
struct ThreadConnections
{
    struct Entry
    {
        quint64 store;
        QString name;
        // The connection's prepared statements (SqlTransaction::exec); emptied before the
        // connection closes, since no query may outlive it.
        std::unique_ptr<StatementCache> statements = std::make_unique<StatementCache>(kCachedStatements);
        bool inTransaction = false;
    };
    std::vector<Entry> open;

    ~ThreadConnections()
    {
        for (Entry &entry : open) {
            entry.statements->clear();
            closeConnection(entry.name);
        }
    }
    Entry *find(quint64 store)
    {
        for (Entry &entry : open) {
            if (entry.store == store)
                return &entry;
        }
        return nullptr;
    }
    void close(quint64 store)
    {
        std::erase_if(open, [store](Entry &entry) {
            if (entry.store != store)
                return false;
            entry.statements->clear();
            closeConnection(entry.name);
            return true;
        });
    }
    // Connections of stores destroyed while this thread lived on.
    void pruneDead()
    {
        if (open.empty())
            return;
        std::lock_guard lock(g_liveMutex);
        std::erase_if(open, [](Entry &entry) {
            if (g_liveStores.count(entry.store))
                return false;
            entry.statements->clear();
            closeConnection(entry.name);
            return true;
        });
    }
};

thread_local ThreadConnections t_connections;

QString firstWords(const QString &sql)
{
    return sql.simplified().section(QLatin1Char(' '), 0, 2);
}

} // namespace

qint64 toStoreMs(const QDateTime &time)
{
    return time.isValid() ? time.toMSecsSinceEpoch() : 0;
}

QDateTime fromStoreMs(qint64 ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC) : QDateTime();
}

// ---------------------------------------------------------------------------------------------

Result<QSqlQuery> SqlTransaction::exec(const QString &sql, const QVariantList &values)
{
    QSqlQuery query;
    bool ok = false;
    if (values.isEmpty() || !m_statements) {
        query = QSqlQuery(QSqlDatabase::database(m_connection, false));
        query.setForwardOnly(true);
        ok = values.isEmpty() ? query.exec(sql) : query.prepare(sql);
    } else if (QSqlQuery *cached = m_statements->object(sql); cached && reusable(*cached)) {
        query = shared(*cached);
        ok = true;
    } else {
        query = QSqlQuery(QSqlDatabase::database(m_connection, false));
        query.setForwardOnly(true);
        ok = query.prepare(sql);
        if (ok) // replaces a statement still being read, which its reader keeps alive
            m_statements->insert(sql, new QSqlQuery(shared(query)));
    }
    if (ok && !values.isEmpty()) {
        for (qsizetype i = 0; i < values.size(); ++i) {
            const QVariant &value = values.at(i);
            // Text columns are NOT NULL DEFAULT '': a null QString is the empty text, not NULL.
            if (value.typeId() == QMetaType::QString && value.toString().isNull())
                query.bindValue(int(i), QStringLiteral(""));
            else
                query.bindValue(int(i), value);
        }
        ok = query.exec();
    }
    if (ok)
        return query;
    const QSqlError error = query.lastError();
    m_busy = m_store.m_impl->isBusy(error);
    m_lost = m_store.m_impl->isConnectionLost(error);
    const bool full = m_store.m_impl->isFull(error);
    QString text = error.databaseText().trimmed();
    if (text.isEmpty())
        text = error.text().trimmed();
    if (full)
        text += QStringLiteral(" (%1 is out of space; the transaction is rolled back, nothing was changed)").arg(m_store.location());
    return Status(m_busy || m_lost || full ? Status::Code::Unavailable : Status::Code::Internal,
                  QStringLiteral("%1 database: '%2 …' failed: %3").arg(m_store.backendName(), firstWords(sql), text));
}

StoreBackend SqlTransaction::backend() const
{
    return m_store.backend();
}

void SqlTransaction::finishStatements()
{
    if (!m_statements)
        return;
    const QList<QString> keys = m_statements->keys();
    for (const QString &key : keys) {
        if (QSqlQuery *query = m_statements->object(key); query && query->isActive())
            query->finish();
    }
}

Result<qint64> SqlTransaction::insertReturningId(const QString &sql, const QVariantList &values)
{
    Result<QSqlQuery> query = exec(sql, values);
    if (!query)
        return query.status();
    if (!query->next())
        return Status::internal(QStringLiteral("'%1 …' returned no id").arg(firstWords(sql)));
    const qint64 id = query->value(0).toLongLong();
    query->finish(); // read: the statement may run again
    return id;
}

Result<qint64> SqlTransaction::scalar(const QString &sql, const QVariantList &values)
{
    Result<QSqlQuery> query = exec(sql, values);
    if (!query)
        return query.status();
    const qint64 value = query->next() ? query->value(0).toLongLong() : 0;
    query->finish(); // read: the statement may run again
    return value;
}

Result<std::vector<qint64>> SqlTransaction::numbers(const QString &sql, const QVariantList &values)
{
    Result<QSqlQuery> query = exec(sql, values);
    if (!query)
        return query.status();
    std::vector<qint64> out;
    while (query->next())
        out.push_back(query->value(0).toLongLong());
    return out;
}

// ---------------------------------------------------------------------------------------------

// One writer at a time, waited for with a bound (a mutex and a condition: std::timed_mutex's timed
// lock is invisible to ThreadSanitizer 12).
struct Store::WriterGate
{
    std::mutex mutex;
    std::condition_variable free;
    bool busy = false; // guarded by mutex

    bool enter(std::chrono::milliseconds bound)
    {
        std::unique_lock lock(mutex);
        if (!free.wait_for(lock, bound, [this] { return !busy; }))
            return false;
        busy = true;
        return true;
    }
    void leave()
    {
        {
            std::lock_guard lock(mutex);
            busy = false;
        }
        free.notify_one();
    }
};

Store::Store(StoreBackend backend, QString location, StoreOptions options, std::unique_ptr<Backend> impl)
    : m_backend(backend), m_location(std::move(location)), m_options(options), m_impl(std::move(impl)),
      m_id(g_nextStoreId.fetch_add(1)), m_writers(std::make_unique<WriterGate>())
{
    std::lock_guard lock(g_liveMutex);
    g_liveStores.insert(m_id);
}

Store::~Store()
{
    {
        std::lock_guard lock(g_liveMutex);
        g_liveStores.erase(m_id);
    }
    // Other threads close theirs when they end or next use a store; the engine has joined its
    // threads by now.
    t_connections.close(m_id);
}

QString Store::backendName() const
{
    return m_backend == StoreBackend::Sqlite ? QStringLiteral("sqlite3") : QStringLiteral("postgres");
}

int Store::currentSchemaVersion()
{
    return storeMigrations().back().version;
}

Result<QString> Store::connection()
{
    if (const ThreadConnections::Entry *entry = t_connections.find(m_id))
        return entry->name;
    t_connections.pruneDead();
    const QString name = QStringLiteral("switchyard-store-%1-%2")
                             .arg(m_id)
                             .arg(quintptr(QThread::currentThreadId()), 0, 16);
    QString problem;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(m_impl->driver(), name);
        if (!db.isValid()) {
            problem = QStringLiteral("the Qt Sql driver %1 is not available (Debian package %2)")
                          .arg(m_impl->driver(), m_backend == StoreBackend::Sqlite ? QStringLiteral("libqt6sql6-sqlite")
                                                                                   : QStringLiteral("libqt6sql6-psql"));
        } else {
            m_impl->configure(db);
            if (!db.open()) {
                problem = QStringLiteral("cannot open the %1 database %2: %3")
                              .arg(backendName(), m_location, db.lastError().text().trimmed());
            } else if (Status configured = m_impl->afterOpen(db); !configured) {
                problem = configured.message();
            }
        }
    }
    if (!problem.isEmpty()) {
        closeConnection(name);
        return Status::unavailable(problem);
    }
    t_connections.open.push_back({m_id, name});
    return name;
}

void Store::dropConnection()
{
    t_connections.close(m_id);
}

Status Store::run(const Work &work, bool writes)
{
    if (const ThreadConnections::Entry *entry = t_connections.find(m_id); entry && entry->inTransaction)
        return Status::internal(QStringLiteral("store transactions do not nest: a write() or read() was called inside another on the same thread"));
    // SQLite has one writer at a time; this process's writers queue on a mutex instead of in
    // SQLite's busy handler, which sleeps in steps of up to 100 ms (the tail latency of every
    // concurrent writer). Bounded by the busy timeout: past it SQLite's own waiting takes over, so
    // two stores locked in opposite orders on two threads cannot deadlock.
    const bool gated = writes && m_backend == StoreBackend::Sqlite && m_writers->enter(m_options.busyTimeout);
    const auto leave = qScopeGuard([this, gated] {
        if (gated)
            m_writers->leave();
    });
    Status last;
    bool reconnected = false;
    const int attempts = std::max(1, m_options.writeAttempts);
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        Result<QString> name = connection();
        if (!name)
            return name.status();
        SqlTransaction tx(*this, *name, t_connections.find(m_id)->statements.get());
        Status status = tx.exec(writes ? m_impl->beginWrite() : m_impl->beginRead()).status();
        const bool begun = status.isOk();
        if (begun) {
            // Looked up again afterwards: `work` may open another store's connection on this
            // thread, which moves the entries.
            const auto markInTransaction = [this](bool in) {
                if (ThreadConnections::Entry *entry = t_connections.find(m_id))
                    entry->inTransaction = in;
            };
            markInTransaction(true);
            try {
                status = work(tx);
            } catch (...) {
                markInTransaction(false);
                tx.finishStatements();
                tx.exec(QStringLiteral("ROLLBACK"));
                throw;
            }
            markInTransaction(false);
            tx.finishStatements(); // no result outlives the transaction; SQLite's read snapshot ends
            if (status)
                status = tx.exec(QStringLiteral("COMMIT")).status();
            if (status)
                return status;
            const bool busy = tx.m_busy, lost = tx.m_lost;
            tx.exec(QStringLiteral("ROLLBACK")); // may fail when COMMIT already ended it
            tx.m_busy = busy;
            tx.m_lost = lost;
        }
        if (tx.m_lost && !reconnected) {
            qCWarning(lcStore).noquote() << "lost the connection to" << m_location << "- reconnecting:" << status.message();
            dropConnection();
            reconnected = true;
            --attempt; // a fresh connection gets the attempt again
            continue;
        }
        if (!tx.m_busy)
            return status;
        last = status;
        // Busy: another writer holds the lock (SQLite waited busyTimeout already) or PostgreSQL
        // chose this transaction as a serialization victim. Back off a little, with jitter.
        std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt + QRandomGenerator::global()->bounded(10)));
    }
    return Status::unavailable(QStringLiteral("%1 database busy after %2 attempts: %3")
                                   .arg(backendName()).arg(attempts).arg(last.message()));
}

Status Store::write(const Work &work)
{
    return run(work, true);
}

Status Store::read(const Work &work)
{
    return run(work, false);
}

Status Store::ping()
{
    return read([](SqlTransaction &tx) { return tx.exec(QStringLiteral("SELECT 1")).status(); });
}

Result<QString> Store::vacuum()
{
    // VACUUM cannot run inside a transaction: straight on the connection.
    Result<QString> name = connection();
    if (!name)
        return name.status();
    SqlTransaction tx(*this, *name);
    const QStringList statements = m_impl->vacuumStatements();
    for (const QString &statement : statements) {
        if (Status done = tx.exec(statement).status(); !done)
            return done;
    }
    return QStringLiteral("%1 on the %2 database %3").arg(statements.join(QStringLiteral("; ")), backendName(), m_location);
}

Status Store::migrate(const CancelToken &cancel)
{
    const std::vector<Migration> &migrations = storeMigrations();
    const int target = m_options.migrateTo > 0 ? m_options.migrateTo : currentSchemaVersion();
    const QString versionTable = QStringLiteral(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)");
    int found = 0;
    Status ready = write([&](SqlTransaction &tx) -> Status {
        if (Status locked = m_impl->lockMigrations(tx); !locked)
            return locked;
        if (Status created = tx.exec(versionTable).status(); !created)
            return created;
        Result<qint64> version = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_version"));
        if (!version)
            return version.status();
        found = int(*version);
        return Status::ok();
    });
    if (!ready)
        return ready;
    if (found > currentSchemaVersion())
        return Status::invalidArgument(
            QStringLiteral("the %1 database %2 has schema version %3, newer than this Switchyard's %4: "
                           "it was used by a newer version; run that version or restore a backup")
                .arg(backendName(), m_location)
                .arg(found)
                .arg(currentSchemaVersion()));
    m_schemaVersion = found;
    for (const Migration &migration : migrations) {
        if (migration.version <= m_schemaVersion || migration.version > target)
            continue;
        if (cancel.isCancelled())
            return cancel.cause();
        bool applied = false;
        Status migrated = write([&](SqlTransaction &tx) -> Status {
            applied = false;
            if (Status locked = m_impl->lockMigrations(tx); !locked)
                return locked;
            // Another instance may have migrated while this one waited for the lock.
            Result<qint64> now = tx.scalar(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_version"));
            if (!now)
                return now.status();
            if (*now >= migration.version)
                return Status::ok();
            for (const QString &statement : migration.statements(m_backend)) {
                if (Status done = tx.exec(statement).status(); !done)
                    return done;
            }
            applied = true;
            return tx.exec(QStringLiteral("INSERT INTO schema_version (version, name, applied_ms) VALUES (?, ?, ?)"),
                           {migration.version, QString::fromLatin1(migration.name), QDateTime::currentMSecsSinceEpoch()})
                .status();
        });
        if (!migrated)
            return Status(migrated.code(), QStringLiteral("migration %1 (%2) failed and was rolled back: %3")
                                               .arg(migration.version)
                                               .arg(QString::fromLatin1(migration.name), migrated.message()));
        if (applied)
            qCInfo(lcStore).noquote() << "migrated" << m_location << "to schema version" << migration.version << migration.name;
        m_schemaVersion = migration.version;
    }
    return Status::ok();
}

Result<std::unique_ptr<Store>> Store::open(const CancelToken &cancel, const DatabaseSettings &settings, StoreOptions options)
{
    const bool postgres = settings.type == QLatin1String("postgres");
    std::unique_ptr<Backend> impl = postgres ? makePostgresBackend(settings, options) : makeSqliteBackend(settings, options);
    const QString location = postgres ? QStringLiteral("%1/%2").arg(settings.host, settings.name) : settings.path;
    if (Status prepared = impl->prepare(); !prepared)
        return prepared;
    std::unique_ptr<Store> store(
        new Store(postgres ? StoreBackend::Postgres : StoreBackend::Sqlite, location, options, std::move(impl)));

    // PostgreSQL may still be starting (a service ordered after it, a container): try again.
    const int attempts = postgres ? std::max(1, options.connectAttempts) : 1;
    Status reachable;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        if (cancel.isCancelled())
            return cancel.cause();
        reachable = store->ping();
        if (reachable)
            break;
        store->dropConnection();
        if (attempt < attempts) {
            qCWarning(lcStore).noquote() << "database not reachable (attempt" << attempt << "of" << attempts << "):" << reachable.message();
            if (!cancel.sleepFor(options.connectInterval))
                return cancel.cause();
        }
    }
    if (!reachable)
        return reachable;
    if (Status migrated = store->migrate(cancel); !migrated)
        return migrated;
    return store;
}

} // namespace Switchyard
