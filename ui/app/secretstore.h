#pragma once

// Tokens of saved remote instances in the system keychain (QtKeychain: Secret Service, KWallet,
// macOS Keychain, Windows Credential Store) — never in the plain settings file. Asynchronous like
// the keychain itself; replies run on the context's thread unless it is gone.

#include "engine/core/status.h"

#include <QObject>

#include <functional>

namespace Switchyard::Console {

class SecretStore : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Unavailable ("no keychain service is running …") when the system has none: the caller then
    // keeps the token for this session only and says so.
    void write(const QString &name, const QByteArray &token, QObject *context, std::function<void(Status)> done);
    // NotFound when nothing is stored under `name`.
    void read(const QString &name, QObject *context, std::function<void(Result<QByteArray>)> done);
    void remove(const QString &name);

    static QString serviceName() { return QStringLiteral("switchyard"); }
};

} // namespace Switchyard::Console
