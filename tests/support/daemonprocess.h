#pragma once

// A daemon process for black-box tests: started with --port 0 on a private data directory; the
// port is read from its "admin API on …" line, the admin token from the data directory. Plus a
// synchronous HTTP helper that waits for the reply's finished() signal (no sleeping).

#include <QByteArray>
#include <QJsonDocument>
#include <QMap>
#include <QTemporaryDir>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QUrl>

#include "engine/core/childprocess.h"

namespace Switchyard::Test {

class DaemonProcess
{
public:
    struct Options
    {
        QString program;
        QString dataDir;
        QByteArray config; // app.ini text; empty: embedded defaults
        QMap<QString, QString> environment;
        QStringList extraArguments;
        // A command the daemon runs under, e.g. {"prlimit", "--nofile=128:128", "--"} (it must exec
        // the daemon, so the process id stays the daemon's).
        QStringList wrapper;
    };

    // The test daemon with the standard fixture of the API and backend tests: queues "slow"
    // (200 ms per batch, 200 items waiting) and "fast", and the held lock "demo-lock".
    static Options standardFixture(const QString &program, const QString &dataDir, const QByteArray &config);

    ~DaemonProcess();
    // Starts and waits for the API line; false (with output()) when the daemon exits first.
    bool start(const Options &options);
    // SIGTERM and wait; returns the exit code (-1 when it crashed or hung).
    int stop();
    // SIGKILL (a crash) and wait.
    void kill();
    // Waits for the daemon to end by itself (a crash point); false when it still runs after the bound.
    bool waitForExit(int boundMs = 30000);
    bool crashed() const { return m_process.crashed(); } // ended by a signal
    bool running() { return !m_process.finished(); }

    QUrl baseUrl() const { return m_baseUrl; } // http(s)://127.0.0.1:PORT/api/v1
    // An endpoint of the API: baseUrl() + `path` ("/hooks"), with `query` when given.
    QUrl apiUrl(const QString &path, const QString &query = QString()) const;
    quint16 port() const { return quint16(m_baseUrl.port()); }
    QByteArray adminToken() const;
    QByteArray output();
    // Waits until the output holds `marker`; false when the daemon ends first or the bound passes.
    bool waitForMarker(const QByteArray &marker, int boundMs = 20000);
    qint64 pid() const { return m_process.pid(); }

private:
    Options m_options;
    ChildProcess m_process; // posix_spawn, not QProcess (docs/testing.md: ThreadSanitizer)
    QTemporaryDir m_outputDir;
    QString m_outputFile;   // stdout and stderr: a file, so nobody must keep reading for the daemon to log
    QByteArray m_output;
    QUrl m_baseUrl;
};

struct HttpResult
{
    int status = 0; // 0: no HTTP answer (networkError says why)
    QByteArray body;
    QMap<QByteArray, QByteArray> headers; // lower-case names
    QString networkError;

    QJsonDocument json() const { return QJsonDocument::fromJson(body); }
    QString message() const;                // the error body's "message"
    QString errorField() const;             // its first errors[].field
};

// One request, waited for with a bound that only matters when the server is broken. `token`
// empty: no Authorization header.
HttpResult http(const QByteArray &method, const QUrl &url, const QByteArray &token, const QByteArray &body = QByteArray(),
                const QMap<QByteArray, QByteArray> &headers = {});

// Raw bytes over TCP (for paths a URL class would normalise): the whole answer until the server closes
// or `boundMs` passes.
QByteArray rawHttp(quint16 port, const QByteArray &request, int boundMs = 10000);

} // namespace Switchyard::Test
