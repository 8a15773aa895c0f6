#include "commandpalette.h"

#include "mainwindow.h"
#include "pages/page.h"

#include <QAbstractItemView>
#include <QAction>
#include <QCoreApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QWidgetAction>

#include <algorithm>

namespace Switchyard::Console {

namespace {

constexpr int kEntryRole = Qt::UserRole + 1; // the entry's index in m_entries

// An action's text as read: "&Quit" → "Quit" ("&&" stays one "&").
QString readable(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'&' && i + 1 < text.size())
            ++i;
        out += text[i];
    }
    return out;
}

// One word of a query: a substring (better at a word's start, earlier), else its letters in order
// (better with fewer letters between them); -1 when neither.
int wordScore(const QString &text, const QString &word)
{
    const qsizetype at = text.indexOf(word);
    if (at >= 0) {
        const bool wordStart = at == 0 || !text[at - 1].isLetterOrNumber();
        return 1000 - int(std::min<qsizetype>(at, 400)) + (wordStart ? 500 : 0);
    }
    qsizetype from = 0;
    int gaps = 0;
    for (const QChar c : word) {
        const qsizetype found = text.indexOf(c, from);
        if (found < 0)
            return -1;
        gaps += int(found - from);
        from = found + 1;
    }
    return std::max(1, 500 - gaps);
}

} // namespace

CommandPalette::CommandPalette(MainWindow &window) : QDialog(&window, Qt::Popup), m_window(window)
{
    setObjectName(QStringLiteral("commandPalette"));
    setAccessibleName(tr("Command palette"));
    resize(560, 380);
    auto *layout = new QVBoxLayout(this);
    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("paletteField"));
    m_field->setAccessibleName(tr("Search commands"));
    m_field->setPlaceholderText(tr("Type a command or a page"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    layout->addWidget(m_field);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("paletteList"));
    m_list->setAccessibleName(tr("Commands"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Command"), tr("Shortcut")});
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(Command, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(Shortcut, QHeaderView::ResizeToContents);
    layout->addWidget(m_list, 1);
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("paletteHint"));
    m_hint->setTextFormat(Qt::PlainText);
    layout->addWidget(m_hint);
    setTabOrder(m_field, m_list);
    connect(m_field, &QLineEdit::textChanged, this, &CommandPalette::filter);
    connect(m_list, &QTreeWidget::itemActivated, this, [this] { runCurrent(); });
}

CommandPalette *CommandPalette::showFor(MainWindow &window)
{
    auto *palette = window.findChild<CommandPalette *>(QStringLiteral("commandPalette"), Qt::FindDirectChildrenOnly);
    if (!palette)
        palette = new CommandPalette(window);
    palette->reload();
    palette->move(window.mapToGlobal(QPoint(std::max(0, (window.width() - palette->width()) / 2), 60)));
    palette->show();
    palette->raise();
    palette->activateWindow();
    palette->m_field->setFocus(Qt::PopupFocusReason);
    return palette;
}

void CommandPalette::reload()
{
    collect();
    m_field->clear();
    filter(QString());
}

// The current instance's pages, its pages' actions, then the window's menus and shortcuts.
void CommandPalette::collect()
{
    m_entries.clear();
    m_seen.clear();
    const QList<Page *> pages = m_window.pages();
    for (qsizetype i = 0; i < pages.size(); ++i) {
        Entry go;
        go.text = tr("Go to %1").arg(pages[i]->title());
        if (i < 9)
            go.shortcut = QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)).toString(QKeySequence::NativeText);
        go.run = [window = &m_window, id = pages[i]->id()] { window->showPage(id); };
        m_entries.push_back(std::move(go));
    }
    for (Page *page : pages) {
        // A page's action runs on its page: shown first (its selection is what it acts on).
        const auto show = [window = &m_window, id = page->id()] {
            if (!window->currentPage() || window->currentPage()->id() != id)
                window->showPage(id);
        };
        // A second toolbar (a page's lower list) says whose actions they are: "Webhooks ▸ Delivery
        // actions: Redeliver" (so two "Show trace" of one page are told apart).
        const QString prefix = page->title() + QStringLiteral(": ");
        for (QToolBar *bar : page->findChildren<QToolBar *>()) {
            const QString named = bar->accessibleName().isEmpty() ? prefix
                                                                  : page->title() + QStringLiteral(" ▸ ") + bar->accessibleName() + QStringLiteral(": ");
            for (QAction *action : bar->actions())
                addAction(action, named, show);
        }
        for (QAbstractItemView *view : page->findChildren<QAbstractItemView *>())
            for (QAction *action : view->actions())
                addAction(action, prefix, show);
    }
    addMenu(m_window.menuBar()->actions(), QString());
    for (QAction *action : m_window.actions())
        addAction(action, QString(), {});
}

