#include "preferencesdialog.h"

#include "embeddedinstance.h"

#include "widgets/statuscolors.h"
#include "widgets/theme.h"

#include "admin/ops/mailops.h"
#include "admin/startup.h"
#include "admin/settingsfile.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHostAddress>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace Switchyard::Console {

namespace {

const QString kServer = QStringLiteral("server");
const QString kMailer = QStringLiteral("mailer");
const QString kSourcePrefix = QStringLiteral("event_source.");


QLabel *mutedNote(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true); // the palette's own text colour: light grey would be hard to read
    return label;
}

} // namespace

PreferencesDialog::PreferencesDialog(EmbeddedInstance *embedded, QWidget *parent) : QDialog(parent), m_embedded(embedded)
{
    setObjectName(QStringLiteral("preferences"));
    setWindowTitle(tr("Preferences"));
    auto *layout = new QVBoxLayout(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setAccessibleName(tr("Preference sections"));
    m_tabs->addTab(serverTab(), tr("&Server"));
    m_tabs->addTab(sourcesTab(), tr("&Event sources"));
    m_tabs->addTab(mailTab(), tr("&Mail"));
    m_tabs->addTab(appearanceTab(), tr("&Appearance"));
    m_tabs->addTab(desktopTab(), tr("&Desktop"));
    for (int i = 0; i < 3; ++i)
        m_tabs->widget(i)->setEnabled(embedded != nullptr);
    layout->addWidget(m_tabs, 1);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("preferencesResult"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::PlainText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_result);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    m_buttons->button(QDialogButtonBox::Save)->setObjectName(QStringLiteral("savePreferences"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] { save(); });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    load();
    resize(640, 520);
}

QWidget *PreferencesDialog::serverTab()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    form->addRow(mutedNote(tr("Where the embedded engine's admin API listens: forges post their webhooks there, "
                         "switchyardctl and other consoles connect there."), page));
    m_address = new QComboBox(page);
    m_address->setEditable(true);
    m_address->addItems({QStringLiteral("127.0.0.1"), QStringLiteral("0.0.0.0"), QStringLiteral("::1")});
    m_address->setAccessibleName(tr("Listen address"));
    m_address->setToolTip(tr("127.0.0.1: this computer only. 0.0.0.0: every network (needs TLS, or ALLOW_INSECURE_REMOTE in app.ini)."));
    form->addRow(tr("Listen &address:"), m_address);
    m_port = new QSpinBox(page);
    m_port->setRange(1, 65535);
    m_port->setAccessibleName(tr("Port"));
    form->addRow(tr("&Port:"), m_port);
    if (m_embedded)
        form->addRow(mutedNote(tr("Settings file: %1").arg(m_embedded->configPath()), page));
    else
        form->addRow(mutedNote(tr("This console runs no engine of its own (it was opened with --connect): these settings are "
                             "the embedded engine's."), page));
    return page;
}

