#include "httpproxy.h"

#include "testutil.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>

#include <csignal>

namespace Switchyard::Test {

HttpProxy::~HttpProxy()
{
    if (m_process && !m_process->finished()) {
        m_process->signal(SIGTERM);
        if (!m_process->waitForFinished(5000))
            m_process->kill();
    }
}

QByteArray HttpProxy::log() const
{
    return m_dir ? readFile(QDir(m_dir->path()).filePath(QStringLiteral("tinyproxy.log"))) : QByteArray();
}

Status HttpProxy::start(const QString &user, const QString &password)
{
    m_user = user;
    m_password = password;
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return Status::unavailable(QStringLiteral("cannot create a temporary directory for tinyproxy"));
    return launchOnFreePort(m_port, [this] { return launch(); });
}

Status HttpProxy::launch()
{
    const QString logFile = QDir(m_dir->path()).filePath(QStringLiteral("tinyproxy.log"));
    QFile::remove(logFile);
    QByteArray conf = "Port " + QByteArray::number(m_port) + "\nListen 127.0.0.1\nAllow 127.0.0.1\nTimeout 30\nMaxClients 50\n"
                      "LogLevel Info\nLogFile \"" + logFile.toUtf8() + "\"\nViaProxyName \"switchyard-test-proxy\"\n";
    if (!m_user.isEmpty())
        conf += "BasicAuth " + m_user.toUtf8() + ' ' + m_password.toUtf8() + '\n';
    const QString confFile = writeFile(m_dir->path(), QStringLiteral("tinyproxy.conf"), conf);

    m_process = std::make_unique<ChildProcess>();
    ChildProcess::Options spawn;
    spawn.output = ChildProcess::Output::Inherit;
    if (Status started = m_process->start(QStringLiteral("tinyproxy"), {QStringLiteral("-d"), QStringLiteral("-c"), confFile}, spawn);
        !started)
        return Status::unavailable(started.message() + QStringLiteral(" (install the tinyproxy-bin package: scripts/deps.sh)"));
    QDeadlineTimer deadline(15000);
    for (;;) {
        const QByteArray text = log();
        if (text.contains("Accepting connections"))
            return Status::ok();
        if (m_process->finished() || deadline.hasExpired() || text.contains("Could not create listening socket")) {
            m_process->kill();
            return Status::unavailable(QStringLiteral("tinyproxy on port %1 did not start:\n%2").arg(m_port).arg(QString::fromLocal8Bit(text)));
        }
        m_process->read(20); // waits
    }
}

} // namespace Switchyard::Test
