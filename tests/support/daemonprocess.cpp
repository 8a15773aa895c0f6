#include "daemonprocess.h"

#include "testutil.h"

#include <QDebug>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSslError>
#include <QTcpSocket>
#include <QTimer>

#include <csignal>

namespace Switchyard::Test {

DaemonProcess::Options DaemonProcess::standardFixture(const QString &program, const QString &dataDir, const QByteArray &config)
{
    Options options;
    options.program = program;
    options.dataDir = dataDir;
    options.config = config;
    options.environment = {{QStringLiteral("SY_TEST_QUEUES"), QStringLiteral("slow:200,fast:0")},
                           {QStringLiteral("SY_TEST_PUSH"), QStringLiteral("slow:200")},
                           {QStringLiteral("SY_TEST_LOCK"), QStringLiteral("demo-lock")}};
    return options;
}

QUrl DaemonProcess::apiUrl(const QString &path, const QString &query) const
{
    QUrl u = m_baseUrl;
    u.setPath(u.path() + path);
    if (!query.isEmpty())
        u.setQuery(query);
    return u;
}

DaemonProcess::~DaemonProcess()
{
    if (!m_process.finished())
        stop();
}

bool DaemonProcess::start(const Options &options)
{
    m_options = options;
    QStringList args{QStringLiteral("--data-dir"), options.dataDir, QStringLiteral("--port"), QStringLiteral("0")};
    if (!options.config.isEmpty()) {
        QDir().mkpath(options.dataDir);
        args << QStringLiteral("--config") << writeFile(options.dataDir, QStringLiteral("app.ini"), options.config);
    }
    args << options.extraArguments;
    m_outputFile = m_outputDir.filePath(QStringLiteral("daemon.log"));
    QFile::remove(m_outputFile);
    m_output.clear();
    ChildProcess::Options spawn;
    spawn.output = ChildProcess::Output::File;
    spawn.outputFile = m_outputFile;
    spawn.environment = options.environment;
    const Status started = options.wrapper.isEmpty()
                               ? m_process.start(options.program, args, spawn)
                               : m_process.start(options.wrapper.first(), options.wrapper.mid(1) + QStringList{options.program} + args, spawn);
    if (!started) {
        m_output = started.message().toUtf8();
        return false;
    }
    if (!waitForMarker("ready (pid"))
        return false;
    static const QRegularExpression api(QStringLiteral("admin API on (https?://[^ ]+?:\\d+/api/v1)"));
    const QRegularExpressionMatch match = api.match(QString::fromUtf8(output()));
    if (!match.hasMatch())
        return false;
    m_baseUrl = QUrl(match.captured(1));
    return true;
}

bool DaemonProcess::waitForMarker(const QByteArray &marker, int boundMs)
{
    QDeadlineTimer deadline(boundMs);
    while (!output().contains(marker)) {
        if (m_process.finished() || deadline.hasExpired())
            return output().contains(marker);
        m_process.read(10); // waits: the output goes to a file
    }
    return true;
}

int DaemonProcess::stop()
{
    if (!m_process.finished()) {
        m_process.signal(SIGTERM);
        if (!m_process.waitForFinished(30000)) {
            m_process.kill();
            return -1;
        }
    }
    output();
    const int code = m_process.crashed() ? -1 : m_process.exitCode();
    if (code != 0) // a sanitizer's report (exit 66 under ThreadSanitizer) or an error is in the log
        qWarning().noquote() << "the daemon ended with" << code << "; its output:\n" << QString::fromUtf8(m_output);
    return code;
}

void DaemonProcess::kill()
{
    if (!m_process.finished())
        m_process.kill();
    output();
}

bool DaemonProcess::waitForExit(int boundMs)
{
    const bool ended = m_process.finished() || m_process.waitForFinished(boundMs);
    output();
    return ended;
}

QByteArray DaemonProcess::adminToken() const
{
    QFile file(QDir(m_options.dataDir).filePath(QStringLiteral("admin-token")));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
}

QByteArray DaemonProcess::output()
{
    QFile file(m_outputFile);
    if (!m_outputFile.isEmpty() && file.open(QIODevice::ReadOnly))
        m_output = file.readAll();
    return m_output;
}

QString HttpResult::message() const
{
    return json().object().value(QStringLiteral("message")).toString();
}

QString HttpResult::errorField() const
{
    return json().object().value(QStringLiteral("errors")).toArray().at(0).toObject().value(QStringLiteral("field")).toString();
}

HttpResult http(const QByteArray &method, const QUrl &url, const QByteArray &token, const QByteArray &body,
                const QMap<QByteArray, QByteArray> &headers)
{
    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (auto it = headers.begin(); it != headers.end(); ++it)
        request.setRawHeader(it.key(), it.value());
    request.setTransferTimeout(60000);
    QNetworkReply *reply = manager.sendCustomRequest(request, method, body);
    // Self-signed certificates of the TLS tests are accepted here; the test checks the chain itself.
    QObject::connect(reply, &QNetworkReply::sslErrors, reply, [reply](const QList<QSslError> &) { reply->ignoreSslErrors(); });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    HttpResult result;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        result.headers.insert(name.toLower(), value);
    if (reply->error() != QNetworkReply::NoError && result.status == 0)
        result.networkError = reply->errorString();
    delete reply;
    return result;
}

QByteArray rawHttp(quint16 port, const QByteArray &request, int boundMs)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(boundMs))
        return {};
    socket.write(request);
    QByteArray answer;
    QEventLoop loop;
    QObject::connect(&socket, &QTcpSocket::readyRead, &loop, [&] {
        answer += socket.readAll();
        // One answer is enough: headers plus Content-Length bytes.
        const qsizetype end = answer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        static const QRegularExpression length(QStringLiteral("(?i)content-length: *(\\d+)"));
        const QRegularExpressionMatch m = length.match(QString::fromLatin1(answer.left(end)));
        if (!m.hasMatch() || answer.size() - end - 4 >= m.captured(1).toLongLong())
            loop.quit();
    });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    QTimer::singleShot(boundMs, &loop, &QEventLoop::quit);
    loop.exec();
    return answer;
}

} // namespace Switchyard::Test