QWidget *PreferencesDialog::sourcesTab()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(mutedNote(tr("A forge posts to …/events?source=NAME and signs with that source's secret. Secrets are kept in "
                              "%1, not in app.ini.")
                               .arg(m_embedded ? m_embedded->vault().whereKept() : tr("the system keychain")),
                           page));
    m_sources = new QTableWidget(0, 2, page);
    m_sources->setHorizontalHeaderLabels({tr("Source"), tr("Secret")});
    m_sources->horizontalHeader()->setStretchLastSection(true);
    m_sources->verticalHeader()->setVisible(false);
    m_sources->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sources->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sources->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sources->setAccessibleName(tr("Event sources"));
    layout->addWidget(m_sources, 1);
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("&Add source…"), page);
    auto *generate = new QPushButton(tr("&New secret"), page);
    generate->setToolTip(tr("Make a new random secret for the selected source (paste it into the forge after saving)"));
    auto *set = new QPushButton(tr("Set &secret…"), page);
    auto *copy = new QPushButton(tr("&Copy secret"), page);
    copy->setToolTip(tr("Copy the selected source's secret (the new one before saving) to paste into the forge"));
    auto *remove = new QPushButton(tr("&Remove"), page);
    for (QPushButton *b : {add, generate, set, copy, remove}) {
        b->setAccessibleName(b->text().remove(QLatin1Char('&')));
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    layout->addLayout(buttons);
    const auto selected = [this] {
        const int row = m_sources->currentRow();
        return row < 0 ? QString() : m_sources->item(row, 0)->text();
    };
    connect(add, &QPushButton::clicked, this, &PreferencesDialog::addSource);
    connect(generate, &QPushButton::clicked, this, [this, selected] {
        if (!selected().isEmpty())
            newSecret(selected(), SecretVault::newSecret());
    });
    connect(set, &QPushButton::clicked, this, [this, selected] {
        if (selected().isEmpty())
            return;
        bool ok = false;
        const QString secret = QInputDialog::getText(this, tr("Set secret"), tr("Secret of %1 (as the forge has it):").arg(selected()),
                                                     QLineEdit::Password, QString(), &ok);
        if (ok)
            newSecret(selected(), secret.toUtf8());
    });
    connect(remove, &QPushButton::clicked, this, &PreferencesDialog::removeSource);
    connect(copy, &QPushButton::clicked, this, [this, selected] {
        const QString name = selected();
        const auto pending = m_newSecrets.find(name);
        const QByteArray secret = pending != m_newSecrets.end() ? pending->second
                                                                 : m_embedded->vault().value(kSourcePrefix + name, QStringLiteral("SECRET"));
        if (name.isEmpty() || secret.isEmpty()) {
            showResult(Status::notFound(tr("%1 has no secret the console keeps").arg(name)), {});
            return;
        }
        auto *data = new QMimeData;
        data->setText(QString::fromUtf8(secret));
        data->setData(QStringLiteral("x-kde-passwordManagerHint"), QByteArrayLiteral("secret")); // not kept by clipboard managers
        QGuiApplication::clipboard()->setMimeData(data);
        showResult(Status::ok(), tr("Copied the secret of %1").arg(name));
    });
    return page;
}

QWidget *PreferencesDialog::mailTab()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_mailEnabled = new QCheckBox(tr("Send mail"), page);
    m_mailEnabled->setAccessibleName(tr("Send mail"));
    form->addRow(m_mailEnabled);
    m_mailProtocol = new QComboBox(page);
    m_mailProtocol->addItems({QString(), QStringLiteral("smtp"), QStringLiteral("smtps"), QStringLiteral("smtp+starttls"),
                              QStringLiteral("smtp+unix"), QStringLiteral("sendmail"), QStringLiteral("dummy")});
    m_mailProtocol->setItemText(0, tr("(from the port)"));
    m_mailProtocol->setAccessibleName(tr("Mail protocol"));
    form->addRow(tr("P&rotocol:"), m_mailProtocol);
    m_mailServer = new QLineEdit(page);
    m_mailServer->setAccessibleName(tr("Mail server"));
    m_mailServer->setPlaceholderText(tr("smtp.example.com, or a socket's path"));
    form->addRow(tr("Ser&ver:"), m_mailServer);
    m_mailPort = new QSpinBox(page);
    m_mailPort->setRange(0, 65535);
    m_mailPort->setSpecialValueText(tr("(from the protocol)"));
    m_mailPort->setAccessibleName(tr("Mail server port"));
    form->addRow(tr("P&ort:"), m_mailPort);
    m_mailFrom = new QLineEdit(page);
    m_mailFrom->setAccessibleName(tr("Sender"));
    m_mailFrom->setPlaceholderText(tr("Forge <forge@example.com>"));
    form->addRow(tr("&From:"), m_mailFrom);
    m_mailUser = new QLineEdit(page);
    m_mailUser->setAccessibleName(tr("Mail login"));
    form->addRow(tr("&Login:"), m_mailUser);
    m_mailPassword = new QLineEdit(page);
    m_mailPassword->setEchoMode(QLineEdit::Password);
    m_mailPassword->setAccessibleName(tr("Mail password"));
    m_mailPassword->setPlaceholderText(tr("unchanged"));
    form->addRow(tr("Pass&word:"), m_mailPassword);
    auto *test = new QPushButton(tr("Send &test mail…"), page);
    test->setAccessibleName(tr("Send a test mail"));
    connect(test, &QPushButton::clicked, this, &PreferencesDialog::sendTestMail);
    form->addRow(test);
    form->addRow(mutedNote(tr("The test mail goes with the settings the engine runs with; saved mail settings apply at the next "
                              "start. The password is kept in %1, not in app.ini.")
                               .arg(m_embedded ? m_embedded->vault().whereKept() : tr("the system keychain")),
                           page));
    return page;
}

