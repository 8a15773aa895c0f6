#pragma once

// The filter above the Webhooks page's deliveries: whose deliveries (the selected webhook's or
// every webhook's), status, event, period, and text in the payload or response (typing pauses
// 400 ms before it applies; Enter applies at once). changed() says when what it selects changed.
// GUI thread only.

#include "admin/ops/webhookops.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTimer;

namespace Switchyard::Console {

class DeliveryFilter final : public QWidget
{
    Q_OBJECT
public:
    explicit DeliveryFilter(QWidget *parent = nullptr);

    // Every webhook's deliveries (else the selected webhook's).
    bool allHooks() const;
    // Status, event, period or text narrow the list.
    bool narrowed() const;
    QString status() const; // empty: any
    // The search the filter spells for the deliveries of `selectedHook` (ignored for all hooks).
    Admin::DeliverySearchArgs args(qint64 selectedHook) const;
    // Every webhook's deliveries, nothing narrowing them; changed() once.
    void showEverything();

    QComboBox *scopeBox() const { return m_scope; }
    QComboBox *statusBox() const { return m_status; }
    QComboBox *eventBox() const { return m_event; }
    QComboBox *periodBox() const { return m_period; }
    QLineEdit *searchField() const { return m_search; }

Q_SIGNALS:
    void changed();

private:
    QComboBox *m_scope;
    QComboBox *m_status;
    QComboBox *m_event;
    QComboBox *m_period;
    QLineEdit *m_search;
    QTimer *m_searchDelay;
};

} // namespace Switchyard::Console
