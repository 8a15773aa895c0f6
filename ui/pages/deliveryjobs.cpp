#include "deliveryjobs.h"

#include <algorithm>

namespace Switchyard::Console {

// ---- ProcessJob ---------------------------------------------------------------------------------

ProcessJob::ProcessJob(Admin::AdminBackend &backend, qint64 pid, const QString &title, QObject *parent,
                       std::chrono::milliseconds interval)
    : AdminJob(parent), m_backend(backend), m_pid(pid)
{
    setTitle(title);
    m_timer.setInterval(interval);
    connect(&m_timer, &QTimer::timeout, this, &ProcessJob::poll);
    m_timer.start();
    QTimer::singleShot(0, this, &ProcessJob::poll);
}

void ProcessJob::poll()
{
    if (m_polling || isFinished())
        return;
    m_polling = true;
    m_backend.call(Admin::Ops::processList, {}, this, [this](Result<std::vector<Admin::ProcessRow>> rows) {
        m_polling = false;
        if (!rows) {
            m_timer.stop();
            finish(Status(rows.status().code(), tr("Following job %1: %2").arg(m_pid).arg(rows.status().message())));
            return;
        }
        const auto it = std::find_if(rows->begin(), rows->end(), [this](const Admin::ProcessRow &p) { return p.pid == m_pid; });
        if (it != rows->end()) {
            if (it->total >= 0)
                setProgress(std::max<qint64>(it->done, 0), it->total);
            return;
        }
        // Gone: it ended. The last progress seen may be older than its end (it can finish between
        // two polls), so it says nothing about how it ended; a job stopped by an error raises a
        // system notice, which the Notices page shows.
        m_timer.stop();
        if (m_cancelled)
            finish(Status::cancelled(tr("cancelled (at least %1 of %2 were done)").arg(done()).arg(total())));
        else
            finish(Status::ok());
    });
}

void ProcessJob::cancel()
{
    if (isFinished() || m_cancelled)
        return;
    m_cancelled = true;
    m_backend.call(Admin::Ops::processCancel, {m_pid}, this, [this](Result<Admin::Done> done) {
        // NotFound: it ended meanwhile; the next poll tells how.
        if (!done && done.status().code() != Status::Code::NotFound) {
            m_cancelled = false;
            m_timer.stop();
            finish(done.status());
        }
    });
}

// ---- DeliveryExportJob --------------------------------------------------------------------------

DeliveryExportJob::DeliveryExportJob(Admin::AdminBackend &backend, Admin::DeliverySearchArgs filter, const QString &path,
                                     QObject *parent)
    : AdminJob(parent), m_backend(backend), m_filter(std::move(filter)), m_file(path)
{
    setTitle(tr("Exporting deliveries to %1").arg(path));
    m_filter.page = 1;
    m_filter.limit = kPage;
    m_filter.format.clear();
    // Opened and started from the event loop: finished() never comes inside the constructor.
    QTimer::singleShot(0, this, [this] {
        if (!m_file.open(QIODevice::WriteOnly)) {
            finish(Status::unavailable(tr("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString())));
            return;
        }
        m_file.write(Admin::deliveryCsvHeader());
        next();
    });
}

void DeliveryExportJob::next()
{
    if (m_cancelled)
        return;
    m_call = m_backend.call(Admin::Ops::deliverySearch, m_filter, this, [this](Result<Admin::Page<Admin::HookTaskRow>> page) {
        if (m_cancelled)
            return;
        if (!page) {
            m_file.cancelWriting();
            finish(page.status());
            return;
        }
        if (m_total < 0)
            m_total = page->total; // later pages count what is left below their key
        for (const Admin::HookTaskRow &row : page->rows)
            m_file.write(Admin::deliveryCsvLine(row));
        m_written += qint64(page->rows.size());
        setProgress(m_written, std::max(m_total, m_written));
        if (qint64(page->rows.size()) < kPage) {
            if (!m_file.commit()) {
                finish(Status::unavailable(tr("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString())));
                return;
            }
            finish(Status::ok());
            return;
        }
        m_filter.before = page->rows.back().id;
        next();
    });
}

void DeliveryExportJob::cancel()
{
    if (isFinished() || m_cancelled)
        return;
    m_cancelled = true;
    m_call.cancel();
    m_file.cancelWriting();
    finish(Status::cancelled(tr("export cancelled after %1 deliveries; nothing was written").arg(m_written)));
}

} // namespace Switchyard::Console
