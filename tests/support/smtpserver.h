#pragma once

#include "engine/core/childprocess.h"
#include "engine/core/status.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <chrono>
#include <memory>

namespace Switchyard::Test {

// A private SMTP sink for one test (modelled on RedisServer): Debian's /usr/bin/python3 runs
// tests/support/smtpsink.py (aiosmtpd) on a free loopback port or a Unix socket, plain, SMTPS or
// STARTTLS (a certificate made by `openssl` for localhost/127.0.0.1), with optional AUTH. Every
// message it takes is kept as .eml and as JSON decoded by Python's `email` package — a decoder
// independent of ours. Started synchronously (waits for its ready file), stopped in the
// destructor. Not thread-safe: drive it from the test's thread.
class SmtpServer
{
public:
    enum class Mode { Plain, Smtps, StartTls };
    struct Options
    {
        Mode mode = Mode::Plain;
        bool unixSocket = false;   // listen on <dir>/smtp.sock instead of a port
        QString user;              // with a password: AUTH PLAIN/LOGIN required
        QString password;
        QStringList refuseRcpt;    // a recipient containing one of these gets 550
        int dropAfter = -1;        // the connection that brings message N+1 is cut, once
    };

    SmtpServer();
    ~SmtpServer();
    SmtpServer(const SmtpServer &) = delete;
    SmtpServer &operator=(const SmtpServer &) = delete;

    Status start(const Options &options);
    Status start() { return start(Options()); }
    void stop();
    // SIGSTOP / SIGCONT: a server that hangs with its connections open.
    void pause();
    void resume();

    quint16 port() const { return m_port; }
    QString socketPath() const;
    QString certificateFile() const; // the server's certificate (PEM), for a client that verifies

    // The messages taken so far, in order (msg-N.json), and one's bytes as received.
    QList<QJsonObject> messages() const;
    QByteArray raw(int n) const;
    // Waits until at least `count` messages are there; false after `bound` (a broken test).
    bool waitForMessages(int count, std::chrono::milliseconds bound = std::chrono::seconds(20)) const;

private:
    Status launch();

    Options m_options;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ChildProcess> m_process;
    quint16 m_port = 0;
};

} // namespace Switchyard::Test
