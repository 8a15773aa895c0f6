#pragma once

// What the desktop is told when something goes wrong while the operator looks elsewhere: a
// delivery failed, a hook was made inactive, a queue backed up past a threshold, a cron task
// failed, an instance became unreachable. Each kind can be switched off (Preferences), and each
// is rate-limited: the first of a kind is said at once, the ones that follow within the window
// (a minute) are summed up in one notice when it ends. Each notice names the page (and filter)
// that shows the thing concerned; clicking it opens the console there.
//
// The notices go to a DesktopSink: the tray icon (QSystemTrayIcon, which Qt sends to the
// freedesktop notification service), or a test's recorder. The worst state seen since the
// window was last looked at is the tray's colour.
//
// Threads: GUI thread only.

#include "admin/adminbackend.h"
#include "widgets/statuscolors.h"

#include <QHash>
#include <QVariant>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <array>
#include <chrono>
#include <memory>
#include <set>

namespace Switchyard::Console {

enum class AlertKind { DeliveryFailed, HookDisabled, QueueBacklog, CronFailed, InstanceUnreachable };
constexpr int kAlertKinds = 5;

struct DesktopNotice
{
    AlertKind kind = AlertKind::DeliveryFailed;
    QString title;
    QString body;
    QString instance; // the instance's name in the sidebar
    QString pageId;   // the page that shows it
    QString filter;   // applied to that page
    QVariant key;     // the row selected there (a hook id, a queue id, a task name)
    int count = 1;    // > 1: a summary of that many
};

class DesktopSink
{
public:
    virtual ~DesktopSink() = default;
    virtual void show(const DesktopNotice &notice) = 0;
};

class DesktopAlerts final : public QObject
{
    Q_OBJECT
public:
    explicit DesktopAlerts(DesktopSink &sink, QObject *parent = nullptr);

    // Listens to `backend`'s stream and state as `instance` (the name notices give).
    void watch(Admin::AdminBackend &backend, const QString &instance);

    void setEnabled(AlertKind kind, bool enabled) { m_enabled[std::size_t(kind)] = enabled; }
    bool isEnabled(AlertKind kind) const { return m_enabled[std::size_t(kind)]; }
    void setBacklogThreshold(qint64 items) { m_backlog = items; }
    void setWindow(std::chrono::milliseconds window); // one notice per kind per window (1 min)
    // The tray's colour: Ok, Warning (a backlog, a reconnect) or Error (a failure) since the last
    // acknowledge() (the operator opened the window).
    StatusColor status() const { return m_status; }
    void acknowledge();
    // Ends every kind's window now: what it held back is said (tests; the timers do it otherwise).
    void flushNow();

    static QString kindKey(AlertKind kind); // "delivery_failed" … (settings keys)
    static QString kindLabel(AlertKind kind);

Q_SIGNALS:
    void statusChanged(Switchyard::Console::StatusColor status);

private:
    void onEvent(const QString &instance, const Admin::AdminEvent &event);
    void onState(const QString &instance, Admin::AdminBackend::State state, const QString &message);
    void raise(DesktopNotice notice, StatusColor severity);
    void flush(AlertKind kind);

    struct Pending
    {
        QTimer timer;        // running: the window after the last notice said is open
        int held = 0;        // notices held back in that window
        DesktopNotice latest;
    };
    DesktopSink &m_sink;
    std::array<bool, kAlertKinds> m_enabled{true, true, true, true, true};
    std::array<std::unique_ptr<Pending>, kAlertKinds> m_pending;
    std::chrono::milliseconds m_window{60000};
    qint64 m_backlog = 1000;
    std::set<std::pair<QString, qint64>> m_backedUp; // (instance, qid) over the threshold: said once until it drains
    QHash<QString, bool> m_wasConnected;             // instance → it had been connected
    StatusColor m_status = StatusColor::Ok;
};

} // namespace Switchyard::Console
