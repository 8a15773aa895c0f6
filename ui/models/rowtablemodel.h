#pragma once

// A table of rows keyed by a stable id, fed by snapshots and stream events as row-level diffs
// (qBittorrent's transfer list, Qt Creator's TreeModel): a snapshot removes the rows whose key
// vanished, emits dataChanged for the rows that changed and appends the new ones in one insert —
// never a reset — so selection, sort order and scroll position survive live updates.
//
// Subclasses say what a row's key is and how each column shows it. RawRole carries the raw value
// a column sorts by (numbers, times); DisplayRole is formatted lazily in data().
//
// A history table (audit, events, users, notifications) pages instead (setPaging): it holds the
// newest pages of a list the instance keeps in full, and the view asks for the next page when it is
// scrolled to the end (fetchMore), so the table never holds more than the operator scrolled
// through. Pages are read by offset, newest first: rows that arrive meanwhile shift the later
// pages, which then repeat a few rows (merged by key) but never skip one.

#include <QAbstractTableModel>
#include <QHash>

#include <algorithm>
#include <climits>
#include <functional>
#include <vector>

namespace Switchyard::Console {

enum Roles {
    RawRole = Qt::UserRole + 1, // the value to sort by
    KeyRole,                    // the row's key (qid, name, pid …)
    AttentionRole,              // true when the row needs an operator's attention
};

template<typename Row, typename Key>
class RowTableModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }

    const std::vector<Row> &rows() const { return m_rows; }
    const Row *rowAt(int row) const { return row >= 0 && row < int(m_rows.size()) ? &m_rows[std::size_t(row)] : nullptr; }
    int indexOfKey(const Key &key) const { return m_index.value(key, -1); }
    const Row *find(const Key &key) const { return rowAt(indexOfKey(key)); }

    // The whole list as the backend sees it now.
    void applySnapshot(std::vector<Row> snapshot)
    {
        QHash<Key, std::size_t> incoming;
        incoming.reserve(qsizetype(snapshot.size()));
        for (std::size_t i = 0; i < snapshot.size(); ++i)
            incoming.insert(keyOf(snapshot[i]), i);

        // Removals, as contiguous ranges from the bottom up.
        for (int last = int(m_rows.size()) - 1; last >= 0;) {
            if (incoming.contains(keyOf(m_rows[std::size_t(last)]))) {
                --last;
                continue;
            }
            int first = last;
            while (first > 0 && !incoming.contains(keyOf(m_rows[std::size_t(first - 1)])))
                --first;
            beginRemoveRows(QModelIndex(), first, last);
            m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
            endRemoveRows();
            last = first - 1;
        }
        reindex();

        // Changes, one dataChanged per contiguous range.
        std::vector<bool> seen(snapshot.size(), false);
        int rangeStart = -1;
        for (int r = 0; r <= int(m_rows.size()); ++r) {
            bool changed = false;
            if (r < int(m_rows.size())) {
                const std::size_t from = incoming.value(keyOf(m_rows[std::size_t(r)]));
                seen[from] = true;
                if (!(m_rows[std::size_t(r)] == snapshot[from])) {
                    m_rows[std::size_t(r)] = std::move(snapshot[from]);
                    changed = true;
                }
            }
            if (changed && rangeStart < 0)
                rangeStart = r;
            if (!changed && rangeStart >= 0) {
                Q_EMIT dataChanged(index(rangeStart, 0), index(r - 1, columnCount() - 1));
                rangeStart = -1;
            }
        }

        // Insertions, in one go at the end.
        std::vector<Row> added;
        for (std::size_t i = 0; i < snapshot.size(); ++i) {
            if (!seen[i])
                added.push_back(std::move(snapshot[i]));
        }
        appendRows(std::move(added));
    }

    // Rows updated in place when their key is shown, the others appended in one insert.
    void merge(std::vector<Row> rows)
    {
        std::vector<Row> added;
        for (Row &row : rows) {
            if (indexOfKey(keyOf(row)) >= 0)
                upsert(std::move(row));
            else if (std::none_of(added.begin(), added.end(), [&](const Row &r) { return keyOf(r) == keyOf(row); }))
                added.push_back(std::move(row));
        }
        appendRows(std::move(added));
    }

    // Paging: `fetch(page)` reads page `page` (1-based, `pageRows` rows) and answers with
    // pageArrived() or pageFailed(). At most `maxRows` are fetched, and a further page only while
    // `wanted()` holds (the table shown and scrolled to its end, scrolledToEnd()): QTreeView asks
    // for more on every layout of its rows, not only at the end of the scroll, so without it a
    // hidden history would be read to its last page, one page per layout.
    void setPaging(qint64 pageRows, std::function<void(qint64 page)> fetch, std::function<bool()> wanted, int maxRows = INT_MAX)
    {
        m_pageRows = pageRows;
        m_fetch = std::move(fetch);
        m_wanted = std::move(wanted);
        m_maxRows = maxRows;
    }
    qint64 pageRows() const { return m_pageRows; }
    qint64 total() const { return m_total; }
    // Page 1 comes from a refresh: its rows are merged. When the list shrank on the instance (rows
    // were deleted) the pages read before are dropped and page 1 is shown alone.
    void pageArrived(qint64 page, std::vector<Row> rows, qint64 total)
    {
        m_fetching = false;
        const bool shrank = total < m_total;
        m_total = total;
        if (page <= 1 && shrank) {
            m_pagesLoaded = 1;
            applySnapshot(std::move(rows));
            return;
        }
        m_pagesLoaded = std::max(m_pagesLoaded, page);
        merge(std::move(rows));
    }
    void pageFailed() { m_fetching = false; }
    // Forget every page (another user chosen, another filter): the next refresh starts again.
    void resetPages()
    {
        m_fetching = false;
        m_pagesLoaded = 0;
        m_total = 0;
        applySnapshot({});
    }
    bool canFetchMore(const QModelIndex &parent) const override
    {
        return !parent.isValid() && m_fetch && !m_fetching && m_pagesLoaded > 0 && rowCount() < m_total && rowCount() < m_maxRows
               && (!m_wanted || m_wanted());
    }
    void fetchMore(const QModelIndex &parent) override
    {
        if (!canFetchMore(parent))
            return;
        m_fetching = true;
        m_fetch(m_pagesLoaded + 1);
    }

    // One row from the stream: updated in place, or appended.
    void upsert(Row row)
    {
        const int at = indexOfKey(keyOf(row));
        if (at < 0) {
            std::vector<Row> one;
            one.push_back(std::move(row));
            appendRows(std::move(one));
            return;
        }
        if (m_rows[std::size_t(at)] == row)
            return;
        m_rows[std::size_t(at)] = std::move(row);
        Q_EMIT dataChanged(index(at, 0), index(at, columnCount() - 1));
    }

    // Rows already shown whose change is confined to columns firstColumn … lastColumn (a live
    // feed's status changes): updated in place with one dataChanged over the span they cover, so
    // a proxy sorted by a column outside that range does not re-sort row by row. Rows whose key is
    // not shown are ignored.
    void updateShown(std::vector<Row> rows, int firstColumn, int lastColumn)
    {
        int top = INT_MAX, bottom = -1;
        for (Row &row : rows) {
            const int at = indexOfKey(keyOf(row));
            if (at < 0 || m_rows[std::size_t(at)] == row)
                continue;
            m_rows[std::size_t(at)] = std::move(row);
            top = std::min(top, at);
            bottom = std::max(bottom, at);
        }
        if (bottom >= 0)
            Q_EMIT dataChanged(index(top, firstColumn), index(bottom, lastColumn));
    }

    // Rows that arrived from the stream, in one insert (never one per event).
    void appendRows(std::vector<Row> rows)
    {
        if (rows.empty())
            return;
        const int first = int(m_rows.size());
        beginInsertRows(QModelIndex(), first, first + int(rows.size()) - 1);
        for (Row &row : rows) {
            m_index.insert(keyOf(row), int(m_rows.size()));
            m_rows.push_back(std::move(row));
        }
        endInsertRows();
    }

    bool removeKey(const Key &key)
    {
        const int at = indexOfKey(key);
        if (at < 0)
            return false;
        beginRemoveRows(QModelIndex(), at, at);
        m_rows.erase(m_rows.begin() + at);
        endRemoveRows();
        reindex();
        return true;
    }

    // Drops the first `count` rows (the oldest of a feed that only appends), in one remove.
    void removeFirst(int count)
    {
        count = std::min(count, int(m_rows.size()));
        if (count <= 0)
            return;
        beginRemoveRows(QModelIndex(), 0, count - 1);
        m_rows.erase(m_rows.begin(), m_rows.begin() + count);
        endRemoveRows();
        reindex();
    }

    // Emits dataChanged for one column of every row (live countdowns).
    void touchColumn(int column)
    {
        if (!m_rows.empty())
            Q_EMIT dataChanged(index(0, column), index(int(m_rows.size()) - 1, column), {Qt::DisplayRole});
    }

protected:
    virtual Key keyOf(const Row &row) const = 0;

private:
    void reindex()
    {
        m_index.clear();
        m_index.reserve(qsizetype(m_rows.size()));
        for (std::size_t i = 0; i < m_rows.size(); ++i)
            m_index.insert(keyOf(m_rows[i]), int(i));
    }

    std::vector<Row> m_rows;
    QHash<Key, int> m_index;
    // Paging (setPaging).
    std::function<void(qint64)> m_fetch;
    std::function<bool()> m_wanted;
    qint64 m_pageRows = 0;
    int m_maxRows = INT_MAX;
    qint64 m_pagesLoaded = 0; // the highest page read
    qint64 m_total = 0;       // the list's length on the instance, as the last page said
    bool m_fetching = false;  // a page is on its way: no second request
};

} // namespace Switchyard::Console
