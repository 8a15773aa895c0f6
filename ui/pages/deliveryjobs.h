#pragma once

// The Webhooks page's two long actions, as AdminJobs so the page shows them like a flush:
// - ProcessJob follows a job the instance runs (a bulk redelivery: POST /deliveries/redeliver
//   answers its process id), reading its progress from the process list and cancelling it there;
//   it finishes when the process leaves the list (how the job ended is the instance's to say: a
//   stop on an error is a system notice);
// - DeliveryExportJob writes the deliveries a filter matches to a CSV file, a keyset page of 500
//   at a time through the same encoder as the API's format=csv, so it works on both backends and
//   never holds the history in memory.

#include "admin/adminbackend.h"
#include "admin/ops/instanceops.h"
#include "admin/ops/webhookops.h"

#include <QFile>
#include <QPointer>
#include <QSaveFile>
#include <QTimer>

#include <chrono>
#include <memory>

namespace Switchyard::Console {

class ProcessJob final : public Admin::AdminJob
{
    Q_OBJECT
public:
    // Polls every `interval` until process `pid` leaves the list.
    ProcessJob(Admin::AdminBackend &backend, qint64 pid, const QString &title, QObject *parent,
               std::chrono::milliseconds interval = std::chrono::milliseconds(300));

    qint64 pid() const { return m_pid; }
    void cancel() override;

private:
    void poll();

    Admin::AdminBackend &m_backend;
    qint64 m_pid;
    QTimer m_timer;
    bool m_polling = false;
    bool m_cancelled = false;
};

class DeliveryExportJob final : public Admin::AdminJob
{
    Q_OBJECT
public:
    static constexpr qint64 kPage = 500;

    // Starts at once; `path` is replaced only when the export completes (QSaveFile).
    DeliveryExportJob(Admin::AdminBackend &backend, Admin::DeliverySearchArgs filter, const QString &path, QObject *parent);

    QString path() const { return m_file.fileName(); }
    void cancel() override;

private:
    void next();

    Admin::AdminBackend &m_backend;
    Admin::DeliverySearchArgs m_filter;
    QSaveFile m_file;
    Admin::CallHandle m_call;
    qint64 m_written = 0;
    qint64 m_total = -1; // the first page's count
    bool m_cancelled = false;
};

} // namespace Switchyard::Console
