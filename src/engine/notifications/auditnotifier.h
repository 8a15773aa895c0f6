#pragma once

// The bus's `audit` notifier: a repository's lifecycle — created, adopted, migrated, forked,
// renamed, transferred (and a transfer offered), deleted — as rows of the audit log (the store's
// `audit` table, which GET /audit lists beside the admin changes): actor "<login> (<source>)",
// from "forge", action "repo.<what>", target the repository's full name, result "ok", and the
// event's trace id. Written in the bus call (with feed, the only notifiers that write
// synchronously); a failed write is logged and counted, the other notifiers still run.

#include "engine/notify/notify.h"

#include <atomic>

namespace Switchyard {

class Store;

class AuditNotifier final : public NullNotifier
{
public:
    static constexpr int kMaxField = 256; // as the admin audit log cuts its fields

    explicit AuditNotifier(Store &store); // not owned
    qint64 failures() const { return m_failures.load(); }

    void adoptRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void createRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void migrateRepository(const NotifyContext &c, const ForgeUser &owner, const ForgeRepo &repo) override;
    void deleteRepository(const NotifyContext &c, const ForgeRepo &repo) override;
    void forkRepository(const NotifyContext &c, const ForgeRepo &oldRepo, const ForgeRepo &repo) override;
    void renameRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldName) override;
    void transferRepository(const NotifyContext &c, const ForgeRepo &repo, const QString &oldOwnerName) override;
    void repoPendingTransfer(const NotifyContext &c, const ForgeUser &newOwner, const ForgeRepo &repo) override;

private:
    void record(const NotifyContext &c, const QString &action, const QString &target, const QString &result = QStringLiteral("ok"));

    Store &m_store;
    std::atomic<qint64> m_failures{0};
};

} // namespace Switchyard
