// maskedUrl(): a hook's URL as every view but the admin's edit form shows it. Receivers often take
// their credentials in the URL (https://user:pass@…, ?token=…); read-only API tokens, exports,
// the delivery history and the logs must not hand them out.
//
// Threads: no state; safe from any thread.

#include "webhook.h"

#include <QRegularExpression>
#include <QSet>
#include <QUrl>

namespace Switchyard::Webhook {

namespace {

const QString kMask = QStringLiteral("***");

// A query key that names a secret: one of its words (split at `_`, `-`, `.`, other punctuation
// and camelCase humps) or all of them run together is a secret's name, in any case: `token`,
// `access_token`, `Access-Token`, `accessToken`, `private_token`, `X-Amz-Signature`, `apikey`.
bool secretKey(const QString &key)
{
    static const QSet<QString> kNames{
        QStringLiteral("token"),       QStringLiteral("secret"),      QStringLiteral("key"),
        QStringLiteral("password"),    QStringLiteral("passwd"),      QStringLiteral("pass"),
        QStringLiteral("auth"),        QStringLiteral("accesstoken"), QStringLiteral("apikey"),
        QStringLiteral("sig"),         QStringLiteral("signature"),   QStringLiteral("credential"),
        QStringLiteral("credentials"),
    };
    static const QRegularExpression kHump(QStringLiteral("([a-z0-9])([A-Z])"));
    static const QRegularExpression kPunct(QStringLiteral("[^a-z0-9]+"));
    QString spaced = key;
    spaced.replace(kHump, QStringLiteral("\\1 \\2"));
    const QStringList words = spaced.toLower().split(kPunct, Qt::SkipEmptyParts);
    if (words.isEmpty())
        return false;
    for (const QString &word : words)
        if (kNames.contains(word))
            return true;
    return kNames.contains(words.join(QString()));
}

// The encoded query with the value of every secret key replaced; `changed` when one was.
QString maskedQuery(const QString &query, bool &changed)
{
    QStringList items = query.split(u'&');
    for (QString &item : items) {
        const qsizetype eq = item.indexOf(u'=');
        const QString rawKey = eq < 0 ? item : item.left(eq);
        QString key = rawKey;
        key.replace(u'+', u' ');
        if (eq < 0 || !secretKey(QUrl::fromPercentEncoding(key.toUtf8())))
            continue;
        if (item.mid(eq + 1) != kMask) {
            item = rawKey + u'=' + kMask;
            changed = true;
        } else {
            changed = true; // masked before: still a masked URL
        }
    }
    return items.join(u'&');
}

}  // namespace

QString maskedUrl(const QString &url, bool *masked)
{
    if (masked)
        *masked = false;
    if (url.isEmpty())
        return url;
    QUrl u(url, QUrl::TolerantMode);
    if (!u.isValid()) {
        // Nothing to show safely: a URL we cannot take apart may carry anything.
        if (masked)
            *masked = true;
        return kMask;
    }
    bool changed = false;
    if (!u.userInfo().isEmpty()) {
        u.setUserInfo(kMask);
        changed = true;
    }
    if (u.hasQuery())
        u.setQuery(maskedQuery(u.query(QUrl::FullyEncoded), changed), QUrl::TolerantMode);
    if (masked)
        *masked = changed;
    return changed ? u.toString() : url;
}

}  // namespace Switchyard::Webhook
