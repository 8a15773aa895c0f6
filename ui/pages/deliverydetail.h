#pragma once

// The selected delivery of the Webhooks page, in three tabs: the request that went out (method,
// URL, headers — Authorization as ******, recorded so —, the body pretty-printed), the response
// (status, headers, body, or the error) and its attempts (those that ended with their instance,
// then the last). GUI thread only.

#include "admin/admintypes.h"

#include <QTabWidget>

class QPlainTextEdit;

namespace Switchyard::Console {

class DeliveryDetail final : public QTabWidget
{
    Q_OBJECT
public:
    explicit DeliveryDetail(QWidget *parent = nullptr);

    // Shows `row`; null clears the tabs.
    void showDelivery(const Admin::HookTaskRow *row);

    QPlainTextEdit *requestText() const { return m_request; }
    QPlainTextEdit *responseText() const { return m_response; }
    QPlainTextEdit *attemptsText() const { return m_attempts; }
    // The delivery's attempts, oldest first: those that ended with their instance, then the last.
    static QString describeAttempts(const Admin::HookTaskRow &row);

private:
    QPlainTextEdit *m_request;
    QPlainTextEdit *m_response;
    QPlainTextEdit *m_attempts;
};

} // namespace Switchyard::Console