QWidget *PreferencesDialog::appearanceTab()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_theme = new QComboBox(page);
    m_theme->addItem(tr("As the desktop"), Theme::name(Theme::Choice::System));
    m_theme->addItem(tr("Light"), Theme::name(Theme::Choice::Light));
    m_theme->addItem(tr("Dark"), Theme::name(Theme::Choice::Dark));
    m_theme->setAccessibleName(tr("Theme"));
    form->addRow(tr("&Theme:"), m_theme);
    m_language = new QComboBox(page);
    m_language->addItem(tr("As the system"), QStringLiteral("system"));
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setAccessibleName(tr("Language"));
    form->addRow(tr("&Language:"), m_language);
    form->addRow(mutedNote(tr("A new language applies at the next start."), page));
    return page;
}

QWidget *PreferencesDialog::desktopTab()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_trayIcon = new QCheckBox(tr("Show an icon in the system tray"), page);
    m_keepRunning = new QCheckBox(tr("Keep running in the tray when the window is closed"), page);
    m_keepRunning->setToolTip(tr("The engine keeps taking events; Quit (Ctrl+Q, or the tray's menu) stops it"));
    form->addRow(m_trayIcon);
    form->addRow(m_keepRunning);
    form->addRow(mutedNote(tr("Tell me on the desktop when:"), page));
    for (int i = 0; i < kAlertKinds; ++i) {
        m_alerts[std::size_t(i)] = new QCheckBox(DesktopAlerts::kindLabel(AlertKind(i)), page);
        m_alerts[std::size_t(i)]->setObjectName(QStringLiteral("alert_") + DesktopAlerts::kindKey(AlertKind(i)));
        form->addRow(m_alerts[std::size_t(i)]);
    }
    m_backlog = new QSpinBox(page);
    m_backlog->setRange(1, 100000000);
    m_backlog->setAccessibleName(tr("Queue backlog threshold"));
    form->addRow(tr("&Backlog threshold (items):"), m_backlog);
    form->addRow(mutedNote(tr("At most one notice per kind a minute; what follows is summed up."), page));
    for (QCheckBox *box : page->findChildren<QCheckBox *>())
        box->setAccessibleName(box->text());
    return page;
}

Admin::SettingsFile PreferencesDialog::originalFile() const
{
    return Admin::SettingsFile::read(m_embedded ? m_embedded->configPath() : QString());
}

