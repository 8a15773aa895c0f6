#include "tracedialog.h"

#include "page.h"
#include "widgets/format.h"

#include "admin/adminbackend.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRadioButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace Switchyard::Console {

namespace {

// The kinds in the order of the chain they form (the trace's order within a second, too).
const char *const kKinds[] = {"event", "cron-run", "notification", "feed", "hook-task", "mail"};

int kindRank(const QString &kind)
{
    for (std::size_t i = 0; i < std::size(kKinds); ++i)
        if (kind == QLatin1String(kKinds[i]))
            return int(i);
    return int(std::size(kKinds));
}

// Forge rows (notifications, the feed) keep whole seconds; the engine's rows milliseconds.
bool coarseTime(const QString &kind)
{
    return kind == QLatin1String("notification") || kind == QLatin1String("feed");
}

bool sameItem(const Admin::TraceItem &a, const Admin::TraceItem &b)
{
    return a.kind == b.kind && a.id == b.id;
}

} // namespace

TraceDialog::TraceDialog(Admin::AdminBackend &backend, QWidget *parent) : QDialog(parent), m_backend(backend)
{
    setObjectName(QStringLiteral("traceDialog"));
    resize(900, 420);
    auto *layout = new QVBoxLayout(this);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("traceHeading"));
    m_heading->setTextFormat(Qt::PlainText); // summaries come from payloads
    m_heading->setWordWrap(true);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_heading);

    auto *modes = new QHBoxLayout;
    auto *caption = new QLabel(tr("Show as:"), this);
    modes->addWidget(caption);
    m_treeButton = new QRadioButton(tr("&Tree"), this);
    m_treeButton->setAccessibleName(tr("Show the trace as a tree, each item under its cause"));
    m_treeButton->setChecked(true);
    m_timelineButton = new QRadioButton(tr("Time&line"), this);
    m_timelineButton->setAccessibleName(tr("Show the trace as a timeline, with offsets from the root"));
    // Tab reaches the checked one, the arrow keys the other (an exclusive group).
    auto *group = new QButtonGroup(this);
    group->addButton(m_treeButton);
    group->addButton(m_timelineButton);
    modes->addWidget(m_treeButton);
    modes->addWidget(m_timelineButton);
    modes->addStretch(1);
    layout->addLayout(modes);
    connect(m_timelineButton, &QRadioButton::toggled, this, [this](bool on) { setMode(on ? Mode::Timeline : Mode::Tree); });

    m_items = new QTreeWidget(this);
    m_items->setObjectName(QStringLiteral("traceItems"));
    m_items->setAccessibleName(tr("What the trace holds"));
    m_items->setUniformRowHeights(true);
    m_items->setAlternatingRowColors(true);
    m_items->setColumnCount(ColumnCount);
    m_items->setHeaderLabels({tr("Item"), tr("Id"), tr("At"), tr("Offset"), tr("Instance"), tr("Status"), tr("What")});
    m_items->header()->resizeSection(Item, 170);
    m_items->header()->resizeSection(Id, 60);
    m_items->header()->resizeSection(At, 150);
    m_items->header()->resizeSection(Offset, 90);
    m_items->header()->resizeSection(Instance, 130);
    m_items->header()->resizeSection(Status, 90);
    layout->addWidget(m_items, 1);
    // Double-click, and Enter (QAbstractItemView's activation key), go to the item's page.
    connect(m_items, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) { activate(item); });

    m_hint = new QLabel(tr("Enter or a double-click on an item goes to the page that lists it."), this);
    m_hint->setObjectName(QStringLiteral("traceHint"));
    m_hint->setTextFormat(Qt::PlainText);
    layout->addWidget(m_hint);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    // Keyboard order as laid out: the views' choice, the items, Close.
    setTabOrder(m_treeButton, m_timelineButton);
    setTabOrder(m_timelineButton, m_items);
    setTabOrder(m_items, buttons);
}

