#include "embeddedserver.h"

#include "admin/localbackend.h"
#include "server/serve.h"

#include <QTcpServer>

namespace Switchyard::Console {

EmbeddedServer::EmbeddedServer(Admin::LocalBackend &backend, int port, QObject *parent)
    : QObject(parent), m_backend(backend), m_startPort(port)
{
    m_thread.setObjectName(QStringLiteral("embedded-api"));
    m_host = new QObject;
    m_host->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_host, &QObject::deleteLater);
    m_thread.start();
    const auto onState = [this](Admin::AdminBackend::State state) {
        if (state == Admin::AdminBackend::State::Connected && !isListening())
            serve(m_startPort, m_startPort >= 0 || portConfigured() ? 0 : kDefaultPortTries);
        else if (state == Admin::AdminBackend::State::Closing || state == Admin::AdminBackend::State::Failed)
            stop(); // before the engine shuts down: the API stops taking work first
    };
    // Direct: Closing is announced before the backend's closing thread starts the shutdown.
    connect(&m_backend, &Admin::AdminBackend::stateChanged, this, onState, Qt::DirectConnection);
    onState(m_backend.state());
}

EmbeddedServer::~EmbeddedServer()
{
    stop();
    m_thread.quit();
    m_thread.wait();
}

bool EmbeddedServer::portConfigured() const
{
    return m_backend.config().settings().has({QStringLiteral("server")}, QStringLiteral("HTTP_PORT"));
}

quint16 EmbeddedServer::freePort(quint16 from, int tries)
{
    for (int i = 0; i <= tries && from + i <= 65535; ++i) {
        QTcpServer probe;
        if (probe.listen(QHostAddress::LocalHost, quint16(from + i)))
            return quint16(from + i);
    }
    return 0;
}

Status EmbeddedServer::listenOn(int port)
{
    if (port == m_port && isListening())
        return Status::ok();
    return serve(port, 0);
}

Status EmbeddedServer::serve(int port, int tryNext)
{
    Q_ASSERT(QThread::currentThread() == thread()); // blocks on m_thread: never called from there
    if (!m_backend.engine() || !m_backend.audit()) {
        const Status missing = Status::unavailable(tr("the engine's audit log could not be opened, so the admin API does not start"));
        publish(missing.message());
        return missing;
    }
    Status status;
    quint16 taken = 0;
    QUrl url;
    QMetaObject::invokeMethod(m_host, [&] {
        Server::ServeOptions options;
        options.port = port;
        options.tryNext = tryNext;
        options.program = QStringLiteral("switchyard");
        Result<Server::Serving> serving = Server::serve(*m_backend.engine(), m_backend.config(), *m_backend.audit(), options);
        if (!serving) {
            status = serving.status();
            return;
        }
        if (m_server) // the new one listens: the old one goes
            m_server->stop();
        m_server = std::move(serving->server);
        taken = m_server->port();
        url = serving->url;
    }, Qt::BlockingQueuedConnection);
    if (status) {
        m_port = taken;
        m_url = url;
        publish(QString());
    } else if (!isListening()) {
        publish(status.message());
    }
    return status;
}

void EmbeddedServer::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_thread.isRunning())
        return;
    QMetaObject::invokeMethod(m_host, [this] {
        if (m_server)
            m_server->stop();
        m_server.reset();
    }, Qt::BlockingQueuedConnection);
    if (m_port == 0)
        return;
    Server::forgetEndpoint(m_backend.config().dataPath());
    m_port = 0;
    publish(QString());
}

void EmbeddedServer::publish(const QString &problem)
{
    // serve()'s URL, the one it wrote to api-url: one place decides how the API is reached.
    m_backend.setEndpoint(m_port != 0 ? m_url : QUrl(), problem);
    Q_EMIT changed();
}

} // namespace Switchyard::Console