void PreferencesDialog::load()
{
    const ConsolePreferences console = ConsolePreferences::read();
    m_theme->setCurrentIndex(qMax(0, m_theme->findData(Theme::name(Theme::current()))));
    m_language->setCurrentIndex(qMax(0, m_language->findData(console.language)));
    m_trayIcon->setChecked(console.trayIcon);
    m_keepRunning->setChecked(console.keepRunning);
    for (int i = 0; i < kAlertKinds; ++i)
        m_alerts[std::size_t(i)]->setChecked(console.alerts[std::size_t(i)]);
    m_backlog->setValue(int(qMin<qint64>(console.backlogThreshold, 100000000)));
    if (!m_embedded)
        return;
    const Admin::SettingsFile text = originalFile();
    const EngineConfig &running = m_embedded->backend().config();
    m_address->setCurrentText(text.value(kServer, QStringLiteral("HTTP_ADDR"), running.server.httpAddr));
    const int listening = m_embedded->server().port();
    m_port->setValue(text.value(kServer, QStringLiteral("HTTP_PORT"), QString::number(listening ? listening : running.server.httpPort)).toInt());
    m_mailEnabled->setChecked(text.value(kMailer, QStringLiteral("ENABLED")).compare(QLatin1String("true"), Qt::CaseInsensitive) == 0);
    m_mailProtocol->setCurrentIndex(qMax(0, m_mailProtocol->findText(text.value(kMailer, QStringLiteral("PROTOCOL")))));
    m_mailServer->setText(text.value(kMailer, QStringLiteral("SMTP_ADDR")));
    m_mailPort->setValue(text.value(kMailer, QStringLiteral("SMTP_PORT"), QStringLiteral("0")).toInt());
    m_mailFrom->setText(text.value(kMailer, QStringLiteral("FROM")));
    m_mailUser->setText(text.value(kMailer, QStringLiteral("USER")));
    fillSources();
}

void PreferencesDialog::fillSources()
{
    if (!m_embedded)
        return;
    QStringList names{QStringLiteral("default")};
    for (const EventSourceSettings &source : m_embedded->backend().config().eventSources)
        if (!names.contains(source.name))
            names << source.name;
    names << m_addedSources;
    m_sources->setRowCount(0);
    for (const QString &name : std::as_const(names)) {
        if (m_removedSources.contains(name))
            continue;
        const QString section = kSourcePrefix + name;
        QString state;
        if (auto pending = m_newSecrets.find(name); pending != m_newSecrets.end())
            state = pending->second.isEmpty() ? tr("none (a token is needed) — on save") : tr("new — kept on save");
        else if (!m_embedded->vault().value(section, QStringLiteral("SECRET")).isEmpty())
            state = tr("kept in %1").arg(m_embedded->vault().whereKept());
        else if (!originalFile().value(section, QStringLiteral("SECRET")).isEmpty())
            state = tr("in app.ini");
        else
            state = tr("none (a token is needed)");
        const int row = m_sources->rowCount();
        m_sources->insertRow(row);
        m_sources->setItem(row, 0, new QTableWidgetItem(name));
        m_sources->setItem(row, 1, new QTableWidgetItem(state));
    }
}

void PreferencesDialog::addSource()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Add event source"), tr("Name (letters, digits, '_', '.', '-'):"),
                                               QLineEdit::Normal, QString(), &ok).trimmed();
    if (!ok)
        return;
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_.-]{1,64}$"));
    if (!valid.match(name).hasMatch()) {
        showResult(Status::invalidArgument(tr("\"%1\" is not a valid source name; use 1 to 64 letters, digits, '_', '.' or '-'").arg(name)), {});
        return;
    }
    m_removedSources.removeAll(name);
    if (!m_addedSources.contains(name))
        m_addedSources << name;
    newSecret(name, SecretVault::newSecret());
}

void PreferencesDialog::newSecret(const QString &source, const QByteArray &secret)
{
    m_newSecrets[source] = secret;
    fillSources();
    showResult(Status::ok(), tr("Save, then give the forge the new secret of %1 (the Overview shows it after the next start).").arg(source));
}

void PreferencesDialog::removeSource()
{
    const int row = m_sources->currentRow();
    if (row < 0)
        return;
    const QString name = m_sources->item(row, 0)->text();
    if (name == QLatin1String("default")) {
        showResult(Status::invalidArgument(tr("The default source always exists; give it no secret to require a token instead")), {});
        return;
    }
    m_removedSources << name;
    m_addedSources.removeAll(name);
    m_newSecrets[name] = QByteArray();
    fillSources();
}

