#include "tokens.h"

#include "startup.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QRegularExpression>
#include <QSaveFile>

#include <openssl/crypto.h>
#include <openssl/rand.h>

namespace Switchyard::Admin {

QString roleName(Role role)
{
    switch (role) {
    case Role::Admin: return QStringLiteral("admin");
    case Role::ReadOnly: return QStringLiteral("read-only");
    case Role::Ingest: return QStringLiteral("ingest");
    }
    return QStringLiteral("read-only");
}

Result<Role> roleFromName(const QString &name)
{
    if (name == QLatin1String("admin"))
        return Role::Admin;
    if (name == QLatin1String("read-only"))
        return Role::ReadOnly;
    if (name == QLatin1String("ingest"))
        return Role::Ingest;
    return Status::invalidArgument(QStringLiteral("role: \"%1\" is not a role (valid: admin, read-only, ingest)").arg(name));
}

namespace Tokens {

QString generate()
{
    unsigned char bytes[32];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        qFatal("OpenSSL's random generator failed; refusing to make a guessable token");
    return QStringLiteral("sy_") + QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(bytes), sizeof bytes).toHex());
}

QByteArray hash(const QByteArray &token)
{
    return QCryptographicHash::hash(token, QCryptographicHash::Sha256);
}

bool equal(const QByteArray &a, const QByteArray &b)
{
    return a.size() == b.size() && CRYPTO_memcmp(a.constData(), b.constData(), std::size_t(a.size())) == 0;
}

Status writePrivateFile(const QString &path, const QByteArray &data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    // Before any byte is written: the temporary file is private from the start.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return Status::unavailable(QStringLiteral("cannot make %1 private: %2").arg(path, file.errorString()));
    file.write(data);
    if (!file.commit())
        return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return Status::ok();
}

} // namespace Tokens

TokenStore::TokenStore(QString dataPath) : m_dataPath(std::move(dataPath)) {}

QString TokenStore::path() const
{
    return QDir(m_dataPath).filePath(QLatin1String(kFileName));
}

QString TokenStore::adminTokenPath() const
{
    return QDir(m_dataPath).filePath(QLatin1String(kAdminTokenFile));
}

Result<std::vector<TokenInfo>> TokenStore::list() const
{
    return read();
}

Result<std::vector<TokenInfo>> TokenStore::read() const
{
    QFile file(path());
    if (!file.exists())
        return std::vector<TokenInfo>{};
    if (!file.open(QIODevice::ReadOnly))
        return Status::unavailable(QStringLiteral("cannot read %1: %2").arg(path(), file.errorString()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray())
        return Status::corruption(QStringLiteral("%1 is not a token list: %2")
                                      .arg(path(), error.error != QJsonParseError::NoError ? error.errorString()
                                                                                          : QStringLiteral("expected an array")));
    std::vector<TokenInfo> tokens;
    const QJsonArray array = doc.array();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonObject o = array.at(i).toObject();
        Result<Role> role = roleFromName(o.value(QStringLiteral("role")).toString());
        const QByteArray hash = QByteArray::fromHex(o.value(QStringLiteral("sha256")).toString().toLatin1());
        const QString name = o.value(QStringLiteral("name")).toString();
        if (!role || hash.size() != 32 || name.isEmpty())
            return Status::corruption(QStringLiteral("%1: entry %2 needs a name, a role (admin, read-only) and a sha256")
                                          .arg(path())
                                          .arg(i + 1));
        tokens.push_back({name, *role, QDateTime::fromString(o.value(QStringLiteral("created_at")).toString(), Qt::ISODate),
                          hash});
    }
    return tokens;
}

Status TokenStore::write(const std::vector<TokenInfo> &tokens) const
{
    QJsonArray array;
    for (const TokenInfo &t : tokens)
        array.append(QJsonObject{{QStringLiteral("name"), t.name},
                                 {QStringLiteral("role"), roleName(t.role)},
                                 {QStringLiteral("created_at"), t.createdAt.toString(Qt::ISODate)},
                                 {QStringLiteral("sha256"), QString::fromLatin1(t.hash.toHex())}});
    return Tokens::writePrivateFile(path(), QJsonDocument(array).toJson());
}

// Read, change, write tokens.json under its lock file, so that two clients cannot lose each other's change.
Status TokenStore::edit(const std::function<Status(std::vector<TokenInfo> &)> &change)
{
    if (!makePrivateDirectory(m_dataPath))
        return Status::unavailable(QStringLiteral("cannot create the data directory %1").arg(m_dataPath));
    QLockFile lock(path() + QStringLiteral(".lock"));
    if (!lock.tryLock(5000))
        return Status::unavailable(QStringLiteral("%1 is locked by another client").arg(path()));
    Result<std::vector<TokenInfo>> tokens = read();
    if (!tokens)
        return tokens.status();
    if (Status changed = change(*tokens); !changed)
        return changed;
    return write(*tokens);
}

Result<QString> TokenStore::create(const QString &name, Role role)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    if (!valid.match(name).hasMatch())
        return Status::invalidArgument(
            QStringLiteral("name: \"%1\" is not a token name (1–64 letters, digits, '.', '_' or '-')").arg(name));
    if (name == QLatin1String("admin"))
        return Status::invalidArgument(QStringLiteral("name: \"admin\" is the built-in admin token's name"));
    const QString token = Tokens::generate();
    const Status created = edit([&](std::vector<TokenInfo> &tokens) {
        for (const TokenInfo &t : tokens) {
            if (t.name == name)
                return Status::alreadyExists(QStringLiteral("name: a token named \"%1\" exists; revoke it first").arg(name));
        }
        tokens.push_back({name, role, QDateTime::currentDateTimeUtc(), Tokens::hash(token.toLatin1())});
        return Status::ok();
    });
    if (!created)
        return created;
    return token;
}

Status TokenStore::revoke(const QString &name)
{
    return edit([&](std::vector<TokenInfo> &tokens) {
        const auto it = std::find_if(tokens.begin(), tokens.end(), [&](const TokenInfo &t) { return t.name == name; });
        if (it == tokens.end())
            return Status::notFound(QStringLiteral("name: no token named \"%1\" in %2").arg(name, path()));
        tokens.erase(it);
        return Status::ok();
    });
}

Result<QByteArray> TokenStore::adminTokenHash(const QString &configured, QString *generated)
{
    if (!configured.isEmpty())
        return Tokens::hash(configured.toUtf8());
    QFile file(adminTokenPath());
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly))
            return Status::unavailable(QStringLiteral("cannot read %1: %2").arg(adminTokenPath(), file.errorString()));
        const QByteArray token = file.readAll().trimmed();
        if (token.size() < 32)
            return Status::corruption(
                QStringLiteral("%1 holds no token (delete it to have a new one generated)").arg(adminTokenPath()));
        return Tokens::hash(token);
    }
    const QString token = Tokens::generate();
    if (Status written = Tokens::writePrivateFile(adminTokenPath(), token.toLatin1() + '\n'); !written)
        return written;
    if (generated)
        *generated = token;
    return Tokens::hash(token.toLatin1());
}

} // namespace Switchyard::Admin
