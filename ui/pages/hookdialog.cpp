#include "hookdialog.h"

#include "ui_hookdialog.h"

#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace Switchyard::Console {

namespace {

struct MetaField
{
    const char *key;
    const char *label; // with its mnemonic
    const char *hint;
};

// What each channel reads from meta (the engine checks the values; docs/webhooks.md "Channels").
std::vector<MetaField> metaFields(const QString &type)
{
    if (type == QLatin1String("slack"))
        return {{"channel", QT_TRANSLATE_NOOP("HookDialog", "C&hannel:"), QT_TRANSLATE_NOOP("HookDialog", "#ops (required)")},
                {"username", QT_TRANSLATE_NOOP("HookDialog", "Post &as:"), QT_TRANSLATE_NOOP("HookDialog", "the name shown on messages")},
                {"icon_url", QT_TRANSLATE_NOOP("HookDialog", "&Icon URL:"), QT_TRANSLATE_NOOP("HookDialog", "https://… (optional)")},
                {"color", QT_TRANSLATE_NOOP("HookDialog", "Co&lour:"), QT_TRANSLATE_NOOP("HookDialog", "good, warning, danger or #rrggbb (pushes)")}};
    if (type == QLatin1String("discord"))
        return {{"username", QT_TRANSLATE_NOOP("HookDialog", "Post &as:"), QT_TRANSLATE_NOOP("HookDialog", "the name shown on messages")},
                {"icon_url", QT_TRANSLATE_NOOP("HookDialog", "A&vatar URL:"), QT_TRANSLATE_NOOP("HookDialog", "https://… (optional)")}};
    if (type == QLatin1String("telegram"))
        return {{"chat_id", QT_TRANSLATE_NOOP("HookDialog", "C&hat id:"), QT_TRANSLATE_NOOP("HookDialog", "-100… (or in the URL)")},
                {"thread_id", QT_TRANSLATE_NOOP("HookDialog", "Th&read id:"), QT_TRANSLATE_NOOP("HookDialog", "a topic of the chat (optional)")}};
    if (type == QLatin1String("matrix"))
        return {{"message_type", QT_TRANSLATE_NOOP("HookDialog", "Message t&ype:"), QT_TRANSLATE_NOOP("HookDialog", "m.notice (default) or m.text")}};
    if (type == QLatin1String("packagist"))
        return {{"package_url", QT_TRANSLATE_NOOP("HookDialog", "Pac&kage URL:"), QT_TRANSLATE_NOOP("HookDialog", "https://github.com/acme/lib (required)")}};
    return {};
}

bool isChannel(const QString &type)
{
    return type != QLatin1String("gitea") && type != QLatin1String("gogs");
}

} // namespace

