#pragma once

#include "engine/core/childprocess.h"
#include "engine/core/status.h"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace Switchyard::Test {

// A real HTTP forward proxy for one test: Debian's tinyproxy (package tinyproxy-bin, installed by
// scripts/deps.sh) in the foreground on a free loopback port, accepting 127.0.0.1 only, with basic
// authentication when a user is given. It adds `Via: 1.1 switchyard-test-proxy (…)` to what it
// forwards, so a receiver can tell a proxied request from a direct one.
class HttpProxy
{
public:
    HttpProxy() = default;
    ~HttpProxy();
    HttpProxy(const HttpProxy &) = delete;
    HttpProxy &operator=(const HttpProxy &) = delete;

    Status start(const QString &user = {}, const QString &password = {});
    quint16 port() const { return m_port; }
    QByteArray log() const; // tinyproxy's own log (requests, upstream connections)

private:
    Status launch();

    QString m_user;
    QString m_password;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ChildProcess> m_process;
    quint16 m_port = 0;
};

} // namespace Switchyard::Test
