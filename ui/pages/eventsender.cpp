#include "eventsender.h"

#include "admin/ops/eventops.h"
#include "widgets/icons.h"

#include <QAction>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRandomGenerator>
#include <QUrlQuery>
#include <QUuid>

namespace Switchyard::Console {

namespace {

QString randomSha()
{
    QByteArray bytes(20, Qt::Uninitialized);
    QRandomGenerator::global()->generate(bytes.begin(), bytes.end());
    return QString::fromLatin1(bytes.toHex());
}

// push: a new commit on main; issues and pull requests: a new number.
void freshen(const QString &event, QJsonObject &payload)
{
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    if (event == QLatin1String("push")) {
        const QString after = randomSha();
        payload[QStringLiteral("before")] = payload.value(QStringLiteral("after"));
        payload[QStringLiteral("after")] = after;
        QJsonArray commits = payload.value(QStringLiteral("commits")).toArray();
        if (!commits.isEmpty()) {
            QJsonObject commit = commits.first().toObject();
            commit[QStringLiteral("id")] = after;
            commit[QStringLiteral("timestamp")] = now;
            commits[0] = commit;
        }
        payload[QStringLiteral("commits")] = commits;
        return;
    }
    const QString key = event == QLatin1String("issues") ? QStringLiteral("issue") : QStringLiteral("pull_request");
    const int number = int(QRandomGenerator::global()->bounded(100, 100000));
    QJsonObject item = payload.value(key).toObject();
    item[QStringLiteral("number")] = number;
    item[QStringLiteral("id")] = number + 100000;
    item[QStringLiteral("created_at")] = now;
    item[QStringLiteral("updated_at")] = now;
    const QString html = item.value(QStringLiteral("html_url")).toString();
    item[QStringLiteral("html_url")] = html.left(html.lastIndexOf(QLatin1Char('/')) + 1) + QString::number(number);
    payload[key] = item;
    payload[QStringLiteral("number")] = number;
}

} // namespace

EventSender::EventSender(Admin::AdminBackend &backend, QObject *parent) : QObject(parent), m_backend(backend) {}

QList<std::pair<QString, QString>> EventSender::samples()
{
    return {{QStringLiteral("push"), tr("Push (one commit to main)")},
            {QStringLiteral("issues"), tr("Issue opened")},
            {QStringLiteral("pull_request"), tr("Pull request opened")}};
}

QByteArray EventSender::sample(const QString &event)
{
    QFile file(QStringLiteral(":/switchyard/samples/%1.json").arg(event));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QJsonObject payload = QJsonDocument::fromJson(file.readAll()).object();
    freshen(event, payload);
    return QJsonDocument(payload).toJson(QJsonDocument::Compact);
}

QStringList EventSender::eventNames()
{
    return {QStringLiteral("push"),          QStringLiteral("issues"),         QStringLiteral("issue_comment"),
            QStringLiteral("pull_request"),  QStringLiteral("pull_request_review"), QStringLiteral("pull_request_review_comment"),
            QStringLiteral("release"),       QStringLiteral("create"),         QStringLiteral("delete"),
            QStringLiteral("fork"),          QStringLiteral("repository"),     QStringLiteral("wiki"),
            QStringLiteral("gollum"),        QStringLiteral("package"),        QStringLiteral("status"),
            QStringLiteral("workflow_run"),  QStringLiteral("workflow_job"),   QStringLiteral("ping")};
}

QString EventSender::detect(const QJsonObject &p)
{
    const auto has = [&p](const char *key) { return p.contains(QLatin1String(key)) && !p.value(QLatin1String(key)).isNull(); };
    if (has("zen") || has("hook_id"))
        return QStringLiteral("ping");
    if (has("commits") && has("ref"))
        return QStringLiteral("push");
    if (has("pull_request") && has("review"))
        return QStringLiteral("pull_request_review");
    if (has("pull_request") && has("comment"))
        return QStringLiteral("pull_request_review_comment");
    if (has("pull_request"))
        return QStringLiteral("pull_request");
    if (has("issue") && has("comment"))
        return QStringLiteral("issue_comment");
    if (has("issue"))
        return QStringLiteral("issues");
    if (has("release"))
        return QStringLiteral("release");
    if (has("forkee"))
        return QStringLiteral("fork");
    if (has("pages"))
        return QStringLiteral("gollum");
    if (has("workflow_run"))
        return QStringLiteral("workflow_run");
    if (has("workflow_job"))
        return QStringLiteral("workflow_job");
    if (has("package"))
        return QStringLiteral("package");
    if (has("sha") && has("state") && has("context"))
        return QStringLiteral("status");
    return {};
}

void EventSender::send(const QString &event, const QByteArray &payload, QObject *context, Done done)
{
    const QByteArray secret = m_backend.eventSourceSecret(QStringLiteral("default"));
    if (!m_backend.apiUrl().isEmpty() && !secret.isEmpty()) {
        sendSigned(event, payload, secret, context, std::move(done));
        return;
    }
    Admin::EventPost post;
    post.event = event;
    post.giteaDelivery = QUuid::createUuid().toString(QUuid::WithoutBraces);
    post.payload = payload;
    m_backend.call(Admin::Ops::eventIngest, post, context, [done = std::move(done)](Result<Admin::EventAcceptedRow> row) {
        if (!row)
            done(row.status());
        else
            done(Sent{row->id, row->traceId, false});
    });
}

void EventSender::sendSigned(const QString &event, const QByteArray &payload, const QByteArray &secret, QObject *context, Done done)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    QUrl url(m_backend.apiUrl().toString(QUrl::StripTrailingSlash) + QStringLiteral("/events"));
    url.setQuery(QUrlQuery{{QStringLiteral("source"), QStringLiteral("default")}});
    QNetworkRequest request(url);
    const QByteArray signature = QMessageAuthenticationCode::hash(payload, secret, QCryptographicHash::Sha256).toHex();
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Switchyard-Console (test event)"));
    request.setRawHeader("X-Gitea-Event", event.toUtf8());
    request.setRawHeader("X-Gitea-Event-Type", event.toUtf8());
    request.setRawHeader("X-Gitea-Delivery", QUuid::createUuid().toByteArray(QUuid::WithoutBraces));
    request.setRawHeader("X-Gitea-Signature", signature);
    request.setRawHeader("X-Hub-Signature-256", "sha256=" + signature);
    QNetworkReply *reply = m_network->post(request, payload);
    QPointer<QObject> target(context);
    connect(reply, &QNetworkReply::finished, this, [reply, target, done = std::move(done)] {
        reply->deleteLater();
        if (!target)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        if (status != 202) {
            const QString why = body.value(QStringLiteral("message")).toString(reply->errorString());
            done(Status::unavailable(status ? tr("the instance answered %1: %2").arg(status).arg(why) : why));
            return;
        }
        done(Sent{body.value(QStringLiteral("id")).toInteger(), body.value(QStringLiteral("trace_id")).toString(), true});
    });
}

