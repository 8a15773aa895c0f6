#include "connectdialog.h"

#include "widgets/statuscolors.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QUrl>

namespace Switchyard::Console {

ConnectDialog::ConnectDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("connectDialog"));
    setWindowTitle(tr("Connect to an instance"));
    auto *form = new QFormLayout(this);
    auto *intro = new QLabel(tr("Open a Switchyard daemon's admin API. Tokens are made with "
                                "<code>switchyardctl token create NAME --role admin|read-only</code> on its machine."),
                             this);
    intro->setWordWrap(true);
    form->addRow(intro);
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("production"));
    form->addRow(tr("&Name:"), m_name);
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(QStringLiteral("https://forge.example.org:3300/api/v1"));
    form->addRow(tr("&URL:"), m_url);
    m_token = new QLineEdit(this);
    m_token->setObjectName(QStringLiteral("tokenEdit"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(QStringLiteral("sy_…"));
    form->addRow(tr("&Token:"), m_token);
    auto *caRow = new QHBoxLayout;
    m_ca = new QLineEdit(this);
    m_ca->setObjectName(QStringLiteral("caEdit"));
    m_ca->setPlaceholderText(tr("only for a self-signed certificate"));
    auto *browse = new QToolButton(this);
    browse->setText(tr("…"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("CA certificate"), QString(), tr("PEM certificates (*.pem *.crt)"));
        if (!file.isEmpty())
            m_ca->setText(file);
    });
    caRow->addWidget(m_ca, 1);
    caRow->addWidget(browse);
    form->addRow(tr("&CA certificate:"), caRow);
    m_remember = new QCheckBox(tr("&Remember this instance (the token goes to the system keychain)"), this);
    m_remember->setObjectName(QStringLiteral("rememberBox"));
    m_remember->setChecked(true);
    form->addRow(m_remember);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    QPalette palette = m_problem->palette();
    palette.setColor(QPalette::WindowText, statusColor(StatusColor::Error));
    m_problem->setPalette(palette);
    form->addRow(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(m_buttons);
    for (QLineEdit *edit : {m_name, m_url, m_token, m_ca})
        connect(edit, &QLineEdit::textChanged, this, &ConnectDialog::validate);
    validate();
    resize(520, sizeHint().height());
}

void ConnectDialog::setName(const QString &name)
{
    m_name->setText(name);
}

void ConnectDialog::setUrl(const QString &url)
{
    m_url->setText(url);
}

void ConnectDialog::setCaFile(const QString &path)
{
    m_ca->setText(path);
}

QString ConnectDialog::name() const
{
    return m_name->text().trimmed().isEmpty() ? url().host() : m_name->text().trimmed();
}

QUrl ConnectDialog::url() const
{
    return QUrl::fromUserInput(m_url->text().trimmed());
}

QByteArray ConnectDialog::token() const
{
    return m_token->text().trimmed().toLatin1();
}

QString ConnectDialog::caFile() const
{
    return m_ca->text().trimmed();
}

bool ConnectDialog::remember() const
{
    return m_remember->isChecked();
}

void ConnectDialog::validate()
{
    QString problem;
    const QUrl u = url();
    if (m_url->text().trimmed().isEmpty())
        problem = tr("Enter the instance's URL.");
    else if (!u.isValid() || u.host().isEmpty() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")))
        problem = tr("The URL must be http:// or https:// with a host, e.g. https://forge.example.org:3300/api/v1.");
    else if (m_token->text().trimmed().isEmpty())
        problem = tr("Enter a token for this instance.");
    else if (!caFile().isEmpty() && !QFile::exists(caFile()))
        problem = tr("The CA certificate file does not exist.");
    else if (u.scheme() == QLatin1String("http") && u.host() != QLatin1String("127.0.0.1") && u.host() != QLatin1String("localhost")
             && u.host() != QLatin1String("::1"))
        problem = tr("Note: plain http to another machine sends the token in clear text.");
    m_problem->setText(problem);
    const bool blocking = !problem.isEmpty() && !problem.startsWith(tr("Note:"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!blocking);
}

} // namespace Switchyard::Console
