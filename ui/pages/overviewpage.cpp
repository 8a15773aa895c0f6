#include "overviewpage.h"

#include "widgets/statuscolors.h"

#include "admin/ops/cacheops.h"
#include "admin/ops/cronops.h"
#include "admin/ops/eventops.h"
#include "admin/ops/instanceops.h"
#include "admin/ops/lockops.h"
#include "admin/ops/mailops.h"
#include "admin/ops/queueops.h"

#include "eventsender.h"
#include "intakebox.h"
#include "models/cronmodel.h"
#include "ui_overviewpage.h"
#include "widgets/format.h"
#include "widgets/historychart.h"
#include "widgets/icons.h"

#include <QClipboard>
#include <QCoreApplication>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QVBoxLayout>

namespace Switchyard::Console {

// A headline number with a caption; clicking it opens `pageId` with `filter`.
class Card final : public QFrame
{
    Q_DECLARE_TR_FUNCTIONS(Card)

public:
    Card(const QString &title, const QString &pageId, QWidget *parent) : QFrame(parent), m_pageId(pageId)
    {
        setObjectName(QStringLiteral("card_") + pageId);
        setFrameShape(QFrame::StyledPanel);
        setCursor(Qt::PointingHandCursor);
        setAccessibleName(title);
        setToolTip(tr("Open %1").arg(title));
        auto *layout = new QVBoxLayout(this);
        auto *caption = new QLabel(title, this);
        QFont small = caption->font();
        small.setBold(true);
        caption->setFont(small);
        m_value = new QLabel(QStringLiteral("—"), this);
        QFont big = m_value->font();
        big.setPointSizeF(big.pointSizeF() * 1.9);
        m_value->setFont(big);
        m_detail = new QLabel(this);
        m_detail->setWordWrap(true);
        layout->addWidget(caption);
        layout->addWidget(m_value);
        layout->addWidget(m_detail, 1, Qt::AlignTop);
        setMinimumHeight(110);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    }

    void set(const QString &value, const QString &detail, const QColor &color = QColor())
    {
        m_value->setText(value);
        m_detail->setText(detail);
        QPalette palette = m_value->palette();
        palette.setColor(QPalette::WindowText, color.isValid() ? color : this->palette().color(QPalette::WindowText));
        m_value->setPalette(palette);
    }
    void setFilter(const QString &filter) { m_filter = filter; }
    std::function<void(const QString &, const QString &)> onClick;

