#include "daemonprocess.h"

#include "testutil.h"

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

DaemonProcess::~DaemonProcess()
{
    if (m_process.state() != QProcess::NotRunning)
        stop();
}

bool DaemonProcess::start(const Options &options)
{
    m_options = options;
    QStringList args{QStringLiteral("--data-dir"), options.dataDir, QStringLiteral("--port"), QStringLiteral("0")};
    if (!options.config.isEmpty())
        args << QStringLiteral("--config") << writeFile(options.dataDir, QStringLiteral("app.ini"), options.config);
    args << options.extraArguments;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = options.environment.begin(); it != options.environment.end(); ++it)
        env.insert(it.key(), it.value());
    m_process.setProcessEnvironment(env);
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    if (options.wrapper.isEmpty())
        m_process.start(options.program, args);
    else
        m_process.start(options.wrapper.first(), options.wrapper.mid(1) + QStringList{options.program} + args);
    if (!waitForOutput(m_process, m_output, "ready (pid"))
        return false;
    static const QRegularExpression api(QStringLiteral("admin API on (https?://[^ ]+?:\\d+/api/v1)"));
    const QRegularExpressionMatch match = api.match(QString::fromUtf8(m_output));
    if (!match.hasMatch())
        return false;
    m_baseUrl = QUrl(match.captured(1));
    return true;
}

int DaemonProcess::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    m_process.terminate();
    if (!m_process.waitForFinished(30000)) {
        m_process.kill();
        m_process.waitForFinished();
        return -1;
    }
    m_output += m_process.readAll();
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

QByteArray DaemonProcess::adminToken() const
{
    QFile file(QDir(m_options.dataDir).filePath(QStringLiteral("admin-token")));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
}

QByteArray DaemonProcess::output()
{
    m_output += m_process.readAll();
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
