#include "instanceview.h"

#include "admin/remotebackend.h"
#include "pages/page.h"
#include "pages/pageregistry.h"
#include "widgets/format.h"
#include "widgets/statuscolors.h"

#include <QEvent>
#include <QLabel>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace Switchyard::Console {

InstanceView::InstanceView(Admin::AdminBackend &backend, std::unique_ptr<Admin::AdminBackend> owned, QWidget *parent)
    : QWidget(parent), m_backend(backend), m_owned(std::move(owned))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("instanceHeader"));
    m_header->setTextFormat(Qt::RichText);
    m_header->setContentsMargins(12, 8, 12, 8);
    m_header->setAutoFillBackground(true);
    layout->addWidget(m_header);
    // Why a connection is not usable (unreachable, unauthorised, incompatible, read-only), in words.
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("connectionBanner"));
    m_banner->setTextFormat(Qt::PlainText); // a daemon's error message, never markup
    m_banner->setWordWrap(true);
    m_banner->setContentsMargins(12, 6, 12, 6);
    m_banner->setAutoFillBackground(true);
    m_banner->hide();
    layout->addWidget(m_banner);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack, 1);

    for (const PageEntry &entry : pageRegistry()) {
        Page *page = entry.make(backend, this);
        page->attach(entry);
        m_pages << page;
        m_stack->addWidget(page);
    }
    // The identity one page reads goes to every page (and the header).
    for (Page *page : std::as_const(m_pages)) {
        connect(page, &Page::instanceChanged, this, [this](const Admin::InstanceInfo &info) {
            m_instance = info;
            for (Page *other : std::as_const(m_pages))
                other->setInstance(info);
            updateHeader();
        });
    }
    connect(&backend, &Admin::AdminBackend::stateChanged, this, &InstanceView::onStateChanged);
    // Events were lost in a burst: re-read like after a reconnect.
    connect(&backend, &Admin::AdminBackend::resyncNeeded, this, &InstanceView::refreshAll);
    connect(&backend, &Admin::AdminBackend::event, this, [this](const Admin::AdminEvent &event) {
        if (event.type == Admin::AdminEvent::Type::QueueStats)
            m_lastEvent = QDateTime::currentDateTimeUtc();
    });
    auto *clock = new QTimer(this);
    clock->setInterval(1000);
    connect(clock, &QTimer::timeout, this, &InstanceView::updateHeader);
    clock->start();
    onStateChanged(backend.state(), backend.stateMessage());
}

InstanceView::~InstanceView()
{
    // Pages hold references to the backend: they go first, then an owned backend.
    qDeleteAll(m_pages);
    m_pages.clear();
}

Page *InstanceView::page(const QString &id) const
{
    for (Page *page : m_pages)
        if (page->id() == id)
            return page;
    return nullptr;
}

Page *InstanceView::currentPage() const
{
    return qobject_cast<Page *>(m_stack->currentWidget());
}

void InstanceView::setCurrentPage(Page *page)
{
    for (Page *other : std::as_const(m_pages))
        if (other != page && other->isActive())
            other->setActive(false);
    m_stack->setCurrentWidget(page);
    page->setActive(true);
}

void InstanceView::deactivate()
{
    for (Page *page : std::as_const(m_pages))
        if (page->isActive())
            page->setActive(false);
}

void InstanceView::refreshAll()
{
    for (Page *page : std::as_const(m_pages))
        page->refresh();
}

void InstanceView::onStateChanged(Admin::AdminBackend::State state, const QString &message)
{
    using State = Admin::AdminBackend::State;
    // Connected (again): every page re-reads what it shows — a reconnect may have missed frames.
    if (state == State::Connected) {
        m_stack->setEnabled(true);
        refreshAll();
    } else if (state == State::Closing) {
        m_stack->setEnabled(false);
        deactivate(); // no more reads: the backend refuses them while closing
    }
    QString banner;
    m_bannerTone = StatusColor::Warning;
    if (state == State::Failed) {
        banner = message;
        m_bannerTone = StatusColor::Error;
    } else if (state == State::Connecting && !message.isEmpty() && !isEmbedded()) {
        banner = message;
    } else if (state == State::Connected && !m_backend.canMutate()) {
        banner = tr("Read-only connection: this token may look but not change anything, so the actions are disabled.");
        m_bannerTone = StatusColor::Info;
    }
    applyColours();
    m_banner->setText(banner);
    m_banner->setVisible(!banner.isEmpty());
    updateHeader();
    Q_EMIT healthChanged();
}

