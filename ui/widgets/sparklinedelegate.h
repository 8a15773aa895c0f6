#pragma once

#include <QStyledItemDelegate>

#include <functional>

namespace Switchyard::Console {

class QueueModel;

// Draws a queue's last 10 minutes of throughput as a small line, with the current rate as text.
class SparklineDelegate final : public QStyledItemDelegate
{
public:
    SparklineDelegate(const QueueModel &model, QObject *parent); // model: Not owned.
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    const QueueModel &m_model;
};

// Draws a lock's remaining lease as a bar that empties (red below 5 s), with the time as text.
class CountdownBarDelegate final : public QStyledItemDelegate
{
public:
    // fraction(index) in 0..1, or < 0 to draw the text only.
    CountdownBarDelegate(std::function<double(const QModelIndex &)> fraction, QObject *parent);
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    std::function<double(const QModelIndex &)> m_fraction;
};

} // namespace Switchyard::Console
