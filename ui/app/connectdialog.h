#pragma once

// "Connect to an instance": name, URL, token (never shown), an optional CA certificate for a
// self-signed instance, and whether to remember it (URL in the settings, token in the keychain).

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace Switchyard::Console {

class ConnectDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    void setName(const QString &name);
    void setUrl(const QString &url);
    void setCaFile(const QString &path);
    QString name() const;
    QUrl url() const;
    QByteArray token() const;
    QString caFile() const;
    bool remember() const;

private:
    void validate();

    QLineEdit *m_name;
    QLineEdit *m_url;
    QLineEdit *m_token;
    QLineEdit *m_ca;
    QCheckBox *m_remember;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};

} // namespace Switchyard::Console
