#include "deliveryfilter.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTimer>

namespace Switchyard::Console {

namespace {

constexpr int kSearchDelayMs = 400; // typing pauses this long before the text filter applies

enum Scope { SelectedHook, AllHooks };

QComboBox *makeChooser(QWidget *parent, const QString &accessibleName, const QString &label, QHBoxLayout *row)
{
    auto *box = new QComboBox(parent);
    box->setAccessibleName(accessibleName);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(8);
    auto *caption = new QLabel(label, parent);
    caption->setBuddy(box);
    row->addWidget(caption);
    row->addWidget(box);
    return box;
}

} // namespace

DeliveryFilter::DeliveryFilter(QWidget *parent) : QWidget(parent)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(4, 0, 4, 0);
    m_scope = makeChooser(this, tr("Deliveries of"), tr("&Of:"), row);
    m_scope->setMinimumContentsLength(15);
    m_scope->addItem(tr("Selected webhook"), SelectedHook);
    m_scope->addItem(tr("All webhooks"), AllHooks);
    m_status = makeChooser(this, tr("Delivery status"), tr("S&tatus:"), row);
    m_status->addItem(tr("Any"), QString());
    for (const char *status : {"failed", "unknown", "succeeded", "pending", "skipped"})
        m_status->addItem(QString::fromLatin1(status), QString::fromLatin1(status));
    m_event = makeChooser(this, tr("Delivery event"), tr("E&vent:"), row);
    m_event->setMinimumContentsLength(14);
    m_event->addItem(tr("Any"), QString());
    for (const QString &event : Admin::hookEventNames())
        m_event->addItem(event, event);
    m_period = makeChooser(this, tr("Queued within"), tr("&Within:"), row);
    m_period->addItem(tr("Any time"), 0);
    m_period->addItem(tr("Last hour"), 3600);
    m_period->addItem(tr("Last 24 hours"), 24 * 3600);
    m_period->addItem(tr("Last 7 days"), 7 * 24 * 3600);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Text in payload or response"));
    m_search->setAccessibleName(tr("Search deliveries"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(180);
    row->addWidget(m_search, 1);
    m_searchDelay = new QTimer(this);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(kSearchDelayMs);
    connect(m_searchDelay, &QTimer::timeout, this, &DeliveryFilter::changed);
    connect(m_search, &QLineEdit::textEdited, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        m_searchDelay->stop();
        Q_EMIT changed();
    });
    for (QComboBox *box : {m_scope, m_status, m_event, m_period})
        connect(box, &QComboBox::currentIndexChanged, this, &DeliveryFilter::changed);
}

bool DeliveryFilter::allHooks() const
{
    return m_scope->currentData().toInt() == AllHooks;
}

bool DeliveryFilter::narrowed() const
{
    return !m_status->currentData().toString().isEmpty() || !m_event->currentData().toString().isEmpty()
           || m_period->currentData().toInt() > 0 || !m_search->text().trimmed().isEmpty();
}

QString DeliveryFilter::status() const
{
    return m_status->currentData().toString();
}

Admin::DeliverySearchArgs DeliveryFilter::args(qint64 selectedHook) const
{
    Admin::DeliverySearchArgs filter;
    filter.hook = allHooks() ? 0 : selectedHook;
    filter.status = m_status->currentData().toString();
    filter.event = m_event->currentData().toString();
    if (const int seconds = m_period->currentData().toInt(); seconds > 0)
        filter.since = QDateTime::currentDateTimeUtc().addSecs(-seconds);
    filter.q = m_search->text().trimmed();
    return filter;
}

void DeliveryFilter::showEverything()
{
    {
        const QSignalBlocker scope(m_scope), status(m_status), event(m_event), period(m_period);
        m_scope->setCurrentIndex(m_scope->findData(AllHooks));
        for (QComboBox *box : {m_status, m_event, m_period})
            box->setCurrentIndex(0);
        m_search->clear();
        m_searchDelay->stop();
    }
    Q_EMIT changed();
}

} // namespace Switchyard::Console
