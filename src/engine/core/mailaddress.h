#pragma once

// Mail addresses as operators write them ([mailer] FROM, POST /mail/test) and as the forge stores
// them: "address" or "Display Name <address>". What a header may carry safely: no line breaks,
// no second address, an addr-spec whose local part is a dot-atom (RFC 5322 §3.4.1) and whose
// domain is a host name (international names become their ACE form) or an address literal.

#include "engine/core/status.h"

#include <QString>

namespace Switchyard {

struct MailAddress
{
    QString name;    // the display name, unquoted; may be empty
    QString address; // local@domain

    bool operator==(const MailAddress &) const = default;
};

// InvalidArgument saying what is wrong, without a field name (the caller adds its own).
Result<MailAddress> parseMailAddress(const QString &text);

} // namespace Switchyard
