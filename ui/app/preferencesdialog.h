#pragma once

// Preferences (Ctrl+,): what a desktop user changes. The embedded engine's settings — where its
// API listens, the event sources and their secrets, mail — are written to the console's app.ini
// (IniEditor: comments, order and every other key stay as they were) and to the keychain
// (secrets, the mail password: SecretVault); the console's own — theme, language, tray and desktop
// notices — to its settings. Save checks the whole file as the engine would read it at start and
// refuses a bad value with the reason (file, key, valid values); nothing is written then. It says
// which changes apply now (the port: the API moves at once; theme; tray; notices) and which at the
// next start (listen address, event sources, mail, language).
//
// Threads: GUI thread.

#include "consoleprefs.h"

#include "engine/core/status.h"

#include <QDialog>

#include <map>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace Switchyard::Admin {
class AdminBackend;
class SettingsFile;
}

namespace Switchyard::Console {

class EmbeddedInstance;

class PreferencesDialog final : public QDialog
{
    Q_OBJECT
public:
    // `embedded`: the engine whose settings the first tabs edit; null (a console opened with
    // --connect only): those tabs say so and are disabled.
    PreferencesDialog(EmbeddedInstance *embedded, QWidget *parent = nullptr);

    // Checks, writes and applies; the error (also shown in the dialog) when it refused.
    Status save();
    // What the last save said (applied now, applied at the next start).
    QString note() const;

    QSpinBox *portBox() const { return m_port; }
    QComboBox *addressBox() const { return m_address; }
    QLineEdit *mailServer() const { return m_mailServer; }
    QTableWidget *sources() const { return m_sources; }
    QCheckBox *keepRunningBox() const { return m_keepRunning; }
    QComboBox *languageBox() const { return m_language; }

Q_SIGNALS:
    // The console's preferences changed (tray, notices, theme): apply them.
    void consoleChanged(const Switchyard::Console::ConsolePreferences &preferences);

private:
    QWidget *serverTab();
    QWidget *sourcesTab();
    QWidget *mailTab();
    QWidget *appearanceTab();
    QWidget *desktopTab();
    void load();
    void fillSources();
    void addSource();
    void newSecret(const QString &source, const QByteArray &secret);
    void removeSource();
    void sendTestMail();
    Admin::SettingsFile originalFile() const;
    // Makes the dialog's changes in `file` (app.ini as read); what needs a restart is named in
    // `restartFor`.
    Status edit(Admin::SettingsFile &file, QStringList &restartFor) const;
    Status check(const QByteArray &text) const;
    Status saveEngineSettings(QStringList &restartFor);
    void showResult(const Status &status, const QString &note);

    EmbeddedInstance *m_embedded;
    QTabWidget *m_tabs;
    QComboBox *m_address = nullptr;
    QSpinBox *m_port = nullptr;
    QTableWidget *m_sources = nullptr;
    std::map<QString, QByteArray> m_newSecrets; // event source → secret to keep at save ("" removes)
    QStringList m_addedSources;
    QStringList m_removedSources;
    QCheckBox *m_mailEnabled = nullptr;
    QComboBox *m_mailProtocol = nullptr;
    QLineEdit *m_mailServer = nullptr;
    QSpinBox *m_mailPort = nullptr;
    QLineEdit *m_mailFrom = nullptr;
    QLineEdit *m_mailUser = nullptr;
    QLineEdit *m_mailPassword = nullptr;
    QComboBox *m_theme;
    QComboBox *m_language;
    QCheckBox *m_trayIcon;
    QCheckBox *m_keepRunning;
    std::array<QCheckBox *, kAlertKinds> m_alerts{};
    QSpinBox *m_backlog;
    QLabel *m_result;
    QDialogButtonBox *m_buttons;
    QString m_note;
};

} // namespace Switchyard::Console
