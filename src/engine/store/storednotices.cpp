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
        return m_store.writeValue<qint64>([&](SqlTransaction &tx) {
            return tx.insertReturningId(
                QStringLiteral("INSERT INTO notice (type, description, created_ms) VALUES (?, ?, ?) RETURNING id"),
                {notice.type, notice.description, toStoreMs(notice.createdAt)});
        });
    }

    Result<std::vector<SystemNotice>> newest(std::size_t limit) override
    {
        return m_store.readValue<std::vector<SystemNotice>>([&](SqlTransaction &tx) -> Result<std::vector<SystemNotice>> {
            Result<QSqlQuery> query = tx.exec(
                QStringLiteral("SELECT id, type, description, created_ms FROM notice ORDER BY id DESC LIMIT ?"), {qint64(limit)});
            if (!query)
                return query.status();
            std::vector<SystemNotice> rows;
            while (query->next())
                rows.push_back({query->value(0).toLongLong(), query->value(1).toString(), query->value(2).toString(),
                                fromStoreMs(query->value(3).toLongLong())});
            std::reverse(rows.begin(), rows.end()); // oldest first
            return rows;
        });
    }

    Status remove(qint64 id) override
    {
        return m_store.write([&](SqlTransaction &tx) { return tx.exec(QStringLiteral("DELETE FROM notice WHERE id = ?"), {id}).status(); });
    }

    Result<qint64> removeOlderThan(const QDateTime &cutoff) override
    {
        return m_store.writeValue<qint64>([&](SqlTransaction &tx) -> Result<qint64> {
            Result<QSqlQuery> deleted = tx.exec(QStringLiteral("DELETE FROM notice WHERE created_ms < ?"), {toStoreMs(cutoff)});
            if (!deleted)
                return deleted.status();
            return qint64(deleted->numRowsAffected());
        });
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
