#pragma once

// The live stream's frames (GET /stream, the console's live updates): "<event-type>\n<json>".
// Every event kind is registered once, in streamevents.cpp — its name, how its payload is
// written and how it is read — for the server, the remote backend and `switchyardctl stream`.

#include "admintypes.h"

#include "engine/core/status.h"

#include <QByteArray>
#include <QStringList>

namespace Switchyard::Admin::Stream {

QByteArray frame(const AdminEvent &event);
// The frame's event; NotFound for an event type this client does not know (skip it).
Result<AdminEvent> eventFromFrame(const QByteArray &frame);
// The registered kinds' names, in docs order.
QStringList kindNames();

} // namespace Switchyard::Admin::Stream
