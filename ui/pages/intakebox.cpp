#include "intakebox.h"

#include "eventsender.h"
#include "widgets/statuscolors.h"

#include <QAction>
#include <QClipboard>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace Switchyard::Console {

namespace {

QPushButton *button(const QString &text, const QString &accessible, const QString &name, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setAccessibleName(accessible);
    b->setObjectName(name);
    return b;
}

} // namespace

IntakeBox::IntakeBox(Admin::AdminBackend &backend, EventTryout &tryout, QWidget *parent)
    : QGroupBox(tr("Receiving events"), parent), m_backend(backend)
{
    setObjectName(QStringLiteral("intake"));
    auto *layout = new QVBoxLayout(this);
    // The hint, and beside it the two ways to try it (one row: the Overview must fit 1280 × 800).
    auto *top = new QHBoxLayout;
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("intakeHint"));
    m_hint->setWordWrap(true);
    m_hint->setTextFormat(Qt::RichText);
    top->addWidget(m_hint, 1);
    layout->addLayout(top);

    auto *grid = new QGridLayout;
    auto *urlCaption = new QLabel(tr("URL:"), this);
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("eventUrl"));
    m_url->setReadOnly(true);
    m_url->setAccessibleName(tr("The URL to give a Gitea or GitHub webhook"));
    urlCaption->setBuddy(m_url);
    m_copyUrl = button(tr("Copy URL"), tr("Copy the webhook URL to the clipboard"), QStringLiteral("copyEventUrl"), this);
    grid->addWidget(urlCaption, 0, 0);
    grid->addWidget(m_url, 0, 1);
    grid->addWidget(m_copyUrl, 0, 2);
    m_secretCaption = new QLabel(tr("Secret:"), this);
    m_secret = new QLineEdit(this);
    m_secret->setObjectName(QStringLiteral("eventSecret"));
    m_secret->setReadOnly(true);
    m_secret->setEchoMode(QLineEdit::Password);
    m_secret->setAccessibleName(tr("The webhook secret, hidden"));
    m_secretCaption->setBuddy(m_secret);
    m_showSecret = button(tr("Show"), tr("Show or hide the webhook secret"), QStringLiteral("showEventSecret"), this);
    m_showSecret->setCheckable(true);
    m_copySecret = button(tr("Copy secret"), tr("Copy the webhook secret to the clipboard"), QStringLiteral("copyEventSecret"), this);
    auto *secretButtons = new QHBoxLayout;
    secretButtons->addWidget(m_showSecret);
    secretButtons->addWidget(m_copySecret);
    grid->addWidget(m_secretCaption, 1, 0);
    grid->addWidget(m_secret, 1, 1);
    grid->addLayout(secretButtons, 1, 2);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    auto *problemRow = new QHBoxLayout;
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("endpointProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    QPalette warning = m_problem->palette();
    warning.setColor(QPalette::WindowText, statusColor(StatusColor::Error));
    m_problem->setPalette(warning);
    m_usePort = button(QString(), tr("Listen on a free port instead"), QStringLiteral("usePort"), this);
    problemRow->addWidget(m_problem, 1);
    problemRow->addWidget(m_usePort);
    layout->addLayout(problemRow);

    auto *sendTest = new QToolButton(this);
    sendTest->setDefaultAction(tryout.sendTestAction());
    sendTest->setPopupMode(QToolButton::MenuButtonPopup);
    sendTest->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    sendTest->setAccessibleName(tryout.sendTestAction()->text());
    auto *sendFile = new QToolButton(this);
    sendFile->setDefaultAction(tryout.sendFileAction());
    sendFile->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    sendFile->setAccessibleName(tryout.sendFileAction()->text());
    top->addWidget(sendTest, 0, Qt::AlignTop);
    top->addWidget(sendFile, 0, Qt::AlignTop);
    // Tab goes as the eye does: the buttons beside the hint, then the URL row, the secret row.
    setTabOrder(sendTest, sendFile);
    setTabOrder(sendFile, m_url);
    setTabOrder(m_url, m_copyUrl);
    setTabOrder(m_copyUrl, m_secret);
    setTabOrder(m_secret, m_showSecret);
    setTabOrder(m_showSecret, m_copySecret);
    setTabOrder(m_copySecret, m_usePort);

    connect(m_copyUrl, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_url->text());
        Q_EMIT copied(m_url->text());
    });
    connect(m_showSecret, &QPushButton::toggled, this, [this](bool shown) {
        m_secret->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
        m_showSecret->setText(shown ? tr("Hide") : tr("Show"));
        m_secret->setAccessibleName(shown ? tr("The webhook secret") : tr("The webhook secret, hidden"));
    });
    connect(m_copySecret, &QPushButton::clicked, this, [this] {
        auto *data = new QMimeData;
        data->setText(m_secret->text());
        data->setData(QStringLiteral("x-kde-passwordManagerHint"), QByteArrayLiteral("secret")); // not kept by clipboard managers
        QGuiApplication::clipboard()->setMimeData(data);
        Q_EMIT copied(tr("the secret"));
    });
    connect(m_usePort, &QPushButton::clicked, this, [this] { Q_EMIT usePort(m_suggestedPort); });
    connect(&backend, &Admin::AdminBackend::endpointChanged, this, &IntakeBox::update);
    connect(&backend, &Admin::AdminBackend::stateChanged, this, &IntakeBox::update);
    update();
}

