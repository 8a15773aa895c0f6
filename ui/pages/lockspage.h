#pragma once

#include "tablepage.h"

#include "models/lockmodel.h"

#include <QTimer>

class QAction;

namespace Switchyard::Console {

// Locks (SPEC §5): held locks with a TTL countdown bar, the fencing token, this instance's locks
// highlighted; Force release behind a confirmation naming the key, the holder and the consequence.
class LocksPage final : public TablePage
{
    Q_OBJECT
public:
    explicit LocksPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    LockModel &model() { return m_model; }
    QAction *forceReleaseAction() const { return m_forceRelease; }
    // Which holder is "this instance".
    void setInstance(const Admin::InstanceInfo &info) override { m_model.setLocalInstance(info.instanceId); }

protected:
    void selectionChanged() override;

private:
    void onEvent(const Admin::AdminEvent &event);
    void forceReleaseSelected();
    void updateBadge();

    LockModel m_model;
    QAction *m_forceRelease;
    QTimer m_countdown;
    QTimer m_debounce; // one list read for a burst of lock events
};

} // namespace Switchyard::Console
