#include "secretstore.h"

#include <qt6keychain/keychain.h>

#include <QPointer>

namespace Switchyard::Console {

namespace {

QString keyOf(const QString &name)
{
    return QStringLiteral("connection/%1").arg(name);
}

Status statusOf(QKeychain::Job *job)
{
    switch (job->error()) {
        case QKeychain::NoError: return Status::ok();
        case QKeychain::EntryNotFound: return Status::notFound(QObject::tr("no token is stored for this instance"));
        case QKeychain::NoBackendAvailable:
        case QKeychain::NotImplemented:
        case QKeychain::OtherError:
            return Status::unavailable(QObject::tr("no keychain service is running (%1)").arg(job->errorString()));
        default: return Status::permissionDenied(QObject::tr("the keychain refused: %1").arg(job->errorString()));
    }
}

} // namespace

void SecretStore::write(const QString &name, const QByteArray &token, QObject *context, std::function<void(Status)> done)
{
    auto *job = new QKeychain::WritePasswordJob(serviceName(), this);
    job->setKey(keyOf(name));
    job->setBinaryData(token);
    QPointer<QObject> target(context);
    connect(job, &QKeychain::Job::finished, this, [target, done = std::move(done)](QKeychain::Job *finished) {
        if (target)
            done(statusOf(finished));
    });
    job->start();
}

void SecretStore::read(const QString &name, QObject *context, std::function<void(Result<QByteArray>)> done)
{
    auto *job = new QKeychain::ReadPasswordJob(serviceName(), this);
    job->setKey(keyOf(name));
    QPointer<QObject> target(context);
    connect(job, &QKeychain::Job::finished, this, [target, job, done = std::move(done)](QKeychain::Job *) {
        if (!target)
            return;
        const Status status = statusOf(job);
        if (status)
            done(job->binaryData());
        else
            done(status);
    });
    job->start();
}

void SecretStore::remove(const QString &name)
{
    auto *job = new QKeychain::DeletePasswordJob(serviceName(), this);
    job->setKey(keyOf(name));
    job->start();
}

} // namespace Switchyard::Console
