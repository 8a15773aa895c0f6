#include "serve.h"

#include "admin/tokens.h"

#include "engine/core/logging.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>

namespace Switchyard::Server {

ServerOptions serverOptions(const EngineConfig &config)
{
    const ServerSettings &srv = config.server;
    ServerOptions options;
    options.address = srv.httpAddr == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(srv.httpAddr);
    options.port = quint16(srv.httpPort);
    options.certFile = srv.certFile;
    options.keyFile = srv.keyFile;
    options.allowInsecureRemote = srv.allowInsecureRemote;
    options.allowedOrigins = srv.allowedOrigins;
    options.maxBodySize = srv.maxBodySize;
    options.authFailureLimit = srv.authFailureLimit;
    options.edge.headerTimeout = srv.headerTimeout;
    options.edge.idleTimeout = srv.idleTimeout;
    options.edge.maxConnections = srv.maxConnections;
    options.edge.maxPerNetwork = srv.maxConnectionsPerAddress;
    options.edge.reserved = srv.reservedConnections;
    options.edge.minBodyRate = srv.minBodyRate;
    options.edge.bodyBudget = srv.bodyBudget;
    return options;
}

std::pair<QUrl, QString> servedEndpoint(const QString &dataPath)
{
    QFile file(QDir(dataPath).filePath(QLatin1String(kApiUrlFile)));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> lines = file.readAll().split('\n');
    return {QUrl(QString::fromUtf8(lines.value(0).trimmed())), QString::fromUtf8(lines.value(1).trimmed())};
}

void forgetEndpoint(const QString &dataPath)
{
    QFile::remove(QDir(dataPath).filePath(QLatin1String(kApiUrlFile)));
}

Result<Serving> serve(Engine &engine, const EngineConfig &config, Admin::AuditLog &audit, const ServeOptions &how)
{
    Admin::TokenStore tokens(config.dataPath());
    Serving serving;
    Result<QByteArray> adminHash = tokens.adminTokenHash(config.server.adminToken, &serving.generatedToken);
    if (!adminHash)
        return adminHash.status();
    serving.tokenPath = tokens.adminTokenPath();
    ServerOptions options = serverOptions(config);
    if (how.port >= 0)
        options.port = quint16(how.port);
    serving.wantedPort = options.port;
    Status listening;
    for (int attempt = 0; attempt <= how.tryNext; ++attempt) {
        serving.server = std::make_unique<AdminServer>(engine, audit, *adminHash, tokens, options);
        listening = serving.server->listen();
        // Port 0 (any free port) cannot be taken; past 65535 there is no next one.
        if (listening || listening.code() != Status::Code::AlreadyExists || options.port == 0 || options.port == 65535)
            break;
        options.port = quint16(options.port + 1);
    }
    if (!listening) {
        serving.server.reset();
        if (listening.code() == Status::Code::AlreadyExists && how.tryNext > 0)
            return Status(listening.code(), QStringLiteral("ports %1 to %2 are all in use by other programs")
                                                .arg(serving.wantedPort)
                                                .arg(serving.wantedPort + how.tryNext));
        return listening;
    }
    // A wildcard address is reached on loopback from this machine.
    const QString host = options.address == QHostAddress::Any || options.address == QHostAddress::AnyIPv4 ? QStringLiteral("127.0.0.1")
                         : options.address == QHostAddress::AnyIPv6                                    ? QStringLiteral("::1")
                                                                                                       : options.address.toString();
    const QString url = QStringLiteral("%1://%2:%3/api/v1")
                            .arg(serving.server->isTls() ? QStringLiteral("https") : QStringLiteral("http"),
                                 host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host)
                            .arg(serving.server->port());
    serving.url = QUrl(url);
    QSaveFile endpoint(QDir(config.dataPath()).filePath(QLatin1String(kApiUrlFile)));
    if (endpoint.open(QIODevice::WriteOnly)) {
        endpoint.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        endpoint.write(url.toUtf8() + '\n' + how.program.toUtf8() + '\n');
        endpoint.commit();
    }
    qCInfo(lcCore).noquote() << QStringLiteral("admin API on %1://%2:%3/api/v1")
                                    .arg(serving.server->isTls() ? QStringLiteral("https") : QStringLiteral("http"), config.server.httpAddr)
                                    .arg(serving.server->port());
    return serving;
}

} // namespace Switchyard::Server