EventTryout::EventTryout(Admin::AdminBackend &backend, QWidget *dialogParent, Report report)
    : QObject(dialogParent), m_sender(backend, this), m_dialogParent(dialogParent), m_report(std::move(report))
{
    m_sendTest = new QAction(Icons::symbolic(QStringLiteral("mail-send")), tr("Send test event"), this);
    m_sendTest->setObjectName(QStringLiteral("sendTestEvent"));
    m_sendTest->setToolTip(tr("Post a sample forge event (a push) to this instance, signed as a forge would; "
                              "the menu has an issue and a pull request too"));
    auto *menu = new QMenu(dialogParent);
    menu->setAccessibleName(tr("Sample events"));
    const QMap<QString, QString> icons{{QStringLiteral("push"), QStringLiteral("network-transmit")},
                                       {QStringLiteral("issues"), QStringLiteral("document-edit")},
                                       {QStringLiteral("pull_request"), QStringLiteral("changes-allow")}};
    for (const auto &[event, label] : EventSender::samples())
        menu->addAction(Icons::symbolic(icons.value(event)), label, this, [this, event = event] { sendSample(event); });
    m_sendTest->setMenu(menu);
    connect(m_sendTest, &QAction::triggered, this, [this] { sendSample(QStringLiteral("push")); });
    m_sendFile = new QAction(Icons::symbolic(QStringLiteral("document-open-recent")), tr("Send event from file…"), this);
    m_sendFile->setObjectName(QStringLiteral("sendEventFromFile"));
    m_sendFile->setToolTip(tr("Post a saved webhook payload (JSON) to this instance"));
    connect(m_sendFile, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Send event from file"), QString(),
                                                          tr("Webhook payloads (*.json);;All files (*)"));
        if (!path.isEmpty())
            sendFile(path);
    });
    const auto enable = [this, b = &backend] {
        const bool can = b->state() == Admin::AdminBackend::State::Connected && b->canMutate();
        m_sendTest->setEnabled(can);
        m_sendFile->setEnabled(can);
    };
    connect(&backend, &Admin::AdminBackend::stateChanged, this, enable);
    enable();
}

void EventTryout::sendSample(const QString &event)
{
    const QByteArray payload = EventSender::sample(event);
    m_sender.send(event, payload, this, [this, event](Result<EventSender::Sent> sent) {
        reportSent(tr("a test %1 event").arg(event), sent);
    });
}

void EventTryout::sendFile(const QString &path, QString event)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_report(false, tr("Cannot read %1").arg(QFileInfo(path).fileName()), file.errorString());
        return;
    }
    const QByteArray payload = file.readAll();
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(payload, &error);
    if (!document.isObject()) {
        m_report(false, tr("%1 is not a webhook payload").arg(QFileInfo(path).fileName()),
                 error.error != QJsonParseError::NoError ? tr("not JSON: %1 at byte %2").arg(error.errorString()).arg(error.offset)
                                                         : tr("a payload is a JSON object"));
        return;
    }
    if (event.isEmpty())
        event = EventSender::detect(document.object());
    if (event.isEmpty()) {
        bool ok = false;
        event = QInputDialog::getItem(m_dialogParent, tr("Which event is it?"),
                                      tr("The payload does not say which event it is (create and delete look alike). Send it as:"),
                                      EventSender::eventNames(), 0, false, &ok);
        if (!ok)
            return;
    }
    m_sender.send(event, payload, this, [this, event, name = QFileInfo(path).fileName()](Result<EventSender::Sent> sent) {
        reportSent(tr("%1 as a %2 event").arg(name, event), sent);
    });
}

void EventTryout::reportSent(const QString &what, const Result<EventSender::Sent> &sent)
{
    if (!sent) {
        m_report(false, tr("Could not send %1").arg(what), sent.status().message());
        return;
    }
    m_report(true, sent->viaHttp ? tr("Sent %1, signed, over HTTP: event %2 accepted").arg(what).arg(sent->id)
                                 : tr("Sent %1 through the admin API: event %2 accepted").arg(what).arg(sent->id),
             QString());
}

} // namespace Switchyard::Console