    QString valueText() const { return m_value->text(); }

protected:
    void mouseReleaseEvent(QMouseEvent *event) override
    {
        if (event->button() == Qt::LeftButton && onClick)
            onClick(m_pageId, m_filter);
    }

private:
    QString m_pageId;
    QString m_filter;
    QLabel *m_value;
    QLabel *m_detail;
};

OverviewPage::OverviewPage(Admin::AdminBackend &backend, QWidget *parent) : Page(backend, parent), m_ui(new Ui::OverviewPage)
{
    m_ui->setupUi(this);
    m_queues = new Card(tr("Queues"), QStringLiteral("queues"), this);
    m_cron = new Card(tr("Cron"), QStringLiteral("cron"), this);
    m_locks = new Card(tr("Locks"), QStringLiteral("locks"), this);
    m_cache = new Card(tr("Cache"), QStringLiteral("cache"), this);
    for (Card *card : {m_queues, m_cron, m_locks, m_cache}) {
        card->onClick = [this](const QString &page, const QString &filter) { Q_EMIT navigate(page, filter); };
        m_ui->cardsLayout->addWidget(card, 1);
    }
    // A newcomer's first question: how does work get here? (and how to try it without a forge)
    m_tryout = new EventTryout(backend, this, [this](bool ok, const QString &message, const QString &detail) {
        if (ok)
            Q_EMIT operationSucceeded(message);
        else
            Q_EMIT operationFailed(message, detail);
    });
    m_intake = new IntakeBox(backend, *m_tryout, this);
    connect(m_intake, &IntakeBox::copied, this, [this](const QString &what) { Q_EMIT operationSucceeded(tr("Copied %1").arg(what)); });
    connect(m_intake, &IntakeBox::usePort, this, &OverviewPage::usePort);
    m_ui->pageLayout->insertWidget(2, m_intake);
    // Processed and failed over time, under the cards (the history every queue dashboard opens with).
    auto *historyBox = new QGroupBox(tr("Processed and failed"), this);
    historyBox->setObjectName(QStringLiteral("historyBox"));
    auto *historyLayout = new QVBoxLayout(historyBox);
    m_history = new HistoryChart(historyBox);
    historyLayout->addWidget(m_history);
    m_ui->pageLayout->insertWidget(3, historyBox, 1);
    connect(m_history, &HistoryChart::selectionChanged, this, &OverviewPage::loadHistory);
    m_ui->pageLayout->setStretch(4, 1); // the chart, the self-check and the notices take the height, not the cards
    // The message takes the width left; the time stays readable without a horizontal scroll bar.
    QHeaderView *checks = m_ui->selfCheckTree->header();
    checks->resizeSection(0, 90);
    checks->setStretchLastSection(false);
    checks->setSectionResizeMode(1, QHeaderView::Stretch);
    checks->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    connect(m_ui->selfCheckButton, &QPushButton::clicked, this, &OverviewPage::runSelfCheck);
    connect(m_ui->mailTestButton, &QPushButton::clicked, this, &OverviewPage::askForTestMail);
    connect(&backend, &Admin::AdminBackend::stateChanged, this, [this] { showMail(); }); // read-only or not
    for (QLabel *caption : {m_ui->mailProtocolCaption, m_ui->mailServerCaption, m_ui->mailFromCaption, m_ui->mailNotifyCaption,
                            m_ui->mailTotalsCaption, m_ui->mailLastErrorCaption}) {
        QFont bold = caption->font();
        bold.setBold(true);
        caption->setFont(bold);
    }
    // Each value is named by its caption for a screen reader.
    m_ui->mailProtocol->setAccessibleName(tr("Mail protocol"));
    m_ui->mailServer->setAccessibleName(tr("Mail server"));
    m_ui->mailFrom->setAccessibleName(tr("Mail sender"));
    m_ui->mailNotify->setAccessibleName(tr("Mail notifications"));
    m_ui->mailTotals->setAccessibleName(tr("Mail sent and failed since start"));
    m_ui->mailLastError->setAccessibleName(tr("Last mail error"));
    m_ui->mailLastError->setTextFormat(Qt::PlainText); // an SMTP server's words
    showMail();
    // Long notices wrap to the list's width instead of scrolling it sideways (tooltip: all of it).
    m_ui->noticesList->setWordWrap(true);
    m_ui->noticesList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(m_ui->noticesList, &QListWidget::itemActivated, this, [this] { Q_EMIT navigate(QStringLiteral("notices"), QString()); });
    connect(&backend, &Admin::AdminBackend::event, this, &OverviewPage::onEvent);
    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &OverviewPage::pollCards);
    setActive(false);
}

OverviewPage::~OverviewPage()
{
    delete m_ui;
}


int OverviewPage::selfCheckRows() const
{
    return m_ui->selfCheckTree->topLevelItemCount();
}

void OverviewPage::setActive(bool active)
{
    Page::setActive(active);
    if (active)
        m_poll.start();
    else
        m_poll.stop();
}

QString OverviewPage::webhookUrl() const
{
    return m_intake->eventUrl();
}

void OverviewPage::showOnboarding(bool noEvents)
{
    m_intake->setFirstEventSeen(!noEvents);
}

