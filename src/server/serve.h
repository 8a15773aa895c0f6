#pragma once

// Starting the admin API over a running engine, written once for the two programs that do it:
// switchyardd (on its main thread) and the console's embedded engine (on a thread of its own,
// ui/app/embeddedserver.h). Tokens first (the admin token is generated into the data directory
// when none is configured), then the listening socket.

#include "server/adminserver.h"

#include "engine/core/status.h"
#include "engine/settings/config.h"

#include <QUrl>

#include <memory>
#include <utility>

namespace Switchyard::Server {

// [server] as the server's options.
ServerOptions serverOptions(const EngineConfig &config);

struct ServeOptions
{
    // 0: [server] HTTP_PORT. Else this port (the daemon's --port, a port the console chose).
    int port = -1;
    // When the port is taken by another program, try the next ones, up to this many more (the
    // console's default port: 3300, else the next free one). 0: fail with AlreadyExists.
    int tryNext = 0;
    // Written with the URL to <data dir>/api-url (kApiUrlFile): who serves this data directory.
    QString program = QStringLiteral("switchyardd");
};

// <data dir>/api-url, 0600: the admin API's URL as it was taken (the port may not be HTTP_PORT's)
// and the program serving it, one per line — for a second console started on the same data
// directory, which connects there instead of to HTTP_PORT (where another program may listen).
inline constexpr const char *kApiUrlFile = "api-url";
// The file's URL and program; empty when there is none.
std::pair<QUrl, QString> servedEndpoint(const QString &dataPath);
// Removes the file (the server stopped).
void forgetEndpoint(const QString &dataPath);

struct Serving
{
    std::unique_ptr<AdminServer> server;
    QString generatedToken; // the admin token when it was generated now (shown once), else empty
    QString tokenPath;      // where the generated token is kept (0600)
    quint16 wantedPort = 0; // the port asked for; server->port() is the one taken
    QUrl url;               // …/api/v1 as reached from this machine (a wildcard address: loopback)
};

// Tokens, then the server on `engine` with `audit` (both outlive the server), listening. The
// server lives on the calling thread. AlreadyExists when the port (and the next `tryNext`) are
// taken; InvalidArgument for [server] settings that cannot work (TLS files, a remote address
// without TLS).
Result<Serving> serve(Engine &engine, const EngineConfig &config, Admin::AuditLog &audit, const ServeOptions &options = {});

} // namespace Switchyard::Server
