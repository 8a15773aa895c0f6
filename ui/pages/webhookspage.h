#pragma once

#include "tablepage.h"

#include "models/webhookmodels.h"

#include <QPointer>

class QAction;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeView;

namespace Switchyard::Console {

class HookDialog;

// Webhooks (docs/console.md): the hooks on top — where each is installed, where it delivers,
// what it wants, how its last delivery went — and below, the selected hook's deliveries, newest
// first (older pages as the list scrolls), with the request and response of the selected one.
// Add, Edit, Delete and Test act on the hook; Redeliver sends the selected deliveries again (each
// a new delivery id; the history keeps both). Read every 2 s while shown.
class WebhooksPage final : public TablePage
{
    Q_OBJECT
public:
    explicit WebhooksPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    HookModel &hooks() { return m_hooks; }
    HookTaskModel &tasks() { return m_tasks; }
    QTreeView *taskView() const { return m_taskView; }
    QTabWidget *detailTabs() const { return m_tabs; }
    QPlainTextEdit *requestText() const { return m_request; }
    QPlainTextEdit *responseText() const { return m_response; }
    QAction *addAction() const { return m_add; }
    QAction *editAction() const { return m_edit; }
    QAction *deleteAction() const { return m_delete; }
    QAction *testAction() const { return m_test; }
    QAction *redeliverAction() const { return m_redeliver; }
    // The open Add or Edit dialog (tests); null when none is open.
    HookDialog *dialog() const;
    qint64 selectedHook() const;
    bool selectTask(qint64 id);

private:
    void readHooks(const Done &done);
    void refreshTasks();
    void readTasks(qint64 page, const Done &done);
    void selectionChanged() override;
    void taskSelectionChanged();
    void updateActions();
    void openDialog(const Admin::HookRow *existing);
    void submitDialog();
    void deleteHook();
    void testHook();
    void redeliver();

    HookModel m_hooks;
    HookTaskModel m_tasks;
    TableProxy m_taskProxy;
    QTreeView *m_taskView;
    QLabel *m_taskHeading;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_request;
    QPlainTextEdit *m_response;
    QAction *m_add;
    QAction *m_edit;
    QAction *m_delete;
    QAction *m_test;
    QAction *m_redeliver;
    // Cleared by Qt when the dialog goes (closed, or deleted with the page: a destroyed() slot
    // of ours would run inside ~QWidget, after ~WebhooksPage).
    QPointer<HookDialog> m_dialog;
    qint64 m_tasksOf = 0; // the hook whose deliveries the lower list shows
};

} // namespace Switchyard::Console
