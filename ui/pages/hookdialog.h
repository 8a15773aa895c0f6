#pragma once

#include "admin/ops/webhookops.h"

#include <QDialog>
#include <QJsonObject>

#include <vector>

class QLineEdit;

namespace Ui {
class HookDialog;
}

namespace Switchyard::Console {

// Adds or edits a webhook (forms/hookdialog.ui). It checks nothing itself: OK emits submitted()
// and the page sends the call; an error from the instance is shown in the dialog with the field
// it names focused, so a mistake is fixed in place and nothing typed is lost.
class HookDialog final : public QDialog
{
    Q_OBJECT
public:
    // `existing`: edit that hook (its scope stays; empty secret and header fields keep theirs). A
    // list row's URL is masked: the URL field stays read-only until setClearUrl() gives the
    // stored one (GET /hooks/{id}, an admin's), and an unchanged URL is not sent back.
    explicit HookDialog(QWidget *parent, const Admin::HookRow *existing = nullptr);
    ~HookDialog() override;

    bool isEdit() const { return m_editId > 0; }
    qint64 editId() const { return m_editId; }
    Admin::HookCreateArgs createArgs() const;
    Admin::HookUpdateArgs updateArgs() const;
    // The hook's URL as stored, for editing (ignored once the field was changed by hand).
    void setClearUrl(const QString &url);
    // Shows the instance's refusal and focuses the field it names.
    void showError(const Status &status);

    // The widgets, by the API field they fill (tests, focus on errors).
    QWidget *fieldWidget(const QString &field) const;

Q_SIGNALS:
    void submitted();

private:
    QJsonObject eventsJson() const;
    QJsonObject metaJson() const;
    // Rebuilds the channel settings for the chosen type (keeping what was typed under a key).
    void showChannelFields(const QJsonObject &values);
    // The Authorization field says what a changed URL does to the stored header.
    void urlEdited();
    Ui::HookDialog *m_ui;
    std::vector<std::pair<QString, QLineEdit *>> m_metaEdits; // meta key → its field
    QJsonObject m_existingMeta; // kept for the keys the dialog does not show
    qint64 m_editId = 0;
    QString m_shownUrl;          // the URL the field was filled with (an edit sends the URL only when it differs)
    bool m_hasAuthorization = false; // the edited hook has a stored header
};

} // namespace Switchyard::Console
