#include "secretbox.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <memory>

namespace Switchyard {

namespace {

constexpr int kKeyBytes = 32;
constexpr int kNonceBytes = 12;
constexpr int kTagBytes = 16;
const QLatin1String kPrefix("gcm1:");

using Cipher = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

Cipher newCipher()
{
    return Cipher(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
}

const unsigned char *bytes(const QByteArray &a)
{
    return reinterpret_cast<const unsigned char *>(a.constData());
}

unsigned char *bytes(QByteArray &a)
{
    return reinterpret_cast<unsigned char *>(a.data());
}

} // namespace

SecretBox SecretBox::fromPassphrase(const QByteArray &passphrase)
{
    return SecretBox(QCryptographicHash::hash(passphrase, QCryptographicHash::Sha256));
}

Result<SecretBox> SecretBox::fromKeyFile(const QString &path)
{
    QFile file(path);
    if (!file.exists()) {
        QByteArray key(kKeyBytes, '\0');
        if (RAND_bytes(bytes(key), kKeyBytes) != 1)
            return Status::internal(QStringLiteral("OpenSSL's random generator failed; no key file made at %1").arg(path));
        // Made unreadable to others before the key is written into it.
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly) || !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner) ||
            file.write(key) != kKeyBytes || !file.flush())
            return Status::unavailable(QStringLiteral("cannot write the secret key file %1: %2").arg(path, file.errorString()));
        return SecretBox(key);
    }
    const QFileInfo info(path);
    if (info.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther))
        return Status::permissionDenied(
            QStringLiteral("the secret key file %1 may be read or written by others; make it the service user's alone (chmod 600)").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return Status::unavailable(QStringLiteral("cannot read the secret key file %1: %2").arg(path, file.errorString()));
    const QByteArray key = file.readAll();
    if (key.size() != kKeyBytes)
        return Status::corruption(
            QStringLiteral("the secret key file %1 holds %2 bytes, not %3; restore it from a backup (what it sealed cannot be read without it)")
                .arg(path)
                .arg(key.size())
                .arg(kKeyBytes));
    return SecretBox(key);
}

QString SecretBox::seal(const QByteArray &plain) const
{
    if (plain.isEmpty())
        return {};
    QByteArray nonce(kNonceBytes, '\0');
    if (RAND_bytes(bytes(nonce), kNonceBytes) != 1)
        qFatal("OpenSSL's random generator failed; refusing to seal with a guessable nonce");
    QByteArray out(plain.size(), '\0');
    QByteArray tag(kTagBytes, '\0');
    Cipher ctx = newCipher();
    int len = 0;
    const bool ok = ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(m_key), bytes(nonce)) == 1 &&
                    EVP_EncryptUpdate(ctx.get(), bytes(out), &len, bytes(plain), int(plain.size())) == 1 &&
                    EVP_EncryptFinal_ex(ctx.get(), bytes(out) + len, &len) == 1 &&
                    EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag.data()) == 1;
    if (!ok)
        qFatal("OpenSSL could not seal a secret with AES-256-GCM");
    return kPrefix + QString::fromLatin1((nonce + out + tag).toBase64());
}

Result<QByteArray> SecretBox::open(const QString &sealed) const
{
    if (sealed.isEmpty())
        return QByteArray();
    if (!sealed.startsWith(kPrefix))
        return Status::corruption(QStringLiteral("a sealed secret starts with '%1'; this one does not").arg(kPrefix));
    const QByteArray raw = QByteArray::fromBase64(sealed.mid(kPrefix.size()).toLatin1());
    if (raw.size() < kNonceBytes + kTagBytes)
        return Status::corruption(QStringLiteral("a sealed secret is too short (%1 bytes)").arg(raw.size()));
    const QByteArray nonce = raw.left(kNonceBytes);
    const QByteArray cipherText = raw.mid(kNonceBytes, raw.size() - kNonceBytes - kTagBytes);
    QByteArray tag = raw.right(kTagBytes);
    QByteArray out(cipherText.size(), '\0');
    Cipher ctx = newCipher();
    int len = 0;
    const bool ok = ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(m_key), bytes(nonce)) == 1 &&
                    EVP_DecryptUpdate(ctx.get(), bytes(out), &len, bytes(cipherText), int(cipherText.size())) == 1 &&
                    EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) == 1 &&
                    EVP_DecryptFinal_ex(ctx.get(), bytes(out) + len, &len) == 1;
    if (!ok)
        return Status::corruption(QStringLiteral("a sealed secret does not open: it was altered, or sealed with another key "
                                                 "([security] SECRET_KEY or the key file changed)"));
    return out;
}

} // namespace Switchyard