void TraceDialog::showTrace(const QString &traceId)
{
    m_traceId = traceId;
    m_trace.reset();
    setWindowTitle(tr("Trace %1").arg(traceId));
    m_heading->setText(tr("Reading trace %1…").arg(traceId));
    m_items->clear();
    show();
    raise();
    const quint64 generation = ++m_generation;
    m_backend.call(Admin::Ops::traceGet, {traceId}, this, [this, generation, traceId](Result<Admin::Trace> trace) {
        if (generation != m_generation)
            return; // another trace was asked for meanwhile
        if (!trace) {
            m_heading->setText(tr("Trace %1: %2").arg(traceId, trace.status().message()));
            Q_EMIT loaded();
            return;
        }
        m_trace = std::move(trace).value();
        const Admin::TraceItem &root = m_trace->root;
        m_heading->setText(tr("Trace %1 began with %2 %3 (%4) at %5: %n item(s)", nullptr, int(m_trace->items.size()))
                               .arg(traceId, kindLabel(root.kind).toLower())
                               .arg(root.id)
                               .arg(root.summary, formatTime(root.at)));
        rebuild();
        m_items->setFocus();
        Q_EMIT loaded();
    });
}

void TraceDialog::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_treeButton->setChecked(mode == Mode::Tree);
    m_timelineButton->setChecked(mode == Mode::Timeline);
    rebuild();
}

void TraceDialog::rebuild()
{
    m_items->clear();
    if (!m_trace)
        return;
    m_items->setRootIsDecorated(m_mode == Mode::Tree);
    if (m_mode == Mode::Tree)
        fillTree();
    else
        fillTimeline();
    if (m_items->topLevelItemCount() > 0)
        m_items->setCurrentItem(m_items->topLevelItem(0));
}

// The root on top; an item under the delivery it repeats when that is in the trace; the others
// under a heading of their kind, in the chain's order.
void TraceDialog::fillTree()
{
    const Admin::TraceItem &rootItem = m_trace->root;
    QTreeWidgetItem *root = makeItem(rootItem);
    m_items->addTopLevelItem(root);
    std::map<std::pair<QString, qint64>, QTreeWidgetItem *> made;
    made[{rootItem.kind, rootItem.id}] = root;
    std::map<std::pair<int, QString>, std::vector<const Admin::TraceItem *>> byKind;
    std::vector<const Admin::TraceItem *> nested;
    for (const Admin::TraceItem &item : m_trace->items) {
        if (sameItem(item, rootItem))
            continue;
        made[{item.kind, item.id}] = makeItem(item);
        if (item.redeliveryOf && std::any_of(m_trace->items.begin(), m_trace->items.end(), [&](const Admin::TraceItem &other) {
                return other.kind == item.kind && other.id == *item.redeliveryOf;
            }))
            nested.push_back(&item);
        else
            byKind[{kindRank(item.kind), item.kind}].push_back(&item);
    }
    for (const auto &[key, items] : byKind) {
        const QString &kind = key.second;
        auto *group = new QTreeWidgetItem(root, QStringList{kindLabel(kind, int(items.size()))});
        for (const Admin::TraceItem *item : items)
            group->addChild(made[{item->kind, item->id}]);
    }
    for (const Admin::TraceItem *item : nested)
        made[{item->kind, *item->redeliveryOf}]->addChild(made[{item->kind, item->id}]);
    m_items->expandAll();
}

// Every item in the trace's order, the root's among them, with its offset from the root.
void TraceDialog::fillTimeline()
{
    for (const Admin::TraceItem &item : m_trace->items)
        m_items->addTopLevelItem(makeItem(item));
}

