#include "pageregistry.h"

#include "auditpage.h"
#include "cachepage.h"
#include "cronpage.h"
#include "lockspage.h"
#include "noticespage.h"
#include "notificationspage.h"
#include "overviewpage.h"
#include "processespage.h"
#include "queuespage.h"
#include "webhookspage.h"

#include "widgets/icons.h"

#include <QCoreApplication>

namespace Switchyard::Console {

namespace {

template<typename P>
Page *make(Admin::AdminBackend &backend, QWidget *parent)
{
    return new P(backend, parent);
}

using std::chrono::milliseconds;

} // namespace

const std::vector<PageEntry> &pageRegistry()
{
    static const std::vector<PageEntry> pages{
        {"overview", QT_TRANSLATE_NOOP("Pages", "Overview"), "view-grid", QColor(0x37, 0x47, 0x4f), milliseconds(0), &make<OverviewPage>},
        {"queues", QT_TRANSLATE_NOOP("Pages", "Queues"), "view-list", QColor(0x15, 0x65, 0xc0), milliseconds(0), &make<QueuesPage>},
        {"cron", QT_TRANSLATE_NOOP("Pages", "Cron"), "alarm", QColor(0x2e, 0x7d, 0x32), milliseconds(0), &make<CronPage>},
        {"locks", QT_TRANSLATE_NOOP("Pages", "Locks"), "changes-prevent", QColor(0x6a, 0x1b, 0x9a), milliseconds(0), &make<LocksPage>},
        {"cache", QT_TRANSLATE_NOOP("Pages", "Cache & QoS"), "drive-harddisk", QColor(0x00, 0x83, 0x8f), milliseconds(1000), &make<CachePage>},
        {"processes", QT_TRANSLATE_NOOP("Pages", "Processes"), "system-run", QColor(0x45, 0x5a, 0x64), milliseconds(2000), &make<ProcessesPage>},
        {"notifications", QT_TRANSLATE_NOOP("Pages", "Notifications"), "preferences-system-notifications", QColor(0xef, 0x6c, 0x00),
         milliseconds(5000), &make<NotificationsPage>},
        {"webhooks", QT_TRANSLATE_NOOP("Pages", "Webhooks"), "network-transmit", QColor(0x00, 0x69, 0x5c), milliseconds(2000),
         &make<WebhooksPage>},
        {"notices", QT_TRANSLATE_NOOP("Pages", "Notices"), "dialog-warning", QColor(0xc6, 0x28, 0x28), milliseconds(0), &make<NoticesPage>},
        {"audit", QT_TRANSLATE_NOOP("Pages", "Audit"), "document-open-recent", QColor(0x5d, 0x40, 0x37), milliseconds(5000), &make<AuditPage>},
    };
    return pages;
}

const PageEntry *findPage(const QString &id)
{
    for (const PageEntry &entry : pageRegistry()) {
        if (id == QLatin1String(entry.id))
            return &entry;
    }
    return nullptr;
}

QString PageEntry::translatedTitle() const
{
    return QCoreApplication::translate("Pages", title);
}

QIcon PageEntry::icon() const
{
    return Icons::badge(QString::fromUtf8(iconName), colour);
}

} // namespace Switchyard::Console
