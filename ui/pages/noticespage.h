#pragma once

#include "tablepage.h"

#include "models/noticemodel.h"

class QAction;
class QPlainTextEdit;

namespace Switchyard::Console {

// System notices (failed cron runs, forced lock releases, damaged queue data): newest first, the
// full text of the selected one below, Delete for the selection. The badge counts notices that
// arrived since the page was last looked at.
class NoticesPage final : public TablePage
{
    Q_OBJECT
public:
    explicit NoticesPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;
    void setActive(bool active) override;

    NoticeModel &model() { return m_model; }
    QAction *deleteAction() const { return m_delete; }

protected:
    void selectionChanged() override;

private:
    void onEvent(const Admin::AdminEvent &event);
    void deleteSelected();

    NoticeModel m_model;
    QAction *m_delete;
    QPlainTextEdit *m_text;
    int m_unseen = 0;
};

} // namespace Switchyard::Console