void PreferencesDialog::sendTestMail()
{
    if (!m_embedded)
        return;
    bool ok = false;
    const QString to = QInputDialog::getText(this, tr("Send test mail"), tr("Send a test mail to:"), QLineEdit::Normal, QString(), &ok).trimmed();
    if (!ok || to.isEmpty())
        return;
    showResult(Status::ok(), tr("Sending a test mail to %1…").arg(to));
    m_embedded->backend().call(Admin::Ops::mailTest, {to}, this, [this, to](Result<Admin::MailTestResult> sent) {
        if (!sent)
            showResult(sent.status(), {});
        else if (!sent->ok)
            showResult(Status::unavailable(tr("the test mail to %1 failed: %2").arg(to, sent->error)), {});
        else
            showResult(Status::ok(), tr("Sent a test mail to %1").arg(to));
    });
}

Status PreferencesDialog::edit(Admin::SettingsFile &e, QStringList &restartFor) const
{
    const Admin::SettingsFile original = originalFile();
    const EngineConfig &running = m_embedded->backend().config();
    const QString address = m_address->currentText().trimmed();
    if (address != original.value(kServer, QStringLiteral("HTTP_ADDR"), running.server.httpAddr)) {
        e.set(kServer, QStringLiteral("HTTP_ADDR"), address);
        restartFor << tr("the listen address");
    }
    const int listening = m_embedded->server().port();
    if (m_port->value() != original.value(kServer, QStringLiteral("HTTP_PORT"), QString::number(listening ? listening : running.server.httpPort)).toInt()
        || (listening != 0 && m_port->value() != listening))
        e.set(kServer, QStringLiteral("HTTP_PORT"), QString::number(m_port->value()));
    for (const QString &name : m_removedSources)
        e.removeSection(kSourcePrefix + name);
    for (const QString &name : m_addedSources)
        e.addSection(kSourcePrefix + name);
    for (const auto &[name, secret] : m_newSecrets)
        e.remove(kSourcePrefix + name, QStringLiteral("SECRET")); // one place for it: the keychain
    if (!m_newSecrets.empty() || !m_addedSources.isEmpty() || !m_removedSources.isEmpty())
        restartFor << tr("event sources");
    const std::pair<QString, QString> mail[] = {
        {QStringLiteral("ENABLED"), m_mailEnabled->isChecked() ? QStringLiteral("true") : QStringLiteral("false")},
        {QStringLiteral("PROTOCOL"), m_mailProtocol->currentIndex() == 0 ? QString() : m_mailProtocol->currentText()},
        {QStringLiteral("SMTP_ADDR"), m_mailServer->text().trimmed()},
        {QStringLiteral("SMTP_PORT"), m_mailPort->value() == 0 ? QString() : QString::number(m_mailPort->value())},
        {QStringLiteral("FROM"), m_mailFrom->text().trimmed()},
        {QStringLiteral("USER"), m_mailUser->text().trimmed()}};
    bool mailChanged = !m_mailPassword->text().isEmpty();
    for (const auto &[key, value] : mail) {
        const QString before = original.value(kMailer, key);
        const bool same = key == QLatin1String("ENABLED") ? (before.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0) == (value == QLatin1String("true"))
                                                           : before == value;
        if (same)
            continue;
        mailChanged = true;
        if (value.isEmpty())
            e.remove(kMailer, key);
        else if (Status set = e.set(kMailer, key, value); !set)
            return Status::invalidArgument(QStringLiteral("[mailer] %1: %2").arg(key, set.message()));
    }
    if (!m_mailPassword->text().isEmpty())
        e.remove(kMailer, QStringLiteral("PASSWD")); // kept in the keychain
    if (mailChanged)
        restartFor << tr("mail");
    return Status::ok();
}