void CommandPalette::addMenu(const QList<QAction *> &actions, const QString &prefix)
{
    for (QAction *action : actions) {
        if (QMenu *menu = action->menu())
            addMenu(menu->actions(), prefix + readable(action->text()) + QStringLiteral(" ▸ "));
        else
            addAction(action, prefix, {});
    }
}

void CommandPalette::addAction(QAction *action, const QString &prefix, const std::function<void()> &before)
{
    if (!action || action->isSeparator() || action->menu() || qobject_cast<QWidgetAction *>(action) || !action->isVisible()
        || action->text().isEmpty() || action->objectName() == QLatin1String("commandPaletteAction") || m_seen.contains(action))
        return;
    m_seen << action;
    Entry entry;
    entry.text = prefix + readable(action->text());
    if (action->isCheckable())
        entry.text = action->isChecked() ? tr("%1 (on)").arg(entry.text) : tr("%1 (off)").arg(entry.text);
    entry.shortcut = action->shortcut().toString(QKeySequence::NativeText);
    entry.detail = action->toolTip();
    entry.enabled = action->isEnabled();
    entry.run = [before, guarded = QPointer<QAction>(action)] {
        if (before)
            before();
        if (guarded && guarded->isEnabled())
            guarded->trigger();
    };
    m_entries.push_back(std::move(entry));
}

int CommandPalette::score(const QString &text, const QString &query)
{
    const QStringList words = query.toCaseFolded().split(u' ', Qt::SkipEmptyParts);
    const QString folded = text.toCaseFolded();
    int total = 0;
    for (const QString &word : words) {
        const int one = wordScore(folded, word);
        if (one < 0)
            return -1;
        total += one;
    }
    return total;
}

void CommandPalette::filter(const QString &query)
{
    std::vector<std::pair<int, std::size_t>> shown; // (score, entry)
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (const int s = score(m_entries[i].text, query); s >= 0)
            shown.emplace_back(s, i);
    std::stable_sort(shown.begin(), shown.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    m_list->clear();
    QTreeWidgetItem *first = nullptr;
    for (const auto &[s, index] : shown) {
        const Entry &entry = m_entries[index];
        auto *item = new QTreeWidgetItem(m_list, QStringList{entry.text, entry.shortcut});
        item->setData(Command, kEntryRole, qulonglong(index));
        item->setToolTip(Command, entry.enabled ? entry.detail : tr("Not available now. %1").arg(entry.detail));
        if (!entry.enabled)
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled); // greyed, skipped by the arrow keys
        else if (!first)
            first = item;
    }
    if (first)
        m_list->setCurrentItem(first);
    m_hint->setText(shown.empty() ? tr("Nothing matches “%1”.").arg(query)
                                  : tr("↑ ↓ choose · Enter runs · Esc closes · greyed commands are not available now"));
}

bool CommandPalette::runCurrent()
{
    QTreeWidgetItem *item = m_list->currentItem();
    if (!item) // every match greyed: the best one says why it does not run
        item = m_list->topLevelItem(0);
    if (!item) {
        m_hint->setText(tr("Nothing to run: no command matches."));
        return false;
    }
    const std::size_t index = std::size_t(item->data(Command, kEntryRole).toULongLong());
    if (index >= m_entries.size())
        return false;
    const Entry &entry = m_entries[index];
    if (!entry.enabled) {
        m_hint->setText(tr("“%1” is not available now.").arg(entry.text));
        return false;
    }
    const std::function<void()> run = entry.run; // the palette may be reloaded by what it runs
    accept();
    run();
    return true;
}

QStringList CommandPalette::shownCommands() const
{
    QStringList out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        out << m_list->topLevelItem(i)->text(Command);
    return out;
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
            case Qt::Key_Up:
            case Qt::Key_Down:
            case Qt::Key_PageUp:
            case Qt::Key_PageDown:
                QCoreApplication::sendEvent(m_list, event); // the list moves while typing goes on
                return true;
            case Qt::Key_Return:
            case Qt::Key_Enter:
                runCurrent();
                return true;
            default:
                break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace Switchyard::Console
