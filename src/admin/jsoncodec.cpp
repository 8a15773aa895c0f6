#include "jsoncodec.h"

namespace Switchyard::Admin::Json {

QJsonValue time(const QDateTime &value)
{
    if (!value.isValid())
        return QJsonValue(QJsonValue::Null);
    return value.toOffsetFromUtc(value.offsetFromUtc()).toString(Qt::ISODateWithMs);
}

QJsonObject error(const Status &status)
{
    QJsonObject o{{QStringLiteral("message"), status.message()}, {QStringLiteral("code"), Status::codeKey(status.code())}};
    if (!status.field().isEmpty()) {
        o.insert(QStringLiteral("field"), status.field());
        o.insert(QStringLiteral("errors"),
                 QJsonArray{QJsonObject{{QStringLiteral("field"), status.field()}, {QStringLiteral("message"), status.message()}}});
    }
    return o;
}

Status statusFromError(const QJsonObject &body, Status::Code fallback, const QString &fallbackMessage)
{
    QString message = body.value(QStringLiteral("message")).toString();
    if (message.isEmpty())
        message = fallbackMessage;
    const std::optional<Status::Code> code = Status::codeFromKey(body.value(QStringLiteral("code")).toString());
    Status status(code && *code != Status::Code::Ok ? *code : fallback, message);
    const QString field = body.value(QStringLiteral("field")).toString();
    return field.isEmpty() ? status : status.withField(field);
}

namespace detail {

QString join(const QString &path, const char *key)
{
    return path.isEmpty() ? QLatin1String(key) : path + u'.' + QLatin1String(key);
}

Status typeError(const QString &path, const QJsonValue &json, const char *expected)
{
    Q_UNUSED(json);
    return Status::invalidArgument(QStringLiteral("%1: expected %2").arg(path.isEmpty() ? QStringLiteral("body") : path,
                                                                          QLatin1String(expected)))
        .withField(path);
}

} // namespace detail

Reader::Reader(const QJsonValue &json, QString path, bool strict) : m_path(std::move(path)), m_strict(strict)
{
    if (!json.isObject())
        m_status = detail::typeError(m_path, json, "an object");
    m_object = json.toObject();
}

QJsonValue Reader::take(const char *key)
{
    const QString name = QLatin1String(key);
    if (m_strict)
        m_seen.insert(name);
    return m_object.value(name);
}

void Reader::fail(const QString &path, const QString &message)
{
    if (m_status.isOk())
        m_status = Status::invalidArgument(QStringLiteral("%1: %2").arg(path, message)).withField(path);
}

Status Reader::finish() const
{
    if (!m_status || !m_strict)
        return m_status;
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!m_seen.contains(it.key())) {
            const QString path = m_path.isEmpty() ? it.key() : m_path + u'.' + it.key();
            QStringList known(m_seen.begin(), m_seen.end());
            known.sort();
            return Status::invalidArgument(QStringLiteral("%1: unknown field (expected %2)")
                                               .arg(path.left(64), known.isEmpty() ? QStringLiteral("no fields")
                                                                                   : known.join(QStringLiteral(", "))))
                .withField(path.left(64));
        }
    }
    return m_status;
}

} // namespace Switchyard::Admin::Json