Status PreferencesDialog::check(const QByteArray &text) const
{
    std::vector<Admin::KeptSetting> kept = m_embedded->vault().kept();
    for (const auto &[name, secret] : m_newSecrets)
        if (!secret.isEmpty())
            kept.push_back({kSourcePrefix + name, QStringLiteral("SECRET"), QString::fromUtf8(secret)});
    if (!m_mailPassword->text().isEmpty())
        kept.push_back({kMailer, QStringLiteral("PASSWD"), m_mailPassword->text()});
    Result<EngineConfig> config = Admin::loadEngineConfigText(m_embedded->configPath(), text, m_embedded->dataPath(), kept);
    if (!config)
        return config.status();
    const ServerSettings &srv = config->server;
    const QHostAddress address(srv.httpAddr == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : srv.httpAddr);
    if (!address.isLoopback() && srv.certFile.isEmpty() && !srv.allowInsecureRemote)
        return Status::invalidArgument(tr("[server] HTTP_ADDR = %1 would take the admin API off this computer without TLS: tokens would "
                                          "cross the network in clear text. Set CERT_FILE and KEY_FILE in app.ini, or keep 127.0.0.1")
                                           .arg(srv.httpAddr));
    return Status::ok();
}

Status PreferencesDialog::save()
{
    QStringList restartFor;
    if (m_embedded) {
        if (Status saved = saveEngineSettings(restartFor); !saved) {
            showResult(saved, {});
            return saved;
        }
    }
    ConsolePreferences console = ConsolePreferences::read();
    if (m_language->currentData().toString() != console.language)
        restartFor << tr("the language");
    console.language = m_language->currentData().toString();
    console.trayIcon = m_trayIcon->isChecked();
    console.keepRunning = m_keepRunning->isChecked();
    for (int i = 0; i < kAlertKinds; ++i)
        console.alerts[std::size_t(i)] = m_alerts[std::size_t(i)]->isChecked();
    console.backlogThreshold = m_backlog->value();
    console.write();
    const Theme::Choice theme = Theme::fromName(m_theme->currentData().toString());
    if (theme != Theme::current()) {
        Theme::apply(theme);
        QSettings().setValue(QStringLiteral("theme"), Theme::name(theme));
    }
    Q_EMIT consoleChanged(console);
    const QString saved = m_embedded ? tr("Saved to %1.").arg(m_embedded->configPath()) : tr("Saved.");
    showResult(Status::ok(), restartFor.isEmpty() ? saved + QLatin1Char(' ') + tr("Everything applies now.")
                                                  : saved + QLatin1Char(' ') + tr("Restart Switchyard to apply: %1.").arg(restartFor.join(tr(", ", "between the items of a list"))));
    return Status::ok();
}

// In the order that loses nothing: checked first; the kept values before app.ini forgets them;
// the new port listened on before app.ini names it.
Status PreferencesDialog::saveEngineSettings(QStringList &restartFor)
{
    Admin::SettingsFile file = originalFile();
    if (Status edited = edit(file, restartFor); !edited)
        return edited;
    if (Status checked = check(file.text()); !checked)
        return checked;
    SecretVault &vault = m_embedded->vault();
    for (auto it = m_newSecrets.begin(); it != m_newSecrets.end(); it = m_newSecrets.erase(it))
        if (Status kept = vault.store(kSourcePrefix + it->first, QStringLiteral("SECRET"), it->second); !kept)
            return kept; // app.ini still has what it had
    if (!m_mailPassword->text().isEmpty()) {
        if (Status kept = vault.store(kMailer, QStringLiteral("PASSWD"), m_mailPassword->text().toUtf8()); !kept)
            return kept;
        m_mailPassword->clear();
    }
    if (m_port->value() != m_embedded->server().port())
        if (Status moved = m_embedded->server().listenOn(m_port->value()); !moved) // the engine keeps running
            return Status(moved.code(), tr("port %1: %2").arg(m_port->value()).arg(moved.message()));
    if (file.changed())
        if (Status written = file.write(); !written)
            return written;
    m_addedSources.clear();
    m_removedSources.clear();
    fillSources();
    return Status::ok();
}

QString PreferencesDialog::note() const
{
    return m_note;
}

void PreferencesDialog::showResult(const Status &status, const QString &message)
{
    m_note = status ? message : status.message();
    m_result->setText(m_note);
    QPalette palette = m_result->palette();
    palette.setColor(QPalette::WindowText, status ? palette.color(QPalette::Text) : statusColor(StatusColor::Error));
    m_result->setPalette(palette);
}

} // namespace Switchyard::Console