void OverviewPage::refresh()
{
    single(QStringLiteral("events"), [=, this](const Done &done) {
        backend().call(Admin::Ops::eventList, {1, 1, {}, {}, {}, {}}, this, [this, done](Result<Admin::Page<EventRecord>> page) {
            done();
            if (page)
                showOnboarding(page->total == 0);
        });
    });
    single(QStringLiteral("instance"), [=, this](const Done &done) {
        backend().call(Admin::Ops::instance, {}, this, [this, done](Result<Admin::InstanceInfo> info) {
            done();
            if (!info) {
                m_ui->instanceLabel->setText(tr("Instance information unavailable: %1").arg(info.status().message().toHtmlEscaped()));
                return;
            }
            m_instance = *info;
            m_haveInstance = true;
            showInstance();
            Q_EMIT instanceChanged(m_instance);
        });
    });
    single(QStringLiteral("notices"), [=, this](const Done &done) {
        backend().call(Admin::Ops::noticeList, {}, this, [this, done](Result<std::vector<Admin::NoticeRow>> notices) {
            done();
            if (!notices)
                return;
            m_ui->noticesList->clear();
            for (std::size_t i = 0; i < notices->size() && i < 12; ++i)
                addNotice((*notices)[i], false);
            if (notices->empty())
                m_ui->noticesList->addItem(tr("No notices: nothing needs your attention."));
        });
    });
    single(QStringLiteral("cronTasks"), [=, this](const Done &done) {
        backend().call(Admin::Ops::cronList, {}, this, [this, done](Result<std::vector<Admin::CronRow>> rows) {
            done();
            if (!rows)
                return;
            m_cronRows.clear();
            for (const Admin::CronRow &row : *rows)
                m_cronRows.insert(row.name, row);
            showCron(); // once for the list, not once per task (100 tasks: 100 × 100 rows, tens of ms)
        });
    });
    // The self-check is a diagnostic (it writes and deletes a cache key): run on the first read and
    // by its button, never again by a refresh (a flapping connection would run it on every reconnect).
    if (!m_selfCheckRun) {
        m_selfCheckRun = true;
        runSelfCheck();
    }
    pollCards(); // the cards' numbers come in once even before the page is shown
    loadHistory();
    loadMail();
}

QPushButton *OverviewPage::mailTestButton() const
{
    return m_ui->mailTestButton;
}

void OverviewPage::loadMail()
{
    single(QStringLiteral("mail"), [=, this](const Done &done) {
        backend().call(Admin::Ops::mailInfo, {}, this, [this, done](Result<Admin::MailInfo> info) {
            done();
            if (!info) {
                m_haveMail = false;
                m_ui->mailProtocol->setText(tr("unknown"));
                m_ui->mailLastError->setText(info.status().message());
                showMail();
                return;
            }
            m_mail = *info;
            m_haveMail = true;
            showMail();
        });
    });
}

