#pragma once

// A table of rows keyed by a stable id, fed by snapshots and stream events as row-level diffs
// (qBittorrent's transfer list, Qt Creator's TreeModel): a snapshot removes the rows whose key
// vanished, emits dataChanged for the rows that changed and appends the new ones in one insert —
// never a reset — so selection, sort order and scroll position survive live updates.
//
// Subclasses say what a row's key is and how each column shows it. RawRole carries the raw value
// a column sorts by (numbers, times); DisplayRole is formatted lazily in data().

#include <QAbstractTableModel>
#include <QHash>

#include <algorithm>
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
};

} // namespace Switchyard::Console
