#pragma once

// Secrets at rest (a webhook's Authorization header): AES-256-GCM (OpenSSL) with a random 96-bit
// nonce per seal. The key is SHA-256 of [security] SECRET_KEY — which every instance sharing a
// database must have — or, for one instance on SQLite, 32 random bytes kept in a key file that
// only the service's user may read.

#include "status.h"

#include <QByteArray>
#include <QString>

namespace Switchyard {

class SecretBox
{
public:
    // The key of a passphrase (SECRET_KEY); an empty one is refused by the caller.
    static SecretBox fromPassphrase(const QByteArray &passphrase);
    // The key in `path` (32 bytes); made with mode 0600 when missing. Refused when others than
    // the owner may read it, or when it is not 32 bytes — naming the file and the reason.
    static Result<SecretBox> fromKeyFile(const QString &path);

    // "gcm1:" + base64(nonce ‖ ciphertext ‖ tag). An empty secret seals to the empty string.
    QString seal(const QByteArray &plain) const;
    // The plain text; Corruption when the text was altered or sealed with another key.
    Result<QByteArray> open(const QString &sealed) const;

private:
    explicit SecretBox(QByteArray key) : m_key(std::move(key)) {}
    QByteArray m_key; // 32 bytes
};

} // namespace Switchyard
