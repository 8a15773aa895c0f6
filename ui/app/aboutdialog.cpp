#include "aboutdialog.h"

#include "admin/adminbackend.h"
#include "admin/ops/instanceops.h"
#include "engine/core/version.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtGlobal>

// Set for this file by ui/CMakeLists.txt; the date is when the build tree was configured.
#ifndef SWITCHYARD_COMPILER
#define SWITCHYARD_COMPILER "unknown compiler"
#endif
#ifndef SWITCHYARD_BUILD_TYPE
#define SWITCHYARD_BUILD_TYPE ""
#endif
#ifndef SWITCHYARD_BUILD_DATE
#define SWITCHYARD_BUILD_DATE ""
#endif

namespace Switchyard::Console {

AboutDialog::AboutDialog(Admin::AdminBackend *backend, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About Switchyard"));
    resize(640, 520);
    auto *layout = new QVBoxLayout(this);
    auto *title = new QLabel(QStringLiteral("<h2>%1</h2>").arg(versionText().toHtmlEscaped()), this);
    title->setObjectName(QStringLiteral("aboutVersion"));
    title->setAccessibleName(versionText());
    layout->addWidget(title);
    auto *about = new QLabel(tr("An administration console for the background machinery of a Gitea forge: queues, cron, "
                                "locks, notifications, webhooks and mail."),
                             this);
    about->setWordWrap(true);
    layout->addWidget(about);
    auto *build = new QLabel(buildText(), this);
    build->setObjectName(QStringLiteral("aboutBuild"));
    build->setTextFormat(Qt::PlainText);
    build->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    build->setWordWrap(true);
    layout->addWidget(build);
    m_instance = new QLabel(this);
    m_instance->setObjectName(QStringLiteral("aboutInstance"));
    m_instance->setTextFormat(Qt::PlainText); // a path or a URL, never markup
    m_instance->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_instance->setWordWrap(true);
    layout->addWidget(m_instance);

    m_licences = new QTreeWidget(this);
    m_licences->setObjectName(QStringLiteral("aboutLicences"));
    m_licences->setAccessibleName(tr("What the console ships, and under which licence"));
    m_licences->setRootIsDecorated(false);
    m_licences->setUniformRowHeights(true);
    m_licences->setHeaderLabels({tr("Component"), tr("Licence"), tr("Notes")});
    m_licences->header()->resizeSection(0, 170);
    m_licences->header()->resizeSection(1, 170);
    layout->addWidget(m_licences, 1);
    fillLicences();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_copy = buttons->addButton(tr("&Copy build info"), QDialogButtonBox::ActionRole);
    m_copy->setObjectName(QStringLiteral("copyBuildInfo"));
    m_copy->setAccessibleName(tr("Copy the version, build and instance to the clipboard"));
    connect(m_copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(buildInfo()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    if (!backend) {
        setInstanceText(tr("No instance is open."));
    } else if (const QUrl url = backend->apiUrl(); url.isValid() && !url.isEmpty()) {
        setInstanceText(tr("Instance: %1 (%2)").arg(backend->displayName(), url.toString()));
    } else {
        setInstanceText(tr("Data directory: reading…"));
        backend->call(Admin::Ops::instance, {}, this, [this](Result<Admin::InstanceInfo> info) {
            if (!info)
                setInstanceText(tr("Data directory: unknown (%1)").arg(info.status().message()));
            else
                setInstanceText(tr("Data directory: %1").arg(info->dataPath));
        });
    }
}

QString AboutDialog::versionText()
{
    return tr("Switchyard %1").arg(QStringLiteral(SWITCHYARD_VERSION));
}

QString AboutDialog::buildText()
{
    const QString type = QStringLiteral(SWITCHYARD_BUILD_TYPE).isEmpty() ? tr("no build type") : QStringLiteral(SWITCHYARD_BUILD_TYPE);
    return tr("Built with Qt %1, running on Qt %2; %3, %4; built %5")
        .arg(QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()), QStringLiteral(SWITCHYARD_COMPILER), type,
             QStringLiteral(SWITCHYARD_BUILD_DATE));
}

QString AboutDialog::buildInfo() const
{
    return QStringList{versionText(), buildText(), m_instanceText}.join(u'\n');
}

void AboutDialog::setInstanceText(const QString &text)
{
    m_instanceText = text;
    m_instance->setText(text);
}

// What ships in the console, as the Debian packages' copyright files say.
void AboutDialog::fillLicences()
{
    const QString copyright = tr("no licence chosen yet: see the package's copyright file (/usr/share/doc/switchyard/copyright)");
    const QList<QStringList> rows{
        {tr("Switchyard"), tr("not stated"), copyright},
        {tr("Qt 6"), QStringLiteral("LGPL-3.0 (or GPL-2.0)"), tr("Core, Network, SQL, Widgets, SVG, WebSockets")},
        {tr("Qt Charts"), QStringLiteral("GPL-3.0"), tr("the pages' charts")},
        {tr("SQLite"), tr("public domain"), tr("through Qt's SQLite driver")},
        {tr("hiredis"), QStringLiteral("BSD-3-Clause"), tr("Redis queues, locks, cache and pub/sub")},
        {tr("LevelDB"), QStringLiteral("BSD-3-Clause"), tr("level queues (with Snappy, BSD-3-Clause)")},
        {tr("QtKeychain"), QStringLiteral("BSD-2-Clause"), tr("the tokens of saved instances")},
        {tr("http_parser"), QStringLiteral("MIT"), tr("the system's libhttp-parser")},
        {tr("OpenSSL"), QStringLiteral("Apache-2.0"), tr("signatures and sealed secrets")},
        {tr("libcurl"), tr("curl (MIT-style)"), tr("mail over SMTP")},
        {tr("cmark-gfm"), QStringLiteral("BSD-2-Clause"), tr("Markdown in mail")},
        {tr("Mustache (kainjow)"), QStringLiteral("BSL-1.0"), tr("mail templates")},
        {tr("Adwaita icons"), QStringLiteral("CC-BY-SA-3.0 or LGPL-3.0"), tr("the GNOME Project; resources/icons/README.md")},
    };
    for (const QStringList &row : rows) {
        auto *item = new QTreeWidgetItem(m_licences, row);
        item->setToolTip(2, row.at(2));
    }
}

} // namespace Switchyard::Console
