#pragma once

// "Send test event" and "Send event from file…": a forge's webhook without a forge. A sample
// payload (resources/samples/) with fresh ids and times, or a saved one; posted the way a forge
// posts it — to the instance's POST /api/v1/events?source=default, signed with the event source's
// secret (X-Gitea-Signature and X-Hub-Signature-256) — so it takes the real HTTP path, the
// signature check included. Without a URL or a secret (a remote instance whose secret the console
// does not know; an embedded API that could not listen) it goes through the catalogue's
// events.send instead: the same ingestion, authorised by the connection's token.
//
// Threads: GUI thread; replies come on `context`'s thread.

#include "admin/adminbackend.h"

#include <QJsonObject>
#include <QObject>

#include <functional>

class QAction;
class QNetworkAccessManager;
class QWidget;

namespace Switchyard::Console {

class EventSender final : public QObject
{
    Q_OBJECT
public:
    struct Sent
    {
        qint64 id = 0;
        QString traceId;
        bool viaHttp = false; // signed over HTTP (else through the catalogue)
    };
    using Done = std::function<void(Result<Sent>)>;
    EventSender(Admin::AdminBackend &backend, QObject *parent = nullptr);

    // push, issues, pull_request: the samples, with labels for a menu.
    static QList<std::pair<QString, QString>> samples();
    // A sample with fresh ids, numbers and times (each send is a new event, not a replay).
    static QByteArray sample(const QString &event);
    // The event a payload is, from its shape (Gitea's and GitHub's payloads); empty when it
    // cannot tell (create and delete look alike: ask).
    static QString detect(const QJsonObject &payload);
    // Every event name a forge sends that the engine takes, for the "which event?" question.
    static QStringList eventNames();

    void send(const QString &event, const QByteArray &payload, QObject *context, Done done);

private:
    void sendSigned(const QString &event, const QByteArray &payload, const QByteArray &secret, QObject *context, Done done);

    Admin::AdminBackend &m_backend;
    QNetworkAccessManager *m_network = nullptr; // made on first use
};

// The two actions a page offers to try the instance out: "Send test event" (its menu: the
// samples; triggered alone: a push) and "Send event from file…" (the event is detected from the
// payload, and asked when it cannot be). What happened is reported through the callbacks.
class EventTryout final : public QObject
{
    Q_OBJECT
public:
    using Report = std::function<void(bool ok, const QString &message, const QString &detail)>;
    EventTryout(Admin::AdminBackend &backend, QWidget *dialogParent, Report report);

    QAction *sendTestAction() const { return m_sendTest; }
    QAction *sendFileAction() const { return m_sendFile; }
    EventSender &sender() { return m_sender; }

    // Sends the sample `event` (push, issues, pull_request).
    void sendSample(const QString &event);
    // Sends the payload in `path`; `event` empty: detected, else asked.
    void sendFile(const QString &path, QString event = {});

private:
    void reportSent(const QString &what, const Result<EventSender::Sent> &sent);

    EventSender m_sender;
    QWidget *m_dialogParent;
    Report m_report;
    QAction *m_sendTest;
    QAction *m_sendFile;
};

} // namespace Switchyard::Console
