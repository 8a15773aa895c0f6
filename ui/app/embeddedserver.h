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

#include "engine/core/status.h"

#include <QObject>
#include <QThread>
#include <QUrl>

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
    // `port`: -1 for [server] HTTP_PORT (3300 … when not set); else this one (0: any free port,
    // tests).
    explicit EmbeddedServer(Admin::LocalBackend &backend, int port = -1, QObject *parent = nullptr);
    ~EmbeddedServer() override;

    // Listens on `port` (the Overview's "Use port N", Preferences), then stops listening on the
    // old one: the engine keeps running and nothing it holds is touched. When `port` cannot be
    // had, the old one stays (or, without one, the problem is said) and the error is returned.
    Status listenOn(int port);
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
    // Serves on `port`: replaces the running server only when the new one listens.
    Status serve(int port, int tryNext);
    void publish(const QString &problem);

    Admin::LocalBackend &m_backend;
    QThread m_thread;
    QObject *m_host = nullptr;                  // lives on m_thread: the context of calls there
    std::unique_ptr<Server::AdminServer> m_server; // created, used and destroyed on m_thread only
    quint16 m_port = 0;                          // GUI thread: the port taken, 0 when not listening
    QUrl m_url;                                  // GUI thread: serve()'s URL for it
    int m_startPort;                             // the constructor's `port`
};

} // namespace Switchyard::Console
