#pragma once

#include "tablepage.h"

#include "models/processmodel.h"

#include <QTimer>

class QAction;

namespace Switchyard::Console {

// Processes: what the instance is doing now, as a tree (a cron run under the scheduler, a flush
// under its job), with Cancel for the cancellable ones. Read every 2 s while the page is shown.
class ProcessesPage final : public TablePage
{
    Q_OBJECT
public:
    explicit ProcessesPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    ProcessModel &model() { return m_model; }
    QAction *cancelAction() const { return m_cancel; }

protected:
    void selectionChanged() override;

private:
    void cancelSelected();

    ProcessModel m_model;
    QAction *m_cancel;
};

} // namespace Switchyard::Console
