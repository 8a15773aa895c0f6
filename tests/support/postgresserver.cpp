#include "postgresserver.h"

#include "testutil.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVersionNumber>

#include <csignal>
#include <pwd.h>
#include <unistd.h>

namespace Switchyard::Test {

namespace {

const QString kUser = QStringLiteral("switchyard");

QString findBinDir()
{
    const QByteArray fromEnv = qgetenv("SWITCHYARD_PG_BIN");
    if (!fromEnv.isEmpty())
        return QString::fromLocal8Bit(fromEnv);
    QDir root(QStringLiteral("/usr/lib/postgresql"));
    QString best;
    QVersionNumber bestVersion;
    for (const QString &entry : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QVersionNumber version = QVersionNumber::fromString(entry);
        if (QFile::exists(root.filePath(entry + QStringLiteral("/bin/postgres"))) && version > bestVersion) {
            bestVersion = version;
            best = root.filePath(entry + QStringLiteral("/bin"));
        }
    }
    return best;
}

} // namespace

PostgresServer::PostgresServer() = default;

PostgresServer::~PostgresServer()
{
    stop();
}

Result<PostgresServer *> PostgresServer::shared()
{
    static PostgresServer server;
    static Status started = server.start();
    if (!started)
        return started;
    return &server;
}

Status PostgresServer::runAsOwner(const QString &program, const QStringList &args, int timeoutMs, QByteArray *output)
{
    ChildProcess process;
    QStringList argv = args;
    QString executable = program;
    if (::geteuid() == 0) {
        // setpriv execs in place (runuser would fork and stay between us and the server); env -C
        // leaves root's working directory, which postgres may not read.
        argv = QStringList{QStringLiteral("--reuid=postgres"), QStringLiteral("--regid=postgres"), QStringLiteral("--init-groups"),
                           QStringLiteral("env"), QStringLiteral("-C"), m_dir->path(), program}
               + args;
        executable = QStringLiteral("setpriv");
    }
    if (Status started = process.start(executable, argv); !started)
        return started;
    if (!process.waitForFinished(timeoutMs, output)) {
        process.kill();
        return Status::deadlineExceeded(QStringLiteral("%1 did not finish in %2 ms").arg(program).arg(timeoutMs));
    }
    if (process.crashed() || process.exitCode() != 0)
        return Status::unavailable(QStringLiteral("%1 failed (exit %2): %3")
                                       .arg(program)
                                       .arg(process.exitCode())
                                       .arg(output ? QString::fromLocal8Bit(*output) : QString()));
    return Status::ok();
}

Status PostgresServer::start()
{
    m_bin = findBinDir();
    if (m_bin.isEmpty())
        return Status::unavailable(QStringLiteral("no PostgreSQL server under /usr/lib/postgresql (install the postgresql package)"));
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return Status::unavailable(QStringLiteral("cannot create a temporary directory for PostgreSQL"));
    if (::geteuid() == 0) {
        const passwd *owner = ::getpwnam("postgres");
        if (!owner)
            return Status::unavailable(QStringLiteral("running as root, and there is no `postgres` user to run PostgreSQL as"));
        if (::chown(QFile::encodeName(m_dir->path()).constData(), owner->pw_uid, owner->pw_gid) != 0)
            return Status::unavailable(QStringLiteral("cannot give %1 to the postgres user").arg(m_dir->path()));
    }
    QByteArray output;
    if (Status initialised = runAsOwner(m_bin + QStringLiteral("/initdb"),
                                        {QStringLiteral("-D"), m_dir->filePath(QStringLiteral("data")), QStringLiteral("-U"), kUser,
                                         QStringLiteral("-A"), QStringLiteral("trust"), QStringLiteral("-E"), QStringLiteral("UTF8"),
                                         QStringLiteral("--no-locale"), QStringLiteral("--no-sync")},
                                        120000, &output);
        !initialised)
        return initialised;
    return launchOnFreePort(m_port, [this] { return launch(); });
}

QString PostgresServer::log() const
{
    QFile file(m_dir->filePath(QStringLiteral("postgres.log")));
    return file.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(file.readAll()) : QString();
}

Status PostgresServer::launch()
{
    QFile::remove(m_dir->filePath(QStringLiteral("postgres.log")));
    m_process = std::make_unique<ChildProcess>();
    QStringList args{m_bin + QStringLiteral("/postgres"),
                     QStringLiteral("-D"), m_dir->filePath(QStringLiteral("data")),
                     QStringLiteral("-p"), QString::number(m_port),
                     QStringLiteral("-k"), m_dir->path(),
                     QStringLiteral("-c"), QStringLiteral("listen_addresses=127.0.0.1"),
                     // Tests do not survive power loss; they do survive kill -9 (the WAL is written).
                     QStringLiteral("-c"), QStringLiteral("fsync=off"),
                     QStringLiteral("-c"), QStringLiteral("full_page_writes=off"),
                     QStringLiteral("-c"), QStringLiteral("max_connections=200")};
    QString executable = args.takeFirst();
    if (::geteuid() == 0) {
        args = QStringList{QStringLiteral("--reuid=postgres"), QStringLiteral("--regid=postgres"), QStringLiteral("--init-groups"),
                           QStringLiteral("env"), QStringLiteral("-C"), m_dir->path(), executable}
               + args;
        executable = QStringLiteral("setpriv");
    }
    ChildProcess::Options spawn;
    spawn.output = ChildProcess::Output::File;
    spawn.outputFile = m_dir->filePath(QStringLiteral("postgres.log"));
    if (Status started = m_process->start(executable, args, spawn); !started)
        return started;
    QDeadlineTimer deadline(60000);
    while (!log().contains(QLatin1String("ready to accept connections"))) {
        if (m_process->finished() || deadline.hasExpired()) {
            const QString text = log();
            m_process->kill();
            return Status::unavailable(QStringLiteral("PostgreSQL on port %1 did not become ready:\n%2").arg(m_port).arg(text));
        }
        m_process->read(20); // waits 20 ms: there is no pipe to read
    }
    Result<QString> one = query(QStringLiteral("postgres"), QStringLiteral("SELECT 1"));
    if (!one || *one != QLatin1String("1"))
        return Status::unavailable(QStringLiteral("PostgreSQL on port %1 does not answer SELECT 1: %2").arg(m_port).arg(one.status().message()));
    return Status::ok();
}

void PostgresServer::stop()
{
    if (!isRunning())
        return;
    m_process->signal(SIGINT); // fast shutdown: disconnects clients
    if (!m_process->waitForFinished(30000))
        m_process->kill();
}

void PostgresServer::kill()
{
    if (isRunning())
        m_process->kill();
}

Status PostgresServer::restart()
{
    stop();
    return launch();
}

bool PostgresServer::isRunning() const
{
    return m_process && !m_process->finished();
}

DatabaseSettings PostgresServer::settings(const QString &database) const
{
    DatabaseSettings settings;
    settings.type = QStringLiteral("postgres");
    settings.host = QStringLiteral("127.0.0.1:%1").arg(m_port);
    settings.name = database;
    settings.user = kUser;
    return settings;
}

Result<QString> PostgresServer::query(const QString &database, const QString &sql) const
{
    const QString name = QStringLiteral("postgresserver-") + QUuid::createUuid().toString(QUuid::Id128);
    Result<QString> result = Status::internal(QStringLiteral("not run"));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(QStringLiteral("127.0.0.1"));
        db.setPort(m_port);
        db.setDatabaseName(database);
        db.setUserName(kUser);
        if (!db.open()) {
            result = Status::unavailable(QStringLiteral("cannot connect to PostgreSQL on port %1: %2").arg(m_port).arg(db.lastError().text()));
        } else {
            QSqlQuery q(db);
            if (!q.exec(sql))
                result = Status::internal(QStringLiteral("%1: %2").arg(sql, q.lastError().text()));
            else
                result = q.next() ? q.value(0).toString() : QString();
            q.finish();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

Result<DatabaseSettings> PostgresServer::createDatabase(const QString &name)
{
    const QString quoted = QLatin1Char('"') + QString(name).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    if (Result<QString> dropped = query(QStringLiteral("postgres"), QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(quoted)); !dropped)
        return dropped.status();
    if (Result<QString> created = query(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(quoted)); !created)
        return created.status();
    return settings(name);
}

} // namespace Switchyard::Test
