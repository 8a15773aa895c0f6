#pragma once

// The admin API and event ingestion over the console's embedded engine: the daemon's own server,
// started the daemon's way (Server::serve, src/server/serve.h), so a forge posts its webhooks to
// the desktop app as it would to switchyardd. [server] of the console's app.ini applies; when
// HTTP_PORT is not set there, 3300 is taken when free, else the next free port. A port another
// program holds is not fatal: the console opens, the Overview says so (the backend's
// endpointProblem()) and offers a free port (listenOn()).
//
// Threads: this object belongs to the GUI thread. The server lives on m_thread, created, stopped
// and destroyed there (every call below waits for it); this object starts and joins the thread.
// The server stops when the backend starts closing, before the engine shuts down (producers
// first).

#include <QObject>
#include <QThread>

#include <memory>

namespace Switchyard::Admin {
class LocalBackend;
}
namespace Switchyard::Server {
class AdminServer;
}

namespace Switchyard::Console {

class EmbeddedServer final : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDefaultPortTries = 20; // 3300 … 3320

    // Serves once `backend` is Connected (at once when it is). `backend` outlives this object.
    explicit EmbeddedServer(Admin::LocalBackend &backend, QObject *parent = nullptr);
    ~EmbeddedServer() override;

    // Stops, then listens on `port` (the Overview's "Use port N", Preferences): the engine keeps
    // running and nothing it holds is touched.
    void listenOn(int port);
    void stop();

    bool isListening() const { return m_port != 0; }
    quint16 port() const { return m_port; }
    // Whether [server] HTTP_PORT is set in app.ini (else the default port may move on).
    bool portConfigured() const;
    // A port nobody listens on, from `from` upwards (the port to offer); 0 when none is found.
    static quint16 freePort(quint16 from, int tries = kDefaultPortTries);

Q_SIGNALS:
    void changed();

private:
    void serve(int port, int tryNext);
    void publish(const QString &problem);

    Admin::LocalBackend &m_backend;
    QThread m_thread;
    QObject *m_host = nullptr;                  // lives on m_thread: the context of calls there
    std::unique_ptr<Server::AdminServer> m_server; // created, used and destroyed on m_thread only
    quint16 m_port = 0;                          // GUI thread: the port taken, 0 when not listening
};

} // namespace Switchyard::Console
