#include "hookdialog.h"

#include "ui_hookdialog.h"

#include <QJsonObject>
#include <QPushButton>

namespace Switchyard::Console {

HookDialog::HookDialog(QWidget *parent, const Admin::HookRow *existing) : QDialog(parent), m_ui(new Ui::HookDialog)
{
    m_ui->setupUi(this);
    setObjectName(QStringLiteral("hookDialog"));
    m_ui->scopeCombo->addItem(tr("a repository"), QStringLiteral("repository"));
    m_ui->scopeCombo->addItem(tr("an organisation"), QStringLiteral("organization"));
    m_ui->scopeCombo->addItem(tr("a user"), QStringLiteral("user"));
    m_ui->scopeCombo->addItem(tr("the whole instance (system)"), QStringLiteral("system"));
    // The types the engine delivers today; the chat channels come with their converters.
    for (const char *type : {"gitea", "gogs"})
        m_ui->typeCombo->addItem(QLatin1String(type), QLatin1String(type));
    for (const char *method : {"POST", "GET"})
        m_ui->methodCombo->addItem(QLatin1String(method), QLatin1String(method));
    m_ui->contentCombo->addItem(tr("JSON (application/json)"), QStringLiteral("json"));
    m_ui->contentCombo->addItem(tr("form (payload=…)"), QStringLiteral("form"));
    for (const QString &event : Admin::hookEventNames()) {
        auto *item = new QListWidgetItem(event, m_ui->eventList);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_ui->errorLabel->hide();
    connect(m_ui->chooseRadio, &QRadioButton::toggled, m_ui->eventList, &QWidget::setEnabled);
    const auto scopeChanged = [this] {
        const bool system = m_ui->scopeCombo->currentData().toString() == QLatin1String("system");
        m_ui->targetSpin->setEnabled(!system && !isEdit());
        m_ui->targetLabel->setEnabled(!system);
    };
    connect(m_ui->scopeCombo, &QComboBox::currentIndexChanged, this, scopeChanged);
    connect(m_ui->buttons, &QDialogButtonBox::accepted, this, &HookDialog::submitted);
    connect(m_ui->buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    if (existing) {
        m_editId = existing->id;
        setWindowTitle(tr("Edit webhook %1").arg(existing->id));
        m_ui->scopeCombo->setCurrentIndex(std::max(0, m_ui->scopeCombo->findData(existing->scope)));
        m_ui->scopeCombo->setEnabled(false);
        m_ui->targetSpin->setValue(int(existing->repoId > 0 ? existing->repoId : existing->ownerId));
        m_ui->urlEdit->setText(existing->url);
        m_ui->nameEdit->setText(existing->name);
        m_ui->typeCombo->setCurrentIndex(std::max(0, m_ui->typeCombo->findData(existing->type)));
        m_ui->methodCombo->setCurrentIndex(std::max(0, m_ui->methodCombo->findData(existing->httpMethod)));
        m_ui->contentCombo->setCurrentIndex(std::max(0, m_ui->contentCombo->findData(existing->contentType)));
        m_ui->secretEdit->setPlaceholderText(existing->hasSecret ? tr("set — leave empty to keep it") : tr("none"));
        m_ui->authEdit->setPlaceholderText(existing->hasAuthorization ? tr("set — leave empty to keep it") : tr("none"));
        m_ui->activeCheck->setChecked(existing->active);
        const QJsonObject events = existing->events.toObject();
        m_ui->branchFilterEdit->setText(events.value(QStringLiteral("branch_filter")).toString());
        if (events.value(QStringLiteral("send_everything")).toBool())
            m_ui->everythingRadio->setChecked(true);
        else if (events.value(QStringLiteral("choose_events")).toBool())
            m_ui->chooseRadio->setChecked(true);
        const QJsonObject chosen = events.value(QStringLiteral("events")).toObject();
        for (int i = 0; i < m_ui->eventList->count(); ++i) {
            QListWidgetItem *item = m_ui->eventList->item(i);
            item->setCheckState(chosen.value(item->text()).toBool() ? Qt::Checked : Qt::Unchecked);
        }
    } else {
        setWindowTitle(tr("Add webhook"));
    }
    m_ui->buttons->button(QDialogButtonBox::Ok)->setText(isEdit() ? tr("Save") : tr("Add"));
    scopeChanged();
}

HookDialog::~HookDialog()
{
    delete m_ui;
}

QJsonObject HookDialog::eventsJson() const
{
    QJsonObject chosen;
    for (int i = 0; i < m_ui->eventList->count(); ++i) {
        const QListWidgetItem *item = m_ui->eventList->item(i);
        if (item->checkState() == Qt::Checked)
            chosen.insert(item->text(), true);
    }
    return {{QStringLiteral("push_only"), m_ui->pushOnlyRadio->isChecked()},
            {QStringLiteral("send_everything"), m_ui->everythingRadio->isChecked()},
            {QStringLiteral("choose_events"), m_ui->chooseRadio->isChecked()},
            {QStringLiteral("branch_filter"), m_ui->branchFilterEdit->text().trimmed()},
            {QStringLiteral("events"), chosen}};
}

Admin::HookCreateArgs HookDialog::createArgs() const
{
    Admin::HookCreateArgs a;
    a.scope = m_ui->scopeCombo->currentData().toString();
    if (a.scope == QLatin1String("repository"))
        a.repoId = m_ui->targetSpin->value();
    else if (a.scope != QLatin1String("system"))
        a.ownerId = m_ui->targetSpin->value();
    a.url = m_ui->urlEdit->text().trimmed();
    a.name = m_ui->nameEdit->text().trimmed();
    a.type = m_ui->typeCombo->currentData().toString();
    a.httpMethod = m_ui->methodCombo->currentData().toString();
    a.contentType = m_ui->contentCombo->currentData().toString();
    a.secret = m_ui->secretEdit->text();
    a.authorizationHeader = m_ui->authEdit->text();
    a.events = eventsJson();
    a.active = m_ui->activeCheck->isChecked();
    return a;
}

Admin::HookUpdateArgs HookDialog::updateArgs() const
{
    Admin::HookUpdateArgs a;
    a.id = m_editId;
    a.url = m_ui->urlEdit->text().trimmed();
    a.name = m_ui->nameEdit->text().trimmed();
    a.type = m_ui->typeCombo->currentData().toString();
    a.httpMethod = m_ui->methodCombo->currentData().toString();
    a.contentType = m_ui->contentCombo->currentData().toString();
    if (!m_ui->secretEdit->text().isEmpty())
        a.secret = m_ui->secretEdit->text();
    if (!m_ui->authEdit->text().isEmpty())
        a.authorizationHeader = m_ui->authEdit->text();
    a.events = eventsJson();
    a.active = m_ui->activeCheck->isChecked();
    return a;
}

QWidget *HookDialog::fieldWidget(const QString &field) const
{
    const QString f = field.section(u'.', 0, 0);
    if (f == QLatin1String("scope"))
        return m_ui->scopeCombo;
    if (f == QLatin1String("repo_id") || f == QLatin1String("owner_id"))
        return m_ui->targetSpin;
    if (f == QLatin1String("url"))
        return m_ui->urlEdit;
    if (f == QLatin1String("name"))
        return m_ui->nameEdit;
    if (f == QLatin1String("type"))
        return m_ui->typeCombo;
    if (f == QLatin1String("http_method"))
        return m_ui->methodCombo;
    if (f == QLatin1String("content_type"))
        return m_ui->contentCombo;
    if (f == QLatin1String("secret"))
        return m_ui->secretEdit;
    if (f == QLatin1String("authorization_header") || f == QLatin1String("authorization"))
        return m_ui->authEdit;
    if (f == QLatin1String("events"))
        return field.contains(QLatin1String("branch_filter")) ? static_cast<QWidget *>(m_ui->branchFilterEdit) : m_ui->eventList;
    if (f == QLatin1String("active"))
        return m_ui->activeCheck;
    return nullptr;
}

void HookDialog::showError(const Status &status)
{
    m_ui->errorLabel->setText(status.message());
    m_ui->errorLabel->show();
    if (QWidget *w = fieldWidget(status.field()); w && w->isEnabled())
        w->setFocus();
}

} // namespace Switchyard::Console
