#pragma once

#include "page.h"

#include "admin/admintypes.h"

#include <QTimer>

namespace Ui {
class OverviewPage;
}

class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace Switchyard::Console {

class Card;
class EventTryout;
class IntakeBox;
class HistoryChart;

// Overview: the instance (id, version, uptime, config, data, backends), headline cards for
// queues, cron, locks and cache — each a link to its page with a filter — the latest self-check,
// the mailer (its settings, what it sent, a test mail) and the most recent notices.
class OverviewPage final : public Page
{
    Q_OBJECT
public:
    explicit OverviewPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);
    ~OverviewPage() override;

    void refresh() override;
    void setActive(bool active) override;

    const Admin::InstanceInfo &instance() const { return m_instance; }
    int selfCheckRows() const;
    // The "how work arrives" box: the URL and secret to paste into a forge, test events.
    IntakeBox *intake() const { return m_intake; }
    EventTryout *tryout() const { return m_tryout; }
    QString webhookUrl() const;
    HistoryChart *history() const { return m_history; }
    const Admin::MailInfo &mailInfo() const { return m_mail; }
    QPushButton *mailTestButton() const;

Q_SIGNALS:
    // "Use port N" (the embedded API could not listen): handled by the window, which owns it.
    void usePort(quint16 port);

private:
    void onEvent(const Admin::AdminEvent &event);
    void runSelfCheck();
    void showCron(); // the Cron card from m_cronRows
    void pollCards(); // locks and cache, which the stream does not carry
    void showInstance();
    void addNotice(const Admin::NoticeRow &notice, bool atTop);
    void showOnboarding(bool noEvents);
    void loadHistory();
    void loadMail();
    void showMail();
    void askForTestMail();
    void sendTestMail(const QString &to);

    Ui::OverviewPage *m_ui;
    EventTryout *m_tryout;
    IntakeBox *m_intake;
    Card *m_queues;
    Card *m_cron;
    Card *m_locks;
    Card *m_cache;
    HistoryChart *m_history;
    int m_historyTicks = 0; // pollCards() calls since the history was read
    Admin::InstanceInfo m_instance;
    bool m_haveInstance = false;
    QHash<QString, Admin::CronRow> m_cronRows;
    QTimer m_poll;
    qint64 m_lastHandled = -1;
    QDateTime m_lastHandledAt;
    bool m_selfCheckRun = false;
    Admin::MailInfo m_mail;
    bool m_haveMail = false;
    bool m_sendingTestMail = false;
};

} // namespace Switchyard::Console
