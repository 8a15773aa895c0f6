#include "smtpserver.h"

#include "testutil.h"
#include "wait.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include <csignal>

namespace Switchyard::Test {

SmtpServer::SmtpServer() = default;

SmtpServer::~SmtpServer()
{
    resume();
    stop();
}

QString SmtpServer::socketPath() const
{
    return m_dir ? QDir(m_dir->path()).filePath(QStringLiteral("smtp.sock")) : QString();
}

QString SmtpServer::certificateFile() const
{
    return m_dir ? QDir(m_dir->path()).filePath(QStringLiteral("cert.pem")) : QString();
}

Status SmtpServer::start(const Options &options)
{
    m_options = options;
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return Status::unavailable(QStringLiteral("cannot create a temporary directory for the SMTP sink"));
    if (options.mode != Mode::Plain) {
        const Ran made = runProgram(QStringLiteral("openssl"),
                                    {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                                     QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                                     QStringLiteral("-keyout"), QDir(m_dir->path()).filePath(QStringLiteral("key.pem")),
                                     QStringLiteral("-out"), certificateFile(), QStringLiteral("-days"), QStringLiteral("2"),
                                     QStringLiteral("-subj"), QStringLiteral("/CN=localhost"),
                                     QStringLiteral("-addext"), QStringLiteral("subjectAltName=DNS:localhost,IP:127.0.0.1")});
        if (made.exitCode != 0)
            return Status::unavailable(QStringLiteral("openssl could not make the sink's certificate: %1").arg(QString::fromLocal8Bit(made.output)));
    }
    if (options.unixSocket)
        return launch();
    return launchOnFreePort(m_port, [this] { return launch(); });
}

Status SmtpServer::launch()
{
    const QString dir = m_dir->path();
    QFile::remove(QDir(dir).filePath(QStringLiteral("ready")));
    QStringList args{QStringLiteral(SWITCHYARD_TESTS_SOURCE_DIR "/support/smtpsink.py"), QStringLiteral("--dir"), dir};
    if (m_options.unixSocket)
        args << QStringLiteral("--unix") << socketPath();
    else
        args << QStringLiteral("--port") << QString::number(m_port);
    if (m_options.mode != Mode::Plain)
        args << QStringLiteral("--mode") << (m_options.mode == Mode::Smtps ? QStringLiteral("smtps") : QStringLiteral("starttls"))
             << QStringLiteral("--cert") << certificateFile() << QStringLiteral("--key") << QDir(dir).filePath(QStringLiteral("key.pem"));
    if (!m_options.user.isEmpty())
        args << QStringLiteral("--auth") << m_options.user + u':' + m_options.password;
    for (const QString &refused : m_options.refuseRcpt)
        args << QStringLiteral("--refuse-rcpt") << refused;
    if (m_options.dropAfter >= 0)
        args << QStringLiteral("--drop-after") << QString::number(m_options.dropAfter);

    m_process = std::make_unique<ChildProcess>();
    ChildProcess::Options spawn;
    spawn.output = ChildProcess::Output::File;
    spawn.outputFile = QDir(dir).filePath(QStringLiteral("sink.log"));
    // Debian's interpreter: the one on PATH (pyenv) cannot see python3-aiosmtpd.
    if (Status started = m_process->start(QStringLiteral("/usr/bin/python3"), args, spawn); !started)
        return Status::unavailable(started.message() + QStringLiteral(" (install python3-aiosmtpd: scripts/deps.sh)"));
    QDeadlineTimer deadline(20000);
    while (!QFile::exists(QDir(dir).filePath(QStringLiteral("ready")))) {
        if (m_process->finished() || deadline.hasExpired()) {
            m_process->kill();
            return Status::unavailable(QStringLiteral("the SMTP sink did not start:\n%1")
                                           .arg(QString::fromLocal8Bit(readFile(QDir(dir).filePath(QStringLiteral("sink.log"))))));
        }
        m_process->read(20); // waits
    }
    return Status::ok();
}

void SmtpServer::stop()
{
    if (!m_process || m_process->finished())
        return;
    m_process->signal(SIGTERM);
    if (!m_process->waitForFinished(10000))
        m_process->kill();
}

void SmtpServer::pause()
{
    if (m_process && !m_process->finished())
        stopProcess(m_process->pid());
}

void SmtpServer::resume()
{
    if (m_process && !m_process->finished())
        ::kill(m_process->pid(), SIGCONT);
}

QList<QJsonObject> SmtpServer::messages() const
{
    QList<QJsonObject> out;
    if (!m_dir)
        return out;
    for (int n = 1;; ++n) {
        QFile file(QDir(m_dir->path()).filePath(QStringLiteral("msg-%1.json").arg(n)));
        if (!file.open(QIODevice::ReadOnly))
            return out;
        out.append(QJsonDocument::fromJson(file.readAll()).object());
    }
}

QByteArray SmtpServer::raw(int n) const
{
    return m_dir ? readFile(QDir(m_dir->path()).filePath(QStringLiteral("msg-%1.eml").arg(n))) : QByteArray();
}

bool SmtpServer::waitForMessages(int count, std::chrono::milliseconds bound) const
{
    // Another process's file: nothing announces it.
    return m_dir && eventually([&] { return QFile::exists(QDir(m_dir->path()).filePath(QStringLiteral("msg-%1.json").arg(count))); }, bound);
}

} // namespace Switchyard::Test
