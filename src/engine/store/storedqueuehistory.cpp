// Queue history in the store: table queue_history, one row per queue, resolution and bucket.
#include "journals.h"

#include "store.h"

namespace Switchyard {

namespace {

constexpr HistoryResolution kResolutions[] = {HistoryResolution::Minute, HistoryResolution::Hour, HistoryResolution::Day};

qint64 bucketStart(qint64 ms, qint64 bucketMs)
{
    return ms - ((ms % bucketMs) + bucketMs) % bucketMs;
}

class StoredQueueHistory final : public QueueHistoryJournal
{
public:
    explicit StoredQueueHistory(Store &store) : m_store(store) {}

    Status add(const QDateTime &at, const std::vector<QueueCounts> &counts) override
    {
        const qint64 ms = toStoreMs(at);
        return m_store.write([&](SqlTransaction &tx) -> Status {
            for (HistoryResolution resolution : kResolutions) {
                const HistoryWindow window = historyWindow(resolution);
                const qint64 bucket = bucketStart(ms, window.bucketMs);
                for (const QueueCounts &c : counts) {
                    Result<QSqlQuery> added = tx.exec(
                        QStringLiteral("INSERT INTO queue_history (queue, resolution, bucket_ms, processed, failed) VALUES (?, ?, ?, ?, ?) "
                                       "ON CONFLICT (queue, resolution, bucket_ms) DO UPDATE SET "
                                       "processed = queue_history.processed + excluded.processed, "
                                       "failed = queue_history.failed + excluded.failed"),
                        {c.queue, int(resolution), bucket, c.processed, c.failed});
                    if (!added)
                        return added.status();
                }
                const qint64 oldest = bucket - qint64(window.buckets - 1) * window.bucketMs;
                if (Status dropped = tx.exec(QStringLiteral("DELETE FROM queue_history WHERE resolution = ? AND bucket_ms < ?"),
                                             {int(resolution), oldest})
                                         .status();
                    !dropped)
                    return dropped;
            }
            return Status::ok();
        });
    }

    Result<std::vector<HistoryBucket>> read(const QString &queue, HistoryResolution resolution, const QDateTime &now) override
    {
        const HistoryWindow window = historyWindow(resolution);
        const qint64 last = bucketStart(toStoreMs(now), window.bucketMs);
        const qint64 first = last - qint64(window.buckets - 1) * window.bucketMs;
        std::vector<HistoryBucket> buckets(std::size_t(window.buckets));
        for (int i = 0; i < window.buckets; ++i)
            buckets[std::size_t(i)].at = fromStoreMs(first + qint64(i) * window.bucketMs);
        const Status read = m_store.read([&](SqlTransaction &tx) -> Status {
            QString sql = QStringLiteral("SELECT bucket_ms, SUM(processed), SUM(failed) FROM queue_history "
                                         "WHERE resolution = ? AND bucket_ms >= ? AND bucket_ms <= ?");
            QVariantList values{int(resolution), first, last};
            if (!queue.isEmpty()) {
                sql += QStringLiteral(" AND queue = ?");
                values.append(queue);
            }
            Result<QSqlQuery> rows = tx.exec(sql + QStringLiteral(" GROUP BY bucket_ms"), values);
            if (!rows)
                return rows.status();
            for (HistoryBucket &b : buckets)
                b.processed = b.failed = 0; // a retried transaction starts again
            while (rows->next()) {
                const qint64 index = (rows->value(0).toLongLong() - first) / window.bucketMs;
                if (index < 0 || index >= window.buckets)
                    continue;
                buckets[std::size_t(index)].processed = rows->value(1).toLongLong();
                buckets[std::size_t(index)].failed = rows->value(2).toLongLong();
            }
            return Status::ok();
        });
        if (!read)
            return read;
        return buckets;
    }

private:
    Store &m_store;
};

} // namespace

std::unique_ptr<QueueHistoryJournal> makeStoredQueueHistory(Store &store)
{
    return std::make_unique<StoredQueueHistory>(store);
}

} // namespace Switchyard
