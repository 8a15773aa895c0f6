#include "deliverydetail.h"

#include "widgets/format.h"

#include <QFontDatabase>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>

namespace Switchyard::Console {

namespace {

// "Header: value" lines, then a blank line and the body (pretty when it is JSON).
QString httpText(const QJsonObject &o, const QString &firstLine)
{
    QString text = firstLine + u'\n';
    const QJsonObject headers = o.value(QStringLiteral("headers")).toObject();
    for (auto it = headers.begin(); it != headers.end(); ++it)
        text += it.key() + QStringLiteral(": ") + it.value().toString() + u'\n';
    const QString body = o.value(QStringLiteral("body")).toString();
    if (!body.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(body.toUtf8());
        text += u'\n' + (doc.isNull() ? body : QString::fromUtf8(doc.toJson(QJsonDocument::Indented)));
    }
    return text;
}

QPlainTextEdit *makeText(QWidget *parent, const QString &name)
{
    auto *text = new QPlainTextEdit(parent);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setAccessibleName(name);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return text;
}

} // namespace

DeliveryDetail::DeliveryDetail(QWidget *parent) : QTabWidget(parent)
{
    setAccessibleName(tr("The selected delivery"));
    m_request = makeText(this, tr("Request sent"));
    m_response = makeText(this, tr("Response received"));
    m_attempts = makeText(this, tr("The delivery's attempts"));
    addTab(m_request, tr("&Request"));
    addTab(m_response, tr("Re&sponse"));
    addTab(m_attempts, tr("Atte&mpts"));
}

void DeliveryDetail::showDelivery(const Admin::HookTaskRow *row)
{
    if (!row) {
        m_request->clear();
        m_response->clear();
        m_attempts->clear();
        setTabText(indexOf(m_attempts), tr("Atte&mpts"));
        return;
    }
    m_attempts->setPlainText(describeAttempts(*row));
    // The count only when there is more than the one attempt every delivery has.
    setTabText(indexOf(m_attempts), row->interrupted.empty() ? tr("Atte&mpts") : tr("Atte&mpts (%1)").arg(row->interrupted.size() + 1));
    const QJsonObject request = row->request.toObject();
    const QJsonObject response = row->response.toObject();
    m_request->setPlainText(request.isEmpty() ? tr("Not sent yet (%1).").arg(row->status)
                                              : httpText(request, request.value(QStringLiteral("method")).toString() + u' '
                                                                      + request.value(QStringLiteral("url")).toString()));
    if (response.contains(QStringLiteral("status")))
        m_response->setPlainText(httpText(
            response, tr("HTTP %1 after %2 ms").arg(response.value(QStringLiteral("status")).toInt()).arg(row->durationMs, 0, 'f', 1)));
    else if (response.contains(QStringLiteral("error")))
        m_response->setPlainText(tr("No answer: %1").arg(response.value(QStringLiteral("error")).toString()));
    else
        m_response->setPlainText(tr("No answer yet (%1).").arg(row->status));
}

QString DeliveryDetail::describeAttempts(const Admin::HookTaskRow &row)
{
    QStringList lines;
    int n = 0;
    for (const Admin::HookTaskRow::Interrupted &i : row.interrupted) {
        lines << tr("Attempt %1 — unknown (interrupted)").arg(++n);
        lines << tr("  claimed by instance %1 at %2").arg(i.instanceId.isEmpty() ? tr("(unknown)") : i.instanceId, formatTime(i.claimedAt));
        lines << (i.reason == QLatin1String("stopped") ? tr("  the instance stopped before the answer; it may or may not have arrived")
                                                       : tr("  the instance ended during the delivery; it may or may not have arrived"));
        lines << tr("  taken over at %1 by %2").arg(formatTime(i.endedAt), i.endedBy);
        lines << (i.resent ? tr("  sent again under the same delivery id (%1)").arg(row.uuid)
                           : tr("  not sent again: [webhook] RESEND_INTERRUPTED is off; redeliver it if the receiver tolerates a duplicate"));
        lines << QString();
    }
    lines << tr("Attempt %1 — %2").arg(++n).arg(row.status);
    if (!row.claimedBy.isEmpty())
        lines << tr("  claimed by instance %1").arg(row.claimedBy);
    if (row.delivered.isValid())
        lines << tr("  ended at %1 after %2 ms").arg(formatTime(row.delivered)).arg(row.durationMs, 0, 'f', 1);
    return lines.join(u'\n');
}

} // namespace Switchyard::Console
