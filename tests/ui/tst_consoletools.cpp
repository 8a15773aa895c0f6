// The console's tools over a LocalBackend on a real engine (channel queues, the dummy mailer, a
// loopback webhook receiver), under the offscreen platform: the trace dialog (a seeded event's
// notifications, feed rows, delivery and mail, as a tree and as a timeline, with the instance that
// handled each), Show trace on every page that lists traced rows and the links back to them,
// Help ▸ About, and the Ctrl+K command palette.

#include "admin/localbackend.h"
#include "app/aboutdialog.h"
#include "app/commandpalette.h"
#include "app/mainwindow.h"
#include "engine/core/version.h"
#include "pages/cronpage.h"
#include "pages/notificationspage.h"
#include "pages/tracedialog.h"
#include "pages/webhookspage.h"

#include "support/httpreceiver.h"
#include "support/opcall.h"
#include "support/testengine.h"
#include "support/testutil.h"
#include "support/wait.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace Switchyard;
using namespace Switchyard::Console;
using namespace std::chrono_literals;

namespace {

const QByteArray kIni = R"(
[server]
GRACEFUL_HAMMER_TIME = 2s
[queue]
TYPE = channel
[webhook]
ALLOWED_HOST_LIST = loopback
[service]
ENABLE_NOTIFY_MAIL = true
[mailer]
ENABLED = true
PROTOCOL = dummy
FROM = Switchyard <sy@example.com>
)";

// One console window over one engine, with a system webhook that wants everything.
struct Fixture
{
    QTemporaryDir dir;
    Test::HttpReceiver receiver;
    std::unique_ptr<Admin::LocalBackend> backend;
    std::unique_ptr<MainWindow> window;

    Fixture()
    {
        receiver.respond(200, "{\"ok\":true}");
        Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom(kIni, dir.path()));
        if (!engine)
            qFatal("engine: %s", qPrintable(engine.status().toString()));
        Admin::LocalBackendOptions options;
        options.eventInterval = 100ms;
        options.doer = QStringLiteral("test operator");
        backend = std::make_unique<Admin::LocalBackend>(std::move(engine).value(), options);
        window = std::make_unique<MainWindow>(*backend);
        window->resize(1280, 800);
    }
    ~Fixture()
    {
        window.reset();
        backend.reset();
    }
    Engine &engine() { return *backend->engine(); }

    void addHook()
    {
        Webhook::Hook hook;
        hook.isSystem = true;
        hook.url = QString::fromLatin1(receiver.url("/hooks/gitea"));
        hook.name = QStringLiteral("ci");
        hook.events.sendEverything = true;
        QVERIFY(engine().webhooks().create(hook));
    }
    EventAccepted ingest(const char *file, const char *event) { return Test::ingestSample(engine(), file, event); }
    // Everything queued is handled: events, notifications, deliveries, mail.
    void settle()
    {
        for (const char *name : {"event_ingest", "notification-service", "webhook_sender", "mail"})
            for (const QueueStats &stats : engine().queues().list())
                if (stats.name == QLatin1String(name))
                    QVERIFY2(engine().queues().find(stats.qid)->flush(CancelToken(), 20s), name);
    }
    // Bob's issue, then (with the hook) carol's comment on it: an event, bob's notification,
    // feed rows, a delivery and mail to bob, all under the comment's trace.
    EventAccepted seed()
    {
        ingest("gitea-issues-opened.json", "issues");
        settle();
        addHook();
        const EventAccepted comment = ingest("gitea-issue-comment-created.json", "issue_comment");
        settle();
        return comment;
    }
    MainWindow &open(const QString &page)
    {
        window->show();
        window->showPage(page);
        window->refreshAll();
        return *window;
    }
};

QStringList kindsOf(const Admin::Trace &trace)
{
    QStringList kinds;
    for (const Admin::TraceItem &item : trace.items)
        if (!kinds.contains(item.kind))
            kinds << item.kind;
    return kinds;
}