void OverviewPage::showMail()
{
    const bool may = backend().canMutate();
    m_ui->mailTestButton->setEnabled(m_haveMail && m_mail.enabled && may && !m_sendingTestMail);
    m_ui->mailTestButton->setToolTip(!may               ? tr("Read-only connection: a test mail needs an admin token")
                                     : !m_haveMail      ? QString()
                                     : !m_mail.enabled  ? tr("The mailer is off: set [mailer] ENABLED = true in app.ini")
                                                        : tr("Send one mail with these settings to an address you choose"));
    if (!m_haveMail)
        return;
    if (!m_mail.enabled) {
        m_ui->mailProtocol->setText(tr("off"));
        m_ui->mailServer->setText(tr("—"));
        m_ui->mailFrom->setText(m_mail.from.isEmpty() ? tr("—") : m_mail.from);
        m_ui->mailNotify->setText(tr("off ([mailer] ENABLED = false)"));
    } else {
        m_ui->mailProtocol->setText(m_mail.protocol + (m_mail.authenticated ? tr(", with a login") : QString()));
        m_ui->mailServer->setText(m_mail.host.isEmpty() ? tr("— (logs only)")
                                  : m_mail.port > 0     ? QStringLiteral("%1:%2").arg(m_mail.host).arg(m_mail.port)
                                                        : m_mail.host);
        m_ui->mailFrom->setText(m_mail.from);
        m_ui->mailNotify->setText(m_mail.notify ? tr("on: forge events are mailed")
                                                : tr("off: test mail only ([service] ENABLE_NOTIFY_MAIL)"));
    }
    m_ui->mailTotals->setText(tr("%1 sent · %2 failed · %3 queued")
                                  .arg(formatCount(m_mail.sentTotal), formatCount(m_mail.failedTotal), formatCount(m_mail.queuedTotal)));
    QPalette palette = m_ui->mailTotals->palette();
    palette.setColor(QPalette::WindowText, m_mail.failedTotal > 0 ? statusColor(StatusColor::Error) : this->palette().color(QPalette::WindowText));
    m_ui->mailTotals->setPalette(palette);
    // One line (the box is short): the time and the error's start; all of it in the tooltip.
    const QString error = m_mail.lastError.simplified();
    m_ui->mailLastError->setText(error.isEmpty() ? tr("none")
                                                 : tr("%1 — %2").arg(formatTime(m_mail.lastErrorAt).section(u' ', -1),
                                                                     error.size() > 48 ? error.left(47) + u'…' : error));
    m_ui->mailLastError->setToolTip(m_mail.lastError);
}

void OverviewPage::askForTestMail()
{
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("testMail"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Send test mail"));
    dialog->setLabelText(tr("Send a test mail through %1 to:").arg(m_mail.host.isEmpty() ? m_mail.protocol : m_mail.host));
    dialog->setInputMode(QInputDialog::TextInput);
    dialog->setOkButtonText(tr("Send"));
    connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString &to) { sendTestMail(to.trimmed()); });
    dialog->open();
}

void OverviewPage::sendTestMail(const QString &to)
{
    m_sendingTestMail = true;
    showMail();
    Q_EMIT operationSucceeded(tr("Sending a test mail to %1…").arg(to));
    backend().call(Admin::Ops::mailTest, {to}, this, [this, to](Result<Admin::MailTestResult> sent) {
        m_sendingTestMail = false;
        showMail();
        if (!sent)
            reportFailure(tr("Sending a test mail to %1").arg(to), sent.status());
        else if (!sent->ok)
            reportFailure(tr("Sending a test mail to %1").arg(to), Status::unavailable(sent->error));
        else
            Q_EMIT operationSucceeded(tr("Test mail sent to %1").arg(to));
        loadMail();
    });
}

void OverviewPage::loadHistory()
{
    m_historyTicks = 0;
    const qint64 qid = m_history->qid();
    const HistoryResolution resolution = m_history->resolution();
    single(QStringLiteral("history"), [=, this](const Done &done) {
        backend().call(Admin::Ops::queueHistory, {qid, historyResolutionName(resolution)}, this,
                       [this, qid, resolution, done](Result<std::vector<HistoryBucket>> buckets) {
                           done();
                           if (qid != m_history->qid() || resolution != m_history->resolution())
                               return; // the operator chose another while this was on its way
                           if (!buckets)
                               m_history->setError(buckets.status().message());
                           else
                               m_history->setBuckets(*buckets);
                       });
    });
}

