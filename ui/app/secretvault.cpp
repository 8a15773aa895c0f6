#include "secretvault.h"

#include "admin/settingsfile.h"

#include <qt6keychain/keychain.h>

#include <QDir>
#include <QEventLoop>
#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>

#include <optional>

namespace Switchyard::Console {

namespace {

const QString kService = QStringLiteral("switchyard");

QString nameOf(const QString &section, const QString &key)
{
    return section.toLower() + QLatin1Char('/') + key.toUpper();
}

QString keychainKey(const QString &name)
{
    return QStringLiteral("setting/") + name;
}

// No keychain at all (as opposed to one that refused this time).
bool noService(QKeychain::Error error)
{
    return error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented;
}

} // namespace

SecretVault::SecretVault(QString dataPath, bool useKeychain, QObject *parent)
    : QObject(parent), m_dataPath(std::move(dataPath)), m_keychain(useKeychain)
{
    // No session bus: no Secret Service to ask. A keychain found missing before is not asked
    // again: the file says so.
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS") && qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        m_keychain = false;
    if (Admin::SettingsFile::read(filePath()).value(QStringLiteral("vault"), QStringLiteral("STORE")) == QLatin1String("file"))
        m_keychain = false;
}

QString SecretVault::filePath() const
{
    return QDir(m_dataPath).filePath(QStringLiteral("kept-settings.ini"));
}

QString SecretVault::whereKept() const
{
    return m_keychain ? tr("the system keychain") : filePath();
}

QByteArray SecretVault::newSecret()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(bytes.begin(), bytes.end());
    return bytes.toHex();
}

// One keychain job, waited for at most kKeychainWaitMs. The job is on the heap and deletes itself
// when it finishes, even after a timeout (the keychain's backend calls back into it later).
Status SecretVault::runKeychainJob(const QString &name, const QByteArray *write, QByteArray *read, bool remove)
{
    QKeychain::Job *job = remove  ? static_cast<QKeychain::Job *>(new QKeychain::DeletePasswordJob(kService))
                          : write ? static_cast<QKeychain::Job *>(new QKeychain::WritePasswordJob(kService))
                                  : new QKeychain::ReadPasswordJob(kService);
    job->setAutoDelete(true);
    job->setKey(keychainKey(name));
    if (write)
        static_cast<QKeychain::WritePasswordJob *>(job)->setBinaryData(*write);
    std::optional<Status> outcome;
    QEventLoop wait;
    QObject::connect(job, &QKeychain::Job::finished, &wait, [&](QKeychain::Job *finished) {
        const QKeychain::Error error = finished->error();
        if (error == QKeychain::NoError || (remove && error == QKeychain::EntryNotFound)) {
            if (read)
                *read = static_cast<QKeychain::ReadPasswordJob *>(finished)->binaryData();
            outcome = Status::ok();
        } else {
            outcome = Status(noService(error) ? Status::Code::Unavailable : Status::Code::PermissionDenied, finished->errorString());
        }
        wait.quit();
    });
    QTimer::singleShot(kKeychainWaitMs, &wait, &QEventLoop::quit);
    job->start();
    if (!outcome)
        wait.exec();
    QObject::disconnect(job, nullptr, &wait, nullptr);
    return outcome ? *outcome : Status::deadlineExceeded(tr("the keychain did not answer within %1 s").arg(kKeychainWaitMs / 1000));
}

std::vector<Admin::KeptSetting> SecretVault::load()
{
    m_values.clear();
    m_problems.clear();
    m_unread.clear();
    const Admin::SettingsFile file = Admin::SettingsFile::read(filePath());
    for (const QString &name : file.keys(QStringLiteral("index"))) {
        const QString section = name.section(QLatin1Char('/'), 0, 0), key = name.section(QLatin1Char('/'), 1);
        QByteArray value;
        if (!m_keychain) {
            value = QByteArray::fromBase64(file.value(QStringLiteral("values"), name).toLatin1());
        } else if (Status read = runKeychainJob(name, nullptr, &value, false); !read) {
            m_problems.append(tr("%1 could not be read from the keychain: %2").arg(name, read.message()));
        }
        if (value.isEmpty()) {
            m_unread.append(name);
            if (!m_keychain)
                m_problems.append(tr("%1 is listed in %2 without its value").arg(name, filePath()));
            continue;
        }
        m_values.push_back({section, key, QString::fromUtf8(value)});
    }
    return m_values;
}

bool SecretVault::isListed(const QString &section, const QString &key) const
{
    return !value(section, key).isEmpty() || isUnread(section, key);
}

bool SecretVault::isUnread(const QString &section, const QString &key) const
{
    return m_unread.contains(nameOf(section, key));
}

QByteArray SecretVault::value(const QString &section, const QString &key) const
{
    for (const Admin::KeptSetting &kept : m_values)
        if (nameOf(kept.section, kept.key) == nameOf(section, key))
            return kept.value.toUtf8();
    return {};
}

Status SecretVault::writeFile()
{
    Admin::SettingsFile file = Admin::SettingsFile::read(filePath());
    file.removeSection(QStringLiteral("index"));
    file.removeSection(QStringLiteral("values"));
    for (const QString &name : std::as_const(m_unread))
        file.set(QStringLiteral("index"), name, QStringLiteral("1"));
    for (const Admin::KeptSetting &kept : m_values) {
        const QString name = nameOf(kept.section, kept.key);
        file.set(QStringLiteral("index"), name, QStringLiteral("1"));
        if (!m_keychain)
            file.set(QStringLiteral("values"), name, QString::fromLatin1(kept.value.toUtf8().toBase64()));
    }
    if (!m_keychain)
        file.set(QStringLiteral("vault"), QStringLiteral("STORE"), QStringLiteral("file"));
    return file.write(true);
}

Status SecretVault::store(const QString &section, const QString &key, const QByteArray &value)
{
    const QString name = nameOf(section, key);
    if (m_keychain) {
        Status kept = runKeychainJob(name, value.isEmpty() ? nullptr : &value, nullptr, value.isEmpty());
        if (!kept && kept.code() != Status::Code::Unavailable)
            return Status(kept.code(), tr("the keychain did not keep %1: %2").arg(name, kept.message())); // nothing changed
        if (!kept) {
            // No keychain service after all: this value and every other one go to the file.
            m_keychain = false;
            m_problems.append(tr("no keychain service answered (%1); values are kept in %2").arg(kept.message(), filePath()));
        }
    }
    std::erase_if(m_values, [&](const Admin::KeptSetting &kept) { return nameOf(kept.section, kept.key) == name; });
    m_unread.removeAll(name);
    if (!value.isEmpty())
        m_values.push_back({section.toLower(), key.toUpper(), QString::fromUtf8(value)});
    return writeFile();
}

} // namespace Switchyard::Console
