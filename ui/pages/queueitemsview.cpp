#include "queueitemsview.h"

#include "admin/ops/queueops.h"
#include "widgets/format.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Switchyard::Console {

namespace {

constexpr int kBodyRole = Qt::UserRole + 1; // the item's full text for the viewer

// What the viewer shows: the payload pretty-printed, else the preview and the base64.
QString fullText(const Admin::ItemBody &body)
{
    if (body.payload) {
        const QJsonValue &v = *body.payload;
        if (!v.isArray() && !v.isObject()) // a scalar: as JSON writes it
            return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
        const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
        return QString::fromUtf8(doc.toJson(QJsonDocument::Indented));
    }
    QString text = body.preview;
    if (!body.base64.isEmpty())
        text += QStringLiteral("\n\n— base64 —\n") + body.base64;
    if (body.truncated)
        text += QObject::tr("\n\n(the first %1 of %2 bytes)").arg(formatCount(Admin::ItemBody::kPreviewBytes), formatCount(body.sizeBytes));
    return text;
}

// One line of the list.
QString oneLine(const Admin::ItemBody &body)
{
    // Compact JSON: the payload inside a one-element array, brackets cut off.
    const QString text = body.payload ? QString::fromUtf8(QJsonDocument(QJsonArray{*body.payload}).toJson(QJsonDocument::Compact)).mid(1).chopped(1)
                                      : body.preview;
    return text.left(300).simplified();
}

} // namespace

QueueItemsView::QueueItemsView(Admin::AdminBackend &backend, Mode mode, QWidget *parent)
    : QWidget(parent), m_backend(backend), m_mode(mode)
{
    const bool waiting = mode == Mode::Waiting;
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText); // item counts and the backend's messages
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setAccessibleName(waiting ? tr("Refresh the waiting items") : tr("Refresh the items in flight"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_refresh);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(waiting ? QStringLiteral("queueItems") : QStringLiteral("queueInFlight"));
    m_list->setAccessibleName(waiting ? tr("Waiting items, from the head") : tr("Items in flight"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels(waiting ? QStringList{tr("Position"), tr("Bytes"), tr("Item")}
                                    : QStringList{tr("Instance"), tr("Held by"), tr("Since"), tr("Bytes"), tr("Item")});
    m_list->header()->setStretchLastSection(true);
    m_list->setTextElideMode(Qt::ElideRight);

    m_viewer = new QPlainTextEdit(this);
    m_viewer->setReadOnly(true);
    m_viewer->setAccessibleName(tr("The selected item, pretty-printed"));
    m_viewer->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_viewer->setPlaceholderText(tr("Select an item to see all of it."));
    m_copy = new QPushButton(tr("&Copy item"), this);
    m_copy->setAccessibleName(tr("Copy the selected item to the clipboard"));
    m_copy->setEnabled(false);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_viewer, 1);
    bottomLayout->addWidget(m_copy, 0, Qt::AlignRight);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_list);
    splitter->addWidget(bottom);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_refresh, &QPushButton::clicked, this, &QueueItemsView::refresh);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &QueueItemsView::showSelected);
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_viewer->toPlainText()); });
    setQueue(-1, QString());
}

void QueueItemsView::setQueue(qint64 qid, const QString &name)
{
    if (qid == m_qid)
        return;
    m_qid = qid;
    m_name = name;
    m_list->clear();
    m_viewer->clear();
    m_copy->setEnabled(false);
    m_refresh->setEnabled(qid > 0);
    m_status->setText(qid > 0 ? QString() : tr("No queue selected."));
    m_stale = true;
    if (qid > 0 && isVisible())
        refresh();
}

void QueueItemsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale && m_qid > 0)
        refresh();
}

void QueueItemsView::refresh()
{
    if (m_qid <= 0 || m_reading)
        return;
    m_reading = true;
    m_stale = false;
    m_status->setText(tr("Reading…"));
    const qint64 qid = m_qid;
    if (m_mode == Mode::Waiting)
        m_backend.call(Admin::Ops::queueItems, {qid, kLimit, 0}, this,
                       [this, qid](Result<std::vector<Admin::QueueItem>> rows) { fill(rows, qid); });
    else
        m_backend.call(Admin::Ops::queueInFlight, {qid, kLimit, 0}, this,
                       [this, qid](Result<std::vector<Admin::InFlightRow>> rows) { fill(rows, qid); });
}

template<typename Row>
void QueueItemsView::fill(const Result<std::vector<Row>> &rows, qint64 qid)
{
    m_reading = false;
    if (qid != m_qid) { // another queue was selected meanwhile
        refresh();
        return;
    }
    m_list->clear();
    m_viewer->clear();
    m_copy->setEnabled(false);
    if (!rows) {
        m_status->setText(tr("Could not read the items: %1").arg(rows.status().message()));
        return;
    }
    for (const Row &row : *rows) {
        QStringList cells;
        if constexpr (std::is_same_v<Row, Admin::QueueItem>)
            cells << QString::number(row.position) << formatCount(row.body.sizeBytes) << oneLine(row.body);
        else
            cells << row.instance << row.holder << (row.since.isValid() ? formatTime(row.since) : tr("unknown"))
                  << formatCount(row.body.sizeBytes) << oneLine(row.body);
        auto *item = new QTreeWidgetItem(m_list, cells);
        item->setData(0, kBodyRole, fullText(row.body));
        item->setToolTip(int(cells.size()) - 1, cells.last());
    }
    const int count = int(rows->size());
    if (m_mode == Mode::Waiting)
        m_status->setText(count == 0 ? tr("%1: nothing waits.").arg(m_name)
                          : count < kLimit ? tr("%1: the %n waiting item(s), from the head.", nullptr, count).arg(m_name)
                                           : tr("%1: the first %2 waiting items.").arg(m_name).arg(count));
    else
        m_status->setText(count == 0 ? tr("%1: no item is being handled.").arg(m_name)
                                     : tr("%1: %n item(s) taken and not yet acknowledged.", nullptr, count).arg(m_name));
    for (int column = 0; column + 1 < m_list->columnCount(); ++column)
        m_list->resizeColumnToContents(column);
}

void QueueItemsView::showSelected()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    m_viewer->setPlainText(item ? item->data(0, kBodyRole).toString() : QString());
    m_copy->setEnabled(item != nullptr);
}

} // namespace Switchyard::Console