void OverviewPage::pollCards()
{
    showInstance();
    // The engine records the history every 10 s: reading it more often shows nothing new.
    if (++m_historyTicks >= 10)
        loadHistory();
    if (m_historyTicks % 5 == 0)
        loadMail(); // what it sent moves with the queue; every 5 s is enough
    single(QStringLiteral("locks"), [=, this](const Done &done) {
        backend().call(Admin::Ops::lockList, {}, this, [this, done](Result<std::vector<Admin::LockRow>> locks) {
            done();
            if (!locks) {
                m_locks->set(QStringLiteral("?"), locks.status().message(), statusColor(StatusColor::Error));
                return;
            }
            int ours = 0;
            for (const Admin::LockRow &row : *locks)
                ours += row.owner == m_instance.instanceId ? 1 : 0;
            m_locks->set(formatCount(qint64(locks->size())), tr("held, %1 by this instance").arg(ours));
        });
    });
    single(QStringLiteral("cacheStats"), [=, this](const Done &done) {
        backend().call(Admin::Ops::cacheStats, {}, this, [this, done](Result<CacheStats> stats) {
            done();
            if (!stats)
                return;
            const qint64 lookups = stats->hits + stats->misses;
            m_cache->set(lookups ? QStringLiteral("%1 %").arg(QLocale().toString(100.0 * double(stats->hits) / double(lookups), 'f', 1))
                                 : QStringLiteral("—"),
                         tr("hit ratio · %1 · p99 %2 ms").arg(stats->adapter, QLocale().toString(stats->latencyP99Ms, 'f', 2)));
        });
    });
}

void OverviewPage::showInstance()
{
    if (!m_haveInstance)
        return;
    const qint64 uptime = m_instance.startedAt.msecsTo(QDateTime::currentDateTimeUtc());
    QStringList queues;
    for (auto it = m_instance.queueTypes.constBegin(); it != m_instance.queueTypes.constEnd(); ++it)
        queues << QStringLiteral("%1: %2").arg(it.key(), it.value());
    // An older daemon sends neither the schema version nor the location.
    const QString database = m_instance.dbSchemaVersion > 0
                                 ? tr("%1 (schema %2)").arg(m_instance.dbType).arg(m_instance.dbSchemaVersion)
                                 : m_instance.dbType;
    m_ui->instanceLabel->setToolTip(m_instance.dbLocation.isEmpty() ? QString() : tr("Database: %1").arg(m_instance.dbLocation));
    m_ui->instanceLabel->setText(
        tr("<span style='font-size:large'><b>%1</b></span> &nbsp; Switchyard %2 · up %3<br>"
           "<b>Config</b> %4 · <b>Data</b> %5<br>"
           "<b>Queues</b> %6 · <b>Cache</b> %7 · <b>Locks</b> %8 · <b>Database</b> %9 · <b>Pub/sub</b> %10")
            .arg(m_instance.instanceId.toHtmlEscaped(), m_instance.version.toHtmlEscaped(), formatDuration((uptime / 1000) * 1000),
                 m_instance.configPath.isEmpty() ? tr("embedded defaults") : m_instance.configPath.toHtmlEscaped(),
                 m_instance.dataPath.toHtmlEscaped(), queues.join(QStringLiteral(", ")).toHtmlEscaped(),
                 m_instance.cacheAdapter.toHtmlEscaped(), m_instance.lockService.toHtmlEscaped(), database.toHtmlEscaped())
            .arg(m_instance.pubsubType.toHtmlEscaped()));
}

void OverviewPage::addNotice(const Admin::NoticeRow &notice, bool atTop)
{
    const QString text = QStringLiteral("%1  [%2]  %3").arg(formatTime(notice.createdAt), notice.type,
                                                            notice.description.section(QLatin1Char('\n'), 0, 0));
    auto *item = new QListWidgetItem(text);
    item->setToolTip(notice.description);
    if (atTop) {
        if (m_ui->noticesList->count() == 1 && !m_ui->noticesList->item(0)->toolTip().size())
            delete m_ui->noticesList->takeItem(0);
        m_ui->noticesList->insertItem(0, item);
        while (m_ui->noticesList->count() > 12)
            delete m_ui->noticesList->takeItem(m_ui->noticesList->count() - 1);
    } else {
        m_ui->noticesList->addItem(item);
    }
}

