#pragma once

// What the admin server's two files share: adminserver.cpp (listening, routing, handling,
// streamed answers) and adminauth.cpp (tokens, the edge's judgement of a request head, the
// stream's handshake). Not for other users.

#include "server/adminserver.h"

#include <QByteArray>
#include <QString>

namespace Switchyard::Server::Detail {

// Where every route lives.
inline const QString kPrefix = QStringLiteral("/api/v1");

// The token of an `Authorization: Bearer …` (or `token …`) header; empty when there is none.
QByteArray bearer(const QByteArray &authorization);

// The pipeline's own refusals (no entry ran), with the code a client maps them to.
Reply refusal(int httpStatus, const QString &message, const QString &field = QString());

// A refusal as the pipeline answers it.
Reply reply(const Refusal &refused);

// The 404 or 405 for a request no route matches; `allowed`: the methods the path has.
Refusal noRoute(const QString &method, const QString &path, const QStringList &allowed);

} // namespace Switchyard::Server::Detail
