#include "auditnotifier.h"

#include "engine/core/escape.h"
#include "engine/store/store.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcNotify) // notify.cpp

namespace Switchyard {

AuditNotifier::AuditNotifier(Store &store) : m_store(store) {}

void AuditNotifier::record(const NotifyContext &c, const QString &action, const QString &target, const QString &result)
{
    const QString actor = escapeControl(c.doer.login.isEmpty() ? QStringLiteral("(unknown)") : c.doer.login, kMaxField) +
                          QStringLiteral(" (forge)");
    const Status written = m_store.write([&](SqlTransaction &tx) {
        return tx.exec(QStringLiteral("INSERT INTO audit (at_ms, actor, remote_addr, action, target, result, trace_id) "
                                      "VALUES (?, ?, ?, ?, ?, ?, ?)"),
                       {QDateTime::currentMSecsSinceEpoch(), actor, QStringLiteral("forge"), action, escapeControl(target, kMaxField),
                        escapeControl(result, kMaxField), c.traceId})
            .status();
    });
    if (!written && c.scope && written.code() == Status::Code::Unavailable) {
        c.retryLater(written); // recorded when the event is dispatched to this notifier again
    } else if (!written) {
        ++m_failures;
        qCWarning(lcNotify).noquote() << "audit: cannot record" << action << target << ":" << written.message();
    }
}

void AuditNotifier::adoptRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    record(c, QStringLiteral("repo.adopt"), repo.fullName());
}

void AuditNotifier::createRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    record(c, QStringLiteral("repo.create"), repo.fullName());
}

void AuditNotifier::migrateRepository(const NotifyContext &c, const ForgeUser &, const ForgeRepo &repo)
{
    record(c, QStringLiteral("repo.migrate"), repo.fullName());
}

void AuditNotifier::deleteRepository(const NotifyContext &c, const ForgeRepo &repo)
{
    record(c, QStringLiteral("repo.delete"), repo.fullName());
}

void AuditNotifier::forkRepository(const NotifyContext &c, const ForgeRepo &oldRepo, const ForgeRepo &repo)
{
    record(c, QStringLiteral("repo.fork"), repo.fullName(), QStringLiteral("ok: forked from ") + oldRepo.fullName());
}

void AuditNotifier::renameRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldName)
{
    record(c, QStringLiteral("repo.rename"), repo.fullName(), QStringLiteral("ok: was ") + repo.owner.login + u'/' + oldName);
}

void AuditNotifier::transferRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldOwnerName)
{
    record(c, QStringLiteral("repo.transfer"), repo.fullName(), QStringLiteral("ok: was ") + oldOwnerName + u'/' + repo.name);
}

void AuditNotifier::repoPendingTransfer(const NotifyContext &c, const ForgeUser &newOwner, const ForgeRepo &repo)
{
    record(c, QStringLiteral("repo.transfer-offer"), repo.fullName(), QStringLiteral("offered to ") + newOwner.login);
}

} // namespace Switchyard