QColor InstanceView::healthColor() const
{
    using State = Admin::AdminBackend::State;
    switch (m_backend.state()) {
        case State::Connected: return statusColor(StatusColor::Ok, palette());
        case State::Connecting:
        case State::Closing: return statusColor(StatusColor::Warning, palette());
        case State::Failed: return statusColor(StatusColor::Error, palette());
        case State::Closed: return statusColor(StatusColor::Muted, palette());
    }
    return statusColor(StatusColor::Muted, palette());
}

// The header band and the banner follow the palette (and a theme switched at run time).
void InstanceView::applyColours()
{
    QPalette header = m_header->palette();
    header.setColor(QPalette::Window, headerBackground(palette()));
    header.setColor(QPalette::WindowText, headerText(palette()));
    m_header->setPalette(header);
    QPalette banner = m_banner->palette();
    banner.setColor(QPalette::Window, bannerBackground(m_bannerTone, palette()));
    m_banner->setPalette(banner);
}

void InstanceView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_header && m_banner) {
        applyColours();
        updateHeader();
    }
}

QString InstanceView::healthText() const
{
    using State = Admin::AdminBackend::State;
    switch (m_backend.state()) {
        case State::Connecting: return isEmbedded() ? tr("starting…") : tr("connecting…");
        case State::Connected: return m_backend.canMutate() ? tr("connected") : tr("connected, read-only");
        case State::Failed: return tr("not connected");
        case State::Closing: return isEmbedded() ? tr("shutting down…") : tr("closing…");
        case State::Closed: return tr("closed");
    }
    return {};
}

QString InstanceView::liveText() const
{
    if (m_backend.state() != Admin::AdminBackend::State::Connected)
        return tr("○ not live");
    if (!m_lastEvent.isValid())
        return tr("○ waiting for updates");
    const qint64 age = m_lastEvent.msecsTo(QDateTime::currentDateTimeUtc());
    return age < 3000 ? tr("● live") : tr("◌ stale since %1").arg(m_lastEvent.toLocalTime().toString(QStringLiteral("HH:mm:ss")));
}

void InstanceView::updateHeader()
{
    QString text = QStringLiteral("<span style='color:%1'>●</span> <b>%2</b>").arg(healthColor().lighter(130).name(),
                                                                                    m_backend.displayName().toHtmlEscaped());
    if (!m_instance.instanceId.isEmpty()) {
        // The uptime only while connected: an unreachable instance's clock is not ours to count.
        QString age;
        if (m_backend.state() == Admin::AdminBackend::State::Connected) {
            const qint64 uptime = m_instance.startedAt.msecsTo(QDateTime::currentDateTimeUtc());
            age = tr("up %1").arg(formatDuration((uptime / 1000) * 1000));
        } else {
            age = m_lastEvent.isValid() ? tr("last seen %1").arg(m_lastEvent.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
                                        : tr("not seen yet");
        }
        const QString common = m_instance.queueTypes.value(QStringLiteral("common"));
        text += tr(" &nbsp;·&nbsp; %1 &nbsp;·&nbsp; v%2 &nbsp;·&nbsp; %3 &nbsp;·&nbsp; queues %4 · cache %5 · locks %6")
                    .arg(m_instance.instanceId.toHtmlEscaped(), m_instance.version.toHtmlEscaped(), age.toHtmlEscaped(),
                         common.toHtmlEscaped(), m_instance.cacheAdapter.toHtmlEscaped(), m_instance.lockService.toHtmlEscaped());
    }
    if (auto *remote = qobject_cast<Admin::RemoteBackend *>(&m_backend))
        text += QStringLiteral(" &nbsp;·&nbsp; %1").arg(remote->url().toString().toHtmlEscaped());
    text += QStringLiteral(" &nbsp;·&nbsp; %1").arg(healthText());
    if (m_backend.state() == Admin::AdminBackend::State::Failed && m_banner->isHidden())
        text += QStringLiteral(": %1").arg(m_backend.stateMessage().toHtmlEscaped());
    m_header->setText(text);
}

} // namespace Switchyard::Console
