#include "tablepage.h"

#include "models/rowtablemodel.h"
#include "ui_tablepage.h"

#include <QAction>
#include <QHeaderView>
#include <QPointer>
#include <QScrollBar>
#include <QSettings>
#include <QToolBar>

namespace Switchyard::Console {

QVariant TableProxy::data(const QModelIndex &index, int role) const
{
    QVariant value = QSortFilterProxyModel::data(index, role);
    if (role == Qt::ToolTipRole && !value.isValid()) {
        const QString text = QSortFilterProxyModel::data(index, Qt::DisplayRole).toString();
        if (text.size() > 12) // short cells are never elided
            return text;
    }
    return value;
}

TablePage::TablePage(Admin::AdminBackend &backend, QWidget *parent)
    : Page(backend, parent), m_ui(new Ui::TablePage), m_toolBar(new QToolBar(this))
{
    m_ui->setupUi(this);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->setIconSize(QSize(16, 16));
    m_ui->actionRow->insertWidget(0, m_toolBar, 1);
    m_proxy.setSortRole(RawRole);
    m_proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy.setFilterKeyColumn(-1);
    m_proxy.setRecursiveFilteringEnabled(true);
    m_proxy.setDynamicSortFilter(true);
    m_ui->view->setModel(&m_proxy);
    m_ui->view->header()->setSectionsMovable(true);
    m_ui->view->header()->setStretchLastSection(true);
    m_ui->view->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_ui->splitter->setStretchFactor(0, 3);
    m_ui->splitter->setStretchFactor(1, 2);
    connect(m_ui->filterEdit, &QLineEdit::textChanged, &m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_ui->view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] { selectionChanged(); });
    connect(m_ui->view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] { selectionChanged(); });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(&m_proxy, signal, this, &TablePage::updateEmptyState);
    connect(&m_proxy, &QAbstractItemModel::modelReset, this, &TablePage::updateEmptyState);
}

TablePage::~TablePage()
{
    delete m_ui;
}

QTreeView *TablePage::view() const
{
    return m_ui->view;
}

QWidget *TablePage::detailArea() const
{
    return m_ui->detail;
}

void TablePage::setSourceModel(QAbstractItemModel *model)
{
    m_proxy.setSourceModel(model);
    connect(model, &QAbstractItemModel::rowsInserted, this, &TablePage::updateEmptyState);
    // A row asked for before the list arrived (a desktop notice's link) is selected when it does.
    connect(model, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_pendingKey.isValid() && selectKey(m_pendingKey))
            m_pendingKey = QVariant();
    });
    connect(model, &QAbstractItemModel::rowsRemoved, this, &TablePage::updateEmptyState);
    updateEmptyState();
}

void TablePage::fitColumns(int descriptive)
{
    QHeaderView *header = m_ui->view->header();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(48);
    header->setSectionResizeMode(descriptive, QHeaderView::Stretch);
    m_ui->view->setTextElideMode(Qt::ElideRight);
}

void TablePage::setEmptyText(const QString &html)
{
    m_ui->emptyLabel->setText(html);
    updateEmptyState();
}

void TablePage::updateEmptyState()
{
    const bool empty = !m_proxy.sourceModel() || m_proxy.sourceModel()->rowCount() == 0;
    m_ui->viewStack->setCurrentWidget(empty ? static_cast<QWidget *>(m_ui->emptyLabel) : m_ui->view);
    m_ui->filterEdit->setEnabled(!empty);
}

void TablePage::addPageAction(QAction *action)
{
    m_toolBar->addAction(action);
    m_ui->view->addAction(action);
}

void TablePage::addRowWidget(QWidget *widget)
{
    m_ui->actionRow->insertWidget(m_ui->actionRow->count() - 1, widget);
}

QAction *TablePage::addToolBarWidget(QWidget *widget)
{
    return m_toolBar->addWidget(widget);
}

void TablePage::focusFilter()
{
    m_ui->filterEdit->setFocus(Qt::ShortcutFocusReason);
    m_ui->filterEdit->selectAll();
}

void TablePage::setFilterText(const QString &text)
{
    m_ui->filterEdit->setText(text);
}

void TablePage::saveState(QSettings &settings) const
{
    settings.setValue(id() + QStringLiteral("/header"), m_ui->view->header()->saveState());
    settings.setValue(id() + QStringLiteral("/splitter"), m_ui->splitter->saveState());
}

void TablePage::restoreState(QSettings &settings)
{
    const QByteArray header = settings.value(id() + QStringLiteral("/header")).toByteArray();
    if (!header.isEmpty())
        m_ui->view->header()->restoreState(header);
    const QByteArray splitter = settings.value(id() + QStringLiteral("/splitter")).toByteArray();
    if (!splitter.isEmpty())
        m_ui->splitter->restoreState(splitter);
}

QVariantList TablePage::selectedKeys() const
{
    QVariantList keys;
    const QModelIndexList rows = m_ui->view->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows)
        keys << index.data(KeyRole);
    return keys;
}

QVariant TablePage::currentKey() const
{
    const QModelIndexList rows = m_ui->view->selectionModel()->selectedRows();
    if (rows.size() == 1)
        return rows.first().data(KeyRole);
    return {};
}

bool TablePage::selectKey(const QVariant &key)
{
    return selectKeyIn(m_ui->view, key);
}

void TablePage::selectKeyWhenListed(const QVariant &key)
{
    m_pendingKey = selectKey(key) ? QVariant() : key;
}

bool selectKeyIn(QTreeView *view, const QVariant &key)
{
    QAbstractItemModel *model = view->model();
    const QModelIndexList found = model->match(model->index(0, 0), KeyRole, key, 1, Qt::MatchExactly | Qt::MatchRecursive);
    if (found.isEmpty())
        return false;
    view->selectionModel()->setCurrentIndex(found.first(), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view->scrollTo(found.first());
    return true;
}

std::function<bool()> scrolledToEnd(QAbstractItemView *view)
{
    return [view = QPointer<QAbstractItemView>(view)] {
        if (!view || !view->isVisible())
            return false;
        const QScrollBar *bar = view->verticalScrollBar();
        return bar->value() >= bar->maximum();
    };
}

QTreeView *makeTable(QWidget *parent, QAbstractItemModel *model, const QString &name)
{
    auto *view = new QTreeView(parent);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setSortingEnabled(true);
    view->setAlternatingRowColors(true);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setModel(model);
    view->setAccessibleName(name);
    view->header()->setStretchLastSection(true);
    return view;
}

} // namespace Switchyard::Console