HookDialog::HookDialog(QWidget *parent, const Admin::HookRow *existing) : QDialog(parent), m_ui(new Ui::HookDialog)
{
    m_ui->setupUi(this);
    setObjectName(QStringLiteral("hookDialog"));
    m_ui->scopeCombo->addItem(tr("a repository"), QStringLiteral("repository"));
    m_ui->scopeCombo->addItem(tr("an organisation"), QStringLiteral("organization"));
    m_ui->scopeCombo->addItem(tr("a user"), QStringLiteral("user"));
    m_ui->scopeCombo->addItem(tr("the whole instance (system)"), QStringLiteral("system"));
    // Gitea's default hooks: never sent; copied into every repository created afterwards.
    m_ui->scopeCombo->addItem(tr("each new repository (default)"), QStringLiteral("default"));
    m_ui->scopeCombo->setItemData(m_ui->scopeCombo->count() - 1,
                                  tr("Not sent itself: each repository created from now on gets a copy as its own webhook"),
                                  Qt::ToolTipRole);
    for (const char *type : {"gitea", "gogs", "slack", "discord", "dingtalk", "telegram", "msteams", "feishu", "matrix", "wechatwork", "packagist"})
        m_ui->typeCombo->addItem(QLatin1String(type), QLatin1String(type));
    for (const char *method : {"POST", "GET", "PUT"})
        m_ui->methodCombo->addItem(QLatin1String(method), QLatin1String(method));
    m_ui->contentCombo->addItem(tr("JSON (application/json)"), QStringLiteral("json"));
    m_ui->contentCombo->addItem(tr("form (payload=…)"), QStringLiteral("form"));
    for (const QString &event : Admin::hookEventNames()) {
        auto *item = new QListWidgetItem(event, m_ui->eventList);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_ui->errorLabel->setTextFormat(Qt::PlainText); // the server's message may quote the URL
    m_ui->errorLabel->hide();
    connect(m_ui->chooseRadio, &QRadioButton::toggled, m_ui->eventList, &QWidget::setEnabled);
    const auto scopeChanged = [this] {
        const QString scope = m_ui->scopeCombo->currentData().toString();
        const bool noTarget = scope == QLatin1String("system") || scope == QLatin1String("default");
        m_ui->targetSpin->setEnabled(!noTarget && !isEdit());
        m_ui->targetLabel->setEnabled(!noTarget);
    };
    connect(m_ui->scopeCombo, &QComboBox::currentIndexChanged, this, scopeChanged);
    connect(m_ui->typeCombo, &QComboBox::currentIndexChanged, this, [this] { showChannelFields(metaJson()); });
    connect(m_ui->buttons, &QDialogButtonBox::accepted, this, &HookDialog::submitted);
    connect(m_ui->buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    if (existing) {
        m_editId = existing->id;
        setWindowTitle(tr("Edit webhook %1").arg(existing->id));
        m_ui->scopeCombo->setCurrentIndex(std::max(0, m_ui->scopeCombo->findData(existing->scope)));
        m_ui->scopeCombo->setEnabled(false);
        m_ui->targetSpin->setValue(int(existing->repoId > 0 ? existing->repoId : existing->ownerId));
        m_ui->urlEdit->setText(existing->url);
        m_shownUrl = existing->url;
        m_ui->urlEdit->setReadOnly(existing->urlMasked); // *** would be saved as typed
        m_hasAuthorization = existing->hasAuthorization;
        m_ui->nameEdit->setText(existing->name);
        m_ui->typeCombo->setCurrentIndex(std::max(0, m_ui->typeCombo->findData(existing->type)));
        m_ui->methodCombo->setCurrentIndex(std::max(0, m_ui->methodCombo->findData(existing->httpMethod)));
        m_ui->contentCombo->setCurrentIndex(std::max(0, m_ui->contentCombo->findData(existing->contentType)));
        m_ui->secretEdit->setPlaceholderText(existing->hasSecret ? tr("set — leave empty to keep it") : tr("none"));
        m_ui->authEdit->setPlaceholderText(existing->hasAuthorization ? tr("set — leave empty to keep it") : tr("none"));
        connect(m_ui->urlEdit, &QLineEdit::textEdited, this, &HookDialog::urlEdited);
        m_ui->activeCheck->setChecked(existing->active);
        m_existingMeta = existing->meta.toObject();
        showChannelFields(m_existingMeta);
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
    if (m_metaEdits.empty())
        showChannelFields({});
}

void HookDialog::showChannelFields(const QJsonObject &values)
{
    const QString type = m_ui->typeCombo->currentData().toString();
    while (m_ui->channelForm->rowCount() > 0)
        m_ui->channelForm->removeRow(0);
    m_metaEdits.clear();
    QWidget *previous = m_ui->activeCheck;
    for (const MetaField &f : metaFields(type)) {
        auto *edit = new QLineEdit(m_ui->channelBox);
        const QString key = QLatin1String(f.key);
        edit->setObjectName(QStringLiteral("meta_") + key);
        const QString label = QCoreApplication::translate("HookDialog", f.label); // the QT_TRANSLATE_NOOP context
        edit->setAccessibleName(QString(label).remove(u'&').remove(u':'));
        edit->setPlaceholderText(QCoreApplication::translate("HookDialog", f.hint));
        const QJsonValue v = values.value(key);
        edit->setText(v.isDouble() ? QString::number(v.toInteger()) : v.toString());
        auto *l = new QLabel(label, m_ui->channelBox);
        l->setBuddy(edit);
        m_ui->channelForm->addRow(l, edit);
        setTabOrder(previous, edit);
        previous = edit;
        m_metaEdits.emplace_back(key, edit);
    }
    m_ui->channelBox->setVisible(!m_metaEdits.empty());
    m_ui->channelBox->setTitle(tr("%1 settings").arg(type.left(1).toUpper() + type.mid(1)));
    // Chat channels are sent JSON; matrix PUTs, the others POST or GET.
    const bool channel = isChannel(type);
    if (channel)
        m_ui->contentCombo->setCurrentIndex(std::max(0, m_ui->contentCombo->findData(QStringLiteral("json"))));
    m_ui->contentCombo->setEnabled(!channel);
    if (type == QLatin1String("matrix"))
        m_ui->methodCombo->setCurrentIndex(std::max(0, m_ui->methodCombo->findData(QStringLiteral("PUT"))));
    else if (m_ui->methodCombo->currentData().toString() == QLatin1String("PUT"))
        m_ui->methodCombo->setCurrentIndex(0);
}

QJsonObject HookDialog::metaJson() const
{
    QJsonObject meta = isChannel(m_ui->typeCombo->currentData().toString()) ? m_existingMeta : QJsonObject();
    for (const auto &[key, edit] : m_metaEdits) {
        if (edit->text().trimmed().isEmpty())
            meta.remove(key);
        else
            meta.insert(key, edit->text().trimmed());
    }
    return meta;
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
    else if (a.scope != QLatin1String("system") && a.scope != QLatin1String("default"))
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
    if (isChannel(a.type))
        a.meta = metaJson();
    return a;
}

void HookDialog::setClearUrl(const QString &url)
{
    if (m_ui->urlEdit->text() != m_shownUrl)
        return; // changed meanwhile: what was typed wins
    m_ui->urlEdit->setText(url);
    m_shownUrl = url;
    m_ui->urlEdit->setReadOnly(false);
}

void HookDialog::urlEdited()
{
    if (!m_hasAuthorization)
        return;
    const bool changed = m_ui->urlEdit->text().trimmed() != m_shownUrl;
    m_ui->authEdit->setPlaceholderText(changed ? tr("removed with the new URL — enter it again to keep one")
                                               : tr("set — leave empty to keep it"));
    m_ui->authEdit->setToolTip(changed ? tr("The stored Authorization header is not sent to a new URL: enter it "
                                            "again, or the hook is saved without one")
                                       : QString());
}

Admin::HookUpdateArgs HookDialog::updateArgs() const
{
    Admin::HookUpdateArgs a;
    a.id = m_editId;
    if (const QString url = m_ui->urlEdit->text().trimmed(); url != m_shownUrl)
        a.url = url; // empty keeps the stored one
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
    a.meta = metaJson(); // replaces the channel's settings (an empty object for gitea and gogs)
    return a;
}

QWidget *HookDialog::fieldWidget(const QString &field) const
{
    const QString f = field.section(u'.', 0, 0);
    if (f == QLatin1String("meta")) {
        for (const auto &[key, edit] : m_metaEdits)
            if (field == QLatin1String("meta.") + key)
                return edit;
        return m_metaEdits.empty() ? nullptr : m_metaEdits.front().second;
    }
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
