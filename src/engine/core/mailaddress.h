#pragma once

// Mail addresses, from wherever they come: a forge's payloads (a user's email, a commit's author),
// the store (rows written before addresses were checked), operators ([mailer] FROM, POST
// /mail/test). One grammar for all of them: RFC 5321's Mailbox, the form an address has on the
// wire (MAIL FROM, RCPT TO, sendmail's argument), so nothing that passes can carry a second
// command, a second recipient or a header of its own.
//
//   Mailbox    = Local-part "@" ( Domain / address-literal )
//   Local-part = Dot-string / Quoted-string   (at most 64 octets)
//   Domain     = sub-domain *("." sub-domain)  (letters, digits, hyphens; at most 63 a label)
//   address-literal = "[" IPv4 "]" / "[IPv6:" IPv6 "]"
//   the whole at most 254 octets (a path of 256 with its angle brackets)
//
// ASCII only: a non-ASCII local part needs SMTPUTF8 (RFC 6531) end to end, which the senders do
// not speak, so it is refused. A domain written in Unicode (an IDN) becomes its ACE form
// ("xn--…", QUrl::toAce), which every server takes. No control character, no white space
// outside a quoted string, no comment, no folding, no trimming.
//
// Pure functions without state: thread-safe, and what a fuzzer calls.

#include "engine/core/status.h"

#include <QString>
#include <QStringView>

namespace Switchyard {

// The address as it goes on the wire: the domain in ACE form, the rest as given. An
// InvalidArgument saying what is wrong and where, the input quoted with its control characters
// escaped (\r, \n, \x00 …) and cut to 100 characters; no field name (the caller adds its own).
Result<QString> parseMailbox(QStringView text);

struct MailAddress
{
    QString name;    // the display name, unquoted; may be empty
    QString address; // a Mailbox (parseMailbox's form)

    bool operator==(const MailAddress &) const = default;
};

// How operators write an address ([mailer] FROM, POST /mail/test): "address", "<address>" or
// "Display Name <address>" (the name may be quoted), white space around it ignored; the address
// part must be a Mailbox as above, and nothing in the text may be a control character.
Result<MailAddress> parseMailAddress(const QString &text);

} // namespace Switchyard
