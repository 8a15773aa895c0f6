#pragma once

// The Overview's "Receiving events" box: what to paste into a forge — the URL (with Copy) and,
// for the embedded engine, the default source's secret (hidden until shown, with Copy) — why the
// embedded API cannot listen when it cannot (with a free port to use instead), and the two ways
// to try it without a forge (EventTryout). While nothing has arrived yet it also explains where
// Gitea and GitHub keep their webhook settings.
//
// Threads: GUI thread.

#include "admin/adminbackend.h"

#include <QGroupBox>

class QLabel;
class QLineEdit;
class QPushButton;

namespace Switchyard::Console {

class EventTryout;

class IntakeBox final : public QGroupBox
{
    Q_OBJECT
public:
    IntakeBox(Admin::AdminBackend &backend, EventTryout &tryout, QWidget *parent = nullptr);

    // The URL a forge posts to (…/events?source=default), or a template when unknown.
    QString eventUrl() const;
    void setFirstEventSeen(bool seen);
    // Offered as "Use port N" with the problem; 0 hides the button.
    void setSuggestedPort(quint16 port);

Q_SIGNALS:
    void copied(const QString &what);
    // The operator chose the offered port.
    void usePort(quint16 port);

private:
    void update();

    Admin::AdminBackend &m_backend;
    QLabel *m_hint;
    QLineEdit *m_url;
    QPushButton *m_copyUrl;
    QLabel *m_secretCaption;
    QLineEdit *m_secret;
    QPushButton *m_showSecret;
    QPushButton *m_copySecret;
    QLabel *m_problem;
    QPushButton *m_usePort;
    quint16 m_suggestedPort = 0;
    bool m_firstEventSeen = true;
};

} // namespace Switchyard::Console
