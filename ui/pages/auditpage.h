#pragma once

#include "tablepage.h"

#include "models/auditmodel.h"

#include <QTimer>

namespace Switchyard::Console {

// Every mutating admin call on this instance — from the API (the doer is the token's name) and from
// consoles on the embedded engine ("console (user)", from "local"): newest first, refused calls in
// red. Read while the page is shown, every 5 s (the stream does not carry the audit log): the newest
// 200 rows, and older pages as the table is scrolled to its end.
class AuditPage final : public TablePage
{
    Q_OBJECT
public:
    explicit AuditPage(Admin::AdminBackend &backend, QWidget *parent = nullptr);

    void refresh() override;

    AuditModel &model() { return m_model; }

private:
    void readPage(qint64 page, const Done &done); // `done` (may be empty) ends refresh()'s single() call
    AuditModel m_model;
};

} // namespace Switchyard::Console
