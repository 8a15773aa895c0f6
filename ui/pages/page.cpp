#include "page.h"

#include "pageregistry.h"

#include <QMessageBox>
#include <QPushButton>

namespace Switchyard::Console {

Page::Page(Admin::AdminBackend &backend, QWidget *parent) : QWidget(parent), m_backend(backend) {}

void Page::setActive(bool active)
{
    m_active = active;
    if (!m_poll)
        return;
    if (active) {
        refresh();
        m_poll->start();
    } else {
        m_poll->stop();
    }
}

QString Page::id() const
{
    return QLatin1String(m_entry->id);
}

QString Page::title() const
{
    return m_entry->translatedTitle();
}

QIcon Page::icon() const
{
    return m_entry->icon();
}

void Page::attach(const PageEntry &entry)
{
    m_entry = &entry;
    if (entry.poll.count() > 0)
        pollWhileActive(entry.poll);
}

void Page::pollWhileActive(std::chrono::milliseconds interval)
{
    if (!m_poll) {
        m_poll = new QTimer(this);
        connect(m_poll, &QTimer::timeout, this, &Page::refresh);
    }
    m_poll->setInterval(interval);
}

void Page::single(const QString &kind, std::function<void(const Done &done)> call)
{
    Slot &slot = m_slots[kind];
    if (slot.busy) {
        slot.again = std::move(call);
        return;
    }
    slot.busy = true;
    call([this, kind] {
        Slot &finished = m_slots[kind];
        finished.busy = false;
        if (finished.again) {
            // Started after this answer is applied (the caller's reply body runs after done()).
            std::function<void(const Done &)> next = std::move(finished.again);
            finished.again = nullptr;
            QMetaObject::invokeMethod(
                this, [this, kind, next = std::move(next)]() mutable { single(kind, std::move(next)); },
                Qt::QueuedConnection);
        }
    });
}

bool Page::reveal(const QString &kind, qint64 id, const QString &summary)
{
    Q_UNUSED(kind)
    Q_UNUSED(id)
    Q_UNUSED(summary)
    return false;
}

bool Page::goTo(const QString &pageId, const QString &kind, qint64 id, const QString &summary)
{
    Q_EMIT navigate(pageId, QString()); // the main window shows it, its filter cleared
    // The instance's pages are siblings in its stack (InstanceView).
    if (QWidget *stack = parentWidget())
        for (Page *page : stack->findChildren<Page *>(Qt::FindDirectChildrenOnly))
            if (page->m_entry && page->id() == pageId)
                return page->reveal(kind, id, summary);
    return false;
}

void Page::setBadge(int count)
{
    if (count == m_badge)
        return;
    m_badge = count;
    Q_EMIT badgeChanged(count);
}

void Page::confirm(const QString &title, const QString &text, const QString &acceptText, std::function<void()> accepted)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmation"));
    box->setTextFormat(Qt::PlainText); // names a hook, a queue, a lock: the backend's strings
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *accept = box->addButton(acceptText, QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [box, accept, accepted = std::move(accepted)] {
        if (box->clickedButton() == accept)
            accepted();
    });
    box->open();
}

void Page::reportFailure(const QString &action, const Status &status)
{
    // Calls the closing connection cancelled are not failures of the operator's actions.
    const auto state = m_backend.state();
    if (status.code() == Status::Code::Cancelled
        && (state == Admin::AdminBackend::State::Closing || state == Admin::AdminBackend::State::Closed))
        return;
    // A page shown while the engine or the connection is still coming up: it reads again once
    // connected (InstanceView), so this is no failure of anyone's.
    if (status.code() == Status::Code::Unavailable && state == Admin::AdminBackend::State::Connecting)
        return;
    Q_EMIT operationFailed(tr("%1 failed: %2").arg(action, status.message().section(QLatin1Char('\n'), 0, 0)),
                           tr("%1 failed (%2).\n\n%3").arg(action, Status::codeName(status.code()), status.message()));
}

}  // namespace Switchyard::Console
