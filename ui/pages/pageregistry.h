#pragma once

// The console's pages, listed once (CONSOLE.md's layout): id, title, icon, whether it polls, and
// how to make it. The sidebar, Ctrl+1…9 (by position), Ctrl+PgUp/PgDown, settings keys and links
// all come from here; InstanceView and MainWindow name no page. A new page is one entry.

#include <QColor>
#include <QIcon>
#include <QString>

#include <chrono>
#include <vector>

namespace Switchyard::Admin {
class AdminBackend;
}

namespace Switchyard::Console {

class Page;

struct PageEntry
{
    const char *id;    // stable: settings keys, links ("queues")
    const char *title; // translated in the "Pages" context
    const char *iconName; // a symbolic icon in resources/icons (Icons::badge draws it on `colour`)
    QColor colour;
    std::chrono::milliseconds poll; // > 0: refreshed this often while shown (what the stream does not carry)
    Page *(*make)(Admin::AdminBackend &backend, QWidget *parent);

    QString translatedTitle() const;
    QIcon icon() const;
};

// In sidebar order.
const std::vector<PageEntry> &pageRegistry();
const PageEntry *findPage(const QString &id);

} // namespace Switchyard::Console
