#pragma once

// The command palette (Ctrl+K): a small popup over the main window with a search field and the
// commands of the current instance — go to each of its pages, every action its pages offer (their
// toolbars' and context menus' QActions) and every action of the window's menus and shortcuts —
// each with its shortcut. Typing filters (a substring first, then the letters in order: "rdl"
// finds "Redeliver"); Up/Down move, Enter runs, Esc closes. A disabled action is listed greyed and
// cannot be run (nothing selected, a read-only connection …).
//
// The commands are read when the palette opens (pages, actions and their enabled state then);
// QPointers guard an action that goes while it is open (a closed instance).
//
// Threads: GUI thread only.

#include <QDialog>
#include <QPointer>

#include <functional>
#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QTreeWidget;

namespace Switchyard::Console {

class MainWindow;

class CommandPalette final : public QDialog
{
    Q_OBJECT
public:
    enum Column { Command, Shortcut };

    explicit CommandPalette(MainWindow &window);

    // Opens the window's palette (made on first use) with the commands as they are now.
    static CommandPalette *showFor(MainWindow &window);
    // Re-reads the commands and clears the search.
    void reload();
    // Runs the current command and closes; false (and stays open, saying why) when it is disabled
    // or nothing matches.
    bool runCurrent();

    QLineEdit *field() const { return m_field; }
    QTreeWidget *list() const { return m_list; }
    // The commands shown, in order (tests).
    QStringList shownCommands() const;
    // How well `text` matches `query`: higher is better, -1 when it does not (case ignored).
    static int score(const QString &text, const QString &query);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Entry
    {
        QString text;     // "Webhooks: Add…", "Go to Cron", "View ▸ Theme ▸ Dark"
        QString shortcut; // as the platform writes it
        QString detail;   // a tooltip: the action's own
        bool enabled = true;
        std::function<void()> run;
    };
    void collect();
    void addAction(QAction *action, const QString &prefix, const std::function<void()> &before);
    void addMenu(const QList<QAction *> &actions, const QString &prefix);
    void filter(const QString &query);

    MainWindow &m_window;
    QLineEdit *m_field;
    QTreeWidget *m_list;
    QLabel *m_hint;
    std::vector<Entry> m_entries;
    QList<QPointer<QAction>> m_seen; // each action once
};

} // namespace Switchyard::Console
