#pragma once

// Admin API tokens (docs/security.md). The admin token is generated on first start (32 random
// bytes) and written 0600 to the data directory, unless [server] ADMIN_TOKEN names one; named
// tokens with a role are created and revoked with `switchyardctl token … --data-dir` and live in
// tokens.json (0600) beside it, as SHA-256 hashes only. The server keeps hashes, never tokens, and
// compares them in constant time.

#include "engine/core/status.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <functional>
#include <vector>

namespace Switchyard::Admin {

// Ingest: POST /events only (a forge's webhook that can send a header but should read nothing).
enum class Role { Admin, ReadOnly, Ingest };
QString roleName(Role role); // "admin", "read-only", "ingest"
Result<Role> roleFromName(const QString &name);

struct TokenInfo
{
    QString name;
    Role role = Role::ReadOnly;
    QDateTime createdAt;
    QByteArray hash; // SHA-256 of the token
};

// Who a request authenticated as.
struct Identity
{
    QString name; // the token's name ("admin" for the admin token)
    Role role = Role::ReadOnly;
};

namespace Tokens {
// "sy_" + 64 hex digits of 32 bytes from OpenSSL's CSPRNG.
QString generate();
QByteArray hash(const QByteArray &token);
// Constant-time comparison of two hashes (CRYPTO_memcmp); false when the lengths differ.
bool equal(const QByteArray &a, const QByteArray &b);
// Writes `data` to `path` atomically with mode 0600.
Status writePrivateFile(const QString &path, const QByteArray &data);
} // namespace Tokens

// tokens.json in a data directory. Each call re-reads the file; create/revoke hold a lock file so
// two clients cannot lose each other's change. Thread-safety: independent calls, any thread.
class TokenStore
{
public:
    explicit TokenStore(QString dataPath);

    static constexpr const char *kFileName = "tokens.json";
    static constexpr const char *kAdminTokenFile = "admin-token";

    QString path() const;
    QString adminTokenPath() const;

    Result<std::vector<TokenInfo>> list() const;
    // Returns the new token (shown once). InvalidArgument for a bad name or the reserved "admin",
    // AlreadyExists when the name is taken.
    Result<QString> create(const QString &name, Role role);
    Status revoke(const QString &name); // NotFound when no such token

    // The admin token's hash: of `configured` when set; else of the token in admin-token, which is
    // generated and written 0600 when missing (`generated` then receives it to be printed once).
    Result<QByteArray> adminTokenHash(const QString &configured, QString *generated);

private:
    Result<std::vector<TokenInfo>> read() const;
    Status write(const std::vector<TokenInfo> &tokens) const;
    Status edit(const std::function<Status(std::vector<TokenInfo> &)> &change);

    QString m_dataPath;
};

} // namespace Switchyard::Admin