QString IntakeBox::eventUrl() const
{
    const QUrl api = m_backend.apiUrl();
    if (api.isEmpty())
        return QStringLiteral("http://HOST:3300/api/v1/events?source=default");
    return api.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash) + QStringLiteral("/events?source=default");
}

void IntakeBox::setFirstEventSeen(bool seen)
{
    m_firstEventSeen = seen;
    update();
}

void IntakeBox::setSuggestedPort(quint16 port)
{
    m_suggestedPort = port;
    update();
}

void IntakeBox::update()
{
    const QByteArray secret = m_backend.eventSourceSecret(QStringLiteral("default"));
    const QString problem = m_backend.endpointProblem();
    m_url->setText(eventUrl());
    m_url->setEnabled(!m_backend.apiUrl().isEmpty());
    m_copyUrl->setEnabled(!m_backend.apiUrl().isEmpty());
    m_secret->setText(QString::fromUtf8(secret));
    for (QWidget *w : std::initializer_list<QWidget *>{m_secretCaption, m_secret, m_showSecret, m_copySecret})
        w->setVisible(!secret.isEmpty());
    m_problem->setText(problem.isEmpty() ? QString() : tr("Forges cannot reach this engine: %1").arg(problem));
    m_problem->setVisible(!problem.isEmpty());
    m_usePort->setText(tr("Use port %1").arg(m_suggestedPort));
    m_usePort->setVisible(!problem.isEmpty() && m_suggestedPort != 0);

    // One paragraph: what to paste where, who can reach it, and what to do while nothing came.
    QString hint = secret.isEmpty() ? tr("Forges post their webhooks to this URL (content type <code>application/json</code>), signed "
                                         "with the secret set as <code>[event_source.default] SECRET</code> on the instance, or with "
                                         "an <code>ingest</code> token.")
                                    : tr("Paste this URL and secret into a Gitea or GitHub webhook (<i>Settings ▸ Webhooks</i>), "
                                         "content type <code>application/json</code>.");
    const QHostAddress host(m_backend.apiUrl().host());
    if (!secret.isEmpty() && host.isLoopback())
        hint += QLatin1Char(' ') + tr("It listens on %1: only a forge on this computer reaches it (<b>Preferences</b>, Ctrl+, to change).")
                                       .arg(host.toString());
    if (!m_firstEventSeen)
        hint += QLatin1Char(' ') + tr("No event has arrived yet: <b>Send test event</b> tries it without a forge.");
    m_hint->setText(hint);
}

} // namespace Switchyard::Console
