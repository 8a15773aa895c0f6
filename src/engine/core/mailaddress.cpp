#include "mailaddress.h"

#include <QRegularExpression>
#include <QUrl>

namespace Switchyard {

namespace {

// RFC 5322 atext, for a dot-atom local part.
bool isAtext(QChar c)
{
    if (c.unicode() > 0x7e || c.unicode() <= 0x20)
        return false;
    return c.isLetterOrNumber() || QStringView(u"!#$%&'*+-/=?^_`{|}~").contains(c);
}

Status bad(const QString &text, const QString &why)
{
    return Status::invalidArgument(QStringLiteral("\"%1\" is not a mail address: %2").arg(text.left(200), why));
}

} // namespace

Result<MailAddress> parseMailAddress(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return Status::invalidArgument(QStringLiteral("the mail address is empty"));
    for (QChar c : trimmed)
        if (c == u'\r' || c == u'\n' || c == QChar(0))
            return bad(trimmed, QStringLiteral("it contains a line break"));
    MailAddress out;
    QString spec = trimmed;
    if (trimmed.endsWith(u'>')) {
        const qsizetype open = trimmed.lastIndexOf(u'<');
        if (open < 0)
            return bad(trimmed, QStringLiteral("'>' without '<'"));
        QString name = trimmed.left(open).trimmed();
        if (name.size() >= 2 && name.startsWith(u'"') && name.endsWith(u'"'))
            name = name.mid(1, name.size() - 2).replace(QLatin1String("\\\""), QLatin1String("\""));
        if (name.contains(u'<') || name.contains(u'>'))
            return bad(trimmed, QStringLiteral("more than one address"));
        out.name = name;
        spec = trimmed.mid(open + 1, trimmed.size() - open - 2).trimmed();
    }
    if (spec.size() > 254)
        return bad(trimmed, QStringLiteral("longer than 254 characters"));
    const qsizetype at = spec.lastIndexOf(u'@');
    if (at <= 0 || at == spec.size() - 1)
        return bad(trimmed, QStringLiteral("expected local-part@domain"));
    const QString local = spec.left(at);
    const QString domain = spec.mid(at + 1);
    if (local.size() > 64)
        return bad(trimmed, QStringLiteral("the part before @ is longer than 64 characters"));
    if (local.startsWith(u'.') || local.endsWith(u'.') || local.contains(QLatin1String("..")))
        return bad(trimmed, QStringLiteral("the part before @ has a misplaced dot"));
    for (QChar c : local)
        if (c != u'.' && !isAtext(c))
            return bad(trimmed, QStringLiteral("'%1' may not appear before @ (quoted local parts are not accepted)").arg(c));
    QString ace;
    if (domain.startsWith(u'[') && domain.endsWith(u']')) {
        ace = domain; // an address literal
    } else {
        ace = QString::fromLatin1(QUrl::toAce(domain));
        static const QRegularExpression host(QStringLiteral("^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"));
        if (ace.isEmpty() || !host.match(ace).hasMatch())
            return bad(trimmed, QStringLiteral("\"%1\" is not a domain").arg(domain.left(100)));
    }
    out.address = local + u'@' + ace;
    return out;
}

} // namespace Switchyard