QTreeWidgetItem *TraceDialog::makeItem(const Admin::TraceItem &item) const
{
    const qint64 offset = m_trace->root.at.msecsTo(item.at);
    const bool coarse = coarseTime(item.kind) || coarseTime(m_trace->root.kind);
    auto *row = new QTreeWidgetItem(QStringList{kindLabel(item.kind), QString::number(item.id), formatTime(item.at),
                                                offsetText(offset, coarse), item.instance.isEmpty() ? QStringLiteral("—") : item.instance,
                                                item.status, item.summary});
    row->setData(Item, KindRole, item.kind);
    row->setData(Item, IdRole, item.id);
    row->setData(Item, SummaryRole, item.summary);
    row->setToolTip(Item, item.kind);
    row->setToolTip(Summary, item.summary);
    row->setToolTip(Instance, item.instance.isEmpty() ? tr("The store does not say which instance made this row")
                                                      : tr("Handled by instance %1").arg(item.instance));
    if (coarse)
        row->setToolTip(Offset, tr("Forge rows keep whole seconds: this offset is approximate"));
    if (item.redeliveryOf)
        row->setToolTip(Id, tr("Sends delivery %1 again").arg(*item.redeliveryOf));
    if (sameItem(item, m_trace->root)) {
        QFont bold = row->font(Item);
        bold.setBold(true);
        row->setFont(Item, bold);
    }
    return row;
}

void TraceDialog::activate(QTreeWidgetItem *item)
{
    if (!item)
        return;
    const QString kind = item->data(Item, KindRole).toString();
    if (kind.isEmpty()) { // a group: Enter folds it
        item->setExpanded(!item->isExpanded());
        return;
    }
    const QString page = pageFor(kind);
    if (page.isEmpty()) {
        m_hint->setText(tr("The console has no page that lists %1 rows: this trace is where they show.").arg(kindLabel(kind).toLower()));
        return;
    }
    Q_EMIT openItem(page, kind, item->data(Item, IdRole).toLongLong(), item->data(Item, SummaryRole).toString());
}

QString TraceDialog::pageFor(const QString &kind)
{
    if (kind == QLatin1String("event") || kind == QLatin1String("notification"))
        return QStringLiteral("notifications");
    if (kind == QLatin1String("hook-task"))
        return QStringLiteral("webhooks");
    if (kind == QLatin1String("cron-run"))
        return QStringLiteral("cron");
    return {}; // the feed and mail have no page in the console
}

QString TraceDialog::kindLabel(const QString &kind, int count)
{
    const bool group = count > 0;
    if (kind == QLatin1String("event"))
        return group ? tr("Events (%n)", nullptr, count) : tr("Event");
    if (kind == QLatin1String("cron-run"))
        return group ? tr("Cron runs (%n)", nullptr, count) : tr("Cron run");
    if (kind == QLatin1String("notification"))
        return group ? tr("Notifications (%n)", nullptr, count) : tr("Notification");
    if (kind == QLatin1String("feed"))
        return group ? tr("Feed rows (%n)", nullptr, count) : tr("Feed row");
    if (kind == QLatin1String("hook-task"))
        return group ? tr("Deliveries (%n)", nullptr, count) : tr("Delivery");
    if (kind == QLatin1String("mail"))
        return group ? tr("Mail (%n)", nullptr, count) : tr("Mail");
    return group ? QStringLiteral("%1 (%2)").arg(kind).arg(count) : kind;
}

QString TraceDialog::offsetText(qint64 ms, bool coarse)
{
    if (coarse && ms > -1000 && ms < 1000)
        return tr("within 1 s");
    const QString sign = ms < 0 ? QStringLiteral("−") : QStringLiteral("+");
    const qint64 magnitude = ms < 0 ? -ms : ms;
    if (coarse)
        return tr("≈ %1%2").arg(sign, formatDuration(((magnitude + 500) / 1000) * 1000));
    return sign + formatDuration(magnitude);
}

TraceDialog *openTrace(Page &page, QPointer<TraceDialog> &dialog, const QString &traceId)
{
    if (!dialog) {
        dialog = new TraceDialog(page.backend(), &page);
        QObject::connect(dialog, &TraceDialog::openItem, &page,
                         [&page](const QString &pageId, const QString &kind, qint64 id, const QString &summary) {
                             if (!page.goTo(pageId, kind, id, summary))
                                 Q_EMIT page.operationInfo(TraceDialog::tr("%1 %2 (%3) is not among the rows that page has read")
                                                               .arg(TraceDialog::kindLabel(kind))
                                                               .arg(id)
                                                               .arg(summary));
                         });
    }
    dialog->showTrace(traceId);
    return dialog;
}

} // namespace Switchyard::Console
