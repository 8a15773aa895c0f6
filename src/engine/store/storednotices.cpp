#include "journals.h"

#include "store.h"

namespace Switchyard {

namespace {

class StoredNotices final : public NoticeJournal
{
public:
    explicit StoredNotices(Store &store) : m_store(store) {}

    Result<qint64> insert(const SystemNotice &notice) override
    {
        qint64 id = 0;
        const Status status = m_store.write([&](SqlTransaction &tx) -> Status {
            Result<qint64> inserted = tx.insertReturningId(
                QStringLiteral("INSERT INTO notice (type, description, created_ms) VALUES (?, ?, ?) RETURNING id"),
                {notice.type, notice.description, toStoreMs(notice.createdAt)});
            if (!inserted)
                return inserted.status();
            id = *inserted;
            return Status::ok();
        });
        if (!status)
            return status;
        return id;
    }

    Result<std::vector<SystemNotice>> newest(std::size_t limit) override
    {
        std::vector<SystemNotice> rows;
        const Status status = m_store.read([&](SqlTransaction &tx) -> Status {
            rows.clear();
            Result<QSqlQuery> query = tx.exec(
                QStringLiteral("SELECT id, type, description, created_ms FROM notice ORDER BY id DESC LIMIT ?"), {qint64(limit)});
            if (!query)
                return query.status();
            while (query->next())
                rows.push_back({query->value(0).toLongLong(), query->value(1).toString(), query->value(2).toString(),
                                fromStoreMs(query->value(3).toLongLong())});
            return Status::ok();
        });
        if (!status)
            return status;
        std::reverse(rows.begin(), rows.end()); // oldest first
        return rows;
    }

    Status remove(qint64 id) override
    {
        return m_store.write([&](SqlTransaction &tx) { return tx.exec(QStringLiteral("DELETE FROM notice WHERE id = ?"), {id}).status(); });
    }

    Result<qint64> removeOlderThan(const QDateTime &cutoff) override
    {
        qint64 removed = 0;
        const Status status = m_store.write([&](SqlTransaction &tx) -> Status {
            Result<QSqlQuery> deleted = tx.exec(QStringLiteral("DELETE FROM notice WHERE created_ms < ?"), {toStoreMs(cutoff)});
            if (!deleted)
                return deleted.status();
            removed = deleted->numRowsAffected();
            return Status::ok();
        });
        if (!status)
            return status;
        return removed;
    }

private:
    Store &m_store;
};

} // namespace

std::unique_ptr<NoticeJournal> makeStoredNotices(Store &store)
{
    return std::make_unique<StoredNotices>(store);
}

} // namespace Switchyard
