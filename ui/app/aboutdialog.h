#pragma once

// Help ▸ About Switchyard: the version, how this console was built (Qt compiled against and
// running, compiler, build type, build date), where the current instance keeps its data (the
// embedded engine's data directory; a remote instance's URL), and the licences of what the console
// ships. "Copy build info" puts the version, build and instance lines on the clipboard for a bug
// report.
//
// Threads: GUI thread only; the instance's data directory is read through AdminBackend, whose
// reply arrives on this thread.

#include <QDialog>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace Switchyard::Admin {
class AdminBackend;
}

namespace Switchyard::Console {

class AboutDialog final : public QDialog
{
    Q_OBJECT
public:
    // `backend`: the current instance (not owned, outlives the dialog); null when none is open.
    AboutDialog(Admin::AdminBackend *backend, QWidget *parent = nullptr);

    // "Switchyard 0.1.0", then the build line.
    static QString versionText();
    static QString buildText();
    // The instance line: "Data directory: …" or "Instance: <url>".
    QString instanceText() const { return m_instanceText; }
    // What "Copy build info" copies.
    QString buildInfo() const;

    QLabel *instanceLabel() const { return m_instance; }
    QTreeWidget *licences() const { return m_licences; }
    QPushButton *copyButton() const { return m_copy; }

private:
    void setInstanceText(const QString &text);
    void fillLicences();

    QLabel *m_instance;
    QTreeWidget *m_licences;
    QPushButton *m_copy;
    QString m_instanceText;
};

} // namespace Switchyard::Console