void OverviewPage::onEvent(const Admin::AdminEvent &event)
{
    switch (event.type) {
        case Admin::AdminEvent::Type::QueueStats: {
            qint64 length = 0, handled = 0;
            int failing = 0, paused = 0;
            for (const Admin::QueueRow &row : event.queues) {
                length += std::max<qint64>(row.length, 0);
                handled += row.handledTotal;
                failing += row.failedTotal > 0 ? 1 : 0;
                paused += row.paused ? 1 : 0;
            }
            const QDateTime now = QDateTime::currentDateTimeUtc();
            double rate = 0;
            if (m_lastHandled >= 0 && m_lastHandledAt.msecsTo(now) > 0)
                rate = double(handled - m_lastHandled) * 1000.0 / double(m_lastHandledAt.msecsTo(now));
            m_lastHandled = handled;
            m_lastHandledAt = now;
            m_queues->set(formatCount(length),
                          tr("waiting in %1 queues · %2 items/s · %3 with failures · %4 paused")
                              .arg(event.queues.size())
                              .arg(QLocale().toString(std::max(0.0, rate), 'f', 0))
                              .arg(failing)
                              .arg(paused),
                          paused ? statusColor(StatusColor::Paused) : QColor());
            m_queues->setFilter(paused ? tr("Paused") : QString());
            std::vector<std::pair<qint64, QString>> names;
            for (const Admin::QueueRow &row : event.queues)
                names.emplace_back(row.qid, row.name);
            m_history->setQueues(names);
            break;
        }
        case Admin::AdminEvent::Type::CronStatus:
            m_cronRows.insert(event.cron.name, event.cron);
            showCron();
            break;
        case Admin::AdminEvent::Type::Notice:
            addNotice(event.notice, true);
            break;
        case Admin::AdminEvent::Type::Event:
            showOnboarding(false); // work arrives: the newcomer's box has done its job
            break;
        default:
            break;
    }
}

void OverviewPage::showCron()
{
    int failed = 0, running = 0;
    QDateTime next;
    QString nextTitle;
    for (const Admin::CronRow &row : std::as_const(m_cronRows)) {
        failed += CronModel::stateOf(row) == CronModel::State::Error ? 1 : 0;
        running += row.running ? 1 : 0;
        if (row.next.isValid() && row.enabled && !row.paused && (!next.isValid() || row.next < next)) {
            next = row.next;
            nextTitle = row.title;
        }
    }
    m_cron->set(failed ? tr("%n failing", nullptr, failed) : formatCount(m_cronRows.size()),
                tr("%1 tasks · %2 running<br>next: %3 %4")
                    .arg(m_cronRows.size())
                    .arg(running)
                    .arg(nextTitle.toHtmlEscaped(), formatRelative(next, QDateTime::currentDateTimeUtc())),
                failed ? statusColor(StatusColor::Error) : QColor());
    m_cron->setFilter(failed ? CronModel::stateText(CronModel::State::Error) : QString());
}

void OverviewPage::runSelfCheck()
{
    m_ui->selfCheckButton->setEnabled(false);
    single(QStringLiteral("selfCheck"), [=, this](const Done &done) {
        backend().call(Admin::Ops::selfCheck, {}, this, [this, done](Result<std::vector<Admin::SelfCheckItem>> items) {
            done();
            m_ui->selfCheckButton->setEnabled(true);
            m_ui->selfCheckTree->clear();
            if (!items) {
                auto *item = new QTreeWidgetItem({tr("self-check"), items.status().message(), QString()});
                item->setIcon(0, Icons::state(statusColor(StatusColor::Error)));
                m_ui->selfCheckTree->addTopLevelItem(item);
                return;
            }
            for (const Admin::SelfCheckItem &check : *items) {
                auto *item = new QTreeWidgetItem({check.name, check.message, tr("%1 ms").arg(check.elapsedMs)});
                item->setIcon(0, Icons::state(check.ok ? statusColor(StatusColor::Ok) : statusColor(StatusColor::Error)));
                item->setToolTip(1, check.message);
                m_ui->selfCheckTree->addTopLevelItem(item);
            }
        });
    });
}

} // namespace Switchyard::Console
