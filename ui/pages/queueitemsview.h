#pragma once

// The Items and In flight tabs of the Queues page: a queue's waiting items from the head (a peek
// that consumes nothing), or the items its workers hold, with the selected item's payload
// pretty-printed below and a Copy button. Reads when shown and on Refresh, never by itself.

#include "admin/adminbackend.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace Switchyard::Console {

class QueueItemsView : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { Waiting, InFlight };
    static constexpr int kLimit = 100;

    QueueItemsView(Admin::AdminBackend &backend, Mode mode, QWidget *parent = nullptr);

    // The queue to show (-1: none); read at once when visible.
    void setQueue(qint64 qid, const QString &name);
    void refresh();

    QTreeWidget *list() const { return m_list; }
    QPlainTextEdit *viewer() const { return m_viewer; }
    QPushButton *copyButton() const { return m_copy; }
    QLabel *status() const { return m_status; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    template<typename Row>
    void fill(const Result<std::vector<Row>> &rows, qint64 qid);
    void showSelected();

    Admin::AdminBackend &m_backend;
    const Mode m_mode;
    qint64 m_qid = -1;
    QString m_name;
    bool m_reading = false;
    bool m_stale = true; // the queue changed since the last read
    QLabel *m_status;
    QPushButton *m_refresh;
    QTreeWidget *m_list;
    QPlainTextEdit *m_viewer;
    QPushButton *m_copy;
};

} // namespace Switchyard::Console
