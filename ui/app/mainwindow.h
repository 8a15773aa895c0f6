#pragma once

// The console's main window (CONSOLE.md "Layout"): a sidebar listing every open instance — "This
// computer (embedded engine)" and remote daemons — each with a health dot and its pages (with
// attention badges); the current instance's view; and a status bar with the latest operation, the
// latest error (Details…) and the live-update indicator. The Connection menu opens remote
// instances (saved ones, with their tokens in the system keychain) and closes them.

#include "admin/adminbackend.h"
#include "admin/remotebackend.h"

#include <QMainWindow>
#include <QTimer>

#include <functional>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QStackedWidget;
class QToolButton;

namespace Switchyard::Console {

class InstanceView;
class Page;
class SecretStore;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    // `embedded`: the first instance (not owned; outlives the window); null to start without one
    // (--connect).
    explicit MainWindow(Admin::AdminBackend *embedded, QWidget *parent = nullptr);
    explicit MainWindow(Admin::AdminBackend &embedded, QWidget *parent = nullptr) : MainWindow(&embedded, parent) {}
    ~MainWindow() override;

    // Opens a remote instance in its own view, starts connecting and makes it current.
    InstanceView *openRemote(const Admin::RemoteBackendOptions &options);
    // Closes a remote instance (its backend closes; the view goes when it has).
    void closeInstance(InstanceView *view);
    QList<InstanceView *> instances() const { return m_instances; }
    InstanceView *currentInstance() const { return m_current; }
    void setCurrentInstance(InstanceView *view);

    // The current instance's pages.
    void showPage(const QString &id, const QString &filter = QString());
    Page *currentPage() const;
    // A page of the current instance by id (pageregistry.h), typed; null when there is none.
    template<typename P>
    P *page(const QString &id) const
    {
        return qobject_cast<P *>(pageOf(id));
    }
    Page *pageOf(const QString &id) const;
    QList<Page *> pages() const;

    QString lastOperation() const;
    // The latest operations and errors, oldest first (up to 100; the status bar's tooltip).
    QStringList operationHistory() const { return m_history; }
    QString lastError() const;
    void refreshAll();
    QListWidget *sidebar() const { return m_sidebar; }

    // "Connect to an instance…", optionally prefilled (--connect without a token).
    void connectDialog(const Admin::RemoteBackendOptions &prefill = {});
    // Opens the saved instance `name` (its token read from the keychain, or the session's).
    void openSaved(const QString &name);
    QStringList savedInstances() const;

    // Closes the window and every backend (the embedded engine shuts down gracefully), whatever
    // the tray setting says.
    void quit();
    // Shows the window on `pageId` of the instance named `instance` (a desktop notice's target),
    // with `filter`, and the row whose key is `key` selected (when valid and listed).
    void openAt(const QString &instance, const QString &pageId, const QString &filter, const QVariant &key = {});
    // Asked when the window is closed (not quit): true hides it instead (the tray keeps running).
    void setHideOnClose(std::function<bool()> ask) { m_hideOnClose = std::move(ask); }
    // Something the desktop would be told, in the status bar (no tray to tell it).
    void showAlert(const QString &title, const QString &body) { showOperation(title + QStringLiteral(": ") + body, true, body); }

Q_SIGNALS:
    void preferencesRequested();
    // An instance's view was added (the embedded one at start, a remote one when opened).
    void instanceAdded(Switchyard::Console::InstanceView *view);
    // Every backend closed and the window with them: the program may end.
    void closedForGood();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    enum ItemRole { InstanceRole = Qt::UserRole + 20, PageRole };

    InstanceView *addInstance(Admin::AdminBackend &backend, std::unique_ptr<Admin::AdminBackend> owned);
    void rebuildSidebar();
    void updateSidebarHealth();
    void onSidebarRow(int row);
    void showOperation(const QString &message, bool error = false, const QString &detail = QString());
    void updateLive();
    void updateBadge(InstanceView *view, Page *page, int count);
    void buildMenus();
    void applySidebarColours();
    void rememberConnection(const Admin::RemoteBackendOptions &options, const QString &caFile);
    void forgetConnection(const QString &name);
    void rebuildSavedMenu();
    void saveSettings() const;
    void restoreSettings();
    void finishClosing();

    QListWidget *m_sidebar = nullptr;
    QStackedWidget *m_stack;
    QLabel *m_operation;
    QLabel *m_error;
    QToolButton *m_details;
    QLabel *m_live;
    QMenu *m_savedMenu = nullptr;
    QAction *m_closeConnection = nullptr;
    QString m_errorDetail;
    QStringList m_history;
    QList<InstanceView *> m_instances;
    InstanceView *m_current = nullptr;
    SecretStore *m_secrets;
    QMap<QString, QByteArray> m_sessionTokens; // tokens the keychain could not take, for this session only
    QTimer m_clock;
    bool m_rebuilding = false;
    bool m_closing = false;
    bool m_closed = false;
    bool m_quitRequested = false;
    std::function<bool()> m_hideOnClose;
};

} // namespace Switchyard::Console
