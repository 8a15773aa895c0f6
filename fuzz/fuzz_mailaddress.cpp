// libFuzzer target: the mail address grammar (src/engine/core/mailaddress.*) on arbitrary UTF-8,
// both forms. Beyond "no crash": an accepted mailbox carries no control character and no space
// outside a quoted local part, fits 254 octets, has one '@' outside quotes, and parses again to
// itself; a refusal names what is wrong without raw control characters.
#include "engine/core/mailaddress.h"

#include "fuzzcheck.h"

#include <cstddef>
#include <cstdint>

using namespace Switchyard;

namespace {

void checkMailbox(const QString &address)
{
    FUZZ_CHECK(address.toUtf8().size() <= 254, address);
    bool quoted = false;
    bool escaped = false; // the previous character was a backslash inside quotes
    int ats = 0;
    for (qsizetype i = 0; i < address.size(); ++i) {
        const QChar c = address.at(i);
        FUZZ_CHECK(c.unicode() >= 0x20 && c.unicode() != 0x7f, QStringLiteral("a control character in %1").arg(address));
        if (escaped)
            escaped = false;
        else if (quoted && c == u'\\')
            escaped = true;
        else if (c == u'"')
            quoted = !quoted;
        else if (!quoted && c == u' ')
            FUZZ_CHECK(false, QStringLiteral("a space outside quotes in %1").arg(address));
        else if (!quoted && c == u'@')
            ++ats;
    }
    FUZZ_CHECK(ats == 1, address);
    const Result<QString> again = parseMailbox(address);
    FUZZ_CHECK(again && *again == address, address);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    if (const Result<QString> mailbox = parseMailbox(text)) {
        checkMailbox(*mailbox);
    } else {
        const QString why = mailbox.status().message(); // status() is a copy: keep the text alive
        for (QChar c : why)
            FUZZ_CHECK(c != u'\r' && c != u'\n' && c.unicode() != 0, why);
    }
    if (const Result<MailAddress> address = parseMailAddress(text)) {
        checkMailbox(address->address);
        for (QChar c : address->name)
            FUZZ_CHECK(c.unicode() >= 0x20 && c.unicode() != 0x7f, address->name);
    }
    return 0;
}