QTreeWidgetItem *findKind(QTreeWidgetItem *under, const QString &kind)
{
    for (int i = 0; i < under->childCount(); ++i) {
        QTreeWidgetItem *child = under->child(i);
        if (child->data(TraceDialog::Item, TraceDialog::KindRole).toString() == kind)
            return child;
        if (QTreeWidgetItem *deeper = findKind(child, kind))
            return deeper;
    }
    return nullptr;
}

} // namespace

class TestConsoleTools : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        Test::isolateSettings(m_settings.path(), QStringLiteral("console-tools-test"));
    }

    // Tab goes through each page as it is laid out, top to bottom and left to right: the filter,
    // the table, then the lower lists and their controls (toolbar buttons are reached through the
    // tables' context menus and Ctrl+K). Named controls only: the chart's inner view has no name.
    void keyboardReachesThePagesInVisualOrder()
    {
        Fixture f;
        f.seed();
        MainWindow &w = f.open(QStringLiteral("notifications"));
        const std::map<QString, QStringList> expected{
            {QStringLiteral("notifications"),
             {QStringLiteral("Filter"), QStringLiteral("Ingested events, newest first"), QStringLiteral("Users of the forge, with their unread notifications"),
              QStringLiteral("The selected user's notifications")}},
            {QStringLiteral("webhooks"),
             {QStringLiteral("Filter"), QStringLiteral("Webhooks"), QStringLiteral("Deliveries of"), QStringLiteral("Delivery status"),
              QStringLiteral("Delivery event"), QStringLiteral("Queued within"), QStringLiteral("Search deliveries"),
              QStringLiteral("The selected webhook's deliveries, newest first"), QStringLiteral("The selected delivery"), QStringLiteral("Request sent")}},
            {QStringLiteral("cron"), {QStringLiteral("Filter"), QStringLiteral("Cron tasks"), QStringLiteral("The selected task's runs, newest first")}},
        };
        for (const auto &[id, names] : expected) {
            w.showPage(id);
            Page *page = w.currentPage();
            QVERIFY(Test::eventually([&] { return page->findChild<QTreeView *>(QStringLiteral("view"))->model()->rowCount() > 0; }));
            QStringList chain;
            for (QWidget *at = page->nextInFocusChain(); at != page; at = at->nextInFocusChain())
                if (page->isAncestorOf(at) && at->isVisibleTo(&w) && at->isEnabled() && (int(at->focusPolicy()) & int(Qt::TabFocus))
                    && !at->accessibleName().isEmpty())
                    chain << at->accessibleName();
            QCOMPARE(chain, names);
        }
    }

    void offsetsReadAsPeopleWriteThem()
    {
        QCOMPARE(TraceDialog::offsetText(0, false), QStringLiteral("+0 ms"));
        QCOMPARE(TraceDialog::offsetText(120, false), QStringLiteral("+120 ms"));
        QCOMPARE(TraceDialog::offsetText(1400, false), QStringLiteral("+1.4 s"));
        QCOMPARE(TraceDialog::offsetText(-2000, false), QStringLiteral("−2.0 s"));
        QCOMPARE(TraceDialog::offsetText(-700, true), QStringLiteral("within 1 s"));
        QCOMPARE(TraceDialog::offsetText(3400, true), QStringLiteral("≈ +3.0 s"));
        QCOMPARE(TraceDialog::pageFor(QStringLiteral("hook-task")), QStringLiteral("webhooks"));
        QCOMPARE(TraceDialog::pageFor(QStringLiteral("mail")), QString()); // the console lists no mail
    }

    // The comment's trace from the Notifications page: every kind of the chain, the instance that
    // handled what the store knows of, as a tree (grouped under the event; a redelivery under the
    // delivery it repeats) and as a timeline (by time, offsets from the event).
    void traceShowsTheChainInBothViews()
    {
        Fixture f;
        const EventAccepted comment = f.seed();
        MainWindow &w = f.open(QStringLiteral("notifications"));
        NotificationsPage &page = *w.page<NotificationsPage>(QStringLiteral("notifications"));
        QVERIFY(Test::eventually([&] { return page.events().indexOfKey(comment.id) >= 0; }));
        QVERIFY(page.selectKey(comment.id));
        page.traceAction()->trigger();
        TraceDialog *dialog = page.traceDialog();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->traceId(), comment.traceId);
        QVERIFY(Test::eventually([&] { return dialog->trace().has_value(); }));
        const Admin::Trace trace = *dialog->trace();
        QStringList kinds = kindsOf(trace);
        kinds.sort();
        QCOMPARE(kinds, (QStringList{QStringLiteral("event"), QStringLiteral("feed"), QStringLiteral("hook-task"), QStringLiteral("mail"),
                                     QStringLiteral("notification")}));
        const QString self = f.engine().instanceId();
        for (const Admin::TraceItem &item : trace.items) {
            const bool claimed = item.kind == QLatin1String("event") || item.kind == QLatin1String("hook-task") || item.kind == QLatin1String("mail");
            QCOMPARE(item.instance, claimed ? self : QString());
        }
        QCOMPARE(dialog->mode(), TraceDialog::Mode::Tree);
        QTreeWidget *items = dialog->items();
        QVERIFY(!items->accessibleName().isEmpty() && !items->headerItem()->text(TraceDialog::Instance).isEmpty());
        QCOMPARE(items->topLevelItemCount(), 1);
        QTreeWidgetItem *root = items->topLevelItem(0);
        QCOMPARE(root->data(TraceDialog::Item, TraceDialog::KindRole).toString(), QStringLiteral("event"));
        QCOMPARE(root->text(TraceDialog::Instance), self);
        QStringList groups;
        for (int i = 0; i < root->childCount(); ++i)
            groups << root->child(i)->text(TraceDialog::Item).section(u' ', 0, 0);
        QCOMPARE(groups, (QStringList{QStringLiteral("Notifications"), QStringLiteral("Feed"), QStringLiteral("Deliveries"), QStringLiteral("Mail")}));
        QTreeWidgetItem *delivery = findKind(root, QStringLiteral("hook-task"));
        QVERIFY(delivery && delivery->parent()->parent() == root);
        QCOMPARE(delivery->text(TraceDialog::Instance), self);
        const qint64 first = delivery->data(TraceDialog::Item, TraceDialog::IdRole).toLongLong(); // items go when the view changes
        QCOMPARE(findKind(root, QStringLiteral("mail"))->text(TraceDialog::Status), QStringLiteral("sent"));
        QCOMPARE(findKind(root, QStringLiteral("notification"))->text(TraceDialog::Instance), QStringLiteral("—"));

        // The timeline, chosen from the keyboard: every item, the event first at +0 ms.
        const QList<QRadioButton *> views = dialog->findChildren<QRadioButton *>();
        QCOMPARE(views.size(), 2);
        // Tab reaches the checked one (an exclusive group's others are reached with the arrows).
        QVERIFY(views[0]->isChecked() && (int(views[0]->focusPolicy()) & int(Qt::TabFocus)) != 0);
        QApplication::setActiveWindow(dialog); // offscreen windows are not activated by showing them
        views[0]->setFocus(Qt::TabFocusReason);
        QVERIFY(views[0]->hasFocus());
        QTest::keyClick(views[0], Qt::Key_Right);
        QCOMPARE(dialog->mode(), TraceDialog::Mode::Timeline);
        QCOMPARE(items->topLevelItemCount(), int(trace.items.size()));
        QCOMPARE(items->topLevelItem(0)->text(TraceDialog::Offset), QStringLiteral("+0 ms"));
        for (int i = 0; i < items->topLevelItemCount(); ++i) {
            const QString offset = items->topLevelItem(i)->text(TraceDialog::Offset);
            const bool coarse = items->topLevelItem(i)->data(TraceDialog::Item, TraceDialog::KindRole).toString() == QLatin1String("feed")
                                || items->topLevelItem(i)->data(TraceDialog::Item, TraceDialog::KindRole).toString() == QLatin1String("notification");
            QVERIFY2(coarse ? (offset == QLatin1String("within 1 s") || offset.startsWith(u'≈')) : offset.startsWith(u'+'), qPrintable(offset));
        }

        // A redelivery joins the trace, under the delivery it repeats.
        const Result<Admin::Page<Admin::HookTaskRow>> tasks = Test::call(*f.backend, Admin::Ops::deliverySearch, {});
        QVERIFY(tasks && !tasks->rows.empty());
        const Admin::HookTaskRow original = *std::find_if(tasks->rows.begin(), tasks->rows.end(), [&](const auto &t) { return t.id == first; });
        const Result<Admin::HookTaskCreated> again = Test::call(*f.backend, Admin::Ops::hookRedeliver, {original.hookId, original.uuid});
        QVERIFY2(again, qPrintable(again.status().toString()));
        f.settle();
        dialog->setMode(TraceDialog::Mode::Tree);
        dialog->showTrace(comment.traceId);
        QVERIFY(Test::eventually([&] { return dialog->trace().has_value(); }));
        QTreeWidgetItem *firstDelivery = findKind(items->topLevelItem(0), QStringLiteral("hook-task"));
        QCOMPARE(firstDelivery->data(TraceDialog::Item, TraceDialog::IdRole).toLongLong(), first);
        QCOMPARE(firstDelivery->childCount(), 1);
        QCOMPARE(firstDelivery->child(0)->data(TraceDialog::Item, TraceDialog::IdRole).toLongLong(), again->id);

        // Mail has no page in the console: Enter on it stays here and says so.
        QSignalSpy opened(dialog, &TraceDialog::openItem);
        items->setCurrentItem(findKind(items->topLevelItem(0), QStringLiteral("mail")));
        QTest::keyClick(items, Qt::Key_Return);
        QCOMPARE(opened.count(), 0);
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("traceHint"))->text().contains(QStringLiteral("no page")));
        dialog->close();
    }

    // Show trace from a notification, a delivery and a cron run; Enter on an item goes to the page
    // that lists it, the row selected. (Mail has no page in the console: only traces show it.)
    void showTraceFromEveryPageAndBack()
    {
        Fixture f;
        const EventAccepted comment = f.seed();
        MainWindow &w = f.open(QStringLiteral("notifications"));

        // A notification: bob's, from the comment.
        NotificationsPage &notifications = *w.page<NotificationsPage>(QStringLiteral("notifications"));
        QVERIFY(Test::eventually([&] { return notifications.notifications().rowCount() > 0; }));
        const NotificationRow notification = notifications.notifications().rows().front();
        QVERIFY(!notifications.notificationTraceAction()->isEnabled());
        QVERIFY(selectKeyIn(notifications.notificationView(), notification.id));
        QVERIFY(notifications.notificationTraceAction()->isEnabled());
        notifications.notificationTraceAction()->trigger();
        QVERIFY(notifications.traceDialog()->isVisible());
        QCOMPARE(notifications.traceDialog()->traceId(), notification.traceId);

        // A delivery on the Webhooks page.
        w.showPage(QStringLiteral("webhooks"));
        WebhooksPage &webhooks = *w.page<WebhooksPage>(QStringLiteral("webhooks"));
        QVERIFY(Test::eventually([&] { return webhooks.tasks().rowCount() > 0; }));
        const Admin::HookTaskRow task = webhooks.tasks().rows().front();
        QVERIFY(webhooks.selectTask(task.id));
        QVERIFY(webhooks.traceAction()->isEnabled());
        webhooks.traceAction()->trigger();
        TraceDialog *fromDelivery = webhooks.traceDialog();
        QVERIFY(fromDelivery && fromDelivery->isVisible());
        QCOMPARE(fromDelivery->traceId(), task.traceId);

        // Enter on the comment's event in that trace: the Notifications page, the event selected.
        fromDelivery->showTrace(comment.traceId);
        QVERIFY(Test::eventually([&] { return fromDelivery->trace().has_value(); }));
        QSignalSpy opened(fromDelivery, &TraceDialog::openItem);
        fromDelivery->items()->setCurrentItem(fromDelivery->items()->topLevelItem(0));
        QTest::keyClick(fromDelivery->items(), Qt::Key_Return);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toString(), QStringLiteral("notifications"));
        QCOMPARE(w.currentPage()->id(), QStringLiteral("notifications"));
        QCOMPARE(notifications.currentKey().toLongLong(), comment.id);

        // And on a delivery the list does not show (only failed ones are listed): the Webhooks page
        // lists every hook's deliveries, unfiltered, that one selected.
        w.showPage(QStringLiteral("webhooks"));
        webhooks.statusBox()->setCurrentIndex(webhooks.statusBox()->findData(QStringLiteral("failed")));
        QVERIFY(Test::eventually([&] { return webhooks.tasks().rowCount() == 0; }));
        QTreeWidgetItem *delivery = findKind(fromDelivery->items()->topLevelItem(0), QStringLiteral("hook-task"));
        fromDelivery->items()->setCurrentItem(delivery);
        w.showPage(QStringLiteral("overview"));
        QTest::keyClick(fromDelivery->items(), Qt::Key_Return);
        QCOMPARE(w.currentPage()->id(), QStringLiteral("webhooks"));
        const qint64 deliveryId = delivery->data(TraceDialog::Item, TraceDialog::IdRole).toLongLong();
        QVERIFY(Test::eventually([&] {
            const QModelIndex current = webhooks.taskView()->selectionModel()->currentIndex();
            return current.isValid() && current.data(KeyRole).toLongLong() == deliveryId;
        }));
        QVERIFY(webhooks.statusBox()->currentData().toString().isEmpty());
        fromDelivery->close();
        notifications.traceDialog()->close();

        // A cron run: its trace, rooted in the run, names the instance that ran it.
        CronTaskDefinition definition;
        definition.name = QStringLiteral("tally");
        definition.title = QStringLiteral("Tally the stars");
        definition.defaults.schedule = QStringLiteral("@every 1h");
        definition.run = [](const CronRunContext &) -> Result<QString> { return QStringLiteral("counted"); };
        QVERIFY(f.engine().cron().registerTask(std::move(definition)));
        QVERIFY(f.engine().cron().runNow(QStringLiteral("tally"), QStringLiteral("tester")));
        f.engine().cron().waitIdle();
        w.showPage(QStringLiteral("cron"));
        CronPage &cron = *w.page<CronPage>(QStringLiteral("cron"));
        w.refreshAll();
        QVERIFY(Test::eventually([&] { return cron.selectKey(QStringLiteral("tally")); }));
        QVERIFY(Test::eventually([&] { return cron.history().rowCount() == 1; }));
        QVERIFY(!cron.historyView()->accessibleName().isEmpty());
        QVERIFY(!cron.traceAction()->isEnabled()); // no run selected yet
        const Admin::CronRun run = cron.history().rows().front();
        QVERIFY(cron.selectRun(run.id));
        QVERIFY(cron.traceAction()->isEnabled());
        cron.traceAction()->trigger();
        TraceDialog *fromRun = cron.traceDialog();
        QVERIFY(Test::eventually([&] { return fromRun->trace().has_value(); }));
        QCOMPARE(fromRun->trace()->root.kind, QStringLiteral("cron-run"));
        QCOMPARE(fromRun->trace()->root.id, run.id);
        QCOMPARE(fromRun->trace()->root.instance, f.engine().instanceId());
        // Back to it from another task: the task, then the run, selected again.
        for (const Admin::CronRow &other : cron.model().rows())
            if (other.name != QLatin1String("tally")) {
                QVERIFY(cron.selectKey(other.name));
                break;
            }
        QTest::keyClick(fromRun->items(), Qt::Key_Return);
        QVERIFY(Test::eventually([&] {
            const QModelIndex current = cron.historyView()->selectionModel()->currentIndex();
            return current.isValid() && current.data(KeyRole).toLongLong() == run.id;
        }));
        fromRun->close();
    }

    // Help ▸ About: the version, the build, the embedded engine's data directory, the licences;
    // Copy build info copies them.
    void aboutShowsTheVersionAndTheDataDirectory()
    {
        Fixture f;
        MainWindow &w = f.open(QStringLiteral("overview"));
        auto *action = w.findChild<QAction *>(QStringLiteral("aboutAction"));
        QVERIFY(action && action->isEnabled());
        action->trigger();
        auto *about = w.findChild<AboutDialog *>(QStringLiteral("aboutDialog"));
        QVERIFY(about && about->isVisible());
        QVERIFY(about->findChild<QLabel *>(QStringLiteral("aboutVersion"))->text().contains(QStringLiteral(SWITCHYARD_VERSION)));
        QVERIFY(AboutDialog::buildText().contains(QStringLiteral(QT_VERSION_STR)));
        QVERIFY(Test::eventually([&] { return about->instanceLabel()->text().contains(f.dir.path()); }));
        QStringList components;
        for (int i = 0; i < about->licences()->topLevelItemCount(); ++i)
            components << about->licences()->topLevelItem(i)->text(0) + u'=' + about->licences()->topLevelItem(i)->text(1);
        for (const char *expected : {"Qt 6=LGPL-3.0 (or GPL-2.0)", "hiredis=BSD-3-Clause", "LevelDB=BSD-3-Clause", "QtKeychain=BSD-2-Clause",
                                     "http_parser=MIT", "OpenSSL=Apache-2.0", "Adwaita icons=CC-BY-SA-3.0 or LGPL-3.0"})
            QVERIFY2(components.contains(QLatin1String(expected)), expected);
        QVERIFY(!about->licences()->accessibleName().isEmpty() && !about->copyButton()->accessibleName().isEmpty());
        about->copyButton()->click();
        const QString copied = QGuiApplication::clipboard()->text();
        QVERIFY(copied.contains(QStringLiteral(SWITCHYARD_VERSION)) && copied.contains(f.dir.path()));
        about->close();
    }

    // Ctrl+K: pages and actions with their shortcuts, filtered as typed; Enter runs a page's action
    // on its page, a disabled one is refused, a page is gone to; Esc closes.
    void paletteFiltersRunsAndRefuses()
    {
        Fixture f;
        MainWindow &w = f.open(QStringLiteral("overview"));
        auto *shortcut = w.findChild<QAction *>(QStringLiteral("commandPaletteAction"));
        QVERIFY(shortcut);
        QCOMPARE(shortcut->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_K));
        shortcut->trigger();
        auto *palette = w.findChild<CommandPalette *>(QStringLiteral("commandPalette"));
        QVERIFY(palette && palette->isVisible());
        QVERIFY(!palette->field()->accessibleName().isEmpty() && !palette->list()->accessibleName().isEmpty());
        const QStringList all = palette->shownCommands();
        QVERIFY(all.contains(QStringLiteral("Go to Webhooks")));
        QVERIFY(all.contains(QStringLiteral("Webhooks ▸ Delivery actions: Redeliver")));
        QVERIFY(all.contains(QStringLiteral("Notifications: Show trace")));
        QVERIFY(all.contains(QStringLiteral("Notifications ▸ Notification actions: Show trace")));
        QVERIFY(all.contains(QStringLiteral("Connection ▸ Connect to an instance…")));
        QVERIFY(all.contains(QStringLiteral("Help ▸ About Switchyard")));
        QVERIFY(!all.contains(QStringLiteral("View ▸ Command palette…"))); // not itself
        const auto row = [&](const QString &text) {
            return palette->list()->findItems(text, Qt::MatchExactly, CommandPalette::Command).value(0);
        };
        QCOMPARE(row(QStringLiteral("Go to Overview"))->text(CommandPalette::Shortcut),
                 QKeySequence(Qt::CTRL | Qt::Key_1).toString(QKeySequence::NativeText));
        QCOMPARE(row(QStringLiteral("Connection ▸ Connect to an instance…"))->text(CommandPalette::Shortcut),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O).toString(QKeySequence::NativeText));

        // Typing filters: a substring, or the letters in order.
        QTest::keyClicks(palette->field(), QStringLiteral("rdlvr"));
        QVERIFY(!palette->shownCommands().isEmpty());
        for (const QString &shown : palette->shownCommands())
            QVERIFY2(CommandPalette::score(shown, QStringLiteral("rdlvr")) >= 0, qPrintable(shown));
        QVERIFY(palette->shownCommands().contains(QStringLiteral("Webhooks ▸ Delivery actions: Redeliver")));
        QCOMPARE(CommandPalette::score(QStringLiteral("Go to Cron"), QStringLiteral("xyz")), -1);

        // A disabled action (no delivery selected): greyed, and Enter refuses it.
        palette->field()->setText(QStringLiteral("webhooks redeliver"));
        QTreeWidgetItem *redeliver = row(QStringLiteral("Webhooks ▸ Delivery actions: Redeliver"));
        QVERIFY(redeliver && !(redeliver->flags() & Qt::ItemIsEnabled));
        QSignalSpy redelivered(w.page<WebhooksPage>(QStringLiteral("webhooks"))->redeliverAction(), &QAction::triggered);
        palette->list()->setCurrentItem(redeliver);
        QVERIFY(palette->list()->currentItem() == nullptr); // a greyed command cannot be chosen
        QTest::keyClick(palette->field(), Qt::Key_Return);
        QCOMPARE(redelivered.count(), 0);
        QVERIFY(palette->isVisible());
        QVERIFY(palette->findChild<QLabel *>(QStringLiteral("paletteHint"))->text().contains(QStringLiteral("not available")));

        // An enabled page action, run with Enter: on its page.
        QAction *follow = w.page<NotificationsPage>(QStringLiteral("notifications"))->followAction();
        QVERIFY(follow->isChecked());
        palette->field()->setText(QStringLiteral("notifications follow"));
        QCOMPARE(palette->list()->currentItem()->text(CommandPalette::Command), QStringLiteral("Notifications: Follow (on)"));
        QTest::keyClick(palette->field(), Qt::Key_Return);
        QVERIFY(!palette->isVisible());
        QVERIFY(!follow->isChecked());
        QCOMPARE(w.currentPage()->id(), QStringLiteral("notifications"));

        // A page, chosen with the arrow keys.
        shortcut->trigger();
        QVERIFY(palette->isVisible() && palette->field()->text().isEmpty());
        QTest::keyClicks(palette->field(), QStringLiteral("go to"));
        QCOMPARE(palette->list()->currentItem()->text(CommandPalette::Command), QStringLiteral("Go to Overview"));
        QTest::keyClick(palette->field(), Qt::Key_Down);
        QTest::keyClick(palette->field(), Qt::Key_Down);
        QCOMPARE(palette->list()->currentItem()->text(CommandPalette::Command), QStringLiteral("Go to Cron"));
        QTest::keyClick(palette->field(), Qt::Key_Enter);
        QCOMPARE(w.currentPage()->id(), QStringLiteral("cron"));

        // Esc closes without running anything.
        shortcut->trigger();
        QVERIFY(palette->isVisible());
        QTest::keyClick(palette->field(), Qt::Key_Escape);
        QVERIFY(!palette->isVisible());
        QCOMPARE(w.currentPage()->id(), QStringLiteral("cron"));
    }
};

QTEST_MAIN(TestConsoleTools)
#include "tst_consoletools.moc"
