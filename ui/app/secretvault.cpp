#include "secretvault.h"

#include "admin/settingsfile.h"

#include <qt6keychain/keychain.h>

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QPointer>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QTimer>

namespace Switchyard::Console {

namespace {

constexpr int kKeychainWaitMs = 5000;

QString nameOf(const QString &section, const QString &key)
{
    return section.toLower() + QLatin1Char('/') + key.toUpper();
}

QString keychainKey(const QString &name)
{
    return QStringLiteral("setting/") + name;
}

} // namespace

SecretVault::SecretVault(QString dataPath, bool useKeychain, QObject *parent)
    : QObject(parent), m_dataPath(std::move(dataPath)), m_keychain(useKeychain)
{
    // No session bus: no Secret Service to ask (QtKeychain would wait for one). A keychain that
    // refused before is not asked again: the file says so.
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
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

QStringList SecretVault::index() const
{
    return Admin::SettingsFile::read(filePath()).keys(QStringLiteral("index"));
}

std::vector<Admin::KeptSetting> SecretVault::load()
{
    m_values.clear();
    m_problems.clear();
    const Admin::SettingsFile file = Admin::SettingsFile::read(filePath());
    for (const QString &name : index()) {
        const QString section = name.section(QLatin1Char('/'), 0, 0), key = name.section(QLatin1Char('/'), 1);
        QByteArray value;
        if (!m_keychain) {
            value = QByteArray::fromBase64(file.value(QStringLiteral("values"), name).toLatin1());
        } else {
            // One read at a time, each bounded: the keychain may prompt, or hang without a session.
            QKeychain::ReadPasswordJob job(QStringLiteral("switchyard"));
            job.setAutoDelete(false);
            job.setKey(keychainKey(name));
            QEventLoop wait;
            connect(&job, &QKeychain::Job::finished, &wait, &QEventLoop::quit);
            QTimer::singleShot(kKeychainWaitMs, &wait, &QEventLoop::quit);
            job.start();
            wait.exec();
            if (job.error() == QKeychain::NoError)
                value = job.binaryData();
            else
                m_problems.append(tr("%1 could not be read from the keychain: %2").arg(name, job.errorString()));
        }
        if (!value.isEmpty())
            m_values.push_back({section, key, QString::fromUtf8(value)});
    }
    return m_values;
}

QByteArray SecretVault::value(const QString &section, const QString &key) const
{
    for (const Admin::KeptSetting &kept : m_values)
        if (nameOf(kept.section, kept.key) == nameOf(section, key))
            return kept.value.toUtf8();
    return {};
}

Status SecretVault::writeIndex(const QString &name, bool present)
{
    return writeFile(name, present ? QByteArray("1") : QByteArray());
}

// Both [index] (name = 1) and, without a keychain, [values] (name = base64) live in the file.
Status SecretVault::writeFile(const QString &name, const QByteArray &value)
{
    Admin::SettingsFile editor = Admin::SettingsFile::read(filePath());
    if (value.isEmpty()) {
        editor.remove(QStringLiteral("index"), name);
        editor.remove(QStringLiteral("values"), name);
    } else {
        editor.set(QStringLiteral("index"), name, QStringLiteral("1"));
        if (!m_keychain)
            editor.set(QStringLiteral("values"), name, QString::fromLatin1(value.toBase64()));
    }
    if (!m_keychain)
        editor.set(QStringLiteral("vault"), QStringLiteral("STORE"), QStringLiteral("file"));
    return editor.write(true);
}

void SecretVault::put(const QString &section, const QString &key, const QByteArray &value, QObject *context, std::function<void(Status)> done)
{
    const QString name = nameOf(section, key);
    std::erase_if(m_values, [&](const Admin::KeptSetting &kept) { return nameOf(kept.section, kept.key) == name; });
    if (!value.isEmpty())
        m_values.push_back({section.toLower(), key.toUpper(), QString::fromUtf8(value)});
    if (!m_keychain) {
        done(writeFile(name, value));
        return;
    }
    QKeychain::Job *job = value.isEmpty() ? static_cast<QKeychain::Job *>(new QKeychain::DeletePasswordJob(QStringLiteral("switchyard"), this))
                                          : new QKeychain::WritePasswordJob(QStringLiteral("switchyard"), this);
    job->setKey(keychainKey(name));
    if (auto *write = qobject_cast<QKeychain::WritePasswordJob *>(job))
        write->setBinaryData(value);
    QPointer<QObject> target(context);
    connect(job, &QKeychain::Job::finished, this, [this, name, value, target, done = std::move(done)](QKeychain::Job *finished) {
        Status status;
        if (finished->error() == QKeychain::NoError || (value.isEmpty() && finished->error() == QKeychain::EntryNotFound)) {
            status = writeIndex(name, !value.isEmpty());
        } else if (finished->error() == QKeychain::NoBackendAvailable || finished->error() == QKeychain::NotImplemented
                   || finished->error() == QKeychain::OtherError) {
            m_keychain = false; // no keychain after all: the file from now on
            m_problems.append(tr("no keychain service answered (%1); kept in %2").arg(finished->errorString(), filePath()));
            status = writeFile(name, value);
        } else {
            status = Status::unavailable(tr("the keychain refused %1: %2").arg(name, finished->errorString()));
        }
        if (target)
            done(status);
    });
    job->start();
}

} // namespace Switchyard::Console
